"""The organiser's live board, its JSON twin, and the end of session."""

import html
import re
import uuid
from datetime import timedelta

import pytest

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, Entry, Event, User
from larp_app.services import sessions
from larp_app.services.clock import now_utc
from larp_app.services.demo import load_demo
from larp_app.services.entries import log_of, record_entry, state_of

from .helpers import log_in, make_user, post_form

AT = re.compile(r'name="at" value="([^"]+)"')
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def cast(app):
    """The demo event (id 1); returns {name: character id}."""
    with app.app_context():
        load_demo()
        db.session.commit()
        names = db.select(Character.name, Character.id).where(Character.event_id == 1)
        return dict(db.session.execute(names).all())


@pytest.fixture
def organiser(client, cast):
    log_in(client, "organiser", "organiser-demo")
    return client


def log(app, name, kind, author="referee", seconds_ago=5, **fields):
    """Record an entry on the named character; return its id."""
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username == author))
        character = db.session.scalar(db.select(Character).where(Character.name == name))
        entry_id = str(uuid.uuid4())
        at = rules.format_instant(now_utc() - timedelta(seconds=seconds_ago))
        record_entry(character, {"id": entry_id, "kind": kind, "at": at, **fields}, user)
        db.session.commit()
        return entry_id


def knock_down(app, name, seconds_ago=5):
    """Blows enough to leave the character dying: death 600 s after the blow."""
    log(app, name, "hit", blows=10, pierce=True, seconds_ago=seconds_ago)


def count_entries(app):
    with app.app_context():
        return db.session.query(Entry).count()


def wound_of(app, name):
    with app.app_context():
        character = db.session.scalar(db.select(Character).where(Character.name == name))
        return state_of(character, now_utc()).wound


def text_of(answer) -> str:
    return html.unescape(answer.get_data(as_text=True))


def close_session(client, decisions, event_id=1):
    """Open the end-of-session list, then send it with ``decisions``: {id: (verdict, healer)}."""
    page = client.get(f"/events/{event_id}/end-session").get_data(as_text=True)
    form = {"csrf_token": TOKEN.search(page).group(1), "at": AT.search(page).group(1)}
    for character_id, (verdict, healer) in decisions.items():
        if verdict:
            form[f"decision-{character_id}"] = verdict
        form[f"healer-{character_id}"] = healer
    return client.post(f"/events/{event_id}/end-session", data=form)


def test_strangers_are_asked_to_log_in(client, cast):
    for url in ("/events/1/board", "/events/1/board.json", "/events/1/end-session"):
        answer = client.get(url)
        assert answer.status_code == 302
        assert "/login" in answer.headers["Location"]


def test_a_referee_cannot_open_the_board_or_end_the_session(app, client, cast):
    knock_down(app, "Guardia Tobia Sala")
    make_user(app, "rita", "referee")
    log_in(client, "rita")
    for url in ("/events/1/board", "/events/1/board.json", "/events/1/end-session"):
        assert client.get(url).status_code == 403
    before = count_entries(app)
    token = TOKEN.search(client.get("/referee/").get_data(as_text=True)).group(1)
    answer = client.post(
        "/events/1/end-session",
        data={
            "csrf_token": token,
            "at": rules.format_instant(now_utc()),
            f"decision-{cast['Guardia Tobia Sala']}": "kill",
        },
    )
    assert answer.status_code == 403
    assert count_entries(app) == before


def test_the_event_page_links_to_the_board(organiser):
    assert 'href="/events/1/board"' in organiser.get("/events/1").get_data(as_text=True)


def test_the_board_lists_every_character_with_the_dying_on_top(app, organiser, cast):
    knock_down(app, "Scout Greta Colombo", seconds_ago=20)
    knock_down(app, "Guardia Tobia Sala", seconds_ago=90)  # dies first
    text = text_of(organiser.get("/events/1/board"))
    for name in cast:
        assert name in text
    dying = text[text.index('class="board-dying"') : text.index('class="board-conflicts"')]
    assert dying.index("Guardia Tobia Sala") < dying.index("Scout Greta Colombo")
    assert text.index('class="board-dying"') < text.index('class="board-roster"')
    twin = organiser.get("/events/1/board.json").get_json()
    assert [d["name"] for d in twin["dying"]] == ["Guardia Tobia Sala", "Scout Greta Colombo"]
    for d in twin["dying"]:
        assert f'data-until="{d["death_at"]}"' in text  # the big countdown ticks from this
    assert len(twin["characters"]) == 24
    assert 'data-wound="dying"' in text and "✚" in text  # wound in words and a symbol


def test_recent_entries_show_the_last_30_with_character_kind_author_and_time(app, organiser, cast):
    for i in range(32):
        log(app, "Ladro Matteo Conti", "note", text=f"note {i}", seconds_ago=100 - i)
    last = log(app, "Scout Greta Colombo", "heal", author="organiser", amount=1, seconds_ago=1)
    recent = organiser.get("/events/1/board.json").get_json()["recent"]
    assert len(recent) == 30
    first = recent[0]
    assert first["id"] == last
    assert (first["character"], first["kind"], first["author"]) == (
        "Scout Greta Colombo",
        "heal",
        "organiser",
    )
    assert first["at"].endswith("Z")
    text = text_of(organiser.get("/events/1/board"))
    recent_html = text[text.index('class="board-recent"') : text.index('class="board-roster"')]
    assert "Scout Greta Colombo" in recent_html and "· organiser" in recent_html
    assert "note 31" in recent_html and "note 0" not in recent_html


def test_conflicts_to_review_give_the_refusal_in_words(app, organiser, cast):
    healed = log(app, "Scout Greta Colombo", "heal", amount=1, seconds_ago=5)
    log(app, "Scout Greta Colombo", "kill", reason="plot", seconds_ago=60)  # arrives late
    conflicts = organiser.get("/events/1/board.json").get_json()["conflicts"]
    assert [(c["id"], c["character"], c["conflict"]) for c in conflicts] == [
        (healed, "Scout Greta Colombo", "the character is dead")
    ]
    text = text_of(organiser.get("/events/1/board"))
    section = text[text.index('class="board-conflicts"') : text.index('class="board-recent"')]
    assert "Scout Greta Colombo" in section and "the character is dead" in section


def test_the_json_twin_answers_304_until_something_changes(app, organiser):
    first = organiser.get("/events/1/board.json")
    etag = first.headers["ETag"]
    assert organiser.get("/events/1/board.json", headers={"If-None-Match": etag}).status_code == 304
    log(app, "Ladro Matteo Conti", "note", text="seen at the gate")
    changed = organiser.get("/events/1/board.json", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert "seen at the gate" in changed.get_json()["html"]


def test_the_end_of_session_lists_every_dying_character(app, organiser, cast):
    knock_down(app, "Scout Greta Colombo")
    knock_down(app, "Guardia Tobia Sala")
    text = text_of(organiser.get("/events/1/end-session"))
    listed = re.findall(r'<fieldset class="decision[^"]*" data-character="(\d+)"', text)
    assert sorted(map(int, listed)) == sorted(
        [cast["Scout Greta Colombo"], cast["Guardia Tobia Sala"]]
    )


def test_a_missing_decision_is_refused_naming_the_character_and_nothing_is_stored(
    app, organiser, cast
):
    knock_down(app, "Scout Greta Colombo")
    knock_down(app, "Guardia Tobia Sala")
    before = count_entries(app)
    answer = close_session(organiser, {cast["Scout Greta Colombo"]: ("kill", "")})
    assert answer.status_code == 422
    text = text_of(answer)
    assert "Guardia Tobia Sala: no decision yet" in text
    assert "nothing was recorded" in text
    assert count_entries(app) == before
    assert wound_of(app, "Scout Greta Colombo") == "dying"  # the decision given waits too


def test_sparing_needs_the_healer_named(app, organiser, cast):
    knock_down(app, "Scout Greta Colombo")
    before = count_entries(app)
    answer = close_session(organiser, {cast["Scout Greta Colombo"]: ("spare", "  ")})
    assert answer.status_code == 422
    assert "Scout Greta Colombo: name the healer" in text_of(answer)
    assert count_entries(app) == before


def test_the_session_closes_killing_and_sparing_as_decided_recording_who_decided(
    app, organiser, cast
):
    knock_down(app, "Scout Greta Colombo")
    knock_down(app, "Guardia Tobia Sala")
    answer = close_session(
        organiser,
        {
            cast["Scout Greta Colombo"]: ("kill", ""),
            cast["Guardia Tobia Sala"]: ("spare", "  Medico da campo   Bruno "),
        },
    )
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith("/events/1/board")
    assert "1 killed, 1 spared" in text_of(organiser.get("/events/1/board"))
    assert wound_of(app, "Scout Greta Colombo") == "dead"
    assert wound_of(app, "Guardia Tobia Sala") == "grievous"  # 0 points: alive, no countdown
    with app.app_context():
        organiser_id = db.session.scalar(db.select(User.id).where(User.username == "organiser"))
        rows = db.session.scalars(
            db.select(Entry).where(Entry.author_id == organiser_id).order_by(Entry.id)
        ).all()
        decided = [(r.character_id, r.kind) for r in rows]
        assert decided == [
            (cast["Scout Greta Colombo"], "kill"),
            (cast["Guardia Tobia Sala"], "note"),
            (cast["Guardia Tobia Sala"], "heal"),
        ] or decided == [
            (cast["Guardia Tobia Sala"], "note"),
            (cast["Guardia Tobia Sala"], "heal"),
            (cast["Scout Greta Colombo"], "kill"),
        ]
        fields = {r.kind: r.fields for r in rows}
        assert fields["kill"]["reason"] == "end of session"
        assert fields["note"]["text"] == "spared by Medico da campo Bruno at end of session"
        assert fields["heal"]["amount"] == 1
        assert {r.fields["author"] for r in rows} == {"organiser"}
        assert len({r.at for r in rows}) == 1  # all at the instant the list was made
        for r in rows:
            uuid.UUID(r.client_id, version=4)
    assert organiser.get("/events/1/board.json").get_json()["dying"] == []


def test_a_decision_on_someone_not_dying_at_that_instant_is_refused(app, organiser, cast):
    knock_down(app, "Scout Greta Colombo")
    before = count_entries(app)
    answer = close_session(
        organiser,
        {cast["Scout Greta Colombo"]: ("kill", ""), cast["Ladro Matteo Conti"]: ("kill", "")},
    )
    assert answer.status_code == 422
    assert "Ladro Matteo Conti was not dying" in text_of(answer)
    assert count_entries(app) == before
    assert wound_of(app, "Ladro Matteo Conti") == "ok"


def test_with_no_one_dying_the_session_closes_recording_nothing(app, organiser):
    before = count_entries(app)
    answer = close_session(organiser, {})
    assert answer.status_code == 302
    assert "0 killed, 0 spared" in text_of(organiser.get("/events/1/board"))
    assert count_entries(app) == before


def test_a_refusal_half_way_through_stores_nothing(app, cast, monkeypatch):
    knock_down(app, "Scout Greta Colombo")
    knock_down(app, "Guardia Tobia Sala")
    before = count_entries(app)
    calls = []

    def failing_second_time(character, raw, author, **kwargs):
        calls.append(raw["kind"])
        recorded = record_entry(character, raw, author, **kwargs)
        if len(calls) == 2:  # as if the database had refused the row after the log was read
            raise rules.RuleError("dead")
        return recorded

    monkeypatch.setattr(sessions, "record_entry", failing_second_time)
    with app.app_context():
        event = db.session.get(Event, 1)
        user = db.session.scalar(db.select(User).where(User.username == "organiser"))
        decisions = {
            cast["Scout Greta Colombo"]: sessions.Decision("spare", "Fra Tuck"),
            cast["Guardia Tobia Sala"]: sessions.Decision("spare", "Fra Tuck"),
        }
        with pytest.raises(sessions.SessionRefused) as refused:
            sessions.end_session(event, decisions, now_utc(), user)
        assert refused.value.problems[0].code == "refused"
        db.session.commit()
    assert count_entries(app) == before
    assert wound_of(app, "Scout Greta Colombo") == "dying"
    # The log read afterwards is the stored one: nothing of the rolled-back rows lingers.
    log(app, "Scout Greta Colombo", "note", text="still here", seconds_ago=1)
    with app.app_context():
        character = db.session.get(Character, cast["Scout Greta Colombo"])
        assert [(e.kind, getattr(e, "text", "")) for e in log_of(character)] == [
            ("hit", ""),
            ("note", "still here"),
        ]


def test_the_end_of_session_lists_the_knocked_out_with_the_dying(app, organiser, cast):
    """EX Nihilo's seed: "Un personaggio che finisce una sessione in status incosciente,
    senza nessun guaritore in grado o che voglia curarlo, viene automaticamente considerato
    morto"."""
    knock_down(app, "Scout Greta Colombo")
    log(app, "Guardia Tobia Sala", "status_on", key="incosciente")
    text = text_of(organiser.get("/events/1/end-session"))
    listed = re.findall(r'<fieldset class="decision[^"]*" data-character="(\d+)"', text)
    assert [int(i) for i in listed] == [cast["Scout Greta Colombo"], cast["Guardia Tobia Sala"]]
    assert "unconscious: dies if the session ends without a healer" in text
    answer = close_session(organiser, {cast["Guardia Tobia Sala"]: ("kill", "")})
    assert answer.status_code == 422  # the dying one needs a decision too
    decided = {cast["Scout Greta Colombo"]: ("spare", "Dott.ssa Lanz")}
    answer = close_session(organiser, {**decided, cast["Guardia Tobia Sala"]: ("kill", "")})
    assert answer.status_code in (200, 302), text_of(answer)
    assert wound_of(app, "Guardia Tobia Sala") == "dead"


# --- The board in true order -----------------------------------------------------------------


def recent_lines(answer) -> list[str]:
    """The "Recent entries" lines as text, top to bottom."""
    page = text_of(answer)
    part = page.split('id="board-recent"')[1].split('id="board-roster"')[0]
    lines = re.findall(r'<li data-entry="[^"]+">(.*?)</li>', part, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", line).split()) for line in lines]


def test_recent_entries_follow_their_instants_and_a_late_arrival_says_how_late(
    app, organiser, cast
):
    log(app, "Ing. Marta Zanardi", "note", text="on time", seconds_ago=5)
    log(app, "Ing. Marta Zanardi", "note", text="sent late", seconds_ago=7 * 60 + 5)
    lines = recent_lines(organiser.get("/events/1/board"))
    assert [("on time" in line, "sent late" in line) for line in lines[:2]] == [
        (True, False),
        (False, True),
    ]
    assert "arrived 7 min late" in lines[1] and "late" not in lines[0]
    late = organiser.get("/events/1/board.json").json["recent"]
    assert [(e["summary"], e["minutes_late"]) for e in late[:2]] == [
        ("on time", 0),
        ("sent late", 7),
    ]


def test_an_undo_on_the_board_names_what_it_undid(app, organiser, cast):
    hit = log(app, "Ing. Marta Zanardi", "hit", blows=2, damage=3, seconds_ago=30)
    log(app, "Ing. Marta Zanardi", "undo", target=hit, seconds_ago=10)
    line = recent_lines(organiser.get("/events/1/board"))[0]
    assert line.startswith(re.sub(r"\s+", " ", line.split("Undo")[0]))
    assert "Undo Hit 2 × 3" in line and "referee" in line
    assert hit[:8] not in line  # never the bare id
    undo = organiser.get("/events/1/board.json").json["recent"][0]
    assert (undo["kind"], undo["undid"]["id"], undo["undid"]["kind"]) == ("undo", hit, "hit")


def test_a_conflict_on_the_board_says_why_and_links_to_where_it_is_undone(app, organiser, cast):
    name = "Ing. Marta Zanardi"
    log(app, name, "hit", pierce=True, damage=2, seconds_ago=60)
    heal = log(app, name, "heal", amount=1, seconds_ago=30)
    log(app, name, "kill", reason="crushed", seconds_ago=45)  # late: dated before the heal
    page = text_of(organiser.get("/events/1/board"))
    recent = page.split('id="board-recent"')[1]
    line = recent.split(f'<li data-entry="{heal}">')[1].split("</li>")[0]
    assert "dead" in line  # why, in words
    target = f"/characters/{cast[name]}#entry-{heal}"
    assert f'href="{target}"' in line
    character = text_of(organiser.get(f"/characters/{cast[name]}"))
    assert f'<li id="entry-{heal}"' in character  # the place it links to, with its Undo


def test_an_entry_moved_by_the_simultaneity_rule_keeps_its_referees_instant(app, organiser, cast):
    name = "Ing. Marta Zanardi"
    first = log(app, name, "note", text="first", seconds_ago=2)
    moved = log(app, name, "note", text="a moment before", seconds_ago=8)
    with app.app_context():
        rows = {
            e.client_id: e
            for e in db.session.scalars(db.select(Entry).where(Entry.client_id.in_([first, moved])))
        }
        assert rows[moved].at == rows[first].at  # placed with the entry before it
        assert rows[first].referee_at is None
        own = rows[moved].referee_at
        assert own is not None and rows[first].at - own > timedelta(seconds=5)
    page = text_of(organiser.get("/events/1/board")).split('id="board-recent"')[1]
    line = page.split(f'<li data-entry="{moved}">')[1].split("</li>")[0]
    assert "logged at" in line and f'datetime="{rules.format_instant(own)}"' in line
    item = next(e for e in organiser.get("/events/1/board.json").json["recent"] if e["id"] == moved)
    assert rules.parse_instant(item["referee_at"]) == own


VERSION = re.compile(r'data-version="([^"]+)"')


def test_the_board_page_comes_with_its_version_and_an_unchanged_poll_since_it_is_304(
    app, organiser, cast
):
    page = organiser.get("/events/1/board").get_data(as_text=True)
    version = VERSION.search(page).group(1)
    first = organiser.get(f"/events/1/board.json?since={version}")
    assert (first.status_code, first.json["full"], first.json["rows"]) == (200, False, [])
    again = organiser.get(
        f"/events/1/board.json?since={first.json['version']}",
        headers={"If-None-Match": first.headers["ETag"]},
    )
    assert (again.status_code, again.data) == (304, b"")


def test_a_poll_since_a_version_carries_only_the_changed_rows_and_the_lists(app, organiser, cast):
    whole = organiser.get("/events/1/board.json").json
    assert whole["full"] is True and len(whole["characters"]) == len(cast)
    log(app, "Ladro Matteo Conti", "note", text="seen at the gate")
    knock_down(app, "Scout Greta Colombo")
    changes = organiser.get(f"/events/1/board.json?since={whole['version']}").json
    changed = {cast["Ladro Matteo Conti"], cast["Scout Greta Colombo"]}
    assert changes["full"] is False and "html" not in changes
    assert {row["id"] for row in changes["rows"]} == changed
    assert {c["id"] for c in changes["characters"]} == changed
    assert changes["count"] == len(cast)
    [greta] = [r["html"] for r in changes["rows"] if r["id"] == cast["Scout Greta Colombo"]]
    assert 'data-wound="dying"' in greta and "Scout Greta Colombo" in greta
    assert "seen at the gate" in changes["sections_html"]
    assert 'class="dying-card"' in changes["sections_html"]
    assert [d["id"] for d in changes["dying"]] == [cast["Scout Greta Colombo"]]
    # The rows as the whole board renders them: the page may put them in place.
    full = organiser.get("/events/1/board.json").json["html"]
    for row in changes["rows"]:
        assert row["html"] in full


@pytest.mark.both_databases
@pytest.mark.parametrize("latest_rows", [2000, 10])
def test_recent_entries_are_the_events_own_latest_beside_a_busier_event(
    app, organiser, cast, monkeypatch, latest_rows
):
    """An event's latest arrivals are looked for among the log's latest rows first; a quiet
    event beside a busy one (its arrivals older than those rows) still shows its own."""
    from larp_app.reads import board

    monkeypatch.setattr(board, "LATEST_ROWS", latest_rows)
    quiet = [log(app, "Ladro Matteo Conti", "note", text=f"quiet {i}") for i in range(3)]
    with app.app_context():
        busy = db.session.scalar(db.select(Character).where(Character.event_id != 1))
        busy_name = busy.name
    for i in range(15):
        log(app, busy_name, "note", author="organiser", text=f"busy {i}")
    with app.app_context():
        expected = db.session.scalars(
            db.select(Entry.client_id)
            .join(Character, Entry.character_id == Character.id)
            .where(Character.event_id == 1)
            .order_by(Entry.id.desc())
            .limit(30)
        ).all()
    recent = organiser.get("/events/1/board.json").get_json()["recent"]
    assert {e["id"] for e in recent} == set(expected)
    assert set(quiet) <= {e["id"] for e in recent}


@pytest.mark.parametrize(
    "language, words",
    [
        ("it", ["non registrato all'arrivo", "Punti Vita"]),
        ("es", ["sin registrar a la llegada"]),
        ("en", ["not checked in"]),
    ],
)
def test_a_board_line_speaks_each_page_s_language_one_after_another(
    app, organiser, cast, language, words
):
    log(app, "Guardia Tobia Sala", "hit", blows=1)  # its line rendered anew in each language
    # Each language chosen in turn, the page's own last: the words found for one language
    # are never another's.
    for other in [*(lang for lang in ("it", "es", "en") if lang != language), language]:
        post_form(organiser, "/language", {"lang": other, "next": "/events"}, page="/events")
        page = html.unescape(organiser.get("/events/1/board").get_data(as_text=True))
    line = page[page.index('data-character="' + str(cast["Guardia Tobia Sala"]) + '"') :]
    line = line[: line.index("</li>")]
    for word in words:
        assert word in line
    others = {"it": "non registrato", "es": "sin registrar", "en": "not checked in"}
    assert [w for lang, w in others.items() if lang != language and w in line] == []
