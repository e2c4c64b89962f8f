"""The rule systems the app knows, found through Python entry points (group
``larp_app.rulesets``, each naming a package's ``RULESET``) or handed over by ``register``.

The engine names no rule system: EX Nihilo and Sistema Athkri are packages under
``larp_app/rulesets/`` declared as entry points in pyproject.toml, like any pip package would be.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from .ruleset import Ruleset

GROUP = "larp_app.rulesets"
# Where the project's own rule systems live: read only when the installed metadata declares
# none (a checkout whose .venv predates the entry points), so that the app still starts.
BUILT_IN = "larp_app.rulesets"

_registered: dict[str, Ruleset] = {}


@cache
def _discovered() -> dict[str, Ruleset]:
    found = [point.load() for point in entry_points(group=GROUP)]
    if not found:
        package = importlib.import_module(BUILT_IN)
        found = [
            importlib.import_module(f"{BUILT_IN}.{module.name}").RULESET
            for module in pkgutil.iter_modules(package.__path__)
            if module.ispkg
        ]
    for ruleset in found:
        if not isinstance(ruleset, Ruleset):
            raise TypeError(f"{GROUP} entry point gave {ruleset!r}, not a Ruleset")
    return {ruleset.key: ruleset for ruleset in found}


def _known() -> dict[str, Ruleset]:
    return {**_discovered(), **_registered}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` known (a rule system not installed as an entry point, e.g. in tests)."""
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{ruleset!r} is not a Ruleset")
    _registered[ruleset.key] = ruleset
    return ruleset


def unregister(key: str) -> None:
    """Forget a ruleset given to ``register``."""
    _registered.pop(key, None)


def rulesets() -> list[Ruleset]:
    """Every known ruleset, by key."""
    known = _known()
    return [known[key] for key in sorted(known)]


def ruleset_keys() -> list[str]:
    return sorted(_known())


def get_ruleset(key: str) -> Ruleset:
    """Return the ruleset named ``key``; KeyError when there is none."""
    return _known()[key]


def shipped_table(ruleset: str, name: str) -> Any:
    """Return a fresh copy of a table file shipped with the ruleset ``ruleset``."""
    return get_ruleset(ruleset).shipped_table(name)
