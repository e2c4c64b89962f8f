"""Benchmark: a day of a big event, on the app and on a stored-answer server beside it.

Run from a checkout: ``.venv/bin/python bench/day.py [--day 5000|largest] [--share S]
[--seconds 30] [--database sqlite|postgresql] [--postgres URL]``. Prints figures only, and at
the end a summary table to paste into a note.

The days (``--day``):

- ``5000`` (the default): 5,000 player pages, 300 referee consoles, one live board, 20
  entries a second, answers sent identity (as this benchmark always measured it);
  ``--share`` takes a part of it (0.15, the default: 750 player pages, 45 consoles, 3
  entries a second; 2: 10,000 pages, 600 consoles, 40 entries a second, one board);
- ``largest``: the largest larp on Earth, 10,000 player pages, 600 referee consoles, two
  boards, 40 entries a second, every client asking brotli as phones ask it; ``--share``
  (1, the default) takes a part of it, ``--seconds`` is 120 unless given (every phone asks
  its roster twice: a delta of a whole minute of changes), and the load comes from two
  processes (``--procs``: one would be its own bottleneck at 2,300 requests a second; how
  late each process's event loop woke is printed, since every latency includes it).

``--boards`` and ``--encoding`` (``br``: each client sends Chrome's ``Accept-Encoding:
gzip, deflate, br, zstd``, which the app answers brotli; ``identity``: none) change either.

Set-up: a fresh database (SQLite, WAL, in a temporary directory; or, with ``--database
postgresql``, the database of ``--postgres``, which is EMPTIED first: give one of your own),
migrated with ``flask db upgrade``; an event of as many characters as player pages
(``--characters`` for another number) with 20 entries each, each character with its player
link; a referee account with a token per console, and an organiser per board
(bench/day_setup.py). Then gunicorn serves it on 127.0.0.1 as ``make run`` does
(larp_app/serving.py: ``--workers`` 4 threaded workers of ``--threads`` 4, warmed up before
they take requests), and the load comes from asyncio clients in ``--procs`` processes of this
one, each client on a connection it keeps alive as a phone's browser does, for ``--seconds``
(bench/day_load.py). ``--sync`` serves with sync workers instead, each request on a
connection of its own. ``--https`` serves over HTTPS as ``make run`` does by default (this
machine's certificate from ``flask tls init``), both servers alike:

- player pages: each polls its character's ``/p/<secret>/live.json`` every 5 s with the ETag
  it holds (static/js/player.js through lib/live.js and lib/api.js ``poll``);
- consoles: each polls its character's ``/api/v1/characters/<id>/state`` every 2 s with its
  ETag (static/js/console/main.js);
- referees' phones: each asks the roster as changes (``?since=``, with its ETag) every 60 s
  (static/js/lib/netbar.js), from a version of the roster fetched at the start, then from
  the version of each answer (static/js/lib/roster.js);
- boards: each (an organiser's session of its own) ``board.json`` every 3 s with its ETag,
  as changes since the version it holds, as static/js/board.js asks it;
- entries: ``20 × share`` a second in all (40 on the largest day), at random instants
  (Poisson), each a referee's on their console's character through ``/api/v1/sync`` as the
  phone's outbox sends it.

Every page is loaded once before the timing (its ETag held, as a page open since the morning
holds one); then each client starts at a random instant of its first interval. Printed for
each kind of request: count, p50, p99, max and outcomes; bytes per answer on the wire and
unpacked (and the roster deltas' characters, counted after the load on a random sample of
the answers, bytes per character, and megabytes a minute); errors (time-outs, refused
connections, 4xx/5xx); the server's CPU in cores (its gunicorn processes' CPU time from
/proc over the wall time; on PostgreSQL also its backends') and this load generator's; and
per request.

Then the same load against ``bench/stored_json.py``, the stored-answer server of the same
kind, under the same gunicorn settings and the same clients: it answers each kind with a
body the app gave during its turn (the one of median size among those kept), from memory,
compressed as the app compresses (``--anchor-compression``: ``stored``, compressed once and
served as bytes, the default; or ``per-request``, by Flask-Compress for every answer, as the
app does today), and stores each entry with its own durable commit (SQLite WAL,
``synchronous=FULL``, ``BEGIN IMMEDIATE … COMMIT``; on PostgreSQL an insert and a commit
with ``synchronous_commit`` on), the caller's token known in memory. Each of its clients is
answered a change (200) where the app's had one at the same turn, else the tag it holds
(304): the same mix of answers, the same instants.

Last, unless ``--cost-seconds 0``: the CPU of each kind of request alone, on each server
(bench/day_costs.py): state, player page, board and roster unchanged (304) and changed
(200), and an entry through ``/sync``; the ratio app / stored answer, against the issue's
targets. Over brotli the stored-answer server is measured both ways (compressed once, and per
request). The two servers take turns ``--cost-rounds`` times (2), and each figure is the lowest
of its rounds: this machine's speed moves by a factor of two within the hour. ``--costs-only``
measures these alone, with no day's turns (a few minutes on a kept day), and
``--cost-kinds`` only the kinds whose names hold one of its ;-separated words.

With ``--push``, a third turn: the same day on the app, its player pages and consoles told
of their character's changes by the app's push server (``flask push``, as ``make run``
serves it beside gunicorn: one asyncio process holding every phone's stream of server-sent
events, reading what changed from the database four times a second) and asking their answer
of the app only then, and every ``--push-fallback`` seconds (60, as static/js/lib/api.js) as
a net under the stream; rosters, boards and entries as before. The server's CPU is then
gunicorn's and the push server's; "seen" is, for a console whose character an entry of its
load process changed, the time from that entry's answer to the console holding the new
state, told.

The machine may be shared: its load in the second before each phase is printed, and other
work makes every latency pessimistic (the CPU per request much less so). Its speed moves
more between two runs of the same code than most changes do: to compare two versions of the
code, run them in turn on one day, with ``--keep-day DIR`` (SQLite: the day built once into
DIR and copied from it by every later run) and ``--told-only`` (the told turn alone, about
three minutes a run on the largest day), several times each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import shutil
import signal
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from statistics import quantiles

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import day_load
import stored_json
from day_costs import KINDS as COST_KINDS
from day_costs import Changer, Context, kind_costs
from day_load import (
    BOARD_SECONDS,
    CONSOLE_SECONDS,
    KINDS,
    PHONE_ENCODINGS,
    PLAYER_SECONDS,
    ROSTER_SECONDS,
    DatabaseCpu,
    Phase,
    Plan,
    delta_characters,
    get,
    load_phase,
    prime_pages,
    roster_asked,
    split,
    typical,
)
from day_setup import Built, build_day, roster_held, sample_answers
from entries import (
    HOST,
    ROOT,
    cpu_seconds,
    flask_cli,
    free_port,
    load_text,
    reset_postgres,
    start_server,
    stop_server,
    wait_ready,
)
from storm import organiser_cookies


@dataclass(frozen=True)
class Day:
    players: int
    referees: int
    boards: int
    entries_per_second: float
    encoding: str  # "br" or "identity"
    share: float  # the part of it run unless --share says
    seconds: float  # each server's turn unless --seconds says
    procs: int  # load generator processes unless --procs says


DAYS = {
    "5000": Day(5000, 300, 1, 20.0, "identity", 0.15, 30, 1),
    "largest": Day(10_000, 600, 2, 40.0, "br", 1.0, 120, 2),
}
TARGETS = {"player": 100, "console": 100, "roster": 100, "entry": 100, "board": 250}  # p99 ms
# Which stored answer each kind of the day's requests is.
ANSWER_OF = {"player": "player", "console": "state", "board": "board", "roster": "roster"}
APP, ANCHOR, PUSHED = "larp_app", "stored answer", "larp_app told of changes (push)"


# --- figures --------------------------------------------------------------------------------


def good(outcome: str) -> bool:
    return outcome in ("200", "201", "304")


def p(times: list[float], n: int) -> float:
    if len(times) < 2:
        return times[0] if times else float("nan")
    return quantiles(times, n=100, method="inclusive")[n - 1]


def kilobytes(n: float) -> str:
    return f"{n / 1000:.1f} KB"


def show(phase: Phase) -> dict:
    """Print a phase's figures; return them."""
    by_kind = defaultdict(list)
    for kind, _at, took, outcome, wire, plain in phase.rows:
        by_kind[kind].append((took, outcome, wire, plain))
    print(f"  {'request':10}{'count':>7}{'/s':>7}{'p50':>9}{'p99':>9}{'max':>9}  outcomes")
    figures: dict = {}
    for kind in KINDS:
        found = by_kind.get(kind)
        if not found:
            continue
        times = sorted(row[0] for row in found)
        outcomes = defaultdict(int)
        for row in found:
            outcomes[row[1]] += 1
        said = ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()))
        figures[kind] = {"p50": p(times, 50) * 1000, "p99": p(times, 99) * 1000}
        print(
            f"  {kind:10}{len(times):>7}{len(times) / phase.seconds:>7.1f}"
            f"{p(times, 50) * 1000:>7.1f}ms{p(times, 99) * 1000:>7.1f}ms"
            f"{times[-1] * 1000:>7.0f}ms  {said}"
        )
    print(f"  {'answers (200)':24}{'on the wire':>14}{'unpacked':>12}{'a minute, wire':>17}")
    for kind in KINDS:
        if kind == "seen":  # not a request: a change told, and its answer held
            continue
        full = [row for row in by_kind.get(kind, ()) if row[1] in ("200", "201")]
        if not full:
            continue
        wire = sum(row[2] for row in full)
        plain = sum(row[3] for row in full)
        per_minute = wire / phase.seconds * 60
        print(
            f"  {kind:24}{kilobytes(wire / len(full)):>14}{kilobytes(plain / len(full)):>12}"
            f"{per_minute / 1e6:>14.2f} MB"
        )
        figures.setdefault(kind, {})["wire per minute"] = per_minute
        if kind == "roster":
            kept = phase.bodies.get("roster", [])
            each = delta_characters(kept)
            if each:
                characters = each * len(full)
                figures["roster"]["delta"] = (each, plain / characters, wire / characters)
                print(
                    f"    a roster delta: {each:,.0f} characters (on {len(kept)}"
                    f" answers kept); {kilobytes(plain / characters)} a character unpacked,"
                    f" {kilobytes(wire / characters)} on the wire"
                )
    requests = [row for row in phase.rows if row[0] != "seen"]
    answered = sum(1 for row in requests if good(row[3]))
    errors = sum(1 for row in requests if not good(row[3]))
    cores = phase.server_cpu / phase.seconds
    base = (phase.database_cpu or 0.0) / phase.seconds
    per = (phase.server_cpu + (phase.database_cpu or 0.0)) / max(answered, 1) * 1000
    said = "" if phase.database_cpu is None else f" + PostgreSQL {base:.2f}"
    print(
        f"  errors (time-outs, refused, 4xx/5xx): {errors}   answered: {answered}"
        f"   server CPU: {cores:.2f} cores{said}, {per:.2f} ms per request"
        f"   load generator: {phase.client_cpu / phase.seconds:.2f} cores, its event loop"
        f" late by {phase.lag * 1000:.0f} ms at p99 (in every latency)"
    )
    if phase.machine_cpu is not None:
        other = phase.machine_cpu / phase.seconds - cores - base - phase.client_cpu / phase.seconds
        note = ": the server waited for CPU, latencies are pessimistic" if other > 0.3 else ""
        print(f"  other work on the machine meanwhile: {max(other, 0):.2f} cores{note}")
    figures["cores"], figures["per request"], figures["errors"] = cores + base, per, errors
    figures["entries stored"] = sum(1 for row in by_kind.get("entry", ()) if row[1] == "200")
    return figures


# --- the stored-answer server ---------------------------------------------------------------


@dataclass
class Anchor:
    """How the stored-answer server is served: what it knows, where it stores."""

    tmp: Path
    store: str  # sqlite:///... or postgresql://...
    tokens: list[str]
    secrets: list[str]
    cookies: list[str]
    sync_answer: dict
    workers: int
    threads: int
    tls: tuple | None
    procs: list

    def start(self, answers: dict, compression: str, name: str):
        """Serve ``answers`` ({kind: {"body", "etag"}}) on a port of its own: (port, proc)."""
        stored_json.prepare(self.store)
        path = self.tmp / f"{name}.json"
        path.write_text(
            json.dumps(
                {
                    "answers": answers,
                    "sync_answer": self.sync_answer,
                    "tokens": self.tokens,
                    "secrets": self.secrets,
                    "cookies": self.cookies,
                    "store": self.store,
                    "compression": compression,
                    "connections": max(self.threads, 1),
                }
            )
        )
        env = {**os.environ, "STORED_ANSWERS": str(path)}
        env["LARP_WARM_UP"] = "0"  # (serving.py's warm-up is the app's own)
        port, log = free_port(), self.tmp / f"{name}.log"
        proc = start_server(
            env,
            port,
            self.workers,
            log,
            "stored_json:create_app()",
            ROOT / "bench",
            self.threads,
            self.tls,
        )
        self.procs.append(proc)
        wait_ready(proc, port, log, "/ready", day_load.TLS)
        return port, proc

    def stop(self, proc) -> None:
        stop_server(proc)
        self.procs.remove(proc)


def lowest(rounds: list[dict]) -> dict:
    """Each kind's figure (CPU per answer, the database's part) of the round it was lowest."""
    return {name: min((found[name] for found in rounds), key=lambda f: f[0]) for name in rounds[0]}


def answers_from(bodies: dict[str, bytes | None], samples: dict) -> dict:
    """The stored answers: each kind's body from ``bodies`` (the app's, during the same
    turn), else the sample taken before the day; the sample's ETag."""
    answers = {}
    for kind, sample in samples["answers"].items():
        body = bodies.get(kind)
        answers[kind] = {
            "body": body.decode() if body else sample["body"],
            "etag": sample["etag"] or f'W/"stored.{kind}"',
        }
    return answers


# --- the run --------------------------------------------------------------------------------


def wait_listening(port: int, proc, log: Path, seconds: float = 60) -> None:
    """Once something listens on ``port`` (``proc`` still running), or fail saying its log."""
    import socket

    ends = time.monotonic() + seconds
    while time.monotonic() < ends and proc.poll() is None:
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the push server did not listen on {port}: {log.read_text()[-2000:]}")


def code_version() -> str:
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        return done.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def cost_kinds(words: str | None) -> tuple:
    """The cost phase's kinds whose names hold one of ``words`` (;-separated: the kinds'
    names hold commas); every kind without them."""
    if not words:
        return COST_KINDS
    asked = [w.strip() for w in words.split(";") if w.strip()]
    return tuple(k for k in COST_KINDS if any(w in k.name for w in asked))


def keep_day(database: Path, built: Built, folder: Path) -> None:
    """The day just built (its SQLite database, copied whole, and what ``build_day`` said of
    it) kept in ``folder`` for later runs (``--keep-day``)."""
    folder.mkdir(parents=True, exist_ok=True)
    source, copy = sqlite3.connect(database), sqlite3.connect(folder / "day.sqlite3")
    try:
        source.backup(copy)
    finally:
        copy.close()
        source.close()
    (folder / "built.json").write_text(json.dumps(asdict(built)))
    print(f"the day kept in {folder} for later runs", flush=True)


class DayRun:
    """One run: the set-up, the day on each server, each kind alone, the summary."""

    def __init__(self, args):
        self.args = args
        self.day = day = DAYS[args.day]
        self.share = args.share if args.share is not None else day.share
        self.seconds = args.seconds if args.seconds is not None else day.seconds
        self.boards = args.boards if args.boards is not None else day.boards
        self.encodings = PHONE_ENCODINGS if (args.encoding or day.encoding) == "br" else None
        self.players = max(1, round(day.players * self.share))
        self.referees = max(1, round(day.referees * self.share))
        self.rate = day.entries_per_second * self.share
        self.threads = 0 if args.sync else args.threads
        self.tmp = Path(tempfile.mkdtemp(prefix="larp-bench-day-"))
        self.procs: list = []
        self.began = time.monotonic()
        self.results: dict = {}
        self.costs: dict = {}
        self.cost_kinds = cost_kinds(args.cost_kinds)

    def run(self) -> None:
        try:
            self.set_up()
            self.serve()
            self.describe()
            if self.args.told_only:
                self.push_phase()
                return
            if self.args.costs_only:
                self.cost_phase()
                return
            self.day_phases()
            if self.args.cost_seconds > 0:
                self.cost_phase()
            self.summary()
        finally:
            for proc in self.procs:
                stop_server(proc)
            if self.args.logs:  # the servers' request logs, kept
                Path(self.args.logs).mkdir(parents=True, exist_ok=True)
                for found in self.tmp.glob("*.log"):
                    shutil.copyfile(found, Path(self.args.logs) / found.name)
            shutil.rmtree(self.tmp, ignore_errors=True)

    # --- set-up -------------------------------------------------------------------------

    def set_up(self) -> None:
        args, tmp = self.args, self.tmp
        if args.database == "postgresql":
            from larp_app import database_uri

            self.uri = database_uri(args.postgres, tmp)
            reset_postgres(self.uri)
            self.served_by = f"PostgreSQL ({args.postgres.rsplit('/', 1)[-1]}, emptied first)"
            self.store, self.database = args.postgres, DatabaseCpu(args.postgres)
        else:
            self.uri = f"sqlite:///{tmp / 'day.sqlite3'}"
            self.served_by = "SQLite (WAL)"
            self.store, self.database = f"sqlite:///{tmp / 'stored.sqlite3'}", DatabaseCpu(None)
        self.env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": self.uri}
        self.env.pop("DATABASE_URL", None)
        os.environ["LARP_SQLALCHEMY_DATABASE_URI"] = self.uri
        size = args.characters or self.players
        kept = Path(args.keep_day) if args.keep_day else None
        if kept is not None and (kept / "built.json").exists():
            shutil.copyfile(kept / "day.sqlite3", tmp / "day.sqlite3")
            flask_cli(self.env, "db", "upgrade")  # the code run may be newer than the day
            self.built = built = Built(**json.loads((kept / "built.json").read_text()))
            if (len(built.characters), len(built.tokens)) != (size, self.referees):
                raise SystemExit(
                    f"the day kept in {kept} has {len(built.characters):,} characters and"
                    f" {len(built.tokens)} consoles; this run asks {size:,} and"
                    f" {self.referees}: keep it in another folder"
                )
            print(f"the day kept in {kept}: {len(built.characters):,} characters", flush=True)
        else:
            flask_cli(self.env, "db", "upgrade")
            self.built = built = build_day(self.uri, size, self.referees, self.boards)
            print(
                f"built {size:,} characters × 20 entries, {self.referees} referees,"
                f" {self.boards} organiser(s) in {built.seconds:.0f} s",
                flush=True,
            )
            if kept is not None:
                keep_day(tmp / "day.sqlite3", built, kept)
        characters = built.characters
        self.consoles = [
            (t, characters[(n * 7919) % len(characters)]) for n, t in enumerate(built.tokens)
        ]

    def serve(self) -> None:
        """The app served, its organisers logged in, a first answer of each kind, every
        worker's views built."""
        args, tmp, built = self.args, self.tmp, self.built
        started = time.monotonic()
        self.tls = None
        if args.https:  # this machine's certificate, as make run makes it
            self.env["LARP_TLS_FOLDER"] = str(tmp / "tls")
            flask_cli(self.env, "tls", "init")
            self.tls = (tmp / "tls" / "server.pem", tmp / "tls" / "server-key.pem")
            day_load.TLS = ssl.create_default_context(cafile=str(tmp / "tls" / "ca.pem"))
            day_load.TLS.check_hostname = False  # 127.0.0.1 is in it; no name needed
            import urllib3  # the login's own connection: the load's clients check it

            urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)
        self.port, log = free_port(), tmp / "gunicorn.log"
        self.proc = start_server(
            self.env, self.port, args.workers, log, threads=self.threads, tls=self.tls
        )
        self.procs.append(self.proc)
        wait_ready(self.proc, self.port, log, context=day_load.TLS)
        base = f"{'https' if self.tls else 'http'}://{HOST}:{self.port}"
        self.cookies = []
        for n in range(self.boards):  # each board an organiser's session of its own
            session = organiser_cookies(base, self.tls is None, n)
            self.cookies.append("; ".join(f"{k}={v}" for k, v in session.cookies.items()))
            session.close()
        self.board_list = [
            (f"board:{n}", built.event_id, cookie) for n, cookie in enumerate(self.cookies)
        ]
        self.samples = self.sample_answers()
        self.held = roster_held(self.samples)
        # Every worker's first view of the event is built before the timing (a warm day).
        for n in range(args.workers * 4):
            get(self.port, f"/events/{built.event_id}/board.json", {"Cookie": self.cookies[0]})
            bearer = {"Authorization": f"Bearer {built.tokens[n % len(built.tokens)]}"}
            asked = roster_asked(self.held[0], self.held[2])
            get(self.port, asked.replace("?", f"?event={built.event_id}&"), bearer)
        print(f"served and warmed in {time.monotonic() - started:.0f} s", flush=True)
        self.anchor = Anchor(
            tmp,
            self.store,
            built.tokens,
            built.secrets,
            self.cookies,
            self.samples["sync_answer"],
            args.workers,
            self.threads,
            self.tls,
            self.procs,
        )

    def sample_answers(self) -> dict:
        """A first answer of each kind from the app, as of now (the roster held with it)."""
        built = self.built
        return sample_answers(
            self.port,
            built.event_id,
            self.consoles[0][1],
            built.secrets[0],
            built.tokens[0],
            self.cookies[0],
            self.args.board_since,
            self.encodings,
        )

    def describe(self) -> None:
        args, encodings = self.args, self.encodings
        print(
            f"{'the largest day' if args.day == 'largest' else 'the 5,000-player day'},"
            f" a {self.share:.0%} share: {self.players:,} player pages every {PLAYER_SECONDS} s,"
            f" {self.referees} consoles every {CONSOLE_SECONDS} s (and their phones' roster"
            f" every {ROSTER_SECONDS} s), {self.boards} board(s) every {BOARD_SECONDS} s"
            f"{' (as changes, ?since=)' if args.board_since else ' (whole)'},"
            f" {self.rate:g} entries/s; {self.seconds:g} s a server;"
            f" {'brotli asked (Accept-Encoding: ' + encodings + ')' if encodings else 'identity'}"
        )
        serving = (
            f"-w {args.workers} -k sync, a connection per request"
            if args.sync
            else f"-c python:larp_app.serving -w {args.workers} --threads {args.threads}"
            ", each client's connection kept alive"
        )
        print(
            f"gunicorn {serving}, {'HTTPS, ' if self.tls else ''}{self.served_by};"
            f" cores: {os.cpu_count()}; load generator: {args.procs} process(es)"
        )
        compressed = (
            "per request" if args.anchor_compression == "per-request" else ("once, served as bytes")
        )
        committed = "SQLite WAL, synchronous=FULL, BEGIN IMMEDIATE … COMMIT"
        if self.store.startswith("postgresql"):
            committed = "PostgreSQL, a commit each, synchronous_commit on"
        print(
            f"{ANCHOR}: the app's bodies from memory, compressed {compressed}"
            f"{'' if encodings else ' (none asked)'}; each entry committed durably ({committed})"
        )

    # --- the day ------------------------------------------------------------------------

    def plans(self, port: int, roster: tuple, replay: dict | None) -> list[Plan]:
        """Each load process's clients, every page loaded once first (untimed)."""
        args, built = self.args, self.built
        started = time.monotonic()
        primed = asyncio.run(
            prime_pages(
                port,
                built.secrets,
                self.consoles,
                self.board_list,
                args.board_since,
                self.encodings,
            )
        )
        print(f"  every page loaded once in {time.monotonic() - started:.0f} s", flush=True)
        return [
            Plan(
                port,
                not args.sync,
                players,
                consoles,
                self.board_list if n == 0 else [],
                roster,
                self.rate / args.procs,
                self.seconds,
                1000 + n,
                args.board_since,
                primed,
                self.encodings,
                replay,
            )
            for n, (players, consoles) in enumerate(
                zip(split(built.secrets, args.procs), split(self.consoles, args.procs), strict=True)
            )
        ]

    def day_phases(self) -> None:
        """The day on the app, then on the stored-answer server with the app's bodies, each
        client answered a change where the app's had one."""
        print()
        print(f"{APP}: (machine: {load_text()})")
        app_phase = load_phase(
            APP, self.proc.pid, self.plans(self.port, self.held, None), self.seconds, self.database
        )
        self.results[APP] = show(app_phase)

        bodies = {ANSWER_OF[k]: typical(v) for k, v in app_phase.bodies.items() if k in ANSWER_OF}
        answers = answers_from(bodies, self.samples)
        port, stored = self.anchor.start(answers, self.args.anchor_compression, "stored-day")
        held = roster_held({"answers": answers})
        print()
        print(f"{ANCHOR}: (machine: {load_text()})")
        anchor_phase = load_phase(
            ANCHOR,
            stored.pid,
            self.plans(port, held, app_phase.outcomes),
            self.seconds,
            self.database,
        )
        self.results[ANCHOR] = show(anchor_phase)
        durable = stored_json.stored_count(self.store)
        print(
            f"  entries stored, each with its own durable commit: {durable:,}"
            f" ({self.results[ANCHOR]['entries stored']:,} answered 200)"
        )
        self.anchor.stop(stored)
        if self.args.push:
            self.push_phase()

        app, other = self.results[APP], self.results[ANCHOR]
        print()
        print(
            f"CPU per request: {APP} {app['per request']:.2f} ms, {ANCHOR}"
            f" {other['per request']:.2f} ms: ratio"
            f" {app['per request'] / max(other['per request'], 1e-9):.1f}×;"
            f" cores {app['cores']:.2f} against {other['cores']:.2f}"
        )
        print("targets (issue), p99:")
        for kind, target in TARGETS.items():
            if "p99" in app.get(kind, {}):
                value = app[kind]["p99"]
                verdict = "met" if value <= target else "MISSED"
                print(f"  {kind:8} {value:8.1f} ms  target <= {target} ms  {verdict}")
        print(f"  errors   {app['errors']}  target 0")

    def push_phase(self) -> None:
        """The day on the app again, its player pages and consoles told of changes by the
        push server (flask push) instead of polling (each still polls every --push-fallback
        seconds)."""
        args = self.args
        port, log = free_port(), self.tmp / "push.log"
        flask = str(Path(sys.executable).parent / "flask")
        with open(log, "wb") as written:
            push = subprocess.Popen(
                [flask, "--app", "larp_app", "push", "--host", HOST, "--port", str(port)],
                cwd=ROOT,
                env=self.env,
                stdout=written,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_listening(port, push, log)
            # The roster held as of now, as for the app's own turn.
            samples = self.sample_answers()
            plans = [
                replace(plan, push_port=port, fallback=args.push_fallback)
                for plan in self.plans(self.port, roster_held(samples), None)
            ]
            print()
            print(f"{PUSHED}: (machine: {load_text()})")
            before = cpu_seconds([push.pid])
            phase = load_phase(
                PUSHED, self.proc.pid, plans, self.seconds, self.database, also=[push.pid]
            )
            figures = show(phase)
            figures["push cores"] = (cpu_seconds([push.pid]) - before) / phase.seconds
            figures["requests"] = sum(1 for row in phase.rows if row[0] != "seen") / phase.seconds
            self.results[PUSHED] = figures
        finally:
            push.terminate()
            push.wait(timeout=30)
        polled = self.results.get(APP)
        print(
            f"  push server: {figures['push cores']:.2f} cores (in the server's);"
            f" server cores {figures['cores']:.2f} told"
            + (f" against {polled['cores']:.2f} polling" if polled else "")
        )

    # --- each kind alone ----------------------------------------------------------------

    def cost_phase(self) -> None:
        """Each kind alone on the app, then on the stored-answer server given the app's
        bodies (compressed both ways over brotli), ``--cost-rounds`` times in turn: each
        figure is the lowest of its rounds (what this machine's other tenants add to a CPU
        figure is never less than nothing, and it moves by a factor of two within the hour:
        the two servers' figures of a round are minutes apart)."""
        args, built = self.args, self.built
        secret_of = dict(zip(built.characters, built.secrets, strict=True))
        characters = list(dict.fromkeys(c for _, c in self.consoles))

        def context(roster_version, roster_kits):
            return Context(
                built.event_id,
                characters,
                secret_of,
                built.tokens,
                self.cookies[0],
                roster_version,
                roster_kits,
                self.encodings,
                tuple(built.characters),
            )

        modes = [args.anchor_compression]
        if self.encodings:
            modes += [m for m in stored_json.COMPRESSIONS if m != args.anchor_compression]
        rounds: dict = {APP: [], **{mode: [] for mode in modes}}
        for turn in range(1, args.cost_rounds + 1):
            print()
            print(
                f"each kind alone, 4 clients back to back, {args.cost_seconds:g} s each, round"
                f" {turn} of {args.cost_rounds}: {APP} (machine: {load_text()})"
            )
            changer = Changer(self.uri)
            try:
                app_costs, bodies = kind_costs(
                    self.port,
                    self.proc.pid,
                    context(self.held[0], self.held[2]),
                    args.cost_seconds,
                    not args.sync,
                    changer,
                    self.database,
                    self.cost_kinds,
                )
            finally:
                changer.close()
            rounds[APP].append(app_costs)
            answers = answers_from(bodies, self.samples)
            for mode in modes:
                label = f"{ANCHOR}, compressed {'once' if mode == 'stored' else 'per request'}"
                port, stored = self.anchor.start(answers, mode, f"stored-{mode}")
                print()
                print(f"each kind alone: {label} (machine: {load_text()})")
                version, _etag, kits = roster_held({"answers": answers})
                rounds[mode].append(
                    kind_costs(
                        port,
                        stored.pid,
                        context(version, kits),
                        args.cost_seconds,
                        not args.sync,
                        None,
                        self.database,
                        self.cost_kinds,
                    )[0]
                )
                self.anchor.stop(stored)
        costs = {server: lowest(found) for server, found in rounds.items()}
        print()
        lowest_of = f", the lowest of {args.cost_rounds} rounds" if args.cost_rounds > 1 else ""
        print(f"CPU per answer{lowest_of}:")
        header = f"  {'request':32}{APP:>10}{'stored':>10}{'ratio':>8}"
        if len(modes) > 1:
            header += f"{'stored, compressed per request':>32}"
        print(header)
        for name, (value, _) in costs[APP].items():
            other = costs[modes[0]][name][0]
            line = f"  {name:32}{value:8.2f}ms{other:8.2f}ms{value / max(other, 1e-9):7.1f}×"
            if len(modes) > 1:
                line += f"{costs[modes[1]][name][0]:30.2f}ms"
            print(line)
        self.costs = {"app": costs[APP], "anchor": costs[modes[0]], "mode": modes[0]}

    # --- the summary --------------------------------------------------------------------

    def summary(self) -> None:
        """A table to paste into a note: p99 per kind, errors, cores, bytes, CPU ratios."""
        app, other, costs = self.results[APP], self.results[ANCHOR], self.costs
        took = (time.monotonic() - self.began) / 60
        print()
        print(
            f"summary (paste into a note): {self.players:,} players, {self.referees} consoles,"
            f" {self.boards} board(s), {self.rate:g} entries/s, {self.seconds:g} s a server;"
            f" {self.served_by}; {'brotli' if self.encodings else 'identity'};"
            f" {os.cpu_count()} cores ({platform.processor() or platform.machine()});"
            f" code {code_version()}; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC;"
            f" the whole run {took:.0f} min"
        )
        print()
        print(f"| figure | {APP} | {ANCHOR} | target | |")
        print("|---|---:|---:|---|---|")
        for name, target in TARGETS.items():
            if "p99" not in app.get(name, {}):
                continue
            value = app[name]["p99"]
            theirs = other.get(name, {}).get("p99", float("nan"))
            verdict = "met" if value <= target else "**missed**"
            print(f"| {name} p99 | {value:.0f} ms | {theirs:.0f} ms | ≤ {target} ms | {verdict} |")
        verdict = "met" if app["errors"] == 0 else "**missed**"
        print(f"| errors | {app['errors']} | {other['errors']} | 0 | {verdict} |")
        print(f"| server cores | {app['cores']:.2f} | {other['cores']:.2f} | | |")
        print(
            f"| CPU per request, the day | {app['per request']:.2f} ms |"
            f" {other['per request']:.2f} ms | | |"
        )
        if "delta" in app.get("roster", {}):
            count, plain, wire = app["roster"]["delta"]
            print(
                f"| roster delta | {count:,.0f} characters, {kilobytes(plain)} a character"
                f" ({kilobytes(wire)} on the wire) | | ~1.1 KB a character | |"
            )
        for name in KINDS:
            mine = app.get(name, {}).get("wire per minute")
            if mine is not None:
                theirs = other.get(name, {}).get("wire per minute", 0)
                print(
                    f"| {name} on the wire | {mine / 1e6:.2f} MB/min |"
                    f" {theirs / 1e6:.2f} MB/min | | |"
                )
        if not costs:
            self.push_summary()
            return
        for cost in self.cost_kinds:
            mine, theirs = costs["app"][cost.name][0], costs["anchor"][cost.name][0]
            ratio = mine / max(theirs, 1e-9)
            target, verdict = "", ""
            if cost.target:
                target = f"≤ {cost.target:g}×"
                verdict = "met" if ratio <= cost.target else "**missed**"
            print(
                f"| CPU: {cost.name} | {mine:.2f} ms | {theirs:.2f} ms ({ratio:.1f}×) |"
                f" {target} | {verdict} |"
            )
        mode = "compressed once" if costs["mode"] == "stored" else "compressed per request"
        whose = ", gunicorn's and PostgreSQL's" if self.database.url else ""
        print()
        print(
            f"(the stored answer {mode}; CPU per answer of each kind alone, 4 clients back"
            f" to back{whose}, the lowest of {self.args.cost_rounds} round(s))"
        )
        self.push_summary()

    def push_summary(self) -> None:
        """With --push: the day told of changes beside the day polled, in a table of its own."""
        told = self.results.get(PUSHED)
        if told is None:
            return
        app, other = self.results[APP], self.results[ANCHOR]
        print()
        print(f"| figure | told (push) | polled | {ANCHOR}, polled | target |")
        print("|---|---:|---:|---:|---|")
        for name, target in TARGETS.items():
            if "p99" in told.get(name, {}):
                mine = told[name]["p99"]
                polled = app.get(name, {}).get("p99", float("nan"))
                theirs = other.get(name, {}).get("p99", float("nan"))
                print(
                    f"| {name} p99 | {mine:.0f} ms | {polled:.0f} ms | {theirs:.0f} ms |"
                    f" ≤ {target} ms |"
                )
        if "seen" in told:
            print(
                f"| an entry sent → its console holding it, p50 / p99 |"
                f" {told['seen']['p50']:.0f} / {told['seen']['p99']:.0f} ms |"
                f" entry + ~{CONSOLE_SECONDS / 2:g} s / entry + {CONSOLE_SECONDS} s | | |"
            )
        print(f"| errors | {told['errors']} | {app['errors']} | {other['errors']} | 0 |")
        print(
            f"| server cores | {told['cores']:.2f} (push server {told['push cores']:.2f}) |"
            f" {app['cores']:.2f} | {other['cores']:.2f} | |"
        )
        print(f"| requests a second | {told['requests']:.0f} | | | |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--day",
        choices=sorted(DAYS),
        default="5000",
        help="the 5,000-player day (5000, the default) or the largest: 10,000 players,"
        " 600 consoles, two boards, 40 entries/s, brotli",
    )
    parser.add_argument(
        "--share", type=float, help="of the day (0.15 of the 5,000-player day; 1 of the largest)"
    )
    parser.add_argument(
        "--seconds", type=float, help="load per server (30; 120 on the largest day)"
    )
    parser.add_argument("--boards", type=int, help="boards (1; 2 on the largest day)")
    parser.add_argument(
        "--encoding",
        choices=("br", "identity"),
        help="what every client accepts: br as phones ask (the largest day's) or identity"
        " (the 5,000-player day's, as it was always measured)",
    )
    parser.add_argument(
        "--anchor-compression",
        choices=stored_json.COMPRESSIONS,
        default="stored",
        help="the stored answer compressed once and served as bytes (stored, the default) or"
        " for every answer as the app does (per-request)",
    )
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--postgres",
        metavar="URL",
        default="postgresql://postgres@127.0.0.1:5432/larp_day",
        help="with --database postgresql: this database, EMPTIED first",
    )
    parser.add_argument("--characters", type=int, help="characters (as many as player pages)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (4)")
    parser.add_argument(
        "--threads", type=int, default=4, help="threads a worker, as make run serves (4)"
    )
    parser.add_argument("--logs", metavar="DIR", help="keep the servers' logs in DIR")
    parser.add_argument(
        "--https",
        action="store_true",
        help="over HTTPS, as make run serves (this machine's certificate: flask tls init)",
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="sync workers and a connection per request, instead of make run's serving",
    )
    parser.add_argument(
        "--procs", type=int, help="load generator processes (1; 2 on the largest day)"
    )
    parser.add_argument(
        "--cost-seconds",
        type=float,
        default=3,
        help="seconds of each kind alone, per server, for its CPU per request (3; 0: none)",
    )
    parser.add_argument(
        "--cost-rounds",
        type=int,
        default=2,
        help="rounds of each kind alone on each server, in turn; each figure the lowest (2)",
    )
    parser.add_argument(
        "--board-whole",
        dest="board_since",
        action="store_false",
        help="the board polls whole, not as changes (?since=)",
    )
    parser.add_argument(
        "--push",
        action="store_true",
        help="a third turn: player pages and consoles told of changes by the push server"
        " (flask push) instead of polling",
    )
    parser.add_argument(
        "--costs-only",
        action="store_true",
        help="each kind alone, on the app and the stored-answer server: no day's turns",
    )
    parser.add_argument(
        "--cost-kinds",
        metavar="WORDS",
        help="only the cost kinds whose names hold one of these ;-separated words"
        " (e.g. 'player page, changed (200);one entry')",
    )
    parser.add_argument(
        "--told-only",
        action="store_true",
        help="the told (push) turn alone: no polled turns, no stored answer, no costs",
    )
    parser.add_argument(
        "--keep-day",
        metavar="DIR",
        help="SQLite: build the day into DIR the first time, copy it from there later",
    )
    parser.add_argument(
        "--push-fallback",
        type=float,
        default=60,
        help="with --push: seconds between two polls of a page told of changes (60)",
    )
    args = parser.parse_args()
    day = DAYS[args.day]
    share = args.share if args.share is not None else day.share
    if not 0 < share * day.players <= 10_000:
        parser.error("--share: above 0, at most 10,000 players (2 of the 5,000-player day)")
    if args.seconds is not None and not 3 <= args.seconds <= 600:
        parser.error("--seconds: 3 to 600")
    if args.boards is not None and not 1 <= args.boards <= 8:
        parser.error("--boards: 1 to 8")
    if args.procs is None:
        args.procs = day.procs
    if args.keep_day and args.database != "sqlite":
        parser.error("--keep-day: SQLite only (PostgreSQL's database is emptied at each run)")
    if not 1 <= args.cost_rounds <= 5:
        parser.error("--cost-rounds: 1 to 5")
    if args.costs_only and (args.told_only or args.cost_seconds <= 0):
        parser.error("--costs-only: with some --cost-seconds, and not with --told-only")
    if not cost_kinds(args.cost_kinds):
        names = "; ".join(k.name for k in COST_KINDS)
        parser.error(f"--cost-kinds: none of the kinds ({names}) holds {args.cost_kinds!r}")
    if not 1 <= args.procs <= 8 or not 1 <= args.workers <= 32:
        parser.error("--procs: 1 to 8; --workers: 1 to 32")
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a connection for every client
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    DayRun(args).run()


if __name__ == "__main__":
    main()
