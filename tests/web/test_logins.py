"""Failed logins slow the attacker down and never keep the owner out.

Time is an argument of the login service: the attacks below run over several of its
windows on a clock of their own, with no real waiting.
"""

import heapq
import math
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update
from werkzeug.security import generate_password_hash

from larp_app.extensions import db
from larp_app.models import LoginAttempt, User
from larp_app.services import logins
from larp_app.services.logins import attempt_login

from .helpers import make_user, post_form

START = datetime(2027, 3, 6, 14, 0, tzinfo=UTC)
ATTACKERS = [f"10.0.0.{n}" for n in range(1, 9)]
OWNER = "10.0.1.50"


def quick_password(app, username, password):
    """The same check at a tiny cost: thousands of tries take seconds, not minutes."""
    with app.app_context():
        hashed = generate_password_hash(password, method="pbkdf2:sha256:1")
        db.session.execute(
            update(User).where(User.username == username).values(password_hash=hashed)
        )
        db.session.commit()


def test_the_owner_gets_in_every_ten_seconds_while_eight_addresses_attack_for_three_windows(app):
    make_user(app, "olga", "organiser")
    quick_password(app, "olga", "the-right-one")
    tick = timedelta(seconds=2)  # each address tries every 2 s: 4 wrong tries a second in all
    end = START + 3 * logins.WINDOW
    waits, owner_in, guesses = [], [], 0
    with app.app_context():
        # In order of time: the owner every 10 s, each attacker at its next tick. A try
        # refused for its wait changes nothing, so an attacker refused until T is next seen
        # at the first of its ticks from T on (the same outcome as trying at every tick).
        queue = [(START + i * tick / len(ATTACKERS), 1, a) for i, a in enumerate(ATTACKERS)]
        queue += [(START + timedelta(seconds=s), 0, OWNER) for s in range(30, 2700, 10)]
        heapq.heapify(queue)
        while queue:
            at, order, address = heapq.heappop(queue)
            if address == OWNER:
                user, wait = attempt_login("olga", "the-right-one", OWNER, at)
                if user is None:  # one short wait, then the same password gets in
                    waits.append(wait)
                    user, _wait = attempt_login("olga", "the-right-one", OWNER, at + wait)
                owner_in.append(user is not None)
                continue
            _user, wait = attempt_login("olga", "a-guess", address, at)
            guesses += wait == timedelta(0)
            ticks = max(1, math.ceil(wait / tick))
            if at + ticks * tick < end:
                heapq.heappush(queue, (at + ticks * tick, order, address))
    assert len(owner_in) == 267 and all(owner_in)
    assert all(wait <= logins.NEW_ADDRESS_WAIT for wait in waits)
    assert len(waits) <= 3  # the owner hardly ever waits at all
    # The attackers are slowed as before: 10,800 tries in 45 minutes, a few dozen judged.
    assert guesses < 200


def test_an_attacker_is_still_slowed_down_from_each_of_its_addresses(app):
    make_user(app, "olga", "organiser")
    quick_password(app, "olga", "the-right-one")
    with app.app_context():
        at = START
        for _ in range(30):
            for address in ATTACKERS:
                attempt_login("olga", "a-guess", address, at)
            at += timedelta(milliseconds=100)
        # Under attack: the right password from an attacking address waits too.
        for address in ATTACKERS:
            user, wait = attempt_login("olga", "the-right-one", address, at)
            assert user is None and wait > timedelta(0)
        failed = db.session.scalar(select(db.func.count()).select_from(LoginAttempt))
        assert failed < 30 * len(ATTACKERS) / 4


def test_a_stranger_cannot_keep_the_owner_out_of_the_login_page(app, monkeypatch):
    make_user(app, "olga", "organiser")
    quick_password(app, "olga", "a-long-password")
    clock = {"now": START}
    monkeypatch.setattr("larp_app.web.auth.now_utc", lambda: clock["now"])

    def try_from(address, password):
        client = app.test_client()
        form = {"username": "olga", "password": password}
        return post_form(client, "/login", form, environ_base={"REMOTE_ADDR": address})

    for second in range(5):  # 8 addresses, a wrong try each a second: 40 failures
        clock["now"] = START + timedelta(seconds=second)
        for address in ATTACKERS:
            assert try_from(address, "a-guess").status_code in (401, 429)
    clock["now"] = START + timedelta(seconds=6)
    answer = try_from(OWNER, "a-long-password")
    assert answer.status_code == 302
    assert try_from(ATTACKERS[0], "a-long-password").status_code == 429
