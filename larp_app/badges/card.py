"""One badge card, laid out once in millimetres and drawn as a PNG (here) or on a sheet (sheet.py).

The layout is a short list of shapes — fills, words, QR codes — in card millimetres, so the
PNG and the printed sheet show the same elements in the same proportions. CR80 is
85.6 × 54 mm: 1011 × 638 pixels at 300 dpi.
"""

from __future__ import annotations

import functools
import io
import math
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Literal

import qrcode
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont, features
from qrcode.constants import ERROR_CORRECT_Q

from .face import BLACK, BadgeFace, rgb, text_colour_on
from .layouts import CARD_H, CARD_W  # CR80, in mm

MM_PER_INCH = 25.4

# Lato 2.007 as Debian's fonts-lato ships it, kept here with its licence (fonts/OFL.txt).
FONTS = Path(__file__).resolve().parent / "fonts"
FONT_FILES = {False: str(FONTS / "Lato-Regular.ttf"), True: str(FONTS / "Lato-Bold.ttf")}
GREY = (85, 85, 85)  # 7.5:1 on white

# Q restores a quarter of the code words, so a scuffed or creased card still scans, and
# the scan URL (a LAN address and a 26-symbol secret, 57 characters) stays at version 5:
# 37 modules, 0.8 mm each on the card. H would need version 6, 0.73 mm.
ERROR_CORRECTION = ERROR_CORRECT_Q
QUIET_ZONE = 4  # modules of white around the symbol, as ISO 18004 asks

Side = Literal["front", "back"]
Align = Literal["left", "centre", "right"]


# --- Shapes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fill:
    x: float
    y: float
    w: float
    h: float
    colour: tuple[int, int, int]


@dataclass(frozen=True)
class Words:
    text: str
    x: float  # left edge, centre or right edge, as align says
    baseline: float
    size: float  # em, in mm
    bold: bool
    colour: tuple[int, int, int]
    align: Align
    max_width: float  # no renderer may draw it wider


@dataclass(frozen=True)
class Code:
    x: float  # the square that holds the symbol and its quiet zone
    y: float
    size: float
    matrix: QrMatrix


Shape = Fill | Words | Code


# --- Text ----------------------------------------------------------------------------------

ASCENT = 0.95  # em above the baseline, accented capitals included (Lato: Ê reaches 0.93)
DESCENT = 0.22  # em below it (Lato: 0.213)
CAP_HEIGHT = 0.72
LINE_PITCH = 1.12
ELLIPSIS = "…"


# Pillow draws text as the sheet does — each character's advance from the font, no kerning,
# no ligatures — so the PNG and the PDF match. Raqm keeps fractional advances; without it
# (BASIC layout) advances are rounded to whole pixels, about 1 % off at 300 dpi.
if features.check("raqm"):
    _ENGINE, _FEATURES = ImageFont.Layout.RAQM, ["-kern", "-liga", "-clig", "-calt"]
else:  # pragma: no cover - depends on how Pillow was built
    _ENGINE, _FEATURES = ImageFont.Layout.BASIC, None


@functools.lru_cache(maxsize=128)
def pil_font(bold: bool, px: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT_FILES[bold], px, layout_engine=_ENGINE)


@functools.cache
def _advances(bold: bool) -> dict[str, float]:
    """Each character's advance in em, from the font's own table (what fpdf2 uses too)."""
    with TTFont(FONT_FILES[bold]) as font:
        per_em = font["head"].unitsPerEm
        metrics = font["hmtx"].metrics
        cmap = font.getBestCmap()
    return {chr(code): metrics[glyph][0] / per_em for code, glyph in cmap.items()}


def text_width(text: str, bold: bool) -> float:
    """Width in em (characters Lato lacks count as an em: printable() replaces them)."""
    advances = _advances(bold)
    return sum(advances.get(ch, 1.0) for ch in text)


@functools.cache
def _glyphs() -> frozenset[int]:
    """Code points both Lato faces can draw."""
    return frozenset(ord(ch) for ch in _advances(False).keys() & _advances(True).keys())


def printable(text: str) -> str:
    """The text with what Lato lacks replaced: ``ő`` → ``o``, other gaps → ``?``."""
    glyphs = _glyphs()
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if all(ord(ch) in glyphs for ch in text):
        return text
    out = []
    for ch in text:
        if ord(ch) in glyphs:
            out.append(ch)
            continue
        base = [c for c in unicodedata.normalize("NFKD", ch) if ord(c) in glyphs]
        kept = "".join(c for c in base if not unicodedata.combining(c))
        out.append(kept or "?")
    return "".join(out)


def _longest_prefix(text: str, bold: bool, width: float, suffix: str = "") -> int:
    """How many characters of text fit in width (em) with suffix after them."""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[:mid].rstrip() + suffix, bold) <= width:
            low = mid
        else:
            high = mid - 1
    return low


def _clip(text: str, bold: bool, width: float, max_lines: int) -> list[str]:
    """Break anywhere (at a space if one is near) and end with an ellipsis: the last resort."""
    lines: list[str] = []
    rest = text
    while rest and len(lines) < max_lines - 1 and text_width(rest, bold) > width:
        k = max(1, _longest_prefix(rest, bold, width))
        space = rest.rfind(" ", 0, k + 1)
        cut = space if space > k // 2 else k
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        if text_width(rest, bold) > width:
            rest = rest[: _longest_prefix(rest, bold, width, ELLIPSIS)].rstrip() + ELLIPSIS
        lines.append(rest)
    return lines


def fit_text(
    text: str, bold: bool, width: float, largest: float, smallest: float, max_lines: int = 1
) -> tuple[float, list[str]]:
    """The largest size (em, mm) from largest down to smallest and the lines that fit width.

    Two lines break where the longer line is shortest; one line wins a tie. Below the
    smallest size the text is cut and ends with an ellipsis: it never overflows.
    """
    text = printable(text)
    words = text.split(" ")
    candidates = [[text]]
    if max_lines >= 2:
        candidates += [[" ".join(words[:i]), " ".join(words[i:])] for i in range(1, len(words))]
    best_size, best_lines = 0.0, [text]
    for lines in candidates:
        widest = max(text_width(line, bold) for line in lines) or 1.0
        size = min(largest, width / widest)
        if size > best_size + 1e-9:
            best_size, best_lines = size, lines
    if best_size >= smallest:
        return best_size, best_lines
    return smallest, _clip(text, bold, width / smallest, max_lines)


# --- QR codes ------------------------------------------------------------------------------

_BITS = bytes.maketrans(b"\x00\x01", b"01")
_DARK_RUN = re.compile(r"1+")


@dataclass(frozen=True)
class QrMatrix:
    rows: tuple[str, ...]  # "1" is a dark module; no quiet zone
    mask: int

    @property
    def size(self) -> int:
        return len(self.rows)

    def rectangles(self) -> Iterator[tuple[int, int, int, int]]:
        """Dark modules as few rectangles (x, y, w, h): runs in a row, stacked when rows repeat."""
        open_runs: dict[tuple[int, int], int] = {}  # (start, end) → first row
        for y, row in enumerate((*self.rows, "")):
            runs = [m.span() for m in _DARK_RUN.finditer(row)]
            present = set(runs)
            for run in [run for run in open_runs if run not in present]:
                top = open_runs.pop(run)
                yield run[0], top, run[1] - run[0], y - top
            for run in runs:
                open_runs.setdefault(run, y)


def _encode(payload: str, mask: int, version: int | None = None) -> list[list[bool]]:
    code = qrcode.QRCode(
        version=version, error_correction=ERROR_CORRECTION, border=0, mask_pattern=mask
    )
    code.add_data(payload)
    code.make(fit=version is None)
    return code.get_matrix()


def _bits(matrix: list[list[bool]]) -> int:
    """The symbol's rows, then its columns, as one integer: a line of n bits each."""
    rows = bytes(chain.from_iterable(matrix)).translate(_BITS)
    cols = bytes(chain.from_iterable(zip(*matrix, strict=True))).translate(_BITS)
    return int(rows + cols, 2)


@dataclass(frozen=True)
class _Grid:
    """What scoring a mask needs to know about one QR version, with n modules a side."""

    n: int
    flips: tuple[int, ...]  # per mask: the bits that differ from the same symbol under mask 0
    lines: int  # all 2n lines set
    starts_2: int  # where a window of 2, 5 or 11 bits starts and ends in the same line
    starts_5: int
    starts_11: int


def _window_starts(n: int, lines: int, width: int) -> int:
    line = (1 << (n - width + 1)) - 1
    return sum(line << (i * n) for i in range(lines))


@functools.cache
def _grid(version: int) -> _Grid:
    # A mask only flips data modules and rewrites the format bits: the flips are the same for
    # every payload of a version, so one sample payload finds them.
    symbols = [_bits(_encode("", mask, version)) for mask in range(8)]
    n = version * 4 + 17
    return _Grid(
        n=n,
        flips=tuple(symbols[0] ^ symbol for symbol in symbols),
        lines=(1 << (2 * n * n)) - 1,
        starts_2=_window_starts(n, n, 2),
        starts_5=_window_starts(n, 2 * n, 5),
        starts_11=_window_starts(n, 2 * n, 11),
    )


_FINDER_LIKE = ("10111010000", "00001011101")


def _penalty(bits: int, grid: _Grid) -> int:
    """ISO 18004 mask penalty, as ``qrcode.util.lost_point`` scores it, on whole lines at once."""
    n = grid.n
    light_bits = bits ^ grid.lines
    # Runs of five or more alike: 3 points, and 1 more for each module past five.
    same = ~(bits ^ (bits >> 1))  # bit i equals bit i + 1
    fives = same & (same >> 1) & (same >> 2) & (same >> 3) & grid.starts_5
    score = fives.bit_count() + 2 * (fives & ~(fives << 1)).bit_count()
    # 1:1:3:1:1 dark-light runs with four light modules on one side: 40 points each.
    for pattern in _FINDER_LIKE:
        found = grid.starts_11
        for k, module in enumerate(pattern):
            found &= (bits if module == "1" else light_bits) >> k
        score += 40 * found.bit_count()
    # 2 × 2 blocks of one colour, in the rows: 3 points each.
    rows = bits >> (n * n)
    for alike in (rows & (rows >> n), (light_bits >> (n * n)) & (light_bits >> (n * n + n))):
        score += 3 * (alike & (alike >> 1) & grid.starts_2).bit_count()
    # Dark modules away from half: 10 points for each 5 %.
    dark = rows.bit_count()
    return score + int(abs(dark / n**2 * 100 - 50) / 5) * 10


def qr_matrix(payload: str) -> QrMatrix:
    """The QR symbol for payload at level Q, under the mask with the lowest penalty.

    qrcode builds the whole symbol once per mask to choose one (6 ms in pure Python, most
    of a badge's time); here it is built once, and the other masks are bit flips.
    """
    base = _encode(payload, 0)
    n = len(base)
    grid = _grid((n - 17) // 4)
    bits0 = _bits(base)
    symbols = [bits0 ^ flip for flip in grid.flips]
    scores = [_penalty(bits, grid) for bits in symbols]
    mask = scores.index(min(scores))
    text = format(symbols[mask] >> (n * n), f"0{n * n}b")
    return QrMatrix(rows=tuple(text[i : i + n] for i in range(0, n * n, n)), mask=mask)


# --- Layout --------------------------------------------------------------------------------

MARGIN = 3.5  # nothing but the band comes closer to an edge
BAND_H = 9.5
QR_BOX = 36.0  # symbol and quiet zone
QR_X, QR_Y = CARD_W - 1.0 - QR_BOX, BAND_H + 0.5  # the quiet zone may reach into the margin
TEXT_X = 4.0
TEXT_RIGHT = QR_X - 0.5  # the quiet zone, and a little more, between text and symbol
TEXT_W = TEXT_RIGHT - TEXT_X
FOOT_BASELINE = CARD_H - MARGIN - 1.0  # room for descenders above the margin


def _lines(
    text: str,
    *,
    x: float,
    top: float,
    width: float,
    largest: float,
    smallest: float,
    bold: bool,
    colour: tuple[int, int, int] = BLACK,
    max_lines: int = 1,
) -> tuple[list[Words], float]:
    """Words for text set from top down; and the y where their descenders end."""
    size, lines = fit_text(text, bold, width, largest, smallest, max_lines)
    baseline = top + ASCENT * size
    shapes = []
    for i, line in enumerate(lines):
        if i:
            baseline += LINE_PITCH * size
        shapes.append(Words(line, x, baseline, size, bold, colour, "left", width))
    return shapes, baseline + DESCENT * size


def _one_line(
    text: str,
    *,
    x: float,
    baseline: float,
    width: float,
    largest: float,
    smallest: float,
    bold: bool,
    colour: tuple[int, int, int] = BLACK,
    align: Align = "left",
) -> Words:
    size, lines = fit_text(text, bold, width, largest, smallest)
    return Words(lines[0], x, baseline, size, bold, colour, align, width)


def _band(face: BadgeFace) -> list[Shape]:
    """The faction's colour across the top, with its name on it: never colour alone."""

    shapes: list[Shape] = [Fill(0, 0, CARD_W, BAND_H, rgb(face.faction_colour))]
    if face.faction:
        size, lines = fit_text(face.faction, True, CARD_W - 2 * TEXT_X, 4.6, 2.6)
        baseline = BAND_H / 2 + CAP_HEIGHT * size / 2
        colour = text_colour_on(face.faction_colour)
        shapes.append(
            Words(lines[0], TEXT_X, baseline, size, True, colour, "left", CARD_W - 2 * TEXT_X)
        )
    return shapes


def layout(face: BadgeFace, side: Side = "front") -> list[Shape]:
    """The shapes of one side of the card, in card millimetres from its top-left corner."""
    if side == "front":
        return _front(face)
    if side == "back":
        return _back(face)
    raise ValueError(f"side must be 'front' or 'back', not {side!r}")


def _front(face: BadgeFace) -> list[Shape]:
    shapes = _band(face)
    names, bottom = _lines(
        face.character,
        x=TEXT_X,
        top=BAND_H + 3.0,
        width=TEXT_W,
        largest=8.0,
        smallest=2.5,
        bold=True,
        max_lines=2,
    )
    shapes += names
    # The player's name never outgrows the character's.
    player, _ = _lines(
        face.player,
        x=TEXT_X,
        top=bottom + 1.6,
        width=TEXT_W,
        largest=min(4.4, 0.8 * names[0].size),
        smallest=2.2,
        bold=False,
    )
    shapes += player
    shapes.append(
        _one_line(
            face.event,
            x=TEXT_X,
            baseline=FOOT_BASELINE,
            width=TEXT_W,
            largest=3.2,
            smallest=2.4,
            bold=False,
            colour=GREY,
        )
    )
    shapes.append(Code(QR_X, QR_Y, QR_BOX, qr_matrix(face.scan_url)))
    shapes.append(
        _one_line(
            face.short_code,
            x=QR_X + QR_BOX / 2,
            baseline=FOOT_BASELINE,
            width=QR_BOX - 2.0,
            largest=3.6,
            smallest=2.4,
            bold=True,
            align="centre",
        )
    )
    return shapes


def _back(face: BadgeFace) -> list[Shape]:
    # The symbol sits at the right again: after a flip on the long edge that is behind the
    # front's text, not behind its symbol, so thin card never shows one code through another.
    shapes = _band(face)
    # One line from 4.6 down to 3.2 mm; a longer name takes two smaller lines above the table.
    one_line = text_width(printable(face.character), True) * 3.2 <= TEXT_W
    name, _ = _lines(
        face.character,
        x=TEXT_X,
        top=BAND_H + 2.5,
        width=TEXT_W,
        largest=4.6 if one_line else 3.0,
        smallest=3.2 if one_line else 2.4,
        bold=True,
        max_lines=1 if one_line else 2,
    )
    shapes += name
    stats = [
        (face.label(label), value)
        for quantity, label, value in (
            ("hp", "hit_points", face.hp),
            ("ap", "armour", face.ap),
            ("energy", "energy", face.energy),
        )
        if quantity in face.shown
    ]
    baseline = 25.0
    value_right = TEXT_RIGHT - 2.0
    for label, value in stats:
        number = _one_line(
            str(value),
            x=value_right,
            baseline=baseline,
            width=12.0,
            largest=5.0,
            smallest=3.0,
            bold=True,
            align="right",
        )
        room = value_right - TEXT_X - text_width(number.text, True) * number.size - 2.0
        shapes.append(
            _one_line(
                label,
                x=TEXT_X,
                baseline=baseline,
                width=room,
                largest=3.6,
                smallest=2.4,
                bold=False,
            )
        )
        shapes.append(number)
        baseline += 6.6
    if face.energy_recovery_minutes and "energy" in face.shown:
        text = face.label("every_minutes", minutes=face.energy_recovery_minutes)
        shapes.append(
            _one_line(
                text,
                x=TEXT_X,
                baseline=baseline - 2.2,
                width=value_right - TEXT_X,
                largest=3.0,
                smallest=2.2,
                bold=False,
                colour=GREY,
            )
        )
    shapes.append(
        _one_line(
            f"{face.label('code')} {face.short_code}",
            x=TEXT_X,
            baseline=FOOT_BASELINE,
            width=TEXT_W,
            largest=3.2,
            smallest=2.4,
            bold=False,
            colour=GREY,
        )
    )
    shapes.append(Code(QR_X, QR_Y, QR_BOX, qr_matrix(face.status_url)))
    shapes.append(
        _one_line(
            face.label("your_status"),
            x=QR_X + QR_BOX / 2,
            baseline=FOOT_BASELINE,
            width=QR_BOX - 2.0,
            largest=3.4,
            smallest=2.2,
            bold=True,
            align="centre",
        )
    )
    return shapes


# --- PNG -----------------------------------------------------------------------------------

_ANCHORS = {"left": "ls", "centre": "ms", "right": "rs"}


@dataclass(frozen=True)
class Placed:
    """Where a shape landed on the image: kind "text", "qr" or "fill"; box in pixels."""

    kind: str
    content: str
    box: tuple[int, int, int, int]  # left, top, right, bottom (exclusive)


def card_size(dpi: int = 300) -> tuple[int, int]:
    return round(CARD_W * dpi / MM_PER_INCH), round(CARD_H * dpi / MM_PER_INCH)


def _font_for(words: Words, scale: float) -> ImageFont.FreeTypeFont:
    """The font at the words' size, a little smaller if hinting made them wider than allowed."""
    px = words.size * scale
    font = pil_font(words.bold, round(px, 2))
    width, limit = font.getlength(words.text, features=_FEATURES), words.max_width * scale
    if width > limit:  # rounded advances (BASIC layout) may run wider than the layout's
        font = pil_font(words.bold, round(px * limit / width * 0.995, 2))
    return font


def _symbol(matrix: QrMatrix, px: int) -> Image.Image:
    """The symbol as a px-wide image: modules differ by at most a pixel, as on the sheet."""
    dark = bytes.maketrans(b"01", b"\xff\x00")
    pixels = "".join(matrix.rows).encode("ascii").translate(dark)
    image = Image.frombytes("L", (matrix.size, matrix.size), pixels)
    return image.resize((px, px), Image.Resampling.NEAREST)


def _draw(face: BadgeFace, side: Side, dpi: int) -> tuple[Image.Image, list[Placed]]:
    scale = dpi / MM_PER_INCH  # px a mm
    image = Image.new("RGB", card_size(dpi), "white")
    draw = ImageDraw.Draw(image)
    placed = []
    for shape in layout(face, side):
        if isinstance(shape, Fill):
            box = (
                round(shape.x * scale),
                round(shape.y * scale),
                round((shape.x + shape.w) * scale),
                round((shape.y + shape.h) * scale),
            )
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=shape.colour)
            placed.append(Placed("fill", "", box))
        elif isinstance(shape, Words):
            font = _font_for(shape, scale)
            at = (shape.x * scale, shape.baseline * scale)
            anchor = _ANCHORS[shape.align]
            draw.text(at, shape.text, shape.colour, font, anchor, features=_FEATURES)
            left, top, right, bottom = draw.textbbox(
                at, shape.text, font, anchor, features=_FEATURES
            )
            box = (math.floor(left), math.floor(top), math.ceil(right), math.ceil(bottom))
            placed.append(Placed("text", shape.text, box))
        else:
            n = shape.matrix.size
            module = shape.size * scale / (n + 2 * QUIET_ZONE)
            left = round(shape.x * scale + QUIET_ZONE * module)
            top = round(shape.y * scale + QUIET_ZONE * module)
            image.paste(_symbol(shape.matrix, round(n * module)), (left, top))
            box = (
                round(shape.x * scale),
                round(shape.y * scale),
                round((shape.x + shape.size) * scale),
                round((shape.y + shape.size) * scale),
            )
            placed.append(Placed("qr", "", box))
    return image, placed


def render_card(face: BadgeFace, side: Side = "front", dpi: int = 300) -> Image.Image:
    """One side of the card as an RGB image, CR80 at dpi (1011 × 638 at 300 dpi)."""
    return _draw(face, side, dpi)[0]


def placed_shapes(face: BadgeFace, side: Side = "front", dpi: int = 300) -> list[Placed]:
    """Where render_card puts each text (its ink box), each QR (with quiet zone) and fill."""
    return _draw(face, side, dpi)[1]


def card_png(face: BadgeFace, side: Side = "front") -> bytes:
    """One side of the card as a 300 dpi PNG."""
    out = io.BytesIO()
    render_card(face, side).save(out, format="PNG", dpi=(300, 300), optimize=True)
    return out.getvalue()
