"""The phone sends only fields its kinds declare: every entry the console (and each rule
system's part of it) logs names fields of its kind's declaration, so the server never refuses
one of its own phone's entries for a field it does not know. Read from the scripts' source:
each ``log("kind", {fields})``, each ``log("kind", fields)`` with the ``fields`` built before
it, and the amounts ``withAmount("kind")`` logs."""

import re
from pathlib import Path

from larp_app import rules
from larp_app.rules.entries import declared_fields

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = [
    *sorted((ROOT / "static" / "js" / "console").glob("*.js")),
    *sorted((ROOT / "larp_app" / "rulesets").glob("*/static/console.js")),
]
LITERAL = re.compile(r'log\("(\w+)"(?:,\s*\{([^}]*)\})?')
BUILT = re.compile(r'const fields = \{([^}]*)\};(.*?)log\("(\w+)", fields\)', re.S)
AMOUNT = re.compile(r'withAmount\("(\w+)"\)')


def keys(literal: str) -> set[str]:
    """The keys of an object literal's text (``a: 1, b`` → a, b)."""
    found = set()
    for part in literal.split(","):
        match = re.match(r"\s*(\w+)", part)
        if match:
            found.add(match.group(1))
    return found


def sent() -> list[tuple[str, str, set[str]]]:
    found = []
    for path in SCRIPTS:
        text = path.read_text(encoding="utf-8")
        for kind, literal in LITERAL.findall(text):
            found.append((path.name, kind, keys(literal)))
        for literal, between, kind in BUILT.findall(text):
            added = set(re.findall(r"fields\.(\w+) =", between))
            found.append((path.name, kind, keys(literal) | added))
        if "function withAmount" in text:
            found += [(path.name, kind, {"amount"}) for kind in AMOUNT.findall(text)]
    return found


def test_every_entry_the_console_logs_names_only_fields_its_kind_declares():
    logged = sent()
    kinds = {kind for _script, kind, _fields in logged}
    assert {"hit", "heal", "repair", "note", "undo", "save", "roll", "dice"} <= kinds
    wrong = []
    for script, kind, fields in logged:
        declared = next(
            (
                k
                for ruleset in [None, *rules.ruleset_keys()]
                if (k := rules.entry_kind(kind, ruleset))
            ),
            None,
        )
        assert declared is not None, (script, kind)
        wrong += [(script, kind, f) for f in fields - set(declared_fields(declared.cls))]
    assert wrong == []
