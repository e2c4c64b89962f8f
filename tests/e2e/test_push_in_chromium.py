"""Told of changes, in a real Chromium: with the push server beside the app, a player's page
and a referee's console stop asking every few seconds (once a minute, a net under the
stream) and show a change logged elsewhere at once; the push server gone, they poll as
ever."""

from __future__ import annotations

import time
import uuid

import pytest
from playwright.sync_api import expect

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, User
from larp_app.services.clock import now_utc
from larp_app.services.demo import load_demo
from larp_app.services.entries import record_entry

from ..web.test_push import Running
from .test_console_in_chromium import open_console

QUIET = 7.0  # seconds with no poll: the page polls every 5 s (the console every 2) without


@pytest.fixture
def push(app):
    running = Running(app.config)
    app.config["PUSH_URL"] = f"http://127.0.0.1:{running.port}"
    yield running
    running.stop()


@pytest.fixture
def character(app):
    with app.app_context():
        load_demo()
        db.session.commit()
        chosen = db.session.scalars(db.select(Character).order_by(Character.id)).first()
        return {"id": chosen.id, "secret": chosen.player_secret}


def hit(app, character_id: int, author: str = "organiser") -> None:
    """A blow logged by another referee's phone (another worker, as far as this page knows)."""
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username == author))
        at = rules.format_instant(now_utc())
        entry = {"id": str(uuid.uuid4()), "kind": "hit", "damage": 1, "at": at}
        record_entry(db.session.get(Character, character_id), entry, user)
        db.session.commit()


def asked(page, part: str) -> list[float]:
    """The instants the page asks for a URL with ``part`` in it, from now on."""
    instants: list[float] = []
    page.on("request", lambda r: instants.append(time.monotonic()) if part in r.url else None)
    return instants


def wait(page, seconds: float) -> None:
    """Wait with the page's events heard as they come (a plain sleep holds them back)."""
    page.wait_for_timeout(seconds * 1000)


def settled(page, polls: list[float], push: Running, quiet: float = 3.0) -> None:
    """Once the page's stream is open and the page has asked nothing for ``quiet`` seconds
    (the stream's opening asks once more); or fail after half a minute."""
    began = time.monotonic()
    while push.server.count < 1 or time.monotonic() - max([began, *polls]) < quiet:
        assert time.monotonic() - began < 30, "the page never opened its stream and settled"
        wait(page, 0.1)


def test_a_player_page_told_of_changes_stops_polling_and_shows_a_change_at_once(
    app, live_server, push, phone, character
):
    polls = asked(phone, "/live.json")
    phone.goto(f"{live_server}/p/{character['secret']}")
    live = phone.locator("[data-live-url]")
    expect(live).to_be_visible()
    settled(phone, polls, push)
    points = phone.locator("[data-stat=hp] b, [data-stat=ap] b")
    before, shown = len(polls), points.all_inner_texts()
    wait(phone, QUIET)
    assert len(polls) == before, "the page polled while told of changes"
    hit(app, character["id"])
    deadline = time.monotonic() + 3
    while points.all_inner_texts() == shown:
        assert time.monotonic() < deadline, "the blow was not shown within 3 s"
        wait(phone, 0.1)
    assert len(polls) == before + 1


def test_a_console_told_of_changes_shows_another_referees_blow_at_once(
    app, live_server, push, phone, character
):
    polls = asked(phone, f"/api/v1/characters/{character['id']}/state")
    open_console(phone, live_server, character["id"])
    settled(phone, polls, push)
    before, hp = len(polls), phone.inner_text("[data-hp]") + phone.inner_text("[data-ap]")
    wait(phone, QUIET)
    assert len(polls) == before, "the console polled while told of changes"
    hit(app, character["id"])
    deadline = time.monotonic() + 3
    while phone.inner_text("[data-hp]") + phone.inner_text("[data-ap]") == hp:
        assert time.monotonic() < deadline, "the blow was not shown within 3 s"
        wait(phone, 0.1)


def test_with_the_push_server_gone_the_page_polls_as_ever(app, live_server, push, phone, character):
    polls = asked(phone, "/live.json")
    phone.goto(f"{live_server}/p/{character['secret']}")
    expect(phone.locator("[data-live-url]")).to_be_visible()
    settled(phone, polls, push)
    before = len(polls)
    push.stop()
    wait(phone, QUIET + 4)
    assert len(polls) >= before + 2, "the page did not go back to polling every 5 s"
