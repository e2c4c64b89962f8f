"""Read uploaded or pasted sheets: a JSON list (or one sheet) or a CSV spreadsheet."""

from __future__ import annotations

import codecs
import json
from typing import Any

from .. import rules


def read_json(text: str, label: str = "file") -> Any:
    """Parse JSON text; InvalidInput under ``label`` says where it breaks."""
    try:
        return rules.strict_json_loads(text)
    except json.JSONDecodeError as exc:
        detail = f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
        raise rules.InvalidInput([rules.Problem(label, "not_json", {"detail": detail})]) from None
    except ValueError as exc:
        raise rules.InvalidInput([rules.Problem(label, "not_json", {"detail": str(exc)})]) from None


ENCODINGS = {"utf-8": "UTF-8", "utf-16": "UTF-16", "cp1252": "Windows-1252 (Excel)"}


def decode_upload(data: bytes) -> tuple[str, str]:
    """The text of an uploaded file and the name of the encoding it was read in.

    UTF-8 (with or without a byte-order mark), UTF-16 (Excel's "Unicode text"), else
    Windows-1252 (what Italian and Spanish Excel save as "CSV"); InvalidInput when none fits.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        candidates = ["utf-16"]
    elif data[:2].count(0) == 1:  # "p\0l\0..." or "\0p\0l...": UTF-16 without a mark
        candidates = ["utf-16-le" if data[1] == 0 else "utf-16-be"]
    else:
        candidates = ["utf-8-sig", "cp1252"]
    for encoding in candidates:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if rules.bad_text(text, multiline=True) is None:
            name = encoding.removesuffix("-sig").removesuffix("-le").removesuffix("-be")
            return text.removeprefix("\ufeff"), ENCODINGS[name]
    raise rules.InvalidInput([rules.Problem("file", "not_utf8")])


def read_sheet_file(text: str, filename: str, ruleset: str) -> tuple[list[Any], list[int]]:
    """Return the sheets in ``text`` and the row (CSV line, or list position) of each; a CSV
    file is read in the spreadsheet format of the rule system ``ruleset``.

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
    read_csv = rules.get_ruleset(ruleset).read_csv
    if read_csv is None:
        raise rules.InvalidInput([rules.Problem("file", "no_csv_format", {"ruleset": ruleset})])
    return read_csv(text)
