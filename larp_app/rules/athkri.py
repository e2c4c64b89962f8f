"""Sistema Athkri (RULES.md §4): sheets, larp sheet, and the wound track with its saves.

Puntos de Salud (PS) are the points (``hp``); damage is what the character lacks of the
maximum (``hp_max − hp``). Estable above Físico, Malherido from Físico down to 1,
Inconsciente at 0 or less (a Físico save at 12 at the start of every turn: success stabilises
at 1 PS, the k-th failure deals k × Físico), Muerto when damage reaches Físico × 6.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from . import dice
from .armour import take_blow
from .problems import Checker, RuleError
from .registry import Ruleset
from .sheet import Advancement, LarpSheet, read_who
from .state import State
from .statuses import parse_status_catalogue
from .tables import TableSet
from .timeutil import format_instant

if TYPE_CHECKING:
    from .entries import CheckRoll, CoupDeGrace, DiceRoll, Heal, Hit, Save
    from .fold import Context

KEY = "athkri"
ATTRIBUTES = ("fisico", "agilidad", "mente", "intuicion", "presencia")
REFERENCE = ("defensa", "voluntad", "cobertura", "blindaje")
SHEET_KEYS = (
    "ruleset",
    "player",
    "character",
    "faction",
    "attributes",
    "ps_max",
    *REFERENCE,
    "skills",
    "powers",
    "notes",
)
UNCONSCIOUS_SAVE = 12  # "Tirada de salvación de Físico a Dificultad 12", every turn
INDEFENSO_SAVE = 13  # a blow of Físico × 2 or more on a helpless character
DEATH_MULTIPLE = 6
MAX_ROLLS_SHOWN = 10


@dataclass(frozen=True)
class Track:
    """Where the character is on the wound track, beyond its points."""

    unconscious_since: datetime | None = None  # saves run each turn from here
    cause: str = ""  # the entry that knocked them out: with the seed it fixes the dice
    saves: int = 0  # saves rolled since unconscious_since
    failures: int = 0  # failed saves in this spell of unconsciousness
    stabilised_alone: bool = False  # after once, no save stabilises without help
    awake_at: datetime | None = None  # stabilised alone: conscious again then
    rolls: tuple[tuple[str, str, dice.Roll], ...] = ()  # (at, what, roll), latest last


# Sheet -------------------------------------------------------------------------------------


def read_sheet(raw: Any, tables: TableSet, c: Checker) -> LarpSheet | None:
    """Validate an Athkri sheet and convert it; None (with errors in ``c``) when invalid."""
    who = read_who(raw, c, SHEET_KEYS)
    if who is None:
        return None
    player, character, faction = who
    attrs = c.mapping(raw, "attributes", "attributes") or {}
    if attrs:
        c.unknown_keys(attrs, ATTRIBUTES, "attributes.")
    values = {a: c.integer(attrs, a, f"attributes.{a}", lo=1, hi=10) for a in ATTRIBUTES}
    ps_max = c.integer(raw, "ps_max", "ps_max", lo=1, hi=1000)
    reference = {k: c.integer(raw, k, k, lo=0, hi=1000, required=False) for k in REFERENCE}
    skills = c.mapping(raw, "skills", "skills", required=False) or {}
    graded = {name: c.integer(skills, name, f"skills.{name}", lo=0, hi=10) for name in skills}
    powers = []
    for i, item in enumerate(c.listing(raw, "powers", "powers")):
        if not isinstance(item, dict):
            c.error(f"powers[{i}]", "not_object")
            continue
        name = c.text(item, "name", f"powers[{i}].name")
        cost = c.integer(item, "mana_cost", f"powers[{i}].mana_cost", lo=0, hi=100)
        text = (
            c.text(item, "text", f"powers[{i}].text", required=False, max_len=2000, multiline=True)
            or ""
        )
        if name is not None and cost is not None:
            powers.append(Advancement(name, cost, False, text))
    notes = c.text(raw, "notes", "notes", required=False, max_len=5000, multiline=True)
    if c.errors:
        return None
    fisico = values["fisico"]
    return LarpSheet(
        ruleset=KEY,
        player=player,
        character=character,
        faction=faction,
        hp_max=ps_max,
        ap_max=reference["blindaje"] or 0,  # house default: Blindaje as armour points
        energy_max=values["mente"] * 3,  # mana (wiki: Mente × 3)
        energy_recovery_minutes=None,
        advancements=tuple(powers),
        details={
            "attributes": values,
            "reference": {k: v for k, v in reference.items() if v is not None},
            "skills": [{"key": k, "grade": g} for k, g in graded.items()],
            "thresholds": {
                "malherido_at_ps": fisico,
                "dead_at_damage": fisico * DEATH_MULTIPLE,
                "indefenso_blow": fisico * 2,
            },
            "conditions": [{"key": s.key} for s in tables["conditions"].values()],
            "notes": notes,
        },
        warnings=tuple(c.warnings),
        tables=dict(tables.sources),
    )


def tabletop_values(raw: Mapping[str, Any], tables: TableSet) -> dict[str, Any]:
    a = raw["attributes"]
    return {
        "ps_max": raw["ps_max"],
        "mana_max": a["mente"] * 3,
        "malherido_at_ps": a["fisico"],
        "dead_at_damage": a["fisico"] * DEATH_MULTIPLE,
    }


# Wounds ------------------------------------------------------------------------------------


def _fisico(ctx: Context) -> int:
    return ctx.sheet.details["attributes"]["fisico"]


def _track(state: State) -> Track:
    return state.track or Track()


def _damage(state: State, ctx: Context) -> int:
    return ctx.sheet.hp_max - state.hp


def _with_roll(track: Track, at: datetime, what: str, roll: dice.Roll) -> Track:
    rolls = (*track.rolls, (format_instant(at), what, roll))[-MAX_ROLLS_SHOWN:]
    return replace(track, rolls=rolls)


def _dead_if_past(state: State, at: datetime, ctx: Context) -> State:
    if _damage(state, ctx) >= _fisico(ctx) * DEATH_MULTIPLE:
        return state.evolve(died_at=at, death_at=None, next_energy_at=None)
    return state


def hit(state: State, entry: Hit, ctx: Context) -> State:
    """Blows on an unconscious (Indefenso) character still deal damage; a big one may kill."""
    fisico, track = _fisico(ctx), _track(state)
    hp, ap, destroyed = state.hp, state.ap, state.armour_destroyed
    for blow in range(entry.blows):
        ap, destroyed, rest = take_blow(
            ap, destroyed, entry.damage, entry.pierce, ctx.settings.armour_breaks
        )
        if rest < 1:
            continue
        helpless = track.unconscious_since is not None or hp <= 0 or track.awake_at is not None
        hp -= rest
        if helpless and rest >= 2 * fisico and ctx.settings.saves == "app":
            rng = dice.rng_for(ctx.settings.seed, entry.id, "indefenso", blow)
            roll = dice.one_of_three_d10(rng, bonus=fisico, target=INDEFENSO_SAVE)
            track = _with_roll(track, entry.at, "indefenso", roll)
            if not roll.success:
                return state.evolve(hp=hp, ap=ap, armour_destroyed=destroyed, track=track).dead_at(
                    entry.at
                )
        if track.unconscious_since is None and (hp <= 0 or track.awake_at is not None):
            # Knocked out, or hurt again after stabilising alone: unconscious again.
            track = replace(
                track,
                unconscious_since=entry.at,
                cause=entry.id,
                saves=0,
                failures=0,
                awake_at=None,
            )
    state = state.evolve(hp=hp, ap=ap, armour_destroyed=destroyed, track=track)
    return _dead_if_past(state, entry.at, ctx)


def heal(state: State, entry: Heal, ctx: Context) -> State:
    """Healing an unconscious character first sets PS to 0; help ends the saves."""
    track = _track(state)
    unconscious = state.hp <= 0 or track.unconscious_since is not None
    hp = min(ctx.sheet.hp_max, (max(state.hp, 0) if unconscious else state.hp) + entry.amount)
    if hp > 0:
        track = Track(rolls=track.rolls)  # outside help: awake, and may stabilise alone again
    return state.evolve(hp=hp, track=track)


def coup_de_grace(state: State, entry: CoupDeGrace, ctx: Context) -> State:
    if _track(state).unconscious_since is None and state.hp > 0:
        raise RuleError("not_dying")
    return state.dead_at(entry.at)


def save(state: State, entry: Save, ctx: Context) -> State:
    """A save a referee rolled, for events where referees enter them."""
    track = _track(state)
    if ctx.settings.saves != "referee":
        raise RuleError("saves_rolled_by_app")
    if track.unconscious_since is None:
        raise RuleError("not_unconscious")
    return _apply_save(state, track, entry.success, entry.at, ctx, None)


def check_roll(state: State, entry: CheckRoll, ctx: Context) -> State:
    """A condition's random check, rolled on demand and kept with its die."""
    status = ctx.catalogue.get(entry.key)
    check = status.texts.get("check") if status else None
    if check is None:
        raise RuleError("no_random_check", key=entry.key)
    rng = dice.rng_for(ctx.settings.seed, entry.id, entry.key)
    roll = dice.d(rng, 100)
    return state.evolve(track=_with_roll(_track(state), entry.at, entry.key, roll))


def roll_dice(state: State, entry: DiceRoll, ctx: Context) -> State:
    """A 1o3d10 on demand, kept with its dice; Malherido lowers it one level (§4.1)."""
    lowered = entry.level - 1 if level(state, ctx) == "malherido" else entry.level
    roll = dice.one_of_three_d10(
        dice.rng_for(ctx.settings.seed, entry.id), lowered, entry.bonus, entry.target
    )
    return state.evolve(track=_with_roll(_track(state), entry.at, "dice", roll))


def _apply_save(state, track, success, at, ctx, roll) -> State:
    fisico = _fisico(ctx)
    track = replace(track, saves=track.saves + 1)
    if roll is not None:
        track = _with_roll(track, at, "save", roll)
    if success and not track.stabilised_alone:
        minutes = dice.d(dice.rng_for(ctx.settings.seed, track.cause, "awake"), 6).kept
        track = replace(
            track,
            unconscious_since=None,
            stabilised_alone=True,
            awake_at=at + timedelta(minutes=minutes),
        )
        return state.evolve(hp=1, track=track)
    if success:
        return state.evolve(track=track)  # stabilised alone once already: needs help now
    track = replace(track, failures=track.failures + 1)
    state = state.evolve(hp=state.hp - track.failures * fisico, track=track)
    return _dead_if_past(state, at, ctx)


def next_save_at(state: State, ctx: Context) -> datetime | None:
    track = _track(state)
    if track.unconscious_since is None or state.died_at is not None:
        return None
    return track.unconscious_since + (track.saves + 1) * ctx.settings.turn


def advance_wounds(state: State, t: datetime, ctx: Context) -> State:
    """Each turn while unconscious the app rolls the Físico save; waking up after stabilising."""
    track = _track(state)
    if track.awake_at is not None and track.awake_at <= t:
        state = state.evolve(track=replace(track, awake_at=None))
    if ctx.settings.saves != "app":
        return state
    fisico = _fisico(ctx)
    while state.died_at is None:
        at = next_save_at(state, ctx)
        if at is None or at > t:
            break
        track = _track(state)
        rng = dice.rng_for(ctx.settings.seed, track.cause, "save", track.saves + 1)
        roll = dice.one_of_three_d10(rng, bonus=fisico, target=UNCONSCIOUS_SAVE)
        state = _apply_save(state, track, roll.success, at, ctx, roll)
    return state


def wound(state: State, ctx: Context) -> str:
    """The level as every page shows it: ok (Estable), grievous (Malherido or asleep after
    stabilising), dying (Inconsciente, saves running), dead (Muerto)."""
    if state.died_at is not None:
        return "dead"
    track = _track(state)
    if state.hp <= 0 or track.unconscious_since is not None:
        return "dying"
    if track.awake_at is not None or state.hp <= _fisico(ctx):
        return "grievous"
    return "ok"


def level(state: State, ctx: Context) -> str:
    """The seed's own word: estable, malherido, inconsciente, muerto."""
    if state.died_at is not None:
        return "muerto"
    track = _track(state)
    if state.hp <= 0 or track.unconscious_since is not None or track.awake_at is not None:
        return "inconsciente"
    return "malherido" if state.hp <= _fisico(ctx) else "estable"


def turns_until_death(state: State, ctx: Context) -> int | None:
    """If every save from now fails: the turns left (None when no save is running)."""
    track = _track(state)
    if next_save_at(state, ctx) is None:
        return None
    fisico, damage, failures, turns = _fisico(ctx), _damage(state, ctx), track.failures, 0
    while damage < fisico * DEATH_MULTIPLE:
        failures += 1
        turns += 1
        damage += failures * fisico
    return turns


def describe(state: State, ctx: Context) -> dict[str, Any]:
    track, fisico = _track(state), _fisico(ctx)
    return {
        "level": level(state, ctx),
        "damage": _damage(state, ctx),
        "dead_at_damage": fisico * DEATH_MULTIPLE,
        "malherido_at_ps": fisico,
        "next_save_at": format_instant(next_save_at(state, ctx)),
        "next_failure_damage": (track.failures + 1) * fisico,
        "turns_until_death_worst_case": turns_until_death(state, ctx),
        "awake_at": format_instant(track.awake_at),
        "rolls": [{"at": at, "what": what, **roll.to_dict()} for at, what, roll in track.rolls],
    }


RULESET = Ruleset(
    key=KEY,
    language="es",
    tables={"conditions": parse_status_catalogue},
    read_sheet=read_sheet,
    tabletop_values=tabletop_values,
    wound_handlers={
        "hit": hit,
        "heal": heal,
        "coup_de_grace": coup_de_grace,
        "save": save,
        "roll": check_roll,
        "dice": roll_dice,
    },
    wound=wound,
    advance_wounds=advance_wounds,
    catalogue="conditions",
    # A save every turn while unconscious: every second would be unplayable at a larp.
    turn_seconds=10,
    describe=describe,
)
