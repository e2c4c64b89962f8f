"""Sistema Athkri's tabletop sheet, declared once (larp_app.rules.schema): its fields, bounds
and lists, their names in Spanish (the seed's), Italian and English, and their spreadsheet
columns. The reader (``read_sheet``) takes its bounds from here."""

from __future__ import annotations

import json
from importlib import resources

from larp_app.rules.schema import WHO, columns, notes, words

KEY = "athkri"
ATTRIBUTES = ("fisico", "agilidad", "mente", "intuicion", "presencia")
ATTRIBUTE_RANGE = (1, 10)
PS_MAX = (1, 1000)
REFERENCE = ("defensa", "voluntad", "cobertura", "blindaje")
REFERENCE_RANGE = (0, 1000)
GRADES = (0, 10)  # a skill's grade
MANA_COST = (0, 100)
NAME_LENGTH, TEXT_LENGTH, NOTES_LENGTH = 120, 2000, 5000
# The seed's words: the same in every language (a Spanish term beside its translation would
# read twice), the spreadsheet columns as a Spanish sheet heads them.
SEED_WORDS = {
    "fisico": "Físico",
    "agilidad": "Agilidad",
    "mente": "Mente",
    "intuicion": "Intuición",
    "presencia": "Presencia",
    "defensa": "Defensa",
    "voluntad": "Voluntad",
    "cobertura": "Cobertura",
    "blindaje": "Blindaje",
}


# The seed's terms in Italian and English, beside them in a spreadsheet's column (a template
# is headed in its reader's language, the rule system's term kept: "agilidad (agilità)").
TRANSLATED = {
    "fisico": ("corpo", "body"),
    "agilidad": ("agilità", "agility"),
    "mente": ("mente", "mind"),
    "intuicion": ("intuizione", "intuition"),
    "presencia": ("presenza", "presence"),
    "defensa": ("difesa", "defence"),
    "voluntad": ("volontà", "willpower"),
    "cobertura": ("copertura", "cover"),
    "blindaje": ("armatura", "armour"),
}


def _beside(term: str, translation: str) -> str:
    return term if term == translation else f"{term} ({translation})"


def _integer(key: str, bounds: tuple[int, int], **more) -> dict:
    word = SEED_WORDS[key]
    term = word.lower()
    italian, english = TRANSLATED[key]
    return {
        "type": "integer",
        "minimum": bounds[0],
        "maximum": bounds[1],
        "title": word,
        "x-labels": words(word, word, word),
        # Written first in each template; every name is read (the seed's term alone too).
        "x-columns": columns(
            [_beside(term, italian), term], [term], [_beside(term, english), key, term]
        ),
        "x-column-key": key,
        **more,
    }


def _example() -> dict:
    cast = resources.files("larp_app").joinpath("demo", "athkri-cast.json").read_text("utf-8")
    return json.loads(cast)[0]


NAME = words("Nome", "Nombre", "Name")
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:larp-app:ruleset:athkri:sheet",
    "title": "Sistema Athkri tabletop sheet",
    "x-labels": words(
        "Scheda da tavolo di Sistema Athkri",
        "Hoja de mesa de Sistema Athkri",
        "Sistema Athkri tabletop sheet",
    ),
    "type": "object",
    "required": ["player", "character", "attributes", "ps_max"],
    "properties": {
        "ruleset": {"const": KEY},
        **WHO,
        "attributes": {
            "type": "object",
            "title": "Atributos",
            "x-labels": words("Atributos", "Atributos", "Atributos"),
            "required": list(ATTRIBUTES),
            "properties": {name: _integer(name, ATTRIBUTE_RANGE) for name in ATTRIBUTES},
        },
        "ps_max": {
            "type": "integer",
            "minimum": PS_MAX[0],
            "maximum": PS_MAX[1],
            "title": "Puntos de Salud (PS) máximos",
            "x-labels": words(
                "Puntos de Salud (PS) massimi",
                "Puntos de Salud (PS) máximos",
                "Maximum Puntos de Salud (PS)",
            ),
            "x-columns": columns(
                ["ps_max"], ["ps_máx", "ps_máximos", "puntos_de_salud"], ["ps_max"]
            ),
        },
        **{key: _integer(key, REFERENCE_RANGE) for key in REFERENCE},
        "skills": {
            "type": "object",
            "title": "Skills",
            "x-labels": words("Abilità", "Habilidades", "Skills"),
            "x-columns": columns(["abilità"], ["habilidades"], ["skills"]),
            "additionalProperties": {
                "type": "integer",
                "minimum": GRADES[0],
                "maximum": GRADES[1],
                "title": "Grade",
                "x-labels": words("Grado", "Grado", "Grade"),
            },
        },
        "powers": {
            "type": "array",
            "title": "Powers",
            "x-labels": words("Poteri", "Poderes", "Powers"),
            "x-columns": columns(["poteri"], ["poderes"], ["powers"]),
            "x-parts": ["name", "mana_cost", "text"],
            "x-min-parts": 2,
            "x-rest": True,
            "items": {
                "type": "object",
                "required": ["name", "mana_cost"],
                "properties": {
                    "name": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": NAME_LENGTH,
                        "title": "Name",
                        "x-labels": NAME,
                    },
                    "mana_cost": {
                        "type": "integer",
                        "minimum": MANA_COST[0],
                        "maximum": MANA_COST[1],
                        "title": "Maná cost",
                        "x-labels": words("Costo in Maná", "Coste de Maná", "Maná cost"),
                    },
                    "text": {
                        "type": "string",
                        "maxLength": TEXT_LENGTH,
                        "title": "Text",
                        "x-labels": words("Testo", "Texto", "Text"),
                        "x-multiline": True,
                    },
                },
            },
        },
        "notes": notes(NOTES_LENGTH),
    },
    "examples": [_example()],
}
