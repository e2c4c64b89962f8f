"""Each kind of request of ``bench/day.py`` alone, on each server: its CPU per answer.

Four clients ask back to back for a few seconds, each on its connection kept alive and with
its own referee's token and characters (the day's consoles', shared out); the server's CPU
(and its PostgreSQL backends', if any) over the answers is the figure. A kind is asked as
the day's clients ask it:

- unchanged (304): with the tag of the answer the client holds;
- changed (200): on the app, each ask comes after a note logged on its character beside the
  server (in this process, stored as another worker stores a referee's note: ``Changer``),
  so the app finds the change from the database and folds, renders and compresses the new
  answer. A state or a player page is asked of each of ``CYCLE`` characters in turn after
  one commit changed them all, so that the clients ask back to back as the stored-answer
  server's do: one change a request, each waited for, left the workers idle between
  requests, and an idle worker's wake-up costs as much CPU again as a stored answer
  (measured: the stored-answer server asked at that pace, 0.82 ms an answer against 0.45 ms
  back to back). The board and the roster are asked after each change, as
  changes since the version held (``?since=``). On the stored-answer server the tag held is
  one it never gave, and it answers its body;
- changed across the event: as changed, on more characters than a worker keeps parsed
  (``SPREAD`` a client, none of them asked before), as a day's player pages each follow
  their own character;
- a state asked without a tag (200): nothing changed, the same answer made again (what this
  benchmark once called a changed state);
- an entry through ``/sync``, one a request, hits and heals, notes, energy spent and
  restored in turn, each client on its own characters.

The app's last answer of each kind is brought back: the stored-answer server is then started
with those very bodies.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime

from day_load import ENTRY_KINDS, STALE, Fresh, KeptAlive, now_z, roster_asked, unpacked
from entries import cpu_seconds, server_pids

CLIENTS = 4
CYCLE = 16  # characters a client changes in turn, at most
# Characters a client changes in turn across the event: more than a worker keeps parsed
# (keeping/records.py KEPT_CONTEXTS), as a day's player pages are, each its own character.
SPREAD = 625


UNCHANGED, CHANGED, UNTAGGED = "unchanged", "changed", "untagged"


@dataclass(frozen=True)
class Kind:
    name: str
    answer: str  # which of the stored answers it is: state, player, board, roster, entry
    asked: str  # UNCHANGED (the tag held: 304), CHANGED (a change first: 200), UNTAGGED
    target: float | None = None  # the issue's: app / stored answer at most this
    spread: bool = False  # its characters across the event (SPREAD a client), none held first

    @property
    def changed(self) -> bool:
        return self.asked != UNCHANGED


KINDS = (
    Kind("state, unchanged (304)", "state", UNCHANGED),
    Kind("state, changed (200)", "state", CHANGED, 2.0),
    Kind("state, asked without a tag (200)", "state", UNTAGGED),
    Kind("player page, unchanged (304)", "player", UNCHANGED),
    Kind("player page, changed (200)", "player", CHANGED, 2.0),
    Kind("state, changed, across the event", "state", CHANGED, 2.0, spread=True),
    Kind("player page, changed, across the event", "player", CHANGED, 2.0, spread=True),
    Kind("board, unchanged (304)", "board", UNCHANGED),
    Kind("board, changed (200, ?since=)", "board", CHANGED),
    Kind("roster, unchanged (304)", "roster", UNCHANGED),
    Kind("roster delta (200, ?since=)", "roster", CHANGED),
    Kind("one entry through /sync", "entry", CHANGED, 3.0),
)


@dataclass(frozen=True)
class Context:
    """What the clients ask with."""

    event_id: int
    characters: list[int]  # the consoles' characters
    secret_of: dict[int, str]  # each character's player link
    tokens: list[str]
    cookie: str  # an organiser's session
    roster_version: str  # a version of the roster held before
    roster_kits: str  # the digests of its events' kits (lib/roster.js sends them: kits=)
    encodings: str | None  # Accept-Encoding
    everyone: tuple[int, ...] = ()  # every character of the event (a spread kind's)


class Changer:
    """A note logged on characters beside the server, as another worker stores an entry:
    one INSERT a note, the notes of a batch in one commit, on a thread of its own in this
    process (its database connection named ``larp-bench``, so that its PostgreSQL backend
    is not counted as the server's). Stored as the app stores a note that comes last in
    its log (``stepped_on``: it changes no other entry's verdict): the database's triggers
    raise the character's version and the marks as for any entry, and the server finds the
    change from the database and folds it on.

    Not through the app's own use case (``record_entry``, 1.25 ms a note: ORM objects, the
    lock, the fold): the clients of a changed kind waited on it three quarters of the time
    (20 ms a batch of 16 on the largest day), and a server left idle between answers spends
    more CPU on each (its wake-up). Stored so, a batch costs 4 ms, most of it its durable
    commit, and the clients ask about twice as many answers in the same seconds."""

    def __init__(self, uri: str):
        if uri.startswith("postgresql"):
            uri += ("&" if "?" in uri else "?") + "application_name=larp-bench"
        self.uri = uri
        self.pool = ThreadPoolExecutor(1, initializer=self._open)

    def _open(self) -> None:
        from larp_app import create_app

        self.app = create_app({"SQLALCHEMY_DATABASE_URI": self.uri})
        self.context = self.app.app_context()
        self.context.push()

    def _change(self, characters: list[int]) -> None:
        from sqlalchemy import insert

        from larp_app import rules
        from larp_app.extensions import db
        from larp_app.models import Entry

        now = datetime.now(UTC)
        rows = []
        for character_id in characters:
            client_id = str(uuid.uuid4())
            note = {
                "id": client_id,
                "at": rules.format_instant(now),
                "kind": "note",
                "text": "bench",
            }
            rows.append(
                {
                    "client_id": client_id,
                    "character_id": character_id,
                    "kind": "note",
                    "at": now,
                    "sent_at": None,
                    "received_at": now,
                    "author_id": None,
                    "fields": note,
                    "referee_at": None,
                    "stepped_on": True,
                }
            )
        db.session.execute(insert(Entry.__table__), rows)
        db.session.commit()

    async def change(self, characters: list[int]) -> None:
        """A note on each of ``characters``, in one commit."""
        await asyncio.get_running_loop().run_in_executor(self.pool, self._change, characters)

    def close(self) -> None:
        def closing():
            from larp_app.extensions import db

            db.session.remove()
            db.engine.dispose()
            self.context.pop()

        self.pool.submit(closing).result()
        self.pool.shutdown()


class Client:
    """One client of a kind: its token, characters, and the tags and version it holds."""

    def __init__(self, n: int, kind: Kind, context: Context, connection):
        self.n, self.kind, self.context, self.connection = n, kind, context, connection
        self.token = context.tokens[n % len(context.tokens)]
        if kind.spread:
            everyone = list(context.everyone or context.characters)
            self.characters = everyone[n::CLIENTS][:SPREAD] or everyone
        else:
            mine = context.characters[n::CLIENTS] or context.characters
            if kind.answer == "entry":
                # The last of its share: not those the changed kinds' notes went to (a few
                # thousand a run each, no day's log), where the day has enough characters.
                self.characters = mine[-CYCLE:]
            else:
                self.characters = mine[:CYCLE] if kind.changed else mine[:1]
        self.turn = itertools.count()
        self.held: dict = {}  # character (or "since") -> tag
        self.version = context.roster_version if kind.answer == "roster" else None

    def request(self, character: int, tag: str | None) -> tuple:
        """(method, path, headers, body) asking about ``character``."""
        context, answer = self.context, self.kind.answer
        headers = {"Accept-Encoding": context.encodings} if context.encodings else {}
        bearer = {"Authorization": f"Bearer {self.token}"}
        if tag:
            headers["If-None-Match"] = tag
        if answer == "state":
            return "GET", f"/api/v1/characters/{character}/state", {**headers, **bearer}, None
        if answer == "player":
            return "GET", f"/p/{context.secret_of[character]}/live.json", headers, None
        if answer == "board":
            path = f"/events/{context.event_id}/board.json"
            path += f"?since={self.version}" if self.version else ""
            return "GET", path, {**headers, "Cookie": context.cookie}, None
        if answer == "roster":
            asked = roster_asked(self.version, self.context.roster_kits)
            return "GET", asked, {**headers, **bearer}, None
        turn = next(self.turn)
        item = {"id": str(uuid.uuid4()), "at": now_z(), **ENTRY_KINDS[turn % len(ENTRY_KINDS)]}
        body = json.dumps({"entries": [{**item, "character": character, "sent_at": now_z()}]})
        return "POST", "/api/v1/sync", {**headers, **bearer}, body.encode()

    def key(self, character: int):
        return "since" if self.kind.answer in ("board", "roster") else character

    def seen(self, character: int, status: int, headers: dict, payload: bytes) -> bytes | None:
        """Hold what the answer gave; its body unpacked (a 200)."""
        if status != 200:
            return None
        plain = unpacked(headers, payload)
        self.held[self.key(character)] = headers.get("etag")
        if self.kind.answer in ("board", "roster"):
            self.version = json.loads(plain)["version"]
        return plain


async def kind_loop(
    port,
    kind: Kind,
    context: Context,
    seconds: float,
    kept_alive: bool,
    changer: Changer | None,
    measure,
) -> tuple[dict, bytes | None]:
    """``CLIENTS`` clients asking ``kind`` back to back for ``seconds``, after each has
    loaded what it asks once (untimed): their answers counted by status, and ``measure``'s
    figure over them; the last body of a 200."""
    counted: dict = defaultdict(int)
    wire: dict = defaultdict(int)  # bytes of the bodies answered, by status
    last: list[bytes] = []
    clients = [
        Client(n, kind, context, (KeptAlive if kept_alive else Fresh)(port)) for n in range(CLIENTS)
    ]

    async def ask(client: Client, character: int, tag: str | None):
        method, path, headers, body = client.request(character, tag)
        try:
            status, answer_headers, payload = await client.connection.request(
                method, path, headers, body, 30
            )
        except (OSError, TimeoutError):
            return "error"
        plain = client.seen(character, status, answer_headers, payload)
        if plain is not None and kind.answer != "entry":
            last[:] = [plain]
        wire[str(status)] += len(payload)
        return status

    # What each client holds, as a page open since the morning (a change is answered whole
    # whatever tag is held: a spread kind's clients hold none, which the app also answers
    # from the record brought up to the change).
    if kind.answer != "entry" and not kind.spread:
        for client in clients:
            for character in client.characters:
                if client.key(character) not in client.held:
                    await ask(client, character, None)

    # A state or a player page is asked about each character of a batch after one commit
    # changed them all (a busy worker: one wake-up, one look at the marks, for several
    # answers); the board and the roster after each change (a delta of one).
    changed = kind.asked == CHANGED and kind.answer != "entry"
    batch = CYCLE if kind.answer in ("state", "player") else 1

    async def run(client: Client, deadline: float):
        loop = asyncio.get_running_loop()
        mine = client.characters
        for characters in itertools.cycle(
            [mine[n : n + batch] for n in range(0, len(mine), batch)]
        ):
            if loop.time() >= deadline:
                return
            if changed and changer is not None:
                await changer.change(characters)
            for character in characters:
                tag = client.held.get(client.key(character))
                if kind.asked == UNTAGGED:
                    tag = None
                elif changed and changer is None:
                    tag = STALE
                counted[str(await ask(client, character, tag))] += 1

    wire.clear()  # (what the clients loaded first is not counted)
    start = measure()
    deadline = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(*(run(client, deadline) for client in clients))
    figure = measure(start)
    for client in clients:
        client.connection.close()
    return {"counted": dict(counted), "cpu": figure, "wire": dict(wire)}, (
        last[0] if last else None
    )


def kind_costs(
    port, master, context: Context, seconds, kept_alive, changer, database, kinds=KINDS
) -> tuple:
    """CPU per answer (ms) of each of ``kinds`` alone: {name: (all, the database's part or
    None)}; and the last body of each stored answer's kind ({kind: bytes})."""
    pids = server_pids(master)

    def measure(start=None):
        now = (cpu_seconds(pids), database.snapshot() if database.url else None)
        if start is None:
            return now
        server = now[0] - start[0]
        base = None if start[1] is None else database.since(start[1])
        return server, base

    costs, bodies = {}, {}
    for kind in kinds:
        done, body = asyncio.run(
            kind_loop(port, kind, context, seconds, kept_alive, changer, measure)
        )
        counted = done["counted"]
        expected = "200" if kind.changed else "304"
        answered = counted.get(expected, 0)
        server, base = done["cpu"]
        total = server + (base or 0.0)
        costs[kind.name] = (
            total / max(answered, 1) * 1000,
            None if base is None else base / max(answered, 1) * 1000,
        )
        if body is not None:
            bodies[kind.answer] = body
        wrong = {k: v for k, v in counted.items() if k != expected}
        ms, base_ms = costs[kind.name]
        said = "" if base_ms is None else f", {base_ms:.2f} ms of it PostgreSQL's"
        size = done["wire"].get(expected, 0) / max(answered, 1)
        print(
            f"  {kind.name:32}{ms:7.2f} ms CPU{said}  ({answered} answers {expected},"
            f" {size / 1000:.1f} KB each{', others: ' + str(wrong) if wrong else ''})",
            flush=True,
        )
    return costs, bodies
