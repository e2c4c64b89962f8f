"""A character's live state, and the snapshot answered for an instant."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from .sheet import LarpSheet
from .timeutil import format_instant


@dataclass(frozen=True, slots=True)
class ActiveStatus:
    key: str
    since: datetime
    until: datetime | None  # None: open until a referee ends it

    def expired(self, t: datetime) -> bool:
        """Tell whether the status is over at ``t``; an instant one shows at its own instant."""
        if self.until is None:
            return False
        return t > self.until or (t == self.until and self.until > self.since)


@dataclass(frozen=True, slots=True)
class Conflict:
    """A logged entry that the state at its instant did not allow: kept, skipped by the fold."""

    id: str
    code: str
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class State:
    """Values that change: the fold makes a new State for every change, never edits one."""

    hp: int
    ap: int
    energy: int
    armour_destroyed: bool = False
    next_energy_at: datetime | None = None  # while energy recovers
    death_at: datetime | None = None  # while dying
    died_at: datetime | None = None
    statuses: tuple[ActiveStatus, ...] = ()
    track: Any = None  # the ruleset's own wound track (a frozen dataclass), if it has one

    @classmethod
    def at_check_in(cls, sheet: LarpSheet) -> State:
        """Everything full."""
        return cls(hp=sheet.hp_max, ap=sheet.ap_max, energy=sheet.energy_max)

    def dead_at(self, at: datetime) -> State:
        """Dead from ``at``: no countdown, no recovery; values and statuses freeze."""
        return self.evolve(died_at=at, death_at=None, next_energy_at=None)

    def evolve(self, **changes) -> State:
        """Return a copy with ``changes``: dataclasses.replace at under half its cost."""
        new = object.__new__(State)
        for name in _STATE_FIELDS:
            _set(new, name, changes[name] if name in changes else getattr(self, name))
        return new


_STATE_FIELDS = tuple(f.name for f in fields(State))
_set = object.__setattr__  # the way a frozen dataclass's own __init__ sets its fields


@dataclass(frozen=True)
class Snapshot:
    """The state at one instant, with the sheet's maxima, the wound level and the conflicts."""

    at: datetime
    sheet: LarpSheet
    state: State
    wound: str
    conflicts: tuple[Conflict, ...]
    extra: dict[str, Any] = field(default_factory=dict)  # the ruleset's own figures
    # How many entries the log held when this state was folded: of two states of one
    # character, the one with the higher position is the newer (the log only grows).
    log_position: int = 0

    def to_dict(self) -> dict[str, Any]:
        s, sheet = self.state, self.sheet
        return {
            "at": format_instant(self.at),
            "hp": s.hp,
            "hp_max": sheet.hp_max,
            "ap": s.ap,
            "ap_max": sheet.ap_max,
            "armour_destroyed": s.armour_destroyed,
            "energy": s.energy,
            "energy_max": sheet.energy_max,
            "next_energy_at": format_instant(s.next_energy_at),
            "wound": self.wound,
            "death_at": format_instant(s.death_at),
            "died_at": format_instant(s.died_at),
            "statuses": [
                {
                    "key": st.key,
                    "since": format_instant(st.since),
                    "until": format_instant(st.until),
                }
                for st in s.statuses
            ],
            "conflicts": [{"id": c.id, "code": c.code} for c in self.conflicts],
            "log_position": self.log_position,
            **self.extra,
        }
