"""No account takes more than its share of the server: costly reads (whole rosters, a
roster folded at another instant, exports, the report) take turns per account and leave
workers free for everyone's cheap requests; a refused one is told when to come back."""

from pathlib import Path

import pytest

from larp_app.extensions import db
from larp_app.models import User
from larp_app.services import fair_share
from larp_app.services.users import create_user

pytestmark = pytest.mark.both_databases


@pytest.fixture
def fair(app):
    app.config["FAIR_SHARE"] = True
    return Path(app.config["FAIR_SHARE_FOLDER"])


@pytest.fixture
def clock(monkeypatch):
    """The limiter's clock, moved by the test."""
    now = {"t": 1_000_000.0}
    monkeypatch.setattr(fair_share, "now", lambda: now["t"])
    return now


def user_id(app, username):
    with app.app_context():
        return db.session.scalar(db.select(User.id).where(User.username == username))


def bearer(app, username, role="referee"):
    with app.app_context():
        token = create_user(username, role)[2]
        db.session.commit()
    return {"Authorization": f"Bearer {token}"}


def test_a_second_costly_read_of_one_account_waits_its_turn_and_others_do_not(
    app, client, fair, clock, referee, event_id, character_id
):
    other = bearer(app, "rita")
    roster = f"/api/v1/events/{event_id}/roster?at=2027-03-06T15:00:00Z"
    # The referee's first costly read is still running (another worker)...
    with fair_share.costly(fair, user_id(app, "referee-1"), rest=3, slots=2):
        refused = client.get(roster, headers=referee)
        assert refused.status_code == 429
        assert refused.headers["Retry-After"] == "1"
        assert refused.json["error"] == "fair_share"
        assert refused.json["message"].startswith(
            "costly reads (whole rosters, exports, the report) come one at a time"
        )
        # ... their cheap requests go on, and another referee's costly read too.
        assert (
            client.get(f"/api/v1/characters/{character_id}/state", headers=referee).status_code
            == 200
        )
        assert client.get(roster, headers=other).status_code == 200
    assert client.get(roster, headers=referee).status_code == 200


def test_after_a_costly_read_the_account_rests_three_times_as_long(
    app, client, fair, clock, referee, event_id
):
    with fair_share.costly(fair, user_id(app, "referee-1"), rest=3, slots=2):
        clock["t"] += 2.0  # a read that took 2 s
    for url in (f"/api/v1/events/{event_id}/roster", "/api/v1/roster"):
        refused = client.get(url, headers=referee)
        assert (refused.status_code, refused.headers["Retry-After"]) == (429, "6"), url
    clock["t"] += 6.0
    assert client.get(f"/api/v1/events/{event_id}/roster", headers=referee).status_code == 200
    # A roster asked again since a version is cheap: never limited.
    since = client.get(f"/api/v1/events/{event_id}/roster", headers=referee).json["version"]
    answer = client.get(f"/api/v1/events/{event_id}/roster?since={since}", headers=referee)
    assert answer.status_code in (200, 304)


def test_an_organisers_heavy_exports_never_take_the_last_free_workers(
    app, client, fair, clock, organiser, referee, event_id, character_id
):
    # Two costly reads of other accounts are running: every costly slot is taken.
    with (
        fair_share.costly(fair, 9001, rest=3, slots=2),
        fair_share.costly(fair, 9002, rest=3, slots=2),
    ):
        export = client.get(f"/api/v1/events/{event_id}/export", headers=organiser)
        assert (export.status_code, export.json["error"]) == (429, "server_busy")
        assert export.headers["Retry-After"]
        state = client.get(f"/api/v1/characters/{character_id}/state", headers=referee)
        assert state.status_code == 200  # the referees' cheap requests are served
    assert client.get(f"/api/v1/events/{event_id}/export", headers=organiser).status_code == 200


def test_the_organisers_pages_that_cost_much_take_their_turn_too(app, fair, clock, event_id):
    from .helpers import log_in, make_user

    make_user(app, "olga", "organiser")
    browser = app.test_client()
    log_in(browser, "olga")
    with fair_share.costly(fair, user_id(app, "olga"), rest=3, slots=2):
        clock["t"] += 1.0
    for page in (
        f"/events/{event_id}/report",
        f"/events/{event_id}/export/states.csv",
        f"/events/{event_id}/export.json",
        f"/referee/events/{event_id}",
    ):
        answer = browser.get(page)
        assert (answer.status_code, answer.headers.get("Retry-After")) == (429, "3"), page
    clock["t"] += 3.0
    assert browser.get(f"/events/{event_id}/report").status_code == 200
