"""A worker that starts in the middle of an event reads each character's stored fold instead
of folding its log again; a stored fold older than the character, or of another rule-system
code, is never used: the state is then the log folded whole."""

from __future__ import annotations

import threading
import uuid

import pytest
from sqlalchemy import select, update

from larp_app import create_app, rules
from larp_app.extensions import db
from larp_app.keeping import kept_folds, records
from larp_app.models import Character, KeptFold
from larp_app.reads.warm_up import warm_open_events
from larp_app.services.clock import now_utc

pytestmark = pytest.mark.both_databases

HIT = {"kind": "hit", "damage": 1, "pierce": True}


@pytest.fixture
def restarted(app):
    """Another worker on the same database, started after the first (nothing kept)."""
    made = []

    def start():
        other = create_app(dict(app.config))
        made.append(other)
        return other

    yield start
    for other in made:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


def log(client, referee, character_id, entry=HIT) -> None:
    body = {"id": str(uuid.uuid4()), "at": rules.format_instant(now_utc()), **entry}
    answer = client.post(f"/api/v1/characters/{character_id}/entries", json=body, headers=referee)
    assert answer.status_code in (200, 201), answer.json


def refuse_to_fold(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("folded")

    monkeypatch.setattr(records.rules, "fold_log", refuse)


def roster_state(client, referee, event_id, character_id) -> dict:
    answer = client.get(f"/api/v1/events/{event_id}/roster", headers=referee)
    assert answer.status_code == 200
    (row,) = [c for c in answer.json["characters"] if c["id"] == character_id]
    return {k: v for k, v in row.items() if k not in ("at",)}


def test_a_worker_started_after_a_restart_answers_the_roster_without_folding(
    app, client, referee, event_id, character_id, restarted, monkeypatch
):
    log(client, referee, character_id)
    with app.app_context():
        warm_open_events()  # the first worker folds, and stores what it folded
    before = roster_state(client, referee, event_id, character_id)

    worker = restarted()
    refuse_to_fold(monkeypatch)
    with worker.app_context():
        warm_open_events()
    after = roster_state(worker.test_client(), referee, event_id, character_id)
    assert after == before


def test_a_stored_fold_older_than_its_character_is_folded_on_with_the_entries_since(
    app, client, referee, event_id, character_id, restarted, monkeypatch
):
    for _ in range(3):
        log(client, referee, character_id)
    with app.app_context():
        warm_open_events()
        stored = db.session.scalar(select(KeptFold.version))
    log(client, referee, character_id)  # the character's version moves past the stored one
    with app.app_context():
        assert db.session.get(Character, character_id).version > stored

    worker = restarted()
    refuse_to_fold(monkeypatch)  # no log folded whole: the stored fold, and one entry on
    with worker.app_context():
        warm_open_events()
    after = roster_state(worker.test_client(), referee, event_id, character_id)
    monkeypatch.undo()
    fresh = restarted()
    with fresh.app_context():  # a worker that never reads a stored fold
        db.session.execute(update(KeptFold).values(fingerprint="none"))
        db.session.commit()
    cold = roster_state(fresh.test_client(), referee, event_id, character_id)
    assert after == cold
    assert after["state"]["hp"] == before_hp(app, character_id) - 4


def test_a_stored_fold_of_the_sheet_before_a_change_is_not_used(
    app, client, organiser, referee, event_id, character_id, restarted
):
    log(client, referee, character_id)
    with app.app_context():
        warm_open_events()
        character = db.session.get(Character, character_id)
        character.larp = {**character.larp, "hp_max": character.larp["hp_max"] + 5}
        db.session.commit()
    after = roster_state(restarted().test_client(), referee, event_id, character_id)
    assert after["state"]["hp"] == before_hp(app, character_id) - 1  # of the new maximum


def test_a_fold_is_stored_again_once_the_stored_one_is_far_behind(
    app, client, referee, event_id, character_id
):
    with app.app_context():
        warm_open_events()
        first = db.session.scalar(select(KeptFold.version))
    for _ in range(kept_folds.BEHIND - 1):
        log(client, referee, character_id)
    client.get(f"/api/v1/events/{event_id}/roster", headers=referee)  # the view reads them
    with app.app_context():
        assert db.session.scalar(select(KeptFold.version)) == first  # not yet far behind
    log(client, referee, character_id)
    client.get(f"/api/v1/events/{event_id}/roster", headers=referee)
    with app.app_context():
        assert db.session.scalar(select(KeptFold.version)) == (
            db.session.get(Character, character_id).version
        )


def before_hp(app, character_id) -> int:
    with app.app_context():
        return db.session.get(Character, character_id).larp["hp_max"]


def test_a_stored_fold_of_another_rule_system_code_is_ignored(
    app, client, referee, event_id, character_id, restarted, monkeypatch
):
    log(client, referee, character_id)
    with app.app_context():
        warm_open_events()
    before = roster_state(client, referee, event_id, character_id)
    monkeypatch.setattr(kept_folds, "RULES_VERSION", kept_folds.RULES_VERSION + 1)
    kept_folds._code_digest.cache_clear()

    worker = restarted()
    folds = []
    original = records.rules.fold_log
    monkeypatch.setattr(
        records.rules, "fold_log", lambda *a, **k: folds.append(1) or original(*a, **k)
    )
    after = roster_state(worker.test_client(), referee, event_id, character_id)
    assert folds  # another code's fold is folded again
    assert after == before
    kept_folds._code_digest.cache_clear()


def test_a_stored_fold_that_names_code_outside_the_rules_is_refused():
    class Trap:
        def __reduce__(self):
            return (print, ("run",))

    import pickle

    with pytest.raises(pickle.UnpicklingError):
        kept_folds.loads(pickle.dumps(Trap()))


def test_a_view_stores_its_folds_without_holding_up_an_entry_that_waits_for_the_records(
    app, event_id, character_id, monkeypatch
):
    """A view's folds are stored once the worker's records are free again: an entry's write
    (holding the database's write lock) that needs the records meanwhile is not held up
    until the store gives up, and the folds are stored."""
    from larp_app.keeping.views import views
    from larp_app.models import Event
    from larp_app.services.writers import write_transaction

    holding, storing = threading.Event(), threading.Event()
    real_store = kept_folds.store

    def store(rows):
        storing.set()
        real_store(rows)

    monkeypatch.setattr(kept_folds, "store", store)
    failed = []

    def entry():
        with app.app_context():
            write_transaction()  # the write lock, as an entry's write holds it
            holding.set()
            storing.wait(10)
            kept = records.records()
            kept.records.pop(character_id, None)  # stale here: another worker wrote since
            kept.record(db.session.get(Character, character_id))
            db.session.commit()

    def view():
        holding.wait(10)
        with app.app_context():
            views().view(db.session.get(Event, event_id), now_utc())
            failed.append(db.session.info.get("larp_kept_folds_failed", False))

    threads = [threading.Thread(target=entry), threading.Thread(target=view)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert storing.is_set() and failed == [False]
    with app.app_context():
        assert db.session.get(KeptFold, character_id) is not None
