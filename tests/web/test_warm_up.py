"""A worker builds the open events' kept views before it takes requests: its first roster
folds nothing; and it is never killed for building one."""

from __future__ import annotations

import threading

from larp_app import serving
from larp_app.extensions import db
from larp_app.keeping import records
from larp_app.keeping.known import Known
from larp_app.models import Character
from larp_app.reads.warm_up import warm_open_events

from .helpers import data_sheet


def test_after_the_warm_up_a_workers_first_roster_folds_nothing(
    app, client, referee, event_id, character_id, monkeypatch
):
    calls = []
    with app.app_context():
        warmed = warm_open_events(lambda: calls.append(1))
    assert [(e, n) for e, n, _seconds in warmed] == [(event_id, 1)]
    assert calls  # the master heard from the worker as it went

    def refuse(*args, **kwargs):
        raise AssertionError("folded")

    monkeypatch.setattr(records.rules, "fold_log", refuse)
    monkeypatch.setattr(records.rules, "snapshot_at", refuse)
    first = client.get(f"/api/v1/events/{event_id}/roster", headers=referee)
    assert first.status_code == 200
    assert [c["id"] for c in first.json["characters"]] == [character_id]


def test_after_the_warm_up_a_players_first_poll_looks_up_no_character(
    app, client, organiser, event_id, character_id, monkeypatch
):
    """Every character of the open events is known from the warm-up: the first poll of each
    player's page after a restart is answered without a query of its own to find it; a
    character made afterwards is known from the versions, as any change is."""
    with app.app_context():
        warm_open_events()
        secret = db.session.get(Character, character_id).player_secret

    looked_up, load = [], Known._load

    def counted(self, statement, params):
        looked_up.append(params)
        return load(self, statement, params)

    monkeypatch.setattr(Known, "_load", counted)
    first = client.get(f"/p/{secret}/live.json")
    assert first.status_code == 200
    assert first.get_json()["character"]["name"]
    assert looked_up == []

    sheet = {**data_sheet(), "character": "Nuovo", "player": "Pia Bianchi"}
    made = client.post(f"/api/v1/events/{event_id}/characters", json=sheet, headers=organiser)
    assert made.status_code == 201, made.json
    with app.app_context():
        newcomer = db.session.get(Character, made.json["characters"][0]["id"])
        name, link = newcomer.name, newcomer.player_secret
    assert client.get(f"/p/{link}/live.json").get_json()["character"]["name"] == name


def test_workers_keep_connections_alive_and_outlast_a_long_first_view():
    from gunicorn.workers.gthread import ThreadWorker

    assert serving.worker_class == "larp_app.serving.ThreadWorker"
    assert issubclass(serving.ThreadWorker, ThreadWorker) and serving.threads > 1
    assert serving.keepalive >= 5  # phones poll every few seconds
    assert serving.timeout > 30  # gunicorn's default killed workers building a big view


def test_workers_warm_up_in_turns_as_many_at_once_as_there_are_cores(tmp_path):
    """After a restart the first workers take requests in the time of one warm-up: the others
    wait their turn, telling the master they are alive, and take the turn given back."""
    folder = tmp_path / "warm-up"
    waited = threading.Event()
    order = []

    def third_worker():
        with serving.warm_up_turn(folder, waited.set, turns=2):
            order.append("third")

    with serving.warm_up_turn(folder, lambda: None, turns=2):
        with serving.warm_up_turn(folder, lambda: None, turns=2):
            third = threading.Thread(target=third_worker)
            third.start()
            assert waited.wait(5)  # the third waits, alive, while two warm up
            assert order == []
            order.append("second done")
        third.join(5)
        assert order == ["second done", "third"]


def test_a_worker_whose_turns_cannot_be_kept_warms_up_at_once(tmp_path):
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    ran = []
    with serving.warm_up_turn(blocked / "warm-up", lambda: ran.append("waited"), turns=1):
        ran.append("warmed")
    assert ran == ["warmed"]


def test_what_survives_a_full_collection_is_left_out_of_the_next_ones(monkeypatch):
    """A worker's full collections walk only what was kept since the one before: the records
    of its characters, new whenever they change, are not walked again and again."""
    monkeypatch.setenv("LARP_WARM_UP", "0")
    serving.gc.disable()  # only the collections asked for below
    serving.gc.unfreeze()
    serving.post_worker_init(object())  # a worker that does not warm up does this too
    try:
        assert serving.freeze_survivors in serving.gc.callbacks
        kept = [[n] for n in range(5000)]  # what a worker keeps
        serving.gc.collect(1)  # a young collection: nothing frozen
        assert serving.gc.get_freeze_count() == 0
        serving.gc.collect()
        frozen = serving.gc.get_freeze_count()
        assert frozen >= len(kept)
        cycle = [kept]
        cycle.append(cycle)  # kept since: walked by the next full collection alone
        serving.gc.collect()
        assert serving.gc.get_freeze_count() > frozen
    finally:
        while serving.freeze_survivors in serving.gc.callbacks:
            serving.gc.callbacks.remove(serving.freeze_survivors)
        serving.gc.unfreeze()
        serving.gc.enable()
