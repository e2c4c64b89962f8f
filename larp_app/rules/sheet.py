"""The larp sheet: what a character needs at a live event, whatever the rule system."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .problems import Checker, Problem


@dataclass(frozen=True, slots=True)
class Advancement:
    """An advancement (or power) usable in larp, with its energy cost."""

    name: str
    energy_cost: int
    passive: bool = False
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "energy_cost": self.energy_cost,
            "passive": self.passive,
            "text": self.text,
        }


CORE_KEYS = (
    "ruleset",
    "player",
    "character",
    "faction",
    "hp_max",
    "ap_max",
    "energy_max",
    "energy_recovery_minutes",
)


@dataclass(frozen=True)
class LarpSheet:
    """Common fields every fold needs; ``details`` holds what is particular to a rule system."""

    ruleset: str
    player: str
    character: str
    faction: str | None
    hp_max: int
    ap_max: int
    energy_max: int
    energy_recovery_minutes: int | None
    advancements: tuple[Advancement, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[Problem, ...] = ()
    tables: Mapping[str, str] = field(default_factory=dict)

    def advancement(self, name: str) -> Advancement | None:
        wanted = name.strip().casefold()
        return next((a for a in self.advancements if a.name.casefold() == wanted), None)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {key: getattr(self, key) for key in CORE_KEYS}
        data.update(self.details)
        data["advancements"] = [a.to_dict() for a in self.advancements]
        data["warnings"] = [w.to_dict() for w in self.warnings]
        data["tables"] = dict(self.tables)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LarpSheet:
        """Rebuild a sheet written by ``to_dict`` (as stored, or exported)."""
        rest = {
            k: v
            for k, v in data.items()
            if k not in CORE_KEYS and k not in ("advancements", "warnings", "tables")
        }
        warnings = tuple(
            Problem(
                w["field"], w["code"], {k: v for k, v in w.items() if k not in ("field", "code")}
            )
            for w in data.get("warnings", ())
        )
        return cls(
            **{key: data.get(key) for key in CORE_KEYS},
            advancements=tuple(Advancement(**a) for a in data.get("advancements", ())),
            details=rest,
            warnings=warnings,
            tables=dict(data.get("tables", {})),
        )


def read_who(raw: Any, c: Checker, known_keys) -> tuple[str, str, str | None] | None:
    """Begin any sheet: an object whose player and character are named; faction optional.

    None when it is no object at all (recorded in ``c``); a key ``known_keys`` does not name
    is refused (``Checker.undeclared_keys``).
    """
    if not isinstance(raw, dict):
        c.error("sheet", "not_object")
        return None
    c.undeclared_keys(raw, known_keys)
    return (
        c.text(raw, "player", "player"),
        c.text(raw, "character", "character"),
        c.text(raw, "faction", "faction", required=False),
    )
