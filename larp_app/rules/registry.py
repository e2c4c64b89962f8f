"""Rule systems the app knows: each a small entry of tables, sheet reader and wound model."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .problems import Checker
from .tables import TableParser, TableSet

if TYPE_CHECKING:
    from .sheet import LarpSheet
    from .state import State

SheetReader = Callable[[Any, TableSet, Checker], "LarpSheet | None"]
Handler = Callable[..., "State"]


@dataclass(frozen=True)
class Ruleset:
    """What makes a rule system: its tables, how its sheets convert, how wounds work."""

    key: str
    language: str
    tables: Mapping[str, TableParser]
    read_sheet: SheetReader
    tabletop_values: Callable[[Mapping[str, Any], TableSet], dict[str, Any]]
    wound_handlers: Mapping[str, Handler]  # entry kind -> handler(state, entry, ctx)
    wound: Callable[..., str]  # (state, ctx) -> ok | grievous | dying | dead
    # What time does to wounds (a countdown, saves each turn): state and instant -> state;
    # it may set died_at (never after the instant), and leaves energy and statuses alone.
    advance_wounds: Callable[..., State]
    # What a revive does to the wound track, after the points and death are reset.
    revived: Callable[..., State] = lambda state, ctx: state
    catalogue: str = "statuses"  # the table of statuses (conditions) referees apply
    turn_seconds: float = 1  # a new event's turn, unless its organiser sets another
    # Ruleset-specific figures added to the state's JSON (thresholds, next save...).
    describe: Callable[..., dict[str, Any]] = lambda state, ctx: {}
    # The next instant at which advance_wounds would change the state (a countdown's end, the
    # next save), or None: (state, ctx) -> datetime | None.
    next_wound_change: Callable[..., Any] = lambda state, ctx: state.death_at
    # Rules every larp sheet recalls, each {key, text: {language: text}} in the ruleset's own
    # language and translated; the console recalls one in its header while the wound is one
    # of its ``wounds``, or beside the action named ``action``.
    sheet_rules: tuple[Mapping[str, Any], ...] = ()


def _known() -> dict[str, Ruleset]:
    from . import athkri, ex_nihilo

    return {r.key: r for r in (ex_nihilo.RULESET, athkri.RULESET)}


def ruleset_keys() -> list[str]:
    return sorted(_known())


def get_ruleset(key: str) -> Ruleset:
    """Return the ruleset named ``key``; KeyError when there is none."""
    return _known()[key]
