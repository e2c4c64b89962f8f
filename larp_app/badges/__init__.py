"""Badges: the card (PNG) and the print sheets (PDF). Pure: no Flask, no database.

The drawing (Pillow, qrcode, fpdf) is loaded on first use: a worker that never draws a
badge does not hold it (tens of MB each).
"""

from importlib import import_module

from .face import DEFAULT_LABELS, BadgeFace, text_colour_on
from .layouts import LAYOUTS, PAPERS

_LATER = {
    "card_png": ".card",
    "placed_shapes": ".card",
    "qr_matrix": ".card",
    "render_card": ".card",
    "write_sheets": ".sheet",
}


def __getattr__(name: str):
    if name in _LATER:
        return getattr(import_module(_LATER[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
