"""Background prints cannot get stuck: a dead worker's print fails in words and starts
again; the same selection twice at once runs once."""

import threading
from datetime import timedelta

import pytest

from larp_app.extensions import db
from larp_app.models import PrintJob
from larp_app.services.badge_prints import selection_key
from larp_app.services.clock import now_utc
from larp_app.services.demo import load_demo

from .helpers import log_in, post_form
from .test_badge_pages import wait_for


def finished(app, job_id: int) -> str:
    """Wait for the print, and for its thread to let go of its database connection."""
    status = wait_for(app, job_id)[0]
    for thread in threading.enumerate():
        if thread.name.startswith(f"badge-print-{job_id}"):
            thread.join(timeout=30)
    return status


@pytest.fixture
def organiser(app, client):
    with app.app_context():
        load_demo()
        db.session.commit()
    log_in(client, "organiser", "organiser-demo")
    return client


def orphan_print(app, seconds_silent: int, faction: str = "") -> int:
    """A print left 'running' by a worker that died seconds_silent ago (no thread runs it)."""
    options = {"layout": "a6-4up", "paper": "a4", "faction": faction, "only_new": False}
    with app.app_context():
        from larp_app.models import Event

        event = db.session.get(Event, 1)
        then = now_utc() - timedelta(seconds=seconds_silent)
        job = PrintJob(
            event_id=1,
            options={**options, "base": "http://x", "labels": {}},
            status="running",
            created_at=then,
            heartbeat_at=then,
            running_key=selection_key(event, options),
        )
        db.session.add(job)
        db.session.commit()
        return job.id


@pytest.mark.both_databases
def test_a_print_whose_worker_died_is_seen_as_failed_and_can_be_started_again(
    app, organiser, database_url
):
    job_id = orphan_print(app, seconds_silent=120)
    answer = organiser.get(f"/events/1/badges/jobs/{job_id}.json").get_json()
    assert answer["status"] == "failed"
    assert "stopped" in answer["error"]
    page = organiser.get(f"/events/1/badges/jobs/{job_id}").get_data(as_text=True)
    assert "Start it again" in page
    page_url = f"/events/1/badges/jobs/{job_id}"
    again = post_form(organiser, f"{page_url}/again", {}, page=page_url)
    assert again.status_code == 302
    new_id = int(again.headers["Location"].rsplit("/", 1)[1])
    assert new_id != job_id
    assert finished(app, new_id) == "done"


def test_a_print_with_a_recent_heartbeat_is_still_running(app, organiser):
    job_id = orphan_print(app, seconds_silent=2)
    assert organiser.get(f"/events/1/badges/jobs/{job_id}.json").get_json()["status"] == "running"


@pytest.mark.both_databases
def test_the_same_selection_twice_at_once_runs_once(app, organiser, database_url):
    running = orphan_print(app, seconds_silent=1)
    answer = post_form(
        organiser,
        "/events/1/badges/print",
        {"layout": "cr80-10up", "paper": "a4"},
        page="/events/1/badges",
    )
    assert answer.headers["Location"].endswith(f"/badges/jobs/{running}")
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(PrintJob)) == 1
    page = organiser.get(answer.headers["Location"]).get_data(as_text=True)
    assert "already being printed" in page


def test_another_selection_runs_beside_a_running_print(app, organiser):
    running = orphan_print(app, seconds_silent=1)
    answer = post_form(
        organiser,
        "/events/1/badges/print",
        {"layout": "a6-4up", "paper": "a4", "only_new": "on"},
        page="/events/1/badges",
    )
    new_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert new_id != running
    assert finished(app, new_id) == "done"
    with app.app_context():
        assert db.session.get(PrintJob, new_id).running_key is None
