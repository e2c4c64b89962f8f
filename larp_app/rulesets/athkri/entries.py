"""Sistema Athkri's own kinds of log entry: a save a referee rolled, a condition's random
check and a 1o3d10 on demand (README.md, "Its own entries"). Declared once here; the engine's
log reader reads them once the rule system is known (larp_app.rules.kinds)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from larp_app.rules.entries import Entry
from larp_app.rules.kinds import EntryKind, Translate
from larp_app.rules.problems import Checker


@dataclass(frozen=True, slots=True, kw_only=True)
class Save(Entry):
    """A save the referee rolled (when the event lets referees enter them)."""

    success: bool
    kind = "save"


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckRoll(Entry):
    """A condition's random check, rolled by the app on demand (confusion, paralysis...)."""

    key: str
    difficulty: int | None = None  # for a check rolled against one ("a Dificultad 12")
    kind = "roll"
    formerly: ClassVar = MappingProxyType({"target": "difficulty"})


@dataclass(frozen=True, slots=True, kw_only=True)
class DiceRoll(Entry):
    """A 1o3d10 the referee asks for, rolled by the app (the dado objetivo)."""

    level: int = 0  # +1 keeps the highest of three d10, 0 the middle, −1 the lowest
    bonus: int = 0
    difficulty: int | None = None  # if there is one: Fácil 9, Normal 12, Difícil 15...
    kind = "dice"
    formerly: ClassVar = MappingProxyType({"target": "difficulty"})


def _save(c: Checker, d: dict, p: str) -> dict:
    if "success" not in d:
        c.error(p + "success", "required")
        return {"success": None}
    return {"success": c.boolean(d, "success", p + "success", default=False)}


def _check_roll(c: Checker, d: dict, p: str) -> dict:
    return {
        "key": c.text(d, "key", p + "key", max_len=40),
        "difficulty": c.integer(d, "difficulty", p + "difficulty", lo=1, hi=100, required=False),
    }


def _dice(c: Checker, d: dict, p: str) -> dict:
    return {
        "level": c.integer(d, "level", p + "level", lo=-1, hi=1, required=False, default=0),
        "bonus": c.integer(d, "bonus", p + "bonus", lo=-50, hi=50, required=False, default=0),
        "difficulty": c.integer(d, "difficulty", p + "difficulty", lo=1, hi=100, required=False),
    }


def _save_summary(entry: Save, _: Translate) -> str:
    return _("passed") if entry.success else _("failed")


def _roll_summary(entry: CheckRoll, _: Translate) -> str:
    return entry.key + ("" if entry.difficulty is None else f" / {entry.difficulty}")


def _dice_summary(entry: DiceRoll, _: Translate) -> str:
    keep = {1: "↑", 0: "", -1: "↓"}[entry.level]
    difficulty = "" if entry.difficulty is None else f" / {entry.difficulty}"
    return f"1o3d10{keep} {entry.bonus:+d}{difficulty}"


ENTRY_KINDS = (
    EntryKind(
        "save",
        Save,
        _save,
        label={"es": "Salvación de Físico", "en": "Físico save", "it": "Tiro salvezza di Físico"},
        summary=_save_summary,
    ),
    EntryKind(
        "roll",
        CheckRoll,
        _check_roll,
        label={"es": "Tirada de condición", "en": "Condition roll", "it": "Tiro di condizione"},
        summary=_roll_summary,
    ),
    EntryKind(
        "dice",
        DiceRoll,
        _dice,
        label={"es": "Tirada 1o3d10", "en": "1o3d10 roll", "it": "Tiro 1o3d10"},
        summary=_dice_summary,
    ),
)
