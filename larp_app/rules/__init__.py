"""The rules engine: plain data in, plain data out. No Flask, no database, no clock."""

from .clean import bad_text
from .clean import loads as strict_json_loads
from .conversion import check_sheet, convert_sheet, sheet_ruleset, tabletop_values
from .corrections import ChangedOutcome, RuleCorrection, changed_outcome
from .entries import (
    Entry,
    entry_from_stored,
    entry_to_dict,
    instant_problem,
    read_entry,
    read_log,
)
from .fold import (
    Context,
    Folded,
    fold_log,
    fold_on,
    kinds_handled,
    last_and_next_change,
    last_change,
    next_change,
    order_log,
    resolve_undos,
    snapshot_at,
    state_at,
    states_at,
)
from .kinds import EntryKind
from .problems import Checker, InvalidInput, Problem, RuleError, nearest
from .registry import (
    RulesetClash,
    entry_kind,
    entry_kinds,
    get_ruleset,
    may_log,
    rediscover,
    register,
    ruleset_keys,
    rulesets,
    shipped_table,
    unregister,
)
from .ruleset import Ruleset
from .settings import Settings, default_settings, read_settings
from .sheet import LarpSheet
from .state import Snapshot
from .timeutil import format_instant, parse_instant

__all__ = [
    "ChangedOutcome",
    "Checker",
    "Context",
    "Entry",
    "EntryKind",
    "Folded",
    "InvalidInput",
    "LarpSheet",
    "Problem",
    "RuleCorrection",
    "RuleError",
    "Ruleset",
    "RulesetClash",
    "Settings",
    "Snapshot",
    "bad_text",
    "changed_outcome",
    "check_sheet",
    "convert_sheet",
    "default_settings",
    "entry_from_stored",
    "entry_kind",
    "entry_kinds",
    "entry_to_dict",
    "fold_log",
    "fold_on",
    "format_instant",
    "get_ruleset",
    "instant_problem",
    "kinds_handled",
    "last_and_next_change",
    "last_change",
    "may_log",
    "nearest",
    "next_change",
    "order_log",
    "parse_instant",
    "read_entry",
    "read_log",
    "read_settings",
    "rediscover",
    "register",
    "resolve_undos",
    "ruleset_keys",
    "rulesets",
    "sheet_ruleset",
    "shipped_table",
    "snapshot_at",
    "state_at",
    "states_at",
    "strict_json_loads",
    "tabletop_values",
    "unregister",
]
