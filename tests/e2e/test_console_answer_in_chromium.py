"""A field day on a small phone: the console's answer never covers the state it answers
about, in every language and both rule systems, online and offline; numbers are typed in one
go; everything a rule system offers is on the "More" sheet without scrolling; the name wins,
the footer keeps out of the thumb's way, disabled looks disabled, a broken armour says what it
did and what mends it. Measured by bounding boxes and by asking the page what is on top
(../shared recipes: "Is anything covering what the referee must see?")."""

import re
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
        "[data-energy]",  # Maná; its wound line ([data-wound]) names its level (Malherido…)
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
    with page.expect_navigation():  # the page again, in the language chosen
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
    page.clock.install()  # the page's timers run as ever, and can be run ahead
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
                page.clock.run_for(3500)  # a ✓ would be gone by now
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
        shell = """async (lang) => {
            const name = (await caches.keys()).find((n) => n.endsWith(`-${lang}`));
            const kept = name && (await (await caches.open(name)).match('/console/offline'));
            return kept ? kept.text() : '';
        }"""
        assert wait_until(lambda: f'lang="{lang}"' in page.evaluate(shell, lang))  # noqa: B023
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
    expect(page.locator("[data-hit-copy]")).to_have_text("1 × 14")
    page.locator('.bar-main [data-action="hit"]').tap()
    answer(page, "ok")
    expect(page.locator("[data-hp]")).to_have_text(str(max(0, hp - 14)))
    expect(damage).to_have_value("1")  # ready for the next blow
    amount = page.locator("[data-amount]")
    amount.tap()
    page.keyboard.type("9")
    expect(page.locator("[data-amount-copy]").first).to_have_text("9")
    heal_copy = page.locator('.bar-main [data-action="heal"] [data-heal-copy]')
    expect(heal_copy).to_be_visible()
    expect(heal_copy).to_have_text("+9")  # what the tap heals, under the thumb
    page.locator('.bar-main [data-action="heal"]').tap()
    answer(page, "ok")
    expect(heal_copy).to_be_hidden()  # one again, and the button says so
    expect(page.locator("[data-hp]")).to_have_text(str(min(hp, max(0, hp - 14) + 9)))
    amount.tap()
    page.keyboard.type("999")  # past the bounds: the largest the field takes
    page.locator('.bar-steppers [data-step="amount"][data-delta="-1"]').tap()
    expect(amount).to_have_value("99")
    entries = page.request.get(f"{base}/api/v1/characters/{character_id}/entries").json()
    logged = [(e["kind"], e.get("damage"), e.get("amount")) for e in entries["entries"]]
    assert logged == [("hit", 14, None), ("heal", None, 9)]
    context.close()


def log_in(page, base, next_path):
    page.goto(f"{base}/login?next={next_path}")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    with page.expect_navigation():
        page.click("button.primary")


# Every shown control of the open "More" sheet: on screen, and the sheet not scrolled.
SHEET = """() => {
  const sheet = document.querySelector('[data-dialog="more"]');
  const out = [];
  for (const b of sheet.querySelectorAll("button")) {
    if (!b.getClientRects().length) continue;
    const r = b.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) out.push(`${b.textContent}: ${r.top}-${r.bottom}`);
  }
  if (sheet.scrollHeight > sheet.clientHeight + 1) out.push("the sheet scrolls");
  return out;
}"""

# A label on one line, no word cut ("Deshac/er").
ONE_LINE = """(el) => { const range = document.createRange(); range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; }"""


def test_an_athkri_referee_reaches_saves_dice_and_the_held_conditions_checks_at_320_px(
    app, server, browser
):
    """Spanish, saves entered by referees: the "More" sheet holds all, on screen; a roll reads
    whole and keeps its meaning; "Deshacer" is never cut."""
    base = server.url
    with app.app_context():
        event = db.session.get(Event, load_demo().athkri_event_id)
        change_settings(event, {**event.settings, "saves": "referee", "turn_seconds": 60})
        db.session.commit()
        chosen = next(
            c
            for c in db.session.scalars(
                db.select(Character).where(Character.event_id == event.id).order_by(Character.id)
            )
            if c.larp["hp_max"] < c.larp["thresholds"]["dead_at_damage"]
        )
        character_id, hp = chosen.id, chosen.larp["hp_max"]
    context = browser.new_context(
        viewport={"width": 320, "height": 568}, **{**HAND, "locale": "es-ES"}
    )
    page = context.new_page()
    log_in(page, base, f"/console/{character_id}")
    open_console(page, base, character_id)
    undo = page.locator('.bar-main [data-action="undo"]')
    expect(undo).to_have_text("Deshacer")
    assert undo.evaluate(ONE_LINE) == 1

    more = page.locator('.bar-main [data-open="more"]')
    sheet = page.locator('[data-dialog="more"]')
    more.tap()
    expect(sheet).to_be_visible()
    # No condition yet: no check offered; the dice are.
    expect(sheet.locator("[data-roll]:visible")).to_have_count(0)
    expect(sheet.get_by_role("button", name="Tirada 1o3d10")).to_be_visible()
    assert page.evaluate(SHEET) == []
    sheet.get_by_role("button", name="Cancelar").tap()

    log_on_server(app, character_id, kind="status_on", key="agarrado")
    log_on_server(app, character_id, kind="status_on", key="confundido")
    log_on_server(app, character_id, kind="hit", pierce=True, damage=hp)  # a save is due
    expect(page.locator("[data-save]")).to_be_visible(timeout=10_000)
    expect(page.locator("[data-more-attention]")).to_be_visible()  # something waits there
    more.tap()
    offered = sheet.locator("[data-roll]:visible")
    expect(offered).to_have_count(2)
    assert sorted(offered.all_inner_texts()) == ["Tirar Agarrado", "Tirar Confundido"]
    expect(sheet.get_by_role("button", name="✓ Salvación superada")).to_be_visible()
    assert page.evaluate(SHEET) == []

    sheet.get_by_role("button", name="Tirar Confundido").tap()
    expect(sheet).to_be_hidden()
    said = answer(page, "roll")
    expect(said).to_contain_text(re.compile(r"Confundido · d100 \d+: \d+–\d+: \w"))
    more.tap()
    sheet.get_by_role("button", name="Tirar Agarrado").tap()
    said = answer(page, "roll")
    # The dice once, after what was rolled: never "1o3d10 3 2 · 3 · 9".
    expect(said).to_contain_text(re.compile(r"Agarrado · 1o3d10 \d+ · \d+ · \d+ → "))
    rolls = page.locator("[data-rolls] li")
    expect(rolls).to_have_count(2)
    # Each kept with its meaning, the older one too.
    expect(rolls.nth(1)).to_contain_text(re.compile(r"Confundido · d100 \d+: \d+–\d+: \w"))
    expect(rolls.nth(0).locator("[data-roll-meaning]")).not_to_be_empty()
    expect(rolls.nth(1).locator("[data-roll-meaning]")).not_to_be_empty()

    more.tap()
    sheet.get_by_role("button", name="Tirada 1o3d10").tap()
    dice = page.locator('[data-dialog="dice"]')
    expect(dice).to_be_visible()
    dice.get_by_role("button", name="Tirar 1o3d10").tap()
    expect(dice).to_be_hidden()
    expect(answer(page, "roll")).to_contain_text(re.compile(r"Tirada 1o3d10 · 1o3d10 \d+ · \d+"))
    context.close()


def test_the_name_wins_the_footer_keeps_away_disabled_looks_disabled_and_a_broken_armour_says_why(
    app, server, browser
):
    """EX Nihilo with armour that breaks, at 320 px: the longest name of the cast whole; no
    language button or "Log out" under the thumb; a break of the worn armour (4) that leaves
    Corpo's +2 says so, and what mends it; a dead character's Hit looks as disabled as Heal."""
    base = server.url
    with app.app_context():
        demo = load_demo()
        event = db.session.get(Event, demo.event_id)
        change_settings(event, {**event.settings, "optional_rules": {"armour_breaks": True}})
        db.session.commit()
        chosen = max(event.characters, key=lambda c: len(c.name))
        character_id, name = chosen.id, chosen.name
        assert (chosen.larp["ap_max"], chosen.larp["armour"]["points"]) == (6, 4)
    context = browser.new_context(
        viewport={"width": 320, "height": 568}, **{**HAND, "locale": "en-GB"}
    )
    page = context.new_page()
    log_in(page, base, f"/console/{character_id}")
    open_console(page, base, character_id)

    shown = page.locator("[data-name]")
    expect(shown).to_have_text(name)
    assert shown.evaluate(
        "(e) => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"
    )
    # Both boxes in one frame: the status bar's "no roster yet" line above the header goes
    # when the roster arrives, and moves the header with the name in it.
    box, head = shown.evaluate("""(e) => [e, e.closest('.console-head')].map((x) => {
        const r = x.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width }; })""")
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320 and box["y"] >= head["y"]

    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    under_thumb = page.evaluate("""() => [...document.querySelectorAll(
        '.site-footer button, .site-footer a')].filter((e) => {
          const r = e.getBoundingClientRect();
          return r.height > 0 && r.bottom > innerHeight * 0.5 && r.top < innerHeight; })
        .map((e) => e.textContent.trim())""")
    assert under_thumb == []
    page.evaluate("window.scrollTo(0, 0)")

    page.locator("[data-damage]").tap()
    page.keyboard.type("12")  # twice the armour's 6: it breaks
    page.locator('.bar-main [data-action="hit"]').tap()
    answer(page, "ok")
    expect(page.locator("[data-ap]")).to_have_text("2")
    broken = page.locator("[data-armour-destroyed]")
    expect(broken).to_be_visible()
    expect(broken).to_contain_text("armour destroyed: −4; Corpo +2 stays")
    page.locator('.bar-main [data-open="more"]').tap()
    sheet = page.locator('[data-dialog="more"]')
    expect(sheet.locator('[data-action="repair"]')).to_be_disabled()
    expect(sheet.locator("[data-why-not]")).to_contain_text(
        "“Repair” cannot mend it; “Replace the armour (full)” gives back all 6 points"
    )
    sheet.locator('[data-action="repair-full"]').tap()
    expect(page.locator("[data-ap]")).to_have_text("6")
    expect(broken).to_be_hidden()

    log_on_server(app, character_id, kind="kill", reason="test")
    hit, heal = (
        page.locator('.bar-main [data-action="hit"]'),
        page.locator('.bar-main [data-action="heal"]'),
    )
    expect(hit).to_be_disabled(timeout=10_000)
    expect(heal).to_be_disabled()
    looks = """(e) => { const s = getComputedStyle(e);
        return [s.backgroundColor, s.color, s.opacity, s.borderStyle]; }"""
    assert hit.evaluate(looks) == heal.evaluate(looks)
    undo = page.locator('.bar-main [data-action="undo"]')
    assert undo.evaluate(looks) != heal.evaluate(looks)  # enabled looks otherwise
    context.close()


@pytest.mark.parametrize("width,height", [(320, 568), (360, 740)])
def test_the_players_name_and_the_last_sync_are_read_whole_on_a_small_phone(
    app, server, browser, width, height
):
    """The longest name of the cast wins its line; the player's name is never cut to a stray
    letter, and the status bar's last sync never hides behind "…"."""
    base = server.url
    with app.app_context():
        event = db.session.get(Event, load_demo().event_id)
        db.session.commit()
        chosen = max(event.characters, key=lambda c: len(c.name))
        character_id, player = chosen.id, chosen.player
    context = browser.new_context(viewport={"width": width, "height": height}, **HAND)
    page = context.new_page()
    log_in(page, base, f"/console/{character_id}")
    open_console(page, base, character_id)
    expect(page.locator("[data-last-sync]")).not_to_have_text("–")
    whole = "(e) => e.scrollWidth <= e.clientWidth"
    who = page.locator("[data-who]")
    expect(who).to_contain_text(player)
    assert who.evaluate(whole), who.evaluate("(e) => [e.scrollWidth, e.clientWidth]")
    lines = page.locator(".netbar p:first-child, .netbar .netbar-times, .netbar .netbar-item")
    for line in [line for line in lines.all() if line.is_visible()]:
        assert line.evaluate(whole), line.inner_text()
    bar = page.locator(".netbar").bounding_box()
    box = page.locator("[data-last-sync]").bounding_box()
    assert box["width"] > 0 and box["x"] + box["width"] <= bar["x"] + bar["width"]
    context.close()
