"""Badges: the card (PNG) and the print sheets (PDF). Pure: no Flask, no database."""

from .card import card_png, placed_shapes, qr_matrix, render_card
from .face import DEFAULT_LABELS, BadgeFace, text_colour_on
from .sheet import LAYOUTS, PAPERS, write_sheets

__all__ = [
    "DEFAULT_LABELS",
    "LAYOUTS",
    "PAPERS",
    "BadgeFace",
    "card_png",
    "placed_shapes",
    "qr_matrix",
    "render_card",
    "text_colour_on",
    "write_sheets",
]
