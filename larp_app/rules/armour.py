"""Armour points in front of each blow, for every rule system."""

from __future__ import annotations


def take_blow(
    ap: int, destroyed: bool, damage: int, pierce: bool, breaks: bool, breakable: int | None = None
) -> tuple[int, bool, int]:
    """Armour points absorb first, unless the blow pierces: the armour points left, whether
    the armour is destroyed, and what goes through to the points.

    With the optional rule ``breaks``, a blow of at least twice the armour left destroys it,
    and the armour takes that blow whole. ``breakable``: the points of ``ap`` that are armour
    that breaks (the rest is the character's own and stays), every one when None; with none
    left, nothing breaks.
    """
    if ap <= 0 or pierce:
        return ap, destroyed, damage
    worn = ap if breakable is None else min(ap, breakable)
    if breaks and worn > 0 and damage >= 2 * worn:
        return ap - worn, True, 0
    absorbed = min(ap, damage)
    return ap - absorbed, destroyed, damage - absorbed
