"""A rule system's words: what it calls the quantities it tracks, its wound levels, its own
levels and derived values, and itself, in each language it speaks.

Every screen, export and printed sheet takes these words from the event's rule system; the
reader's language chooses among them, the rule system's own language is the fallback. A
rule system's own terms may stay in its language beside a translation (its word for
"gravely wounded", then the reader's), never another rule system's words, never a bare key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Words = Mapping[str, str]  # {language: text}

# The quantities the engine keeps for every character; a rule system names those it tracks.
QUANTITIES = ("hp", "ap", "energy")
# The wound levels every page tells apart (the engine's ``wound``), from least to most severe.
WOUNDS = ("ok", "grievous", "dying", "dead")


@dataclass(frozen=True)
class Quantity:
    """A quantity's name and its short form (on a badge, a column, a button)."""

    name: Words
    short: Words


@dataclass(frozen=True)
class WoundLevel:
    """A wound level as pages show it: its word, a symbol (status never by colour alone) and
    its severity (0: unhurt; the higher, the worse)."""

    word: Words
    icon: str
    severity: int


@dataclass(frozen=True)
class Figure:
    """A figure of the rule system's own part of a state (``describe``) shown to people: its
    name, and the figure it counts toward (``of``: "damage 13 / 24")."""

    name: Words
    of: str | None = None


@dataclass(frozen=True)
class Vocabulary:
    """Everything a rule system calls by name, each ``{language: text}``."""

    name: Words  # the rule system itself
    quantities: Mapping[str, Quantity]  # of QUANTITIES, only those it tracks
    wounds: Mapping[str, WoundLevel]  # of WOUNDS, only those its characters reach
    # Its own wound-track levels (a state's ``level``, when it describes one), by key.
    levels: Mapping[str, Words] = field(default_factory=dict)
    # The values its tabletop sheet derives (``tabletop_values``), by key.
    derived: Mapping[str, Words] = field(default_factory=dict)
    # The figures of its own part of a state shown beside the wound level, by key.
    figures: Mapping[str, Figure] = field(default_factory=dict)

    def tracks(self, quantity: str) -> bool:
        return quantity in self.quantities

    def in_language(self, locale: str, fallback: str) -> dict[str, Any]:
        """Every word in ``locale`` (else ``fallback``, else any), as plain JSON-ready data:
        made once per language (every page and answer asks it), not to be changed."""
        said = self.__dict__.setdefault("_said", {})  # (frozen: kept beside the fields)
        key = (locale, fallback)
        if key not in said:
            said[key] = self._in_language(locale, fallback)
        return said[key]

    def _in_language(self, locale: str, fallback: str) -> dict[str, Any]:
        def say(words: Words) -> str:
            return in_language(words, locale, fallback)

        return {
            "name": say(self.name),
            "quantities": {
                key: {"name": say(q.name), "short": say(q.short)}
                for key, q in self.quantities.items()
            },
            "wounds": {
                key: {"word": say(w.word), "icon": w.icon, "severity": w.severity}
                for key, w in self.wounds.items()
            },
            "levels": {key: say(words) for key, words in self.levels.items()},
            "derived": {key: say(words) for key, words in self.derived.items()},
            "figures": {key: {"name": say(f.name), "of": f.of} for key, f in self.figures.items()},
        }

    def every_word(self) -> set[str]:
        """Every text of every language (to tell one rule system's words from another's)."""
        texts: list[Words] = [self.name, *self.levels.values(), *self.derived.values()]
        texts += [f.name for f in self.figures.values()]
        for q in self.quantities.values():
            texts += [q.name, q.short]
        texts += [w.word for w in self.wounds.values()]
        return {text for words in texts for text in words.values() if text}


def in_language(words: Words | None, locale: str, fallback: str) -> str:
    """A text in ``locale``, else in ``fallback`` (the rule system's own language), else any."""
    texts = {k: v for k, v in (words or {}).items() if isinstance(v, str) and v}
    return texts.get(locale) or texts.get(fallback) or next(iter(texts.values()), "")


def words(it: str, es: str, en: str) -> dict[str, str]:
    """One text in the three languages the app speaks."""
    return {"it": it, "es": es, "en": en}


def problems(vocabulary: Vocabulary, languages: tuple[str, ...]) -> list[str]:
    """What a vocabulary lacks: unknown quantities or wounds, a text missing in a language
    the rule system speaks (each as ``where: language``)."""
    found = [f"quantities.{k}" for k in vocabulary.quantities if k not in QUANTITIES]
    found += [f"wounds.{k}" for k in vocabulary.wounds if k not in WOUNDS]
    named: list[tuple[str, Words]] = [("name", vocabulary.name)]
    for key, q in vocabulary.quantities.items():
        named += [(f"quantities.{key}.name", q.name), (f"quantities.{key}.short", q.short)]
    named += [(f"wounds.{key}", w.word) for key, w in vocabulary.wounds.items()]
    named += [(f"levels.{key}", w) for key, w in vocabulary.levels.items()]
    named += [(f"derived.{key}", w) for key, w in vocabulary.derived.items()]
    return [f"{where}: {lang}" for where, w in named for lang in languages if not w.get(lang)]


# The words of a rule system that declares none: the host's neutral names for the engine's
# quantities and wound levels (never another rule system's own terms).
NEUTRAL = Vocabulary(
    name=words("Sistema di regole", "Sistema de reglas", "Rule system"),
    quantities={
        "hp": Quantity(words("Punti", "Puntos", "Points"), words("P", "P", "P")),
        "ap": Quantity(words("Protezione", "Protección", "Protection"), words("PR", "PR", "PR")),
        "energy": Quantity(words("Energia", "Energía", "Energy"), words("EN", "EN", "EN")),
    },
    wounds={
        "ok": WoundLevel(words("illeso", "ileso", "unhurt"), "●", 0),
        "grievous": WoundLevel(words("ferito", "herido", "wounded"), "▲", 1),
        "dying": WoundLevel(
            words("in pericolo di vita", "en peligro de muerte", "in mortal danger"), "✚", 2
        ),
        "dead": WoundLevel(words("morto", "muerto", "dead"), "✖", 3),
    },
)
