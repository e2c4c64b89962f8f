"""Each rule system documents itself in its package (README.md): its rules as the engine
applies them, its house decisions and the seed's own words; the engine's shared rules are in
larp_app/rules/README.md. Code and tests cite those documents, none outside the repository."""

import re
from pathlib import Path

import pytest

from larp_app import rules
from larp_app.rules.entries import declared_fields

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


# An entry as the READMEs write it: `kind {field = default, field?, field or field}`.
WRITTEN = re.compile(r"`([a-z_]+) \{([^}`]*)\}`")


def written_entries(text: str) -> dict[str, set[str]]:
    """Each kind of entry a README writes out, with the fields it names."""
    found = {}
    for kind, inside in WRITTEN.findall(text):
        parts = re.split(r",| or ", inside)
        found[kind] = {re.match(r"\s*([a-z_]+)", part).group(1) for part in parts if part.strip()}
    return found


DOCUMENTS = [
    ("rules", ROOT / "larp_app" / "rules" / "README.md", None),
    *[(r.key, r.package_dir / "README.md", r.key) for r in SHIPPED],
]


@pytest.mark.parametrize(("name", "path", "ruleset"), DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_a_readmes_fields_of_each_entry_are_those_its_kind_declares(name, path, ruleset):
    """The documents and the declarations agree: each kind of entry a README writes out names
    every field its kind declares and no other (a field documented but not declared would be
    refused; one declared but not documented, never sent)."""
    written = written_entries(path.read_text(encoding="utf-8"))
    own = rules.get_ruleset(ruleset).entry_kinds if ruleset else rules.kinds.SHARED
    with_fields = {kind.key for kind in own if declared_fields(kind.cls)}
    assert with_fields <= set(written), "a kind of entry with fields the README does not write"
    for kind, names in written.items():
        declared = rules.entry_kind(kind, ruleset)
        assert declared is not None, f"{name}: {kind} is no kind of entry"
        assert names == set(declared_fields(declared.cls)), f"{name}: {kind}"
