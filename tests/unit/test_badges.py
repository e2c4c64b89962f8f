"""Badge cards and print sheets: CR80 at 300 dpi, QR codes that decode, names that fit, duplex."""

import ast
import dataclasses
import io
import shutil
import subprocess
from pathlib import Path

import pytest
import qrcode
import qrcode.util
from PIL import Image, ImageChops

from larp_app.badges import (
    LAYOUTS,
    BadgeFace,
    card_png,
    placed_shapes,
    qr_matrix,
    render_card,
    text_colour_on,
    write_sheets,
)
from larp_app.badges.card import BAND_H, ERROR_CORRECTION, MARGIN, MM_PER_INCH
from larp_app.badges.face import contrast, rgb
from larp_app.badges.sheet import slots

zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp (PyPI) decodes the QR codes")

needs_pdftoppm = pytest.mark.skipif(
    shutil.which("pdftoppm") is None,
    reason="pdftoppm (Debian poppler-utils) is not installed: printed sheets cannot be rendered",
)

BADGES = Path(__file__).resolve().parents[2] / "larp_app" / "badges"
SIXTY = "Ser Bartholomew Aurelio Montgomery-Vasquez of the Silver Fen"
ACCENTED = "Fra' Nicolò Mosè Carrà"
PX_PER_MM_300 = 300 / MM_PER_INCH


def a_face(i: int = 0, **changes) -> BadgeFace:
    face = BadgeFace(
        character=f"Aldebrand {i}",
        player=f"Giulia Bianchi {i}",
        faction="Compagnia della Rosa Nera",
        faction_colour="#b3261e",
        event="Ex Nihilo — Atto III",
        scan_url=f"http://192.168.1.10:5000/b/K7MQ2X9HPABCDEFGHJKMN{i:05d}?v=1",
        short_code="K7M-Q2X-9HP",
        status_url=f"http://192.168.1.10:5000/p/ZYXWVUTSRQPNMKJHGFEDC{i:05d}",
        hp=5,
        ap=2,
        energy=4,
        energy_recovery_minutes=30,
    )
    return dataclasses.replace(face, **changes)


def decoded(image: Image.Image) -> list[str]:
    return [code.text for code in zxingcpp.read_barcodes(image)]


# --- The card ------------------------------------------------------------------------------


@pytest.mark.parametrize("side", ["front", "back"])
def test_a_card_is_cr80_at_300_dpi(side):
    assert render_card(a_face(), side).size == (1011, 638)
    assert Image.open(io.BytesIO(card_png(a_face(), side))).size == (1011, 638)


def test_the_front_qr_decodes_to_the_scan_url_and_the_back_qr_to_the_status_url():
    face = a_face(7)
    assert decoded(render_card(face, "front")) == [face.scan_url]
    assert decoded(render_card(face, "back")) == [face.status_url]


@pytest.mark.parametrize(
    "name",
    [SIXTY, ACCENTED, "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaf"],
    ids=["sixty-characters", "accented", "one-sixty-character-word"],
)
@pytest.mark.parametrize("side", ["front", "back"])
def test_long_and_accented_names_stay_inside_the_card_and_clear_of_the_qr(name, side):
    assert len(name) == 60 or name == ACCENTED
    face = a_face(character=name, player=name, faction=name, event=name)
    width, height = 1011, 638
    margin = MARGIN * PX_PER_MM_300
    shapes = placed_shapes(face, side)
    (qr,) = [shape.box for shape in shapes if shape.kind == "qr"]
    texts = [shape for shape in shapes if shape.kind == "text"]
    assert texts
    for text in texts:
        left, top, right, bottom = text.box
        assert margin <= left and right <= width - margin, text
        assert top > 0 and bottom <= height - margin, text
        assert right <= qr[0] or left >= qr[2] or bottom <= qr[1] or top >= qr[3], text
    band = BAND_H * PX_PER_MM_300
    assert all(t.box[3] <= band or t.box[1] >= band for t in texts), "text across the band"

    # No ink in the margins below the band.
    grey = render_card(face, side).convert("L")
    m, b = round(margin), round(band)
    for strip in ((0, b, m, height), (width - m, b, width, height), (0, height - m, width, height)):
        assert grey.crop(strip).getextrema()[0] == 255, strip


def test_a_sixty_character_name_is_printed_whole_on_two_lines_of_the_front():
    lines = [s.content for s in placed_shapes(a_face(character=SIXTY)) if s.kind == "text"][1:3]
    assert " ".join(lines) == SIXTY


def test_an_accented_name_keeps_its_accents():
    texts = [s.content for s in placed_shapes(a_face(character=ACCENTED), "back")]
    assert ACCENTED in texts


def test_letters_lato_cannot_draw_are_printed_as_their_plain_letter():
    # Lato 2 draws every accented Latin letter (Hungarian, Turkish, Vietnamese...);
    # a letter it lacks, such as a mathematical ℍ, is printed as its plain H.
    texts = [s.content for s in placed_shapes(a_face(character="Ődön ℍerban"), "back")]
    assert "Ődön Herban" in texts


@pytest.mark.parametrize(
    "colour", ["#000000", "#ffffff", "#f2a900", "#1f4e9c", "#777777", "#00ff00"]
)
def test_the_faction_name_reads_on_its_band_in_black_or_white(colour):
    assert contrast(rgb(colour), text_colour_on(colour)) >= 4.5


def test_the_faction_name_is_printed_on_the_band_not_only_its_colour():
    shapes = placed_shapes(a_face(faction="Lupi", faction_colour="#f2a900"))
    band = BAND_H * PX_PER_MM_300
    assert [s.content for s in shapes if s.kind == "text" and s.box[3] <= band] == ["Lupi"]


def test_a_bad_faction_colour_is_refused():
    with pytest.raises(ValueError, match="faction_colour"):
        a_face(faction_colour="red")


# --- The QR symbol -------------------------------------------------------------------------


PAYLOADS = [a_face(i).scan_url for i in range(4)] + ["http://127.0.0.1:5000/p/K7M", "x" * 120]


def qrcode_matrix(payload: str, mask: int) -> list[list[bool]]:
    code = qrcode.QRCode(error_correction=ERROR_CORRECTION, border=0, mask_pattern=mask)
    code.add_data(payload)
    code.make(fit=True)
    return code.get_matrix()


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_symbol_is_the_one_qrcode_draws_under_the_mask_qrcode_scores_lowest(payload):
    symbol = qr_matrix(payload)
    matrices = [qrcode_matrix(payload, mask) for mask in range(8)]
    scores = [qrcode.util.lost_point(matrix) for matrix in matrices]
    assert symbol.mask == scores.index(min(scores))
    expected = ["".join("1" if dark else "0" for dark in row) for row in matrices[symbol.mask]]
    assert list(symbol.rows) == expected


def test_the_rectangles_of_a_symbol_cover_its_dark_modules_exactly_once():
    symbol = qr_matrix(PAYLOADS[0])
    painted = [[0] * symbol.size for _ in range(symbol.size)]
    for x, y, w, h in symbol.rectangles():
        for row in range(y, y + h):
            for col in range(x, x + w):
                painted[row][col] += 1
    assert ["".join(map(str, row)) for row in painted] == list(symbol.rows)
    assert len(list(symbol.rectangles())) < sum(row.count("1") for row in symbol.rows) / 2


# --- Print sheets --------------------------------------------------------------------------


def test_a_23_badge_a4_cr80_sheet_has_3_pages_of_fronts_and_3_of_backs(tmp_path):
    out = tmp_path / "badges.pdf"
    assert write_sheets((a_face(i) for i in range(23)), out) == 6
    assert out.read_bytes().startswith(b"%PDF")


def test_without_duplex_only_fronts_are_printed():
    assert write_sheets([a_face(i) for i in range(23)], io.BytesIO(), duplex=False) == 3


def test_progress_counts_every_badge_once():
    done = []
    write_sheets([a_face(i) for i in range(12)], io.BytesIO(), progress=done.append)
    assert done == list(range(1, 13))


@pytest.mark.parametrize(("option", "value"), [("layout", "business-card"), ("paper", "a3")])
def test_an_unknown_layout_or_paper_is_refused_by_name(option, value):
    with pytest.raises(ValueError, match=value):
        write_sheets([a_face()], io.BytesIO(), **{option: value})


def test_a_cr80_card_prints_at_its_true_size_on_both_papers():
    for paper in ("a4", "letter"):
        assert {(round(s.w, 3), round(s.h, 3)) for s in slots("cr80-10up", paper)} == {(85.6, 54.0)}


def render_pages(pdf: Path, dpi: int = 150) -> list[Image.Image]:
    prefix = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(prefix)], check=True)
    pages = sorted(
        pdf.parent.glob(f"{prefix.name}-*.png"), key=lambda p: int(p.stem.split("-")[-1])
    )
    images = []
    for page in pages:
        with Image.open(page) as image:
            images.append(image.convert("L"))
    return images


def codes_by_slot(page: Image.Image, layout: str, paper: str, dpi: int) -> dict[tuple, str]:
    """Each decoded QR, keyed by the (row, column) of the card box its centre lies in."""
    found = {}
    px = dpi / MM_PER_INCH
    for code in zxingcpp.read_barcodes(page):
        p = code.position
        corners = (p.top_left, p.top_right, p.bottom_right, p.bottom_left)
        x = sum(c.x for c in corners) / 4 / px
        y = sum(c.y for c in corners) / 4 / px
        (slot,) = [s for s in slots(layout, paper) if s.x < x < s.x + s.w and s.y < y < s.y + s.h]
        assert (slot.row, slot.col) not in found
        found[slot.row, slot.col] = code.text
    return found


@needs_pdftoppm
@pytest.mark.parametrize(
    ("layout", "paper", "count"),
    [("cr80-10up", "a4", 23), ("a7-8up", "letter", 11), ("a6-4up", "letter", 6)],
)
def test_every_printed_qr_decodes_to_its_own_badge_and_each_back_lies_behind_its_front(
    tmp_path, layout, paper, count
):
    faces = [a_face(i) for i in range(count)]
    out = tmp_path / "badges.pdf"
    write_sheets(faces, out, layout=layout, paper=paper)
    pages = render_pages(out)
    sheet = LAYOUTS[layout]
    assert len(pages) == 2 * -(-count // sheet.per_page)

    seen = 0
    for number in range(0, len(pages), 2):
        fronts = codes_by_slot(pages[number], layout, paper, 150)
        backs = codes_by_slot(pages[number + 1], layout, paper, 150)
        on_sheet = faces[seen : seen + sheet.per_page]
        assert len(fronts) == len(backs) == len(on_sheet)
        for i, face in enumerate(on_sheet):
            row, col = divmod(i, sheet.cols)
            assert fronts[row, col] == face.scan_url
            assert backs[row, sheet.cols - 1 - col] == face.status_url
        seen += len(on_sheet)
    assert seen == count


@needs_pdftoppm
def test_a_printed_card_looks_like_its_png(tmp_path):
    face = a_face(3, character=ACCENTED)
    out = tmp_path / "badge.pdf"
    write_sheets([face], out, duplex=False)
    (page,) = render_pages(out, dpi=300)
    slot = slots("cr80-10up", "a4")[0]
    box = [round(v * PX_PER_MM_300) for v in (slot.x, slot.y, slot.x + slot.w, slot.y + slot.h)]
    printed = page.crop(box).convert("L").resize((1011, 638))
    card = render_card(face).convert("L")
    # At a quarter of the resolution a one-pixel edge vanishes; a moved element (0.5 mm) or
    # another QR code differs on more than 10 % of the card.
    histogram = ImageChops.difference(printed.reduce(4), card.reduce(4)).histogram()
    assert sum(histogram[64:]) / sum(histogram) < 0.03


def test_the_badges_package_imports_neither_the_web_nor_the_database_nor_the_app():
    imported = []
    for path in BADGES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported += [(path.name, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                imported.append((path.name, node.module))
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 1, f"{path.name} reaches outside larp_app.badges"
    forbidden = {"flask", "flask_sqlalchemy", "sqlalchemy", "werkzeug", "larp_app"}
    assert [(f, m) for f, m in imported if m.split(".")[0] in forbidden] == []
    assert ("sheet.py", "fpdf") in imported  # the walk sees the imports


def test_the_badge_font_is_kept_in_the_repository_with_its_licence():
    from pathlib import Path

    from fontTools.ttLib import TTFont

    from larp_app.badges.card import FONT_FILES

    package = Path(__file__).resolve().parents[2] / "larp_app"
    for path in map(Path, FONT_FILES.values()):
        assert path.is_relative_to(package), path  # no font from a package of strangers
        assert TTFont(path)["name"].getDebugName(1) == "Lato"
        assert "SIL Open Font License" in (path.parent / "OFL.txt").read_text(encoding="utf-8")
    readme = (package.parent / "README.md").read_text(encoding="utf-8")
    assert "larp_app/badges/fonts/" in readme and "fonts-lato" in readme
