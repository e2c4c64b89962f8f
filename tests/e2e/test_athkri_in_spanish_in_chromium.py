"""A Sistema Athkri event from start to finish in Spanish, in a real Chromium: the organiser
sets it up through the forms, a referee logs blows, dice and checks on a phone."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ..web.helpers import make_user

SHEET = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "athkri-sheet.json").read_text("utf-8")
)  # Maurick: PS 20, Físico 4 (Malherido at 4 PS), Blindaje 2
ENGLISH = [
    "Hit points",
    "gravely wounded",
    "dying",
    "Next save",
    "Recent rolls",
    "Unconscious",
    "Badly wounded",
    "Roll ",
]


@pytest.fixture
def organiser(app):
    make_user(app, "olga", "organiser")
    return "olga", "a-long-password"


def log_in(page, base, username, password):
    page.goto(base + "/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("button.primary")


def set_up_the_event(page, base, organiser) -> str:
    """Español, then an Athkri event, its sheet pasted and imported; returns a referee's
    password, made on the Referees page."""
    page.goto(base + "/login")
    with page.expect_navigation():  # the page again, in the language chosen
        page.get_by_role("button", name="Español").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Iniciar sesión")
    log_in(page, base, *organiser)
    page.get_by_label("Nombre").fill("Naufragio")
    page.get_by_label("Reglamento").select_option("athkri")
    page.get_by_role("button", name="Crear evento").click()
    expect(page.locator(".flash")).to_contain_text("Evento creado.")
    page.get_by_role("link", name="Importar fichas").click()
    page.get_by_label("…o pega").fill(json.dumps([SHEET]))
    page.get_by_role("button", name="Vista previa").click()
    page.get_by_role("button", name="Añadir 1 personaje").click()
    expect(page.get_by_role("link", name="Maurick")).to_be_visible()
    page.get_by_role("link", name="Credenciales").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Credenciales")
    expect(page.get_by_role("button", name="Imprimir credenciales")).to_be_visible()
    page.goto(base + "/users")
    page.get_by_label("Usuario").fill("arbitro")
    page.get_by_role("button", name="Crear árbitro").click()
    expect(page.locator(".flash")).to_contain_text("Contraseña de arbitro")
    return page.inner_text("code.secret")


def hit(phone, damage):
    """One piercing blow of ``damage``, through the Spanish console."""
    phone.fill("[data-damage]", str(damage))  # typed on the numeric keypad
    expect(phone.locator("[data-damage]")).to_have_value(str(damage))
    phone.get_by_text("Perforante (ignora la armadura)").click()
    expect(phone.locator("[data-hit-copy]")).to_have_text(f"1 × {damage}")  # what it logs
    phone.locator('.bar-main [data-action="hit"]').click()


def test_an_athkri_event_is_set_up_and_refereed_in_spanish(live_server, browser, organiser, phone):
    desk = browser.new_page()
    password = set_up_the_event(desk, live_server, organiser)

    # The referee's phone speaks Spanish by itself (es-ES).
    log_in(phone, live_server, "arbitro", password)
    phone.goto(live_server + "/console/1")
    expect(phone.locator("[data-wound-word]")).to_have_text("Estable")
    assert "Puntos de Salud" in phone.inner_text(".big-numbers")

    hit(phone, 16)  # PS 4 = Físico: Malherido, and a 1o3d10 is one level lower
    expect(phone.locator("[data-wound-word]")).to_have_text("Malherido")
    more = phone.locator('.bar-main [data-open="more"]')
    more.click()
    phone.get_by_role("button", name="Tirada 1o3d10").click()
    dice = phone.locator("[data-dice]")
    expect(dice.get_by_role("heading")).to_have_text("Tirar 1o3d10")
    dice.get_by_role("button", name="Más bonificador").click()
    dice.get_by_label("Dificultad").select_option(label="Normal 12")
    dice.get_by_role("button", name="Tirar 1o3d10").click()
    result = phone.locator('[data-feedback][data-kind="roll"]')
    expect(result).to_contain_text(
        re.compile(r"Tirada 1o3d10 · 1o3d10 \d+ · \d+ · \d+ → menor \d+ \+ 1")
    )
    expect(result).to_contain_text(re.compile(r"/ 12 (✓ superada|✖ fallida)"))

    hit(phone, 4)  # PS 0: unconscious, a Físico save at the end of each 10 s turn
    expect(phone.locator("[data-wound-word]")).to_have_text("Inconsciente")
    track = phone.locator("[data-track]")
    expect(track).to_contain_text(re.compile(r"Próxima salvación en 00:(0\d|10)"))
    expect(track).to_contain_text("un fallo: −4 PS")

    more.click()
    phone.get_by_role("button", name="Estado", exact=True).click()
    phone.locator("[data-status-picker] button", has_text="Confundido").click()
    more.click()
    phone.get_by_role("button", name="Tirar Confundido").click()
    said = phone.locator('[data-feedback][data-kind="roll"]')
    expect(said).to_contain_text(re.compile(r"Confundido · d100"))
    rolls = phone.locator("[data-rolls] li")
    expect(rolls.first).to_contain_text("Confundido")
    body = phone.locator("[data-track-body]")
    expect(body).to_contain_text("Tiradas recientes")
    expect(body).to_contain_text("Tirada 1o3d10")

    text = phone.inner_text("body")
    assert [word for word in ENGLISH if word in text] == []


def test_the_athkri_console_speaks_spanish_after_the_phone_kept_it_in_italian(
    live_server, browser, organiser, phone
):
    """A referee who used the app in Italian switches to Spanish: the console's conditions,
    checks, wound level and quantities are Athkri's, in Spanish (never EX Nihilo's words)."""
    desk = browser.new_page()
    password = set_up_the_event(desk, live_server, organiser)
    log_in(phone, live_server, "arbitro", password)
    with phone.expect_navigation():  # the page again, in the language chosen
        phone.get_by_role("button", name="Italiano").click()
    phone.goto(live_server + "/console/1")
    expect(phone.locator("[data-wound-word]")).to_have_text("Estable (stabile)")
    more = phone.locator('.bar-main [data-open="more"]')
    more.click()
    phone.get_by_role("button", name="Status", exact=True).click()
    expect(phone.locator("[data-status-picker]")).to_contain_text("Afferrato")
    phone.locator('[data-dialog="status"] [data-close]').click()

    phone.goto(live_server + "/referee/")
    with phone.expect_navigation():  # the page's footer; the page again, in Spanish
        phone.get_by_role("button", name="Español").click()
    phone.goto(live_server + "/console/1")
    expect(phone.locator("[data-wound-word]")).to_have_text("Estable")
    numbers = phone.locator(".big-numbers")
    expect(numbers).to_contain_text("Puntos de Salud")
    expect(numbers).to_contain_text("Blindaje")
    expect(numbers).to_contain_text("Maná")

    hit(phone, 16)  # PS 4 = Físico: Malherido
    head = phone.locator(".console-head")
    expect(phone.locator("[data-wound-word]")).to_have_text("Malherido")
    expect(phone.locator("[data-wound-icon]")).to_have_text("▲")
    expect(head).to_contain_text("daño 16/24")
    assert "gravemente herido" not in head.inner_text()

    more.click()
    phone.get_by_role("button", name="Estado", exact=True).click()
    picker = phone.locator("[data-status-picker]")
    for spanish in ("Agarrado", "Cegado", "Confundido", "Daño continuo"):
        expect(picker).to_contain_text(spanish)
    for italian in ("Afferrato", "Accecato", "Confuso", "Danno continuo"):
        assert italian not in picker.inner_text()
    picker.locator("button", has_text="Confundido").click()
    more.click()
    expect(phone.get_by_role("button", name="Tirar Confundido")).to_be_visible()
    assert "Tirar Confuso" not in phone.locator('[data-dialog="more"]').inner_text()
    phone.locator('[data-dialog="more"] > [data-close]').click()

    hit(phone, 4)  # PS 0: Inconsciente, never EX Nihilo's "Morente" / "moribundo"
    expect(phone.locator("[data-wound-word]")).to_have_text("Inconsciente")
    expect(phone.locator("[data-wound-icon]")).to_have_text("✚")
    text = phone.inner_text("body")
    assert [
        w for w in ("Morente", "moribundo", "gravemente herido", "Puntos de vida") if w in text
    ] == []


@pytest.fixture
def phone_locale():
    """The phone asks for Spanish."""
    return "es-ES"
