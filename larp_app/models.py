"""Tables only. The entry log is append-only: rows are inserted, never updated or deleted."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
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
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)

    characters: Mapped[list[Character]] = relationship(back_populates="event")


class User(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(20))  # organiser | referee
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the API token
    active: Mapped[bool] = mapped_column(default=True)
    # Raised to end every open session of the account (password reset, disabled, lost phone).
    session_epoch: Mapped[int] = mapped_column(default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Character(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id"), index=True)
    player: Mapped[str] = mapped_column(String(120))
    name: Mapped[str] = mapped_column(String(120))
    faction: Mapped[str | None] = mapped_column(String(120))
    tabletop: Mapped[dict[str, Any]] = mapped_column(JSON)
    larp: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)

    event: Mapped[Event] = relationship(back_populates="characters")


class Entry(db.Model):
    """One referee action as it arrived; its effect is decided by the fold, never stored."""

    __table_args__ = (UniqueConstraint("client_id", name="uq_entry_client_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)  # arrival order
    client_id: Mapped[str] = mapped_column(String(36))
    character_id: Mapped[int] = mapped_column(ForeignKey("character.id"), index=True)
    kind: Mapped[str] = mapped_column(String(30))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)
    author_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"))
    fields: Mapped[dict[str, Any]] = mapped_column(JSON)  # the entry as the engine reads it


class LoginAttempt(db.Model):
    """Failed logins, kept in the database so every gunicorn worker counts the same."""

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
