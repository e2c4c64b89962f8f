"""Read uploaded or pasted sheets: a JSON list (or one sheet) or a CSV spreadsheet."""

from __future__ import annotations

import json
from typing import Any

from .. import rules
from .csv_sheets import read_csv_with_rows


def read_json(text: str, label: str = "file") -> Any:
    """Parse JSON text; InvalidInput under ``label`` says where it breaks."""
    try:
        return rules.strict_json_loads(text)
    except json.JSONDecodeError as exc:
        detail = f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
        raise rules.InvalidInput([rules.Problem(label, "not_json", {"detail": detail})]) from None
    except ValueError as exc:
        raise rules.InvalidInput([rules.Problem(label, "not_json", {"detail": str(exc)})]) from None


def read_sheet_file(text: str, filename: str = "") -> tuple[list[Any], list[int]]:
    """Return the sheets in ``text`` and the row (CSV line, or list position) of each.

    InvalidInput names what could not be read.
    """
    text = text.removeprefix("\ufeff")
    stripped = text.strip()
    if not stripped:
        raise rules.InvalidInput([rules.Problem("file", "required")])
    if filename.lower().endswith(".json") or stripped[0] in "[{":
        data = read_json(stripped)
        sheets = data if isinstance(data, list) else [data]
        return sheets, list(range(1, len(sheets) + 1))
    return read_csv_with_rows(text)
