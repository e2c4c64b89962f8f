"""Offline, the phone speaks the referee's language and the character's rule system, in a
real Chromium: the screens it makes by itself (the console, the scanner and its search, the
player's page, its answers) with the network cut before a console is first opened and after
a reload, and the language switched with no network.

For each rule system, characters are brought on the server to every wound level (on their
feet, each threshold, dying, dead); the phone keeps the roster, the network goes (the server
stopped too), and each console opens from the phone's kit: its wound word and the line that
says what the next blow does must be the rule system's at that level, in the chosen
language, at 320 × 568 and 360 × 740; no screen may show a word of another language or rule
system, or a bare key. Then the language is switched twice with no network (on the
console's "More" sheet, on the scanner's footer), and once the network is back the server
hears the last choice.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, Event, User
from larp_app.services.demo import load_demo
from larp_app.services.entries import record_entry, state_of

from ..web.test_every_screen_speaks_its_rule_system import (
    APP_NAME,
    BARE_KEY,
    RULESET_KEY,
    forbidden_words,
    own_descriptions,
    own_words,
)
from .test_offline_in_chromium import network, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LANGUAGES = ("it", "es", "en")
NAMES = {"it": "Italiano", "es": "Español", "en": "English"}
SIZES = ({"width": 320, "height": 568}, {"width": 360, "height": 740})
WOUNDS = ("ok", "grievous", "dying", "dead")
# What the header says the next blow does, at each wound level, by rule system: EX Nihilo at
# 0 points recalls its stagger rule (one more blow: unconscious), in Italian and translated;
# dying, blows change nothing and no line may say otherwise. Athkri's wound rules are its
# saves while Inconsciente (the next save, what a failure costs), on its own line.
NEXT_BLOW = {
    "ex-nihilo": {
        "grievous": {
            "it": "un altro colpo: incosciente",
            "es": "otro golpe: inconsciente",
            "en": "one more blow: unconscious",
        }
    },
    "athkri": {},
}
SAVE_LINE = {
    "athkri": {"it": "Prossimo tiro salvezza", "es": "Próxima salvación", "en": "Next save"},
}
ONE_MORE_BLOW = ("un altro colpo", "otro golpe", "one more blow")


def catalogue(language):
    path = f"larp_app/translations/{language}/LC_MESSAGES/messages.po"
    with open(path, "rb") as po:
        return {
            (m.id if isinstance(m.id, str) else m.id[0]): (
                m.string if isinstance(m.string, str) else m.string[0]
            )
            for m in read_po(po)
            if m.id
        }


def sentences(language):
    """The app's sentences as a page in ``language`` says them."""
    if language == "en":
        return {english: english for english in catalogue("it")}
    return {english: text for english, text in catalogue(language).items() if text}


def foreign_sentences(language):
    """Sentences of the app in the other languages that differ from this one's: found on a
    page in ``language``, they were left in another language."""
    mine = sentences(language)
    said_here = set(mine.values())
    found = set()
    for other in LANGUAGES:
        if other == language:
            continue
        for english, text in sentences(other).items():
            own = mine.get(english, english)
            sentence = len(text) > 14 and " " in text and "%(" not in text
            if sentence and text != own and text not in said_here:
                found.add(text)
    return found


FOREIGN = {language: foreign_sentences(language) for language in LANGUAGES}


def bring_to(app, character_id, wound):
    """Blows on the server until the character is at ``wound`` (dead: killed)."""
    with app.app_context():
        character = db.session.get(Character, character_id)
        referee = db.session.scalar(db.select(User).filter_by(username="referee"))

        def log(**fields):
            at = rules.format_instant(datetime.now(UTC))
            record_entry(character, {"id": str(uuid.uuid4()), "at": at, **fields}, referee)
            db.session.flush()

        if wound == "dead":
            log(kind="kill", reason="test")
        for _ in range(200):
            if state_of(character, datetime.now(UTC)).wound == wound:
                break
            log(kind="hit", pierce=True, damage=1)
        assert state_of(character, datetime.now(UTC)).wound == wound
        db.session.commit()


@pytest.fixture
def cast(app):
    """The demo; for each rule system, one character at each wound level and one for the
    scanner's search: {key: {"event": id, wound: id, ..., "player": secret}}."""
    with app.app_context():
        load_demo()
        db.session.commit()
        chosen = {}
        for event in db.session.scalars(db.select(Event).order_by(Event.id)):
            ids = db.session.scalars(
                db.select(Character.id).where(Character.event_id == event.id).order_by(Character.id)
            ).all()
            chosen[event.ruleset] = {"event": event.id, **dict(zip(WOUNDS, ids, strict=False))}
            chosen[event.ruleset]["player"] = db.session.get(Character, ids[0]).player_secret
            chosen[event.ruleset]["name"] = db.session.get(Character, ids[0]).name
    for cast_of in chosen.values():
        for wound in WOUNDS:
            bring_to(app, cast_of[wound], wound)
    return chosen


def log_in(page, base, language):
    """The referee logs in on a phone whose browser asks for English, and chooses
    ``language`` with the switcher (the choice is the phone's, not the browser's)."""
    page.goto(f"{base}/login?next=/referee/")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    with page.expect_navigation():
        page.click("button.primary")
    choose(page, language)


def choose(page, language, where=".site-footer"):
    with page.expect_navigation():
        page.locator(f"{where} form[data-language]").get_by_role(
            "button", name=NAMES[language], exact=True
        ).click()
    expect(page.locator("html")).to_have_attribute("lang", language)


KEPT = """async (languages) => {
    const names = await caches.keys();
    const kept = async (lang, url) => {
        const name = names.find((n) => n.startsWith('larp-pages-') && n.endsWith(`-${lang}`));
        return Boolean(name && await (await caches.open(name)).match(url));
    };
    const all = [];
    for (const lang of languages) for (const url of ['/scan', '/console/offline']) {
        all.push(await kept(lang, url));
    }
    return Boolean(navigator.serviceWorker.controller) && all.every(Boolean);
}"""


def ready_for_offline(page, player_url):
    """The worker keeps both shells in every language and the player's page; the roster is
    on the phone."""
    assert wait_until(lambda: page.evaluate(KEPT, list(LANGUAGES)), seconds=60), page.evaluate(
        "async () => caches.keys()"
    )
    roster = "async () => (await import('/static/js/lib/roster.js')).rosterAt()"
    assert wait_until(lambda: page.evaluate(roster)), "the roster is not on the phone"
    page.goto(player_url)
    path = player_url.split("127.0.0.1", 1)[1].split(":", 1)[1].split("/", 1)[1]
    kept_page = """async (path) => {
        const names = (await caches.keys()).filter((n) => n.startsWith('larp-pages-'));
        let found = 0;
        for (const name of names) if (await (await caches.open(name)).match(path)) found += 1;
        return found;
    }"""
    assert wait_until(lambda: page.evaluate(kept_page, f"/{path}") == len(LANGUAGES))


SHOWN = """(selector) => {
    const root = document.querySelector(selector);
    const page = document.documentElement.lang;
    let text = root.innerText;
    // A text marked in its own language (a rule's original, a language's own name) is said
    // in that language on purpose.
    for (const marked of root.querySelectorAll('[lang]')) {
        if (marked.lang !== page && marked.checkVisibility()) {
            text = text.replace(marked.innerText, ' ');
        }
    }
    return text;
}"""


def shown_text(page, selector="body"):
    """What the reader sees (innerText: nothing hidden), but for texts marked in their own
    language."""
    return page.evaluate(SHOWN, selector)


def words_that_do_not_belong(text, key, language):
    found = []
    for word in sorted(own_words(key) | own_descriptions(key), key=len, reverse=True):
        text = text.replace(word, " ")
    found += [w for w in forbidden_words(key) if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]
    found += [k for k in BARE_KEY.findall(text) if k != APP_NAME] + RULESET_KEY.findall(text)
    found += [s for s in FOREIGN[language] if s in text]
    return found


def said(key, language):
    """The rule system's words in ``language``, as its kit gives them."""
    ruleset = rules.get_ruleset(key)
    return ruleset.words().in_language(language, ruleset.language)


def check_console(page, key, wound, language):
    """The console of a character at ``wound``: its rule system's words in ``language``, the
    right line about the next blow, nothing of another language or rule system."""
    expect(page.locator(".console")).to_have_attribute("data-ready", "true")
    expect(page.locator("html")).to_have_attribute("lang", language)
    words = said(key, language)
    level = words["wounds"][wound]["word"]
    expect(page.locator("[data-wound-word]")).to_have_text(level)
    expect(page.locator('[data-quantity-name="hp"]')).to_have_text(
        words["quantities"]["hp"]["name"]
    )
    rule_line = page.locator("[data-wound-rules]")
    expected = NEXT_BLOW[key].get(wound, {}).get(language)
    if expected:
        expect(rule_line).to_contain_text(expected)
        expect(rule_line).to_be_visible()
    else:
        expect(rule_line).to_have_text("")
    head = page.inner_text(".console-head")
    if wound != "grievous":  # only at 0 points may a line say what one more blow does
        assert not any(phrase in head for phrase in ONE_MORE_BLOW), head
    if key in SAVE_LINE:
        save = page.locator("[data-save]")
        if wound == "dying":
            expect(save).to_be_visible()
            expect(save).to_contain_text(SAVE_LINE[key][language])
        else:
            expect(save).to_be_hidden()
    for size in SIZES:
        page.set_viewport_size(size)
        box = page.locator("[data-wound-word]").bounding_box()
        assert box and box["width"] > 0 and 0 <= box["y"] < size["height"], (size, box)
    found = words_that_do_not_belong(shown_text(page), key, language)
    assert found == [], (key, wound, language, found)


def offline_round(page, base, cast_of, key, language):
    """Every screen the phone makes by itself, in ``language``, with no network."""
    for wound in WOUNDS:
        response = page.goto(f"{base}/console/{cast_of[wound]}")
        assert response.from_service_worker, "the console from the phone's own kit"
        check_console(page, key, wound, language)
    # A reload with no network: the same words.
    assert page.reload().from_service_worker
    check_console(page, key, "dead", language)
    # The "More" sheet of a dead character: why nothing else can be logged, in words.
    page.locator('[data-open="more"]').click()
    expect(page.locator("[data-dialog=more]")).to_be_visible()
    why = page.locator("[data-why-not]")
    expect(why).not_to_have_text("")
    assert words_that_do_not_belong(shown_text(page, "[data-dialog=more]"), key, language) == []
    page.keyboard.press("Escape")
    # An answer: a blow logged with no network waits on the phone, said in words.
    page.goto(f"{base}/console/{cast_of['ok']}")
    expect(page.locator(".console")).to_have_attribute("data-ready", "true")
    page.locator('.bar-main [data-action="hit"]').click()
    feedback = page.locator("[data-feedback]")
    expect(feedback).to_be_visible()
    expect(feedback).to_contain_text(
        catalogue_text("Saved on this phone, sent once back online", language)
    )
    assert words_that_do_not_belong(shown_text(page), key, language) == []
    # The scanner and its search over the phone's roster.
    assert page.goto(f"{base}/scan?event={cast_of['event']}").from_service_worker
    page.fill("#scan-search-input", cast_of["name"][:4])
    expect(page.locator("[data-search-results] li").first).to_contain_text(cast_of["name"][:4])
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert words_that_do_not_belong(shown_text(page), key, language) == []
    # The player's page, kept in every language.
    assert page.goto(f"{base}/p/{cast_of['player']}").from_service_worker
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert words_that_do_not_belong(shown_text(page), key, language) == []


def catalogue_text(english, language):
    return english if language == "en" else catalogue(language)[english]


@pytest.mark.parametrize(
    ("key", "first", "second", "third"),
    [
        ("ex-nihilo", "it", "es", "en"),
        ("athkri", "es", "en", "it"),
    ],
)
def test_offline_the_phone_speaks_the_chosen_language_and_rule_system_and_switches_offline(
    app, server, browser, toy_ruleset, cast, key, first, second, third
):
    cast_of = cast[key]
    context = browser.new_context(viewport=SIZES[1], locale="en-GB", has_touch=True, is_mobile=True)
    page = context.new_page()
    base = server.url
    log_in(page, base, first)
    page.goto(f"{base}/scan?event={cast_of['event']}")
    ready_for_offline(page, f"{base}/p/{cast_of['player']}")
    page.goto(f"{base}/scan?event={cast_of['event']}")
    network(page, server, on=False)

    offline_round(page, base, cast_of, key, first)

    # Switched with no network on the console's "More" sheet: every screen follows.
    page.goto(f"{base}/console/{cast_of['grievous']}")
    expect(page.locator(".console")).to_have_attribute("data-ready", "true")
    page.locator('[data-open="more"]').click()
    choose(page, second, where="[data-dialog=more]")
    check_console(page, key, "grievous", second)
    offline_round(page, base, cast_of, key, second)

    # And on the scanner's footer.
    page.goto(f"{base}/scan?event={cast_of['event']}")
    choose(page, third)
    offline_round(page, base, cast_of, key, third)

    # The network back: the server hears the phone's choice, and pages come in it.
    network(page, server, on=True)
    page.goto(f"{base}/scan?event={cast_of['event']}")
    expect(page.locator("html")).to_have_attribute("lang", third, timeout=15_000)
    with app.app_context():
        assert wait_until(
            lambda: (
                db.session.scalar(db.select(User.language).where(User.username == "referee"))
                == third
            )
        )
    context.close()
