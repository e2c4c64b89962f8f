"""The push server: one asyncio process holding every open console's and player page's
stream of its character's changes (server-sent events), beside the app's workers.

A phone asks its answer of the app as ever (the same poll, its ETag, the same bytes); the
stream only tells it *when* to ask, so that it need not ask every few seconds for nothing.
Polling stays the fallback: a phone whose stream is open polls once a minute, one without
(no push server, a proxy that cuts streams, offline) as often as it always did
(static/js/lib/api.js ``poll``).

- ``GET /push/p/<secret>``: a player page's stream, found by its player link;
- ``GET /push/characters/<id>``: a console's, for a referee or organiser who may read the
  character, by the session cookie (or a bearer token, for scripts).

Each stream proves who it is when it opens, as the quick answers do (keeping/known.py:
the caller, the player link, the event's reach), and is refused in the API's words
otherwise: nothing is kept for a request that has not. Each time the accounts mark moves, the
consoles' streams are proved again, and those whose session or token ended are closed.

What changed comes from the database itself (push/followed.py), read four times a second in
one thread of its own (the event loop never waits on the database): whoever wrote it, the
phones are told. Each is sent ``data: changed``; a comment line every 25 s keeps idle
streams open through proxies and phones' networks, spread over the 25 s (a share of the
streams at each read, never every stream at once: thousands of lines written in one go hold
the loop, and the cores it shares with the app). A phone that reads too slowly (64 KiB
waiting) is let go: it polls until its stream opens again.

Its pages are served by the app on another port: a stream is answered to a page of the same
host (``Origin``), with its cookies (``Access-Control-Allow-Credentials``); the app's pages
name it (``PUSH_URL``) in their Content-Security-Policy and their ``data-push``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import ssl
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Flask

from ..keeping.known import ACCOUNTS, known_for
from ..services.assignments import reach
from ..services.users import token_digest
from ..tokens import SECRET_LENGTH, digest
from ..web.quick import STAFF, read_session_cookie
from .followed import Followed

log = logging.getLogger(__name__)

PLAYER, CONSOLE = "/push/p/", "/push/characters/"
TICK = 0.25  # seconds between two reads of what changed
BEAT = 25.0  # seconds between two comment lines on every stream
BACKLOG = 64 * 1024  # bytes a stream may have waiting before its phone is let go
HEAD_LIMIT = 16 * 1024  # a request's head, at most (its cookie line is at most 8 KiB)
HEAD_SECONDS = 10  # to send it
RETRY_MS = 5000  # a lost stream is opened again after this (the browser's EventSource)
SLOW = 1.0  # seconds: a read of what changed that took longer is logged
MOST_STREAMS = 50_000  # streams held at once: a phone beyond polls as ever (503)
CHANGED, BEAT_LINE = b"data: changed\n\n", b": beat\n\n"
REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found"}
REASONS |= {405: "Method Not Allowed", 503: "Service Unavailable"}


class Refused(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True)
class Asked:
    """A stream asked for: the request line's method and path, and its headers."""

    method: str
    path: str
    headers: dict[str, str]

    @classmethod
    def read(cls, head: bytes) -> Asked:
        try:
            first, *lines = head.decode("latin-1").split("\r\n")
            method, target, _version = first.split(" ")
        except ValueError:
            raise Refused(400, "bad_request", "not an HTTP request") from None
        headers: dict[str, str] = {}
        for line in lines:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            if name in headers:  # (a repeated cookie or authorization line: refused)
                raise Refused(400, "repeated_header", f"the {name} header is sent twice")
            headers[name] = value.strip()
        return cls(method, target.partition("?")[0], headers)


@dataclass(frozen=True)
class Follower:
    """Who follows a character: a caller's credential, or None for a player link's page."""

    character_id: int
    credential: tuple[str, str] | None  # ("session" | "token", digest); None: a player link


class Stream:
    """One phone's open stream."""

    def __init__(self, writer: asyncio.StreamWriter, follower: Follower):
        self.writer, self.follower = writer, follower
        self.slot: set[Stream] = set()  # the streams beaten at the same read as this one

    def send(self, data: bytes) -> bool:
        """Write ``data``; False when the phone reads too slowly and was let go."""
        if self.writer.is_closing():
            return False
        if self.writer.transport.get_write_buffer_size() > BACKLOG:
            self.writer.close()
            return False
        self.writer.write(data)
        return True


class PushServer:
    """The streams of one push server, and what tells them."""

    def __init__(
        self, app: Flask, tick: float = TICK, most: int = MOST_STREAMS, beat: float = BEAT
    ):
        self.app, self.tick, self.most = app, tick, most
        self.known = known_for(app)
        self.followed = Followed(self.known)
        self.streams: dict[int, set[Stream]] = defaultdict(set)
        # Each stream's comment line comes at its own read of the beat's span: the streams
        # are dealt in turn to as many slots as reads fit in a beat, one slot beaten a read.
        self.slots: list[set[Stream]] = [set() for _ in range(max(1, round(beat / tick)))]
        self.dealt = 0  # streams dealt so far: the next one's slot
        self.ticks = 0  # reads so far: the slot to beat
        self.count = 0
        self.accounts: int | None = None
        self.database = ThreadPoolExecutor(1, thread_name_prefix="push-database")
        self.server: asyncio.Server | None = None

    # --- the database, in its own thread ----------------------------------------------------

    async def _in_database(self, work, *args):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.database, self._with_app, work, *args)

    def _with_app(self, work, *args):
        with self.app.app_context():
            return work(*args)

    def _follower(self, asked: Asked) -> Follower:
        """Who asks, proven as the quick answers prove it; followed from the character's
        version now. Refused otherwise."""
        known = self.known
        known.current()
        if asked.path.startswith(PLAYER):
            secret = asked.path[len(PLAYER) :]
            if not 0 < len(secret) <= SECRET_LENGTH * 2 or "/" in secret:
                raise Refused(404, "not_found", "no such player link")
            facts = known.player(digest(secret.upper()))
            if facts is None:
                raise Refused(404, "not_found", "no such player link")
            follower = Follower(facts.id, None)
        else:
            number = asked.path[len(CONSOLE) :]
            if not number.isdigit() or len(number) > 18:
                raise Refused(404, "not_found", "no such character")
            credential = self._credential(asked.headers)
            follower = Follower(int(number), credential)
            facts = self._reached(follower)
        self.followed.follow(facts.id, facts.version)
        return follower

    def _credential(self, headers: dict[str, str]) -> tuple[str, str]:
        authorization = headers.get("authorization", "")
        if authorization.startswith("Bearer "):
            kind, secret = "token", authorization[7:]
        else:
            read = read_session_cookie(self.app, headers.get("cookie", ""))
            session = read[0] if read else {}
            kind, secret = "session", session.get("sid")
        if not isinstance(secret, str) or not 0 < len(secret) <= 200:
            raise Refused(401, "login_required", "log in first")
        return kind, token_digest(secret)

    def _reached(self, follower: Follower):
        """The character's facts, if the follower's caller may read it; refused otherwise."""
        known = self.known
        caller = known.caller(*follower.credential)
        if caller is None:
            raise Refused(401, "login_required", "log in first")
        if caller.role not in STAFF:
            raise Refused(403, "forbidden", "referees and organisers only")
        facts = known.character(follower.character_id)
        event = None if facts is None else known.event(facts.event_id)
        if event is None:
            raise Refused(404, "not_found", "no such character")
        if reach(caller.role, caller.worked, facts.event_id, event.archived):
            raise Refused(403, "not_your_event", "not an event of yours")
        return facts

    def _tick(self) -> tuple[list[int] | None, bool]:
        """The characters that moved (None: all), and whether the accounts mark moved."""
        moved = self.followed.moved()
        marks = self.known.marks
        accounts = None if marks is None else marks[ACCOUNTS]
        again = self.accounts is not None and accounts != self.accounts
        self.accounts = accounts
        return moved, again

    def _ended(self, followers: list[Follower]) -> list[Follower]:
        """The followers no longer allowed (each console's caller proved again)."""
        ended = []
        for follower in followers:
            try:
                self._reached(follower)
            except Refused:
                ended.append(follower)
        return ended

    # --- the streams ------------------------------------------------------------------------

    async def answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        stream = None
        try:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_SECONDS)
            except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                return
            asked = Asked.read(head[:-4])
            cors = self._cors(asked.headers)
            try:
                follower = await self._open(asked)
            except Refused as refused:
                writer.write(_refusal(refused, cors))
                await writer.drain()
                return
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                b"Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
                + cors
                + f"\r\nretry: {RETRY_MS}\n\n".encode()
            )
            stream = Stream(writer, follower)
            self.streams[follower.character_id].add(stream)
            self._deal(stream)
            while await reader.read(1024):  # until the phone goes (it sends nothing more)
                pass
        except Refused as refused:
            writer.write(_refusal(refused, b""))
        except OSError:
            pass  # the phone went
        finally:
            writer.close()
            if stream is not None:
                await self._close(stream)

    async def _open(self, asked: Asked) -> Follower:
        if asked.method != "GET":
            raise Refused(405, "method_not_allowed", "a stream is asked with GET")
        if not asked.path.startswith((PLAYER, CONSOLE)):
            raise Refused(404, "not_found", "no such stream")
        if self.count >= self.most:
            raise Refused(503, "busy", "too many streams open: the page polls instead")
        self.count += 1  # (counted before the database answers: a burst cannot pass it)
        try:
            return await self._in_database(self._follower, asked)
        except BaseException:
            self.count -= 1
            raise

    def _deal(self, stream: Stream) -> None:
        stream.slot = self.slots[self.dealt % len(self.slots)]
        stream.slot.add(stream)
        self.dealt += 1

    def beaten(self) -> set[Stream]:
        """The streams whose comment line is due at this read (each once a beat)."""
        slot = self.slots[self.ticks % len(self.slots)]
        self.ticks += 1
        return slot

    async def _close(self, stream: Stream) -> None:
        character_id = stream.follower.character_id
        streams = self.streams.get(character_id)
        stream.slot.discard(stream)
        try:
            if streams is not None:
                streams.discard(stream)
                if not streams:
                    del self.streams[character_id]
                    with contextlib.suppress(Exception):
                        await self._in_database(self.followed.drop, character_id)
        finally:
            self.count -= 1  # last: a server stopping waits for every stream's end

    @staticmethod
    def _cors(headers: dict[str, str]) -> bytes:
        """A page of the same host (the app, on its own port) may read the stream, with its
        cookies; any other origin may not."""
        origin = headers.get("origin")
        if not origin:
            return b""
        host = headers.get("host", "").rpartition(":")[0] or headers.get("host", "")
        try:
            same = urlsplit(origin).hostname == urlsplit(f"//{host}").hostname
        except ValueError:
            same = False
        if not same:
            return b""
        return (
            f"Access-Control-Allow-Origin: {origin}\r\n"
            "Access-Control-Allow-Credentials: true\r\nVary: Origin\r\n"
        ).encode("latin-1")

    async def _prove_again(self) -> None:
        """Each console's stream whose caller may no longer read its character is closed."""
        consoles: dict[Follower, list[Stream]] = defaultdict(list)
        for streams in self.streams.values():
            for stream in streams:
                if stream.follower.credential is not None:
                    consoles[stream.follower].append(stream)
        for follower in await self._in_database(self._ended, list(consoles)):
            for stream in consoles[follower]:
                stream.writer.close()

    def _send(self, streams, data: bytes) -> None:
        for stream in list(streams):
            stream.send(data)

    async def watch(self) -> None:
        """Tell each stream of a character that moved, every ``tick``; its beat in its turn."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.tick)
            self._send(self.beaten(), BEAT_LINE)  # (the database away too: streams kept open)
            began = loop.time()
            try:
                moved, accounts_moved = await self._in_database(self._tick)
                if accounts_moved:
                    await self._prove_again()
            except Exception as failure:  # the database away: the phones poll meanwhile
                log.warning("push: what changed could not be read: %r", failure)
                continue
            if loop.time() - began > SLOW:
                log.warning("push: what changed took %.1f s to read", loop.time() - began)
            if moved is None:
                for streams in self.streams.values():
                    self._send(streams, CHANGED)
            else:
                for character_id in moved:
                    self._send(self.streams.get(character_id, ()), CHANGED)

    async def start(self, host: str, port: int, tls: ssl.SSLContext | None = None) -> int:
        """Listen (and watch what changes); the port listened on."""
        self.server = await asyncio.start_server(
            self.answer, host, port, ssl=tls, limit=HEAD_LIMIT, backlog=4096
        )
        self.watching = asyncio.ensure_future(self.watch())
        return self.server.sockets[0].getsockname()[1]

    async def serve(self, host: str, port: int, tls: ssl.SSLContext | None = None) -> None:
        await self.start(host, port, tls)
        async with self.server:
            await asyncio.gather(self.server.serve_forever(), self.watching)

    async def stop(self) -> None:
        """Stop listening and watching; every stream closed."""
        self.watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.watching
        self.server.close()
        for streams in list(self.streams.values()):
            for stream in list(streams):
                stream.writer.close()
        for _ in range(200):  # each stream's own end: its connection closed, it is let go
            if self.count == 0:
                break
            await asyncio.sleep(0.05)
        await self.server.wait_closed()
        await asyncio.sleep(0.05)  # the connections' own closing, done by the loop
        self.database.shutdown(wait=True)


def _refusal(refused: Refused, cors: bytes) -> bytes:
    body = json.dumps({"error": refused.code, "message": refused.message, "fields": {}}).encode()
    reason = REASONS.get(refused.status, "Refused")
    return (
        (
            f"HTTP/1.1 {refused.status} {reason}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\nCache-Control: no-store\r\n"
        ).encode()
        + cors
        + b"\r\n"
        + body
    )


def run(app: Flask, host: str, port: int, certfile: str | None, keyfile: str | None) -> None:
    """Serve until stopped (``flask push``): open files enough for every phone's stream."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard == resource.RLIM_INFINITY else min(hard, 65_536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    tls = None
    if certfile:
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(certfile, keyfile)
    asyncio.run(PushServer(app).serve(host, port, tls))
