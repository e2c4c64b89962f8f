"""The anchor of ``bench/day.py``: a stored-answer server. It answers the day's polls with the
very bodies the app gave, from memory, and stores each entry with its own durable commit.

``bench/day.py`` writes what the app answered during its own turn (a console's state, a
player page's twin, a board's changes, a phone's roster delta, an entry's result) to a JSON
file and serves this app beside the app with the same gunicorn settings, under the same load:
what a poll or an entry costs when nothing is looked up in a database, folded or rendered,
and an entry costs its durable write and nothing else.

- Callers are known in memory, as the app's worker knows its callers: a bearer token (state,
  roster, ``/sync``), a player link's secret, an organiser's session cookie; one lookup each.
- Each answer keeps the app's ETag: a request that holds it gets a 304, as from the app.
- Compressed as the app compresses (Flask-Compress with larp_app/web/transfer.py's settings:
  brotli, else gzip, above 500 bytes) for a client that accepts it. ``compression``:
  ``stored``, each body compressed once at start and served as bytes (what a stored answer
  is); or ``per-request``, compressed for every answer by Flask-Compress, as the app does.
  An entry's answer (its own id in it) is compressed for every entry either way.
- ``POST /api/v1/sync``: the body read as JSON, and each item stored in a row like the app's
  ``entry`` row (same columns and indexes) with its own transaction: on SQLite (WAL,
  ``synchronous=FULL``, as the app sets it) ``BEGIN IMMEDIATE``, the insert, ``COMMIT``; on
  PostgreSQL the insert and a commit, ``synchronous_commit`` on; on connections opened as
  the worker starts, one a thread (``connections``), as the app's pool keeps them. Each item
  is answered with the app's result under the item's own id.

Served as ``gunicorn 'stored_json:create_app()'`` from ``bench/`` with ``STORED_ANSWERS``
naming the file; ``prepare(store)`` makes the store's table (dropped first) and
``stored_count(store)`` counts its rows.
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
from datetime import UTC, datetime
from functools import lru_cache

from flask import Flask, Response, jsonify, request

TABLE = "stored_entry"
COLUMNS = "client_id, character_id, kind, at, sent_at, received_at, author_id, fields"
INSERT = f"INSERT INTO {TABLE} ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
COMPRESSIONS = ("stored", "per-request")


def _table(postgresql: bool) -> list[str]:
    """The app's ``entry`` table's shape (larp_app/models.py) with its indexes."""
    key, instant, data = (
        ("BIGSERIAL", "TIMESTAMPTZ", "JSON") if postgresql else ("INTEGER", "TEXT", "TEXT")
    )
    return [
        f"DROP TABLE IF EXISTS {TABLE}",
        f"CREATE TABLE {TABLE} (id {key} PRIMARY KEY, client_id VARCHAR(36) NOT NULL UNIQUE,"
        f" character_id INTEGER NOT NULL, kind VARCHAR(30) NOT NULL, at {instant} NOT NULL,"
        f" sent_at {instant}, received_at {instant} NOT NULL, author_id INTEGER,"
        f" fields {data} NOT NULL)",
        f"CREATE INDEX ix_{TABLE}_character ON {TABLE} (character_id)",
        f"CREATE INDEX ix_{TABLE}_author_received ON {TABLE} (author_id, received_at)",
    ]


# --- the durable store --------------------------------------------------------------------


class Store:
    """Each entry inserted and committed on its own, on a connection taken from those opened
    when the worker starts (one a thread), as the app's pool holds them."""

    def __init__(self, url: str, connections: int):
        self.url = url
        self.postgresql = url.startswith("postgresql://")
        self.idle: queue.SimpleQueue = queue.SimpleQueue()
        for _ in range(connections):
            self.idle.put(connect(url))

    def insert(self, row: tuple) -> None:
        try:
            conn = self.idle.get_nowait()
        except queue.Empty:
            conn = connect(self.url)
        try:
            if self.postgresql:
                try:
                    conn.execute(INSERT.replace("?", "%s"), row)
                    conn.commit()
                except Exception:
                    conn.rollback()
                    raise
            else:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.execute(INSERT, row)
                except Exception:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
        finally:
            self.idle.put(conn)


def connect(url: str):
    """A connection as durable as the app's: SQLite in WAL with ``synchronous=FULL``
    (larp_app/extensions.py) in autocommit mode (each transaction begun by hand), or
    PostgreSQL with ``synchronous_commit`` on."""
    if url.startswith("postgresql://"):
        import psycopg

        conn = psycopg.connect(url, application_name="larp-bench-stored")
        conn.execute("SET synchronous_commit = on")
        conn.commit()
        return conn
    conn = sqlite3.connect(
        url.removeprefix("sqlite:///"), isolation_level=None, check_same_thread=False
    )
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def prepare(url: str) -> None:
    """The store's table, made again empty."""
    conn = connect(url)
    postgresql = url.startswith("postgresql://")
    for statement in _table(postgresql):
        conn.execute(statement)
    if postgresql:
        conn.commit()
    conn.close()


def stored_count(url: str) -> int:
    conn = connect(url)
    try:
        return conn.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]
    finally:
        conn.close()


# --- the answers ----------------------------------------------------------------------------


def encoded_once(app: Flask, body: bytes) -> dict[str | None, tuple[bytes, str | None]]:
    """The body as Flask-Compress sends it, with the app's settings, to a client accepting
    each algorithm the app offers (and to one accepting none): {algorithm: (bytes,
    Content-Encoding or None)}."""
    from larp_app.web.transfer import compress

    encoded = {}
    for algorithm in (*app.config["COMPRESS_ALGORITHM"], None):
        headers = {"Accept-Encoding": algorithm} if algorithm else {}
        with app.test_request_context(headers=headers):
            response = compress.after_request(Response(body, mimetype="application/json"))
            encoded[algorithm] = (response.get_data(), response.headers.get("Content-Encoding"))
    return encoded


def create_app() -> Flask:
    from larp_app.web import transfer

    with open(os.environ["STORED_ANSWERS"], encoding="utf-8") as file:
        stored = json.load(file)
    compression = stored["compression"]
    if compression not in COMPRESSIONS:
        raise ValueError(f"compression: {compression!r}, not one of {COMPRESSIONS}")
    app = Flask(__name__)
    # Compressed with the app's own settings; compressed once, Flask-Compress is not run on
    # every answer (only on an entry's, which differs with each entry's id).
    app.config["COMPRESS_REGISTER"] = compression == "per-request"
    transfer.configure(app)
    once = compression == "stored"
    algorithms = tuple(app.config["COMPRESS_ALGORITHM"]) if once else ()
    tokens = {token: n + 1 for n, token in enumerate(stored["tokens"])}
    secrets, cookies = set(stored["secrets"]), set(stored["cookies"])
    answers = {}
    for kind, kept in stored["answers"].items():
        body = kept["body"].encode()
        answers[kind] = (body, kept["etag"], encoded_once(app, body) if once else {})
    sync_answer = stored["sync_answer"]
    store = Store(stored["store"], stored["connections"])

    @lru_cache(maxsize=64)
    def chosen(accept_encoding: str) -> str | None:
        """The first algorithm the app offers that the client names (phones name them
        without weights)."""
        named = {part.split(";")[0].strip() for part in accept_encoding.lower().split(",")}
        return next((a for a in algorithms if a in named), None)

    def answer(kind: str) -> Response:
        body, etag, encoded = answers[kind]
        if etag and etag in request.headers.get("If-None-Match", ""):
            response = Response(status=304)
        elif encoded:
            data, encoding = encoded[chosen(request.headers.get("Accept-Encoding", ""))]
            response = Response(data, mimetype="application/json")
            if encoding:
                response.headers["Content-Encoding"] = encoding
        else:
            response = Response(body, mimetype="application/json")
        if etag:
            response.headers["ETag"] = etag
        response.headers["Vary"] = "Accept-Encoding"
        return response

    def bearer() -> int | None:
        return tokens.get(request.headers.get("Authorization", "")[7:])

    @app.get("/ready")
    def ready():
        return "ok"

    @app.get("/api/v1/characters/<int:character_id>/state")
    def state(character_id: int):
        return answer("state") if bearer() else Response(status=401)

    @app.get("/p/<secret>/live.json")
    def player(secret: str):
        return answer("player") if secret in secrets else Response(status=404)

    @app.get("/events/<int:event_id>/board.json")
    def board(event_id: int):
        return answer("board") if request.headers.get("Cookie") in cookies else Response(status=403)

    @app.get("/api/v1/roster")
    def roster():
        return answer("roster") if bearer() else Response(status=401)

    @app.post("/api/v1/sync")
    def sync():
        author = bearer()
        if author is None:
            return Response(status=401)
        results = []
        for item in request.get_json()["entries"]:
            received = datetime.now(UTC)
            at = datetime.fromisoformat(item["at"])
            sent = datetime.fromisoformat(item["sent_at"]) if item.get("sent_at") else None
            if not store.postgresql:
                at, received = at.isoformat(), received.isoformat()
                sent = sent and sent.isoformat()
            fields = json.dumps(item)
            store.insert(
                (item["id"], item["character"], item["kind"], at, sent, received, author, fields)
            )
            results.append({**sync_answer["results"][0], "id": item["id"]})
        response = jsonify({**sync_answer, "results": results})
        return transfer.compress.after_request(response) if once else response

    return app
