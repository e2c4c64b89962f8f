"""Small helpers for plain HTML forms whose input names are the engine's field paths."""

from __future__ import annotations

import math
from typing import Any

from ..messages import problem_message
from ..rules import Problem


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


def field_errors(problems: list[Problem], prefix: str = "") -> dict[str, str]:
    """Map each problem's path (the input's name) to its message."""
    return {prefix + p.path: problem_message(p).split(": ", 1)[1] for p in problems}
