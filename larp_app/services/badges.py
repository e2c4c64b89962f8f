"""Badges: issue, reissue (the old card stops working at once), resolve a scan or a code."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

from sqlalchemy import delete, func, select

from .. import tokens
from ..extensions import db
from ..keeping.records import state_of
from ..models import Badge, BadgeLookup, Character, User
from .clock import now_utc
from .writers import write_transaction

# A user's refused lookups in a minute before the next ones are refused unread (429): a
# guesser learns nothing fast, a referee fixing a typo never meets it.
REFUSED_PER_MINUTE = 12
LOOKUPS_KEPT = 1000  # refused lookups kept for the organisers, the newest

SCAN_VERSION = "1"  # in the QR's URL, so a future format can be told apart


class BadgeRefused(Exception):
    """A scan or code that names no usable badge: ``unknown``, ``revoked``, ``other_event``..."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def active_badge(character: Character) -> Badge | None:
    return next((b for b in character.badges if b.revoked_at is None), None)


def issue_badge(character: Character) -> Badge:
    """Give the character a new badge, revoking the one it had, and a new player link.

    A reissue (the old card lost) makes a new player secret too: the old card's link stops
    showing the live state.
    """
    badge = _issue(character)
    return badge


def _issue(character: Character) -> Badge:
    now = now_utc()
    old = active_badge(character)
    if old is not None:
        old.revoked_at = now
        db.session.flush()  # the old one stops counting before the new one exists
    if character.player_secret_hash is None or old is not None:
        give_player_link(character, tokens.new_secret())
    secret, short_code = tokens.new_secret(), tokens.new_short_code()
    badge = Badge(
        character=character,
        secret=secret,
        secret_hash=tokens.digest(secret),
        short_code=short_code,
        short_code_hash=tokens.digest(short_code),
        issued_at=now,
    )
    db.session.add(badge)
    db.session.flush()
    return badge


def _lock(character_id: int) -> Character | None:
    """The character, read again under its write lock: its row's on PostgreSQL, the one
    writer's on SQLite (``write_transaction``), so a reissue begun meanwhile waits."""
    write_transaction()
    query = select(Character).where(Character.id == character_id).with_for_update()
    return db.session.scalar(query.execution_options(populate_existing=True))


def reissue_badge(character_id: int) -> Badge | None:
    """Reissue the character's badge (flushed); None when there is no such character.

    Reissues of one character at the same moment take turns, each ending with one active
    badge: the character and its badges are read again under its write lock, so each
    revokes the badge the one before made. The database allows one active badge; should a
    write still collide, its caller commits with ``web/commits.commit_retrying``, which
    starts it again from the badge the other made.
    """
    character = _lock(character_id)
    if character is None:
        return None
    db.session.expire(character, ["badges"])
    return issue_badge(character)


def give_player_link(character: Character, secret: str | None, digest: str | None = None) -> None:
    """Set the character's player link: the secret (None: kept elsewhere) and its digest."""
    character.player_secret = secret
    character.player_secret_hash = digest or (tokens.digest(secret) if secret else None)


def rotate_player_link(character: Character) -> str:
    """A new player secret: the old link shows nothing from now on. Flushes."""
    give_player_link(character, tokens.new_secret())
    db.session.flush()
    return character.player_secret


def issued_elsewhere_in(event_id: int) -> list[Character]:
    """The event's characters whose active badge came from another database."""
    query = (
        select(Character)
        .join(Badge, Badge.character_id == Character.id)
        .where(Character.event_id == event_id, Badge.revoked_at.is_(None))
        .where(
            Badge.secret.is_(None) | Badge.short_code.is_(None) | Character.player_secret.is_(None)
        )
        .order_by(Character.id)
    )
    return list(db.session.scalars(query))


def issued_elsewhere(character: Character) -> bool:
    """Whether the character's active badge came from another database without its secrets
    (an imported event): found by its digests, it cannot be printed here until reissued."""
    badge = active_badge(character)
    return badge is not None and (
        badge.secret is None or badge.short_code is None or character.player_secret is None
    )


def ensure_badges(characters: list[Character]) -> int:
    """Issue a badge to every character that has none; return how many were issued."""
    missing = [c for c in characters if active_badge(c) is None]
    for character in missing:
        _issue(character)
    return len(missing)


def scan_url(base: str, badge: Badge) -> str:
    return f"{base.rstrip('/')}/b/{badge.secret}?v={SCAN_VERSION}"


def status_url(base: str, character: Character) -> str:
    return f"{base.rstrip('/')}/p/{character.player_secret}"


def _secret_in(presented: str) -> str:
    """The secret in a scanned URL (``.../b/SECRET?v=1``) or a bare secret."""
    text = presented.strip()
    path = urlsplit(text).path if "/b/" in text else text
    return path.rsplit("/b/", 1)[-1].strip("/").upper()


def badge_named_by(presented: str):
    """The condition on Badge a scanned secret (or URL) or a typed short code names, by
    digest; None for a short code with a typo."""
    if tokens.looks_like_short_code(presented):
        code = tokens.read_short_code(presented)
        return None if code is None else Badge.short_code_hash == tokens.digest(code)
    return Badge.secret_hash == tokens.digest(_secret_in(presented))


def _too_many_refused(user: User | None, now) -> bool:
    if user is None:
        return False
    recent = db.session.scalar(
        select(func.count())
        .select_from(BadgeLookup)
        .where(BadgeLookup.user_id == user.id, BadgeLookup.at > now - timedelta(minutes=1))
    )
    return recent >= REFUSED_PER_MINUTE


def resolve_badge(presented: str, user: User | None, event_id: int | None = None) -> Badge:
    """The active badge a scan or a typed short code names; BadgeRefused (recorded) if none.

    ``too_many`` (not recorded) when the user had too many refused in the last minute.
    """
    if _too_many_refused(user, now_utc()):
        raise BadgeRefused("too_many")
    badge, reason = None, None
    named = badge_named_by(presented)
    if named is None:
        reason = "bad_short_code"
    else:
        badge = db.session.scalar(select(Badge).where(named))
    if reason is None:
        if badge is None:
            reason = "unknown"
        elif badge.revoked_at is not None:
            reason = "revoked"
        elif event_id is not None and badge.character.event_id != event_id:
            reason = "other_event"
        elif badge.character.event.archived_at is not None:
            # A character who died there was left out of the next event: say that, not only
            # that the event is over.
            reason = "dead_left_out" if _died(badge.character) else "event_archived"
        elif badge.character.withdrawn_at is not None:
            reason = "withdrawn"
    if reason is not None:
        db.session.add(
            BadgeLookup(
                at=now_utc(),
                user_id=user.id if user else None,
                reason=reason,
                event_id=event_id
                if event_id is not None
                else (badge.character.event_id if badge else None),
                badge_id=badge.id if badge else None,
                presented=presented.strip()[:80],
            )
        )
        db.session.flush()
        # The newest LOOKUPS_KEPT, and the last minute's (each user's count for the limit).
        newest = db.session.scalar(select(func.max(BadgeLookup.id)))
        db.session.execute(
            delete(BadgeLookup).where(
                BadgeLookup.id <= newest - LOOKUPS_KEPT,
                BadgeLookup.at <= now_utc() - timedelta(minutes=1),
            )
        )
        raise BadgeRefused(reason)
    return badge


def _died(character: Character) -> bool:
    return state_of(character, now_utc()).wound == "dead"


def character_for_player(secret: str) -> Character | None:
    digest = tokens.digest(secret.upper())
    return db.session.scalar(select(Character).where(Character.player_secret_hash == digest))
