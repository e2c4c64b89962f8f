"""Small helpers for plain HTML forms whose input names are the engine's field paths."""

from __future__ import annotations

from ..messages import problem_message
from ..rules import Problem
from ..rules.clean import number_or_text  # noqa: F401  (forms read cells with it)


def field_errors(problems: list[Problem], prefix: str = "") -> dict[str, str]:
    """Map each problem's path (the input's name) to its message."""
    return {prefix + p.path: problem_message(p).split(": ", 1)[1] for p in problems}
