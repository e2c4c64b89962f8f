"""The rules engine: plain data in, plain data out. No Flask, no database, no clock."""

from .clean import bad_text
from .clean import loads as strict_json_loads
from .conversion import check_sheet, convert_sheet, sheet_ruleset, tabletop_values
from .entries import Entry, entry_from_stored, entry_to_dict, read_entry, read_log
from .fold import order_log, resolve_undos, state_at
from .problems import Checker, InvalidInput, Problem, RuleError
from .registry import get_ruleset, ruleset_keys
from .settings import Settings, default_settings, read_settings
from .sheet import LarpSheet
from .state import Snapshot
from .tables import shipped_table
from .timeutil import format_instant, parse_instant

__all__ = [
    "Checker",
    "Entry",
    "InvalidInput",
    "LarpSheet",
    "Problem",
    "RuleError",
    "Settings",
    "Snapshot",
    "bad_text",
    "check_sheet",
    "convert_sheet",
    "default_settings",
    "entry_from_stored",
    "entry_to_dict",
    "format_instant",
    "get_ruleset",
    "order_log",
    "parse_instant",
    "read_entry",
    "read_log",
    "read_settings",
    "resolve_undos",
    "ruleset_keys",
    "sheet_ruleset",
    "shipped_table",
    "state_at",
    "strict_json_loads",
    "tabletop_values",
]
