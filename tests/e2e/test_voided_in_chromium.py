"""A referee is told, on the console, when an entry of theirs stops counting: another
phone's earlier-dated kill arrived late."""

import uuid
from datetime import timedelta

from playwright.sync_api import expect

from larp_app.extensions import db
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc
from larp_app.services.entries import judged_state
from larp_app.services.users import create_user

from .test_console_in_chromium import character, open_console  # noqa: F401  (a fixture)


def test_a_late_offline_kill_voids_a_hit_and_the_hit_authors_console_says_so_until_dismissed(
    app,
    live_server,
    phone,
    character,  # noqa: F811
):
    open_console(phone, live_server, character["id"])
    phone.get_by_role("button", name="Colpo", exact=True).click()
    expect(phone.locator("[data-feedback]")).to_contain_text("Registrato")

    with app.app_context():  # another referee's phone, offline a while, sends its kill now
        token = create_user("remo", "referee")[2]
        db.session.commit()
    kill_at = now_utc() - timedelta(minutes=2)
    answer = app.test_client().post(
        "/api/v1/sync",
        json={
            "entries": [
                {
                    "character": character["id"],
                    "id": str(uuid.uuid4()),
                    "kind": "kill",
                    "at": format_instant(kill_at),
                    "sent_at": format_instant(now_utc()),
                    "reason": "agguato",
                }
            ]
        },
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.json["results"][0]["status"] == "stored"

    feedback = phone.locator("[data-feedback]")
    expect(feedback).to_contain_text("Non conta più", timeout=10000)
    expect(feedback).to_contain_text("il personaggio è morto")
    expect(feedback).to_contain_text("remo")
    phone.locator("[data-feedback-ok]").click()
    expect(feedback).to_be_hidden()
    from larp_app.models import Character, DismissedConflict

    for _ in range(50):  # the phone tells the server in the background
        with app.app_context():
            if db.session.query(DismissedConflict).count() == 1:
                break
        phone.wait_for_timeout(100)
    with app.app_context():
        assert db.session.query(DismissedConflict).count() == 1
        assert judged_state(db.session.get(Character, character["id"]), now_utc()).wound == "dead"
    phone.reload()
    expect(phone.locator("[data-hp]")).not_to_have_text("–")
    for _ in range(2):  # a poll or two: the dismissed entry does not come back
        with phone.expect_response(lambda r: r.url.endswith("/state"), timeout=15_000):
            pass
    expect(feedback).not_to_contain_text("Non conta più")
