"""A worker builds the open events' kept views before it takes requests: its first roster
folds nothing; and it is never killed for building one."""

from __future__ import annotations

import json

from larp_app import serving
from larp_app.keeping import records
from larp_app.reads.warm_up import warm_open_events


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


def test_workers_keep_connections_alive_and_outlast_a_long_first_view():
    from gunicorn.workers.gthread import ThreadWorker

    assert serving.worker_class == "larp_app.serving.ThreadWorker"
    assert issubclass(serving.ThreadWorker, ThreadWorker) and serving.threads > 1
    assert serving.keepalive >= 5  # phones poll every few seconds
    assert serving.timeout > 30  # gunicorn's default killed workers building a big view


def test_the_master_warms_up_before_the_workers_fork_and_each_answers_on_its_own_connections(
    database_url, tmp_path, client, referee, event_id, character_id
):
    """As make run serves: the views built once, in the master, before any worker forks
    (the workers share them); no connection of the master's is carried into a worker: an
    entry through one worker is seen by the others, whichever answers."""
    from .served import Served

    served = Served(database_url, tmp_path, config=True, workers=2, warm=True)
    try:
        log = served.log.read_text()
        master = [
            line for line in log.splitlines() if f"[{served.process.pid}] [INFO] warm:" in line
        ]
        assert master == [line for line in master if f"event {event_id}, 1 characters" in line]
        assert len(master) == 1, log
        token = referee["Authorization"].removeprefix("Bearer ")
        state = f"/api/v1/characters/{character_id}/state"

        def states():
            return {json.dumps(served.request("GET", state, token=token)[1]) for _ in range(6)}

        before = states()
        entry = {"character": character_id, "id": "6f1c1d0e-8a43-4cf3-9d4e-1d2c3b4a5f60",
                 "kind": "hit", "damage": 1, "pierce": True, "at": _now()}  # fmt: skip
        status, body = served.request("POST", "/api/v1/sync", {"entries": [entry]}, token)
        assert status == 200 and body["results"][0]["status"] == "stored", body
        after = states()
        assert len(before) == 1 and len(after) == 1 and after != before
    finally:
        served.stop()


def _now() -> str:
    from larp_app.rules import format_instant
    from larp_app.services.clock import now_utc

    return format_instant(now_utc())
