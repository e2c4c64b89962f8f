"""A worker builds the open events' kept views before it takes requests: its first roster
folds nothing; and it is never killed for building one."""

from __future__ import annotations

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
