"""The papers and sheet layouts badges are printed on: plain data, no drawing library."""

from __future__ import annotations

from dataclasses import dataclass

CARD_W, CARD_H = 85.6, 54.0  # CR80, in mm


@dataclass(frozen=True)
class Paper:
    title: str
    width: float  # mm, portrait
    height: float


@dataclass(frozen=True)
class SheetLayout:
    title: str
    cols: int
    rows: int
    cell: tuple[float, float]  # mm: the paper size each card is cut from; shrunk to fit a page
    padding: float  # mm of white kept around the card inside its cell
    turned: bool  # the card turned a quarter, to fill a portrait cell
    crop_marks: bool

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


PAPERS = {
    "a4": Paper("A4", 210.0, 297.0),
    "letter": Paper("US Letter", 215.9, 279.4),
}

LAYOUTS = {
    "cr80-10up": SheetLayout("CR80 cards, 10 a sheet", 2, 5, (CARD_W, CARD_H), 0.0, False, True),
    "a7-8up": SheetLayout("A7, 8 a sheet", 2, 4, (105.0, 74.0), 5.0, False, False),
    "a6-4up": SheetLayout("A6, 4 a sheet", 2, 2, (105.0, 148.0), 5.0, True, False),
}
