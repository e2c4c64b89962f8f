"""Sistema Athkri's words (larp_app.rules.vocabulary), in the seed's language (Spanish) and
translated, its own terms kept beside the translation: Puntos de Salud, Blindaje, Maná, and
the wound track Estable, Malherido, Inconsciente, Muerto (README.md here)."""

from larp_app.rules.vocabulary import Figure, Quantity, Vocabulary, WoundLevel, words

ESTABLE = words("Estable (stabile)", "Estable", "Estable (stable)")
MALHERIDO = words("Malherido (gravemente ferito)", "Malherido", "Malherido (badly wounded)")
INCONSCIENTE = words("Inconsciente (privo di sensi)", "Inconsciente", "Inconsciente (unconscious)")
MUERTO = words("Muerto (morto)", "Muerto", "Muerto (dead)")

VOCABULARY = Vocabulary(
    name=words("Sistema Athkri", "Sistema Athkri", "Sistema Athkri"),
    quantities={
        "hp": Quantity(
            words("Puntos de Salud (punti salute)", "Puntos de Salud", "Puntos de Salud (health)"),
            words("PS", "PS", "PS"),
        ),
        "ap": Quantity(
            words("Blindaje (armatura)", "Blindaje", "Blindaje (armour)"), words("BL", "BL", "BL")
        ),
        "energy": Quantity(words("Mana (Maná)", "Maná", "Mana (Maná)"), words("MN", "MN", "MN")),
    },
    wounds={
        "ok": WoundLevel(ESTABLE, "●", 0),
        "grievous": WoundLevel(MALHERIDO, "▲", 1),
        "dying": WoundLevel(INCONSCIENTE, "✚", 2),
        "dead": WoundLevel(MUERTO, "✖", 3),
    },
    levels={
        "estable": ESTABLE,
        "malherido": MALHERIDO,
        "inconsciente": INCONSCIENTE,
        "muerto": MUERTO,
    },
    figures={"damage": Figure(words("danno", "daño", "damage"), of="dead_at_damage")},
    derived={
        "ps_max": words(
            "Puntos de Salud massimi", "Puntos de Salud máximos", "Puntos de Salud at most"
        ),
        "mana_max": words("Mana massimo", "Maná máximo", "Mana at most"),
        "malherido_at_ps": words(
            "Malherido (gravemente ferito) con PS ≤",
            "Malherido con PS ≤",
            "Malherido (badly wounded) at PS ≤",
        ),
        "dead_at_damage": words(
            "Muerto (morto) con danno ≥", "Muerto con daño ≥", "Muerto (dead) at damage ≥"
        ),
    },
)
