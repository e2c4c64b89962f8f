"""Writes for one character are serialised: concurrent requests against a real gunicorn are
judged in the order they are stored, so an acknowledged entry never becomes a conflict and a
refused one is refused at once."""

import random
import threading
import uuid

import pytest

from larp_app.extensions import db
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc
from larp_app.services.users import create_user

from .helpers import data_sheet
from .served import Served

pytestmark = pytest.mark.both_databases

SHEET = data_sheet()  # 3 points, 3 armour, 3 energy
ROUNDS = 20
CLIENTS = 8


@pytest.fixture
def served(app, database_url, tmp_path):
    """gunicorn on the test's database, with an organiser's and two referees' tokens."""
    with app.app_context():
        tokens = {
            name: create_user(name, role)[2]
            for name, role in (("olga", "organiser"), ("rita", "referee"), ("remo", "referee"))
        }
        db.session.commit()
        db.engine.dispose()
    server = Served(database_url, tmp_path)
    server.tokens = tokens
    yield server
    server.stop()


def new_character(server) -> int:
    status, event = server.request(
        "POST", "/api/v1/events", {"name": "Notte", "ruleset": "ex-nihilo"}, server.tokens["olga"]
    )
    assert status == 201, event
    status, made = server.request(
        "POST", f"/api/v1/events/{event['id']}/characters", SHEET, server.tokens["olga"]
    )
    assert status == 201, made
    return made["characters"][0]["id"]


def entry(kind, **fields):
    return {"id": str(uuid.uuid4()), "kind": kind, "at": format_instant(now_utc()), **fields}


def at_once(server, character_id, bodies, tokens):
    """Post every body from its own thread and connection, released together; the answers."""
    connections = [server.connection() for _ in bodies]
    for conn in connections:
        conn.connect()
    start = threading.Barrier(len(bodies))
    answers = [None] * len(bodies)

    def send(i):
        start.wait()
        body = {**bodies[i], "at": format_instant(now_utc())}
        answers[i] = server.request(
            "POST", f"/api/v1/characters/{character_id}/entries", body, tokens[i], connections[i]
        )

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for conn in connections:
        conn.close()
    return answers


def test_ten_simultaneous_spends_at_energy_one_store_one_and_refuse_nine_at_once(served):
    character = new_character(served)
    rita = served.tokens["rita"]
    for _ in range(2):
        path = f"/api/v1/characters/{character}/entries"
        assert served.request("POST", path, entry("spend_energy", amount=1), rita)[0] == 201
    answers = at_once(
        served, character, [entry("spend_energy", amount=1) for _ in range(10)], [rita] * 10
    )
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * 9
    assert {body["error"] for status, body in answers if status == 409} == {"not_enough_energy"}
    _, state = served.request("GET", f"/api/v1/characters/{character}/state", token=rita)
    assert (state["energy"], state["conflicts"], state["log_position"]) == (0, [], 3)


def test_seventeen_simultaneous_kills_store_one_and_refuse_sixteen(served):
    character = new_character(served)
    olga = served.tokens["olga"]
    answers = at_once(served, character, [entry("kill") for _ in range(17)], [olga] * 17)
    assert sorted(status for status, _ in answers) == [201] + [409] * 16
    assert {body["error"] for status, body in answers if status == 409} == {"dead"}


def test_no_acknowledged_online_entry_becomes_a_conflict_in_twenty_rounds_of_mixed_entries(
    served,
):
    character = new_character(served)
    mix = [
        lambda: entry("hit", damage=1),
        lambda: entry("heal", amount=1),
        lambda: entry("spend_energy", amount=1),
        lambda: entry("restore_energy", amount=1),
        lambda: entry("status_on", key="paura"),
        lambda: entry("repair", amount=1),
        lambda: entry("note", text="x"),
    ]
    chance = random.Random(11)
    tokens = [served.tokens["rita"], served.tokens["remo"]] * (CLIENTS // 2)
    acknowledged, refused = set(), 0
    for _ in range(ROUNDS):
        bodies = [chance.choice(mix)() for _ in range(CLIENTS)]
        for body, (status, answer) in zip(
            bodies, at_once(served, character, bodies, tokens), strict=True
        ):
            assert status in (201, 409), answer
            if status == 201:
                acknowledged.add(body["id"])
            else:
                refused += 1
    _, log = served.request(
        "GET", f"/api/v1/characters/{character}/entries", token=served.tokens["olga"]
    )
    voided = [e for e in log["entries"] if e["conflict"] and e["id"] in acknowledged]
    assert voided == []
    assert {e["id"] for e in log["entries"]} == acknowledged
    assert len(acknowledged) + refused == ROUNDS * CLIENTS
