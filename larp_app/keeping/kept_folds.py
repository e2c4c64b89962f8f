"""Kept folds stored: a worker that starts in the middle of a big event reads each
character's folded log instead of folding it again.

When a worker folds a character while building an event's view (keeping/views.py), it
stores the fold (``rules.Folded``, the entries it refused and the row of the log's last
entry) with the character's version and a *fingerprint*: the rule-system code that folded it
and the event's settings. A starting worker reads the stored folds of an event's characters
in one query per chunk and keeps those whose version is the character's version now and
whose fingerprint is its own; every other character is folded as before, and its fold
stored in place of the older one.

Never older over newer: a stored fold is used as it is only at exactly the character's
version (the database's triggers move versions, keeping/versions.py), and only of the
database's epoch it was stored in (a restore or a rewritten log gives version numbers again
to other logs: a fold of another epoch is never read); one of an earlier version, of
the same larp sheet (its digest is stored with it), is folded on with the entries stored
after its last row, which are the entries since (a character's entries are written one at
a time under its lock). It is written only for a version read from committed rows, and
again once it is ``BEHIND`` entries behind, so a start in the middle of a long day folds
on a few entries a character, not its day; a fold of another code (a new release of the
app or of a rule system: ``RULES_VERSION``, the package's version, the source of the engine
and of the rule system) is never read. Derived data: deleting every row changes no answer,
only the cost of the next start.

The stored form is a pickle read back by an unpickler that builds only the engine's and the
rule systems' own types, instants and plain values: a row is never a way to run code.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import sys
from collections.abc import Iterable
from functools import cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from .. import rules
from ..extensions import db
from ..models import KeptFold
from ..rules.registry import get_ruleset, rulesets

# Raise when the fold's meaning changes in a way its source does not show (data files).
RULES_VERSION = 1
# A fold is stored again when the one stored is this many entries behind.
BEHIND = 10


def _sources(paths: Iterable[Path]) -> bytes:
    digest = hashlib.sha256()
    for path in sorted(set(paths)):
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes())
    return digest.digest()


@cache
def _code_digest(ruleset_key: str) -> bytes:
    """The engine's source, the built-in rule systems' and an installed rule system's own
    package (every package its ``RULESET`` names, the standard library's left out)."""
    app = Path(rules.__file__).resolve().parent.parent
    paths = [*(app / "rules").rglob("*.py"), *(app / "rulesets").rglob("*.py")]
    ruleset = get_ruleset(ruleset_key)
    for top in _packages_of(ruleset):
        file = getattr(sys.modules.get(top), "__file__", None)
        if file:
            paths += Path(file).resolve().parent.rglob("*.py")
    try:
        release = package_version("larp_app")
    except PackageNotFoundError:
        release = "unknown"
    return hashlib.sha256(f"{RULES_VERSION}:{release}:".encode() + _sources(paths)).digest()


def _packages_of(ruleset) -> set[str]:
    """The top packages, other than this app and the standard library, of what a rule
    system's ``RULESET`` holds."""
    names = {type(ruleset).__module__}
    for value in vars(ruleset).values() if hasattr(ruleset, "__dict__") else ():
        module = getattr(value, "__module__", None)
        if isinstance(module, str):
            names.add(module)
    tops = {name.split(".")[0] for name in names}
    return {t for t in tops if t != "larp_app" and t not in sys.stdlib_module_names}


def fingerprint(ruleset_key: str, settings_key: str, epoch: int | None = None) -> str:
    """What a fold depends on besides the log and the sheet (whose changes move the version),
    and the database's epoch it was read in (keeping/versions.py): after a restore or a
    rewrite of the log, versions may be given again to other logs, so no fold stored
    before is read."""
    digest = hashlib.sha256(_code_digest(ruleset_key))
    digest.update(ruleset_key.encode())
    digest.update(settings_key.encode())
    digest.update(f"epoch {epoch}".encode())
    return digest.hexdigest()


# --- the stored form ------------------------------------------------------------------------

ALLOWED_MODULES = ("datetime", "larp_app.rules", "larp_app.rulesets")
ALLOWED_BUILTINS = frozenset({"frozenset", "set", "tuple", "list", "dict", "complex"})


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in ALLOWED_BUILTINS:
            return super().find_class(module, name)
        if any(module == m or module.startswith(m + ".") for m in ALLOWED_MODULES) or (
            module.split(".")[0] in _ruleset_packages()
        ):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"a kept fold names {module}.{name}")


@cache
def _ruleset_packages() -> frozenset[str]:
    """The top packages of installed rule systems (a rule system's own wound track type)."""
    return frozenset(top for ruleset in rulesets() for top in _packages_of(ruleset))


def dumps(
    folded: rules.Folded,
    conflicts: dict[str, rules.Entry],
    last_row: int | None,
    sheet_digest: bytes | None = None,
) -> bytes:
    return pickle.dumps(
        (folded, conflicts, last_row, sheet_digest), protocol=pickle.HIGHEST_PROTOCOL
    )


def loads(data: bytes) -> tuple[rules.Folded, dict[str, rules.Entry], int | None, bytes | None]:
    """The stored fold, the entries it refused, the row of its last entry and the digest
    of the larp sheet it was folded with (None: stored before it was kept)."""
    loaded = _Unpickler(io.BytesIO(data)).load()
    return (*loaded, None) if len(loaded) == 3 else loaded


# --- the table ------------------------------------------------------------------------------


def read(versions: dict[int, int], fingerprint_: str) -> dict[int, tuple[int, bytes]]:
    """The stored folds of these characters ({id: version now}) of this fingerprint and at
    most that version, with their version, in their stored form (``loads``)."""
    if not versions:
        return {}
    rows = db.session.execute(
        select(KeptFold.character_id, KeptFold.version, KeptFold.folded).where(
            KeptFold.character_id.in_(list(versions)), KeptFold.fingerprint == fingerprint_
        )
    )
    # A newer one is of a number a rolled-back write gave: left out, folded again.
    return {i: (version, data) for i, version, data in rows if version <= versions[i]}


def _insert(dialect: str):
    return (postgresql if dialect == "postgresql" else sqlite).insert(KeptFold)


def store(rows: list[dict]) -> None:
    """Store folds ({character_id, version, fingerprint, folded}) in a transaction of their
    own (the reader's is not written in); a newer stored version of the same fingerprint is
    never replaced by an older one (one of another fingerprint is never read: replaced)."""
    if not rows:
        return
    engine = db.engine
    if engine.dialect.name not in ("postgresql", "sqlite") or engine.url.database in (
        None,
        "",
        ":memory:",  # one connection: a transaction of its own would be the reader's
    ):
        return
    statement = _insert(engine.dialect.name)
    statement = statement.on_conflict_do_update(
        index_elements=[KeptFold.character_id],
        set_={
            "version": statement.excluded.version,
            "fingerprint": statement.excluded.fingerprint,
            "folded": statement.excluded.folded,
        },
        where=(KeptFold.version <= statement.excluded.version)
        | (KeptFold.fingerprint != statement.excluded.fingerprint),
    )
    try:
        with engine.begin() as connection:
            connection.execute(statement, rows)
    except Exception:
        db.session.info["larp_kept_folds_failed"] = True
