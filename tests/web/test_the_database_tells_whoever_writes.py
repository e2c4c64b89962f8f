"""The database tells every worker, whoever writes: a change of who may read or write made by
an operator's plain SQL is refused by the next poll and the next entry on every worker
that knew the caller, and a change of a state made by SQL is seen; no mark takes an old
value again, not even after an event is removed."""

from __future__ import annotations

import uuid

import pytest

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Entry, Event, User
from larp_app.services.assignments import assign_referees
from larp_app.services.clock import now_utc
from larp_app.services.events import change_settings

from .conftest import auth

pytestmark = pytest.mark.both_databases


def referee_id(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(User.id).where(User.username == "referee-1"))


def stored(app, client_id: str) -> int:
    with app.app_context():
        return db.session.scalar(
            db.select(db.func.count()).select_from(Entry).where(Entry.client_id == client_id)
        )


def item(character_id: int) -> dict:
    at = rules.format_instant(now_utc())
    return {"character": character_id, "id": str(uuid.uuid4()), "kind": "note", "text": "x",
            "at": at}  # fmt: skip


@pytest.fixture
def two_events(app, client, organiser, event_id, character_id):
    """The referee works the character's event and another one."""
    other = client.post(
        "/api/v1/events", json={"name": "Altra", "ruleset": "ex-nihilo"}, headers=organiser
    ).json["id"]
    with app.app_context():
        assign_referees(db.session.get(Event, event_id), [referee_id(app)])
        assign_referees(db.session.get(Event, other), [referee_id(app)])
        db.session.commit()
    return event_id, other


CHANGES = {
    "referee disabled": ('UPDATE "user" SET active = false WHERE id = :user', 401),
    "token revoked": (
        "UPDATE api_token SET revoked_at = CURRENT_TIMESTAMP WHERE user_id = :user",
        401,
    ),
    "referee taken off the event": (
        "DELETE FROM referee_event WHERE user_id = :user AND event_id = :event",
        403,
    ),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_of_who_may_write_made_by_plain_sql_is_refused_by_every_worker_at_once(
    app, client, other_worker, sql, tokens, two_events, character_id, change
):
    event_id, _other = two_events
    headers = auth(tokens["referee"])
    url = f"/api/v1/characters/{character_id}/state"
    held = {}
    for worker in (client, other_worker):  # each knows the referee and the state
        first = worker.get(url, headers=headers)
        assert first.status_code == 200, first.json
        again = worker.get(url, headers={**headers, "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304
        synced = worker.post(
            "/api/v1/sync", json={"entries": [item(character_id)]}, headers=headers
        )
        assert synced.json["results"][0]["status"] == "stored"
        held[worker] = worker.get(url, headers=headers).headers["ETag"]
    statement, status = CHANGES[change]
    sql(statement, user=referee_id(app), event=event_id)
    for worker in (client, other_worker):
        polled = worker.get(url, headers={**headers, "If-None-Match": held[worker]})
        assert polled.status_code == status, polled.json
        sent = item(character_id)
        synced = worker.post("/api/v1/sync", json={"entries": [sent]}, headers=headers)
        if status == 401:
            assert synced.status_code == 401
            assert synced.json["error"] == "unauthorized"
        else:
            assert synced.json["results"][0]["status"] == "refused"
            assert synced.json["results"][0]["code"] == "not_your_event"
        assert stored(app, sent["id"]) == 0


def state(worker, character_id, token):
    answer = worker.get(f"/api/v1/characters/{character_id}/state", headers=auth(token))
    assert answer.status_code == 200, answer.json
    return {k: v for k, v in answer.json.items() if k not in ("at", "your_conflicts")}


@pytest.mark.parametrize("how", ["plain sql", "a bare engine connection"])
def test_an_entry_and_a_new_sheet_written_past_the_app_are_seen_by_a_warm_worker(
    app, client, other_worker, sql, tokens, character_id, how
):
    before = state(client, character_id, tokens["referee"])
    at = now_utc()
    fields = {"id": str(uuid.uuid4()), "kind": "hit", "damage": 2, "pierce": True,
              "at": rules.format_instant(at)}  # fmt: skip
    insert = (
        "INSERT INTO entry (client_id, character_id, kind, at, received_at, fields)"
        " VALUES (:client_id, :character, 'hit', :at, :at, :fields)"
    )
    params = {"client_id": fields["id"], "character": character_id, "fields": fields}
    if how == "plain sql":
        import json

        sqlite = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
        stamp = at.replace(tzinfo=None) if sqlite else at  # as SQLite keeps it: naive UTC
        sql(insert, **{**params, "fields": json.dumps(fields), "at": stamp})
    else:
        with app.app_context(), db.engine.begin() as connection:
            connection.execute(Entry.__table__.insert().values(
                client_id=fields["id"], character_id=character_id, kind="hit", at=at,
                received_at=at, fields=fields,
            ))  # fmt: skip
    after = state(client, character_id, tokens["referee"])
    assert after["hp"] == before["hp"] - 2
    assert after == state(other_worker, character_id, tokens["referee"])


def marks(sql) -> dict[str, int]:
    return dict(sql("SELECT name, value FROM mark").all())


def test_no_mark_takes_an_old_value_when_an_event_is_removed(
    app, client, other_worker, sql, tokens, organiser, event_id, character_id
):
    empty = client.post(
        "/api/v1/events", json={"name": "Vuota", "ruleset": "ex-nihilo"}, headers=organiser
    ).json["id"]
    with app.app_context():
        for minutes in (5, 6, 7):  # the empty event's version: three
            change_settings(db.session.get(Event, empty), {"roster_max_age_minutes": minutes})
            db.session.commit()
    phone = {**auth(tokens["referee"])}
    first = client.get("/api/v1/roster", headers=phone)
    assert first.status_code == 200
    held = {**phone, "If-None-Match": first.headers["ETag"]}
    assert (
        client.get(
            "/api/v1/roster", headers=held, query_string={"since": first.json["version"]}
        ).status_code
        == 304
    )
    before = marks(sql)
    sql("DELETE FROM event WHERE id = :event", event=empty)
    for n in range(3):  # the other event rises by as much
        posted = other_worker.post(
            f"/api/v1/characters/{character_id}/entries",
            json={
                "id": str(uuid.uuid4()),
                "kind": "note",
                "text": f"n{n}",
                "at": rules.format_instant(now_utc()),
            },
            headers=organiser,
        )
        assert posted.status_code == 201, posted.json
    after = marks(sql)
    assert after["versions"] > before["versions"]
    assert all(after[name] >= before[name] for name in before if name != "epoch")
    assert after["epoch"] != before["epoch"]  # a removal rewrites history: workers forget
    changed = client.get(
        "/api/v1/roster", headers=held, query_string={"since": first.json["version"]}
    )
    assert changed.status_code == 200
    assert [c["id"] for c in changed.json["characters"]] == [character_id]


def test_an_entry_inserted_by_plain_sql_that_voids_a_referees_entry_is_told_to_them(
    app, client, sql, tokens, character_id
):
    import json
    from datetime import timedelta

    headers = auth(tokens["referee"])
    hit = {**item(character_id), "kind": "hit", "damage": 1, "pierce": True}
    hit.pop("text")
    assert (
        client.post("/api/v1/sync", json={"entries": [hit]}, headers=headers).json["results"][0][
            "status"
        ]
        == "stored"
    )
    assert (
        client.post("/api/v1/sync", json={"entries": []}, headers=headers).json["conflicts"] == []
    )
    # An organiser's kill, logged on paper before the hit and typed in by SQL afterwards.
    at = now_utc() - timedelta(minutes=5)
    kill = {
        "id": str(uuid.uuid4()),
        "kind": "kill",
        "reason": "ambush",
        "at": rules.format_instant(at),
    }
    sqlite = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    stamp = at.replace(tzinfo=None) if sqlite else at
    sql(
        "INSERT INTO entry (client_id, character_id, kind, at, received_at, fields)"
        " VALUES (:id, :character, 'kill', :at, :at, :fields)",
        id=kill["id"], character=character_id, at=stamp, fields=json.dumps(kill),
    )  # fmt: skip
    told = client.post("/api/v1/sync", json={"entries": []}, headers=headers).json["conflicts"]
    assert [c["id"] for c in told] == [hit["id"]]


def test_a_refusal_changed_by_plain_sql_changes_the_board(
    app, sql, referee, event_id, character_id
):
    from .helpers import log_in, make_user

    make_user(app, "olga", "organiser")
    board = app.test_client()
    assert log_in(board, "olga").status_code == 302
    old = {**item(character_id), "at": "2001-01-01T00:00:00Z"}  # too old: kept for the board
    answer = app.test_client().post("/api/v1/sync", json={"entries": [old]}, headers=referee)
    assert answer.json["results"][0]["status"] == "refused"
    url = f"/events/{event_id}/board.json"
    first = board.get(url)
    held = {"If-None-Match": first.headers["ETag"]}
    assert board.get(url, headers=held).status_code == 304
    sql(
        "UPDATE refused_entry SET params = NULL, message = 'riletto a mano' WHERE client_id = :id",
        id=old["id"],
    )
    changed = board.get(url, headers=held)
    assert changed.status_code == 200
    assert "riletto a mano" in [r["message"] for r in changed.json["refused"]]


def test_marks_read_before_another_threads_newer_ones_were_taken_in_forget_nothing(
    app, client, referee, character_id, sql, monkeypatch
):
    """A busy worker: one thread reads the marks, another reads newer ones and takes them in
    first. The older read, taken in after, is no database put back: nothing is forgotten
    (forgetting a big event's views under load made every thread build them again). Marks
    still lower when read again are one: everything is forgotten then."""
    from larp_app.keeping.known import known

    client.post("/api/v1/sync", json={"entries": [item(character_id)]}, headers=referee)
    with app.app_context():
        kept = known()
        kept.current()
        stale = kept.marks
        answer = client.post(
            "/api/v1/sync", json={"entries": [item(character_id)]}, headers=referee
        )
        assert answer.json["results"][0]["status"] == "stored"
        kept.current()  # the newer marks, taken in
        assert kept.marks != stale
        forgotten = []
        kept.also_forget(lambda: forgotten.append("everything"))
        reads = [stale]  # the first read is the stale one, as a thread that waited had it
        real = kept._read_marks
        monkeypatch.setattr(kept, "_read_marks", lambda: reads.pop() if reads else real())
        kept.current()
        assert forgotten == []
        # A database put back: marks lower however often read.
        monkeypatch.setattr(kept, "_read_marks", lambda: stale)
        kept.current()
        assert forgotten == ["everything"]


def test_a_player_link_moved_between_characters_is_found_where_it_ends_whatever_the_order(app):
    """What changed since a version comes in no promised order (PostgreSQL gives its rows
    as it finds them): a link that went from one character to another and back may be read
    for its last holder before the other's letting it go. The link is found where it ends,
    kept (not looked for again at every poll), and the other's own link too."""
    from larp_app.keeping.known import known

    with app.app_context():
        kept = known()
        kept._keep_character((1, 1, 1, "link-one"))
        kept._keep_character((2, 1, 1, "link-two"))
        kept._keep_character((2, 1, 3, "link-one"))  # the second took the first's link...
        kept._keep_character((1, 1, 5, "link-one"))  # ...which came back (read first)
        kept._keep_character((2, 1, 4, "link-two"))  # ...once the second let it go
        assert kept.players == {"link-one": 1, "link-two": 2}
        assert kept.player_of == {1: "link-one", 2: "link-two"}
        kept._keep_character((1, 1, 6, None))  # a link taken away
        assert kept.players == {"link-two": 2}
        assert kept.player_of == {2: "link-two"}
