"""A field day on a small phone: the console's answer never covers the state it answers
about, in every language and both rule systems, online and offline; numbers are typed in one
go; everything a rule system offers is on the "More" sheet without scrolling; the name wins,
the footer keeps out of the thumb's way, disabled looks disabled, a broken armour says what it
did and what mends it. Measured by bounding boxes and by asking the page what is on top
(../shared recipes: "Is anything covering what the referee must see?")."""

import uuid
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, Event, User
from larp_app.services.demo import load_demo
from larp_app.services.entries import record_entry
from larp_app.services.events import change_settings

from .test_offline_in_chromium import network, ready_for_offline, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SIZES = [(320, 568), (360, 740)]
LANGUAGES = ("it", "es", "en")
HAND = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True, "locale": "it-IT"}


def log_on_server(app, character_id, **fields):
    """An entry stored straight on the server, by the organiser (not the phone's referee), now."""
    with app.app_context():
        character = db.session.get(Character, character_id)
        organiser = db.session.scalar(db.select(User).filter_by(username="organiser"))
        raw = {"id": str(uuid.uuid4()), "at": rules.format_instant(datetime.now(UTC)), **fields}
        record_entry(character, raw, organiser)
        db.session.commit()


@pytest.fixture
def field(app):
    """Per language, an EX Nihilo character dying (its countdown in the header) and a Sistema
    Athkri one knocked out (its next save in the header), each with the longest name of its
    cast first; turns long enough that nothing ends while the test looks."""
    with app.app_context():
        demo = load_demo()
        athkri_event = db.session.get(Event, demo.athkri_event_id)
        change_settings(athkri_event, {**athkri_event.settings, "turn_seconds": 60})
        db.session.commit()

        def cast(event_id):
            found = db.session.scalars(db.select(Character).where(Character.event_id == event_id))
            return sorted(found, key=lambda c: -len(c.name))

        ex_nihilo = [c for c in cast(demo.event_id) if c.larp["energy_max"] == 0][:3]
        athkri = [
            c
            for c in cast(demo.athkri_event_id)
            if c.larp["hp_max"] < c.larp["thresholds"]["dead_at_damage"]
        ][:3]
        chosen = {
            lang: {"ex-nihilo": (e.id, e.larp["hp_max"]), "athkri": (a.id, a.larp["hp_max"])}
            for lang, e, a in zip(LANGUAGES, ex_nihilo, athkri, strict=True)
        }
    for picks in chosen.values():
        ex_id, ex_hp = picks["ex-nihilo"]
        log_on_server(app, ex_id, kind="hit", pierce=True, damage=ex_hp, blows=2)  # dying
        at_id, at_hp = picks["athkri"]
        log_on_server(app, at_id, kind="hit", pierce=True, damage=at_hp)  # unconscious
    return chosen


# What must stay readable after every answer; "a|b": whichever the state shows (a save passed
# stabilises: the time until awake then takes the next save's place).
HEADER = {
    "ex-nihilo": ["[data-name]", "[data-wound]", "[data-hp]", "[data-ap]", "[data-death]"],
    "athkri": [
        "[data-name]",
        "[data-wound]",
        "[data-hp]",
        "[data-ap]",
        "[data-energy]",
        "[data-level]",
        "[data-save]|[data-awake]",
    ],
}

# For each element: on screen, and on top at its centre and inner corners; and the answer
# neither over the header nor over the bar's main buttons, and whole (no scrolling inside).
LOOK = """(selectors) => {
  const onTop = (el) => {
    const r = el.getBoundingClientRect();
    const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 2, r.top + 2],
      [r.right - 2, r.top + 2], [r.left + 2, r.bottom - 2], [r.right - 2, r.bottom - 2]];
    return points.every(([x, y]) => { const hit = document.elementFromPoint(x, y);
      return hit && (el.contains(hit) || hit.contains(el)); });
  };
  const problems = [];
  for (const selector of selectors) {
    const el = selector.split("|").map((s) => document.querySelector(s))
      .find((e) => e && e.getClientRects().length) ?? null;
    if (!el) { problems.push(`${selector}: not shown`); continue; }
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth)
      problems.push(`${selector}: off screen ${JSON.stringify(r)}`);
    else if (!onTop(el)) problems.push(`${selector}: covered`);
  }
  const answer = document.querySelector("[data-feedback]");
  if (!answer.hidden) {
    const a = answer.getBoundingClientRect();
    const head = document.querySelector(".console-head").getBoundingClientRect();
    if (a.top < head.bottom - 1 && a.bottom > head.top) problems.push("the answer over the header");
    for (const button of document.querySelectorAll(".bar-main button")) {
      const b = button.getBoundingClientRect();
      if (a.bottom > b.top + 1 && a.top < b.bottom) problems.push("the answer over the buttons");
      if (!onTop(button)) problems.push(`${button.dataset.action || button.dataset.open}: covered`);
    }
    if (answer.scrollHeight > answer.clientHeight + 1)
      problems.push(`the answer is cut: ${answer.scrollHeight} > ${answer.clientHeight}`);
    if (a.top < 0) problems.push("the answer is off screen");
  }
  return problems;
}"""


def look(page, ruleset, where):
    problems = page.evaluate(LOOK, HEADER[ruleset])
    return [f"{where}: {p}" for p in problems]


def answer(page, kind):
    box = page.locator("[data-feedback]")
    expect(box).to_be_visible()
    expect(box).to_have_attribute("data-kind", kind)
    return box


def choose_language(page, base, lang):
    """The way a person does it: the switcher at the foot of the scanner's page."""
    page.goto(f"{base}/scan")
    page.locator(f'.lang button[value="{lang}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def open_console(page, base, character_id):
    page.goto(f"{base}/console/{character_id}")
    expect(page.locator(".console[data-ready]")).to_have_count(1)
    expect(page.locator("[data-hp]")).not_to_have_text("–")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_answer_never_covers_the_header_in_every_language_both_rule_systems_online_and_offline(
    app, server, browser, field, size
):
    width, height = size
    base = server.url
    context = browser.new_context(viewport={"width": width, "height": height}, **HAND)
    page = context.new_page()
    page.goto(f"{base}/login?next=/scan")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    with page.expect_navigation():
        page.click("button.primary")
    ready_for_offline(page)
    problems = []
    timed = False  # the ✓ going by itself and the ✖ staying are timed once
    for lang in LANGUAGES:
        choose_language(page, base, lang)
        for ruleset, (character_id, _hp) in field[lang].items():
            where = f"{lang} {ruleset} online"
            open_console(page, base, character_id)
            problems += look(page, ruleset, f"{where}, nothing shown")
            page.locator('.bar-main [data-action="undo"]').tap()  # nothing of theirs yet
            box = answer(page, "error")
            problems += look(page, ruleset, f"{where}, ✖")
            if not timed:
                page.wait_for_timeout(3500)
                expect(box).to_be_visible()  # a ✖ stays until tapped
            box.tap()
            expect(box).to_be_hidden()
            page.locator('.bar-main [data-action="hit"]').tap()
            box = answer(page, "ok")
            problems += look(page, ruleset, f"{where}, ✓")
            if not timed:
                expect(box).to_be_hidden(timeout=4500)  # a ✓ goes by itself
                timed = True
        # The shells kept in this language, then no network: the same from the phone alone.
        shell = "async () => (await (await caches.match('/console/offline'))?.text()) ?? ''"
        assert wait_until(lambda: f'lang="{lang}"' in page.evaluate(shell))  # noqa: B023
        network(page, server, on=False)
        for ruleset, (character_id, _hp) in field[lang].items():
            where = f"{lang} {ruleset} offline"
            open_console(page, base, character_id)
            page.locator('.bar-main [data-action="hit"]').tap()
            answer(page, "wait")
            problems += look(page, ruleset, f"{where}, ⏳")
        network(page, server, on=True)
        expect(page.locator("span[data-pending]")).to_contain_text("0", timeout=15_000)
    context.close()
    assert problems == [], "\n".join(problems)


def test_numbers_are_typed_on_a_numeric_keypad_and_one_hit_of_fourteen_is_one_entry(
    app, server, browser
):
    base = server.url
    with app.app_context():
        event = db.session.get(Event, load_demo().athkri_event_id)
        db.session.commit()
        fresh = db.session.scalar(
            db.select(Character).where(Character.event_id == event.id).order_by(Character.id)
        )
        character_id, hp = fresh.id, fresh.larp["hp_max"]
    context = browser.new_context(viewport={"width": 320, "height": 568}, **HAND)
    page = context.new_page()
    page.goto(f"{base}/login?next=/console/{character_id}")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    with page.expect_navigation():
        page.click("button.primary")
    open_console(page, base, character_id)
    for name in ("blows", "damage", "amount"):
        field_ = page.locator(f".bar-steppers [data-{name}]")
        expect(field_).to_have_attribute("inputmode", "numeric")
    damage = page.locator("[data-damage]")
    damage.tap()
    page.keyboard.type("14")
    page.locator("[data-pierce]").check()
    page.locator('.bar-main [data-action="hit"]').tap()
    answer(page, "ok")
    expect(page.locator("[data-hp]")).to_have_text(str(max(0, hp - 14)))
    expect(damage).to_have_value("1")  # ready for the next blow
    amount = page.locator("[data-amount]")
    amount.tap()
    page.keyboard.type("9")
    expect(page.locator("[data-amount-copy]").first).to_have_text("9")
    page.locator('.bar-main [data-action="heal"]').tap()
    answer(page, "ok")
    expect(page.locator("[data-hp]")).to_have_text(str(min(hp, max(0, hp - 14) + 9)))
    amount.tap()
    page.keyboard.type("999")  # past the bounds: the largest the field takes
    page.locator('.bar-steppers [data-step="amount"][data-delta="-1"]').tap()
    expect(amount).to_have_value("99")
    entries = page.request.get(f"{base}/api/v1/characters/{character_id}/entries").json()
    logged = [(e["kind"], e.get("damage"), e.get("amount")) for e in entries["entries"]]
    assert logged == [("hit", 14, None), ("heal", None, 9)]
    context.close()
