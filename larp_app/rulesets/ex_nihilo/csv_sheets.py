"""EX Nihilo tabletop sheets to and from a spreadsheet's CSV: one character per row.

The parser only splits cells; judging values is the engine's job, so that every problem of
a file is reported in one pass by ``rules.check_sheet`` with a field path. A cell the parser
cannot split is therefore never an exception: its raw text goes where the item would have
gone, and the engine rejects it at that item's own path:

- a skill without ``:`` (``medicina``) becomes ``{"medicina": None}``: ``skills.medicina``
  is ``required`` (or ``unknown_skill`` if it is not a skill); a skill written twice keeps
  both grades as text (``"3 | 2"``): ``skills.medicina`` is ``not_int``;
- an advancement with fewer than three ``:``, or a weapon with fewer than two or more than
  four, stays a string in the list: ``advancements[i]`` / ``weapons[i]`` is ``not_object``;
- an unknown advancement flag puts the flags text in ``passive``: ``not_bool``.

Only the file as a whole can make ``read_csv`` raise ``rules.InvalidInput``: unknown,
duplicate or missing columns at ``columns.<name>``, or text the csv module cannot read.
"""

from __future__ import annotations

import csv
import io
import json
import re
from importlib import resources
from typing import Any

import larp_app.rules as rules

COLUMNS = (
    "player",
    "character",
    "faction",
    "corpo",
    "equilibrio",
    "mente",
    "spirito",
    "skills",
    "advancements",
    "armour_name",
    "armour_weight",
    "armour_deflection",
    "armour_absorption",
    "armour_max_equilibrio",
    "weapons",
    "notes",
)
# Read, never written: the event's character id, so a re-import matches rows by it.
ID_COLUMN = "id"
# The same columns as an Italian or Spanish organiser may head them.
COLUMN_NAMES = {
    **{name: name for name in COLUMNS},
    **dict.fromkeys(("giocatore", "giocatrice", "jugador", "jugadora"), "player"),
    **dict.fromkeys(("personaggio", "personaje"), "character"),
    **dict.fromkeys(("fazione", "facción", "faccion"), "faction"),
    **dict.fromkeys(("abilità", "abilita", "habilidades"), "skills"),
    **dict.fromkeys(("avanzamenti", "avances"), "advancements"),
    **dict.fromkeys(("armi", "armas"), "weapons"),
    **dict.fromkeys(("note", "notas"), "notes"),
    **{
        f"{word}_{part}": f"armour_{english}"
        for word in ("armatura", "armadura")
        for part, english in (
            ("nome", "name"),
            ("nombre", "name"),
            ("peso", "weight"),
            ("deflessione", "deflection"),
            ("deflexión", "deflection"),
            ("assorbimento", "absorption"),
            ("absorción", "absorption"),
            ("max_equilibrio", "max_equilibrio"),
        )
    },
}
REQUIRED_COLUMNS = ("player", "character", "corpo", "equilibrio", "mente", "spirito")
ATTRIBUTES = ("corpo", "equilibrio", "mente", "spirito")
ARMOUR_INTS = ("deflection", "absorption", "max_equilibrio")
ITEM_SEPARATOR = "|"
FLAGS = ("passive", "tabletop")
INTEGER = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?[0-9]+[.,][0-9]+")  # 1.5, or 1,5 as Italian spreadsheets write it


# Reading -------------------------------------------------------------------------------------


def read_csv(text: str) -> list[dict]:
    """Turn CSV text into tabletop sheets, skipping empty rows; InvalidInput for bad columns."""
    return read_csv_with_rows(text)[0]


def read_csv_with_rows(text: str) -> tuple[list[dict], list[int]]:
    """Read the sheets and, for each, its row number in the spreadsheet (the header is row 1)."""
    text = text.removeprefix("\ufeff")
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text)))
    except csv.Error as exc:  # e.g. a cell beyond the csv module's field size limit
        raise rules.InvalidInput([rules.Problem("file", "not_csv", {"detail": str(exc)})]) from exc
    numbered = [(n, r) for n, r in enumerate(records, start=1) if any(c.strip() for c in r)]
    if not numbered:
        _check_columns([], [])
        return [], []
    (_, header), body = numbered[0], numbered[1:]
    width = max(len(r) for _, r in numbered)
    names = [_column(c) for c in header] + [""] * (width - len(header))
    _check_columns(names, [r for _, r in body])
    sheets = [_read_row(dict(zip(names, cells, strict=False))) for _, cells in body]
    return sheets, [n for n, _ in body]


def _column(heading: str) -> str:
    name = heading.strip().lower()
    return COLUMN_NAMES.get(name.replace(" ", "_"), name)


def _delimiter(text: str) -> str:
    """Semicolon if the header line has more semicolons than commas (Italian Excel), else comma."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return ";" if first.count(";") > first.count(",") else ","


def _check_columns(names: list[str], rows: list[list[str]]) -> None:
    problems, seen = [], set()
    for i, name in enumerate(names):
        if not name:
            # Excel often writes trailing empty columns; a nameless column is only wrong with data.
            if any(i < len(r) and r[i].strip() for r in rows):
                problems.append(
                    rules.Problem(
                        f"columns[{i}]", "unknown_column", {"got": "", "allowed": list(COLUMNS)}
                    )
                )
        elif name not in COLUMNS and name != ID_COLUMN:
            problems.append(
                rules.Problem(
                    f"columns.{name}", "unknown_column", {"got": name, "allowed": list(COLUMNS)}
                )
            )
        elif name in seen:
            problems.append(rules.Problem(f"columns.{name}", "duplicate", {"got": name}))
        seen.add(name)
    problems += [
        rules.Problem(f"columns.{c}", "required") for c in REQUIRED_COLUMNS if c not in seen
    ]
    if problems:
        raise rules.InvalidInput(problems)


def _read_row(row: dict[str, str]) -> dict[str, Any]:
    cell = {k: v.strip() for k, v in row.items() if k}
    sheet: dict[str, Any] = {}
    if cell.get(ID_COLUMN):
        sheet[ID_COLUMN] = _integer(cell[ID_COLUMN])
    for key in ("player", "character", "faction"):
        if cell.get(key):
            sheet[key] = cell[key]
    sheet["attributes"] = {a: _integer(cell[a]) for a in ATTRIBUTES if cell.get(a)}
    if cell.get("skills"):
        sheet["skills"] = _read_skills(cell["skills"])
    if cell.get("advancements"):
        sheet["advancements"] = [_read_advancement(i) for i in _items(cell["advancements"])]
    if cell.get("armour_name") or cell.get("armour_weight"):
        sheet["armour"] = _read_armour(cell)
    if cell.get("weapons"):
        sheet["weapons"] = [_read_weapon(i) for i in _items(cell["weapons"])]
    if cell.get("notes"):
        sheet["notes"] = cell["notes"]
    return sheet


def _items(text: str) -> list[str]:
    return [item.strip() for item in text.split(ITEM_SEPARATOR) if item.strip()]


def _integer(text: str) -> int | str:
    """An integer for integer-looking text, else the text for the engine to reject."""
    text = text.strip()
    return int(text) if INTEGER.fullmatch(text) else text


def _number(text: str) -> int | float | str:
    text = text.strip()
    if DECIMAL.fullmatch(text):
        return float(text.replace(",", "."))
    return _integer(text)


def _read_skills(text: str) -> dict[str, Any]:
    skills: dict[str, Any] = {}
    for item in _items(text):
        key, colon, grade = item.partition(":")
        key, grade = key.strip().lower(), grade.strip()
        value = _integer(grade) if colon and grade else None
        if key in skills:
            # A dict cannot hold the key twice: keep both grades as text so the engine refuses.
            value = f"{skills[key] if skills[key] is not None else ''} | {grade}"
        skills[key] = value
    return skills


def _read_advancement(item: str) -> dict[str, Any] | str:
    parts = item.split(":", 3)
    if len(parts) < 4:
        return item
    name, cost, flags, text = (p.strip() for p in parts)
    words = {w.strip().lower() for w in flags.split(",") if w.strip()}
    advancement: dict[str, Any] = {"name": name}
    if cost:
        advancement["energy_cost"] = _integer(cost)
    advancement["passive"] = "passive" in words if words <= set(FLAGS) else flags
    advancement["larp"] = "tabletop" not in words
    if text:
        advancement["text"] = text
    return advancement


def _read_armour(cell: dict[str, str]) -> dict[str, Any]:
    armour: dict[str, Any] = {}
    if cell.get("armour_name"):
        armour["name"] = cell["armour_name"]
    if cell.get("armour_weight"):
        armour["weight"] = cell["armour_weight"].lower()
    for key in ARMOUR_INTS:
        if cell.get(f"armour_{key}"):
            armour[key] = _integer(cell[f"armour_{key}"])
    return armour


def _read_weapon(item: str) -> dict[str, Any] | str:
    parts = [p.strip() for p in item.split(":")]
    if not 3 <= len(parts) <= 5:
        return item
    name, kind, damage, range_m, hands = parts + [""] * (5 - len(parts))
    weapon: dict[str, Any] = {"name": name, "kind": kind.lower()}
    if damage:
        weapon["damage"] = _integer(damage)
    if range_m:
        weapon["range_m"] = _integer(range_m)
    if hands:
        weapon["hands"] = _number(hands)
    return weapon


# Writing -------------------------------------------------------------------------------------


def template_csv() -> str:
    """The downloadable template: the header and the example character, comma-separated."""
    example = json.loads(
        resources.files("larp_app")
        .joinpath("demo", "ex-nihilo-sheet.json")
        .read_text(encoding="utf-8")
    )
    return write_csv([example])


def write_csv(sheets: list[dict]) -> str:
    """Write valid tabletop sheets as CSV (CRLF); InvalidInput for text the format cannot hold."""
    problems: list[rules.Problem] = []
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for i, sheet in enumerate(sheets):
        writer.writerow(_write_row(sheet, f"[{i}].", problems))
    if problems:
        raise rules.InvalidInput(problems)
    return out.getvalue()


def _write_row(sheet: dict, at: str, problems: list[rules.Problem]) -> list[str]:
    def part(value: Any, path: str, *, colon_ok: bool = False) -> str:
        """A value inside a multi-valued cell, refused if it holds one of the separators."""
        text = _cell(value)
        banned = ITEM_SEPARATOR if colon_ok else ITEM_SEPARATOR + ":"
        if any(s in text for s in banned):
            problems.append(rules.Problem(at + path, "csv_separator", {"got": text}))
        return text

    if sheet.get("ruleset", "ex-nihilo") != "ex-nihilo":
        problems.append(rules.Problem(at + "ruleset", "not_allowed", {"got": sheet["ruleset"]}))
    attributes = sheet.get("attributes") or {}
    skills = " | ".join(
        f"{part(k, f'skills.{k}')}:{part(g, f'skills.{k}')}"
        for k, g in (sheet.get("skills") or {}).items()
    )
    advancements = []
    for j, a in enumerate(sheet.get("advancements") or []):
        p = f"advancements[{j}]."
        flags = ",".join(
            f
            for f, on in (("passive", a.get("passive")), ("tabletop", not a.get("larp", True)))
            if on
        )
        cost = part(a.get("energy_cost"), p + "energy_cost")
        text = part(a.get("text"), p + "text", colon_ok=True)
        advancements.append(f"{part(a.get('name'), p + 'name')}:{cost}:{flags}:{text}")
    weapons = []
    for j, w in enumerate(sheet.get("weapons") or []):
        p = f"weapons[{j}]."
        fields = ("name", "kind", "damage", "range_m", "hands")
        weapons.append(":".join(part(w.get(f), p + f) for f in fields))
    armour = sheet.get("armour") or {}
    return [
        _cell(sheet.get("player")),
        _cell(sheet.get("character")),
        _cell(sheet.get("faction")),
        *(_cell(attributes.get(a)) for a in ATTRIBUTES),
        skills,
        " | ".join(advancements),
        _cell(armour.get("name")),
        _cell(armour.get("weight")),
        *(_cell(armour.get(k)) for k in ARMOUR_INTS),
        " | ".join(weapons),
        _cell(sheet.get("notes")),
    ]


def _cell(value: Any) -> str:
    return "" if value is None else str(value)
