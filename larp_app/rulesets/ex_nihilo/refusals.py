"""EX Nihilo's own problem codes, worded in each language it is read in (the app words the
codes every rule system shares: larp_app/messages.py). ``{name}``: a parameter."""

from __future__ import annotations

from typing import Any


def _too_many_skills(params: dict[str, Any], language: str) -> dict[str, str]:
    """Worded by the count of slots it turns on (1 slot, 2 slots)."""
    one = params.get("slots") == 1
    return {
        "it": "troppe abilità ({has}) per {slots} slot abilità di Mente",
        "es": "demasiadas habilidades ({has}) para {slots} "
        + ("espacio" if one else "espacios")
        + " de habilidad de Mente",
        "en": "too many skills ({has}) for {slots} Mente skill " + ("slot" if one else "slots"),
    }


PROBLEMS = {
    "too_many_skills": _too_many_skills,
    "above_equipment_class": {
        "it": "richiede equipaggiamento {needs}, il personaggio ha {has}",
        "es": "requiere equipo {needs}, el personaje tiene {has}",
        "en": "needs {needs} equipment, the character has {has}",
    },
    "no_energy_to_spend": {
        "it": "costa Energia, e il personaggio non ha slot per punti Energia",
        "es": "cuesta energía, y el personaje no tiene espacios de energía",
        "en": "costs energy, and the character has no energy slots",
    },
    "must_cover_once": {
        "it": "le righe devono coprire ogni valore {min}–{max} esattamente una volta",
        "es": "las filas deben cubrir cada valor {min}–{max} exactamente una vez",
        "en": "rows must cover every value {min}–{max} exactly once",
    },
    "unknown_skill": {
        "it": "non è un'abilità di questo regolamento (ammesse: {allowed})",
        "es": "no es una habilidad de este reglamento (admitidas: {allowed})",
        "en": "is not a skill of this ruleset (known: {allowed})",
    },
}
