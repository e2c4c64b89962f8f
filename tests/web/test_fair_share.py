"""No account takes more than its share of the server: costly reads (whole rosters, a
roster folded at another instant, exports, the report) run one at a time per account, a
burst of them freely, a sustained share beyond the account's part slowed, and leave workers
free for everyone's cheap requests; a refused one is told when to come back (a page asks
again by itself)."""

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
    with fair_share.costly(fair, user_id(app, "referee-1"), burst=2, part=0.25, slots=2):
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


def test_a_sustained_share_beyond_the_accounts_part_is_slowed_and_told_when_to_come_back(
    app, client, fair, clock, referee, event_id
):
    """A loop's costly reads: once its burst allowance is spent, the account waits until its
    part (a quarter of one worker) has paid the reads back."""
    me = user_id(app, "referee-1")
    for _ in range(3):  # three reads of 1 s back to back, on an allowance of 2 s
        with fair_share.costly(fair, me, burst=2, part=0.25, slots=2):
            clock["t"] += 1.0
    for url in (f"/api/v1/events/{event_id}/roster", "/api/v1/roster"):
        refused = client.get(url, headers=referee)
        # 0.5 s owed beyond the allowance, paid back at a quarter of a second a second: 2 s
        assert (refused.status_code, refused.headers["Retry-After"]) == (429, "2"), url
        assert refused.json["error"] == "fair_share"
    clock["t"] += 2.0
    assert client.get(f"/api/v1/events/{event_id}/roster", headers=referee).status_code == 200
    # A roster asked again since a version is cheap: never limited.
    since = client.get(f"/api/v1/events/{event_id}/roster", headers=referee).json["version"]
    answer = client.get(f"/api/v1/events/{event_id}/roster?since={since}", headers=referee)
    assert answer.status_code in (200, 304)


def test_a_referee_opening_the_full_roster_twice_in_a_few_seconds_is_answered_both_times(
    app, client, fair, clock, referee, event_id
):
    me = user_id(app, "referee-1")
    with fair_share.costly(fair, me, burst=2, part=0.25, slots=2):
        clock["t"] += 1.0  # the first roster took a second
    clock["t"] += 2.0
    assert client.get("/api/v1/roster", headers=referee).status_code == 200
    assert client.get(f"/api/v1/events/{event_id}/roster", headers=referee).status_code == 200


def test_an_organisers_heavy_exports_never_take_the_last_free_workers(
    app, client, fair, clock, organiser, referee, event_id, character_id
):
    # Two costly reads of other accounts are running: every costly slot is taken.
    with (
        fair_share.costly(fair, 9001, burst=2, part=0.25, slots=2),
        fair_share.costly(fair, 9002, burst=2, part=0.25, slots=2),
    ):
        export = client.get(f"/api/v1/events/{event_id}/export", headers=organiser)
        assert (export.status_code, export.json["error"]) == (429, "server_busy")
        assert export.headers["Retry-After"]
        state = client.get(f"/api/v1/characters/{character_id}/state", headers=referee)
        assert state.status_code == 200  # the referees' cheap requests are served
    assert client.get(f"/api/v1/events/{event_id}/export", headers=organiser).status_code == 200


def test_an_organiser_opens_the_report_then_the_csv_then_the_workbook_at_once(
    app, fair, clock, event_id
):
    """A person clicking is no loop: each costly page answered, one after another."""
    from .helpers import log_in, make_user

    make_user(app, "olga", "organiser")
    browser = app.test_client()
    log_in(browser, "olga")
    with fair_share.costly(fair, user_id(app, "olga"), burst=2, part=0.25, slots=2):
        clock["t"] += 0.5  # the event page's own costly read, say
    for page in (
        f"/events/{event_id}/report",
        f"/events/{event_id}/export/states.csv",
        f"/events/{event_id}/export.xlsx",
        f"/events/{event_id}/export.json",
        f"/referee/events/{event_id}",
    ):
        clock["t"] += 0.3
        assert browser.get(page).status_code == 200, page


def test_a_refused_page_waits_and_asks_again_by_itself_saying_why(app, fair, clock, event_id):
    from .helpers import log_in, make_user

    make_user(app, "olga", "organiser")
    browser = app.test_client()
    log_in(browser, "olga")
    with fair_share.costly(fair, user_id(app, "olga"), burst=2, part=0.25, slots=2):
        clock["t"] += 3.0  # a long read: 1 s beyond the allowance
    answer = browser.get(f"/events/{event_id}/report")
    assert (answer.status_code, answer.headers["Retry-After"]) == (429, "4")
    assert answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    assert '<meta http-equiv="refresh" content="4">' in page
    assert "costly reads" in page and "4 s" in page
    clock["t"] += 4.0
    assert browser.get(f"/events/{event_id}/report").status_code == 200
