"""The fold: a character's state at an instant, from larp sheet, settings and log.

Time does its part here, with no background job: the death countdown, energy
recovery and status expiry are worked out from timestamps whenever a state is asked for.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from operator import attrgetter

from .entries import (
    Entry,
    Kill,
    Note,
    Repair,
    RestoreEnergy,
    Revive,
    SpendEnergy,
    StatusOff,
    StatusOn,
    Undo,
)
from .problems import RuleError
from .registry import Ruleset, get_ruleset
from .settings import Settings
from .sheet import LarpSheet
from .state import ActiveStatus, Conflict, Snapshot, State
from .statuses import StatusDef

ALLOWED_WHEN_DEAD = frozenset({"note", "undo", "revive"})
_AT = attrgetter("at")


@dataclass(frozen=True)
class Context:
    """What every handler may read: the sheet, the settings and what follows from them."""

    sheet: LarpSheet
    settings: Settings
    ruleset: Ruleset
    catalogue: Mapping[str, StatusDef]
    recovery: timedelta | None  # one energy point every ...
    # What a ruleset works out once per fold from the above (its own key), not once per entry.
    memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, sheet: LarpSheet, settings: Settings) -> Context:
        if sheet.ruleset != settings.ruleset:
            raise ValueError(f"sheet is {sheet.ruleset!r}, settings are {settings.ruleset!r}")
        minutes = sheet.energy_recovery_minutes
        return cls(
            sheet=sheet,
            settings=settings,
            ruleset=get_ruleset(sheet.ruleset),
            catalogue=settings.tables[get_ruleset(sheet.ruleset).catalogue],
            recovery=timedelta(minutes=minutes) if minutes and sheet.energy_max else None,
        )


def order_log(entries: Iterable[Entry]) -> list[Entry]:
    """Order by ``at``, then by arrival; the same id a second time counts once (the first)."""
    unique = list(entries)
    if len({entry.id for entry in unique}) < len(unique):  # rare: an entry sent twice
        seen: set[str] = set()
        unique = [e for e in unique if not (e.id in seen or seen.add(e.id))]
    unique.sort(key=_AT)  # stable: arrival order breaks ties
    return unique


def resolve_undos(ordered: list[Entry]) -> tuple[set[str], dict[str, RuleError]]:
    """Return the ids undone, and the undos refused (unknown target, an undo, undone twice).

    An undo reaches only an entry before it in ``ordered`` (each id once, as ``order_log``
    gives them); the undos are taken in their order.
    """
    undone: set[str] = set()
    refused: dict[str, RuleError] = {}
    undos = [(i, entry) for i, entry in enumerate(ordered) if entry.kind == "undo"]
    if not undos:
        return undone, refused  # most logs: nothing more to look at
    position = {entry.id: i for i, entry in enumerate(ordered)}
    for i, entry in undos:
        at = position.get(entry.target)
        target = None if at is None or at >= i else ordered[at]
        if target is None:
            refused[entry.id] = RuleError("unknown_target", target=entry.target)
        elif isinstance(target, Undo):
            refused[entry.id] = RuleError("cannot_undo_undo", target=entry.target)
        elif target.id in undone:
            refused[entry.id] = RuleError("already_undone", target=entry.target)
        else:
            undone.add(target.id)
    return undone, refused


@dataclass(frozen=True)
class Folded:
    """A log folded to its last entry: the state right after it, before time passes.

    The state at any instant from ``last_at`` on is ``snapshot_at(folded, ctx, at)``: this
    state advanced in time, with no entry read again.
    """

    state: State
    conflicts: tuple[Conflict, ...]
    last_at: datetime | None  # the latest instant of any entry in the log; None: empty log
    log_position: int  # entries in the log (each id once)


def fold_log(ctx: Context, entries: Iterable[Entry], until: datetime | None = None) -> Folded:
    """Fold the entries dated at or before ``until`` (all of them when None)."""
    log = order_log(entries)
    ordered = log if until is None else log[: bisect_right(log, until, key=_AT)]
    undone, refused_undos = resolve_undos(ordered)
    state, conflicts = State.at_check_in(ctx.sheet), []
    if undone or refused_undos:
        run: list[Entry] = []  # entries to step through before the next refused undo
        for entry in ordered:
            if entry.id in undone:
                continue
            if entry.kind == "undo":
                if entry.id in refused_undos:  # its conflict comes in the log's order
                    state, run = _steps(state, run, ctx, conflicts), []
                    error = refused_undos[entry.id]
                    conflicts.append(Conflict(entry.id, error.code, error.params))
                continue
            run.append(entry)
        ordered = run
    state = _steps(state, ordered, ctx, conflicts)
    return Folded(
        state=state,
        conflicts=tuple(conflicts),
        last_at=log[-1].at if log else None,
        log_position=len(log),
    )


def fold_on(folded: Folded, entry: Entry, ctx: Context) -> Folded | None:
    """``folded`` with one more entry, when only that entry needs stepping: the same as
    folding the whole log again. None when it cannot be so (an undo rewrites what came
    before it; an entry dated before the last one moves into the middle of the log)."""
    if entry.kind == "undo" or (folded.last_at is not None and entry.at < folded.last_at):
        return None
    conflicts = list(folded.conflicts)
    state = _steps(folded.state, (entry,), ctx, conflicts)
    return Folded(
        state=state,
        conflicts=tuple(conflicts),
        last_at=entry.at,
        log_position=folded.log_position + 1,
    )


def _steps(state: State, entries: Iterable[Entry], ctx: Context, conflicts: list) -> State:
    """For each entry in turn: let time pass up to it, then apply it; a refusal is added to
    ``conflicts``. (One loop for every fold: a call per entry costs a tenth of a fold.)"""
    handler_for = {**HANDLERS, **ctx.ruleset.wound_handlers}.get
    for entry in entries:
        state = advance(state, entry.at, ctx)
        kind = entry.kind
        try:
            if state.died_at is not None and kind not in ALLOWED_WHEN_DEAD:
                raise RuleError("dead")
            handler = handler_for(kind)
            if handler is None:
                raise RuleError("not_in_ruleset", kind=kind)
            state = handler(state, entry, ctx)
        except RuleError as error:
            conflicts.append(Conflict(entry.id, error.code, error.params))
    return state


def states_at(
    sheet: LarpSheet, settings: Settings, entries: Iterable[Entry], instants: Iterable[datetime]
) -> list[tuple[datetime, State, str]]:
    """The state and wound level at each instant, as the whole log tells it, in one fold.

    Unlike ``state_at`` at each instant, an entry undone later never happened here: this is
    the event read afterwards (reports), not what the referees saw at the time.
    """
    ctx = Context.of(sheet, settings)
    log = order_log(entries)
    undone, _refused = resolve_undos(log)
    applied = [e for e in log if e.id not in undone and e.kind != "undo"]
    state, conflicts, out, i = State.at_check_in(sheet), [], [], 0
    for t in sorted(instants):
        start = i
        while i < len(applied) and applied[i].at <= t:
            i += 1
        state = _steps(state, applied[start:i], ctx, conflicts)
        seen = advance(state, t, ctx)  # only looked at: the fold goes on from ``state``
        out.append((t, seen, ctx.ruleset.wound(seen, ctx)))
    return out


def snapshot_at(folded: Folded, ctx: Context, at: datetime) -> Snapshot:
    """The folded state advanced to ``at`` (from ``folded.last_at`` on, the state there)."""
    state = advance(folded.state, at, ctx)
    return Snapshot(
        at=at,
        sheet=ctx.sheet,
        state=state,
        wound=ctx.ruleset.wound(state, ctx),
        conflicts=folded.conflicts,
        extra=ctx.ruleset.describe(state, ctx),
        log_position=folded.log_position,
    )


def state_at(
    sheet: LarpSheet, settings: Settings, entries: Iterable[Entry], at: datetime
) -> Snapshot:
    """Fold the log into the state at ``at``; refused entries come back as conflicts."""
    ctx = Context.of(sheet, settings)
    return snapshot_at(fold_log(ctx, entries, at), ctx, at)


TICK = timedelta(microseconds=1)


def next_change(state: State, ctx: Context) -> datetime | None:
    """The next instant at which time alone changes ``state``: energy recovered, a status
    over, the wound track moving (death, a save); None when nothing is due."""
    if state.died_at is not None:
        return None
    instants = [state.next_energy_at, ctx.ruleset.next_wound_change(state, ctx)]
    for status in state.statuses:
        if status.until is not None:
            # A status of no duration shows at its own instant and is gone just after.
            instants.append(status.until if status.until > status.since else status.until + TICK)
    return min((t for t in instants if t is not None), default=None)


def last_change(folded: Folded, ctx: Context, at: datetime, limit: int = 10_000) -> datetime | None:
    """The latest instant at or before ``at`` (``at`` >= ``folded.last_at``) at which the
    state changed, by an entry or by time passing; None for an empty log.

    Two instants with the same last change see the same state: nothing happened between.
    """
    return last_and_next_change(folded, ctx, at, limit)[0]


def last_and_next_change(
    folded: Folded, ctx: Context, at: datetime, limit: int = 10_000
) -> tuple[datetime | None, datetime | None]:
    """``last_change`` at ``at``, and the next instant after ``at`` at which time alone
    changes the state (None: never, without an entry): the last change stays the same
    until then."""
    last = folded.last_at
    due = next_change(folded.state, ctx)
    for _ in range(limit):
        if due is None or due > at:
            return last, due
        last = due
        following = next_change(advance(folded.state, due, ctx), ctx)
        due = None if following is None else max(following, due + TICK)
    return at, at + TICK  # a state still changing after ``limit`` steps: changed just now


def advance(state: State, t: datetime, ctx: Context) -> State:
    """Let time pass up to ``t``: the ruleset's wound track, energy recovery, status expiry."""
    if state.died_at is not None:
        return state  # a dead character's values and statuses freeze
    state = ctx.ruleset.advance_wounds(state, t, ctx)  # may set died_at, at or before t
    died_at = state.died_at
    until = died_at or t
    next_at, statuses = state.next_energy_at, state.statuses
    if died_at is None and (next_at is None or next_at > until):
        # Most steps: alive, no energy due; only a status with an end at or before ``until``
        # may be over, and most steps find none.
        for status in statuses:
            if status.until is not None and status.until <= until:
                break
        else:
            return state
    energy = state.energy
    if next_at is not None and next_at <= until:
        gained = 1 + (until - next_at) // ctx.recovery
        energy = min(ctx.sheet.energy_max, energy + gained)
        next_at = None if energy >= ctx.sheet.energy_max else next_at + gained * ctx.recovery
    for status in statuses:
        if status.until is not None and status.until <= until:
            active = tuple(s for s in statuses if not s.expired(until))
            statuses = statuses if len(active) == len(statuses) else active
            break
    if died_at is not None:
        next_at = None  # recovery stops with death
    if (
        energy is state.energy
        and next_at is state.next_energy_at
        and statuses is state.statuses
        and died_at is None
    ):
        return state
    return state.evolve(energy=energy, next_energy_at=next_at, statuses=statuses)


# Handlers common to every rule system; wounds (hit, heal, coup de grâce) are the ruleset's.


def _spend_energy(state: State, entry: SpendEnergy, ctx: Context) -> State:
    advancement = None if entry.advancement is None else ctx.sheet.advancement(entry.advancement)
    if entry.advancement is not None and advancement is None:
        raise RuleError("unknown_advancement", advancement=entry.advancement)
    if state.energy < entry.amount:
        raise RuleError("not_enough_energy", needs=entry.amount, has=state.energy)
    if advancement is not None and entry.amount != advancement.energy_cost:
        # Spending on an advancement spends what it costs.
        raise RuleError(
            "wrong_cost",
            advancement=advancement.name,
            cost=advancement.energy_cost,
            got=entry.amount,
        )
    energy = state.energy - entry.amount
    next_at = state.next_energy_at
    if next_at is None and ctx.recovery and energy < ctx.sheet.energy_max:
        next_at = entry.at + ctx.recovery  # the timer starts when energy first drops
    return state.evolve(energy=energy, next_energy_at=next_at)


def _restore_energy(state: State, entry: RestoreEnergy, ctx: Context) -> State:
    if ctx.sheet.energy_max == 0:
        raise RuleError("no_energy")
    energy = min(ctx.sheet.energy_max, state.energy + entry.amount)
    next_at = None if energy >= ctx.sheet.energy_max else state.next_energy_at
    return state.evolve(energy=energy, next_energy_at=next_at)


def _repair(state: State, entry: Repair, ctx: Context) -> State:
    if ctx.sheet.ap_max == 0:
        raise RuleError("no_armour")
    if entry.full:
        return state.evolve(ap=ctx.sheet.ap_max, armour_destroyed=False)
    if state.armour_destroyed:
        raise RuleError("armour_destroyed")
    return state.evolve(ap=min(ctx.sheet.ap_max, state.ap + entry.amount))


def _status_on(state: State, entry: StatusOn, ctx: Context) -> State:
    status = ctx.catalogue.get(entry.key)
    if status is None:
        raise RuleError("unknown_status", key=entry.key)
    if entry.seconds is not None:
        until = entry.at + timedelta(seconds=entry.seconds)
    elif status.turns is not None:
        until = entry.at + status.turns * ctx.settings.turn
    else:
        until = None
    key = entry.key
    statuses = [s for s in state.statuses if s.key != key]  # re-applying replaces
    statuses.append(ActiveStatus.made(key, entry.at, until))
    return state.evolve(statuses=tuple(statuses))


def _status_off(state: State, entry: StatusOff, ctx: Context) -> State:
    if not any(s.key == entry.key for s in state.statuses):
        raise RuleError("status_not_active", key=entry.key)
    return state.evolve(statuses=tuple(s for s in state.statuses if s.key != entry.key))


def _kill(state: State, entry: Kill, ctx: Context) -> State:
    return state.dead_at(entry.at)


def _revive(state: State, entry: Revive, ctx: Context) -> State:
    if state.died_at is None:
        raise RuleError("not_dead")
    hp = ctx.sheet.hp_max if entry.hp is None else min(ctx.sheet.hp_max, entry.hp)
    below = ctx.recovery is not None and state.energy < ctx.sheet.energy_max
    state = state.evolve(
        hp=hp,
        died_at=None,
        death_at=None,
        statuses=(),
        next_energy_at=entry.at + ctx.recovery if below else None,
    )
    return ctx.ruleset.revived(state, ctx)


def _note(state: State, entry: Note, ctx: Context) -> State:
    return state


def kinds_handled(ruleset: Ruleset) -> frozenset[str]:
    """The kinds of entry the fold applies for ``ruleset``: the shared ones and its own
    handlers'. Any other is refused by name (``not_in_ruleset``), and no screen offers it."""
    return frozenset(HANDLERS) | frozenset(ruleset.wound_handlers) | {"undo"}


HANDLERS: dict[str, Callable[..., State]] = {
    "spend_energy": _spend_energy,
    "restore_energy": _restore_energy,
    "repair": _repair,
    "status_on": _status_on,
    "status_off": _status_off,
    "kill": _kill,
    "revive": _revive,
    "note": _note,
}
