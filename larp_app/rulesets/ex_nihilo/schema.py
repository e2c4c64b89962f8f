"""EX Nihilo's tabletop sheet, declared once (larp_app.rules.schema): its fields, bounds and
lists, their names in Italian, Spanish and English, and their spreadsheet columns. The reader
(``read_sheet``) takes its bounds from here."""

from __future__ import annotations

import json
from importlib import resources

from larp_app.rules.schema import WHO, columns, notes, text, words

KEY = "ex-nihilo"
ATTRIBUTES = ("corpo", "equilibrio", "mente", "spirito")
ATTRIBUTE_RANGE = (8, 22)
ARMOUR_WEIGHTS = ("leggera", "media", "pesante", "multistrato")
WEAPON_KINDS = ("mischia", "distanza", "lancio")
HANDS = (1, 1.5, 2)
GRADES = (1, 3)  # a skill's grade
ENERGY_COST = (0, 100)
ARMOUR_VALUES = (0, 1000)  # deflection, absorption
MAX_EQUILIBRIO = (0, 100)
DAMAGE = (0, 1000)
RANGE_M = (0, 100_000)
NAME_LENGTH, TEXT_LENGTH, NOTES_LENGTH = 120, 2000, 5000


def _integer(labels, cols, bounds, **more) -> dict:
    lo, hi = bounds
    return {
        "type": "integer",
        "minimum": lo,
        "maximum": hi,
        "title": labels["en"],
        "x-labels": labels,
        "x-columns": cols,
        **more,
    }


def _part(labels, bounds=None, **more) -> dict:
    """A field of a list item (written inside one cell: no column of its own)."""
    node = {"title": labels["en"], "x-labels": labels, **more}
    if bounds:
        node.update(type="integer", minimum=bounds[0], maximum=bounds[1])
    return node


def _example() -> dict:
    return json.loads(
        resources.files("larp_app").joinpath("demo", "ex-nihilo-sheet.json").read_text("utf-8")
    )


NAME = words("Nome", "Nombre", "Name")
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:larp-app:ruleset:ex-nihilo:sheet",
    "title": "EX Nihilo tabletop sheet",
    "x-labels": words(
        "Scheda da tavolo di EX Nihilo",
        "Hoja de mesa de EX Nihilo",
        "EX Nihilo tabletop sheet",
    ),
    "type": "object",
    "required": ["player", "character", "attributes"],
    "properties": {
        "ruleset": {"const": KEY},
        **WHO,
        "attributes": {
            "type": "object",
            "title": "Attributes",
            "x-labels": words("Caratteristiche", "Características", "Attributes"),
            "required": list(ATTRIBUTES),
            "properties": {
                name: _integer(
                    words(name.capitalize(), name.capitalize(), name.capitalize()),
                    columns([name], [name], [name]),
                    ATTRIBUTE_RANGE,
                )
                for name in ATTRIBUTES
            },
        },
        "skills": {
            "type": "object",
            "title": "Skills",
            "x-labels": words("Abilità", "Habilidades", "Skills"),
            "x-columns": columns(["abilità"], ["habilidades"], ["skills"]),
            "x-keys-from": "skills",
            "additionalProperties": {
                "type": "integer",
                "minimum": GRADES[0],
                "maximum": GRADES[1],
                "title": "Grade",
                "x-labels": words("Grado", "Grado", "Grade"),
            },
        },
        "advancements": {
            "type": "array",
            "title": "Advancements",
            "x-labels": words("Avanzamenti", "Avances", "Advancements"),
            "x-columns": columns(["avanzamenti"], ["avances"], ["advancements"]),
            "x-parts": [
                "name",
                "energy_cost",
                {
                    "flags": [
                        {
                            "field": "passive",
                            "value": True,
                            "words": columns(["passivo"], ["pasivo"], ["passive"]),
                        },
                        {
                            "field": "larp",
                            "value": False,
                            "words": columns(["tavolo"], ["mesa"], ["tabletop"]),
                        },
                    ]
                },
                "text",
            ],
            "x-min-parts": 4,
            "x-rest": True,
            "items": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": _part(NAME, type="string", minLength=1, maxLength=NAME_LENGTH),
                    "energy_cost": _part(
                        words("Costo in energia", "Coste de energía", "Energy cost"),
                        ENERGY_COST,
                        default=0,
                    ),
                    "passive": _part(
                        words("Passivo", "Pasivo", "Passive"), type="boolean", default=False
                    ),
                    "larp": _part(
                        words("Vale nel larp", "Vale en el larp", "Used in larp"),
                        type="boolean",
                        default=True,
                    ),
                    "text": _part(
                        words("Testo", "Texto", "Text"),
                        type="string",
                        maxLength=TEXT_LENGTH,
                        **{"x-multiline": True},
                    ),
                },
            },
        },
        "armour": {
            "type": ["object", "null"],
            "title": "Armour",
            "x-labels": words("Armatura", "Armadura", "Armour"),
            "required": ["name", "weight"],
            "properties": {
                "name": text(
                    NAME,
                    columns(["armatura_nome"], ["armadura_nombre"], ["armour_name"]),
                    NAME_LENGTH,
                    minLength=1,
                ),
                "weight": {
                    "type": "string",
                    "enum": list(ARMOUR_WEIGHTS),
                    "title": "Weight",
                    "x-labels": words("Peso", "Peso", "Weight"),
                    "x-columns": columns(["armatura_peso"], ["armadura_peso"], ["armour_weight"]),
                    "x-enum-labels": {
                        "leggera": words("Leggera", "Ligera", "Light"),
                        "media": words("Media", "Media", "Medium"),
                        "pesante": words("Pesante", "Pesada", "Heavy"),
                        "multistrato": words("Multistrato", "Multicapa", "Multilayer"),
                    },
                },
                "deflection": _integer(
                    words("Deflessione", "Deflexión", "Deflection"),
                    columns(
                        ["armatura_deflessione"], ["armadura_deflexión"], ["armour_deflection"]
                    ),
                    ARMOUR_VALUES,
                    default=0,
                ),
                "absorption": _integer(
                    words("Assorbimento", "Absorción", "Absorption"),
                    columns(
                        ["armatura_assorbimento"], ["armadura_absorción"], ["armour_absorption"]
                    ),
                    ARMOUR_VALUES,
                    default=0,
                ),
                "max_equilibrio": {
                    **_integer(
                        words("Equilibrio massimo", "Equilibrio máximo", "Maximum Equilibrio"),
                        columns(
                            ["armatura_equilibrio_max", "armatura_max_equilibrio"],
                            ["armadura_equilibrio_máx", "armadura_max_equilibrio"],
                            ["armour_max_equilibrio"],
                        ),
                        MAX_EQUILIBRIO,
                    ),
                    "type": ["integer", "null"],
                },
            },
        },
        "weapons": {
            "type": "array",
            "title": "Weapons",
            "x-labels": words("Armi", "Armas", "Weapons"),
            "x-columns": columns(["armi"], ["armas"], ["weapons"]),
            "x-parts": ["name", "kind", "damage", "range_m", "hands"],
            "x-min-parts": 3,
            "items": {
                "type": "object",
                "required": ["name", "kind", "damage"],
                "properties": {
                    "name": _part(NAME, type="string", minLength=1, maxLength=NAME_LENGTH),
                    "kind": _part(
                        words("Tipo", "Tipo", "Kind"),
                        type="string",
                        enum=list(WEAPON_KINDS),
                        **{
                            "x-enum-labels": {
                                "mischia": words("Mischia", "Cuerpo a cuerpo", "Melee"),
                                "distanza": words("Distanza", "A distancia", "Ranged"),
                                "lancio": words("Lancio", "Arrojadiza", "Thrown"),
                            }
                        },
                    ),
                    "damage": _part(words("Danno", "Daño", "Damage"), DAMAGE),
                    "range_m": _part(words("Gittata (m)", "Alcance (m)", "Range (m)"), RANGE_M),
                    "hands": _part(
                        words("Mani", "Manos", "Hands"),
                        type="number",
                        enum=list(HANDS),
                        default=1,
                        **{"x-enum-labels": {"1.5": words("1½", "1½", "1½")}},
                    ),
                },
                # A weapon used at a distance, or thrown, says how far it reaches.
                "if": {
                    "required": ["kind"],
                    "properties": {"kind": {"enum": ["distanza", "lancio"]}},
                },
                "then": {"required": ["range_m"]},
            },
        },
        "notes": notes(NOTES_LENGTH),
    },
    "examples": [_example()],
}
