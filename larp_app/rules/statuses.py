"""The status (condition) catalogue that referees apply with timers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .problems import Checker

# A status's figures that the app or any rule system reads (a penalty to every roll, a harmful
# status, one that holds harmful ones in suspension...), kept with its texts; a rule system's
# own figures are its catalogue's (``status_catalogue_parser``).
TEXTS = ("name", "description", "ends_also", "numbers", "check")  # words, and its check
RULE_FIGURES = (
    "all_rolls",
    "harmful",
    "suspends_harmful",
    "deadly_at_end_of_session",  # ending a session with it and no healer is death
    "immune",  # the damage types that do nothing to it (larp_app.rules.damage)
)


@dataclass(frozen=True, slots=True)
class StatusDef:
    """One catalogue status: its key, default duration in turns (None: open) and texts."""

    key: str
    turns: int | None
    ends_on_hit: bool = False
    texts: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


def status_catalogue_parser(own_figures: tuple[str, ...]):
    """A catalogue reader that keeps a rule system's own figures too (armour a condition
    adds...), beside those every rule system shares."""

    def parse(raw: Any, checker: Checker, path: str) -> dict[str, StatusDef]:
        return parse_status_catalogue(raw, checker, path, own_figures)

    return parse


def parse_status_catalogue(
    raw: Any, checker: Checker, path: str, own_figures: tuple[str, ...] = ()
) -> dict[str, StatusDef]:
    """Read ``{"statuses": [{key, turns, ends_on_hit, name, description, ...}]}``."""
    items = raw.get("statuses") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        checker.error(f"{path}.statuses", "not_list")
        return {}
    catalogue: dict[str, StatusDef] = {}
    for i, item in enumerate(items):
        where = f"{path}.statuses[{i}]"
        if not isinstance(item, dict):
            checker.error(where, "not_object")
            continue
        key = checker.text(item, "key", f"{where}.key", max_len=40)
        turns = checker.integer(item, "turns", f"{where}.turns", lo=0, nullable=True)
        ends_on_hit = checker.boolean(item, "ends_on_hit", f"{where}.ends_on_hit", default=False)
        immune = item.get("immune", [])
        if not isinstance(immune, list) or not all(isinstance(k, str) for k in immune):
            checker.error(f"{where}.immune", "not_list")
        if key is None:
            continue
        if key in catalogue:
            checker.error(f"{where}.key", "duplicate", got=key)
            continue
        texts = {k: v for k, v in item.items() if k in (*TEXTS, *RULE_FIGURES) or k in own_figures}
        catalogue[key] = StatusDef(key, turns, bool(ends_on_hit), texts)
    return catalogue
