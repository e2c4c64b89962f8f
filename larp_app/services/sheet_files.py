"""Read uploaded or pasted sheets: a JSON list (or one sheet) or a CSV spreadsheet."""

from __future__ import annotations

import json
from typing import Any

from .. import rules
from .csv_sheets import read_csv


def read_sheet_file(text: str, filename: str = "") -> list[Any]:
    """Return the sheets in ``text``; InvalidInput names what could not be read."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise rules.InvalidInput([rules.Problem("file", "required")])
    if filename.lower().endswith(".json") or stripped[0] in "[{":
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise rules.InvalidInput(
                [
                    rules.Problem(
                        "file",
                        "not_json",
                        {"detail": f"{exc.msg} at line {exc.lineno}, column {exc.colno}"},
                    )
                ]
            ) from None
        return data if isinstance(data, list) else [data]
    return read_csv(stripped)
