"""Sistema Athkri (its rules, the seed's words and the house decisions: README.md here): sheets,
larp sheet, and the wound track with its saves.

Puntos de Salud (PS) are the points (``hp``); damage is what the character lacks of the
maximum (``hp_max − hp``). Estable above Físico, Malherido from Físico down to 1,
Inconsciente at 0 or less (a Físico save at 12 at the start of every turn: success stabilises
at 1 PS, the k-th failure deals k × Físico), Muerto when damage reaches Físico × 6.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from larp_app.rules import dice
from larp_app.rules.armour import take_blow
from larp_app.rules.damage import blow_lands
from larp_app.rules.problems import Checker, RuleError
from larp_app.rules.ruleset import Ruleset
from larp_app.rules.schema import fold
from larp_app.rules.sheet import Advancement, LarpSheet, read_who
from larp_app.rules.state import State, unfrozen_twin
from larp_app.rules.statuses import status_catalogue_parser
from larp_app.rules.tables import TableSet
from larp_app.rules.timeutil import format_instant

from .entries import ENTRY_KINDS
from .one_of_three import one_of_three_d10
from .refusals import PROBLEMS, REFUSALS
from .schema import (
    ATTRIBUTE_RANGE,
    ATTRIBUTES,
    GRADES,
    KEY,
    MANA_COST,
    NAME_LENGTH,
    NOTES_LENGTH,
    PS_MAX,
    REFERENCE,
    REFERENCE_RANGE,
    SCHEMA,
    TEXT_LENGTH,
)
from .vocabulary import VOCABULARY

if TYPE_CHECKING:
    from larp_app.rules.entries import Heal, Hit, StatusOn
    from larp_app.rules.fold import Context

    from .entries import CheckRoll, DiceRoll, Save

SHEET_KEYS = tuple(SCHEMA["properties"])
ONGOING = "dano_continuo"  # the condition whose damage comes every turn
ONGOING_DAMAGE, NORMAL = 1, 12  # house defaults when a referee gives no damage or difficulty
UNCONSCIOUS_SAVE = 12  # "Tirada de salvación de Físico a Dificultad 12", every turn
INDEFENSO_SAVE = 13  # a blow of Físico × 2 or more on a helpless character
DEATH_MULTIPLE = 6
MAX_ROLLS_SHOWN = 10
# The larp sheet's own figures, in the seed's words (Spanish) with their translations.
MANA = {"es": "Maná", "en": "Mana", "it": "Mana"}
FIGURES = {
    "fisico": {"es": "Físico", "en": "Físico (body)", "it": "Físico (corpo)"},
    "malherido_at_ps": {
        "es": "Malherido con PS ≤",
        "en": "Malherido (badly wounded) at PS ≤",
        "it": "Malherido (gravemente ferito) con PS ≤",
    },
    "dead_at_damage": {
        "es": "Muerto con daño ≥ (Físico × 6)",
        "en": "Muerto (dead) at damage ≥ (Físico × 6)",
        "it": "Muerto (morto) con danno ≥ (Físico × 6)",
    },
    "indefenso_blow": {
        "es": "Indefenso: un daño ≥ (Físico × 2) pide una salvación de Físico a 13",
        "en": "Indefenso (helpless): damage ≥ (Físico × 2) calls for a Físico save at 13",
        "it": "Indefenso (inerme): un danno ≥ (Físico × 2) chiede un tiro salvezza di Físico a 13",
    },
}


# What every larp sheet recalls on paper (the console shows the saves themselves), in the
# seed's words ("Tirada de salvación de Físico a Dificultad 12" each turn) and translated.
SHEET_RULES = (
    {
        "key": "inconsciente",
        "text": {
            "es": "Inconsciente (0 PS o menos): al comienzo de cada turno, salvación de Físico "
            "a 12; un éxito estabiliza a 1 PS (sin ayuda, una sola vez); el fallo número k "
            "causa k × Físico de daño.",
            "en": "Inconsciente (unconscious, 0 PS or less): at the start of each turn, a Físico "
            "save at 12; a success stabilises at 1 PS (without help, once only); the k-th "
            "failure deals k × Físico damage.",
            "it": "Inconsciente (privo di sensi, 0 PS o meno): all'inizio di ogni turno, tiro "
            "salvezza di Físico a 12; un successo stabilizza a 1 PS (senza aiuto, una volta "
            "sola); il k-esimo fallimento infligge k × Físico danni.",
        },
    },
)


@dataclass(frozen=True, slots=True)
class Ongoing:
    """Daño continuo: ``damage`` at the start of each turn from ``since`` while the condition
    lasts; a Físico save at ``difficulty`` ends it."""

    since: datetime  # when the condition was applied (its ActiveStatus's since)
    cause: str  # the entry that applied it: with the seed it fixes the dice
    damage: int
    difficulty: int
    ticks: int = 0  # turns dealt so far


@dataclass(frozen=True, slots=True)
class Layer:
    """Blindaje a condition adds (Petrificado: "+20 a Blindaje"): armour points blows use up
    before the sheet's, while the condition applied at ``since`` lasts."""

    key: str  # the condition
    since: datetime  # when it was applied (its ActiveStatus's since)
    left: int  # points of it not yet used up


@dataclass(frozen=True, slots=True)
class Track:
    """Where the character is on the wound track, beyond its points."""

    unconscious_since: datetime | None = None  # saves run each turn from here
    cause: str = ""  # the entry that knocked them out: with the seed it fixes the dice
    # The turn of the last save since unconscious_since (turns counted from it; one save a
    # turn, so where the app rolls them, also how many it rolled).
    saves: int = 0
    failures: int = 0  # failed saves in this spell of unconsciousness
    stabilised_alone: bool = False  # after once, no save stabilises without help
    awake_at: datetime | None = None  # stabilised alone: asleep (unconscious) until then
    indefenso_due: int = 0  # Indefenso saves at 13 a referee still has to enter
    ongoing: Ongoing | None = None  # Daño continuo: what it deals each turn, until its save
    rolls: tuple[tuple[datetime, str, dice.Roll], ...] = ()  # (at, what, roll), latest last
    layers: tuple[Layer, ...] = ()  # Blindaje conditions add, first used first


EMPTY_TRACK = Track()  # no state's track yet: nothing happened on it
# What outside help resets (heal): a track with these as _AWAKE has nothing to reset.
_TRACK_OF_THE_AWAKE = attrgetter(
    "unconscious_since", "cause", "saves", "failures", "stabilised_alone", "awake_at"
)
_AWAKE = _TRACK_OF_THE_AWAKE(EMPTY_TRACK)
_KEEP: Any = object()  # _track_with: this field as it was
_new = object.__new__
_TRACK_BUILDING, _ONGOING_BUILDING = unfrozen_twin(Track), unfrozen_twin(Ongoing)


def _track_with(
    track: Track,
    *,
    unconscious_since=_KEEP,
    cause=_KEEP,
    saves=_KEEP,
    failures=_KEEP,
    stabilised_alone=_KEEP,
    awake_at=_KEEP,
    indefenso_due=_KEEP,
    ongoing=_KEEP,
    rolls=_KEEP,
    layers=_KEEP,
) -> Track:
    """A copy of ``track`` with the fields given changed, made as ``State.evolve`` makes a
    state (the fold makes one for nearly every roll); every field written out."""
    t = track
    new = _new(_TRACK_BUILDING)
    new.unconscious_since = t.unconscious_since if unconscious_since is _KEEP else unconscious_since
    new.cause = t.cause if cause is _KEEP else cause
    new.saves = t.saves if saves is _KEEP else saves
    new.failures = t.failures if failures is _KEEP else failures
    new.stabilised_alone = t.stabilised_alone if stabilised_alone is _KEEP else stabilised_alone
    new.awake_at = t.awake_at if awake_at is _KEEP else awake_at
    new.indefenso_due = t.indefenso_due if indefenso_due is _KEEP else indefenso_due
    new.ongoing = t.ongoing if ongoing is _KEEP else ongoing
    new.rolls = t.rolls if rolls is _KEEP else rolls
    new.layers = t.layers if layers is _KEEP else layers
    new.__class__ = Track
    return new


def _one_more_tick(ongoing: Ongoing) -> Ongoing:
    new = _new(_ONGOING_BUILDING)
    new.since, new.cause, new.damage = ongoing.since, ongoing.cause, ongoing.damage
    new.difficulty, new.ticks = ongoing.difficulty, ongoing.ticks + 1
    new.__class__ = Ongoing
    return new


# Sheet -------------------------------------------------------------------------------------


def read_sheet(raw: Any, tables: TableSet, c: Checker) -> LarpSheet | None:
    """Validate an Athkri sheet and convert it; None (with errors in ``c``) when invalid."""
    who = read_who(raw, c, SHEET_KEYS)
    if who is None:
        return None
    player, character, faction = who
    attrs = c.mapping(raw, "attributes", "attributes") or {}
    if attrs:
        c.undeclared_keys(attrs, ATTRIBUTES, "attributes.", "attributes")
    lo, hi = ATTRIBUTE_RANGE
    values = {a: c.integer(attrs, a, f"attributes.{a}", lo=lo, hi=hi) for a in ATTRIBUTES}
    ps_max = c.integer(raw, "ps_max", "ps_max", lo=PS_MAX[0], hi=PS_MAX[1])
    lo, hi = REFERENCE_RANGE
    reference = {k: c.integer(raw, k, k, lo=lo, hi=hi, required=False) for k in REFERENCE}
    skills = c.mapping(raw, "skills", "skills", required=False) or {}
    lo, hi = GRADES
    graded, keys = {}, set()
    for name in skills:
        graded[name] = c.integer(skills, name, f"skills.{name}", lo=lo, hi=hi)
        if fold(name) in keys:  # "Aguante" and "aguante": one skill written twice
            c.error(f"skills.{name}", "duplicate", got=name)
        keys.add(fold(name))
    powers = []
    for i, item in enumerate(c.listing(raw, "powers", "powers")):
        if not isinstance(item, dict):
            c.error(f"powers[{i}]", "not_object")
            continue
        name = c.text(item, "name", f"powers[{i}].name", max_len=NAME_LENGTH)
        lo, hi = MANA_COST
        cost = c.integer(item, "mana_cost", f"powers[{i}].mana_cost", lo=lo, hi=hi)
        path = f"powers[{i}].text"
        text = c.text(item, "text", path, required=False, max_len=TEXT_LENGTH, multiline=True) or ""
        if name is not None and cost is not None:
            powers.append(Advancement(name, cost, False, text))
    notes = c.text(raw, "notes", "notes", required=False, max_len=NOTES_LENGTH, multiline=True)
    if c.errors:
        return None
    fisico = values["fisico"]
    thresholds = {
        "malherido_at_ps": fisico,
        "dead_at_damage": fisico * DEATH_MULTIPLE,
        "indefenso_blow": fisico * 2,
    }
    # The seed's thresholds come from Físico; points that disagree make odd characters.
    if ps_max >= fisico * DEATH_MULTIPLE:
        c.warn("ps_max", "dies_before_zero", got=ps_max, dead_at=fisico * DEATH_MULTIPLE)
    elif ps_max <= fisico:
        c.warn("ps_max", "starts_badly_wounded", got=ps_max, fisico=fisico)
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
            "skills": [_skill(name, grade) for name, grade in graded.items()],
            "thresholds": thresholds,
            # What the larp sheet shows, each figure named in the seed's words.
            "energy_name": MANA,
            "figures": [
                {"key": key, "name": FIGURES[key], "value": value}
                for key, value in {"fisico": fisico, **thresholds}.items()
            ],
            "conditions": [{"key": s.key} for s in tables["conditions"].values()],
            "notes": notes,
        },
        warnings=tuple(c.warnings),
        tables=dict(tables.sources),
    )


def _skill(name: str, grade: int) -> dict[str, Any]:
    """A skill of the larp sheet: keyed as the seed's checks name it ("Aguante" → aguante),
    shown as the sheet writes it ("armas_a_distancia" as "Armas a distancia")."""
    key = fold(name)
    shown = name if name != key else name.replace("_", " ").capitalize()
    return {"key": key, "grade": grade, "name": {"es": shown}}


def tabletop_values(raw: Mapping[str, Any], tables: TableSet) -> dict[str, Any]:
    a = raw["attributes"]
    return {
        "ps_max": raw["ps_max"],
        "mana_max": a["mente"] * 3,
        "malherido_at_ps": a["fisico"],
        "dead_at_damage": a["fisico"] * DEATH_MULTIPLE,
    }


# Wounds ------------------------------------------------------------------------------------


class _Figures:
    """What the wound rules read of a Context, worked out once per fold (kept in its memo)
    rather than at every entry and every turn: the fold of a weekend asks thousands of times."""

    __slots__ = (
        "_by_keys",
        "_last",
        "_texts",
        "app_saves",
        "catalogue",
        "common_status_on",
        "dice_seed",
        "fisico",
        "turn",
    )

    def __init__(self, ctx: Context):
        self.fisico = ctx.sheet.details["attributes"]["fisico"]
        self.turn = ctx.settings.turn
        self.dice_seed = ctx.settings.dice_seed
        self.app_saves = ctx.settings.saves == "app"
        self.catalogue = ctx.catalogue
        from larp_app.rules.fold import HANDLERS  # fold imports no rule system

        self.common_status_on = HANDLERS["status_on"]  # Athkri's status_on runs it first
        self._texts: dict[str, Mapping[str, Any]] = {}
        self._by_keys: dict[tuple[str, ...], tuple[bool, tuple]] = {}
        self._last: tuple = ((), _NOTHING)  # the statuses last asked about, and the answer

    def texts(self, key: str) -> Mapping[str, Any]:
        texts = self._texts.get(key)
        if texts is None:
            status = self.catalogue.get(key)
            texts = self._texts[key] = status.texts if status else {}
        return texts

    def of_statuses(self, statuses: tuple) -> tuple[bool, tuple[tuple[str, int], ...]]:
        """For the active conditions: whether one holds harmful ones in suspension
        (Petrificado), and what they add to every roll (``roll_modifiers``)."""
        last = self._last
        if statuses is last[0]:  # the same tuple as the step before: most steps keep it
            return last[1]
        keys = tuple(s.key for s in statuses)
        found = self._by_keys.get(keys)
        if found is None:
            texts = self.texts
            ordered = sorted(set(keys))
            suspended = any(texts(k).get("suspends_harmful") for k in ordered)
            modifiers = []
            for key in ordered:
                value = texts(key).get("all_rolls")
                if value and not (suspended and texts(key).get("harmful")):
                    modifiers.append((key, int(value)))
            found = self._by_keys[keys] = (suspended, tuple(modifiers))
        self._last = (statuses, found)
        return found


_NOTHING = (False, ())  # no condition active: nothing suspended, nothing added


def _figures(ctx: Context) -> _Figures:
    figures = ctx.memo.get(KEY)
    if figures is None:
        figures = ctx.memo[KEY] = _Figures(ctx)
    return figures


def _of_statuses(state: State, ctx: Context) -> tuple[bool, tuple[tuple[str, int], ...]]:
    return _figures(ctx).of_statuses(state.statuses) if state.statuses else _NOTHING


def _fisico(ctx: Context) -> int:
    return _figures(ctx).fisico


def _track(state: State) -> Track:
    return state.track or EMPTY_TRACK


def _damage(state: State, ctx: Context) -> int:
    return ctx.sheet.hp_max - state.hp


def _with_roll(track: Track, at: datetime, what: str, roll: dice.Roll) -> Track:
    rolls = track.rolls
    rolls = (*(rolls if len(rolls) < MAX_ROLLS_SHOWN else rolls[1:]), (at, what, roll))
    return _track_with(track, rolls=rolls)


def unconscious(state: State) -> bool:
    """At 0 PS or less, with saves running, or asleep after stabilising alone."""
    track = _track(state)
    return state.hp <= 0 or track.unconscious_since is not None or track.awake_at is not None


def helpless(state: State) -> bool:
    """Indefenso: the condition, or unconscious ("Un personaje Inconsciente también está
    Indefenso")."""
    return unconscious(state) or any(s.key == "indefenso" for s in state.statuses)


def _dead_if_past(state: State, at: datetime, ctx: Context) -> State:
    if _damage(state, ctx) >= _fisico(ctx) * DEATH_MULTIPLE:
        return state.evolve(died_at=at, death_at=None, next_energy_at=None)
    return state


def hit(state: State, entry: Hit, ctx: Context) -> State:
    """Blows on a helpless (Indefenso) character still deal damage; a big one may kill.
    Blindaje takes each blow first, unless it pierces: what conditions add (Petrificado's
    "+20 a Blindaje"), then the sheet's."""
    if not blow_lands(state, entry, ctx):
        return state
    layers = () if state.track is None else state.track.layers
    if layers:
        layers = _live_layers(state)
        if layers != state.track.layers:  # conditions over since: what they added is gone
            state = state.evolve(track=_track_with(state.track, layers=layers))
    for blow in range(entry.blows):
        rest = entry.damage
        if layers and not entry.pierce:
            layers, rest = _absorbed(layers, rest)
            state = state.evolve(track=_track_with(_track(state), layers=layers))
        ap, destroyed, rest = take_blow(
            state.ap, state.armour_destroyed, rest, entry.pierce, ctx.settings.armour_breaks
        )
        if ap != state.ap or destroyed is not state.armour_destroyed:  # most blows: no armour
            state = state.evolve(ap=ap, armour_destroyed=destroyed)
        if rest >= 1:
            state = _suffer(state, rest, entry.at, (entry.id, "indefenso", blow), ctx)
        if state.died_at is not None:
            break
    return state


def _live_layers(state: State) -> tuple[Layer, ...]:
    """The Blindaje layers whose condition still lasts (the one applied at their instant)."""
    layers = _track(state).layers
    if not layers:
        return layers
    active = {(s.key, s.since) for s in state.statuses}
    return tuple(layer for layer in layers if (layer.key, layer.since) in active)


def _absorbed(layers: tuple[Layer, ...], damage: int) -> tuple[tuple[Layer, ...], int]:
    """The layers after taking ``damage``, first layer first, and what goes through."""
    kept = []
    for layer in layers:
        taken = min(layer.left, damage)
        damage -= taken
        kept.append(layer if not taken else Layer(layer.key, layer.since, layer.left - taken))
    return tuple(kept), damage


def _suffer(state: State, damage: int, at: datetime, parts: tuple, ctx: Context) -> State:
    """Lose ``damage`` PS: a helpless character hit for Físico × 2 or more must save at 13 (the
    app rolls it from ``parts``, or a referee is asked); at 0 PS, or hurt while asleep after
    stabilising alone, unconscious (again); dead at Físico × 6 damage."""
    figures = _figures(ctx)
    fisico, track, hp = figures.fisico, _track(state), state.hp - damage
    if damage >= 2 * fisico and helpless(state):
        if not figures.app_saves:
            track = _track_with(track, indefenso_due=track.indefenso_due + 1)
        else:
            roll = _save_roll(state, dice.rng_for(figures.dice_seed, *parts), INDEFENSO_SAVE, ctx)
            track = _with_roll(track, at, "indefenso", roll)
            if not roll.success:
                return state.evolve(hp=hp, track=track).dead_at(at)
    if track.unconscious_since is None and (hp <= 0 or track.awake_at is not None):
        # Knocked out, or hurt again after stabilising alone: unconscious again.
        track = _track_with(
            track, unconscious_since=at, cause=parts[0], saves=0, failures=0, awake_at=None
        )
    if ctx.sheet.hp_max - hp >= fisico * DEATH_MULTIPLE:  # dead: as _dead_if_past, in one copy
        return state.evolve(hp=hp, track=track, died_at=at, death_at=None, next_energy_at=None)
    return state.evolve(hp=hp, track=track)


def status_on(state: State, entry: StatusOn, ctx: Context) -> State:
    """A condition, as everywhere; Daño continuo also starts dealing its damage each turn, and
    one that adds Blindaje (Petrificado) adds it afresh."""
    figures = _figures(ctx)
    state = figures.common_status_on(state, entry, ctx)
    added = int(figures.texts(entry.key).get("blindaje") or 0)
    if added > 0 or _track(state).layers:
        layers = tuple(layer for layer in _live_layers(state) if layer.key != entry.key)
        if added > 0:
            layers = (*layers, Layer(entry.key, entry.at, added))
        state = state.evolve(track=_track_with(_track(state), layers=layers))
    if entry.key != ONGOING:
        return state
    ongoing = Ongoing(
        since=entry.at,
        cause=entry.id,
        damage=entry.damage or ONGOING_DAMAGE,
        difficulty=entry.difficulty or NORMAL,
    )
    return state.evolve(track=_track_with(_track(state), ongoing=ongoing))


def _next_tick_at(state: State, ctx: Context) -> datetime | None:
    """The start of the next turn of Daño continuo, while the condition that began it lasts."""
    ongoing = _track(state).ongoing
    if ongoing is None:
        return None
    for active in state.statuses:
        if active.key == ONGOING:
            break
    else:
        return None
    if active.since != ongoing.since:
        return None
    at = ongoing.since + (ongoing.ticks + 1) * _figures(ctx).turn
    return None if active.until is not None and at > active.until else at


def _tick(state: State, at: datetime, ctx: Context) -> State:
    track = _track(state)
    ongoing = _one_more_tick(track.ongoing)
    state = state.evolve(track=_track_with(track, ongoing=ongoing))
    if _of_statuses(state, ctx)[0]:
        return state  # Petrificado: the harm is held in suspension
    return _suffer(state, ongoing.damage, at, (ongoing.cause, "ongoing", ongoing.ticks), ctx)


def heal(state: State, entry: Heal, ctx: Context) -> State:
    """Healing an unconscious (or asleep) character first sets PS to 0; help ends the saves."""
    track = _track(state)
    hp = min(ctx.sheet.hp_max, (0 if unconscious(state) else state.hp) + entry.amount)
    if hp > 0 and _TRACK_OF_THE_AWAKE(track) != _AWAKE:
        # Outside help: awake, and may stabilise alone again; an Indefenso save still stands,
        # and so does Daño continuo (only its save ends it).
        track = _track_with(
            EMPTY_TRACK,
            rolls=track.rolls,
            indefenso_due=track.indefenso_due,
            ongoing=track.ongoing,
            layers=track.layers,
        )
    return state.evolve(hp=hp, track=track)


def save(state: State, entry: Save, ctx: Context) -> State:
    """A save a referee rolled, for events where referees enter them: an Indefenso save due
    comes first (it follows its blow at once), then the turn's save while unconscious."""
    track = _track(state)
    if ctx.settings.saves != "referee":
        raise RuleError("saves_rolled_by_app")
    if track.indefenso_due:
        track = _track_with(track, indefenso_due=track.indefenso_due - 1)
        state = state.evolve(track=track)
        return state if entry.success else state.dead_at(entry.at)
    if track.unconscious_since is None:
        raise RuleError("not_unconscious")
    # "Al comienzo de cada Turno": one save a turn, the first when the turn after the
    # knock-out begins (two referees at one body must not deal a failure a turn early).
    turn, since = _figures(ctx).turn, track.unconscious_since
    number = (entry.at - since) // turn
    if number < 1:
        raise RuleError("save_before_first_turn", seconds=_seconds(since + turn - entry.at))
    if number <= track.saves:
        left = since + (track.saves + 1) * turn - entry.at
        raise RuleError("save_already_made_this_turn", seconds=_seconds(left))
    return _apply_save(state, track, entry.success, entry.at, ctx, None, number)


def _seconds(left: timedelta) -> int:
    """Whole seconds, rounded up: how long a referee waits."""
    return -((-left) // timedelta(seconds=1))


def revived(state: State, ctx: Context) -> State:
    """Revive: alive, awake, no save pending, nothing rolled for the time it was dead."""
    rolls = _track(state).rolls
    return state.evolve(hp=max(1, state.hp), track=_track_with(EMPTY_TRACK, rolls=rolls))


def check_roll(state: State, entry: CheckRoll, ctx: Context) -> State:
    """A condition's random check, rolled on demand and kept with its die: a d100, or a
    1o3d10 + attribute (+ skill) against a difficulty whose success ends the condition."""
    status = ctx.catalogue.get(entry.key)
    check = status.texts.get("check") if status else None
    if check is None:
        raise RuleError("no_random_check", key=entry.key)
    rng = dice.rng_for(_figures(ctx).dice_seed, entry.id, entry.key)
    if check.get("die") != "1o3d10":
        roll = dice.d(rng, 100)
        return state.evolve(track=_with_roll(_track(state), entry.at, entry.key, roll))
    details = ctx.sheet.details
    skills = {s["key"]: s["grade"] for s in details.get("skills", [])}
    bonus = details["attributes"][check["attribute"]] + skills.get(check.get("skill"), 0)
    track = _track(state)
    target = entry.difficulty
    if target is None and entry.key == ONGOING and track.ongoing is not None:
        target = track.ongoing.difficulty
    roll = one_of_three_d10(
        rng,
        _level_of_dice(state, ctx),
        bonus,
        target or NORMAL,
        roll_modifiers(state, ctx),
    )
    state = state.evolve(track=_with_roll(track, entry.at, entry.key, roll))
    if roll.success and check.get("ends_on_success"):
        state = state.evolve(statuses=tuple(s for s in state.statuses if s.key != entry.key))
    return state


def roll_modifiers(state: State, ctx: Context) -> tuple[tuple[str, int], ...]:
    """What the active conditions add to every roll (the seed's "-2 a todas sus Tiradas":
    Enfermo, Asustado, Dominado), each by its key; Petrificado holds harmful ones in
    suspension ("cualquier Condición nociva se mantiene en suspensión")."""
    return _of_statuses(state, ctx)[1]


def _level_of_dice(state: State, ctx: Context, asked: int = 0) -> int:
    """Malherido lowers the dado objetivo one level (README.md, "Dice")."""
    return asked - 1 if level(state, ctx) == "malherido" else asked


def _save_roll(state: State, rng, target: int, ctx: Context) -> dice.Roll:
    """A Físico save: 1o3d10 + Físico + the conditions' modifiers against ``target``."""
    return one_of_three_d10(
        rng,
        _level_of_dice(state, ctx),
        _fisico(ctx),
        target,
        roll_modifiers(state, ctx),
    )


def roll_dice(state: State, entry: DiceRoll, ctx: Context) -> State:
    """A 1o3d10 on demand, kept with its dice; Malherido lowers it one level (README.md, "Dice")."""
    roll = one_of_three_d10(
        dice.rng_for(_figures(ctx).dice_seed, entry.id),
        _level_of_dice(state, ctx, entry.level),
        entry.bonus,
        entry.difficulty,
        roll_modifiers(state, ctx),
    )
    return state.evolve(track=_with_roll(_track(state), entry.at, "dice", roll))


def _apply_save(state, track, success, at, ctx, roll, number) -> State:
    """The save of turn ``number`` (counted from the knock-out)."""
    fisico = _fisico(ctx)
    track = _track_with(track, saves=number)
    if roll is not None:
        track = _with_roll(track, at, "save", roll)
    if success and not track.stabilised_alone:
        minutes = dice.d(dice.rng_for(_figures(ctx).dice_seed, track.cause, "awake"), 6).kept
        track = _track_with(
            track,
            unconscious_since=None,
            stabilised_alone=True,
            awake_at=at + timedelta(minutes=minutes),
        )
        return state.evolve(hp=1, track=track)
    if success:
        return state.evolve(track=track)  # stabilised alone once already: needs help now
    track = _track_with(track, failures=track.failures + 1)
    state = state.evolve(hp=state.hp - track.failures * fisico, track=track)
    return _dead_if_past(state, at, ctx)


def next_save_at(state: State, ctx: Context) -> datetime | None:
    track = _track(state)
    if track.unconscious_since is None or state.died_at is not None:
        return None
    return track.unconscious_since + (track.saves + 1) * _figures(ctx).turn


def next_wound_change(state: State, ctx: Context) -> datetime | None:
    """When time next moves the track: waking up, Daño continuo's next tick, or the next
    save the app rolls (the events ``advance_wounds`` runs)."""
    track = _track(state)
    instants = [track.awake_at, _next_tick_at(state, ctx)]
    if ctx.settings.saves == "app":
        instants.append(next_save_at(state, ctx))
    return min((t for t in instants if t is not None), default=None)


def advance_wounds(state: State, t: datetime, ctx: Context) -> State:
    """Let the wound track run up to ``t``, one event at a time in the order of their
    instants: waking up after stabilising alone, Daño continuo at the start of each turn, the
    app's save each turn while unconscious.

    Taking the events in order makes the state at ``t`` the same however many times the fold
    stopped on the way (a note in between changes nothing).
    """
    track = state.track
    if track is None:
        return state  # nothing on the track yet
    if track.awake_at is None and track.unconscious_since is None:
        # Most steps of a fold: awake, and Daño continuo over or never begun (its Ongoing
        # stays on the track): nothing runs with time.
        ongoing = track.ongoing
        if ongoing is None:
            return state
        for active in state.statuses:
            if active.key == ONGOING:
                break
        else:
            return state
        if active.since != ongoing.since:
            return state
    figures = _figures(ctx)
    while state.died_at is None:
        track = state.track
        # Most of the other steps find nothing due: they stop here, with no list made.
        awake_at = track.awake_at
        tick_at = None if track.ongoing is None else _next_tick_at(state, ctx)
        save_at = None
        if figures.app_saves and track.unconscious_since is not None:
            save_at = track.unconscious_since + (track.saves + 1) * figures.turn
        if (
            (awake_at is None or awake_at > t)
            and (tick_at is None or tick_at > t)
            and (save_at is None or save_at > t)
        ):
            return state
        events = [(awake_at, 0), (tick_at, 1), (save_at, 2)]
        at, what = min((at, order) for at, order in events if at is not None and at <= t)
        if what == 0:
            state = state.evolve(track=_track_with(track, awake_at=None))
        elif what == 1:
            state = _tick(state, at, ctx)
        else:
            rng = dice.rng_for(figures.dice_seed, track.cause, "save", track.saves + 1)
            roll = _save_roll(state, rng, UNCONSCIOUS_SAVE, ctx)
            state = _apply_save(state, track, roll.success, at, ctx, roll, track.saves + 1)
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
        "indefenso_save_due": track.indefenso_due,
        "ongoing_damage": None if _next_tick_at(state, ctx) is None else track.ongoing.damage,
        "extra_blindaje": sum(layer.left for layer in _live_layers(state)),
        "roll_modifiers": [{"key": k, "value": v} for k, v in roll_modifiers(state, ctx)],
        "rolls": [
            {"at": format_instant(at), "what": what, **roll.to_dict()}
            for at, what, roll in track.rolls
        ],
    }


RULESET = Ruleset(
    package_dir=Path(__file__).resolve().parent,
    key=KEY,
    language="es",
    # Petrificado's "+20 a Blindaje": armour a condition adds (README.md).
    tables={"conditions": status_catalogue_parser(("blindaje",))},
    read_sheet=read_sheet,
    tabletop_values=tabletop_values,
    wound_handlers={
        "hit": hit,
        "status_on": status_on,
        "heal": heal,
        "save": save,
        "roll": check_roll,
        "dice": roll_dice,
    },
    wound=wound,
    advance_wounds=advance_wounds,
    revived=revived,
    next_wound_change=next_wound_change,
    catalogue="conditions",
    # A save every turn while unconscious: every second would be unplayable at a larp.
    turn_seconds=10,
    describe=describe,
    sheet_rules=SHEET_RULES,
    entry_kinds=ENTRY_KINDS,
    fold_details=("attributes", "skills"),  # Físico for saves, skills for checks
    sheet_schema=SCHEMA,
    refusals=REFUSALS,
    problems=PROBLEMS,
    vocabulary=VOCABULARY,
    settings_offered=("seed", "saves"),
)
