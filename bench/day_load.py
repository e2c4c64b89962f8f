"""The clients of ``bench/day.py``: every page, console, phone and board of the day, each on a
connection it keeps alive as a browser does, driven by asyncio in a few processes.

A phase returns each request's row (kind, start, duration, outcome, bytes on the wire and
unpacked, the characters of a roster delta), what each client was answered in turn (so that
the stored-answer server can be asked the same: a change where the app had one, else the
ETag it holds), a few of the app's answers of each kind (the bodies the stored-answer server
then answers with), and the CPU the server (and its PostgreSQL, if any) used over the timed
span.
"""

from __future__ import annotations

import asyncio
import gc
import gzip
import json
import multiprocessing
import random
import signal
import ssl
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime

import brotli
from entries import HOST, cpu_seconds, machine_busy_seconds, server_pids

# Intervals, as static/js asks: player.js (followLive(live, 5); the page's data-seconds is
# player.POLL_SECONDS), console/main.js (poll(..., 2)), board.js (followLive(live, 3)),
# lib/netbar.js (ROSTER_EVERY_MS = 60_000); time-outs as lib/api.js: max(4 s, 2 × interval).
PLAYER_SECONDS, CONSOLE_SECONDS, BOARD_SECONDS, ROSTER_SECONDS = 5, 2, 3, 60
TIMEOUT_SECONDS = {"player": 10, "console": 4, "board": 6, "roster": 20, "entry": 10}
KINDS = ("player", "console", "board", "roster", "entry", "seen")
# What Chrome on Android asks (the app answers brotli to it, as to "br, gzip").
PHONE_ENCODINGS = "gzip, deflate, br, zstd"
STALE = 'W/"held-before-a-change"'  # a tag no server gave: the answer has changed
KEPT_BODIES = 24  # the app's answers of each kind kept by each load process, at random

ENTRY_KINDS = (
    {"kind": "hit", "damage": 1, "blows": 1, "pierce": False},
    {"kind": "heal", "amount": 1},
    {"kind": "note", "text": "day"},
    {"kind": "spend_energy", "amount": 1},
    {"kind": "restore_energy", "amount": 1},
)


def now_z() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def unpacked(answer_headers: dict, payload: bytes) -> bytes:
    """The body as sent before its Content-Encoding."""
    encoding = answer_headers.get("content-encoding", "")
    if encoding == "br":
        return brotli.decompress(payload)
    if encoding == "gzip":
        return gzip.decompress(payload)
    return payload


# --- HTTP: a connection kept alive per client, as browsers keep them; or one per request --


def _read_head(head: bytes) -> tuple[int, dict]:
    first, *rest = head.decode("latin-1").split("\r\n")
    answer_headers = {}
    for line in rest:
        name, _, value = line.partition(":")
        answer_headers[name.strip().lower()] = value.strip()
    return int(first.split()[1]), answer_headers


def _request_bytes(port, method, path, headers, body, close: bool) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}"]
    lines += ["Connection: close"] if close else []
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


# The clients' TLS context over HTTPS (``--https``), else None.
TLS: ssl.SSLContext | None = None


class KeptAlive:
    """One client's connection, kept alive between its requests as a phone's browser keeps
    it (HTTP/1.1), and opened again when the server closed it meanwhile."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def open(self) -> None:
        """Connect (and shake hands, over HTTPS) before anything is timed, with a first
        request at once as a browser's (a TLS connection left idle holds a thread of a
        threaded worker until its request comes): a path neither server knows, a 404."""
        await self.request("GET", "/opened", {}, None, 120)

    async def request(self, method, path, headers, body=None, timeout=10.0):
        async def exchange():
            for _attempt in (1, 2):
                fresh = self.writer is None
                if fresh:
                    self.reader, self.writer = await asyncio.open_connection(
                        HOST, self.port, ssl=TLS
                    )
                try:
                    self.writer.write(_request_bytes(self.port, method, path, headers, body, False))
                    head = await self.reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    self.close()
                    if fresh:
                        raise
                    continue  # a kept connection the server had closed: once more, fresh
                status, answer_headers = _read_head(head[:-4])
                if "chunked" in answer_headers.get("transfer-encoding", ""):
                    payload = await self._chunks()
                elif status in (204, 304):
                    payload = b""
                else:
                    payload = await self.reader.readexactly(
                        int(answer_headers.get("content-length", "0"))
                    )
                if answer_headers.get("connection", "").lower() == "close":
                    self.close()
                return status, answer_headers, payload
            raise ConnectionError("closed twice")

        try:
            return await asyncio.wait_for(exchange(), timeout)
        except BaseException:
            self.close()  # cut in the middle: its state is unknown
            raise

    async def _chunks(self) -> bytes:
        out = b""
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return out
            out += await self.reader.readexactly(size)
            await self.reader.readexactly(2)


class Stream:
    """A phone's stream of changes from the push server (day.py --push), opened before the
    timing as a page open since the morning holds one."""

    def __init__(self, port: int, path: str, headers: dict):
        self.port, self.path, self.headers = port, path, headers
        self.reader = self.writer = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        self.writer.write(_request_bytes(self.port, "GET", self.path, self.headers, None, False))
        status, _headers = _read_head((await self.reader.readuntil(b"\r\n\r\n"))[:-4])
        if status != 200:
            raise ConnectionError(f"{self.path}: {status}")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Fresh:
    """One connection per request (``--sync``: sync workers close each)."""

    def __init__(self, port: int):
        self.port = port

    async def request(self, method, path, headers, body=None, timeout=10.0):
        return await fetch(self.port, method, path, headers, body, timeout)

    async def open(self) -> None:
        pass

    def close(self) -> None:
        pass


async def fetch(port, method, path, headers, body=None, timeout=10.0):
    """(status, headers, body) of one request on a connection of its own."""

    async def exchange():
        reader, writer = await asyncio.open_connection(HOST, port, ssl=TLS)
        try:
            writer.write(_request_bytes(port, method, path, headers, body, True))
            data = await reader.read(-1)
        finally:
            writer.close()
        head, _, payload = data.partition(b"\r\n\r\n")
        status, answer_headers = _read_head(head)
        if "chunked" in answer_headers.get("transfer-encoding", ""):
            payload = dechunk(payload)
        return status, answer_headers, payload

    return await asyncio.wait_for(exchange(), timeout)


def dechunk(data: bytes) -> bytes:
    out, rest = b"", data
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2 :]
    return out


def get(port, path, headers=None):
    return asyncio.run(fetch(port, "GET", path, headers or {}, None, 60))


# --- the clients ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What one load process drives: its share of every kind of client."""

    port: int
    kept_alive: bool  # each client's connection kept alive (else one per request)
    players: list[str]  # secrets
    consoles: list[tuple[str, int]]  # (token, character id)
    boards: list[tuple[str, int, str]]  # (key, event id, the organiser's cookie)
    roster: tuple[str, str, str] | None  # (version, etag, kits) held at the start
    entries_per_second: float
    seconds: float
    seed: int
    board_since: bool
    held: dict  # what each page holds from its load (prime): key -> {"etag", "version"}
    encodings: str | None  # the Accept-Encoding every client sends, or none
    # What each client was answered in turn on another server (its key -> outcomes): asked
    # again here, a change where it had one (a tag this server never gave), else the tag held.
    replay: dict[str, list[str]] | None = None
    # Told of changes instead of polling (day.py --push): the push server's port; player
    # pages and consoles then poll only every ``fallback`` seconds, as a safety net.
    push_port: int | None = None
    fallback: float = 60.0


@dataclass
class Driven:
    """What ``drive`` brings back from one load process."""

    lag: float  # p99 of how late its event loop woke, in seconds
    rows: list  # (kind, start, duration, outcome, wire bytes, unpacked bytes)
    cpu: float
    started: float
    ended: float
    outcomes: dict[str, list[str]]
    bodies: dict[str, list[bytes]]  # a few answers (200) of each kind, unpacked
    seen: dict[str, int] = field(default_factory=dict)  # 200 answers of each kind


async def drive(plan: Plan) -> Driven:
    """Every client of the plan, for its seconds. Each client's kept connection is opened
    first, as a phone's that has been open since the morning (``--sync``: none is kept)."""
    rows: list[tuple] = []
    outcomes: dict[str, list[str]] = defaultdict(list)
    bodies: dict[str, list[bytes]] = defaultdict(list)
    seen: dict[str, int] = defaultdict(int)
    started = time.monotonic()
    deadline = started + plan.seconds
    rng = random.Random(plan.seed)
    keeping = random.Random(plan.seed + 1)  # which answers are kept: the day's rng untouched
    opened: list = []
    unseen: dict[int, float] = {}  # character -> when its first entry not yet seen was sent
    asked = {"Accept-Encoding": plan.encodings} if plan.encodings else {}

    def connect(port):
        made = (KeptAlive if plan.kept_alive else Fresh)(port)
        opened.append(made)
        return made

    def keep(kind: str, body: bytes) -> None:
        seen[kind] += 1
        kept = bodies[kind]
        if len(kept) < KEPT_BODIES:
            kept.append(body)
        elif keeping.random() < KEPT_BODIES / seen[kind]:
            kept[keeping.randrange(KEPT_BODIES)] = body

    async def timed(kind, method, path, headers, body=None, connection=None, key=None):
        """The answer (status, headers, unpacked body), or None; its row."""
        begun = time.monotonic()
        try:
            status, answer_headers, payload = await connection.request(
                method, path, {**asked, **headers}, body, TIMEOUT_SECONDS[kind]
            )
        except TimeoutError:
            outcome = "timeout"
        except OSError as error:
            outcome = type(error).__name__
        else:
            outcome = str(status)
        took = time.monotonic() - begun
        if key is not None:
            outcomes[key].append(outcome)
        if not outcome.isdigit():
            rows.append((kind, begun - started, took, outcome, 0, 0))
            return None
        plain = unpacked(answer_headers, payload) if status == 200 else b""
        rows.append((kind, begun - started, took, outcome, len(payload), len(plain)))
        if status == 200 and kind != "entry":
            keep(kind, plain)
        return status, answer_headers, plain

    def tag_to_send(key: str, held: dict) -> str | None:
        """The tag the client holds, or, replaying a change the other server had, a stale one."""
        if plan.replay is not None:
            was = plan.replay.get(key, ())
            turn = len(outcomes[key])
            if turn < len(was) and was[turn] == "200":
                return STALE
        return held.get("etag")

    async def every(seconds, ask):
        await asyncio.sleep(min(rng.uniform(0, seconds), max(deadline - time.monotonic(), 0)))
        while time.monotonic() < deadline:
            await ask()
            # After the answer, as lib/api.js's setTimeout; never past the end of the phase.
            await asyncio.sleep(min(seconds, max(deadline - time.monotonic(), 0)))

    def poller(kind, key, path_of, headers):
        held = dict(plan.held.get(key) or {"etag": None})
        connection = connect(plan.port)
        one_at_a_time = asyncio.Lock()  # told of a change while a fallback poll is out

        async def ask():
            async with one_at_a_time:
                await asked_once()

        async def asked_once():
            sent = dict(headers)
            tag = tag_to_send(key, held)
            if tag:
                sent["If-None-Match"] = tag
            answer = await timed(kind, "GET", path_of(held), sent, connection=connection, key=key)
            if answer and answer[0] == 200:
                held["etag"] = answer[1].get("etag")
                if kind == "board" and plan.board_since:
                    held["version"] = json.loads(answer[2])["version"]

        return ask

    def followed(seconds, ask, stream_path, stream_headers, character=None):
        """Polled every ``seconds``; or, told of changes (--push), asked at once on each and
        polled every ``plan.fallback`` seconds besides: for a console, a row "seen" each time
        it holds the answer after an entry of this process on its character was sent, from
        the sending on (a referee's tap to another referee's phone showing it)."""
        if plan.push_port is None:
            return every(seconds, ask)
        stream = Stream(plan.push_port, stream_path, stream_headers)
        opened.append(stream)

        async def told():
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or stream.reader is None:
                    return
                try:
                    line = await asyncio.wait_for(stream.reader.readline(), left)
                except (TimeoutError, ConnectionError):
                    return
                if not line:
                    return  # closed: the fallback poll goes on
                if line.startswith(b"data: "):
                    await ask()
                    sent = unseen.pop(character, None)
                    if sent is not None:
                        took = time.monotonic() - sent
                        rows.append(("seen", sent - started, took, "200", 0, 0))

        async def both():  # (started with the others, once every connection is open)
            await asyncio.gather(told(), every(plan.fallback, ask))

        return both()

    tasks = []
    for secret in plan.players:
        path = f"/p/{secret}/live.json"
        ask = poller("player", f"player:{secret}", lambda held, p=path: p, {})
        tasks.append(followed(PLAYER_SECONDS, ask, f"/push/p/{secret}", {}))
    for token, character in plan.consoles:
        path = f"/api/v1/characters/{character}/state"
        bearer = {"Authorization": f"Bearer {token}"}
        ask = poller("console", f"console:{token}", lambda held, p=path: p, bearer)
        tasks.append(
            followed(CONSOLE_SECONDS, ask, f"/push/characters/{character}", bearer, character)
        )
    for key, event_id, cookie in plan.boards:

        def board_path(held, event_id=event_id):
            base = f"/events/{event_id}/board.json"
            since = held.get("version")
            return f"{base}?since={since}" if plan.board_since and since else base

        tasks.append(every(BOARD_SECONDS, poller("board", key, board_path, {"Cookie": cookie})))
    if plan.roster and plan.consoles:
        for token, _character in plan.consoles:
            # As lib/roster.js: what changed since the version held, which each answer moves.
            held = {"version": plan.roster[0], "etag": plan.roster[1], "kits": plan.roster[2]}
            connection = connect(plan.port)
            key = f"roster:{token}"

            async def ask(token=token, held=held, connection=connection, key=key):
                headers = {"Authorization": f"Bearer {token}"}
                tag = tag_to_send(key, held)
                if tag:
                    headers["If-None-Match"] = tag
                path = roster_asked(held["version"], held["kits"])
                answer = await timed("roster", "GET", path, headers, connection=connection, key=key)
                if answer and answer[0] == 200:
                    data = roster_head(answer[2])
                    held["version"], held["kits"] = data["version"], roster_kits(data)
                    held["etag"] = answer[1].get("etag") or ""

            tasks.append(every(ROSTER_SECONDS, ask))

    async def entries():
        if plan.entries_per_second <= 0 or not plan.consoles:
            return
        pending = set()
        # A phone sends each entry on a connection of its own that is free: kept for the next.
        idle = {token: [connect(plan.port)] for token, _ in plan.consoles}
        while True:
            await asyncio.sleep(rng.expovariate(plan.entries_per_second))
            if time.monotonic() >= deadline:
                break
            token, character = rng.choice(plan.consoles)
            entry = {"id": str(uuid.uuid4()), "at": now_z(), **rng.choice(ENTRY_KINDS)}
            body = json.dumps({"entries": [{**entry, "character": character, "sent_at": now_z()}]})
            headers = {"Authorization": f"Bearer {token}"}
            connection = idle[token].pop() if idle[token] else connect(plan.port)

            async def send(token=token, headers=headers, body=body, connection=connection,
                           character=character):  # fmt: skip
                sent = unseen.setdefault(character, time.monotonic())
                answer = await timed(
                    "entry", "POST", "/api/v1/sync", headers, body.encode(), connection
                )
                stored = answer and answer[0] == 200 and b'"stored"' in answer[2]
                if not stored and unseen.get(character) == sent:
                    del unseen[character]  # refused (no energy to spend...): nothing to see
                idle[token].append(connection)

            task = asyncio.ensure_future(send())
            pending.add(task)
            task.add_done_callback(pending.discard)
        if pending:
            await asyncio.wait(pending)

    tasks.append(entries())
    lags: list[float] = []

    async def watch():
        """How late this process's event loop wakes (its clients' latencies include it)."""
        while time.monotonic() < deadline:
            slept = time.monotonic()
            await asyncio.sleep(0.05)
            lags.append(time.monotonic() - slept - 0.05)

    tasks.append(watch())
    gate = asyncio.Semaphore(64)

    async def opening(connection):
        async with gate:
            await connection.open()

    await asyncio.gather(*(opening(c) for c in opened))
    started = time.monotonic()  # the timing begins with every connection open
    deadline = started + plan.seconds
    cpu = time.process_time()
    await asyncio.gather(*tasks)
    ended = time.monotonic()
    for connection in opened:
        connection.close()
    lags.sort()
    return Driven(
        lags[int(len(lags) * 0.99)] if lags else 0.0,
        rows,
        time.process_time() - cpu,
        started,
        ended,
        dict(outcomes),
        dict(bodies),
        dict(seen),
    )


async def prime_pages(port, secrets, consoles, boards, board_since, encodings) -> dict:
    """Each page loaded once before the day is timed, as it was before the day began: what
    each holds (its ETag; a board's version too), by the keys ``drive`` gives its clients."""
    held: dict = {}
    gate = asyncio.Semaphore(8)
    asked = {"Accept-Encoding": encodings} if encodings else {}

    async def load(key, path, headers):
        async with gate:
            status, answer_headers, payload = await fetch(
                port, "GET", path, {**asked, **headers}, None, 120
            )
        if status == 200:
            held[key] = {"etag": answer_headers.get("etag")}
            if key.startswith("board") and board_since:
                held[key]["version"] = json.loads(unpacked(answer_headers, payload))["version"]

    asks = [load(f"player:{s}", f"/p/{s}/live.json", {}) for s in secrets]
    for token, character in consoles:
        path = f"/api/v1/characters/{character}/state"
        asks.append(load(f"console:{token}", path, {"Authorization": f"Bearer {token}"}))
    for key, event_id, cookie in boards:
        asks.append(load(key, f"/events/{event_id}/board.json", {"Cookie": cookie}))
    await asyncio.gather(*asks)
    return held


def roster_head(plain: bytes) -> dict:
    """A roster answer without its characters: its version and events, which lib/roster.js
    goes on from. A delta's few hundred characters are not decoded here: decoding them held
    the load process's event loop for tens of milliseconds five times a second, every other
    client's latency with it (they are counted after the phase: ``delta_characters``)."""
    cut = plain.rfind(b',"characters":[')  # the last key of reads/roster.py roster_text
    if cut > 0:
        try:
            return json.loads(plain[:cut] + b"}")
        except ValueError:  # (cut inside a character: read whole)
            pass
    return json.loads(plain)


def delta_characters(bodies: list[bytes]) -> float | None:
    """The characters of a roster delta, on average over the answers kept (a random sample
    of every answer 200)."""
    if not bodies:
        return None
    return sum(len(json.loads(body).get("characters", [])) for body in bodies) / len(bodies)


def roster_kits(data: dict) -> str:
    """The kits a roster answer names (as lib/roster.js sends them back: ``kits=``)."""
    return ",".join(event["kit"] for event in data.get("events", []) if event.get("kit"))


def roster_asked(since: str, kits: str) -> str:
    """A phone's roster asked as changes since a version, naming the kits it holds."""
    return f"/api/v1/roster?since={since}" + (f"&kits={kits}" if kits else "")


def run_plan(plan: Plan) -> Driven:
    """In a load process: what ``drive`` brings back. The process's garbage collector is off
    meanwhile, what it holds before frozen: its full collections, among the objects of
    thousands of clients, took 0.5 to 0.9 s here, and every request in flight was counted that
    much slower, of every kind at once, as if the servers had stalled (phones share no such
    pause). What the clients drop is freed as ever; only cycles wait for the end."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        return asyncio.run(drive(plan))
    finally:
        gc.enable()
        gc.unfreeze()


def split(items: list, parts: int) -> list[list]:
    return [items[n::parts] for n in range(parts)]


# --- CPU: the server's processes, and the PostgreSQL backends serving it --------------------


class DatabaseCpu:
    """The CPU of the PostgreSQL backends connected to the benchmark's database (none on
    SQLite, whose work is done in the server's own processes): the servers' connections,
    not the load generator's own (``application_name`` larp-bench)."""

    def __init__(self, url: str | None):
        self.url = url

    def pids(self) -> list[int]:
        if self.url is None:
            return []
        import psycopg

        with psycopg.connect(self.url, application_name="larp-bench") as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND application_name <> 'larp-bench'"
            ).fetchall()
        return [pid for (pid,) in rows]

    def snapshot(self) -> dict[int, float]:
        return {pid: cpu_seconds([pid]) for pid in self.pids()}

    def since(self, before: dict[int, float]) -> float:
        """CPU seconds since ``before`` (a backend that started since: all of its own)."""
        after = self.snapshot()
        return sum(max(0.0, cpu - before.get(pid, 0.0)) for pid, cpu in after.items())


@dataclass
class Phase:
    label: str
    rows: list
    seconds: float
    server_cpu: float
    client_cpu: float
    machine_cpu: float | None
    database_cpu: float | None  # PostgreSQL's backends (None on SQLite)
    outcomes: dict[str, list[str]]
    bodies: dict[str, list[bytes]]
    lag: float  # the load processes' worst p99 of how late their event loop woke (s)


def load_phase(
    label, master, plans: list[Plan], seconds: float, database: DatabaseCpu, also=()
) -> Phase:
    """The plans driven at once; the server's (its gunicorn, and the processes ``also``)
    and the machine's CPU over the timed span (read every 0.1 s: the connections' opening
    before it is left out); the database's from just before to just after."""
    pids = server_pids(master) + list(also)
    samples: list[tuple[float, float, float | None]] = []
    stop = threading.Event()

    def sample():
        while True:
            samples.append((time.monotonic(), cpu_seconds(pids), machine_busy_seconds()))
            if stop.wait(0.1):
                return

    database_before = database.snapshot() if database.url else None
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    # The load processes die of SIGTERM as ever (day.py's handler, inherited through fork,
    # would let Pool.terminate kill one holding the task queue's lock: the other would wait
    # on it for ever), and are let go by close and join, not terminate.
    pool = multiprocessing.get_context("fork").Pool(
        len(plans), initializer=signal.signal, initargs=(signal.SIGTERM, signal.SIG_DFL)
    )
    try:
        done: list[Driven] = pool.map(run_plan, plans)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
    stop.set()
    sampler.join()
    database_cpu = None if database_before is None else database.since(database_before)
    begun = max(d.started for d in done)
    ended = min(d.ended for d in done)

    def at(instant):  # the last sample at or before the instant
        return max((s for s in samples if s[0] <= instant), key=lambda s: s[0], default=samples[0])

    (t0, cpu0, machine0), (t1, cpu1, machine1) = at(begun), at(ended)
    outcomes: dict[str, list[str]] = {}
    bodies: dict[str, list[bytes]] = defaultdict(list)
    for d in done:
        outcomes.update(d.outcomes)
        for kind, kept in d.bodies.items():
            bodies[kind] += kept
    return Phase(
        label,
        [row for d in done for row in d.rows],
        max(t1 - t0, 1e-3),
        cpu1 - cpu0,
        sum(d.cpu for d in done),
        None if None in (machine0, machine1) else machine1 - machine0,
        database_cpu,
        outcomes,
        dict(bodies),
        max(d.lag for d in done),
    )


def typical(bodies: list[bytes]) -> bytes | None:
    """The answer of the median size among those kept."""
    if not bodies:
        return None
    return sorted(bodies, key=len)[len(bodies) // 2]
