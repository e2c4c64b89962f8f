"""The referee console on a phone: one tap per entry, every referee sees the same state."""

import pytest
from playwright.sync_api import expect

from larp_app.extensions import db
from larp_app.models import Character
from larp_app.services.demo import load_demo


@pytest.fixture
def character(app):
    """A demo character with armour (ap) and points (hp) to lose."""
    with app.app_context():
        load_demo()
        db.session.commit()
        chosen = next(
            c
            for c in db.session.scalars(db.select(Character).order_by(Character.id))
            if c.larp["ap_max"] >= 1 and c.larp["energy_max"] == 0
        )
        return {
            "id": chosen.id,
            "hp": chosen.larp["hp_max"],
            "ap": chosen.larp["ap_max"],
            "player_secret": chosen.player_secret,
        }


def open_console(page, base, character_id, username="referee", password="referee-demo"):
    """Log in straight to the console (as a badge link does), not by way of the scanner."""
    page.goto(f"{base}/login?next=/console/{character_id}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("button.primary")
    page.wait_for_url(f"{base}/console/{character_id}")
    expect(page.locator("[data-hp]")).not_to_have_text("–")


def number(page, name):
    return int(page.inner_text(f"[data-{name}]"))


def test_one_tap_on_hit_takes_a_point_of_armour(live_server, phone, character):
    open_console(phone, live_server, character["id"])
    assert (number(phone, "ap"), number(phone, "hp")) == (character["ap"], character["hp"])
    phone.get_by_role("button", name="Colpo", exact=True).click()
    expect(phone.locator("[data-ap]")).to_have_text(str(character["ap"] - 1))
    expect(phone.locator("[data-feedback]")).to_contain_text("Registrato")


def test_a_hit_on_one_phone_shows_on_another_referees_phone_within_5_seconds(
    live_server, browser, phone, character
):
    open_console(phone, live_server, character["id"])
    other = browser.new_context(viewport={"width": 360, "height": 780}, locale="en-GB")
    second = other.new_page()
    open_console(second, live_server, character["id"], "organiser", "organiser-demo")
    phone.click("[data-pierce]")
    phone.get_by_role("button", name="Colpo", exact=True).click()
    expect(second.locator("[data-hp]")).to_have_text(str(character["hp"] - 1), timeout=5000)
    other.close()


def test_a_hit_logged_on_the_console_shows_on_the_players_page(
    live_server, browser, phone, character
):
    player = browser.new_context(viewport={"width": 360, "height": 780}).new_page()
    player.goto(f"{live_server}/p/{character['player_secret']}")
    points = player.locator('[data-stat="hp"] b')
    expect(points).to_have_text(str(character["hp"]))
    open_console(phone, live_server, character["id"])
    phone.click("[data-pierce]")
    phone.get_by_role("button", name="Colpo", exact=True).click()
    expect(points).to_have_text(str(character["hp"] - 1), timeout=10000)
    player.context.close()


def test_a_badge_opened_without_login_shows_a_neutral_page(app, live_server, phone, character):
    with app.app_context():
        badge = db.session.get(Character, character["id"]).badges[-1]
        secret = badge.secret
    phone.goto(f"{live_server}/b/{secret}?v=1")
    text = phone.inner_text("main")
    assert "Accedi" in text
    for field in ("hp", "ap"):
        assert phone.locator(f"[data-{field}]").count() == 0


def test_several_blows_and_a_damage_call_in_one_entry_down_to_dying(live_server, phone, character):
    open_console(phone, live_server, character["id"])
    blows = character["ap"] + character["hp"] + 1  # armour, then every point, then one
    for _ in range(blows - 1):
        phone.get_by_role("button", name="Più colpi").click()
    hit = phone.locator('.bar-main [data-action="hit"]')
    next_hit = hit.locator("[data-hit-copy]")
    expect(next_hit).to_be_visible()
    expect(next_hit).to_have_text(f"{blows} × 1")  # what the tap logs, under the thumb
    hit.click()
    phone.wait_for_selector("[data-death]:not([hidden])")
    # The next tap is one blow again, and the button says so: nothing stays set unseen.
    expect(next_hit).to_be_hidden()
    expect(phone.get_by_role("button", name="Colpo", exact=True)).to_be_visible()
    expect(phone.locator("[data-blows]")).to_have_value("1")
    assert "morente" in phone.inner_text("[data-wound]")  # the rule system's word for dying
    left = phone.inner_text("[data-death-left]")
    assert left.startswith(("09:", "10:"))  # a 600-turn countdown, ticking


def test_an_intangible_character_takes_no_plain_blow_but_a_hit_of_heat_from_more(
    live_server, phone, character
):
    """ "Intangibile: immune ai danni da taglio, punta e contundenti. Continua a ricevere danno
    da Calore ed Elettricità." (larp_app/rulesets/ex_nihilo/README.md)"""
    open_console(phone, live_server, character["id"])
    phone.get_by_role("button", name="Altro", exact=True).click()
    phone.get_by_role("button", name="Status", exact=True).click()
    phone.locator("[data-status-picker] button", has_text="Intangibile").click()
    expect(phone.locator("[data-statuses] li", has_text="Intangibile")).to_have_count(1)
    hit = phone.get_by_role("button", name="Colpo", exact=True)
    hit.click()
    expect(phone.locator("[data-feedback]")).to_contain_text("Registrato")
    assert (number(phone, "ap"), number(phone, "hp")) == (character["ap"], character["hp"])
    phone.get_by_role("button", name="Altro", exact=True).click()
    typed = phone.locator('[data-dialog="more"] [data-damage-type]')
    expect(typed).to_have_text(["Colpo · Calore", "Colpo · Elettricità"])
    phone.get_by_role("button", name="Colpo · Calore").click()
    expect(phone.locator("[data-ap]")).to_have_text(str(character["ap"] - 1))
    expect(phone.locator("[data-feedback]")).to_contain_text("Registrato")


def test_a_coup_de_grace_is_offered_only_on_a_dying_character_and_says_why(
    live_server, phone, character
):
    open_console(phone, live_server, character["id"])
    phone.get_by_role("button", name="Altro", exact=True).click()
    expect(phone.get_by_role("button", name="Colpo di grazia")).to_be_disabled()
    expect(phone.locator("[data-why-not]")).to_contain_text("morente")
    assert phone.inner_text("[data-wound-word]") == "in piedi"


def test_undo_takes_back_the_referees_last_entry(live_server, phone, character):
    open_console(phone, live_server, character["id"])
    phone.get_by_role("button", name="Colpo", exact=True).click()
    expect(phone.locator("[data-ap]")).to_have_text(str(character["ap"] - 1))
    phone.get_by_role("button", name="Annulla", exact=True).click()
    expect(phone.locator("[data-ap]")).to_have_text(str(character["ap"]))


def test_a_status_from_the_catalogue_shows_with_its_time_left(live_server, phone, character):
    open_console(phone, live_server, character["id"])
    phone.get_by_role("button", name="Altro", exact=True).click()
    phone.get_by_role("button", name="Status", exact=True).click()
    phone.get_by_role("button", name="Paura · 3 s").click()
    phone.wait_for_selector("[data-statuses] li")
    assert "Paura" in phone.inner_text("[data-statuses]")


def test_the_console_fits_a_360_px_phone(live_server, phone, character):
    open_console(phone, live_server, character["id"])
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    small = phone.evaluate("""() => [...document.querySelectorAll('.console button')]
        .filter(e => e.offsetParent && e.getBoundingClientRect().height < 47.5)
        .map(e => e.outerHTML.slice(0, 60))""")
    assert small == []


def test_a_referee_ends_an_open_status_with_one_tap(live_server, phone, character):
    open_console(phone, live_server, character["id"])
    phone.get_by_role("button", name="Altro", exact=True).click()
    phone.get_by_role("button", name="Status", exact=True).click()
    phone.get_by_role("button", name="Invisibile").click()
    expect(phone.locator("[data-statuses] li")).to_have_count(1)
    phone.get_by_role("button", name="Termina: Invisibile").click()
    expect(phone.locator("[data-statuses] li")).to_have_count(0)


def test_in_english_at_0_points_the_header_recalls_the_stagger_in_italian_and_english(
    app, live_server, browser, character
):
    """EX Nihilo: the stagger at 0 points and the mimed coup de grâce are on the
    console, in the rule's language (Italian) with the page's translation beside it."""
    from .test_console_one_hand_in_chromium import put_in

    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="en-GB")
    page = context.new_page()
    open_console(page, live_server, character["id"])
    expect(page.locator("[data-wound-rules] span")).to_have_count(0)  # on their feet: nothing
    put_in(app, character["id"], "grievous", character["hp"])
    expect(page.locator("[data-hp]")).to_have_text("0", timeout=5000)
    original = page.locator('[data-wound-rules] span[lang="it"]')
    expect(original).to_have_text(
        "A 0 punti vita si può solo barcollare (1 metro per turno); un altro colpo: incosciente."
    )
    translation = page.locator('[data-wound-rules] span[lang="en"].translation')
    expect(translation).to_have_text(
        "At 0 hit points, only stagger (1 metre a turn); one more blow: unconscious."
    )
    expect(original).to_be_visible()
    # Dying, blows change nothing: no line may still say what one more blow does.
    from .test_console_one_hand_in_chromium import log_on_server

    log_on_server(app, character["id"], kind="hit", pierce=True, damage=1)
    expect(page.locator("[data-hp]")).to_have_text("-1", timeout=5000)
    expect(page.locator("[data-wound-rules] span")).to_have_count(0)
    expect(page.locator(".console")).not_to_contain_text("one more blow")
    page.get_by_role("button", name="More", exact=True).click()
    beside = page.locator('[data-dialog="more"] [data-action-rule="coup_de_grace"]')
    expect(beside.locator('span[lang="it"]')).to_contain_text("mimato per almeno 3 secondi")
    expect(beside.locator('span[lang="en"]')).to_contain_text("mimed for at least 3 seconds")
    expect(beside).to_be_visible()
    context.close()


def test_an_athkri_console_recalls_no_ex_nihilo_rule(app, live_server, browser, character):
    with app.app_context():
        athkri = db.session.scalar(
            db.select(Character.id).where(Character.event_id == 2).order_by(Character.id)
        )
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="en-GB")
    page = context.new_page()
    open_console(page, live_server, athkri)
    expect(page.locator(".console[data-ready]")).to_have_count(1)
    page.get_by_role("button", name="More", exact=True).click()
    expect(page.locator('[data-dialog="more"] [data-action-rule]')).to_be_hidden()
    expect(page.locator("[data-wound-rules] span")).to_have_count(0)
    context.close()
