"""An event moves between databases: SQLite → PostgreSQL → SQLite gives the same states at
every instant, and the same archive; importing twice is refused in words."""

import json
import shutil
import time
import uuid
from datetime import timedelta

import pytest
from markupsafe import escape

from larp_app import create_app
from larp_app.extensions import db
from larp_app.models import Badge, Character, Entry, Event, User
from larp_app.rules import format_instant
from larp_app.services.badges import BadgeRefused, active_badge, issue_badge, resolve_badge
from larp_app.services.checkin import find_at_desk
from larp_app.services.clock import now_utc
from larp_app.services.demo import load_demo
from larp_app.services.entries import log_of, state_of
from larp_app.services.sync import sync_one

from ..conftest import POSTGRES_URL
from .helpers import log_in, make_user, post_form


def play_an_event(app) -> int:
    """The demo event with a log: hits, a heal, an undo, a death, refusals, a reissued badge."""
    with app.app_context():
        demo = load_demo()
        referee = db.session.scalar(db.select(User).where(User.username == "referee"))
        organiser = db.session.scalar(db.select(User).where(User.username == "organiser"))
        now = now_utc()

        def log(user, character, kind, seconds_ago, **fields):
            at = format_instant(now - timedelta(seconds=seconds_ago))
            item = {"character": character, "id": str(uuid.uuid4()), "kind": kind, "at": at}
            return sync_one(user, {**item, **fields})

        for seconds_ago in (300, 240, 240, 200):  # two at the same instant: arrival decides
            assert log(referee, 1, "hit", seconds_ago, damage=2)["status"] == "stored"
        hit = log(referee, 2, "hit", 120, blows=3)
        assert log(referee, 2, "undo", 100, target=hit["id"])["status"] == "stored"
        assert log(referee, 2, "heal", 90, amount=1)["status"] == "stored"
        assert log(organiser, 3, "kill", 60, reason="fell")["status"] == "stored"
        assert log(referee, 3, "hit", 30)["status"] == "refused"  # the dead take no hits
        assert log(referee, 4, "note", 10, text="è andato a destra")["status"] == "stored"
        character = db.session.get(Character, 5)
        issue_badge(character)
        issue_badge(character)  # lost twice: two revoked cards
        with pytest.raises(BadgeRefused):
            resolve_badge("ZZZZ-ZZZZ", referee, demo.event_id)
        db.session.commit()
        return demo.event_id


DAY_ON = now_utc() + timedelta(days=1)


def states(app, event_id: int) -> list:
    """Every character's state at every instant of the log, just around it, and a day on."""
    with app.app_context():
        event = db.session.get(Event, event_id)
        result = []
        for character in sorted(event.characters, key=lambda c: c.id):
            instants = {DAY_ON}
            for entry in log_of(character):
                instants |= {entry.at - timedelta(seconds=1), entry.at, entry.at + timedelta(0, 1)}
            result.append(
                [(c, state_of(character, t).to_dict()) for c, t in enumerate(sorted(instants))]
            )
        return result


def export(runner, event_id: int, path) -> dict:
    answer = runner.invoke(args=["event", "export", str(event_id), "--out", str(path)])
    assert answer.exit_code == 0, answer.output
    return json.loads(path.read_text(encoding="utf-8"))


def imported(runner, path) -> int:
    answer = runner.invoke(args=["event", "import", str(path)])
    assert answer.exit_code == 0, answer.output
    return int(answer.output.split("imported as event ", 1)[1].split(":", 1)[0])


def test_an_event_round_trips_sqlite_postgresql_sqlite_with_the_same_states(
    app, runner, postgres_copies, sqlite_template, tmp_path
):
    if postgres_copies.reason:
        pytest.skip(postgres_copies.reason)
    event_id = play_an_event(app)
    first = export(runner, event_id, tmp_path / "first.json")
    assert "password_hash" not in json.dumps(first)
    assert len(first["entries"]) == 9 and len(first["refusals"]) == 1
    assert len(first["refused_scans"]) == 1

    postgres_copies.fresh()  # an empty PostgreSQL database
    server = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": POSTGRES_URL})
    on_server = imported(server.test_cli_runner(), tmp_path / "first.json")
    second = export(server.test_cli_runner(), on_server, tmp_path / "second.json")

    shutil.copyfile(sqlite_template, tmp_path / "laptop.sqlite3")
    laptop = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'laptop.sqlite3'}"}
    )
    back = imported(laptop.test_cli_runner(), tmp_path / "second.json")
    third = export(laptop.test_cli_runner(), back, tmp_path / "third.json")

    assert second == first
    assert third == first
    original = states(app, event_id)
    assert sum(len(s) for s in original) > 30
    assert states(server, on_server) == original
    assert states(laptop, back) == original
    with server.app_context():
        db.session.remove()
        db.engine.dispose()


def test_an_imported_event_keeps_the_entries_arrival_order_and_authors(
    app, runner, sqlite_template, tmp_path
):
    event_id = play_an_event(app)
    export(runner, event_id, tmp_path / "event.json")
    shutil.copyfile(sqlite_template, tmp_path / "other.sqlite3")
    target = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'other.sqlite3'}"}
    )
    answer = target.test_cli_runner().invoke(args=["event", "import", str(tmp_path / "event.json")])
    assert answer.exit_code == 0, answer.output
    assert "new account referee: password " in answer.output  # no password travelled
    with app.app_context():
        before = db.session.execute(
            db.select(Entry.client_id, User.username).join(User).order_by(Entry.id)
        ).all()
    with target.app_context():
        after = db.session.execute(
            db.select(Entry.client_id, User.username).join(User).order_by(Entry.id)
        ).all()
    assert after == before


def test_importing_the_same_event_twice_is_refused_in_words(app, runner, tmp_path):
    event_id = play_an_event(app)
    export(runner, event_id, tmp_path / "event.json")
    with app.app_context():
        events = db.session.scalar(db.select(db.func.count()).select_from(Event))
    answer = runner.invoke(args=["event", "import", str(tmp_path / "event.json")])
    assert answer.exit_code == 2
    assert "was imported here before" in answer.output
    assert "nothing imported" in answer.output
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Event)) == events


def test_a_file_that_is_not_an_event_archive_is_refused_in_words(runner, tmp_path):
    path = tmp_path / "sheets.json"
    path.write_text("[]", encoding="utf-8")
    answer = runner.invoke(args=["event", "import", str(path)])
    assert answer.exit_code == 2
    assert "not an event archive" in answer.output


def test_a_damaged_archive_is_refused_in_words_and_imports_nothing(app, runner, tmp_path):
    event_id = play_an_event(app)
    archive = export(runner, event_id, tmp_path / "event.json")
    archive["event"]["name"] = "Another"
    archive["entries"] = []
    for character in archive["characters"]:
        character["player_secret_hash"] = None
        character["badges"] = []
    del archive["refusals"][0]["character"]
    (tmp_path / "damaged.json").write_text(json.dumps(archive), encoding="utf-8")
    answer = runner.invoke(args=["event", "import", str(tmp_path / "damaged.json")])
    assert answer.exit_code == 2
    assert "damaged event archive" in answer.output
    with app.app_context():
        assert db.session.scalar(db.select(Event).where(Event.name == "Another")) is None


def moved(app, runner, sqlite_template, tmp_path) -> tuple:
    """The played event exported here and imported into another (SQLite) database."""
    event_id = play_an_event(app)
    export(runner, event_id, tmp_path / "event.json")
    shutil.copyfile(sqlite_template, tmp_path / "other.sqlite3")
    target = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'other.sqlite3'}",
            "PRINT_FOLDER": str(tmp_path / "prints"),
        }
    )
    return event_id, target, imported(target.test_cli_runner(), tmp_path / "event.json")


def cards(app, event_id: int) -> dict:
    """Each character's name: its active badge's secret and short code, and its player link."""
    with app.app_context():
        event = db.session.get(Event, event_id)
        return {
            c.name: (active_badge(c).secret, active_badge(c).short_code, c.player_secret)
            for c in event.characters
        }


def test_the_archive_holds_no_badge_secret_short_code_or_player_link_in_clear(
    app, runner, tmp_path
):
    event_id = play_an_event(app)
    with app.app_context():  # refused scans of a replaced card and of a mistyped code
        referee = db.session.scalar(db.select(User).where(User.username == "referee"))
        revoked = db.session.scalars(db.select(Badge).where(Badge.revoked_at.is_not(None)))
        code = active_badge(db.session.get(Character, 3)).short_code
        typo = code[:-1] + ("2" if code[-1] != "2" else "3")
        for presented in [f"http://x/b/{b.secret}?v=1" for b in revoked] + [typo]:
            with pytest.raises(BadgeRefused):
                resolve_badge(presented, referee, event_id)
        db.session.commit()
    export(runner, event_id, tmp_path / "event.json")
    text = (tmp_path / "event.json").read_text(encoding="utf-8")
    assert code[:-1] not in text
    with app.app_context():
        badges = db.session.scalars(db.select(Badge)).all()
        links = db.session.scalars(db.select(Character.player_secret)).all()
        clear = [b.secret for b in badges] + [b.short_code for b in badges] + links
        clear += [b.short_code.replace("-", "") for b in badges]
    assert len(badges) > 5 and all(clear)
    assert [s for s in clear if s in text] == []
    assert [s for s in clear if s.lower() in text.lower()] == []


def test_an_old_card_scans_its_code_types_and_its_player_link_opens_after_the_move(
    app, runner, sqlite_template, tmp_path
):
    event_id, target, moved_id = moved(app, runner, sqlite_template, tmp_path)
    before = cards(app, event_id)
    make_user(target, "desk", "organiser")
    client = target.test_client()
    log_in(client, "desk")
    for name, (secret, short_code, link) in before.items():
        answer = client.get(f"/b/{secret}?v=1")
        assert answer.status_code == 302, name
        with target.app_context():
            character = db.session.get(Character, int(answer.location.rsplit("/", 1)[1]))
            assert (character.name, character.event_id) == (name, moved_id)
        found = client.get(f"/api/v1/badges/{short_code.replace('-', '').lower()}")
        assert (found.status_code, found.json["character"]["name"]) == (200, name)
        with target.app_context():
            desk = find_at_desk(db.session.get(Event, moved_id), f"https://x/b/{secret}?v=1")
            assert [c.name for c in desk] == [name]
        player = target.test_client().get(f"/p/{link}")
        assert str(escape(name)) in player.get_data(as_text=True)


def test_an_old_revoked_card_is_still_refused_after_the_move(
    app, runner, sqlite_template, tmp_path
):
    event_id = play_an_event(app)
    with app.app_context():
        revoked = db.session.scalars(
            db.select(Badge.secret).where(Badge.revoked_at.is_not(None))
        ).all()
    assert len(revoked) == 2
    export(runner, event_id, tmp_path / "event.json")
    shutil.copyfile(sqlite_template, tmp_path / "other.sqlite3")
    target = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'other.sqlite3'}"}
    )
    imported(target.test_cli_runner(), tmp_path / "event.json")
    with target.app_context():
        for secret in revoked:
            with pytest.raises(BadgeRefused) as refused:
                resolve_badge(secret, None)
            assert refused.value.code == "revoked"


ELSEWHERE = (
    "This badge came from another database: reissue it to print, or print it where it was issued."
)


def test_printing_an_imported_badge_without_its_secret_is_refused_in_words(
    app, runner, sqlite_template, tmp_path
):
    _event_id, target, moved_id = moved(app, runner, sqlite_template, tmp_path)
    out = tmp_path / "badges.pdf"
    answer = target.test_cli_runner().invoke(
        args=["badges", "print", str(moved_id), "--out", str(out), "--base-url", "http://x"]
    )
    assert answer.exit_code == 2
    assert "24 badges came from another database" in answer.output
    assert "reissue them to print, or print them where they were issued" in answer.output
    assert not out.exists() or out.stat().st_size == 0

    make_user(target, "desk", "organiser")
    client = target.test_client()
    log_in(client, "desk")
    with target.app_context():
        vera = db.session.scalar(db.select(Character).where(Character.event_id == moved_id))
        vera_id = vera.id
    page = client.get(f"/characters/{vera_id}").get_data(as_text=True)
    assert ELSEWHERE in page
    assert f"/characters/{vera_id}/badge-front.png" not in page
    assert f'action="/characters/{vera_id}/badge"' in page  # the reissue, one click away
    desk = client.get(f"/events/{moved_id}/checkin").get_data(as_text=True)
    assert "issued in another database" in desk
    assert f"/characters/{vera_id}/badge-front.png" not in desk
    png = client.get(f"/characters/{vera_id}/badge-front.png")
    assert png.status_code == 409 and ELSEWHERE in png.get_data(as_text=True)

    post_form(client, f"/characters/{vera_id}/badge", {}, page=f"/characters/{vera_id}")
    page = client.get(f"/characters/{vera_id}").get_data(as_text=True)
    assert ELSEWHERE not in page
    assert client.get(f"/characters/{vera_id}/badge-front.png").status_code == 200
    answer = target.test_cli_runner().invoke(
        args=["badges", "print", str(moved_id), "--out", str(out), "--base-url", "http://x"]
    )
    assert answer.exit_code == 0, answer.output
    assert "1 badges written" in answer.output
    assert "23 badges came from another database" in answer.output


def test_a_bulk_print_after_the_move_leaves_out_the_imported_badges_and_says_how_many(
    app, runner, sqlite_template, tmp_path
):
    _event_id, target, moved_id = moved(app, runner, sqlite_template, tmp_path)
    make_user(target, "desk", "organiser")
    client = target.test_client()
    log_in(client, "desk")
    badges_page = f"/events/{moved_id}/badges"
    assert "24 badges came from another database" in client.get(badges_page).get_data(as_text=True)
    started = post_form(client, f"{badges_page}/print", {}, page=badges_page)
    job_url = started.location
    deadline = time.monotonic() + 60
    while client.get(f"{job_url}.json").json["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert client.get(f"{job_url}.json").json["left_out"] == (
        "24 badges left out of this print: they came from another database. Reissue them to "
        "print them, or print them where they were issued."
    )
    assert "24 badges left out of this print" in client.get(job_url).get_data(as_text=True)

    post_form(client, f"{badges_page}/reissue-elsewhere", {}, page=badges_page)
    assert "came from another database" not in client.get(badges_page).get_data(as_text=True)
