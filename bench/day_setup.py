"""The set-up of ``bench/day.py``: the event of the day, its player links, its referees and
organisers, and a first answer of each kind from the app.

An event of as many characters as player pages with 20 entries each (bench/scale.py's
``build_event``), each character with its player link; a referee account with a token per
console, and an organiser per board. The accounts' passwords are hashed with one round of
PBKDF2 here (the referees poll with their tokens and never log in; the organisers log in
once): the app's scrypt costs 0.17 s an account, and the largest day has 600 of them.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import sqlalchemy
from day_load import fetch, get, now_z, roster_kits, unpacked
from scale import build_event
from storm import make_referees


@dataclass(frozen=True)
class Built:
    event_id: int
    characters: list[int]
    secrets: list[str]  # each character's player link, in the order of ``characters``
    tokens: list[str]  # a referee's each
    seconds: float  # what building took


@contextmanager
def quick_password_hashes():
    """Accounts made meanwhile get a password hash of one PBKDF2 round (see the module)."""
    from larp_app.services import users

    made = users.generate_password_hash
    users.generate_password_hash = partial(made, method="pbkdf2:sha256:1")
    try:
        yield
    finally:
        users.generate_password_hash = made


def build_day(uri: str, characters: int, referees: int, organisers: int) -> Built:
    """The day's event, links and accounts in the (migrated) database at ``uri``."""
    started = time.monotonic()
    event_id, ids = build_event(uri, characters)
    secrets = give_player_links(uri, ids)
    with quick_password_hashes():
        tokens = make_referees(uri, referees, organisers)
    return Built(event_id, ids, secrets, tokens, time.monotonic() - started)


def give_player_links(uri: str, characters: list[int]) -> list[str]:
    """A player link for each character: their secrets, in the order of ``characters``."""
    from larp_app import create_app, tokens
    from larp_app.extensions import db
    from larp_app.models import Character
    from larp_app.services.badges import give_player_link

    app = create_app({"SQLALCHEMY_DATABASE_URI": uri})
    secrets = {}
    with app.app_context():
        for start in range(0, len(characters), 500):
            rows = db.session.scalars(
                sqlalchemy.select(Character).where(
                    Character.id.in_(characters[start : start + 500])
                )
            ).all()
            for character in rows:
                secrets[character.id] = tokens.new_secret()
                give_player_link(character, secrets[character.id])
            db.session.commit()
        db.session.remove()
        db.engine.dispose()
    return [secrets[c] for c in characters]


def sample_answers(port, event_id, character, secret, token, cookie, board_since, encodings):
    """The app's answer of each kind, with its ETag, before the day (what the stored-answer
    server answers where the day gave none of a kind), and its answer to an entry."""
    bearer = {"Authorization": f"Bearer {token}"}
    asked = {"Accept-Encoding": encodings} if encodings else {}
    answers = {}
    for kind, path, headers in (
        ("state", f"/api/v1/characters/{character}/state", bearer),
        ("player", f"/p/{secret}/live.json", {}),
        ("board", f"/events/{event_id}/board.json", {"Cookie": cookie}),
        ("roster", f"/api/v1/roster?event={event_id}", bearer),
    ):
        status, headers_, body = get(port, path, {**asked, **headers})
        if status != 200:
            raise RuntimeError(f"{kind}: {status} {body[:300]!r}")
        body = unpacked(headers_, body)
        if kind == "board" and board_since:  # the board polls as changes: a small answer
            version = json.loads(body)["version"]
            status, headers_, body = get(port, f"{path}?since={version}", {**asked, **headers})
            body = unpacked(headers_, body)
        answers[kind] = {"body": body.decode(), "etag": headers_.get("etag")}
    entry = {"id": str(uuid.uuid4()), "at": now_z(), "kind": "note", "text": "day"}
    body = json.dumps({"entries": [{**entry, "character": character, "sent_at": now_z()}]})
    status, headers_, answer = asyncio.run(
        fetch(port, "POST", "/api/v1/sync", {**asked, **bearer}, body.encode(), 60)
    )
    if status != 200:
        raise RuntimeError(f"sync: {status} {answer[:300]!r}")
    return {"answers": answers, "sync_answer": json.loads(unpacked(headers_, answer))}


def roster_held(samples: dict) -> tuple[str, str, str]:
    """The version and ETag of the whole roster the app gave, and the digests of its events'
    kits: what each phone holds (a whole roster is a costly read, taken in turns: one is
    enough)."""
    roster = samples["answers"]["roster"]
    data = json.loads(roster["body"])
    return data["version"], roster["etag"] or "", roster_kits(data)
