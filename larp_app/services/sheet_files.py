"""Read uploaded, pasted or command-line sheets: a JSON list (or one sheet) or a CSV spreadsheet
in the columns of the rule system's sheet schema, from the bytes of a file in any encoding a
spreadsheet saves; the web import and ``flask sheets import`` read files through here alike."""

from __future__ import annotations

import codecs
import json
from typing import Any

from .. import rules
from .sheet_csv import ShortRow, read_csv


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


def read_sheet_file(
    text: str, filename: str, ruleset: str, locale: str = "en", short: list[ShortRow] | None = None
) -> tuple[list[Any], list[int]]:
    """Return the sheets in ``text`` and the row (CSV line, or list position) of each; a CSV
    file is read in the columns of the rule system ``ruleset``'s sheet schema (``short``:
    where its rows with fewer cells than the header are noted).

    InvalidInput names what could not be read (accepted columns named in ``locale``).
    """
    text = text.removeprefix("\ufeff")
    stripped = text.strip()
    if not stripped:
        raise rules.InvalidInput([rules.Problem("file", "required")])
    schema = rules.get_ruleset(ruleset).schema()
    if filename.lower().endswith(".json") or stripped[0] in "[{":
        data = read_json(stripped)
        sheets = data if isinstance(data, list) else [data]
        return sheets, list(range(1, len(sheets) + 1))
    if schema is None:
        raise rules.InvalidInput([rules.Problem("file", "no_csv_format", {"ruleset": ruleset})])
    return read_csv(text, schema, locale, short)


def read_sheet_bytes(
    data: bytes, filename: str, ruleset: str, locale: str = "en", short: list | None = None
) -> tuple[list[Any], list[int], str]:
    """``read_sheet_file`` for a file's bytes, in whichever encoding ``decode_upload`` finds;
    also returns that encoding's name."""
    text, encoding = decode_upload(data)
    sheets, rows = read_sheet_file(text, filename, ruleset, locale, short)
    return sheets, rows, encoding
