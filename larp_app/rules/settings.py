"""Event settings: the turn length, optional rules and the event's own tables."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from typing import Any

from .problems import Checker
from .registry import get_ruleset
from .tables import TableSet, build_tables

OPTIONAL_RULES = ("armour_breaks",)
KNOWN_KEYS = (
    "ruleset",
    "turn_seconds",
    "optional_rules",
    "tables",
    "seed",
    "secret",
    "saves",
    "roster_max_age_minutes",
    "entry_max_age_hours",
)
SAVES = ("app", "referee")  # who rolls the saves: the app (seeded), or referees enter them
# Settings a rule system reads only if it declares them (``Ruleset.settings_offered``): the
# optional rule of armour breaking, who rolls the saves, the dice seed.
OPTIONS = ("armour_breaks", "saves", "seed")


@dataclass(frozen=True)
class Settings:
    ruleset: str
    tables: TableSet
    turn_seconds: float = 1
    armour_breaks: bool = False  # a blow of at least twice the armour left destroys it
    seed: str = ""  # the event's dice seed: with the entry, it fixes every roll the app makes
    # Kept on the server, never sent to a phone: with it no client can foresee (or steer, by
    # choosing entry ids) the app's rolls, which stay reproducible given the settings.
    secret: str = ""
    saves: str = "app"
    # A referee's phone warns when its offline roster is older than this.
    roster_max_age_minutes: int = 30
    # Entries dated further back are refused (kept for the organiser to accept); None: the
    # app's default (a phone offline for a weekend needs more than a day).
    entry_max_age_hours: int | None = None

    @property
    def dice_seed(self) -> str:
        """What fixes the app's dice, with each roll's own parts: the seed and the secret."""
        return f"{self.seed}\x1f{self.secret}" if self.secret else self.seed

    @property
    def turn(self) -> timedelta:
        return timedelta(seconds=self.turn_seconds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "turn_seconds": self.turn_seconds,
            "optional_rules": {"armour_breaks": self.armour_breaks},
            "tables": dict(self.tables.sources),
        }


def read_settings(raw: Mapping[str, Any] | None, ruleset: str) -> Settings:
    """Read an event's settings for ``ruleset``, or raise InvalidInput naming each bad field."""
    raw = raw or {}
    checker = Checker()
    if not isinstance(raw, Mapping):
        checker.error("settings", "not_object")
        checker.raise_if_errors()
    for key in raw:
        if key not in KNOWN_KEYS:
            checker.error(key, "unknown_field", allowed=list(KNOWN_KEYS))
    if raw.get("ruleset") not in (None, ruleset):
        checker.error("ruleset", "ruleset_mismatch", expected=ruleset, got=str(raw["ruleset"]))
    turn_seconds = checker.number(
        raw, "turn_seconds", "turn_seconds", lo=0.1, hi=60, required=False, default=1
    )
    rules = checker.mapping(raw, "optional_rules", "optional_rules", required=False) or {}
    for key in rules:
        if key not in OPTIONAL_RULES:
            checker.error(f"optional_rules.{key}", "unknown_field", allowed=list(OPTIONAL_RULES))
    armour_breaks = checker.boolean(
        rules, "armour_breaks", "optional_rules.armour_breaks", default=False
    )
    seed = checker.text(raw, "seed", "seed", required=False, max_len=100) or ""
    secret = checker.text(raw, "secret", "secret", required=False, max_len=200) or ""
    saves = checker.choice(raw, "saves", "saves", SAVES, required=False, default="app")
    roster_max_age = checker.integer(
        raw,
        "roster_max_age_minutes",
        "roster_max_age_minutes",
        lo=1,
        hi=24 * 60,
        required=False,
        default=30,
    )
    entry_max_age = checker.integer(
        raw, "entry_max_age_hours", "entry_max_age_hours", lo=1, hi=24 * 30, required=False
    )
    overrides = checker.mapping(raw, "tables", "tables", required=False) or {}
    known = get_ruleset(ruleset)
    tables = build_tables(known.tables, known.shipped_table, overrides, checker)
    checker.raise_if_errors()
    return Settings(
        ruleset=ruleset,
        tables=tables,
        turn_seconds=turn_seconds,
        armour_breaks=bool(armour_breaks),
        seed=seed,
        secret=secret,
        saves=saves,
        roster_max_age_minutes=roster_max_age,
        entry_max_age_hours=entry_max_age,
    )


@cache
def default_settings(ruleset: str) -> Settings:
    """The settings of an event that changed nothing."""
    return read_settings({}, ruleset)
