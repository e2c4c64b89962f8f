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

from .entries import DISCOVER
from .kinds import SHARED, EntryKind, add_kinds, remove_kinds
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
        add_kinds(ruleset.entry_kinds)
    return {ruleset.key: ruleset for ruleset in found}


DISCOVER.append(_discovered)  # the log reader reads every known rule system's kinds


def _known() -> dict[str, Ruleset]:
    return {**_discovered(), **_registered}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` known (a rule system not installed as an entry point, e.g. in tests)."""
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{ruleset!r} is not a Ruleset")
    _registered[ruleset.key] = ruleset
    add_kinds(ruleset.entry_kinds)
    return ruleset


def unregister(key: str) -> None:
    """Forget a ruleset given to ``register``."""
    ruleset = _registered.pop(key, None)
    if ruleset is not None:
        remove_kinds(ruleset.entry_kinds)


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


def entry_kinds(ruleset: str | None = None) -> list[EntryKind]:
    """The kinds of entry shared by every rule system, then those of ``ruleset`` (of every
    known rule system when None)."""
    own = [get_ruleset(ruleset)] if ruleset is not None else rulesets()
    found = {kind.key: kind for kind in SHARED}
    for known in own:
        found.update((kind.key, kind) for kind in known.entry_kinds)
    return list(found.values())


def entry_kind(key: str) -> EntryKind | None:
    """The declaration of the kind ``key`` (shared or of any known rule system), or None."""
    return next((kind for kind in entry_kinds() if kind.key == key), None)


def may_log(key: str, role: str) -> bool:
    """Whether a user of ``role`` may log an entry of kind ``key`` (unknown kinds are left to
    the reader, which refuses them by name)."""
    kind = entry_kind(key) if isinstance(key, str) else None
    return kind is None or role in kind.roles
