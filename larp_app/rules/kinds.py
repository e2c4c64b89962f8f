"""What each kind of log entry is, declared once: its fields (the entry's dataclass) and their
validation (its reader), its label and one-line summary, who may log it, how the console offers
it. The API, the OpenAPI document, the console, the board, the character's log and the CLI
read these declarations.

Kinds every rule system shares are declared here; a rule system declares its own in its
package (``Ruleset.entry_kinds``). Words are either a message id, marked with ``N_`` and
translated by the app's catalogue, or ``{language: text}`` (a rule system's own words).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from . import entries as _entries
from .entries import Entry
from .problems import Checker

Translate = Callable[..., str]  # gettext: (message id, **params) -> text
Words = str | Mapping[str, str]
EVERYONE = frozenset({"referee", "organiser"})
ORGANISERS = frozenset({"organiser"})
# What the console shows for a kind: "" (its own controls, or none), "form" (a button in the
# console's "More" dialog opening the kind's fields: numbers, a tick, a line of text).
CONSOLE_FORM = "form"
JSON_TYPES = {"int": "integer", "bool": "boolean", "str": "string", "float": "number"}


def N_(message: str) -> str:
    """Mark a message id for the catalogue; the app translates it when it is shown."""
    return message


@dataclass(frozen=True)
class FieldInfo:
    """One field an entry of a kind carries (beyond id, kind, at and author)."""

    name: str
    type: str  # a JSON type: integer, boolean, string, number
    required: bool
    nullable: bool
    multiline: bool = False  # text that may hold line breaks and tabs


@dataclass(frozen=True)
class EntryKind:
    key: str
    cls: type[Entry]
    read: Callable[[Checker, dict, str], dict]  # (checker, data, path prefix) -> the fields
    label: Words
    summary: Callable[[Any, Translate], str] = lambda entry, _: ""
    roles: frozenset[str] = EVERYONE  # who may log it
    console: str = ""
    required: tuple[str, ...] = ()  # fields required although their dataclass has a default
    field_labels: Mapping[str, Words] = field(default_factory=dict)  # for the console's form
    multiline: tuple[str, ...] = ()  # text fields that may hold line breaks and tabs

    def fields(self) -> tuple[FieldInfo, ...]:
        found = []
        for f in fields(self.cls):
            if f.name in ("id", "at", "author"):
                continue
            kinds = [part.strip() for part in str(f.type).split("|")]
            nullable = "None" in kinds
            main = next((k for k in kinds if k != "None"), "str")
            no_default = f.default is MISSING and f.default_factory is MISSING
            found.append(
                FieldInfo(
                    f.name,
                    JSON_TYPES.get(main, "string"),
                    no_default or f.name in self.required,
                    nullable,
                    f.name in self.multiline,
                )
            )
        return tuple(found)


def _reader(key: str) -> tuple[type[Entry], Callable]:
    return _entries.KINDS[key]


def _hit(entry, _: Translate) -> str:
    text = _("%(blows)d × %(damage)d", blows=entry.blows, damage=entry.damage)
    return text + (", " + _("pierce") if entry.pierce else "")


def _spend(entry, _: Translate) -> str:
    return f"−{entry.amount}" + (f" · {entry.advancement}" if entry.advancement else "")


def _shared(key: str, label: str, summary=None, **more) -> EntryKind:
    cls, read = _reader(key)
    return EntryKind(key, cls, read, label, summary or (lambda entry, _: ""), **more)


SHARED: tuple[EntryKind, ...] = (
    _shared("hit", N_("Hit"), _hit),
    _shared("coup_de_grace", N_("Coup de grâce")),
    _shared("heal", N_("Heal"), lambda e, _: f"+{e.amount}"),
    _shared("repair", N_("Armour repair"), lambda e, _: _("full") if e.full else f"+{e.amount}"),
    _shared("spend_energy", N_("Energy spent"), _spend),
    _shared("restore_energy", N_("Energy restored"), lambda e, _: f"+{e.amount}"),
    _shared("status_on", N_("Status on"), lambda e, _: e.key),
    _shared("status_off", N_("Status off"), lambda e, _: e.key),
    _shared("kill", N_("Kill"), lambda e, _: e.reason),
    _shared(
        "revive",
        N_("Revive"),
        lambda e, _: "" if e.hp is None else str(e.hp),
        roles=ORGANISERS,
    ),
    _shared("note", N_("Note"), lambda e, _: e.text, multiline=("text",)),
    _shared("undo", N_("Undo"), lambda e, _: e.target[:8]),
)
