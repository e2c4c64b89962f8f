"""Tables only. The entry log is append-only: rows are inserted, never updated or deleted."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, LargeBinary, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.types import DateTime, TypeDecorator

from .extensions import db


class UTCDateTime(TypeDecorator):
    """Timezone-aware UTC in and out, whatever the database keeps (SQLite keeps naive text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: every stored time is UTC-aware")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Event(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    ruleset: Mapped[str] = mapped_column(String(40))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Badge band colour of each faction, "#RRGGBB"; a faction not listed gets one of a palette.
    faction_colours: Mapped[dict[str, str]] = mapped_column(JSON, default=dict, server_default="{}")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Archived: read-only, out of the referees' roster; nothing of it is deleted.
    archived_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Grows by one with every change to the event's characters (entries, sheets, badges) or
    # settings: "what changed since version V" is every character whose version is above V.
    version: Mapped[int] = mapped_column(default=0, server_default="0")

    characters: Mapped[list[Character]] = relationship(back_populates="event")


class User(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(20))  # organiser | referee
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # The interface language chosen with the switcher (e.g. "es"); None: the browser's.
    language: Mapped[str | None] = mapped_column(String(5))


class RefereeEvent(db.Model):
    """An event a referee works. A referee with none works every open event."""

    __tablename__ = "referee_event"
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id"), primary_key=True, index=True)


class ApiToken(db.Model):
    """An account's API token, kept only as its sha256; revoked, it opens nothing."""

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    user: Mapped[User] = relationship()


class WebSession(db.Model):
    """A logged-in browser or phone; its cookie holds a key whose sha256 is kept here.

    Logging out ends the row, so a copied cookie opens nothing afterwards.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Character(db.Model):
    # What changed since a version, with each player link's digest, read from the index
    # alone (keeping/known.py ``CHANGED``).
    __table_args__ = (
        Index("ix_character_event_version_link", "event_id", "version", "player_secret_hash"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id"), index=True)
    player: Mapped[str] = mapped_column(String(120))
    name: Mapped[str] = mapped_column(String(120))
    faction: Mapped[str | None] = mapped_column(String(120))
    tabletop: Mapped[dict[str, Any]] = mapped_column(JSON)
    larp: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # The player's own link (on the back of the badge): read-only, this character only. Found
    # by its digest (tokens.digest); the link itself is kept only where it was made, to print
    # it: an imported event has the digest alone.
    player_secret: Mapped[str | None] = mapped_column(String(40), unique=True, index=True)
    player_secret_hash: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    # Withdrawn from the event: kept with its log, its badge refused, no new entries.
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Checked in at the desk at the start of the event; None: not (yet) present.
    present_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The event's version at this character's last change (keeping/views.py).
    version: Mapped[int] = mapped_column(default=0, server_default="0")

    event: Mapped[Event] = relationship(back_populates="characters")
    badges: Mapped[list[Badge]] = relationship(back_populates="character", order_by="Badge.id")


class Entry(db.Model):
    """One referee action as it arrived; its effect is decided by the fold, never stored."""

    __table_args__ = (
        UniqueConstraint("client_id", name="uq_entry_client_id"),
        # A referee's recent entries (their conflicts, after each sync): no scan of the log.
        Index("ix_entry_author_received", "author_id", "received_at"),
        # A character's entries, and those after a row: one range of the index on either
        # database (PostgreSQL's planner otherwise joined them with every row after it).
        Index("ix_entry_character_row", "character_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)  # arrival order
    client_id: Mapped[str] = mapped_column(String(36))
    character_id: Mapped[int] = mapped_column(ForeignKey("character.id"))
    kind: Mapped[str] = mapped_column(String(30))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)
    author_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"))
    fields: Mapped[dict[str, Any]] = mapped_column(JSON)  # the entry as the engine reads it
    # The instant its referee gave it (the phone's clock corrected), kept when the
    # simultaneity rule placed it later, at the entry stored before it; else None.
    referee_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Stored by the app as the latest of its log, stepped onto its fold (rules.fold_on): it
    # changed no other entry's verdict, so its insert leaves the conflicts mark alone. Any
    # other writer (an import, an operator's SQL) stores False: the mark moves
    # (keeping/versions.py).
    stepped_on: Mapped[bool] = mapped_column(default=False, server_default=text("false"))


class LoginAttempt(db.Model):
    """Failed logins, kept in the database so every gunicorn worker counts the same."""

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class Badge(db.Model):
    """A printed card: its secret goes in the QR code, its short code is for typing.

    Scans and typed codes find it by their digests (tokens.digest: SHA-256, no salt, the
    secret being 26 random symbols). The secret and short code themselves are kept only in
    the database that issued the badge, to print it; an imported badge has its digests alone.
    """

    __table_args__ = (
        # One active badge per character.
        Index(
            "uq_badge_active",
            "character_id",
            unique=True,
            sqlite_where=text("revoked_at IS NULL"),
            postgresql_where=text("revoked_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    character_id: Mapped[int] = mapped_column(ForeignKey("character.id"), index=True)
    secret: Mapped[str | None] = mapped_column(String(40), unique=True)
    short_code: Mapped[str | None] = mapped_column(String(12), unique=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    short_code_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    printed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    character: Mapped[Character] = relationship(back_populates="badges")


class BadgeLookup(db.Model):
    """A refused scan or typed code, kept for the organiser."""

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"))
    event_id: Mapped[int | None] = mapped_column(ForeignKey("event.id"), index=True)
    badge_id: Mapped[int | None] = mapped_column(ForeignKey("badge.id"))
    presented: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(String(20))  # unknown | revoked | other_event | ...


class PrintJob(db.Model):
    """A badge print running in the background; the page polls its progress."""

    __table_args__ = (UniqueConstraint("running_key", name="uq_print_job_running_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id"), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10))  # queued | running | done | failed
    done: Mapped[int] = mapped_column(default=0)
    total: Mapped[int] = mapped_column(default=0)
    path: Mapped[str | None] = mapped_column(String(255))
    error: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Touched every few seconds by the thread doing the print: a stale one means its worker died.
    heartbeat_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The selection's digest while queued or running (None after): the same selection twice at
    # once is refused by the database, whichever worker asks.
    running_key: Mapped[str | None] = mapped_column(String(64))
    # Badges of the selection left out: imported from another database, without their secrets.
    skipped: Mapped[int] = mapped_column(default=0, server_default="0")


class RefusedEntry(db.Model):
    """An entry the server could not store (it became impossible, or was invalid), kept so
    that the organiser's board lists it; the referee's phone shows the same words."""

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)  # when it was refused
    client_id: Mapped[str] = mapped_column(String(36), index=True, unique=True)  # once per id
    character_id: Mapped[int] = mapped_column(ForeignKey("character.id"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"))
    fields: Mapped[dict[str, Any]] = mapped_column(JSON)  # as the phone sent it
    code: Mapped[str] = mapped_column(String(40))
    # The code's parameters: the refusal is put in words in each reader's language.
    params: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    message: Mapped[str] = mapped_column(String(400))  # in the sender's language, as answered

    character: Mapped[Character] = relationship()


class DismissedConflict(db.Model):
    """An entry of its author's that stopped counting, which the author has seen."""

    __table_args__ = (UniqueConstraint("client_id", "user_id", name="uq_dismissed_conflict"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    client_id: Mapped[str] = mapped_column(String(36))
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class SheetChange(db.Model):
    """One change to a character's tabletop sheet: who, when, from where, before and after."""

    id: Mapped[int] = mapped_column(primary_key=True)
    character_id: Mapped[int] = mapped_column(ForeignKey("character.id"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"))
    author: Mapped[str | None] = mapped_column(String(80))  # the username, kept as it was
    source: Mapped[str] = mapped_column(String(20))  # form | api | import | continue
    # None (SQL NULL): the character was new.
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    after: Mapped[dict[str, Any]] = mapped_column(JSON)


class Heartbeat(db.Model):
    """One row per writer rewritten as it goes: ``healthz`` on each check (the database
    accepts a write: a full disk, a read-only file or a standby refuses it), ``serving``
    by a worker answering requests, every few seconds (``backup restore`` refuses while it
    is recent: web/health.py). Belongs to no event."""

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class KeptFold(db.Model):
    """A character's log folded at one of its versions, stored so that a worker starting in
    the middle of an event reads it instead of folding again (keeping/kept_folds.py).
    Derived data: dropping every row changes no answer, only the next start's cost."""

    __tablename__ = "kept_fold"

    character_id: Mapped[int] = mapped_column(
        ForeignKey("character.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int]  # the character's version the fold is of
    # The rule system's code and the settings it was folded with (kept_folds.fingerprint):
    # another fingerprint is another fold, ignored.
    fingerprint: Mapped[str] = mapped_column(String(64))
    folded: Mapped[bytes] = mapped_column(LargeBinary)


class Mark(db.Model):
    """A counter that moves with one kind of change, in the change's own transaction, moved
    by the database's triggers whoever writes, so a worker that reads it knows whether what
    it holds of that kind is still true (keeping/versions.py names each: ``epoch``,
    ``versions``, ``accounts``, ``refusals``, ``conflicts``)."""

    name: Mapped[str] = mapped_column(String(20), primary_key=True)
    value: Mapped[int] = mapped_column(default=0, server_default="0")
