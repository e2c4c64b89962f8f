"""Each rule system's kinds of entry live under its key: two rule systems may both declare a
kind ``roll``, each read by its own reader, and forgetting one leaves the other's; what cannot
be told apart is refused in words when the rule systems are found."""

import dataclasses
import uuid
from dataclasses import dataclass

import pytest

from larp_app import rules
from larp_app.rules.entries import Entry
from larp_app.rules.kinds import EntryKind
from larp_app.rules.registry import RulesetClash
from larp_app.rules.settings import OPTIONS
from tests.toy_ruleset import RULESET as TOY


@dataclass(frozen=True, slots=True, kw_only=True)
class Loud(Entry):
    loud: bool = False
    kind = "roll"


def _loud(c, d, p):
    return {"loud": c.boolean(d, "loud", p + "loud", default=False)}


ROLL = EntryKind("roll", Loud, _loud, label={"en": "Loud roll"})


@pytest.fixture
def echo():
    """A rule system with a kind ``roll`` of its own, beside Sistema Athkri's."""
    ruleset = rules.register(dataclasses.replace(TOY, key="echo", entry_kinds=(ROLL,)))
    yield ruleset
    rules.unregister("echo")


def raw(kind, **fields):
    return {"id": str(uuid.uuid4()), "kind": kind, "at": "2027-03-06T15:00:00Z", **fields}


def test_two_rule_systems_each_read_their_own_kind_of_the_same_name(echo):
    echoed = rules.read_entry(raw("roll", loud=True), "echo")
    athkri = rules.read_entry(raw("roll", key="confundido"), "athkri")
    assert type(echoed) is Loud and echoed.loud
    assert type(athkri).__name__ == "CheckRoll" and athkri.key == "confundido"


def test_a_stored_entry_is_read_back_as_its_own_rule_systems_kind(echo):
    stored = rules.entry_to_dict(rules.read_entry(raw("roll", loud=True), "echo"))
    assert type(rules.entry_from_stored(stored, "echo")) is Loud
    athkri = rules.entry_to_dict(rules.read_entry(raw("roll", key="confundido"), "athkri"))
    assert type(rules.entry_from_stored(athkri, "athkri")).__name__ == "CheckRoll"


def test_each_rule_system_declares_its_own_kind_with_its_own_words(echo):
    assert rules.entry_kind("roll", "echo").label == {"en": "Loud roll"}
    assert rules.entry_kind("roll", "athkri").label["es"] == "Tirada de condición"


def test_forgetting_one_rule_system_leaves_the_others_reader(echo):
    rules.unregister("echo")
    athkri = rules.read_entry(raw("roll", key="confundido"), "athkri")
    assert athkri.key == "confundido"
    assert rules.entry_kind("roll", "athkri") is not None


def test_a_roll_of_another_rule_system_is_never_folded_as_athkris(echo, toy_ruleset):
    toy = rules.convert_sheet({"ruleset": "toy", "player": "Ada", "character": "Brom", "vigour": 3})
    sheet = dataclasses.replace(toy, ruleset="echo")
    entry = rules.read_entry(raw("roll", loud=True), "echo")
    snapshot = rules.state_at(sheet, rules.default_settings("echo"), [entry], entry.at)
    # The echo rule system has no handler for its roll: refused by name, not read as Athkri's.
    assert [c.code for c in snapshot.conflicts] == ["not_in_ruleset"]


def test_a_kind_of_another_rule_system_is_read_to_be_refused_by_name(echo):
    entry = rules.read_entry(raw("dice", level=1), "echo")
    assert entry.kind == "dice"


def test_without_a_rule_system_a_kind_of_several_is_refused_naming_them(echo):
    with pytest.raises(rules.InvalidInput) as refused:
        rules.read_entry(raw("roll", key="confundido"))
    [problem] = refused.value.problems
    assert (problem.path, problem.code) == ("kind", "kind_of_several")
    assert problem.params["allowed"] == ["athkri", "echo"]


def test_a_kind_named_like_a_shared_kind_is_refused_in_words():
    @dataclass(frozen=True, slots=True, kw_only=True)
    class Heal(Entry):
        kind = "heal"

    clashing = dataclasses.replace(
        TOY, key="healer", entry_kinds=(EntryKind("heal", Heal, _loud, label="Heal"),)
    )
    with pytest.raises(RulesetClash, match="'healer' declares a kind of entry 'heal'"):
        rules.register(clashing)
    assert "healer" not in rules.ruleset_keys()


def test_a_kind_declared_twice_by_one_rule_system_is_refused():
    twice = dataclasses.replace(TOY, key="twice", entry_kinds=(ROLL, ROLL))
    with pytest.raises(RulesetClash, match="'roll' twice"):
        rules.register(twice)


def test_a_kind_whose_entries_say_another_kind_is_refused():
    wrong = dataclasses.replace(
        TOY, key="wrong", entry_kinds=(dataclasses.replace(ROLL, key="shout"),)
    )
    with pytest.raises(RulesetClash, match="'shout' with entries of the kind 'roll'"):
        rules.register(wrong)


def test_a_second_rule_system_of_a_known_key_is_refused_in_words():
    other = dataclasses.replace(rules.get_ruleset("athkri"), language="en")
    with pytest.raises(RulesetClash, match="two rule systems are called 'athkri'"):
        rules.register(other)
    assert rules.get_ruleset("athkri").language == "es"


def test_each_rule_system_declares_the_event_settings_its_rules_read():
    assert rules.get_ruleset("ex-nihilo").settings_offered == ("armour_breaks",)
    assert rules.get_ruleset("athkri").settings_offered == ("seed", "saves")
    assert TOY.settings_offered == ()
    for ruleset in rules.rulesets():
        assert set(ruleset.settings_offered) <= set(OPTIONS)
