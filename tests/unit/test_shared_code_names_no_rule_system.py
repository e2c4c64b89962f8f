"""Shared code names no rule system: the host's Python, templates and scripts never say a
shipped rule system's key, package, name or own terms; each rule system keeps them in its
package (larp_app/rulesets/<package>/), and the host renders what it is given."""

import re
import unicodedata
from pathlib import Path

from larp_app import rules

ROOT = Path(__file__).resolve().parents[2]
SHARED = [ROOT / "larp_app", ROOT / "templates", ROOT / "static" / "js"]
SUFFIXES = {".py", ".html", ".js", ".txt", ".json", ".ini", ".mako"}
# Where shared code may name a rule system, and why.
ALLOWED = {
    # The demo loads the shipped casts: an event of each shipped rule system, by its key.
    "larp_app/services/demo.py": "the demo's events are one of each shipped rule system",
    # The demo's casts: sheets, each naming its rule system and in its words.
    "larp_app/demo/": "the demo casts are sheets of the shipped rule systems",
    # Documentation that points at each rule system's own README (links, not code).
    "larp_app/rules/README.md": "links to each rule system's own README",
}
# Each shipped rule system's own terms that are not in its vocabulary's keys: its die and the
# attribute its saves are rolled on.
OWN_TERMS = {"1o3d10", "fisico"}


def fold(text: str) -> str:
    """Lower case without accents: "Físico" and "fisico" are one word."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).lower()


def shipped() -> list[rules.Ruleset]:
    home = ROOT / "larp_app" / "rulesets"
    return [r for r in rules.rulesets() if r.package_dir and home in Path(r.package_dir).parents]


def rule_system_terms() -> set[str]:
    terms = set(OWN_TERMS)
    for ruleset in shipped():
        words = ruleset.words()
        terms |= {ruleset.key, ruleset.key.replace("-", "_"), Path(ruleset.package_dir).name}
        terms |= set(words.name.values())
        terms |= set(words.levels)
        # Its compound keys for derived values (one word, "melee", may be anyone's).
        terms |= {key for key in words.derived if "_" in key}
    # A word the host itself says in some language ("muerto": dead) is nobody's own.
    return {fold(term) for term in terms} - host_words()


def host_words() -> set[str]:
    neutral = rules.vocabulary.NEUTRAL
    said = [w.word for w in neutral.wounds.values()]
    said += [q.name for q in neutral.quantities.values()] + [
        q.short for q in neutral.quantities.values()
    ]
    return {fold(text) for words in said for text in words.values()}


def shared_files() -> list[Path]:
    home = ROOT / "larp_app" / "rulesets"
    return [
        path
        for folder in SHARED
        for path in sorted(folder.rglob("*"))
        if path.suffix in SUFFIXES
        and home not in path.parents
        and "translations" not in path.parts
        and "__pycache__" not in path.parts
    ]


def test_the_shipped_rule_systems_are_found_with_their_terms():
    assert len(shipped()) >= 2
    assert {"athkri", "ex-nihilo", "ex_nihilo", "1o3d10", "malherido"} <= rule_system_terms()


def test_no_shared_file_names_a_shipped_rule_system():
    terms = sorted(rule_system_terms(), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, terms)) + r")(?![\w-])")
    found = []
    for path in shared_files():
        name = path.relative_to(ROOT).as_posix()
        if any(name == a or (a.endswith("/") and name.startswith(a)) for a in ALLOWED):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for hit in pattern.findall(fold(line)):
                found.append(f"{name}:{number}: {hit}")
    assert found == []
