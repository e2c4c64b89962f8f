"""Dice the referee can trust: every roll comes from the event's seed and what caused it.

The same seed and the same entry give the same dice on every replay, so a state stays a
pure function of log, settings and time.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

# 1o3d10: roll three d10 and keep the middle one; a level up keeps the highest, a level down
# the lowest (Sistema Athkri, "Rápido y Fácil").
KEEP = {1: "highest", 0: "middle", -1: "lowest"}
DIFFICULTIES = {"facil": 9, "normal": 12, "dificil": 15, "muy_dificil": 18, "casi_imposible": 21}


def rng_for(seed: str, *parts: object) -> random.Random:
    """A generator fixed by the seed and the parts (an entry id, a turn number...)."""
    text = "\x1f".join([seed, *map(str, parts)])
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


@dataclass(frozen=True)
class Roll:
    dice: tuple[int, ...]
    kept: int
    bonus: int = 0
    target: int | None = None
    keep: str | None = None  # which of three dice was kept (KEEP); None for a single die
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


def one_of_three_d10(
    rng: random.Random,
    level: int = 0,
    bonus: int = 0,
    target: int | None = None,
    modifiers: tuple[tuple[str, int], ...] = (),
) -> Roll:
    """1o3d10 at ``level`` (+1 keeps the highest, 0 the middle, −1 the lowest; capped)."""
    level = max(-1, min(1, level))
    randint = rng.randint
    dice = (randint(1, 10), randint(1, 10), randint(1, 10))  # in this order: the seed's dice
    kept = sorted(dice)[level + 1]
    return Roll(
        dice=dice, kept=kept, bonus=bonus, target=target, keep=KEEP[level], modifiers=modifiers
    )


def d(rng: random.Random, sides: int) -> Roll:
    value = rng.randint(1, sides)
    return Roll(dice=(value,), kept=value)
