"""An event archive checked whole before anything of it is written: its format, every key
and type, the rule system it names (installed here), its settings and sheets, and what its
rows name of each other. Refused in words, each problem at its place in the file.

Format 2 archives (written before the marks, the sheets' history, the assignments, the
dismissed conflicts and the refusals' parameters travelled) still import: what they lack is
read as nothing (not archived, not withdrawn, no history...).
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from .. import rules
from ..services.users import ROLES

FORMAT = "larp_app.event/3"  # 1 held the badges in clear; 2 lacked the marks and history
FORMATS = ("larp_app.event/2", FORMAT)
SHOWN_PROBLEMS = 8


class ArchiveRefused(Exception):
    """An archive that cannot be imported; the message says why, in words."""


class Since3:
    """A key format 3 added: required there; in a format 2 archive, ``default`` if missing."""

    def __init__(self, spec: Any, default: Any) -> None:
        self.spec, self.default = spec, default


class Nullable:
    def __init__(self, spec: Any) -> None:
        self.spec = spec


TIME, DIGEST, TEXT, OBJECT, BOOL, INT, ANY = (
    "time",
    "digest",
    "text",
    "object",
    "bool",
    "int",
    "any",
)

BADGE = {
    "secret_hash": DIGEST,
    "short_code_hash": DIGEST,
    "issued_at": TIME,
    "revoked_at": Nullable(TIME),
    "printed_at": Nullable(TIME),
}
SHEET_CHANGE = {
    "at": TIME,
    "user": Nullable(TEXT),
    "author": Nullable(TEXT),
    "source": TEXT,
    "before": Nullable(OBJECT),
    "after": OBJECT,
}
SCHEMA = {
    "format": TEXT,
    "event": {
        "name": TEXT,
        "ruleset": TEXT,
        "settings": OBJECT,
        "faction_colours": OBJECT,
        "created_at": TIME,
        "archived_at": Since3(Nullable(TIME), None),
    },
    "referees": Since3([TEXT], []),
    "accounts": [
        {
            "username": TEXT,
            "role": TEXT,
            "active": BOOL,
            "language": Nullable(TEXT),
            "created_at": TIME,
        }
    ],
    "characters": [
        {
            "key": INT,
            "player": TEXT,
            "name": TEXT,
            "faction": Nullable(TEXT),
            "tabletop": OBJECT,
            "larp": OBJECT,
            "created_at": TIME,
            "withdrawn_at": Since3(Nullable(TIME), None),
            "present_at": Since3(Nullable(TIME), None),
            "player_secret_hash": Nullable(DIGEST),
            "badges": [BADGE],
            "sheet_changes": Since3([SHEET_CHANGE], []),
        }
    ],
    "entries": [
        {
            "client_id": TEXT,
            "character": INT,
            "kind": TEXT,
            "at": TIME,
            "sent_at": Nullable(TIME),
            "received_at": TIME,
            "author": Nullable(TEXT),
            "fields": OBJECT,
            "referee_at": Since3(Nullable(TIME), None),  # format 2 kept it once entries did
        }
    ],
    "refusals": [
        {
            "at": TIME,
            "client_id": TEXT,
            "character": INT,
            "user": Nullable(TEXT),
            "fields": OBJECT,
            "code": TEXT,
            "params": Since3(Nullable(OBJECT), None),
            "message": TEXT,
        }
    ],
    "dismissed_conflicts": Since3([{"client_id": TEXT, "user": TEXT, "at": TIME}], []),
    "refused_scans": [
        {
            "at": TIME,
            "user": Nullable(TEXT),
            "badge": Nullable(DIGEST),
            "presented": TEXT,
            "reason": TEXT,
        }
    ],
}

HEX = set("0123456789abcdef")


def _kind_problem(value: Any, kind: str) -> str | None:
    """What is wrong with ``value`` as a ``kind``, or None."""
    if kind == ANY:
        return None
    if kind == TEXT:
        return None if isinstance(value, str) else "must be text"
    if kind == INT:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else "must be a whole number"
    if kind == BOOL:
        return None if isinstance(value, bool) else "must be true or false"
    if kind == OBJECT:
        return None if isinstance(value, dict) else "must be an object"
    if kind == DIGEST:
        ok = isinstance(value, str) and len(value) == 64 and set(value) <= HEX
        return None if ok else "must be a SHA-256 digest (64 hexadecimal digits)"
    if kind == TIME:
        try:
            ok = isinstance(value, str) and datetime.fromisoformat(value).tzinfo is not None
        except ValueError:
            ok = False
        return None if ok else "must be an instant with its offset (2026-05-01T10:00:00+00:00)"
    raise AssertionError(kind)


class _Reader:
    def __init__(self, version: str) -> None:
        self.old = version != FORMAT
        self.problems: list[str] = []

    def read(self, value: Any, spec: Any, path: str) -> Any:
        """``value`` checked against ``spec``; the keys an old format lacks filled in."""
        if isinstance(spec, Since3):
            spec = spec.spec
        if isinstance(spec, Nullable):
            return None if value is None else self.read(value, spec.spec, path)
        if isinstance(spec, list):
            if not isinstance(value, list):
                return self._wrong(path, "must be a list")
            return [self.read(v, spec[0], f"{path}[{n}]") for n, v in enumerate(value)]
        if isinstance(spec, dict):
            if not isinstance(value, dict):
                return self._wrong(path, "must be an object")
            read = dict(value)
            for key, inner in spec.items():
                where = f"{path}.{key}" if path else key
                if key in value:
                    read[key] = self.read(value[key], inner, where)
                elif isinstance(inner, Since3) and self.old:
                    read[key] = copy.deepcopy(inner.default)
                else:
                    self._wrong(where, "is missing")
            return read
        problem = _kind_problem(value, spec)
        return value if problem is None else self._wrong(path, problem)

    def _wrong(self, path: str, what: str) -> None:
        self.problems.append(f"{path} {what}")
        return None


def check_archive(archive: Any) -> dict[str, Any]:
    """The archive, read whole and checked (format 2's missing keys filled in); ArchiveRefused
    naming each problem (the first few) when it cannot be imported as it is."""
    if not isinstance(archive, dict) or archive.get("format") not in FORMATS:
        got = archive.get("format") if isinstance(archive, dict) else None
        said = f", not {str(got)[:40]!r}" if isinstance(got, str) else ""
        raise ArchiveRefused(
            f"FILE: not an event archive of this app (format {FORMAT}{said}): nothing imported"
        )
    reader = _Reader(archive["format"])
    read = reader.read(archive, SCHEMA, "")
    if not reader.problems:
        reader.problems += _meaning_problems(read)
    if reader.problems:
        shown = "; ".join(reader.problems[:SHOWN_PROBLEMS])
        more = len(reader.problems) - SHOWN_PROBLEMS
        tail = f" (and {more} more)" if more > 0 else ""
        raise ArchiveRefused(f"FILE: a damaged event archive: {shown}{tail}: nothing imported")
    return read


def _meaning_problems(archive: dict[str, Any]) -> list[str]:
    """What the well-typed archive says that this app cannot take: an unknown rule system,
    settings or sheets it would not read, rows naming what the archive does not hold."""
    problems = []
    event = archive["event"]
    ruleset = event["ruleset"]
    if ruleset not in rules.ruleset_keys():
        installed = ", ".join(rules.ruleset_keys())
        return [f"event.ruleset: the rule system {ruleset!r} is not installed here ({installed})"]
    try:
        rules.read_settings(event["settings"], ruleset)
    except rules.InvalidInput as exc:
        problems += [f"event.settings.{p.path}: {p.code}" for p in exc.problems]
    for n, account in enumerate(archive["accounts"]):
        if account["role"] not in ROLES:
            problems.append(f"accounts[{n}].role must be one of {', '.join(ROLES)}")
    keys = [c["key"] for c in archive["characters"]]
    if len(set(keys)) != len(keys):
        problems.append("characters: two characters have the same key")
    for n, character in enumerate(archive["characters"]):
        try:
            rules.LarpSheet.from_dict(character["larp"])
        except Exception as exc:  # any way a sheet cannot be read
            problems.append(f"characters[{n}].larp is not a sheet this app reads ({exc})"[:200])
    digests = {b["secret_hash"] for c in archive["characters"] for b in c["badges"]}
    for table in ("entries", "refusals"):
        for n, row in enumerate(archive[table]):
            if row["character"] not in keys:
                problems.append(f"{table}[{n}].character names no character of the archive")
    logged = [e["client_id"] for e in archive["entries"]]
    for table, ids in (
        ("entries", logged),
        ("refusals", [r["client_id"] for r in archive["refusals"]]),
    ):
        if len(set(ids)) != len(ids):
            problems.append(f"{table}: two rows have the same client_id")
    logged = set(logged)
    for n, dismissed in enumerate(archive["dismissed_conflicts"]):
        if dismissed["client_id"] not in logged:
            problems.append(f"dismissed_conflicts[{n}].client_id names no entry of the archive")
    for n, scan in enumerate(archive["refused_scans"]):
        if scan["badge"] is not None and scan["badge"] not in digests:
            problems.append(f"refused_scans[{n}].badge names no badge of the archive")
    return problems
