"""Print sheets: badges laid out on A4 or US Letter, fronts and backs for long-edge duplex.

Everything is vector: each card is the layout of card.py drawn through one transform (place,
scale, turn), its QR modules filled rectangles — a run of dark modules in a row is one
rectangle, and runs repeated in the rows below grow it downwards. Text is Lato, embedded as
a subset. Pages are drawn a sheet at a time from an iterator of faces, so no more than one
sheet of QR matrices exists at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import BinaryIO

from fpdf import FPDF
from fpdf.drawing_primitives import Transform
from fpdf.enums import RenderStyle

from .card import FONT_FILES, MM_PER_INCH, QUIET_ZONE, Code, Fill, Words, layout
from .face import BadgeFace
from .layouts import CARD_H, CARD_W, LAYOUTS, PAPERS, Paper, SheetLayout

PT_PER_MM = 72 / MM_PER_INCH
BORDER_WIDTH = 0.15  # mm; thin enough to vanish in the cut
BORDER_GREY = 150
CROP_GAP = 1.5  # mm between the cards and a crop mark
CROP_LENGTH = 6.0
CROP_WIDTH = 0.2


@dataclass(frozen=True)
class Slot:
    """Where one card lands on a page: its box in page millimetres, its scale and turn."""

    row: int
    col: int
    x: float
    y: float
    w: float
    h: float
    scale: float
    turned: bool


def slots(layout_name: str, paper_name: str) -> list[Slot]:
    """The card boxes of a front page, row by row, left to right."""
    sheet, paper = _choose(layout_name, paper_name)
    cell_w = min(sheet.cell[0], paper.width / sheet.cols)
    cell_h = min(sheet.cell[1], paper.height / sheet.rows)
    card_w, card_h = (CARD_H, CARD_W) if sheet.turned else (CARD_W, CARD_H)
    scale = min(
        (cell_w - 2 * sheet.padding) / card_w,
        (cell_h - 2 * sheet.padding) / card_h,
    )
    w, h = card_w * scale, card_h * scale
    left = (paper.width - sheet.cols * cell_w) / 2
    top = (paper.height - sheet.rows * cell_h) / 2
    return [
        Slot(
            row,
            col,
            left + col * cell_w + (cell_w - w) / 2,
            top + row * cell_h + (cell_h - h) / 2,
            w,
            h,
            scale,
            sheet.turned,
        )
        for row in range(sheet.rows)
        for col in range(sheet.cols)
    ]


def back_slot(front: Slot, cols: int, front_slots: Sequence[Slot]) -> Slot:
    """The box behind front after a flip on the long edge: same row, mirrored column."""
    return front_slots[front.row * cols + (cols - 1 - front.col)]


def _choose(layout_name: str, paper_name: str) -> tuple[SheetLayout, Paper]:
    if layout_name not in LAYOUTS:
        raise ValueError(f"unknown layout {layout_name!r}; choose one of {', '.join(LAYOUTS)}")
    if paper_name not in PAPERS:
        raise ValueError(f"unknown paper {paper_name!r}; choose one of {', '.join(PAPERS)}")
    return LAYOUTS[layout_name], PAPERS[paper_name]


def _placement(slot: Slot, side: str) -> Transform:
    """Card millimetres → page millimetres (y down) for one side of the card in slot."""
    s = slot.scale
    if not slot.turned:
        return Transform(s, 0, 0, s, slot.x, slot.y)
    if side == "front":  # top edge to the left
        return Transform(0, -s, s, 0, slot.x, slot.y + s * CARD_W)
    # Top edge to the right: after the flip it lies behind the front's top edge.
    return Transform(0, s, -s, 0, slot.x + s * CARD_H, slot.y)


def _draw_card(pdf: FPDF, face: BadgeFace, side: str, slot: Slot) -> None:
    with pdf.transform(_placement(slot, side)):
        for shape in layout(face, side):  # type: ignore[arg-type]
            if isinstance(shape, Fill):
                pdf.set_fill_color(*shape.colour)
                pdf.rect(shape.x, shape.y, shape.w, shape.h, style=RenderStyle.F)
            elif isinstance(shape, Words):
                _draw_words(pdf, shape)
            elif isinstance(shape, Code):
                _draw_code(pdf, shape)


def _draw_words(pdf: FPDF, words: Words) -> None:
    size = words.size * PT_PER_MM
    pdf.set_font("Lato", "B" if words.bold else "", size)
    width = pdf.get_string_width(words.text)
    if width > words.max_width:  # same advances as the layout used; this is a safety net
        pdf.set_font_size(size * words.max_width / width)
        width = words.max_width
    x = words.x
    if words.align == "centre":
        x -= width / 2
    elif words.align == "right":
        x -= width
    pdf.set_text_color(*words.colour)
    pdf.text(x, words.baseline, words.text)


def _draw_code(pdf: FPDF, code: Code) -> None:
    module = code.size / (code.matrix.size + 2 * QUIET_ZONE)
    left = code.x + QUIET_ZONE * module
    top = code.y + QUIET_ZONE * module
    pdf.set_fill_color(0)
    for x, y, w, h in code.matrix.rectangles():
        pdf.rect(left + x * module, top + y * module, w * module, h * module, style=RenderStyle.F)


def _draw_cutting_guides(
    pdf: FPDF, sheet: SheetLayout, used: Sequence[Slot], grid: Sequence[Slot]
) -> None:
    """A thin border round every card used; crop marks in the margins, for CR80."""
    pdf.set_draw_color(BORDER_GREY)
    pdf.set_line_width(BORDER_WIDTH)
    for slot in used:
        pdf.rect(slot.x, slot.y, slot.w, slot.h, style=RenderStyle.D)
    if not sheet.crop_marks:
        return
    xs = sorted({round(x, 3) for s in grid for x in (s.x, s.x + s.w)})
    ys = sorted({round(y, 3) for s in grid for y in (s.y, s.y + s.h)})
    left, right, top, bottom = xs[0], xs[-1], ys[0], ys[-1]
    pdf.set_draw_color(0)
    pdf.set_line_width(CROP_WIDTH)
    vertical = min(CROP_LENGTH, top - CROP_GAP - 0.5, pdf.h - bottom - CROP_GAP - 0.5)
    horizontal = min(CROP_LENGTH, left - CROP_GAP - 0.5, pdf.w - right - CROP_GAP - 0.5)
    if vertical >= 1:
        for x in xs:
            pdf.line(x, top - CROP_GAP - vertical, x, top - CROP_GAP)
            pdf.line(x, bottom + CROP_GAP, x, bottom + CROP_GAP + vertical)
    if horizontal >= 1:
        for y in ys:
            pdf.line(left - CROP_GAP - horizontal, y, left - CROP_GAP, y)
            pdf.line(right + CROP_GAP, y, right + CROP_GAP + horizontal, y)


def _new_pdf(paper: Paper) -> FPDF:
    pdf = FPDF(unit="mm", format=(paper.width, paper.height))
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.set_title("Badges")
    pdf.set_creator("larp_app")
    pdf.add_font("Lato", "", FONT_FILES[False])
    pdf.add_font("Lato", "B", FONT_FILES[True])
    return pdf


def write_sheets(
    faces: Iterable[BadgeFace],
    out: BinaryIO | str | os.PathLike[str],
    layout: str = "cr80-10up",
    paper: str = "a4",
    duplex: bool = True,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Write the badges' print PDF to out; return its number of pages.

    With duplex each page of fronts is followed by its backs, placed for a flip on the long
    edge (the columns of each row mirrored); without, only fronts are printed. progress is
    called with the number of badges done, once for each badge.
    """
    sheet, chosen_paper = _choose(layout, paper)
    front_slots = slots(layout, paper)
    pdf = _new_pdf(chosen_paper)
    remaining = iter(faces)
    done = 0
    while batch := list(islice(remaining, sheet.per_page)):
        pdf.add_page()
        for face, slot in zip(batch, front_slots, strict=False):
            _draw_card(pdf, face, "front", slot)
        _draw_cutting_guides(pdf, sheet, front_slots[: len(batch)], front_slots)
        if duplex:
            pdf.add_page()
            for face, slot in zip(batch, front_slots, strict=False):
                _draw_card(pdf, face, "back", back_slot(slot, sheet.cols, front_slots))
        for _ in batch:
            done += 1
            if progress:
                progress(done)
    if not pdf.page:
        raise ValueError("no badges to print")
    pages = pdf.page
    data = pdf.output()
    if hasattr(out, "write"):
        out.write(data)
    else:
        with open(out, "wb") as file:  # the app's umask keeps it private (private_files.py)
            file.write(data)
    return pages
