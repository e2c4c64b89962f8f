"""An event as one archive file, to move it between databases (a laptop's SQLite, a server's
PostgreSQL): the event with its settings and marks (archived), its characters (withdrawn,
checked in, every change to their sheets) and badges, the whole log with authors and times,
the refusals with their parameters, the conflicts their authors dismissed, the referees who
work it, and the accounts without their passwords.

Every column of the event's tables travels (one naming another row as ``CARRIED_AS``
says), or is named in ``LEFT_OUT`` with why: tests/web/test_moved_event_comes_back_whole.py
holds every column of every table to one or the other. An archive is checked whole
(archive/archive_check.py: its format, keys, types and rule system) before anything is
written.

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
from ..models import (
    Badge,
    BadgeLookup,
    Character,
    DismissedConflict,
    Entry,
    Event,
    RefereeEvent,
    RefusedEntry,
    SheetChange,
    User,
)
from ..services.badges import give_player_link
from ..services.users import create_user
from .archive_check import FORMAT, ArchiveRefused, check_archive

__all__ = [
    "CARRIED_AS",
    "FORMAT",
    "IN_PART",
    "LEFT_OUT",
    "ArchiveRefused",
    "export_event",
    "import_event",
]

NUMBERING = "this database's own numbering: the archive names rows by position or by name"
VERSION = (
    "a count of this database's changes, which phones ask 'what changed since'; an imported "
    "event begins its own count"
)
# Columns of the event's tables that do not travel, and why.
LEFT_OUT = {
    "event.id": NUMBERING,
    "event.version": VERSION,
    "character.id": NUMBERING,
    "character.version": VERSION,
    "character.player_secret": "the player link in clear stays where it was made, to print it; "
    "its digest travels and opens the page",
    "badge.id": NUMBERING,
    "badge.secret": "a card's secret in clear stays where it was issued, to print it; its "
    "digest travels, so the printed card keeps working",
    "badge.short_code": "as the secret: its digest travels, so the typed code keeps working",
    "entry.id": "the arrival order, kept by the order of the list",
    "entry.stepped_on": "how this database's app stored it (stepped onto the latest fold); an "
    "imported log is folded whole where it arrives",
    "refused_entry.id": NUMBERING,
    "badge_lookup.id": NUMBERING,
    "dismissed_conflict.id": NUMBERING,
    "sheet_change.id": NUMBERING,
    **{
        f"print_job.{column}": "a print is a file on this machine's disk, and imported badges "
        "have no secret to print: the event prints anew where it is"
        for column in [
            "id",
            "event_id",
            "options",
            "status",
            "done",
            "total",
            "path",
            "error",
            "created_at",
            "finished_at",
            "heartbeat_at",
            "running_key",
            "skipped",
        ]
    },
}
# Columns naming another row: the archive names it by what stays the same in every database.
CARRIED_AS = {
    "character.event_id": "the event the archive is",
    "badge.character_id": "each badge is listed under its character",
    "entry.character_id": "the character's key",
    "entry.author_id": "the author's username",
    "refused_entry.character_id": "the character's key",
    "refused_entry.user_id": "the sender's username",
    "badge_lookup.event_id": "the event the archive is",
    "badge_lookup.user_id": "the referee's username",
    "badge_lookup.badge_id": "the badge's digest",
    "referee_event.event_id": "the event the archive is",
    "referee_event.user_id": "the referee's username",
    "dismissed_conflict.user_id": "the author's username",
    "sheet_change.character_id": "each change is listed under its character",
    "sheet_change.user_id": "the author's username",
}
# Part of a column's values stay behind, on purpose.
IN_PART = {
    "badge_lookup.presented": "what a refused scan presented travels only when it named no "
    "badge and was no typed code: a replaced card's secret, or a code a typo away from a real "
    "one, stays in this database",
}


def _t(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _read_t(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


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
    changes: dict[int, list[SheetChange]] = {c.id: [] for c in characters}
    for change in db.session.scalars(
        select(SheetChange).where(SheetChange.character_id.in_(key)).order_by(SheetChange.id)
    ):
        changes[change.character_id].append(change)
    referees = db.session.scalars(
        select(RefereeEvent.user_id).where(RefereeEvent.event_id == event.id)
    ).all()
    logged = select(Entry.client_id).where(Entry.character_id.in_(key))
    dismissed = db.session.scalars(
        select(DismissedConflict)
        .where(DismissedConflict.client_id.in_(logged))
        .order_by(DismissedConflict.id)
    ).all()
    return {
        "format": FORMAT,
        "event": {
            "name": event.name,
            "ruleset": event.ruleset,
            "settings": event.settings,
            "faction_colours": event.faction_colours or {},
            "created_at": _t(event.created_at),
            "archived_at": _t(event.archived_at),
        },
        # The referees who work the event (none: every referee works it, as every open event).
        "referees": sorted(name[u] for u in referees),
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
                "withdrawn_at": _t(c.withdrawn_at),
                "present_at": _t(c.present_at),
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
                "sheet_changes": [
                    {
                        "at": _t(s.at),
                        "user": name.get(s.user_id),
                        "author": s.author,
                        "source": s.source,
                        "before": s.before,
                        "after": s.after,
                    }
                    for s in changes[c.id]
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
                "params": r.params,
                "message": r.message,
            }
            for r in refusals
        ],
        "dismissed_conflicts": [
            {"client_id": d.client_id, "user": name.get(d.user_id), "at": _t(d.at)}
            for d in dismissed
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
    clash = _first_clash(RefusedEntry.client_id, [r["client_id"] for r in archive["refusals"]])
    if clash is not None:
        return f"refused entry {clash} is already kept here"
    for column in (Badge.secret_hash, Badge.short_code_hash):
        if _first_clash(column, [b[column.key] for b in badges]) is not None:
            return "one of its badges is already here"
    players = [c["player_secret_hash"] for c in archive["characters"] if c["player_secret_hash"]]
    if _first_clash(Character.player_secret_hash, players) is not None:
        return "a character's player link is already here"
    return None


def import_event(archive: Any) -> tuple[Event, list[tuple[str, str]]]:
    """Load an exported event; return it and (username, new password) of each account made.

    Refused, with nothing written, when the archive is not one (its format, keys, types, rule
    system and sheets are checked first: ``check_archive``), or its event is already in this
    database. Accounts already here (by username) are kept as they are. Flushes; the caller
    commits.
    """
    archive = check_archive(archive)  # refused in words, before anything is written
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
            user, password, _token = create_user(
                account["username"], account["role"], token_label=None
            )
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
        archived_at=_read_t(data["archived_at"]),
    )
    db.session.add(event)
    db.session.flush()
    _assign(event, [users[u] for u in archive["referees"] if u in users], made)
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
            withdrawn_at=_read_t(item["withdrawn_at"]),
            present_at=_read_t(item["present_at"]),
        )
        link = item["player_secret_hash"]
        give_player_link(character, None, link)  # digests: checked by check_archive
        db.session.add(character)
        characters[item["key"]] = character
        for b in item["badges"]:
            # The revoked first: one active badge per character at every moment.
            badge = Badge(
                character=character,
                secret_hash=b["secret_hash"],
                short_code_hash=b["short_code_hash"],
                issued_at=_read_t(b["issued_at"]),
                revoked_at=_read_t(b["revoked_at"]),
                printed_at=_read_t(b["printed_at"]),
            )
            db.session.add(badge)
            db.session.flush()
            badges[b["secret_hash"]] = badge
    db.session.flush()
    for item in archive["characters"]:
        for s in item["sheet_changes"]:
            db.session.add(
                SheetChange(
                    character_id=characters[item["key"]].id,
                    at=_read_t(s["at"]),
                    user_id=user_id(s["user"]),
                    author=s["author"],
                    source=s["source"],
                    before=s["before"],
                    after=s["after"],
                )
            )
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
                params=r["params"],
                message=r["message"],
            )
        )
    for d in archive["dismissed_conflicts"]:
        if d["user"] in users:
            db.session.add(
                DismissedConflict(
                    client_id=d["client_id"], user_id=users[d["user"]].id, at=_read_t(d["at"])
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


def _assign(event: Event, referees: list[User], made: list[tuple[str, str]]) -> None:
    """The referees who worked the event work it here. One already here who works every open
    event (no assignment) works this one too, and keeps working the others."""
    new = {username for username, _password in made}
    for user in referees:
        if user.username not in new and not db.session.scalar(
            select(RefereeEvent.event_id).where(RefereeEvent.user_id == user.id).limit(1)
        ):
            continue
        db.session.add(RefereeEvent(user_id=user.id, event_id=event.id))
