"""A Spanish organiser runs a Sistema Athkri event from spreadsheets, in a real Chromium: the
cast is imported from a CSV with Spanish headers (UTF-8 with a byte-order mark, then one saved by
Excel in Windows-1252), a sheet is fixed through the form (a skill added, an error shown at its
field), and the larp sheets print one A4 page per character."""

import io
from pathlib import Path

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from larp_app.extensions import db
from larp_app.models import Character

from ..web.helpers import make_user

HEADER = (
    "Jugador;Personaje;Facción;Físico;Agilidad;Mente;Intuición;Presencia;PS máx;Defensa;"
    "Voluntad;Cobertura;Blindaje;Habilidades;Poderes;Notas"
)
FIRST_FILE = [  # saved as "CSV UTF-8" (with a byte-order mark)
    "Lucía Fernández;Maese Ildefonso de la Vega;Hermandad del Faro;4;3;7;5;6;16;11;14;0;1;"
    '"Medicina:5 | Erudición:4 | Aguante:2";'
    '"Toque sanador:2:Cura 1d6 Puntos de Salud a un ser que toque. | Luz del Faro:3:Un '
    'destello deja Cegados durante 1d3 Turnos a quienes la miren de frente.";'
    "Guardián del faro de Punta Negra.",
    "Javier Morales;Rodrigo «el Cuervo» Salazar;Corsarios de Ámbar;7;6;2;4;3;26;13;9;2;3;"
    '"Armas cuerpo a cuerpo:6 | Atletismo:4 | Aguante:5";"Furia:1:+2 al daño.";',
]
SECOND_FILE = [  # saved by Excel as plain "CSV" (Windows-1252)
    "Niccolò Carrà;Doña Inés Peñalver;Corsarios de Ámbar;5;5;4;6;5;20;12;11;1;2;"
    '"Navegación:6";;Capitana del «Cormorán».',
]


@pytest.fixture
def organiser(app):
    make_user(app, "olga", "organiser")
    return "olga", "a-long-password"


def cast_file(tmp_path, name, rows, encoding):
    path = tmp_path / name
    path.write_bytes(("\r\n".join([HEADER, *rows]) + "\r\n").encode(encoding))
    return str(path)


def import_file(page, path, button):
    page.get_by_role("link", name="Importar fichas").click()
    page.set_input_files("input[type=file]", path)
    page.get_by_role("button", name="Vista previa").click()
    expect(page.locator(".flash.info")).to_contain_text("Listo")
    page.get_by_role("button", name=button).click()
    expect(page.locator(".flash")).to_contain_text("Importado")


def test_an_athkri_event_from_spanish_spreadsheets_to_the_form_and_one_printed_page_each(
    app, organiser, live_server, browser, tmp_path
):
    page = browser.new_context(locale="es-ES").new_page()
    page.goto(live_server + "/login")
    page.fill("input[name=username]", organiser[0])
    page.fill("input[name=password]", organiser[1])
    with page.expect_navigation():
        page.click("button.primary")
    page.get_by_label("Nombre").fill("Naufragio")
    page.get_by_label("Reglamento").select_option("athkri")
    page.get_by_role("button", name="Crear evento").click()
    event_url = page.url

    # The import page offers the Spanish template; both files are read, accents and all.
    page.get_by_role("link", name="Importar fichas").click()
    with page.expect_download() as download:
        page.get_by_role("link", name="Descargar la plantilla CSV").click()
    template = Path(download.value.path()).read_bytes()
    assert template.decode("utf-8-sig").startswith("jugador;personaje;facción;físico;")
    page.goto(event_url)
    import_file(page, cast_file(tmp_path, "uno.csv", FIRST_FILE, "utf-8-sig"), "Añadir 2")
    page.goto(event_url)
    import_file(page, cast_file(tmp_path, "dos.csv", SECOND_FILE, "cp1252"), "Añadir 1")
    with app.app_context():
        ines = db.session.scalar(db.select(Character).where(Character.player == "Niccolò Carrà"))
        assert ines.name == "Doña Inés Peñalver"

    # The form: a skill added; an empty Físico refused at its field, in Spanish; then saved.
    page.goto(f"{live_server}/characters/{ines.id}/sheet")
    expect(page.get_by_role("group", name="Atributos")).to_be_visible()
    assert page.locator("textarea[name=skills], textarea[name=powers]").count() == 0
    page.get_by_role("button", name="Añadir a Habilidades").click()
    page.locator("input[name='skills[1].key']").fill("Sigilo")
    page.locator("input[name='skills[1].value']").fill("3")
    page.locator("input[name='attributes.fisico']").fill("")
    page.get_by_role("button", name="Guardar ficha").first.click()
    error = page.locator("[id='err-attributes.fisico']")
    expect(error).to_have_text("⚠ es obligatorio")
    expect(page.locator("input[name='attributes.fisico']")).to_have_attribute(
        "aria-invalid", "true"
    )
    expect(page.locator("input[name='skills[1].key']")).to_have_value("Sigilo")  # kept
    page.locator("input[name='attributes.fisico']").fill("5")
    page.get_by_role("button", name="Guardar ficha").first.click()
    expect(page.locator(".flash")).to_contain_text("Ficha guardada")
    with app.app_context():
        assert db.session.get(Character, ines.id).tabletop["skills"] == {
            "Navegación": 6,
            "Sigilo": 3,
        }

    # Print: one A4 page per character.
    page.goto(event_url + "/print")
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    texts = [" ".join(p.extract_text().split()) for p in pdf.pages]
    assert len(pdf.pages) == 3, [t[:60] for t in texts]
    assert all("salvación de Físico a 12" in t for t in texts)
