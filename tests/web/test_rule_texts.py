"""Rule texts in their own language, translated beside them into the page's language."""

import html

import pytest

from larp_app.extensions import db
from larp_app.models import Character
from larp_app.services.demo import load_demo

from .helpers import log_in, make_user, post_form


@pytest.fixture
def organiser(app, client):
    """The demo (EX Nihilo event 1, Sistema Athkri event 2) and an organiser logged in."""
    with app.app_context():
        load_demo()
        db.session.commit()
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    return client


def page_in(client, lang, url):
    post_form(client, "/language", {"lang": lang, "next": "/events"}, page="/events")
    return html.unescape(client.get(url).get_data(as_text=True))


def test_in_english_an_athkri_condition_prints_beside_its_spanish_name_described_once(organiser):
    """On paper a character is one A4 page: each condition's name beside the seed's, its
    description once, in the page's language."""
    page = page_in(organiser, "en", "/events/2/print")
    assert '<strong><span lang="en">Grabbed</span> (<span lang="es">Agarrado</span>)' in page
    assert '<span lang="en">A Grabbed being has been immobilised' in page
    assert "Un ser Agarrado ha sido inmovilizado" not in page


def test_in_spanish_an_athkri_condition_shows_once_in_its_own_words(organiser):
    page = page_in(organiser, "es", "/events/2/print")
    assert '<strong><span lang="es">Agarrado</span></strong>' in page
    assert 'class="translation"' not in page


def test_in_spanish_an_ex_nihilo_skill_shows_its_italian_original_then_the_translation(
    organiser,
):
    page = page_in(organiser, "es", "/characters/1")
    assert '<span lang="it">la scienza che si occupa della salute' in page
    assert '<span lang="es" class="translation">la ciencia que se ocupa de la salud' in page
    assert '<strong><span lang="es">Biología</span> (<span lang="it">Biologia</span>) 2' in page


def test_a_name_the_same_in_both_languages_shows_once(organiser):
    page = page_in(organiser, "es", "/characters/1")
    assert '<strong><span lang="it">Medicina</span> 3</strong>' in page


def test_the_player_page_shows_rule_texts_the_same_way(app, client):
    with app.app_context():
        load_demo()
        db.session.commit()
        secret = db.session.scalar(db.select(Character.player_secret).where(Character.id == 1))
    page = html.unescape(
        client.get(f"/p/{secret}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    )
    assert '<strong><span lang="en">Pain</span> (<span lang="it">Dolore</span>)' in page
    assert '<span lang="en" class="translation">the target falls to the ground' in page


def test_an_ex_nihilo_larp_sheet_recalls_the_stagger_and_the_mimed_coup_de_grace(organiser):
    """EX Nihilo: "è impossibilitato a fare qualcosa di diverso dal semplice barcollare o
    muoversi di 1 metro per turno"; a mimed killing blow of at least 3 seconds
    (larp_app/rulesets/ex_nihilo/README.md), in Italian with the page's translation."""
    page = page_in(organiser, "en", "/events/1/print")
    assert '<span lang="it">A 0 punti vita si può solo barcollare' in page
    assert '<span lang="en" class="translation">At 0 hit points, only stagger' in page
    assert "mimato per almeno 3 secondi" in page
    assert "mimed for at least 3 seconds" in page


def test_the_phone_rosters_event_kit_carries_the_ex_nihilo_rules_and_none_for_athkri(organiser):
    """EX Nihilo: the stagger at 0 points and the mimed coup de grâce are on the
    console too, from the roster the phone keeps: Italian first, the page's translation next,
    with where the console recalls each; an Athkri event's kit has no such rules."""
    page_in(organiser, "en", "/events")
    answer = organiser.get("/api/v1/roster")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    kits = {e["id"]: e for e in answer.json["events"]}
    assert kits[1]["ruleset"] == "ex-nihilo" and kits[2]["ruleset"] == "athkri"
    rules = {r["key"]: r for r in kits[1]["rules"]}
    assert rules["stagger"]["wounds"] == ["grievous"]  # dying, blows change nothing
    assert [lang for lang, _ in rules["stagger"]["text"]] == ["it", "en"]
    assert rules["stagger"]["text"][0][1].startswith("A 0 punti vita si può solo barcollare")
    assert rules["stagger"]["text"][1][1].startswith("At 0 hit points, only stagger")
    assert rules["coup_de_grace"]["action"] == "coup_de_grace"
    assert "mimato per almeno 3 secondi" in rules["coup_de_grace"]["text"][0][1]
    assert "mimed for at least 3 seconds" in rules["coup_de_grace"]["text"][1][1]
    assert kits[2]["rules"] == []


def test_in_italian_the_kits_rules_are_in_italian_only(organiser):
    page_in(organiser, "it", "/events")
    kits = {e["id"]: e for e in organiser.get("/api/v1/roster").json["events"]}
    assert [[lang for lang, _ in r["text"]] for r in kits[1]["rules"]] == [["it"], ["it"]]
