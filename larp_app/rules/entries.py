"""Log entries: one small frozen dataclass per kind, read from plain JSON-like data."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from datetime import datetime
from functools import cache
from types import MappingProxyType
from typing import Any, ClassVar

from .problems import Checker, nearest
from .timeutil import format_instant, parse_instant


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """What every entry has: a client-made id, when it happened, and who logged it."""

    id: str
    at: datetime
    author: str | None = None

    kind = "entry"
    # Names its fields had before (old name -> field), still read on the way in and from the
    # log: an outbox kept on a phone, an entry stored then, count as they did.
    formerly: ClassVar[Mapping[str, str]] = MappingProxyType({})


@dataclass(frozen=True, slots=True, kw_only=True)
class Hit(Entry):
    damage: int = 1
    blows: int = 1
    pierce: bool = False
    # The damage type, when not physical (cutting, piercing, blunt: every blow's by default),
    # one its rule system declares (larp_app.rules.damage).
    damage_type: str | None = None
    kind = "hit"


@dataclass(frozen=True, slots=True, kw_only=True)
class CoupDeGrace(Entry):
    kind = "coup_de_grace"


@dataclass(frozen=True, slots=True, kw_only=True)
class Heal(Entry):
    amount: int
    kind = "heal"


@dataclass(frozen=True, slots=True, kw_only=True)
class Repair(Entry):
    amount: int | None = None
    full: bool = False
    kind = "repair"


@dataclass(frozen=True, slots=True, kw_only=True)
class SpendEnergy(Entry):
    amount: int
    advancement: str | None = None
    kind = "spend_energy"


@dataclass(frozen=True, slots=True, kw_only=True)
class RestoreEnergy(Entry):
    amount: int
    kind = "restore_energy"


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusOn(Entry):
    key: str
    seconds: int | None = None
    damage: int | None = None  # what the status deals each turn, if it does (Daño continuo)
    difficulty: int | None = None  # the save that ends it, if one does
    kind = "status_on"


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusOff(Entry):
    key: str
    kind = "status_off"


@dataclass(frozen=True, slots=True, kw_only=True)
class Kill(Entry):
    reason: str = ""
    kind = "kill"


@dataclass(frozen=True, slots=True, kw_only=True)
class Revive(Entry):
    hp: int | None = None
    kind = "revive"


@dataclass(frozen=True, slots=True, kw_only=True)
class Note(Entry):
    text: str
    kind = "note"


@dataclass(frozen=True, slots=True, kw_only=True)
class Undo(Entry):
    target: str
    kind = "undo"


MAX_TEXT = 2000
PHYSICAL = "physical"  # a blow's damage type unless it names another


def _hit(c: Checker, d: dict, p: str) -> dict:
    damage_type = c.text(d, "damage_type", p + "damage_type", required=False, max_len=40)
    return {
        "damage": c.integer(d, "damage", p + "damage", lo=1, hi=100, required=False, default=1),
        "blows": c.integer(d, "blows", p + "blows", lo=1, hi=20, required=False, default=1),
        "pierce": c.boolean(d, "pierce", p + "pierce", default=False),
        # A physical blow is every hit's default: said or not, the same entry.
        "damage_type": None if damage_type == PHYSICAL else damage_type,
    }


def _amount(c: Checker, d: dict, p: str) -> dict:
    return {"amount": c.integer(d, "amount", p + "amount", lo=1, hi=1000)}


def _repair(c: Checker, d: dict, p: str) -> dict:
    full = c.boolean(d, "full", p + "full", default=False)
    amount = c.integer(d, "amount", p + "amount", lo=1, hi=1000, required=not full)
    return {"amount": amount, "full": full}


def _spend(c: Checker, d: dict, p: str) -> dict:
    return {
        **_amount(c, d, p),
        "advancement": c.text(d, "advancement", p + "advancement", required=False),
    }


def _status_on(c: Checker, d: dict, p: str) -> dict:
    return {
        "key": c.text(d, "key", p + "key", max_len=40),
        "seconds": c.integer(d, "seconds", p + "seconds", lo=0, hi=7 * 24 * 3600, required=False),
        "damage": c.integer(d, "damage", p + "damage", lo=1, hi=100, required=False),
        "difficulty": c.integer(d, "difficulty", p + "difficulty", lo=1, hi=100, required=False),
    }


def _status_off(c: Checker, d: dict, p: str) -> dict:
    return {"key": c.text(d, "key", p + "key", max_len=40)}


def _kill(c: Checker, d: dict, p: str) -> dict:
    return {"reason": c.text(d, "reason", p + "reason", required=False, max_len=200) or ""}


def _revive(c: Checker, d: dict, p: str) -> dict:
    return {"hp": c.integer(d, "hp", p + "hp", lo=0, hi=1000, required=False)}


def _note(c: Checker, d: dict, p: str) -> dict:
    return {"text": c.text(d, "text", p + "text", max_len=MAX_TEXT, multiline=True)}


def _undo(c: Checker, d: dict, p: str) -> dict:
    return {"target": _uuid(c, d, "target", p + "target")}


def _nothing(c: Checker, d: dict, p: str) -> dict:
    return {}


KINDS: dict[str, tuple[type[Entry], Callable[[Checker, dict, str], dict]]] = {
    "hit": (Hit, _hit),
    "coup_de_grace": (CoupDeGrace, _nothing),
    "heal": (Heal, _amount),
    "repair": (Repair, _repair),
    "spend_energy": (SpendEnergy, _spend),
    "restore_energy": (RestoreEnergy, _amount),
    "status_on": (StatusOn, _status_on),
    "status_off": (StatusOff, _status_off),
    "kill": (Kill, _kill),
    "revive": (Revive, _revive),
    "note": (Note, _note),
    "undo": (Undo, _undo),
}


Reader = tuple[type[Entry], Callable[[Checker, dict, str], dict]]


def known_kinds(ruleset: str | None = None) -> Mapping[str, Reader]:
    """The kinds the log reader reads for a character of ``ruleset``: the shared ones and the
    rule system's own (a kind of the same name in another rule system is another kind). With
    None, every rule system's: a kind declared by several of them is read by none there."""
    return KIND_TABLES[0](ruleset) if KIND_TABLES else KINDS


# How the log reader finds the kinds of the rule systems known (set by the registry, which
# imports this module): (rule system's key or None) -> {kind: (class, reader)}.
KIND_TABLES: list[Callable[[str | None], Mapping[str, Reader]]] = []


def _uuid(c: Checker, d: dict, key: str, path: str) -> str | None:
    value = d.get(key)
    if value is None:
        c.error(path, "required")
        return None
    try:
        return str(uuid.UUID(str(value)))
    except ValueError:
        c.error(path, "not_uuid", got=str(value)[:40])
        return None


def _instant(c: Checker, d: dict, key: str, path: str) -> datetime | None:
    value = d.get(key)
    if value is None:
        c.error(path, "required")
        return None
    try:
        return parse_instant(value, zone=True)
    except ValueError as wrong:
        c.error(path, instant_problem(wrong), got=str(value)[:40])
        return None


def instant_problem(wrong: ValueError) -> str:
    """The problem's code for an instant ``parse_instant`` refused."""
    return "no_zone" if str(wrong) == "no_zone" else "not_instant"


# What every entry may carry besides its kind's own fields: its id, kind and instant, who
# logged it (``referee``: the rules' older name for it), and the phone's clock when it sent it.
ENVELOPE = ("id", "kind", "at", "author", "referee", "sent_at")
_SUGGESTED = ("id", "kind", "at", "author", "sent_at")  # the envelope's names a sender is told


@cache
def declared_fields(cls: type[Entry]) -> tuple[str, ...]:
    """The fields an entry of ``cls`` carries besides its id, instant and author."""
    return tuple(f.name for f in fields(cls) if f.name not in ("id", "at", "author"))


def undeclared(data: Mapping[str, Any], cls: type[Entry]) -> list[str]:
    """The keys of an entry's data that neither the envelope nor its kind declares."""
    own = declared_fields(cls)
    return [k for k in data if k not in ENVELOPE and k not in own and k not in cls.formerly]


def _refuse_undeclared(checker: Checker, data: dict, cls: type[Entry], kind: str, prefix: str):
    """Refuse each field the kind does not declare, naming the nearest one it does."""
    own = declared_fields(cls)
    for key in undeclared(data, cls):
        shown = str(key) if len(str(key)) <= 40 else str(key)[:39] + "…"
        if not own:
            checker.error(prefix + shown, "no_fields", got=shown, kind=kind)
            continue
        close = nearest(str(key), (*own, *cls.formerly, *_SUGGESTED))
        close = cls.formerly.get(close, close)
        if close is None:
            checker.error(prefix + shown, "not_a_field_of", got=shown, kind=kind, allowed=own)
        else:
            checker.error(prefix + shown, "not_a_field", got=shown, kind=kind, nearest=close)


def _new_names(data: dict, cls: type[Entry]) -> dict:
    """The data with each former name of a field read as the field (when it is not given)."""
    if not cls.formerly or not any(old in data for old in cls.formerly):
        return data
    data = dict(data)
    for old, name in cls.formerly.items():
        if old in data and name not in data:
            data[name] = data.pop(old)
    return data


def read_entry_into(
    checker: Checker, data: Any, prefix: str = "", ruleset: str | None = None
) -> Entry | None:
    """Read one entry of a character of ``ruleset``, recording problems under ``prefix``
    (e.g. ``[3].``). A field its kind does not declare is refused, naming the nearest one."""
    if not isinstance(data, dict):
        checker.error(prefix.rstrip(".") or "entry", "not_object")
        return None
    before = len(checker.errors)
    entry_id = _uuid(checker, data, "id", prefix + "id")
    at = _instant(checker, data, "at", prefix + "at")
    kinds = known_kinds(ruleset)
    kind = checker.choice(data, "kind", prefix + "kind", kinds)
    author = data.get("author", data.get("referee"))
    if kind and kinds[kind][0] is not Entry:  # (Entry: a kind of several, refused as such)
        data = _new_names(data, kinds[kind][0])
        _refuse_undeclared(checker, data, kinds[kind][0], kind, prefix)
    fields = kinds[kind][1](checker, data, prefix) if kind else {}
    if len(checker.errors) > before:
        return None
    cls = kinds[kind][0]
    return cls(id=entry_id, at=at, author=None if author is None else str(author), **fields)


def read_entry(data: Any, ruleset: str | None = None) -> Entry:
    """Read one entry (of a character of ``ruleset``) or raise InvalidInput naming every bad
    field."""
    checker = Checker()
    entry = read_entry_into(checker, data, "", ruleset)
    checker.raise_if_errors()
    return entry


def read_log(items: Any, ruleset: str | None = None) -> list[Entry]:
    """Read a log (a list of entries) or raise InvalidInput naming ``[i].field`` for each."""
    checker = Checker()
    if not isinstance(items, list):
        checker.error("", "not_list")
        checker.raise_if_errors()
    entries = [read_entry_into(checker, item, f"[{i}].", ruleset) for i, item in enumerate(items)]
    checker.raise_if_errors()
    return entries


def entry_to_dict(entry: Entry) -> dict[str, Any]:
    """Write an entry back as plain data (the inverse of ``read_entry``)."""
    data: dict[str, Any] = {"id": entry.id, "kind": entry.kind, "at": format_instant(entry.at)}
    for f in fields(entry):
        if f.name not in ("id", "at"):
            value = getattr(entry, f.name)
            if value is not None:
                data[f.name] = value
    return data


def entry_from_stored(data: dict[str, Any], ruleset: str | None = None) -> Entry:
    """Rebuild an entry written by ``entry_to_dict`` and stored by the app.

    Unlike ``read_entry`` it does not check the fields again: they were checked on the way
    in, and reading a long log on every request must stay cheap. It sets the fields as the
    dataclass's own ``__init__`` would, at half the cost; keys that are no field are left out
    (an entry stored with one folds as it always did: ``undeclared`` finds them, for the
    organiser's review), and a field's former name is read as the field.
    ``ruleset``: the character's rule system, whose kind it is.
    """
    cls = known_kinds(ruleset)[data["kind"]][0]
    entry = _new(cls)
    get = data.get
    for name, default, old in _stored_fields(cls):
        _set(entry, name, get(name, default) if old is None or name in data else get(old, default))
    at = data["at"]
    # Stored instants are written by format_instant: UTC with a trailing Z, read as they are.
    _set(entry, "at", datetime.fromisoformat(at) if at.endswith("Z") else parse_instant(at))
    return entry


_new = object.__new__
_set = object.__setattr__  # the way a frozen dataclass's own __init__ sets its fields


@cache
def _stored_fields(cls: type[Entry]) -> tuple[tuple[str, Any, str | None], ...]:
    """Each field of ``cls`` but ``at``, with its default (None for one that has none) and
    the name it had before, if it had another (an entry stored then is read as it was)."""
    before = {name: old for old, name in cls.formerly.items()}
    return tuple(
        (f.name, None if f.default is MISSING else f.default, before.get(f.name))
        for f in fields(cls)
        if f.name != "at"
    )
