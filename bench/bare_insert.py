"""The anchor of ``bench/entries.py``: a bare Flask-SQLAlchemy server that stores an entry.

It does what the entry path cannot do without: a bearer token looked up by its sha256 on an
indexed column (one query), the JSON body read, one row like the app's ``entry`` row inserted
and committed, the entry answered as JSON. No rules, no fold, no logging, no session.
``bench/entries.py`` serves it with the same gunicorn settings and the same kind of database
as the app, so that the two figures can be compared side by side.

Served as ``gunicorn 'bare_insert:create_app()'`` from ``bench/`` with ``BARE_DATABASE_URI``
set; ``prepare(uri, token)`` makes its two tables and one token first.
"""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime
from typing import Any

from flask import Flask, jsonify, request
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import JSON, DateTime, String, event, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column

db = SQLAlchemy()


class BareToken(db.Model):
    __tablename__ = "bare_token"
    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int]


class BareEntry(db.Model):
    __tablename__ = "bare_entry"
    id: Mapped[int] = mapped_column(primary_key=True)
    client_id: Mapped[str] = mapped_column(String(36), unique=True)
    character_id: Mapped[int] = mapped_column(index=True)
    kind: Mapped[str] = mapped_column(String(30))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    author_id: Mapped[int]
    fields: Mapped[dict[str, Any]] = mapped_column(JSON)


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record) -> None:
    """The app's own SQLite settings (larp_app/extensions.py): WAL, synchronous=FULL."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_app(uri: str | None = None) -> Flask:
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = uri or os.environ["BARE_DATABASE_URI"]
    db.init_app(app)

    @app.get("/ready")
    def ready():
        return jsonify(ok=True)

    @app.post("/characters/<int:character_id>/entries")
    def post_entry(character_id: int):
        header = request.headers.get("Authorization", "")
        user_id = db.session.scalar(
            select(BareToken.user_id).where(BareToken.token_hash == digest(header[7:]))
        )
        if user_id is None:
            return jsonify(error="unauthorized"), 401
        body = request.get_json()
        row = {
            "client_id": body["id"],
            "character_id": character_id,
            "kind": body["kind"],
            "at": datetime.fromisoformat(body["at"]),
            "received_at": datetime.now(UTC),
            "author_id": user_id,
            "fields": body,
        }
        db.session.execute(insert(BareEntry), [row])
        db.session.commit()
        return jsonify(entry=body), 201

    return app


def prepare(uri: str, token: str) -> None:
    """Make the tables (dropped first) and the one token the clients send."""
    app = create_app(uri)
    with app.app_context():
        db.drop_all()
        db.create_all()
        db.session.add(BareToken(token_hash=digest(token), user_id=1))
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
