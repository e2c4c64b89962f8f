"""The rule systems the app knows, found through Python entry points (group
``larp_app.rulesets``, each naming a package's ``RULESET``) or handed over by ``register``.

The engine names no rule system: the shipped ones are packages under
``larp_app/rulesets/`` declared as entry points in pyproject.toml, like any pip package would be.
Each rule system's kinds of entry are its own: two may both declare a kind ``roll``, each read
by its own reader for its own characters. What cannot be told apart (two rule systems of one
key, a kind named like a shared one) is refused when the rule systems are found, in words.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from .entries import KIND_TABLES, KINDS, Entry, Reader
from .kinds import SHARED, EntryKind
from .problems import Checker
from .ruleset import Ruleset

GROUP = "larp_app.rulesets"
# Where the project's own rule systems live: read only when the installed metadata declares
# none (a checkout whose .venv predates the entry points), so that the app still starts.
BUILT_IN = "larp_app.rulesets"

_registered: dict[str, Ruleset] = {}
_tables: dict[str | None, dict[str, Reader]] = {}  # the log reader's kinds, by rule system


class RulesetClash(ValueError):
    """Two rule systems (or a rule system and the app) declare the same thing: refused when
    the app starts, in words, rather than one silently replacing the other."""


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
    known: dict[str, Ruleset] = {}
    for ruleset in found:
        if not isinstance(ruleset, Ruleset):
            raise TypeError(f"{GROUP} entry point gave {ruleset!r}, not a Ruleset")
        _check(ruleset, known)
        known[ruleset.key] = ruleset
    return known


def _check(ruleset: Ruleset, known: dict[str, Ruleset]) -> None:
    """Refuse what would clash: a key already taken, a kind named like one every rule system
    shares, a kind declared twice, a kind whose entries would say another kind."""
    other = known.get(ruleset.key)
    if other is not None and other is not ruleset:
        raise RulesetClash(
            f"two rule systems are called {ruleset.key!r}: "
            f"{_origin(other)} and {_origin(ruleset)}; uninstall one of them"
        )
    seen: set[str] = set()
    for kind in ruleset.entry_kinds:
        if kind.key in KINDS:
            raise RulesetClash(
                f"the rule system {ruleset.key!r} declares a kind of entry {kind.key!r}, "
                "which every rule system shares: its own kind needs another name"
            )
        if kind.key in seen:
            raise RulesetClash(
                f"the rule system {ruleset.key!r} declares the kind of entry {kind.key!r} twice"
            )
        if getattr(kind.cls, "kind", None) != kind.key:
            raise RulesetClash(
                f"the rule system {ruleset.key!r} declares the kind {kind.key!r} with entries "
                f"of the kind {getattr(kind.cls, 'kind', None)!r}: the two must be the same"
            )
        seen.add(kind.key)


def _origin(ruleset: Ruleset) -> str:
    return str(ruleset.package_dir or type(ruleset.read_sheet).__module__)


def rediscover() -> None:
    """Look at the installed packages again (one installed while the app runs, in tests)."""
    _discovered.cache_clear()
    _tables.clear()


def _known() -> dict[str, Ruleset]:
    return {**_discovered(), **_registered}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` known (a rule system not installed as an entry point, e.g. in tests);
    RulesetClash when another one has its key."""
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{ruleset!r} is not a Ruleset")
    _check(ruleset, _known())
    _registered[ruleset.key] = ruleset
    _tables.clear()
    return ruleset


def unregister(key: str) -> None:
    """Forget a ruleset given to ``register`` (another rule system's kinds stay as they are)."""
    if _registered.pop(key, None) is not None:
        _tables.clear()


def kind_table(ruleset: str | None) -> dict[str, Reader]:
    """What the log reader reads for a character of ``ruleset``: the shared kinds and its own;
    another rule system's kind is read too, to be refused by name (``not_in_ruleset``). With
    None, every rule system's kinds, but a kind several declare is refused as ambiguous."""
    table = _tables.get(ruleset)
    if table is None:
        table = _tables[ruleset] = _table(ruleset)
    return table


def _table(ruleset: str | None) -> dict[str, Reader]:
    declared: dict[str, list[tuple[str, EntryKind]]] = {}
    for known in rulesets():
        for kind in known.entry_kinds:
            declared.setdefault(kind.key, []).append((known.key, kind))
    table: dict[str, Reader] = {}
    for key, owners in declared.items():
        own = next((kind for owner, kind in owners if owner == ruleset), None)
        if own is not None or ruleset is not None or len(owners) == 1:
            kind = own or owners[0][1]
            table[key] = (kind.cls, kind.read)
        else:
            table[key] = (Entry, _ambiguous([owner for owner, _kind in owners]))
    return {**table, **KINDS}


def _ambiguous(owners: list[str]) -> Callable[[Checker, dict, str], dict]:
    def read(checker: Checker, data: dict, prefix: str) -> dict:
        checker.error(prefix + "kind", "kind_of_several", got=data.get("kind"), allowed=owners)
        return {}

    return read


KIND_TABLES.append(kind_table)


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
        for kind in known.entry_kinds:
            found.setdefault(kind.key, kind)
    return list(found.values())


def entry_kind(key: str, ruleset: str | None = None) -> EntryKind | None:
    """The declaration of the kind ``key``: shared, or of ``ruleset`` (of any known rule system
    when None: the first by key when several declare it); None when there is none."""
    return next((kind for kind in entry_kinds(ruleset) if kind.key == key), None)


def may_log(key: str, role: str, ruleset: str | None = None) -> bool:
    """Whether a user of ``role`` may log an entry of kind ``key`` (unknown kinds are left to
    the reader, which refuses them by name)."""
    kind = entry_kind(key, ruleset) if isinstance(key, str) else None
    return kind is None or role in kind.roles
