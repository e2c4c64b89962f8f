"""Armour points in front of each blow, for every rule system."""

from __future__ import annotations

from typing import NamedTuple


class AfterArmour(NamedTuple):
    ap: int
    destroyed: bool
    rest: int  # what goes through to the points


def take_blow(ap: int, destroyed: bool, damage: int, pierce: bool, breaks: bool) -> AfterArmour:
    """Armour points absorb first, unless the blow pierces.

    With the optional rule ``breaks``, a blow of at least twice the armour left destroys it,
    and the armour takes that blow whole.
    """
    if ap <= 0 or pierce:
        return AfterArmour(ap, destroyed, damage)
    if breaks and damage >= 2 * ap:
        return AfterArmour(0, True, 0)
    absorbed = min(ap, damage)
    return AfterArmour(ap - absorbed, destroyed, damage - absorbed)
