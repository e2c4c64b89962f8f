"""Benchmark: a share of a 5,000-player day, on the app and on a stored-JSON server beside it.

Run from a checkout: ``.venv/bin/python bench/day.py [--share 0.15] [--seconds 30]
[--database sqlite|postgresql] [--postgres URL]``. Prints figures only.

The day: 5,000 player pages, 300 referee consoles, one live board, 20 entries a second.
``--share`` takes a part of it (0.15: 750 player pages, 45 consoles, 3 entries a second).

Set-up: a fresh database (SQLite, WAL, in a temporary directory; or, with ``--database
postgresql``, the database of ``--postgres``, which is EMPTIED first: give one of your own),
migrated with ``flask db upgrade``; an event of as many characters as player pages
(``--characters`` for another number) with 20 entries each (as bench/scale.py builds it),
each character with its player link; a referee account with a token per console, and an
organiser. Then gunicorn serves it on 127.0.0.1 as ``make run`` does (larp_app/serving.py:
``--workers`` 4 threaded workers of ``--threads`` 4, warmed up before they take requests),
and the load comes from asyncio clients in ``--procs`` processes of this one, each client on
a connection it keeps alive as a phone's browser does, for ``--seconds``. ``--sync`` serves
with sync workers instead, each request on a connection of its own (a sync worker closes
each one). ``--https`` serves over HTTPS as ``make run`` does by default (this machine's
certificate from ``flask tls init``), both servers alike:

- player pages: each polls its character's ``/p/<secret>/live.json`` every 5 s with the ETag
  it holds (static/js/player.js through lib/live.js and lib/api.js ``poll``);
- consoles: each polls its character's ``/api/v1/characters/<id>/state`` every 2 s with its
  ETag (static/js/console/main.js);
- referees' phones: each asks the roster as changes (``?since=``, with its ETag) every 60 s
  (static/js/lib/netbar.js), from a version of the roster fetched at the start, then from
  the version of each answer (static/js/lib/roster.js);
- the board: ``board.json`` every 3 s with its ETag, as static/js/board.js asks it;
- entries: ``20 × share`` a second in all, at random instants (Poisson), each a referee's
  on their console's character through ``/api/v1/sync`` as the phone's outbox sends it.

Every page is loaded once before the timing (its ETag held, as a page open since the morning
holds one); then each client starts at a random instant of its first interval. Printed for
each kind of request: count, p50, p99, max and outcomes; errors (time-outs, refused
connections, 5xx); the server's CPU in cores (the gunicorn processes' CPU time from /proc
over the wall time) and this load generator's; and per request (server CPU over requests
answered).

Then the same load, the same clients and the same instants, against ``bench/stored_json.py``:
a minimal Flask app under the same gunicorn settings that answers each kind with the answer
the app gave (its ETag too, so held tags get a 304), from memory. Its figures and the ratio of
the app's CPU to its own are printed.

Last, unless ``--cost-seconds 0``: the CPU of each kind of request alone, on each server (a
few clients asking only that, back to back): a state unchanged (304) and changed (200), a
player page unchanged and changed, the board unchanged and after a change, an entry; the
ratio app / stored-JSON for each; and an entry into ``bench/bare_insert.py`` under the same
serving (a token looked up, one row inserted and committed as durably as the app's): what
storing a row costs with nothing else done.

The machine may be shared: its load in the second before each phase is printed, and other
work makes every latency pessimistic (the CPU per request much less so).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import ssl
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from statistics import quantiles

import sqlalchemy

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from entries import (
    HOST,
    ROOT,
    cpu_seconds,
    flask_cli,
    free_port,
    load_text,
    machine_busy_seconds,
    reset_postgres,
    server_pids,
    start_server,
    stop_server,
    wait_ready,
)
from scale import build_event
from storm import make_referees, organiser_cookies

# The whole day (the issue's): scaled by --share.
DAY_PLAYERS, DAY_REFEREES, DAY_ENTRIES = 5000, 300, 20.0
# Intervals, as static/js asks: player.js (followLive(live, 5); the page's data-seconds is
# player.POLL_SECONDS), console/main.js (poll(..., 2)), board.js (followLive(live, 3)),
# lib/netbar.js (ROSTER_EVERY_MS = 60_000); time-outs as lib/api.js: max(4 s, 2 × interval).
PLAYER_SECONDS, CONSOLE_SECONDS, BOARD_SECONDS, ROSTER_SECONDS = 5, 2, 3, 60
TIMEOUT_SECONDS = {"player": 10, "console": 4, "board": 6, "roster": 20, "entry": 10}
KINDS = ("player", "console", "board", "roster", "entry")
TARGETS = {"player": 100, "console": 100, "roster": 100, "entry": 100, "board": 250}  # p99 ms


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


# The clients' TLS context over HTTPS (``--https``), else None.
TLS: ssl.SSLContext | None = None


async def fetch(port, method, path, headers, body=None, timeout=10.0):
    """(status, headers, body) of one request on a connection of its own."""

    async def exchange():
        reader, writer = await asyncio.open_connection(HOST, port, ssl=TLS)
        try:
            lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
            lines += [f"{k}: {v}" for k, v in headers.items()]
            if body is not None:
                lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
            data = await reader.read(-1)
        finally:
            writer.close()
        head, _, payload = data.partition(b"\r\n\r\n")
        first, *rest = head.decode("latin-1").split("\r\n")
        answer_headers = {}
        for line in rest:
            name, _, value = line.partition(":")
            answer_headers[name.strip().lower()] = value.strip()
        if "chunked" in answer_headers.get("transfer-encoding", ""):
            payload = dechunk(payload)
        return int(first.split()[1]), answer_headers, payload

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


def now_z() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# --- the clients ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What one load process drives: its share of every kind of client."""

    port: int
    kept_alive: bool  # each client's connection kept alive (else one per request)
    players: list[str]  # secrets
    consoles: list[tuple[str, int]]  # (token, character id)
    board: tuple[int, str] | None  # (event id, the organiser's cookie)
    roster: tuple[str, str] | None  # (version, etag) held at the start
    entries_per_second: float
    seconds: float
    seed: int
    board_since: bool
    held: dict  # what each page holds from its load (prime): key -> {"etag", "version"}


ENTRY_KINDS = (
    {"kind": "hit", "damage": 1, "blows": 1, "pierce": False},
    {"kind": "heal", "amount": 1},
    {"kind": "note", "text": "day"},
    {"kind": "spend_energy", "amount": 1},
    {"kind": "restore_energy", "amount": 1},
)


async def drive(plan: Plan) -> tuple[list, float, float, float]:
    """Every client of the plan, for its seconds: (kind, start, duration, outcome) rows, this
    process's CPU seconds meanwhile, and the instants the timing began and ended. Each
    client's kept connection is opened first, as a phone's that has been open since the
    morning (``--sync``: none is kept)."""
    rows: list[tuple[str, float, float, str]] = []
    started = time.monotonic()
    deadline = started + plan.seconds
    rng = random.Random(plan.seed)
    opened: list = []

    def connect(port):
        made = (KeptAlive if plan.kept_alive else Fresh)(port)
        opened.append(made)
        return made

    async def timed(kind, method, path, headers, body=None, connection=None):
        begun = time.monotonic()
        try:
            status, answer_headers, payload = await connection.request(
                method, path, headers, body, TIMEOUT_SECONDS[kind]
            )
        except TimeoutError:
            rows.append((kind, begun - started, time.monotonic() - begun, "timeout"))
            return None
        except OSError as error:
            rows.append((kind, begun - started, time.monotonic() - begun, type(error).__name__))
            return None
        rows.append((kind, begun - started, time.monotonic() - begun, str(status)))
        return status, answer_headers, payload

    async def every(seconds, ask):
        await asyncio.sleep(min(rng.uniform(0, seconds), max(deadline - time.monotonic(), 0)))
        while time.monotonic() < deadline:
            await ask()
            # After the answer, as lib/api.js's setTimeout; never past the end of the phase.
            await asyncio.sleep(min(seconds, max(deadline - time.monotonic(), 0)))

    def poller(kind, path_of, headers, key):
        held = dict(plan.held.get(key) or {"etag": None})
        connection = connect(plan.port)

        async def ask():
            sent = dict(headers)
            if held["etag"]:
                sent["If-None-Match"] = held["etag"]
            answer = await timed(kind, "GET", path_of(), sent, connection=connection)
            if answer and answer[0] == 200:
                held["etag"] = answer[1].get("etag")
                if kind == "board" and plan.board_since:
                    held["version"] = json.loads(answer[2])["version"]

        ask.held = held
        return ask

    tasks = []
    for secret in plan.players:
        path = f"/p/{secret}/live.json"
        ask = poller("player", lambda p=path: p, {}, path)
        tasks.append(every(PLAYER_SECONDS, ask))
    for token, character in plan.consoles:
        path = f"/api/v1/characters/{character}/state"
        ask = poller("console", lambda p=path: p, {"Authorization": f"Bearer {token}"}, path)
        tasks.append(every(CONSOLE_SECONDS, ask))
    if plan.board:
        event_id, cookie = plan.board
        board_held: dict = {}

        def board_path():
            since = board_held.get("version")
            base = f"/events/{event_id}/board.json"
            return f"{base}?since={since}" if plan.board_since and since else base

        ask = poller("board", board_path, {"Cookie": cookie}, "board")
        board_held = ask.held
        tasks.append(every(BOARD_SECONDS, ask))
    if plan.roster and plan.consoles:
        for token, _character in plan.consoles:
            # As lib/roster.js: what changed since the version held, which each answer moves.
            held = {"version": plan.roster[0], "etag": plan.roster[1]}
            connection = connect(plan.port)

            async def ask(token=token, held=held, connection=connection):
                headers = {"Authorization": f"Bearer {token}", "If-None-Match": held["etag"]}
                path = f"/api/v1/roster?since={held['version']}"
                answer = await timed("roster", "GET", path, headers, connection=connection)
                if answer and answer[0] == 200:
                    held["version"] = json.loads(answer[2])["version"]
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

            async def send(token=token, headers=headers, body=body, connection=connection):
                await timed("entry", "POST", "/api/v1/sync", headers, body.encode(), connection)
                idle[token].append(connection)

            task = asyncio.ensure_future(send())
            pending.add(task)
            task.add_done_callback(pending.discard)
        if pending:
            await asyncio.wait(pending)

    tasks.append(entries())
    gate = asyncio.Semaphore(64)

    async def opening(connection):
        async with gate:
            await connection.open()

    await asyncio.gather(*(opening(c) for c in opened))
    started = time.monotonic()  # the timing begins with every connection open
    deadline = started + plan.seconds
    cpu = time.process_time()
    await asyncio.gather(*tasks)
    return rows, time.process_time() - cpu, started, time.monotonic()


async def prime_pages(port, secrets, consoles, board, board_since) -> dict:
    """Each page loaded once before the day is timed, as it was before the day began: what
    each holds (its ETag; the board's version too)."""
    held: dict = {}
    gate = asyncio.Semaphore(8)

    async def load(key, path, headers):
        async with gate:
            status, answer_headers, payload = await fetch(port, "GET", path, headers, None, 120)
        if status == 200:
            held[key] = {"etag": answer_headers.get("etag")}
            if key == "board" and board_since:
                held[key]["version"] = json.loads(payload)["version"]

    asks = [load(f"/p/{s}/live.json", f"/p/{s}/live.json", {}) for s in secrets]
    for token, character in consoles:
        path = f"/api/v1/characters/{character}/state"
        asks.append(load(path, path, {"Authorization": f"Bearer {token}"}))
    event_id, cookie = board
    asks.append(load("board", f"/events/{event_id}/board.json", {"Cookie": cookie}))
    await asyncio.gather(*asks)
    return held


def run_plan(plan: Plan) -> tuple[list, float, float, float]:
    """In a load process: ``drive``'s rows, CPU seconds and timed span."""
    return asyncio.run(drive(plan))


def split(items: list, parts: int) -> list[list]:
    return [items[n::parts] for n in range(parts)]


@dataclass
class Phase:
    label: str
    rows: list
    seconds: float
    server_cpu: float
    client_cpu: float
    machine_cpu: float | None


def load_phase(label, master, plans: list[Plan], seconds: float) -> Phase:
    """The plans driven at once; the server's and the machine's CPU over the timed span
    (read every 0.1 s: the connections' opening before it is left out)."""
    pids = server_pids(master)
    samples: list[tuple[float, float, float | None]] = []
    stop = threading.Event()

    def sample():
        while True:
            samples.append((time.monotonic(), cpu_seconds(pids), machine_busy_seconds()))
            if stop.wait(0.1):
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with multiprocessing.get_context("fork").Pool(len(plans)) as pool:
        done = pool.map(run_plan, plans)
    stop.set()
    sampler.join()
    begun = max(first for _, _, first, _ in done)
    ended = min(last for _, _, _, last in done)

    def at(instant):  # the last sample at or before the instant
        return max((s for s in samples if s[0] <= instant), key=lambda s: s[0], default=samples[0])

    (t0, cpu0, machine0), (t1, cpu1, machine1) = at(begun), at(ended)
    return Phase(
        label,
        [row for rows, _, _, _ in done for row in rows],
        max(t1 - t0, 1e-3),
        cpu1 - cpu0,
        sum(cpu for _, cpu, _, _ in done),
        None if None in (machine0, machine1) else machine1 - machine0,
    )


# --- figures --------------------------------------------------------------------------------


def good(outcome: str) -> bool:
    return outcome in ("200", "201", "304")


def p(times: list[float], n: int) -> float:
    if len(times) < 2:
        return times[0] if times else float("nan")
    return quantiles(times, n=100, method="inclusive")[n - 1]


def show(phase: Phase) -> dict:
    by_kind = defaultdict(list)
    for kind, _at, took, outcome in phase.rows:
        by_kind[kind].append((took, outcome))
    print(f"  {'request':10}{'count':>7}{'/s':>7}{'p50':>9}{'p99':>9}{'max':>9}  outcomes")
    figures = {}
    for kind in KINDS:
        found = by_kind.get(kind)
        if not found:
            continue
        times = sorted(t for t, _ in found)
        outcomes = defaultdict(int)
        for _, outcome in found:
            outcomes[outcome] += 1
        said = ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()))
        figures[kind] = {"p50": p(times, 50) * 1000, "p99": p(times, 99) * 1000}
        print(
            f"  {kind:10}{len(times):>7}{len(times) / phase.seconds:>7.1f}"
            f"{p(times, 50) * 1000:>7.1f}ms{p(times, 99) * 1000:>7.1f}ms"
            f"{times[-1] * 1000:>7.0f}ms  {said}"
        )
    answered = sum(1 for row in phase.rows if good(row[3]))
    errors = sum(1 for row in phase.rows if not good(row[3]))
    cores = phase.server_cpu / phase.seconds
    per = phase.server_cpu / max(answered, 1) * 1000
    print(
        f"  errors (time-outs, refused, 4xx/5xx): {errors}   answered: {answered}"
        f"   server CPU: {cores:.2f} cores, {per:.2f} ms per request"
        f"   load generator: {phase.client_cpu / phase.seconds:.2f} cores"
    )
    if phase.machine_cpu is not None:
        other = phase.machine_cpu / phase.seconds - cores - phase.client_cpu / phase.seconds
        note = ": the server waited for CPU, latencies are pessimistic" if other > 0.3 else ""
        print(f"  other work on the machine meanwhile: {max(other, 0):.2f} cores{note}")
    figures["cores"], figures["per request"], figures["errors"] = cores, per, errors
    return figures


# --- set-up ---------------------------------------------------------------------------------


def give_player_links(uri: str, characters: list[int]) -> list[str]:
    """A player link for each character: their secrets."""
    from larp_app import create_app, tokens
    from larp_app.extensions import db
    from larp_app.models import Character
    from larp_app.services.badges import give_player_link

    app = create_app({"SQLALCHEMY_DATABASE_URI": uri})
    secrets = []
    with app.app_context():
        for start in range(0, len(characters), 500):
            rows = db.session.scalars(
                sqlalchemy.select(Character).where(
                    Character.id.in_(characters[start : start + 500])
                )
            ).all()
            for character in rows:
                secret = tokens.new_secret()
                give_player_link(character, secret)
                secrets.append(secret)
            db.session.commit()
        db.session.remove()
        db.engine.dispose()
    return secrets


def get(port, path, headers=None):
    return asyncio.run(fetch(port, "GET", path, headers or {}, None, 60))


def sample_answers(port, event_id, character, secret, token, cookie, board_since) -> dict:
    """The app's answer of each kind, with its ETag, for the stored-JSON server."""
    bearer = {"Authorization": f"Bearer {token}"}
    answers = {}
    for kind, path, headers in (
        ("state", f"/api/v1/characters/{character}/state", bearer),
        ("player", f"/p/{secret}/live.json", {}),
        ("board", f"/events/{event_id}/board.json", {"Cookie": cookie}),
        ("roster", f"/api/v1/roster?event={event_id}", bearer),
    ):
        status, headers_, body = get(port, path, headers)
        if status != 200:
            raise RuntimeError(f"{kind}: {status} {body[:300]!r}")
        if kind == "board" and board_since:  # the board polls as changes: a small answer
            version = json.loads(body)["version"]
            status, headers_, body = get(port, f"{path}?since={version}", headers)
        answers[kind] = {"body": body.decode(), "etag": headers_.get("etag")}
    entry = {"id": str(uuid.uuid4()), "at": now_z(), "kind": "note", "text": "day"}
    body = json.dumps({"entries": [{**entry, "character": character, "sent_at": now_z()}]})
    status, _, answer = asyncio.run(fetch(port, "POST", "/api/v1/sync", bearer, body.encode(), 60))
    if status != 200:
        raise RuntimeError(f"sync: {status} {answer[:300]!r}")
    return {"answers": answers, "sync_result": json.loads(answer)["results"][0]}


def roster_held(samples: dict) -> tuple[str, str]:
    """The version and ETag of the whole roster the app gave: what each phone holds (a whole
    roster is a costly read, taken in turns: one is enough)."""
    roster = samples["answers"]["roster"]
    return json.loads(roster["body"])["version"], roster["etag"] or ""


# --- the cost of each kind alone ----------------------------------------------------------


async def cost_loop(port, requests_of, seconds, kept_alive: bool, clients=4):
    """``clients`` clients asking back to back for ``seconds``: answers counted."""
    deadline = time.monotonic() + seconds
    counted = defaultdict(int)

    async def client(n):
        connection = (KeptAlive if kept_alive else Fresh)(port)
        while time.monotonic() < deadline:
            method, path, headers, body = requests_of(n)
            try:
                status, _, _ = await connection.request(method, path, headers, body, 30)
            except (OSError, TimeoutError):
                status = "error"
            counted[str(status)] += 1

    await asyncio.gather(*(client(n) for n in range(clients)))
    return counted


def kind_costs(port, master, context, seconds, kept_alive: bool) -> dict[str, float]:
    """CPU per request (ms) of each kind alone."""
    event_id, characters, secrets, tokens, cookie, etags = context
    bearer = {"Authorization": f"Bearer {tokens[0]}"}

    def entry(n):
        item = {"id": str(uuid.uuid4()), "at": now_z(), **ENTRY_KINDS[n % len(ENTRY_KINDS)]}
        item["character"] = characters[n % len(characters)]
        body = json.dumps({"entries": [{**item, "sent_at": now_z()}]}).encode()
        return "POST", "/api/v1/sync", {"Authorization": f"Bearer {tokens[n % len(tokens)]}"}, body

    state = f"/api/v1/characters/{characters[0]}/state"
    player = f"/p/{secrets[0]}/live.json"
    board = f"/events/{event_id}/board.json"
    kinds = {
        "state, unchanged (304)": lambda n: (
            "GET", state, {**bearer, "If-None-Match": etags["state"]}, None),
        "state, changed (200)": lambda n: ("GET", state, bearer, None),
        "player page, unchanged (304)": lambda n: (
            "GET", player, {"If-None-Match": etags["player"]}, None),
        "player page, changed (200)": lambda n: ("GET", player, {}, None),
        "board, unchanged (304)": lambda n: (
            "GET", board, {"Cookie": cookie, "If-None-Match": etags["board"]}, None),
        "one entry through /sync": entry,
    }  # fmt: skip
    costs = {}
    for name, requests_of in kinds.items():
        pids = server_pids(master)
        before = cpu_seconds(pids)
        counted = asyncio.run(cost_loop(port, requests_of, seconds, kept_alive))
        used = cpu_seconds(pids) - before
        answered = sum(v for k, v in counted.items() if k in ("200", "304"))
        costs[name] = used / max(answered, 1) * 1000
        wrong = {k: v for k, v in counted.items() if k not in ("200", "304")}
        wrong_text = f", {wrong}" if wrong else ""
        print(f"  {name:32}{costs[name]:7.2f} ms CPU  ({answered} answers{wrong_text})")
    return costs


def bare_insert_cost(tmp: Path, uri: str, args, threads: int, tls, procs: list) -> float:
    """CPU per entry (ms) of bench/bare_insert.py under the same serving and clients: what
    storing a row durably costs with nothing else done (its tables beside the app's)."""
    import bare_insert

    token = "bench-bare-token"
    bare_insert.prepare(uri, token)
    port = free_port()
    env = {**os.environ, "BARE_DATABASE_URI": uri, "LARP_WARM_UP": "0"}
    log = tmp / "bare.log"
    proc = start_server(env, port, args.workers, log, "bare_insert:create_app()",
                        ROOT / "bench", threads, tls)  # fmt: skip
    procs.append(proc)
    wait_ready(proc, port, log, "/ready", TLS)
    bearer = {"Authorization": f"Bearer {token}"}

    def entry(n):
        body = json.dumps({"id": str(uuid.uuid4()), "at": now_z(), "kind": "note"}).encode()
        return "POST", f"/characters/{n % 64 + 1}/entries", bearer, body

    pids = server_pids(proc.pid)
    before = cpu_seconds(pids)
    counted = asyncio.run(cost_loop(port, entry, args.cost_seconds, not args.sync))
    used = cpu_seconds(pids) - before
    stop_server(proc)
    procs.remove(proc)
    return used / max(counted.get("201", 0), 1) * 1000


# --- main -----------------------------------------------------------------------------------


def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-day-"))
    procs = []
    try:
        if args.database == "postgresql":
            from larp_app import database_uri

            uri = database_uri(args.postgres, tmp)
            reset_postgres(uri)
            kind = f"PostgreSQL ({args.postgres.rsplit('/', 1)[-1]}, emptied first)"
        else:
            uri = f"sqlite:///{tmp / 'day.sqlite3'}"
            kind = "SQLite (WAL)"
        env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": uri}
        env.pop("DATABASE_URL", None)
        os.environ["LARP_SQLALCHEMY_DATABASE_URI"] = uri
        players = max(1, round(DAY_PLAYERS * args.share))
        referees = max(1, round(DAY_REFEREES * args.share))
        rate = DAY_ENTRIES * args.share
        size = args.characters or players
        flask_cli(env, "db", "upgrade")
        started = time.monotonic()
        event_id, characters = build_event(uri, size)
        secrets = give_player_links(uri, characters)
        tokens = make_referees(uri, referees)
        print(f"built {size:,} characters × 20 entries in {time.monotonic() - started:.0f} s")

        global TLS
        tls = None
        if args.https:  # this machine's certificate, as make run makes it
            env["LARP_TLS_FOLDER"] = str(tmp / "tls")
            flask_cli(env, "tls", "init")
            tls = (tmp / "tls" / "server.pem", tmp / "tls" / "server-key.pem")
            TLS = ssl.create_default_context(cafile=str(tmp / "tls" / "ca.pem"))
            TLS.check_hostname = False  # 127.0.0.1 is in it; no name needed
        port, stored_port = free_port(), free_port()
        log = tmp / "gunicorn.log"
        threads = 0 if args.sync else args.threads
        proc = start_server(env, port, args.workers, log, threads=threads, tls=tls)
        procs.append(proc)
        wait_ready(proc, port, log, context=TLS)
        scheme = "https" if tls else "http"
        if tls:  # the login's own connection: the load's clients check the certificate
            import urllib3

            urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)
        session = organiser_cookies(f"{scheme}://{HOST}:{port}", verify=tls is None)
        cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
        session.close()
        consoles = [(t, characters[(n * 7919) % len(characters)]) for n, t in enumerate(tokens)]
        samples = sample_answers(
            port, event_id, consoles[0][1], secrets[0], tokens[0], cookie, args.board_since
        )
        (tmp / "answers.json").write_text(json.dumps({**samples, "tokens": tokens}))
        stored_env = {**os.environ, "STORED_ANSWERS": str(tmp / "answers.json")}
        stored_env["LARP_WARM_UP"] = "0"  # (serving.py's warm-up is the app's own)
        stored_log = tmp / "stored.log"
        stored = start_server(
            stored_env, stored_port, args.workers, stored_log, "stored_json:create_app()",
            ROOT / "bench", threads, tls,
        )  # fmt: skip
        procs.append(stored)
        wait_ready(stored, stored_port, stored_log, "/ready", TLS)
        held = stored_held = roster_held(samples)

        # Every worker's first view of the event is built before the timing (a warm day).
        for n in range(args.workers * 4):
            get(port, f"/events/{event_id}/board.json", {"Cookie": cookie})
            bearer = {"Authorization": f"Bearer {tokens[n % len(tokens)]}"}
            get(port, f"/api/v1/roster?event={event_id}&since={held[0]}", bearer)

        print(
            f"a {args.share:.0%} share of the day: {players:,} player pages every"
            f" {PLAYER_SECONDS} s, {referees} consoles every {CONSOLE_SECONDS} s (and their"
            f" phones' roster every {ROSTER_SECONDS} s), one board every {BOARD_SECONDS} s"
            f"{' (as changes, ?since=)' if args.board_since else ' (whole)'},"
            f" {rate:g} entries/s; {args.seconds:g} s a server"
        )
        serving = (
            f"-w {args.workers} -k sync, a connection per request"
            if args.sync
            else f"-c python:larp_app.serving -w {args.workers} --threads {args.threads}"
            ", each client's connection kept alive"
        )
        print(
            f"gunicorn {serving}, {'HTTPS, ' if tls else ''}{kind}; cores: {os.cpu_count()};"
            f" load generator: {args.procs} process(es)"
        )

        def plans(to_port, roster):
            held = asyncio.run(
                prime_pages(to_port, secrets, consoles, (event_id, cookie), args.board_since)
            )
            return [
                Plan(
                    to_port,
                    not args.sync,
                    part_players,
                    part_consoles,
                    (event_id, cookie) if n == 0 else None,
                    roster,
                    rate / args.procs,
                    args.seconds,
                    1000 + n,
                    args.board_since,
                    held,
                )
                for n, (part_players, part_consoles) in enumerate(
                    zip(split(secrets, args.procs), split(consoles, args.procs), strict=True)
                )
            ]

        results = {}
        for label, to_port, master, roster in (
            ("larp_app", port, proc.pid, held),
            ("stored-JSON server", stored_port, stored.pid, stored_held),
        ):
            print()
            print(f"{label}: (machine: {load_text()})")
            phase = load_phase(label, master, plans(to_port, roster), args.seconds)
            results[label] = show(phase)
        app, anchor = results["larp_app"], results["stored-JSON server"]
        print()
        print(
            f"CPU per request: larp_app {app['per request']:.2f} ms, stored-JSON"
            f" {anchor['per request']:.2f} ms: ratio"
            f" {app['per request'] / max(anchor['per request'], 1e-9):.1f}×;"
            f" cores {app['cores']:.2f} against {anchor['cores']:.2f}"
        )
        print("targets (issue), p99:")
        for kind, target in TARGETS.items():
            if kind in app:
                value = app[kind]["p99"]
                verdict = "met" if value <= target else "MISSED"
                print(f"  {kind:8} {value:8.1f} ms  target <= {target} ms  {verdict}")
        print(f"  errors   {app['errors']}  target 0")

        if args.cost_seconds > 0:
            state = get(port, f"/api/v1/characters/{consoles[0][1]}/state",
                        {"Authorization": f"Bearer {tokens[0]}"})  # fmt: skip
            player = get(port, f"/p/{secrets[0]}/live.json")
            board = get(port, f"/events/{event_id}/board.json", {"Cookie": cookie})
            etags = {
                "state": state[1].get("etag"),
                "player": player[1].get("etag"),
                "board": board[1].get("etag"),
            }
            stored_etags = {k: v["etag"] for k, v in samples["answers"].items()}
            costs = {}
            for label, to_port, master, tags in (
                ("larp_app", port, proc.pid, etags),
                ("stored-JSON server", stored_port, stored.pid, stored_etags),
            ):
                print()
                print(f"each kind alone, 4 clients back to back, {args.cost_seconds:g} s each:"
                      f" {label}")  # fmt: skip
                context = (event_id, [c for _, c in consoles], secrets, tokens, cookie, tags)
                costs[label] = kind_costs(
                    to_port, master, context, args.cost_seconds, not args.sync
                )
            print()
            print(f"  {'request':32}{'larp_app':>10}{'stored':>10}{'ratio':>8}")
            for name, value in costs["larp_app"].items():
                other = costs["stored-JSON server"][name]
                print(f"  {name:32}{value:8.2f}ms{other:8.2f}ms{value / max(other, 1e-9):7.1f}×")
            bare = bare_insert_cost(tmp, uri, args, threads, tls, procs)
            entry = costs["larp_app"]["one entry through /sync"]
            print(
                f"  one entry into a bare insert     {bare:8.2f}ms  (bench/bare_insert.py: the"
                f" token looked up, one row inserted, committed as the app's database is set);"
                f" larp_app's entry is {entry / max(bare, 1e-9):.1f}× it, the stored-JSON"
                f" server's {costs['stored-JSON server']['one entry through /sync']:.2f}ms"
            )
    finally:
        for proc in procs:
            stop_server(proc)
        if args.logs:  # the servers' request logs, kept
            Path(args.logs).mkdir(parents=True, exist_ok=True)
            for found in tmp.glob("*.log"):
                shutil.copyfile(found, Path(args.logs) / found.name)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--share", type=float, default=0.15, help="of the 5,000-player day (0.15)")
    parser.add_argument("--seconds", type=float, default=30, help="load per server (30)")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--postgres", metavar="URL", default="postgresql://postgres@127.0.0.1:5432/larp_day",
        help="with --database postgresql: this database, EMPTIED first",
    )  # fmt: skip
    parser.add_argument("--characters", type=int, help="characters (as many as player pages)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (4)")
    parser.add_argument(
        "--threads", type=int, default=4, help="threads a worker, as make run serves (4)"
    )
    parser.add_argument("--logs", metavar="DIR", help="keep the servers' logs in DIR")
    parser.add_argument(
        "--https", action="store_true",
        help="over HTTPS, as make run serves (this machine's certificate: flask tls init)",
    )  # fmt: skip
    parser.add_argument(
        "--sync", action="store_true",
        help="sync workers and a connection per request, instead of make run's serving",
    )  # fmt: skip
    parser.add_argument("--procs", type=int, default=1, help="load generator processes (1)")
    parser.add_argument(
        "--cost-seconds", type=float, default=3,
        help="seconds of each kind alone, per server, for its CPU per request (3; 0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--board-whole", dest="board_since", action="store_false",
        help="the board polls whole, not as changes (?since=)",
    )  # fmt: skip
    args = parser.parse_args()
    if not 0 < args.share <= 2:
        parser.error("--share: above 0, at most 2")
    if not 3 <= args.seconds <= 600:
        parser.error("--seconds: 3 to 600")
    if not 1 <= args.procs <= 8 or not 1 <= args.workers <= 32:
        parser.error("--procs: 1 to 8; --workers: 1 to 32")
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a connection for every client
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    run(args)


if __name__ == "__main__":
    main()
