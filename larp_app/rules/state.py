"""A character's live state, and the snapshot answered for an instant."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .sheet import LarpSheet
from .timeutil import format_instant


@dataclass(frozen=True, slots=True)
class ActiveStatus:
    key: str
    since: datetime
    until: datetime | None  # None: open until a referee ends it

    @classmethod
    def made(cls, key: str, since: datetime, until: datetime | None) -> ActiveStatus:
        """``ActiveStatus(key, since, until)`` as the fold makes one: at a third of the cost
        (``unfrozen_twin``, below)."""
        new = _new(_ACTIVE_STATUS_BUILDING)
        new.key, new.since, new.until = key, since, until
        new.__class__ = cls
        return new

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


_KEEP: Any = object()  # State.evolve: this field as it was
_new = object.__new__


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

    def evolve(
        self,
        *,
        hp=_KEEP,
        ap=_KEEP,
        energy=_KEEP,
        armour_destroyed=_KEEP,
        next_energy_at=_KEEP,
        death_at=_KEEP,
        died_at=_KEEP,
        statuses=_KEEP,
        track=_KEEP,
    ) -> State:
        """Return a copy with the fields given changed: dataclasses.replace at a tenth of its
        cost (the fold makes one for nearly every entry). The copy is made as a ``_Building``
        (the same slots, none frozen: each field set at the cost of a plain attribute) and
        then made a State. Every field is written out: a loop over the fields costs more."""
        new = _new(_BUILDING)
        new.hp = self.hp if hp is _KEEP else hp
        new.ap = self.ap if ap is _KEEP else ap
        new.energy = self.energy if energy is _KEEP else energy
        new.armour_destroyed = (
            self.armour_destroyed if armour_destroyed is _KEEP else armour_destroyed
        )
        new.next_energy_at = self.next_energy_at if next_energy_at is _KEEP else next_energy_at
        new.death_at = self.death_at if death_at is _KEEP else death_at
        new.died_at = self.died_at if died_at is _KEEP else died_at
        new.statuses = self.statuses if statuses is _KEEP else statuses
        new.track = self.track if track is _KEEP else track
        new.__class__ = State
        return new


def unfrozen_twin(cls: type) -> type:
    """A class with the slots of ``cls`` (a frozen dataclass with slots) and none of its
    frozen ``__setattr__``: an object of it is filled in at the cost of plain attributes,
    then made a ``cls`` by assigning ``__class__`` (allowed between classes of one layout).
    How the fold's hottest copies are made (``State.evolve``), at a third of a frozen
    dataclass's own ``__init__``."""
    return type(f"_{cls.__name__}Building", (), {"__slots__": cls.__slots__})


_BUILDING, _ACTIVE_STATUS_BUILDING = unfrozen_twin(State), unfrozen_twin(ActiveStatus)


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
