"""Damage types, for every rule system (README.md of larp_app/rules, "Damage types").

A blow is physical (cutting, piercing, blunt) unless its hit names another type, one its rule
system declares (``Ruleset.damage_types``); a status may make a character immune to some
types (its catalogue figure ``immune``): a blow of such a type does nothing at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .entries import PHYSICAL, Hit
from .problems import RuleError
from .state import State

if TYPE_CHECKING:
    from .fold import Context

IMMUNE = "immune"  # a status's figure: the damage types it makes harmless


def damage_types(ctx: Context) -> list[str]:
    """The types a hit may name at the rule system of ``ctx``: physical first."""
    return [PHYSICAL, *(kind for kind in ctx.ruleset.damage_types if kind != PHYSICAL)]


def blow_lands(state: State, entry: Hit, ctx: Context) -> bool:
    """Whether the blows of ``entry`` reach the character (False: an active status makes it
    immune to their type); a type the rule system does not declare is refused."""
    kind = entry.damage_type
    if kind is not None and kind != PHYSICAL and kind not in ctx.ruleset.damage_types:
        raise RuleError("unknown_damage_type", type=kind, allowed=damage_types(ctx))
    if not state.statuses:
        return True  # most blows
    immune = ctx.memo.get(_MEMO)
    if immune is None:  # once per fold: the statuses that make a character immune, to what
        immune = ctx.memo[_MEMO] = {
            key: frozenset(status.texts[IMMUNE])
            for key, status in ctx.catalogue.items()
            if status.texts.get(IMMUNE)
        }
    if immune:
        kind = kind or PHYSICAL
        for active in state.statuses:
            types = immune.get(active.key)
            if types is not None and kind in types:
                return False
    return True


_MEMO = "damage.immune"  # its key in a fold's Context.memo
