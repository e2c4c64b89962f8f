"""A push server, as a prototype for ``bench/day.py --push``: what the largest day would cost
if each player page and console were told of its character's changes instead of polling.

Run by day.py (``python bench/push_server.py CONFIG.json``), never by the app. One asyncio
process holds every phone's stream (server-sent events, ``text/event-stream``):

- ``GET /push/player/<secret>``: a player page's stream, its secret known in memory (the
  app would find it as ``web/quick.py`` finds a player link: once, when the stream opens);
- ``GET /push/console/<character id>`` with ``Authorization: Bearer <token>``: a console's.

The database tells it what changed, whoever wrote it: every ``TICK`` seconds one query reads
the characters of the event whose version moved above the highest seen (the index
``ix_character_event_version`` answers it), and each stream of those characters is sent
``data: <version> <instant read>``; the phone then asks its answer of the app as it polls
today (with its ETag), so the app answers exactly what it answers now. A comment line every
``BEAT`` seconds keeps idle streams open through proxies. A stream whose phone reads too
slowly (more than ``BACKLOG`` bytes waiting) is closed: its phone polls until it opens again.

Prints nothing but its port once listening; day.py reads its CPU from /proc.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sqlite3
import sys
import time
from collections import defaultdict

TICK = 0.25  # seconds between two reads of what changed
BEAT = 25.0  # seconds between two comment lines on every stream
BACKLOG = 64 * 1024  # bytes a stream may have waiting before it is closed


class Changes:
    """The characters of one event whose version moved, read from the database."""

    QUERY = "SELECT id, version FROM character WHERE event_id = {p} AND version > {p}"

    def __init__(self, store: str, event_id: int):
        self.event_id = event_id
        if store.startswith("sqlite:///"):
            self.connection = sqlite3.connect(store.removeprefix("sqlite:///"))
            self.query = self.QUERY.format(p="?")
        else:
            import psycopg

            self.connection = psycopg.connect(store, autocommit=True)
            self.query = self.QUERY.format(p="%s")
        self.seen = self.highest()

    def highest(self) -> int:
        found = self.connection.execute(
            "SELECT max(version) FROM character WHERE event_id = "
            + ("?" if isinstance(self.connection, sqlite3.Connection) else "%s"),
            (self.event_id,),
        ).fetchone()
        return found[0] or 0

    def since(self) -> list[tuple[int, int]]:
        rows = self.connection.execute(self.query, (self.event_id, self.seen)).fetchall()
        if rows:
            self.seen = max(self.seen, max(version for _id, version in rows))
        return rows


class Push:
    def __init__(self, config: dict):
        self.players = dict(zip(config["secrets"], config["characters"], strict=True))
        self.tokens = set(config["tokens"])
        self.changes = Changes(config["store"], config["event_id"])
        self.streams: dict[int, set[asyncio.StreamWriter]] = defaultdict(set)
        self.sent = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            writer.close()
            return
        first, *lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        parts = first.split(" ")[1].strip("/").split("/")
        character = self.character(parts, headers)
        if character is None:
            writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            writer.close()
            return
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
            b"X-Accel-Buffering: no\r\n\r\n"
        )
        self.streams[character].add(writer)
        try:
            await reader.read()  # until the phone goes
        except ConnectionError:
            pass
        finally:
            self.streams[character].discard(writer)
            writer.close()

    def character(self, parts: list[str], headers: dict) -> int | None:
        """The character a stream is for, once its caller proved who it is; else None."""
        if len(parts) == 3 and parts[:2] == ["push", "player"]:
            return self.players.get(parts[2])
        if len(parts) == 3 and parts[:2] == ["push", "console"] and parts[2].isdigit():
            token = headers.get("authorization", "").removeprefix("Bearer ")
            return int(parts[2]) if token in self.tokens else None
        return None

    def send(self, writers, data: bytes) -> None:
        for writer in list(writers):
            if writer.transport.get_write_buffer_size() > BACKLOG:
                writer.close()  # a phone that reads too slowly polls until it opens again
                continue
            writer.write(data)
            self.sent += 1

    async def watch(self) -> None:
        beat = time.monotonic()
        while True:
            await asyncio.sleep(TICK)
            for character, version in self.changes.since():
                writers = self.streams.get(character)
                if writers:
                    self.send(writers, f"data: {version} {time.time():.4f}\n\n".encode())
            if time.monotonic() - beat >= BEAT:
                beat = time.monotonic()
                for writers in self.streams.values():
                    self.send(writers, b": beat\n\n")


async def main(config: dict) -> None:
    push = Push(config)
    server = await asyncio.start_server(push.serve, "127.0.0.1", config["port"], backlog=4096)
    print(config["port"], flush=True)
    async with server:
        await asyncio.gather(server.serve_forever(), push.watch())


if __name__ == "__main__":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a stream for every phone
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with open(sys.argv[1]) as config_file:
        asyncio.run(main(json.load(config_file)))
