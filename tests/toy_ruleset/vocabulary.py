"""The toy's words: Vigour for its points, nothing for armour or energy (it tracks neither),
and three wound levels of its own."""

from larp_app.rules.vocabulary import Quantity, Vocabulary, WoundLevel, words

VOCABULARY = Vocabulary(
    name=words("Regole giocattolo", "Reglas de juguete", "Toy rules"),
    quantities={"hp": Quantity(words("Vigore", "Vigor", "Vigour"), words("VG", "VG", "VG"))},
    wounds={
        "ok": WoundLevel(words("in forze", "en forma", "hale"), "●", 0),
        "grievous": WoundLevel(words("sfinito", "agotado", "spent"), "▲", 1),
        "dead": WoundLevel(words("fuori gioco", "fuera de juego", "out of the game"), "✖", 3),
    },
    derived={"vigour": words("Vigore", "Vigor", "Vigour")},
)
