"""Input hygiene shared by every way in: JSON without NaN, bounded depth, valid Unicode text."""

from __future__ import annotations

import json
import math
import unicodedata
from typing import Any

MAX_DEPTH = 32  # no sheet, entry or setting nests deeper than a few levels
NEWLINES = frozenset("\n\r\t")


def bad_text(value: str, *, multiline: bool = False) -> str | None:
    """Why ``value`` cannot be stored as text (``not_unicode``, ``control_character``), or None.

    A lone surrogate is not Unicode text (it cannot be written as UTF-8); NUL and the other
    control characters are refused, except line breaks and tabs in multi-line text.
    """
    if value.isprintable():  # no character of the "Other" categories: neither Cs nor Cc
        return None
    for ch in value:
        category = unicodedata.category(ch)
        if category == "Cs":
            return "not_unicode"
        if category == "Cc" and not (multiline and ch in NEWLINES):
            return "control_character"
    return None


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _check_tree(value: Any) -> None:
    """Refuse data nested deeper than MAX_DEPTH, and text with a lone surrogate or a NUL."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            if "\x00" in item or bad_text(item, multiline=True) == "not_unicode":
                raise ValueError("text must be valid Unicode without NUL characters")
        elif isinstance(item, dict):
            stack.extend((k, depth) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, float) and not math.isfinite(item):
            raise ValueError("numbers must be finite")


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """``json.loads`` refusing NaN and ±Infinity, deep nesting, lone surrogates and NUL.

    Every refusal is a ValueError (json.JSONDecodeError is one), never a RecursionError.
    """
    try:
        data = json.loads(text, parse_constant=_refuse_constant, **kwargs)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None
    _check_tree(data)
    return data


def number_or_text(value: str | None) -> Any:
    """Read a form cell: a whole or decimal number when it is one, else the text itself."""
    if value is None:
        return None
    text = value.strip()
    if text == "":
        return None
    for kind in (int, float):
        try:
            number = kind(text)
        except ValueError:
            continue
        # "nan", "inf" and "1e999" are text here: the engine refuses them by name.
        return number if math.isfinite(number) else text
    return text
