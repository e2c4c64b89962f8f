import pytest

from larp_app import rules
from larp_app.rules import registry


def test_the_shipped_rule_systems_are_found_through_their_entry_points():
    points = {point.value for point in registry.entry_points(group=registry.GROUP)}
    assert {"larp_app.rulesets.ex_nihilo:RULESET", "larp_app.rulesets.athkri:RULESET"} <= points
    assert {"ex-nihilo", "athkri"} <= set(rules.ruleset_keys())


def test_a_registered_rule_system_is_known_until_it_is_unregistered(toy_ruleset):
    assert rules.get_ruleset("toy") is toy_ruleset
    assert "toy" in rules.ruleset_keys()
    rules.unregister("toy")
    with pytest.raises(KeyError):
        rules.get_ruleset("toy")


def test_only_a_ruleset_can_be_registered():
    with pytest.raises(TypeError):
        rules.register({"key": "toy"})


def test_a_rule_systems_tables_come_from_its_own_package(toy_ruleset):
    settings = rules.default_settings("toy")
    assert list(settings.tables["statuses"]) == ["dazed"]
    assert rules.shipped_table("ex-nihilo", "armour")["points"]["leggera"] == 1
