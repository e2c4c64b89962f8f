"""Sistema Athkri's dado objetivo, 1o3d10: three d10, the middle one kept; a level up keeps
the highest, a level down the lowest (README.md, "Dice"). Drawn from the engine's seeded
dice (larp_app.rules.dice), so a replay rolls the same."""

from __future__ import annotations

from larp_app.rules.dice import Dice, Roll, made

KEEP = {1: "highest", 0: "middle", -1: "lowest"}


def one_of_three_d10(
    rng: Dice,
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
    return made(dice, kept, bonus, target, KEEP[level], modifiers)
