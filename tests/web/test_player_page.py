"""The player's own page behind the secret link on the back of the badge."""

import html
import uuid
from datetime import timedelta

import pytest

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, User
from larp_app.services.clock import now_utc
from larp_app.services.demo import load_demo
from larp_app.services.entries import record_entry

from .helpers import make_user


@pytest.fixture
def cast(app):
    """The demo event; returns {name: player secret} for its 24 characters."""
    with app.app_context():
        load_demo()
        db.session.commit()
        return dict(db.session.execute(db.select(Character.name, Character.player_secret)).all())


def log(app, name, kind, author="giudice-zeta", seconds_ago=5, **fields):
    """Record an entry on the named character as a referee would; return its id."""
    with app.app_context():
        if db.session.scalar(db.select(User).where(User.username == author)) is None:
            make_user(app, author, "referee")
        user = db.session.scalar(db.select(User).where(User.username == author))
        character = db.session.scalar(db.select(Character).where(Character.name == name))
        entry_id = str(uuid.uuid4())
        at = rules.format_instant(now_utc() - timedelta(seconds=seconds_ago))
        record_entry(character, {"id": entry_id, "kind": kind, "at": at, **fields}, user)
        db.session.commit()
        return entry_id


def text_of(answer) -> str:
    return html.unescape(answer.get_data(as_text=True))


def test_a_player_sees_their_own_sheet_and_state_and_nothing_about_anyone_else(client, cast):
    mine = "Dott.ssa Irene Valsecchi"
    page = client.get(f"/p/{cast[mine]}")
    assert page.status_code == 200
    text = text_of(page)
    assert mine in text
    assert "Chiara Moretti" in text  # the player, on their own sheet
    for other in set(cast) - {mine}:
        assert other not in text
    twin = client.get(f"/p/{cast[mine]}/live.json")
    assert twin.get_json()["character"]["name"] == mine
    for other in set(cast) - {mine}:
        assert other not in twin.get_data(as_text=True)


def test_the_page_needs_no_login_and_asks_search_engines_to_stay_away(client, cast):
    page = client.get(f"/p/{cast['Guardia Tobia Sala']}")
    assert page.status_code == 200
    assert '<meta name="robots" content="noindex">' in page.get_data(as_text=True)
    assert page.headers["X-Robots-Tag"] == "noindex"


def test_the_secret_is_read_whatever_its_case(client, cast):
    page = client.get(f"/p/{cast['Guardia Tobia Sala'].lower()}")
    assert page.status_code == 200
    assert "Guardia Tobia Sala" in text_of(page)


@pytest.mark.parametrize("secret", ["NOPE", "A" * 26, "x" * 500, "%27%20OR%201%3D1"])
def test_an_unknown_secret_is_answered_404_revealing_nothing(client, cast, secret):
    page = client.get(f"/p/{secret}")
    assert page.status_code == 404
    text = text_of(page)
    assert "There is nothing here." in text
    assert '<meta name="robots" content="noindex">' in text
    for name in cast:
        assert name not in text
    assert "Hit points" not in text
    twin = client.get(f"/p/{secret}/live.json")
    assert twin.status_code == 404
    assert twin.get_json() == {"error": "not_found"}


def test_the_page_shows_the_state_with_its_timers(app, client, cast):
    name = "Guardia Tobia Sala"  # Corpo 17: 3 hit points, no armour points to soak
    log(app, name, "hit", blows=10, pierce=True, seconds_ago=60)
    log(app, name, "status_on", key="paura", seconds_ago=1)
    twin = client.get(f"/p/{cast[name]}/live.json").get_json()
    state = twin["state"]
    assert (state["hp"], state["wound"]) == (-1, "dying")
    assert state["death_at"]
    assert [s["key"] for s in state["statuses"]] == ["paura"]
    text = text_of(client.get(f"/p/{cast[name]}"))
    assert f'data-until="{state["death_at"]}"' in text  # the phone ticks from the timestamp
    assert f'data-until="{state["statuses"][0]["until"]}"' in text
    assert "dying" in text and "✚" in text  # in words and a symbol, not colour alone
    assert "Fear" in text  # the status by its name, not its key


def test_the_page_shows_no_log_authors_and_no_conflicts(app, client, cast):
    name = "Scout Greta Colombo"
    healed = log(app, name, "heal", amount=1, seconds_ago=5)
    log(app, name, "kill", reason="plot", seconds_ago=10)  # arrives late: the heal conflicts
    for url in (f"/p/{cast[name]}", f"/p/{cast[name]}/live.json"):
        text = text_of(client.get(url))
        assert "giudice-zeta" not in text
        assert healed not in text
        assert "conflict" not in text.lower()
    twin = client.get(f"/p/{cast[name]}/live.json").get_json()
    assert "conflicts" not in twin["state"]
    assert twin["state"]["wound"] == "dead"


def test_the_json_twin_answers_304_until_something_changes(app, client, cast):
    name = "Ladro Matteo Conti"
    url = f"/p/{cast[name]}/live.json"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    log(app, name, "hit", pierce=True, seconds_ago=1)
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.get_json()["state"]["hp"] == first.get_json()["state"]["hp"] - 1
    assert 'data-stat="hp"' in changed.get_json()["html"]


def test_the_page_is_read_only(client, cast):
    secret = cast["Ladro Matteo Conti"]
    assert client.post(f"/p/{secret}").status_code in (400, 405)
    assert client.post(f"/p/{secret}/live.json").status_code in (400, 405)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("it", ["Muore tra", "a meno che un guaritore non ti raggiunga.", "Status", "Punti Vita"]),
        ("es", ["Muere en", "a menos que un sanador llegue hasta ti.", "Estados"]),
        ("en", ["Dies in", "unless a healer reaches you.", "Statuses"]),
    ],
)
def test_the_live_part_speaks_each_page_s_language_one_after_another(
    app, client, cast, language, words
):
    name = "Guardia Tobia Sala"
    log(app, name, "hit", blows=10, pierce=True, seconds_ago=60)  # dying: every word shown
    # Each language asked in turn, the page's own last: the words found for one language
    # are never another's.
    for other in [*(lang for lang in ("it", "es", "en") if lang != language), language]:
        twin = client.get(f"/p/{cast[name]}/live.json", headers={"Accept-Language": other})
    part = html.unescape(twin.get_json()["html"])
    for word in words:
        assert word in part
    others = {"it": "Muore tra", "es": "Muere en", "en": "Dies in"}
    assert [w for lang, w in others.items() if lang != language and w in part] == []
