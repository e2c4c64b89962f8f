"""A backup is restored over a database the app no longer serves: ``backup restore`` refuses
while a worker answered lately, and a forced one leaves no worker answering what it kept of
the database as it was before (the restore gives the database a new epoch)."""

from __future__ import annotations

import uuid

import pytest

from larp_app import create_app, rules
from larp_app.extensions import db
from larp_app.models import Entry, Heartbeat
from larp_app.services.clock import now_utc

from .conftest import auth

pytestmark = pytest.mark.both_databases


def hit(worker, character_id, token, damage):
    body = {"id": str(uuid.uuid4()), "kind": "hit", "damage": damage, "pierce": True,
            "at": rules.format_instant(now_utc())}  # fmt: skip
    answer = worker.post(
        f"/api/v1/characters/{character_id}/entries", json=body, headers=auth(token)
    )
    assert answer.status_code == 201, answer.json
    return body["id"]


def state(worker, character_id, token, **headers):
    return worker.get(
        f"/api/v1/characters/{character_id}/state", headers={**auth(token), **headers}
    )


@pytest.fixture
def backup(runner, character_id, tmp_path):
    path = tmp_path / "before.backup"
    made = runner.invoke(args=["backup", "create", str(path)])
    assert made.exit_code == 0, made.output
    return path


def test_a_restore_onto_a_database_just_made_goes_ahead(app, runner, backup):
    """The migrations wrote a heartbeat of their own as they ran: no worker answered, so a
    restore just after ``flask db upgrade`` (a new laptop's first steps) is not refused."""
    with app.app_context():  # as the migrations left it, a moment ago
        db.session.execute(db.update(Heartbeat).values(at=now_utc()))
        db.session.commit()
    restored = runner.invoke(args=["backup", "restore", str(backup), "--yes"])
    assert restored.exit_code == 0, restored.output


def test_a_restore_while_the_app_serves_is_refused(
    app, client, runner, tokens, character_id, backup
):
    kept = hit(client, character_id, tokens["referee"], 1)  # after the backup: not in it
    answered = state(client, character_id, tokens["referee"])
    assert answered.status_code == 200
    answered.close()  # the worker says it serves once its answer is sent, as gunicorn closes it
    refused = runner.invoke(args=["backup", "restore", str(backup), "--yes"])
    assert refused.exit_code == 2
    assert "serving" in refused.output and "--force" in refused.output
    with app.app_context():
        assert db.session.scalar(db.select(Entry.id).where(Entry.client_id == kept))


def test_a_forced_restore_leaves_no_worker_answering_from_before_it(
    app, client, other_worker, runner, tokens, character_id, backup
):
    token = tokens["referee"]
    hit(client, character_id, token, 1)  # after the backup: gone with the restore
    tags = {}
    for worker in (client, other_worker):
        first = state(worker, character_id, token)
        assert (
            state(
                worker, character_id, token, **{"If-None-Match": first.headers["ETag"]}
            ).status_code
            == 304
        )
        tags[worker] = first.headers["ETag"]
    done = runner.invoke(args=["backup", "restore", str(backup), "--yes", "--force"])
    assert done.exit_code == 0, done.output
    # Another entry gives the character the very version it had before the restore.
    hit(other_worker, character_id, token, 2)
    cold = create_app(dict(app.config))
    expected = state(cold.test_client(), character_id, token).json
    with cold.app_context():
        db.engine.dispose()
    for worker in (client, other_worker):
        again = state(worker, character_id, token, **{"If-None-Match": tags[worker]})
        assert again.status_code == 200
        answered = again.json
        assert answered["hp"] == expected["hp"] == answered["hp_max"] - 2
        assert {k: v for k, v in answered.items() if k != "at"} == {
            k: v for k, v in expected.items() if k != "at"
        }
