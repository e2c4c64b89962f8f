"""EX Nihilo's words (larp_app.rules.vocabulary), in its own language (Italian) and translated:
the campaign's larp rules speak of Punti Vita, Armatura and Energia; a character at 0 points
is "incosciente" and dies within 10 minutes (README.md here, "Wounds")."""

from larp_app.rules.vocabulary import Quantity, Vocabulary, WoundLevel, words

VOCABULARY = Vocabulary(
    name=words("EX Nihilo", "EX Nihilo", "EX Nihilo"),
    quantities={
        "hp": Quantity(
            words("Punti Vita", "Puntos de vida", "Hit points"), words("PV", "PV", "HP")
        ),
        "ap": Quantity(words("Armatura", "Armadura", "Armour"), words("PA", "PA", "AP")),
        "energy": Quantity(words("Energia", "Energía", "Energy"), words("EN", "EN", "EN")),
    },
    wounds={
        "ok": WoundLevel(words("in piedi", "en pie", "on their feet"), "●", 0),
        "grievous": WoundLevel(
            words("gravemente ferito", "gravemente herido", "gravely wounded"), "▲", 1
        ),
        "dying": WoundLevel(words("morente", "moribundo", "dying"), "✚", 2),
        "dead": WoundLevel(words("morto", "muerto", "dead"), "✖", 3),
    },
    derived={
        "hp": words("Punti Vita (da tavolo)", "Puntos de vida (de mesa)", "Hit points (tabletop)"),
        "fascino": words("Fascino", "Fascino (encanto)", "Fascino (charm)"),
        "leadership": words("Leadership", "Leadership (liderazgo)", "Leadership"),
        "percezione": words("Percezione", "Percezione (percepción)", "Percezione (perception)"),
        "move_m": words("Movimento (m)", "Movimiento (m)", "Move (m)"),
        "move_and_act_m": words(
            "Movimento con azione (m)", "Movimiento con acción (m)", "Move and act (m)"
        ),
        "sprint_m": words("Scatto (m)", "Carrera (m)", "Sprint (m)"),
        "initiative_bonus": words(
            "Bonus all'iniziativa", "Bonificación a la iniciativa", "Initiative bonus"
        ),
        "melee": words("Mischia", "Cuerpo a cuerpo", "Melee"),
        "ranged": words("Distanza", "A distancia", "Ranged"),
        "defence": words("Difesa", "Defensa", "Defence"),
        "colpo_d_occhio": words(
            "Colpo d'occhio", "Colpo d'occhio (vistazo)", "Colpo d'occhio (glance)"
        ),
    },
)
