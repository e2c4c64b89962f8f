"""Armour points in front of each blow, for every rule system."""

from __future__ import annotations


def take_blow(
    ap: int, destroyed: bool, damage: int, pierce: bool, breaks: bool
) -> tuple[int, bool, int]:
    """Armour points absorb first, unless the blow pierces: the armour points left, whether
    the armour is destroyed, and what goes through to the points.

    With the optional rule ``breaks``, a blow of at least twice the armour left destroys it,
    and the armour takes that blow whole.
    """
    if ap <= 0 or pierce:
        return ap, destroyed, damage
    if breaks and damage >= 2 * ap:
        return 0, True, 0
    absorbed = min(ap, damage)
    return ap - absorbed, destroyed, damage - absorbed
