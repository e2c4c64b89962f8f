"""Dice the referee can trust: every roll comes from the event's seed and what caused it.

The same seed and the same entry give the same dice on every replay, so a state stays a
pure function of log, settings and time.
"""

from __future__ import annotations

import hashlib
import struct
from _random import Random as _MersenneTwister
from dataclasses import dataclass
from functools import lru_cache

from .state import unfrozen_twin

# A roll's first words of the generator, kept for the seeds rolled lately: a fold rolls the
# same dice as the fold before it (the seed and the parts fix them), and seeding the Mersenne
# Twister is most of a roll's cost. Three d10 take 4.8 words on average (a d10 draws
# again 6 times in 16); a d6 or a d100 one or two. About 2.5 MB when full.
FIRST_WORDS = 8
KEPT_SEEDS = 4096
# getrandbits(256) gives the first eight words in one call, the first lowest: as bytes, least
# significant first, they read as eight little-endian 32-bit words in the order drawn.
_WORDS = struct.Struct(f"<{FIRST_WORDS}I")


@lru_cache(maxsize=KEPT_SEEDS)
def first_words(text: str) -> tuple[int, tuple[int, ...]]:
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    bits = _MersenneTwister(seed).getrandbits(32 * FIRST_WORDS)
    return seed, _WORDS.unpack(bits.to_bytes(4 * FIRST_WORDS, "little"))


class Dice:
    """The draws of ``random.Random(seed)``, bit for bit, for the seed the text fixes:
    ``getrandbits`` and ``randint`` draw from the same Mersenne Twister words in the same
    way (``tests/unit/test_dice.py`` holds them to it), so the same seed gives the same dice
    as it always did. The first words come from ``first_words``; later ones (rare) from a
    generator seeded again and moved past them."""

    __slots__ = ("_drawn", "_seed", "_twister", "_words")

    def __init__(self, text: str):
        self._seed, self._words = first_words(text)
        self._drawn = 0
        self._twister: _MersenneTwister | None = None

    def _word(self) -> int:
        """The generator's next 32-bit word."""
        drawn = self._drawn
        self._drawn = drawn + 1
        if drawn < FIRST_WORDS:
            return self._words[drawn]
        if self._twister is None:
            self._twister = _MersenneTwister(self._seed)
            self._twister.getrandbits(32 * FIRST_WORDS)  # the words already given
        return self._twister.getrandbits(32)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits: the top ``k`` of a word; more than 32 from as many words as it
        takes, the first lowest, the last cut to what is left."""
        if k <= 32:
            return self._word() >> (32 - k) if k else 0
        value = shift = 0
        while k > 0:
            word = self._word()
            value |= (word if k >= 32 else word >> (32 - k)) << shift
            shift, k = shift + 32, k - 32
        return value

    def randint(self, a: int, b: int) -> int:
        """An integer from ``a`` to ``b`` inclusive: ``random.Random._randbelow`` of the
        width, drawing again while the draw of its bit length falls outside it."""
        width = b - a + 1
        drop = 32 - width.bit_length()
        if drop < 0:  # wider than a word
            r = self.getrandbits(-drop + 32)
            while r >= width:
                r = self.getrandbits(-drop + 32)
            return a + r
        r = self._word() >> drop
        while r >= width:
            r = self._word() >> drop
        return a + r


def rng_for(seed: str, *parts: object) -> Dice:
    """A generator fixed by the seed and the parts (an entry id, a turn number...)."""
    return Dice("\x1f".join([seed, *map(str, parts)]))


@dataclass(frozen=True, slots=True)
class Roll:
    dice: tuple[int, ...]
    kept: int
    bonus: int = 0
    target: int | None = None
    keep: str | None = None  # which of several dice was kept (highest...); None for one die
    modifiers: tuple[tuple[str, int], ...] = ()  # (what, value): conditions' penalties...

    @property
    def total(self) -> int:
        return self.kept + self.bonus + sum(value for _, value in self.modifiers)

    @property
    def success(self) -> bool | None:
        return None if self.target is None else self.total >= self.target

    def to_dict(self) -> dict:
        return {
            "dice": list(self.dice),
            "kept": self.kept,
            "keep": self.keep,
            "bonus": self.bonus,
            "modifiers": [{"key": key, "value": value} for key, value in self.modifiers],
            "total": self.total,
            "target": self.target,
            "success": self.success,
        }


def d(rng: Dice, sides: int) -> Roll:
    value = rng.randint(1, sides)
    return made((value,), value, 0, None, None, ())


_new = object.__new__
_ROLL_BUILDING = unfrozen_twin(Roll)


def made(dice, kept, bonus, target, keep, modifiers) -> Roll:
    """``Roll(...)`` at a third of its cost (``state.unfrozen_twin``); every field given."""
    roll = _new(_ROLL_BUILDING)
    roll.dice, roll.kept, roll.bonus, roll.target = dice, kept, bonus, target
    roll.keep, roll.modifiers = keep, modifiers
    roll.__class__ = Roll
    return roll
