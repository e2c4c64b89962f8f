"""An event as one archive file, to move it between databases (a laptop's SQLite, a server's
PostgreSQL): the event, its characters and badges, the whole log with authors and times, the
refusals, and the accounts without their passwords.

Badges and player links travel as their digests only (tokens.digest), never in clear: the
imported event finds the printed cards by them, and cannot print them (services/badges.py
``issued_elsewhere``) until they are reissued there.

Rows are named in the archive by their position, never by a database's ids, so the same
event exported from two databases gives the same archive. Entries keep their arrival order,
which the fold reads.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select

from .. import rules, tokens
from ..extensions import db
from ..models import Badge, BadgeLookup, Character, Entry, Event, RefusedEntry, User
from .badges import give_player_link
from .users import create_user

FORMAT = "larp_app.event/2"  # 1 held the badges in clear


class ArchiveRefused(Exception):
    """An archive that cannot be imported; the message says why, in words."""


def _t(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _read_t(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


HEX = set("0123456789abcdef")


def _digest(value: Any) -> str:
    """A SHA-256 in hex, as exported; ValueError (a damaged archive) for anything else."""
    if not (isinstance(value, str) and len(value) == 64 and set(value) <= HEX):
        raise ValueError(f"not a SHA-256 digest: {str(value)[:70]!r}")
    return value


def _shown(scan: BadgeLookup) -> str:
    """What a refused scan presented, only when it named no badge and was no typed code: a
    replaced card's secret, or a code a typo away from a real one, stays in this database."""
    if scan.reason == "unknown" and not tokens.looks_like_short_code(scan.presented):
        return scan.presented
    return ""


def export_event(event: Event) -> dict[str, Any]:
    characters = db.session.scalars(
        select(Character).where(Character.event_id == event.id).order_by(Character.id)
    ).all()
    key = {c.id: n for n, c in enumerate(characters, 1)}
    users = db.session.scalars(select(User).order_by(User.id)).all()
    name = {u.id: u.username for u in users}
    badges = {b.id: b.secret_hash for c in characters for b in c.badges}
    entries = db.session.scalars(
        select(Entry).where(Entry.character_id.in_(key)).order_by(Entry.id)
    ).all()
    refusals = db.session.scalars(
        select(RefusedEntry).where(RefusedEntry.character_id.in_(key)).order_by(RefusedEntry.id)
    ).all()
    scans = db.session.scalars(
        select(BadgeLookup).where(BadgeLookup.event_id == event.id).order_by(BadgeLookup.id)
    ).all()
    return {
        "format": FORMAT,
        "event": {
            "name": event.name,
            "ruleset": event.ruleset,
            "settings": event.settings,
            "faction_colours": event.faction_colours or {},
            "created_at": _t(event.created_at),
        },
        "accounts": [
            {
                "username": u.username,
                "role": u.role,
                "active": u.active,
                "language": u.language,
                "created_at": _t(u.created_at),
            }
            for u in users
        ],
        "characters": [
            {
                "key": key[c.id],
                "player": c.player,
                "name": c.name,
                "faction": c.faction,
                "tabletop": c.tabletop,
                "larp": c.larp,
                "created_at": _t(c.created_at),
                "player_secret_hash": c.player_secret_hash,
                "badges": [  # ordered by id: the revoked before the active
                    {
                        "secret_hash": b.secret_hash,
                        "short_code_hash": b.short_code_hash,
                        "issued_at": _t(b.issued_at),
                        "revoked_at": _t(b.revoked_at),
                        "printed_at": _t(b.printed_at),
                    }
                    for b in c.badges
                ],
            }
            for c in characters
        ],
        "entries": [
            {
                "client_id": e.client_id,
                "character": key[e.character_id],
                "kind": e.kind,
                "at": _t(e.at),
                "sent_at": _t(e.sent_at),
                "received_at": _t(e.received_at),
                "author": name.get(e.author_id),
                "fields": e.fields,
                "referee_at": _t(e.referee_at),
            }
            for e in entries
        ],
        "refusals": [
            {
                "at": _t(r.at),
                "client_id": r.client_id,
                "character": key[r.character_id],
                "user": name.get(r.user_id),
                "fields": r.fields,
                "code": r.code,
                "message": r.message,
            }
            for r in refusals
        ],
        "refused_scans": [
            {
                "at": _t(s.at),
                "user": name.get(s.user_id),
                "badge": badges.get(s.badge_id),
                "presented": _shown(s),
                "reason": s.reason,
            }
            for s in scans
        ],
    }


def _first_clash(column, values: list[str]) -> str | None:
    """One of ``values`` already in ``column``, or None (asked 500 at a time)."""
    for start in range(0, len(values), 500):
        found = db.session.scalar(select(column).where(column.in_(values[start : start + 500])))
        if found is not None:
            return found
    return None


def _already_here(archive: dict[str, Any]) -> str | None:
    """Why the archive's event is already in this database, or None."""
    event = archive["event"]
    same = db.session.scalar(
        select(Event.id).where(
            Event.name == event["name"], Event.created_at == _read_t(event["created_at"])
        )
    )
    if same is not None:
        return f"event {same} is the same event"
    badges = [b for c in archive["characters"] for b in c["badges"]]
    clash = _first_clash(Entry.client_id, [e["client_id"] for e in archive["entries"]])
    if clash is not None:
        return f"entry {clash} is already logged here"
    for column in (Badge.secret_hash, Badge.short_code_hash):
        if _first_clash(column, [b[column.key] for b in badges]) is not None:
            return "one of its badges is already here"
    players = [c["player_secret_hash"] for c in archive["characters"] if c["player_secret_hash"]]
    if _first_clash(Character.player_secret_hash, players) is not None:
        return "a character's player link is already here"
    return None


def import_event(archive: Any) -> tuple[Event, list[tuple[str, str]]]:
    """Load an exported event; return it and (username, new password) of each account made.

    Refused, with nothing written, when the archive is not one, or its event is already in
    this database. Accounts already here (by username) are kept as they are. Flushes; the
    caller commits.
    """
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ArchiveRefused(f"FILE: not an event archive of this app (format {FORMAT})")
    try:
        return _import(archive)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ArchiveRefused(
            f"FILE: a damaged event archive ({type(exc).__name__}: {exc}): nothing imported"
        ) from exc


def _import(archive: dict[str, Any]) -> tuple[Event, list[tuple[str, str]]]:
    why = _already_here(archive)
    if why is not None:
        raise ArchiveRefused(
            f"FILE: the event “{archive['event']['name']}” was imported here before ({why}): "
            "nothing imported"
        )
    users = {u.username: u for u in db.session.scalars(select(User))}
    made: list[tuple[str, str]] = []
    for account in archive["accounts"]:
        if account["username"] in users:
            continue
        try:
            user, password, _token = create_user(account["username"], account["role"])
        except rules.InvalidInput as exc:
            raise ArchiveRefused(f"FILE: account {account['username']}: {exc}") from exc
        user.active, user.language = account["active"], account["language"]
        user.created_at = _read_t(account["created_at"])
        users[user.username] = user
        made.append((user.username, password))
    if made:
        db.session.flush()

    def user_id(username: str | None) -> int | None:
        return users[username].id if username in users else None

    data = archive["event"]
    event = Event(
        name=data["name"],
        ruleset=data["ruleset"],
        settings=data["settings"],
        faction_colours=data["faction_colours"],
        created_at=_read_t(data["created_at"]),
    )
    db.session.add(event)
    characters: dict[int, Character] = {}
    badges: dict[str, Badge] = {}
    for item in archive["characters"]:
        character = Character(
            event=event,
            player=item["player"],
            name=item["name"],
            faction=item["faction"],
            tabletop=item["tabletop"],
            larp=item["larp"],
            created_at=_read_t(item["created_at"]),
        )
        link = item["player_secret_hash"]
        give_player_link(character, None, None if link is None else _digest(link))
        db.session.add(character)
        characters[item["key"]] = character
        for b in item["badges"]:
            # The revoked first: one active badge per character at every moment.
            badge = Badge(
                character=character,
                secret_hash=_digest(b["secret_hash"]),
                short_code_hash=_digest(b["short_code_hash"]),
                issued_at=_read_t(b["issued_at"]),
                revoked_at=_read_t(b["revoked_at"]),
                printed_at=_read_t(b["printed_at"]),
            )
            db.session.add(badge)
            db.session.flush()
            badges[b["secret_hash"]] = badge
    db.session.flush()
    rows = [
        {
            "client_id": e["client_id"],
            "character_id": characters[e["character"]].id,
            "kind": e["kind"],
            "at": _read_t(e["at"]),
            "sent_at": _read_t(e["sent_at"]),
            "received_at": _read_t(e["received_at"]),
            "author_id": user_id(e["author"]),
            "fields": e["fields"],
            # (an archive written before entries kept it has none)
            "referee_at": _read_t(e.get("referee_at")),
        }
        for e in archive["entries"]
    ]
    if rows:  # statements run in the list's order: the new ids keep the arrival order
        db.session.execute(insert(Entry), rows)
    for r in archive["refusals"]:
        db.session.add(
            RefusedEntry(
                at=_read_t(r["at"]),
                client_id=r["client_id"],
                character_id=characters[r["character"]].id,
                user_id=user_id(r["user"]),
                fields=r["fields"],
                code=r["code"],
                message=r["message"],
            )
        )
    for s in archive["refused_scans"]:
        db.session.add(
            BadgeLookup(
                at=_read_t(s["at"]),
                user_id=user_id(s["user"]),
                event_id=event.id,
                badge_id=badges[s["badge"]].id if s["badge"] else None,
                presented=s["presented"],
                reason=s["reason"],
            )
        )
    db.session.flush()
    return event, made
