"""The push server tells a phone of its character's changes, whoever wrote them, and only a
phone that proved who it is: a player link, or a referee's or organiser's session or token
for an event of theirs. A session ended or a token revoked closes its streams; pages name
the push server in their policy and their ``data-push``, and poll alone without one."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import uuid

import pytest

from larp_app import create_app, rules
from larp_app.extensions import db
from larp_app.models import Character
from larp_app.push.server import PushServer
from larp_app.services.badges import rotate_player_link
from larp_app.services.clock import now_utc

from .conftest import auth
from .helpers import data_sheet, log_in, make_user

pytestmark = pytest.mark.both_databases

TOLD = 10.0  # seconds a change may take to be told (the server reads every 0.05 s here)


class Running:
    """A push server of its own app on the test's database (another process in life), in a
    thread of its own, reading what changed every 0.05 s."""

    def __init__(self, config: dict, **settings):
        self.app = create_app(dict(config))
        self.loop = asyncio.new_event_loop()
        self.server = PushServer(self.app, **{"tick": 0.05, **settings})
        started = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            self.port = self.loop.run_until_complete(self.server.start("127.0.0.1", 0))
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert started.wait(30)

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.close()
        with self.app.app_context():
            db.engine.dispose()


@pytest.fixture
def push(app):
    running = Running(app.config)
    yield running
    running.stop()


class Stream:
    """A phone's stream, read as a browser's EventSource reads it."""

    def __init__(self, port: int, path: str, headers: dict | None = None):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=TOLD)
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.socket.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        self.status = int(head[0].split()[1])
        self.headers = {
            k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head[1:])
        }

    def _until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            got = self.socket.recv(65536)
            if not got:
                raise ConnectionError("closed")
            self.buffer += got
        found, _, self.buffer = self.buffer.partition(end)
        return found

    def body(self) -> bytes:
        while True:
            got = self.socket.recv(65536)
            if not got:
                return self.buffer
            self.buffer += got

    def message(self) -> str:
        """The next message's data (comments and the retry line passed over)."""
        while True:
            block = self._until(b"\n\n").decode()
            data = [line[6:] for line in block.split("\n") if line.startswith("data: ")]
            if data:
                return "\n".join(data)

    def block(self) -> str:
        """The next block as sent (a message, a comment line, or the retry line)."""
        return self._until(b"\n\n").decode()

    def nothing_for(self, seconds: float) -> bool:
        self.socket.settimeout(seconds)
        try:
            self.message()
        except TimeoutError:
            return True
        finally:
            self.socket.settimeout(TOLD)
        return False

    def closed_within(self, seconds: float) -> bool:
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            self.socket.settimeout(max(ends - time.monotonic(), 0.01))
            try:
                if not self.socket.recv(65536):
                    return True
            except TimeoutError:
                return False
        return False

    def close(self) -> None:
        self.socket.close()


@pytest.fixture
def player_link(app, character_id):
    with app.app_context():
        secret = rotate_player_link(db.session.get(Character, character_id))
        db.session.commit()
        return secret


def note(character_id: int) -> dict:
    return {"character": character_id, "id": str(uuid.uuid4()), "kind": "note", "text": "x",
            "at": rules.format_instant(now_utc())}  # fmt: skip


def logged(client, referee, character_id):
    synced = client.post("/api/v1/sync", json={"entries": [note(character_id)]}, headers=referee)
    assert synced.json["results"][0]["status"] == "stored", synced.json


def test_a_player_page_is_told_of_each_change_logged_through_the_app(
    push, client, referee, character_id, player_link
):
    stream = Stream(push.port, f"/push/p/{player_link}")
    assert stream.status == 200
    assert stream.headers["content-type"] == "text/event-stream"
    assert stream.headers["cache-control"] == "no-store"
    assert stream.nothing_for(0.5)  # nothing changed: nothing told
    for _ in range(2):
        logged(client, referee, character_id)
        assert stream.message() == "changed"
    stream.close()


def test_a_console_is_told_of_a_change_an_operator_made_in_plain_sql(
    app, push, tokens, character_id, sql
):
    stream = Stream(push.port, f"/push/characters/{character_id}", auth(tokens["referee"]))
    assert stream.status == 200
    at = now_utc()
    sqlite = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    sql(
        "INSERT INTO entry (client_id, character_id, kind, at, received_at, fields)"
        " VALUES (:id, :character, 'note', :at, :at, :fields)",
        id=str(uuid.uuid4()),
        character=character_id,
        at=at.replace(tzinfo=None) if sqlite else at,
        fields='{"text": "by hand"}',
    )
    assert stream.message() == "changed"
    stream.close()


def test_only_the_changed_characters_phones_are_told(
    push, client, organiser, referee, event_id, character_id, player_link
):
    sheet = {**data_sheet(), "character": "Altra", "player": "Altri"}
    made = client.post(f"/api/v1/events/{event_id}/characters", json=sheet, headers=organiser)
    assert made.status_code == 201, made.json
    other = made.json["characters"][0]["id"]
    mine = Stream(push.port, f"/push/p/{player_link}")
    theirs = Stream(push.port, f"/push/characters/{other}", organiser)
    logged(client, referee, character_id)
    assert mine.message() == "changed"
    assert theirs.nothing_for(0.5)
    logged(client, referee, other)
    assert theirs.message() == "changed"
    mine.close()
    theirs.close()


def test_an_idle_stream_is_sent_a_comment_line_each_beat(app, player_link):
    running = Running(app.config, beat=0.5)  # ten reads a beat
    try:
        stream = Stream(running.port, f"/push/p/{player_link}")
        assert stream.block().startswith("retry: ")
        began = time.monotonic()
        for _ in range(3):
            assert stream.block() == ": beat"
        # The first within a beat of opening, then one a beat (not every read's).
        assert 0.8 <= time.monotonic() - began <= 1.5 + TOLD / 10
        stream.close()
    finally:
        running.stop()


class Dealt:
    """A stream as the beat sees it: only its turn matters."""

    def __init__(self):
        self.slot: set = set()


def test_the_comment_lines_are_spread_over_the_beat_each_stream_once(app):
    """Thousands of streams are not all written to at one read: each read beats its share,
    and over a beat's reads each stream is beaten exactly once, a closed one no more."""
    server = PushServer(app, tick=0.25, beat=25.0)  # a hundred reads a beat
    streams = [Dealt() for _ in range(1050)]
    for stream in streams:
        server._deal(stream)
    closed = streams[7]
    closed.slot.discard(closed)  # as _close does
    for _ in range(3):  # beat after beat
        beaten = [list(server.beaten()) for _ in range(100)]
        assert max(len(b) for b in beaten) == 11  # 1,050 streams over 100 reads
        every = [stream for b in beaten for stream in b]
        assert len(every) == len(set(every)) == 1049
        assert closed not in every
    server.database.shutdown()


def test_a_console_stream_opens_with_the_session_cookie_of_a_logged_in_referee(
    app, push, client, character_id
):
    make_user(app, "arbitro", "referee")
    logged_in = log_in(client, "arbitro")
    assert logged_in.status_code in (302, 303), logged_in.text
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    headers = {"Cookie": f"{cookie.key}={cookie.value}"}
    stream = Stream(push.port, f"/push/characters/{character_id}", headers)
    assert stream.status == 200
    stream.close()
    forged = Stream(
        push.port,
        f"/push/characters/{character_id}",
        {"Cookie": f"{cookie.key}={cookie.value[:-4]}AAAA"},
    )
    assert forged.status == 401
    forged.close()


@pytest.mark.parametrize(
    ("path", "who", "status", "code"),
    [
        ("/push/p/NOPE", None, 404, "not_found"),
        ("/push/p/" + "A" * 26, None, 404, "not_found"),
        ("/push/characters/{character}", None, 401, "login_required"),
        ("/push/characters/{character}", "a stranger's token", 401, "login_required"),
        ("/push/characters/{character}", "another event's referee", 403, "not_your_event"),
        ("/push/characters/999999", "referee", 404, "not_found"),
        ("/push/characters/x", "referee", 404, "not_found"),
        ("/push/nothing", None, 404, "not_found"),
    ],
)
def test_a_stream_is_refused_in_words_to_whoever_has_not_proved_who_they_are(
    app, push, tokens, character_id, path, who, status, code
):
    from larp_app.services.users import create_user

    headers = {}
    if who == "referee":
        headers = auth(tokens["referee"])
    elif who == "a stranger's token":
        headers = auth("not-a-token")
    elif who == "another event's referee":
        with app.app_context():
            token = create_user("altro", "referee")[2]
            db.session.commit()
        # A referee who works another event only.
        with app.app_context():
            from larp_app.models import Event, User
            from larp_app.services.assignments import assign_referees
            from larp_app.services.events import create_event

            other = create_event("Altra", "ex-nihilo")
            db.session.flush()
            user = db.session.scalar(db.select(User).where(User.username == "altro"))
            assign_referees(db.session.get(Event, other.id), [user.id])
            db.session.commit()
        headers = auth(token)
    stream = Stream(push.port, path.format(character=character_id), headers)
    assert stream.status == status
    assert f'"error": "{code}"' in stream.body().decode()
    stream.close()
    assert push.server.count == 0  # nothing kept of it


def test_a_stream_asked_otherwise_than_with_get_is_refused(push, player_link):
    connection = socket.create_connection(("127.0.0.1", push.port), timeout=TOLD)
    connection.sendall(f"POST /push/p/{player_link} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert connection.recv(65536).startswith(b"HTTP/1.1 405 ")
    connection.close()


def test_a_revoked_token_closes_its_streams(push, tokens, character_id, sql):
    stream = Stream(push.port, f"/push/characters/{character_id}", auth(tokens["referee"]))
    assert stream.status == 200
    sql("UPDATE api_token SET revoked_at = CURRENT_TIMESTAMP")
    assert stream.closed_within(TOLD)
    stream.close()


def test_a_page_of_the_same_host_may_read_a_stream_with_its_cookies_a_stranger_page_not(
    push, player_link
):
    same = Stream(push.port, f"/push/p/{player_link}", {"Origin": "https://127.0.0.1:5000"})
    assert same.headers["access-control-allow-origin"] == "https://127.0.0.1:5000"
    assert same.headers["access-control-allow-credentials"] == "true"
    other = Stream(push.port, f"/push/p/{player_link}", {"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers
    same.close()
    other.close()


@pytest.mark.parametrize("push_url", [None, "https://192.168.1.10:5001"])
def test_pages_name_the_push_server_in_their_policy_or_poll_alone(
    app, client, player_link, push_url
):
    app.config["PUSH_URL"] = push_url
    page = client.get(f"/p/{player_link}")
    policy = page.headers["Content-Security-Policy"]
    connect = next(p for p in policy.split("; ") if p.startswith("connect-src"))
    if push_url:
        assert connect == "connect-src 'self' https://192.168.1.10:5001"
        assert 'data-push="https://192.168.1.10:5001"' in page.text
    else:
        assert connect == "connect-src 'self'"
        assert "data-push" not in page.text
    live = client.get(f"/p/{player_link}/live.json")
    assert live.headers["Content-Security-Policy"] == policy
