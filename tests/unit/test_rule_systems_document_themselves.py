"""Each rule system documents itself in its package (README.md): its rules as the engine
applies them, its house decisions and the seed's own words; the engine's shared rules are in
larp_app/rules/README.md. Code and tests cite those documents, none outside the repository."""

from pathlib import Path

import pytest

from larp_app import rules

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [r for r in rules.rulesets() if r.package_dir and ROOT in r.package_dir.parents]


def readme(ruleset) -> str:
    return (ruleset.package_dir / "README.md").read_text(encoding="utf-8")


def test_both_shipped_rule_systems_are_checked():
    assert {r.key for r in SHIPPED} == {"athkri", "ex-nihilo"}


@pytest.mark.parametrize("ruleset", SHIPPED, ids=lambda r: r.key)
def test_a_rule_system_names_in_its_readme_every_status_kind_and_damage_type_it_has(ruleset):
    text = readme(ruleset).casefold()
    catalogue = rules.default_settings(ruleset.key).tables[ruleset.catalogue]
    names = {key: status.texts["name"][ruleset.language] for key, status in catalogue.items()}
    assert [k for k, name in names.items() if name.casefold() not in text] == []
    assert [k.key for k in ruleset.entry_kinds if f"`{k.key}`" not in text] == []
    assert [t for t in ruleset.damage_types if t not in text] == []
    assert "house decision" in text


@pytest.mark.parametrize("ruleset", SHIPPED, ids=lambda r: r.key)
def test_a_rule_system_quotes_its_seed_in_its_own_language(ruleset):
    quoted = {"es": "Al comienzo de cada Turno", "it": "poco più di un secondo"}[ruleset.language]
    assert quoted in readme(ruleset)


def test_the_engine_documents_what_every_rule_system_shares():
    text = (ROOT / "larp_app" / "rules" / "README.md").read_text(encoding="utf-8")
    for part in ("## The log", "## Damage types", "## End of session", "## Time"):
        assert part in text


def test_no_code_or_test_cites_a_rules_file_outside_the_repository():
    outside = "RULES" + ".md"  # written apart: this file is searched too
    citing = [
        str(path.relative_to(ROOT))
        for folder in ("larp_app", "tests", "bench", "static", "templates")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in {".py", ".js", ".html", ".json", ".md", ".txt"}
        and outside in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert citing == []
