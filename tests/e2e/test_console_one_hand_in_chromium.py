"""The referee console as a one-hand instrument, on a phone in the hand (360 × 740 and
320 × 568, touch, scale 2, Italian): never older numbers over newer ones, the header and the
main actions on screen without scrolling, nothing moving under the thumb, feedback in one
place, and a status bar that tells when the server does not answer."""

import json
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, User
from larp_app.services.demo import load_demo
from larp_app.services.entries import record_entry

from .conftest import Server
from .test_offline_in_chromium import roster_kept

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

API = "/api/v1"
HAND = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True, "locale": "it-IT"}
SIZES = [(360, 740), (320, 568)]


@pytest.fixture
def cast(app):
    """Demo characters with armour to lose and no energy, by id: {id: (hp_max, ap_max)}."""
    with app.app_context():
        load_demo()
        db.session.commit()
        return {
            c.id: (c.larp["hp_max"], c.larp["ap_max"])
            for c in db.session.scalars(db.select(Character).order_by(Character.id))
            if c.larp["ap_max"] >= 1 and c.larp["energy_max"] == 0
        }


def log_on_server(app, character_id, **fields):
    """An entry stored straight on the server, by the referee, now."""
    with app.app_context():
        character = db.session.get(Character, character_id)
        referee = db.session.scalar(db.select(User).filter_by(username="referee"))
        raw = {"id": str(uuid.uuid4()), "at": rules.format_instant(datetime.now(UTC)), **fields}
        record_entry(character, raw, referee)
        db.session.commit()


def put_in(app, character_id, wound, hp):
    """Bring a fine character to `wound` (grievous: 0 points; dying: a blow at 0; dead)."""
    if wound == "grievous":
        log_on_server(app, character_id, kind="hit", pierce=True, damage=hp)
    elif wound == "dying":
        log_on_server(app, character_id, kind="hit", pierce=True, damage=hp, blows=2)
    elif wound == "dead":
        log_on_server(app, character_id, kind="kill", reason="test")


def hand(browser, width, height, **extra):
    return browser.new_context(viewport={"width": width, "height": height}, **HAND, **extra)


def log_in(page, base):
    page.goto(f"{base}/login?next=/referee/")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    with page.expect_navigation():
        page.click("button.primary")


def open_console(page, base, character_id):
    page.goto(f"{base}/console/{character_id}")
    expect(page.locator("[data-hp]")).not_to_have_text("–")
    expect(page.locator(".console[data-ready]")).to_have_count(1)


def server_state(page, base, character_id):
    return page.request.get(f"{base}{API}/characters/{character_id}/state").json()


def shown(page):
    return {name: page.inner_text(f"[data-{name}]") for name in ("hp", "ap", "wound-word")}


def expected(state):
    words = {"ok": "in piedi", "grievous": "gravemente ferito", "dying": "morente", "dead": "morto"}
    return {"hp": str(state["hp"]), "ap": str(state["ap"]), "wound-word": words[state["wound"]]}


def undo_last_hit(page, base, character_id):
    """Take the last hit back through the API, so that the next trial starts the same."""
    entries = page.request.get(f"{base}{API}/characters/{character_id}/entries").json()
    target = [e for e in entries["entries"] if e["kind"] == "hit" and not e["undone"]][-1]
    csrf = page.request.get(f"{base}{API}/me").json()["csrf_token"]
    answer = page.request.post(
        f"{base}{API}/characters/{character_id}/entries",
        data=json.dumps(
            {
                "id": str(uuid.uuid4()),
                "kind": "undo",
                "target": target["id"],
                "at": rules.format_instant(datetime.now(UTC)),
            }
        ),
        headers={"Content-Type": "application/json", "X-CSRFToken": csrf},
    )
    assert answer.ok, answer.text()


def bar_button(page, action):
    return page.locator(f'.action-bar [data-action="{action}"]')


# --- 0. Never older over newer ----------------------------------------------------------


def test_hit_tapped_at_first_paint_fifty_times_always_ends_on_the_servers_state(
    server, browser, cast
):
    base = server.url
    character_id = next(iter(cast))
    context = hand(browser, 360, 740)
    page = context.new_page()
    log_in(page, base)
    wrong = []
    for trial in range(50):
        # The load-time roster refresh: whole, or the changes since the phone's version.
        with page.expect_response(lambda r: urlsplit(r.url).path.endswith(f"{API}/roster")):
            page.goto(f"{base}/console/{character_id}", wait_until="commit")
            bar_button(page, "hit").tap(timeout=5000)  # as soon as it can be tapped
        # the ✓ came, the load-time roster refresh came: what is on screen now must stay
        expect(page.locator('[data-feedback][data-kind="ok"]')).to_be_visible(timeout=2000)
        page.wait_for_timeout(300)
        after = expected(server_state(page, base, character_id))
        if shown(page) != after:
            wrong.append((trial, shown(page), after))
        undo_last_hit(page, base, character_id)
    context.close()
    assert wrong == []


# --- 1–2. The header and the main actions without scrolling, in every state -------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_header_and_hit_heal_undo_are_on_screen_without_scrolling_in_every_state(
    app, server, browser, cast, size
):
    base = server.url
    width, height = size
    wounds = ["ok", "grievous", "dying", "dead"]
    chosen = dict(zip(wounds, cast.items(), strict=False))
    for wound, (character_id, (hp, _ap)) in chosen.items():
        put_in(app, character_id, wound, hp)
    context = hand(browser, width, height)
    page = context.new_page()
    log_in(page, base)
    off_screen = []
    for wound, (character_id, _) in chosen.items():
        open_console(page, base, character_id)
        assert page.evaluate("document.scrollingElement.scrollTop") == 0
        if wound == "dying":
            expect(page.locator("[data-death]")).to_be_visible()
        targets = {
            "header": page.locator(".console-head"),
            "countdown": page.locator("[data-death]"),
            "hit": bar_button(page, "hit"),
            "heal": bar_button(page, "heal"),
            "undo": bar_button(page, "undo"),
        }
        for name, target in targets.items():
            if name == "countdown" and wound != "dying":
                continue
            box = target.bounding_box()
            if box is None or box["y"] < 0 or box["y"] + box["height"] > height:
                off_screen.append((wound, name, box))
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # a header and a bar never overlap: the header ends above the bar
        head = targets["header"].bounding_box()
        bar = page.locator(".action-bar").bounding_box()
        if head["y"] + head["height"] > bar["y"]:
            off_screen.append((wound, "header under the bar", head, bar))
        allowed = {a: bar_button(page, a).is_enabled() for a in ("hit", "heal", "undo")}
        assert allowed == {"hit": wound != "dead", "heal": wound != "dead", "undo": True}
    context.close()
    assert off_screen == []


# --- 3. Nothing moves; feedback in one place ----------------------------------------------

SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const moved = entry.sources.map((s) => s.node?.outerHTML?.slice(0, 80) ?? s.node?.textContent);
    window.__shifts.push([entry.startTime, entry.value, moved]);
  }
}).observe({ type: "layout-shift", buffered: true });
"""


def boxes(page):
    return page.evaluate("""() => [...document.querySelectorAll('.console button')]
        .filter((b) => b.offsetParent && !b.closest('dialog, [data-feedback]'))
        .map((b) => { const r = b.getBoundingClientRect();
                      return [b.dataset.action || b.dataset.open || b.dataset.step || b.textContent,
                              r.x, r.y, r.width, r.height]; })""")


def test_after_a_hit_no_button_moves_no_layout_shifts_and_the_new_numbers_show_in_place(
    server, browser, cast
):
    base = server.url
    character_id, (_hp, ap) = next(iter(cast.items()))
    context = hand(browser, 360, 740)
    context.add_init_script(SHIFTS)
    page = context.new_page()
    log_in(page, base)
    open_console(page, base, character_id)
    page.wait_for_timeout(500)  # the load is over
    before = boxes(page)
    tapped_at = page.evaluate("performance.now()")
    bar_button(page, "hit").tap()
    feedback = page.locator('[data-feedback][data-kind="ok"]')
    expect(feedback).to_contain_text("Registrato")
    expect(feedback).to_contain_text(f"{ap - 1}/{ap}")  # the state that includes the hit
    page.wait_for_timeout(500)
    after = boxes(page)
    assert len(before) >= 10
    for old, new in zip(before, after, strict=True):
        assert old[0] == new[0]
        assert all(abs(a - b) <= 1 for a, b in zip(old[1:], new[1:], strict=True)), (old, new)
    shifts = page.evaluate("window.__shifts")
    after_tap = [(value, moved) for at, value, moved in shifts if at >= tapped_at]
    assert sum(value for value, _ in after_tap) == 0, after_tap
    context.close()


def test_two_quick_taps_on_hit_log_two_blows_and_never_touch_pierce(server, browser, cast):
    base = server.url
    character_id, (_hp, ap) = next(iter(cast.items()))
    context = hand(browser, 360, 740)
    page = context.new_page()
    log_in(page, base)
    open_console(page, base, character_id)
    box = bar_button(page, "hit").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(100)
    page.touchscreen.tap(x, y)
    hits = []
    for _ in range(50):  # both reach the server
        entries = page.request.get(f"{base}{API}/characters/{character_id}/entries").json()
        hits = [e for e in entries["entries"] if e["kind"] == "hit"]
        if len(hits) >= 2:
            break
        page.wait_for_timeout(100)
    assert [(h.get("blows", 1), h.get("pierce", False)) for h in hits] == [(1, False), (1, False)]
    assert not page.is_checked("[data-pierce]")
    expect(page.locator("[data-ap]")).to_have_text(str(max(0, ap - 2)))
    context.close()


def test_heal_with_amount_three_logs_one_entry_of_three(app, server, browser, cast):
    base = server.url
    character_id, (hp, _ap) = next(iter(cast.items()))
    log_on_server(app, character_id, kind="hit", pierce=True, damage=min(hp, 3))
    context = hand(browser, 360, 740)
    page = context.new_page()
    log_in(page, base)
    open_console(page, base, character_id)
    expect(page.locator("[data-hp]")).to_have_text(str(hp - min(hp, 3)))
    for _ in range(2):
        page.get_by_role("button", name="Più punti").tap()
    bar_button(page, "heal").tap()
    expect(page.locator("[data-hp]")).to_have_text(str(hp))
    expect(page.locator('[data-feedback][data-kind="ok"]')).to_be_visible()  # stored
    entries = page.request.get(f"{base}{API}/characters/{character_id}/entries").json()
    assert [e["amount"] for e in entries["entries"] if e["kind"] == "heal"] == [3]
    context.close()


def test_a_refusal_is_one_red_message_in_words_until_dismissed(app, server, browser, cast):
    base = server.url
    character_id = next(iter(cast))
    context = hand(browser, 360, 740)
    page = context.new_page()
    page.clock.install()  # the page's timers run as ever, and can be run ahead
    log_in(page, base)
    open_console(page, base, character_id)
    roster_kept(page)
    # From here the phone hears nothing new (its polls of the state and of the roster are
    # answered "unchanged"), and the next poll through that answer shows none was still on
    # its way: the kill below stays unknown to it, however slow the machine.
    unchanged = lambda route: route.fulfill(status=304)  # noqa: E731
    context.route(f"**{API}/roster**", unchanged)
    context.route(f"**{API}/characters/{character_id}/state**", unchanged)
    with page.expect_request(f"**{API}/characters/{character_id}/state**"):
        pass
    log_on_server(app, character_id, kind="kill", reason="test")  # the phone does not know yet
    bar_button(page, "hit").tap()
    feedback = page.locator("[data-feedback]")
    expect(feedback).to_have_attribute("data-kind", "error")
    expect(feedback).to_contain_text("✖")
    expect(feedback).to_contain_text("morto")
    expect(page.locator("[data-feedback]:visible")).to_have_count(1)
    page.clock.run_for(3500)  # a green ✓ would be gone by now: a red one stays
    expect(feedback).to_be_visible()
    feedback.get_by_role("button", name="OK").tap()
    expect(feedback).to_be_hidden()
    context.close()


# --- 4. Only possible actions --------------------------------------------------------------


def test_the_more_sheet_offers_only_possible_actions_and_says_which_statuses_are_instant(
    server, browser, cast
):
    base = server.url
    character_id = next(iter(cast))
    context = hand(browser, 360, 740)
    page = context.new_page()
    log_in(page, base)
    open_console(page, base, character_id)
    page.locator('.action-bar [data-open="more"]').tap()
    sheet = page.locator('[data-dialog="more"]')
    expect(sheet).to_be_visible()
    expect(sheet.get_by_role("button", name="Recupera Energia")).to_have_count(0)
    expect(sheet.get_by_role("button", name="Spendi Energia")).to_have_count(0)
    expect(sheet.get_by_role("button", name="Colpo di grazia")).to_be_disabled()
    sheet.get_by_role("button", name="Status", exact=True).tap()
    picker = page.locator('[data-dialog="status"]')
    expect(picker.get_by_role("button", name="Percepire alle spalle · istantaneo")).to_be_visible()
    expect(picker.get_by_role("button", name="Paura · 3 s")).to_be_visible()
    context.close()


# --- 7. Undo names its target ----------------------------------------------------------------


def test_undo_names_what_it_undoes_and_asks_first_past_a_minute(app, server, browser, cast):
    base = server.url
    character_id, (_hp, ap) = next(iter(cast.items()))
    context = hand(browser, 360, 740)
    page = context.new_page()
    log_in(page, base)
    open_console(page, base, character_id)
    bar_button(page, "hit").tap()
    expect(page.locator("[data-ap]")).to_have_text(str(ap - 1))
    bar_button(page, "undo").tap()
    feedback = page.locator('[data-feedback][data-kind="ok"]')
    expect(feedback).to_contain_text("Annullato")
    expect(feedback).to_contain_text("Colpo ×1")
    expect(feedback).to_contain_text("da te")
    expect(page.locator("[data-ap]")).to_have_text(str(ap))

    with app.app_context():  # a hit of 5 minutes ago
        character = db.session.get(Character, character_id)
        referee = db.session.scalar(db.select(User).filter_by(username="referee"))
        at = datetime.now(UTC).timestamp() - 300
        raw = {
            "id": str(uuid.uuid4()),
            "kind": "hit",
            "at": rules.format_instant(datetime.fromtimestamp(at, UTC)),
        }
        record_entry(character, raw, referee)
        db.session.commit()
    bar_button(page, "undo").tap()
    ask = page.locator('[data-dialog="undo"]')
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("Colpo ×1, 5 min fa da te")
    ask.get_by_role("button", name="Sì, annulla").tap()
    expect(page.locator('[data-feedback][data-kind="ok"]')).to_contain_text("Annullato")
    context.close()


# --- 8. The status bar tells the truth ------------------------------------------------------


def test_with_the_server_stopped_the_status_bar_says_unreachable_within_5_seconds(
    app, browser, cast
):
    server = Server(app)
    character_id = next(iter(cast))
    context = hand(browser, 360, 740)
    page = context.new_page()
    log_in(page, server.url)
    open_console(page, server.url, character_id)
    net = page.locator("[data-net]")
    expect(net).to_contain_text("In linea")
    server.stop()
    stopped = time.monotonic()
    expect(net).to_contain_text("Server irraggiungibile", timeout=5000)
    assert time.monotonic() - stopped < 5
    assert page.evaluate("navigator.onLine")  # the browser still thinks it is online
    context.close()


# --- 5. Night mode, contrast and axe-core ------------------------------------------------------

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

# Every visible element's colours, and for each text its contrast with what is behind it
# (the first ancestor with an opaque background). Disabled controls are left out, as WCAG
# and axe-core leave them out.
COLOURS = """() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const channel = (c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const opaque = (text) => { const c = rgb(text); return c.length === 3 || c[3] === 1; };
  const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility === "visible" && Number(s.opacity) > 0; };
  const behind = (e) => { for (let x = e; x; x = x.parentElement) {
    const bg = getComputedStyle(x).backgroundColor; if (opaque(bg)) return rgb(bg); }
    return [255, 255, 255]; };
  const colours = [], texts = [];
  for (const e of document.querySelectorAll("body *")) {
    if (!visible(e) || e.closest("[disabled], [hidden], template, dialog:not([open])")) continue;
    const s = getComputedStyle(e);
    for (const name of ["color", "backgroundColor", "borderTopColor"]) {
      const c = rgb(s[name]);
      if (c.length === 3 || c[3] > 0) {
        if (name !== "borderTopColor" || parseFloat(s.borderTopWidth) > 0) {
          colours.push([name, s[name], luminance(c), e.outerHTML.slice(0, 60)]);
        }
      }
    }
    const ownText = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (ownText) {
      const [a, b] = [luminance(rgb(s.color)), luminance(behind(e))].sort((x, y) => y - x);
      texts.push([(a + 0.05) / (b + 0.05), e.outerHTML.slice(0, 60)]);
    }
  }
  return { colours, texts };
}"""


AXE_RUN = "async () => (await axe.run()).violations.map((v) => [v.id, v.nodes.map((n) => n.html)])"


def theme_check(page):
    return page.evaluate(COLOURS)


def test_night_mode_is_dim_readable_remembered_and_axe_finds_nothing_in_either_theme(
    app, server, browser, cast
):
    base = server.url
    wounds = ["ok", "dying"]
    chosen = dict(zip(wounds, cast.items(), strict=False))
    for wound, (character_id, (hp, _ap)) in chosen.items():
        put_in(app, character_id, wound, hp)
    context = hand(browser, 360, 740, bypass_csp=True)
    page = context.new_page()
    log_in(page, base)
    for night in (False, True):
        for wound, (character_id, _) in chosen.items():
            open_console(page, base, character_id)
            if night:
                expect(page.locator("html")).to_have_attribute("data-theme", "night")
            seen = theme_check(page)
            low = [(round(c, 2), where) for c, where in seen["texts"] if c < (4.5 if night else 7)]
            assert low == [], (night, wound, low)
            if night:
                bright = [c for c in seen["colours"] if c[2] > 0.3]
                assert bright == [], bright
            page.add_script_tag(path=str(AXE))
            found = page.evaluate(AXE_RUN)
            assert found == [], (night, wound, found)
        if not night:
            page.locator("[data-theme-toggle]").tap()  # one tap, then every page is dim
            expect(page.locator("[data-theme-toggle]")).to_have_attribute("aria-pressed", "true")
    context.close()


def test_advancements_show_their_cost_and_the_ones_too_dear_are_disabled_with_the_reason(
    app, server, browser
):
    base = server.url
    with app.app_context():
        load_demo()
        db.session.commit()
        character = db.session.get(Character, 25)  # 21 energy; advancements of 2 and 3
        costs = {a["name"]: a["energy_cost"] for a in character.larp["advancements"]}
        energy = character.larp["energy_max"]
    log_on_server(app, 25, kind="spend_energy", amount=energy - 2)  # 2 left
    context = hand(browser, 360, 740)
    page = context.new_page()
    log_in(page, base)
    open_console(page, base, 25)
    page.locator('.action-bar [data-open="more"]').tap()
    page.locator('[data-dialog="more"] [data-open="spend"]').tap()
    for name, cost in costs.items():
        if cost <= 0:
            continue
        button = page.locator("[data-advancements] button", has_text=name)
        expect(button).to_contain_text(f"{cost}")
        if cost > 2:
            expect(button).to_be_disabled()
            expect(button).to_contain_text("energia insufficiente")
        else:
            expect(button).to_be_enabled()
    context.close()


def test_the_referees_roster_rows_are_big_enough_for_a_thumb(server, browser, cast):
    context = hand(browser, 360, 740)
    page = context.new_page()
    log_in(page, server.url)
    page.goto(f"{server.url}/referee/events/1")
    heights = page.evaluate(
        "[...document.querySelectorAll('.cards .card a')]"
        ".map((a) => a.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 48
    context.close()
