"""Sistema Athkri's own problem and refusal codes, worded in each language it is read in (the
app words the codes every rule system shares: larp_app/messages.py). ``{name}``: a parameter;
its own terms (Físico, Estable, Malherido) stay in Spanish in every language."""

from __future__ import annotations

PROBLEMS = {
    "dies_before_zero": {
        "it": "è {got}: un danno di {dead_at} (Físico × 6) uccide mentre il personaggio è ancora "
        "Estable",
        "es": "es {got}: un daño de {dead_at} (Físico × 6) mata mientras el personaje sigue "
        "Estable",
        "en": "is {got}: damage of {dead_at} (Físico × 6) kills while the character is still "
        "Estable",
    },
    "starts_badly_wounded": {
        "it": "è {got}: pari o sotto a Físico ({fisico}), il personaggio comincia Malherido",
        "es": "es {got}: igual o menor que Físico ({fisico}), el personaje empieza Malherido",
        "en": "is {got}: at or below Físico ({fisico}), the character starts Malherido",
    },
}

REFUSALS = {
    "saves_rolled_by_app": {
        "it": "in questo evento i tiri salvezza li tira l'app",
        "es": "en este evento las salvaciones las tira la app",
        "en": "at this event the app rolls the saves",
    },
    "not_unconscious": {
        "it": "solo un personaggio privo di sensi fa tiri salvezza",
        "es": "solo un personaje inconsciente hace salvaciones",
        "en": "only an unconscious character makes saves",
    },
    "save_before_first_turn": {
        "it": "il primo tiro salvezza viene all'inizio del turno dopo il colpo che ha tramortito: "
        "tra {seconds} s",
        "es": "la primera tirada de salvación llega al comienzo del turno siguiente al golpe que "
        "lo dejó inconsciente: dentro de {seconds} s",
        "en": "the first save comes when the turn after the knock-out begins: in {seconds} s",
    },
    "save_already_made_this_turn": {
        "it": "il tiro salvezza di questo turno è già registrato (uno per turno): il prossimo tra "
        "{seconds} s",
        "es": "la tirada de salvación de este turno ya está registrada (una por turno): la "
        "siguiente dentro de {seconds} s",
        "en": "this turn's save is already logged (one save a turn): the next in {seconds} s",
    },
    "no_random_check": {
        "it": "{key} non ha un tiro casuale",
        "es": "{key} no tiene tirada aleatoria",
        "en": "{key} has no random check",
    },
}
