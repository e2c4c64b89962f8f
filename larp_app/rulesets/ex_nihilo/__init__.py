"""EX Nihilo (its rules, the seed's words and the house decisions: README.md here): sheet
rules, conversion to the larp sheet, and wounds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from larp_app.rules.armour import take_blow
from larp_app.rules.clean import number_or_text
from larp_app.rules.corrections import RuleCorrection
from larp_app.rules.damage import blow_lands
from larp_app.rules.problems import Checker, InvalidInput, Problem, RuleError
from larp_app.rules.ruleset import Ruleset
from larp_app.rules.sheet import Advancement, LarpSheet, read_who
from larp_app.rules.state import State
from larp_app.rules.statuses import parse_status_catalogue
from larp_app.rules.tables import TableSet

from .refusals import PROBLEMS
from .schema import (
    ARMOUR_VALUES,
    ARMOUR_WEIGHTS,
    ATTRIBUTE_RANGE,
    ATTRIBUTES,
    DAMAGE,
    ENERGY_COST,
    GRADES,
    HANDS,
    KEY,
    MAX_EQUILIBRIO,
    NAME_LENGTH,
    NOTES_LENGTH,
    RANGE_M,
    SCHEMA,
    TEXT_LENGTH,
    WEAPON_KINDS,
)
from .vocabulary import VOCABULARY

if TYPE_CHECKING:
    from larp_app.rules.entries import CoupDeGrace, Heal, Hit
    from larp_app.rules.fold import Context

EQUIPMENT_CLASSES = ("standard", "pesante", "speciale")
# Equipment class needed to use each armour weight and weapon grip (seed, "Equipaggiamento").
ARMOUR_NEEDS = {
    "leggera": "standard",
    "media": "pesante",
    "pesante": "pesante",
    "multistrato": "speciale",
}
HANDS_NEED = dict(zip(HANDS, ("standard", "pesante", "pesante"), strict=True))
DYING_TURNS = (
    600  # "incosciente per 10 minuti (600 turni), passati i quali viene considerato Morto"
)
SHEET_KEYS = tuple(SCHEMA["properties"])
ROW_INTS = ("armour_bonus", "initiative", "skill_slots", "energy_slots")
ROW_FIELDS = ("min", "max", "equipment", *ROW_INTS, "energy_recovery_minutes")
MAX_ROWS = 100  # rows of the attribute table the settings form may send


# Tables -------------------------------------------------------------------------------------


def parse_attribute_table(raw: Any, checker: Checker, path: str) -> tuple[dict, ...]:
    """Read the attribute-modifier rows; together they must cover 8–22 once each."""
    rows = raw.get("rows") if isinstance(raw, dict) else None
    if not isinstance(rows, list) or not rows:
        checker.error(f"{path}.rows", "not_list")
        return ()
    parsed = []
    errors_before = len(checker.errors)
    for i, row in enumerate(rows):
        where = f"{path}.rows[{i}]"
        if not isinstance(row, dict):
            checker.error(where, "not_object")
            continue
        lo = checker.integer(
            row, "min", f"{where}.min", lo=ATTRIBUTE_RANGE[0], hi=ATTRIBUTE_RANGE[1]
        )
        hi = checker.integer(
            row, "max", f"{where}.max", lo=ATTRIBUTE_RANGE[0], hi=ATTRIBUTE_RANGE[1]
        )
        values = {k: checker.integer(row, k, f"{where}.{k}", lo=0, hi=100) for k in ROW_INTS}
        values["equipment"] = checker.choice(
            row, "equipment", f"{where}.equipment", EQUIPMENT_CLASSES
        )
        values["energy_recovery_minutes"] = checker.integer(
            row,
            "energy_recovery_minutes",
            f"{where}.energy_recovery_minutes",
            lo=1,
            hi=24 * 60,
            required=False,
        )
        if values["energy_slots"] and values["energy_recovery_minutes"] is None:
            checker.error(f"{where}.energy_recovery_minutes", "required")
        if lo is not None and hi is not None and lo > hi:
            checker.error(f"{where}.max", "out_of_range", min=lo, max=ATTRIBUTE_RANGE[1], got=hi)
        parsed.append({"min": lo, "max": hi, **values})
    every_value = list(range(ATTRIBUTE_RANGE[0], ATTRIBUTE_RANGE[1] + 1))
    covered = [
        v
        for r in parsed
        if r["min"] is not None and r["max"] is not None
        for v in range(r["min"], r["max"] + 1)
    ]
    if len(checker.errors) == errors_before and sorted(covered) != every_value:
        checker.error(
            f"{path}.rows", "must_cover_once", min=ATTRIBUTE_RANGE[0], max=ATTRIBUTE_RANGE[1]
        )
    return tuple(parsed)


def parse_armour_table(raw: Any, checker: Checker, path: str) -> dict[str, int]:
    """Read the larp armour points of each armour weight."""
    points = raw.get("points") if isinstance(raw, dict) else None
    if not isinstance(points, dict):
        checker.error(f"{path}.points", "not_object")
        return {}
    checker.unknown_keys(points, ARMOUR_WEIGHTS, f"{path}.points.")
    return {
        w: checker.integer(points, w, f"{path}.points.{w}", lo=0, hi=100) for w in ARMOUR_WEIGHTS
    }


def parse_skill_list(raw: Any, checker: Checker, path: str) -> dict[str, dict]:
    """Read the skill list: key -> its names and descriptions."""
    items = raw.get("skills") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        checker.error(f"{path}.skills", "not_list")
        return {}
    skills = {}
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            checker.error(f"{path}.skills[{i}]", "not_object")
            continue
        key = checker.text(item, "key", f"{path}.skills[{i}].key", max_len=40)
        if key:
            skills[key] = {k: v for k, v in item.items() if k != "key"}
    return skills


def row_for(table: tuple[dict, ...], value: int) -> dict:
    return next(r for r in table if r["min"] <= value <= r["max"])


def form_tables(form: Mapping[str, str], shipped: Mapping[str, Any]) -> dict[str, Any]:
    """The attribute and armour tables as the settings form sends them (templates/settings.html)."""
    count = number_or_text(form.get("rows")) or 0
    if not isinstance(count, int) or not 0 <= count <= MAX_ROWS:
        raise InvalidInput(
            [Problem("tables.attributes.rows", "too_many", {"max": MAX_ROWS, "got": count})]
        )
    rows = [
        {f: number_or_text(form.get(f"tables.attributes.rows[{i}].{f}")) for f in ROW_FIELDS}
        for i in range(count)
    ]
    points = {w: number_or_text(form.get(f"tables.armour.points.{w}")) for w in ARMOUR_WEIGHTS}
    return {
        "attributes": {**shipped["attributes"], "rows": rows},
        "armour": {**shipped["armour"], "points": points},
    }


# Sheet --------------------------------------------------------------------------------------


def _read_attributes(raw: Mapping, c: Checker) -> dict[str, int | None]:
    attrs = c.mapping(raw, "attributes", "attributes")
    if attrs is None:
        return {}
    c.undeclared_keys(attrs, ATTRIBUTES, "attributes.", "attributes")
    lo, hi = ATTRIBUTE_RANGE
    return {a: c.integer(attrs, a, f"attributes.{a}", lo=lo, hi=hi) for a in ATTRIBUTES}


def _read_skills(raw: Mapping, c: Checker, known: Mapping[str, dict]) -> dict[str, int]:
    skills = c.mapping(raw, "skills", "skills", required=False) or {}
    graded = {}
    for key in skills:
        if key not in known:
            c.error(f"skills.{key}", "unknown_skill", allowed=list(known))
            continue
        grade = c.integer(skills, key, f"skills.{key}", lo=GRADES[0], hi=GRADES[1])
        if grade is not None:
            graded[key] = grade
    return graded


def _read_advancements(raw: Mapping, c: Checker) -> list[tuple[Advancement, bool]]:
    read, names = [], set()
    for i, item in enumerate(c.listing(raw, "advancements", "advancements")):
        p = f"advancements[{i}]"
        if not isinstance(item, dict):
            c.error(p, "not_object")
            continue
        name = c.text(item, "name", f"{p}.name", max_len=NAME_LENGTH)
        lo, hi = ENERGY_COST
        cost = c.integer(
            item, "energy_cost", f"{p}.energy_cost", lo=lo, hi=hi, required=False, default=0
        )
        passive = c.boolean(item, "passive", f"{p}.passive", default=False)
        larp = c.boolean(item, "larp", f"{p}.larp", default=True)
        text = (
            c.text(item, "text", f"{p}.text", required=False, max_len=TEXT_LENGTH, multiline=True)
            or ""
        )
        if name and name.casefold() in names:
            c.error(f"{p}.name", "duplicate", got=name)
        elif name:
            names.add(name.casefold())
        if None not in (name, cost, passive, larp):
            read.append((Advancement(name, cost, passive, text), larp))
    return read


def _read_armour(raw: Mapping, c: Checker) -> dict | None:
    if raw.get("armour") is None:
        return None
    armour = c.mapping(raw, "armour", "armour")
    if armour is None:
        return None
    lo, hi = ARMOUR_VALUES
    return {
        "name": c.text(armour, "name", "armour.name", max_len=NAME_LENGTH),
        "weight": c.choice(armour, "weight", "armour.weight", ARMOUR_WEIGHTS),
        "deflection": c.integer(
            armour, "deflection", "armour.deflection", lo=lo, hi=hi, required=False, default=0
        ),
        "absorption": c.integer(
            armour, "absorption", "armour.absorption", lo=lo, hi=hi, required=False, default=0
        ),
        "max_equilibrio": c.integer(
            armour,
            "max_equilibrio",
            "armour.max_equilibrio",
            lo=MAX_EQUILIBRIO[0],
            hi=MAX_EQUILIBRIO[1],
            required=False,
            nullable=True,
        ),
    }


def _read_weapons(raw: Mapping, c: Checker) -> list[dict]:
    weapons = []
    for i, item in enumerate(c.listing(raw, "weapons", "weapons")):
        p = f"weapons[{i}]"
        if not isinstance(item, dict):
            c.error(p, "not_object")
            continue
        kind = c.choice(item, "kind", f"{p}.kind", WEAPON_KINDS)
        weapons.append(
            {
                "name": c.text(item, "name", f"{p}.name", max_len=NAME_LENGTH),
                "kind": kind,
                "damage": c.integer(item, "damage", f"{p}.damage", lo=DAMAGE[0], hi=DAMAGE[1]),
                "range_m": c.integer(
                    item,
                    "range_m",
                    f"{p}.range_m",
                    lo=RANGE_M[0],
                    hi=RANGE_M[1],
                    required=kind in ("distanza", "lancio"),
                ),
                "hands": c.number(
                    item,
                    "hands",
                    f"{p}.hands",
                    allowed=tuple(HANDS_NEED),
                    required=False,
                    default=1,
                ),
            }
        )
    return weapons


def _above(needed: str, has: str) -> bool:
    return EQUIPMENT_CLASSES.index(needed) > EQUIPMENT_CLASSES.index(has)


def read_sheet(raw: Any, tables: TableSet, c: Checker) -> LarpSheet | None:
    """Validate a tabletop sheet and convert it; None (with errors in ``c``) when invalid."""
    who = read_who(raw, c, SHEET_KEYS)
    if who is None:
        return None
    player, character, faction = who
    attrs = _read_attributes(raw, c)
    skills = _read_skills(raw, c, tables["skills"])
    advancements = _read_advancements(raw, c)
    armour = _read_armour(raw, c)
    weapons = _read_weapons(raw, c)
    notes = c.text(raw, "notes", "notes", required=False, max_len=NOTES_LENGTH, multiline=True)
    if c.errors:
        return None

    corpo, equilibrio, mente, spirito = (attrs[a] for a in ATTRIBUTES)
    table = tables["attributes"]
    body, mind, spirit = row_for(table, corpo), row_for(table, mente), row_for(table, spirito)
    equipment = body["equipment"]
    if len(skills) > mind["skill_slots"]:
        c.warn("skills", "too_many_skills", has=len(skills), slots=mind["skill_slots"])
    if armour and _above(ARMOUR_NEEDS[armour["weight"]], equipment):
        c.warn(
            "armour.weight",
            "above_equipment_class",
            needs=ARMOUR_NEEDS[armour["weight"]],
            has=equipment,
        )
    for i, weapon in enumerate(weapons):
        if _above(HANDS_NEED[weapon["hands"]], equipment):
            c.warn(
                f"weapons[{i}].hands",
                "above_equipment_class",
                needs=HANDS_NEED[weapon["hands"]],
                has=equipment,
            )

    armour_points = tables["armour"][armour["weight"]] if armour else 0
    energy_max = spirit["energy_slots"]
    if not energy_max:
        for i, (advancement, larp) in enumerate(advancements):
            if larp and advancement.energy_cost > 0:
                c.warn(f"advancements[{i}].energy_cost", "no_energy_to_spend")
    catalogue = tables["statuses"]
    return LarpSheet(
        ruleset=KEY,
        player=player,
        character=character,
        faction=faction,
        hp_max=larp_hit_points(corpo),
        ap_max=armour_points + body["armour_bonus"],
        energy_max=energy_max,
        energy_recovery_minutes=spirit["energy_recovery_minutes"] if energy_max else None,
        advancements=tuple(a for a, larp in advancements if larp),
        details={
            "equipment": equipment,
            "fascino": equilibrio + spirito,
            "leadership": mente + spirito,
            "percezione": equilibrio + mente,
            "skill_slots": mind["skill_slots"],
            "skills": [{"key": k, "grade": g, **tables["skills"][k]} for k, g in skills.items()],
            "armour": None
            if armour is None
            else {"name": armour["name"], "weight": armour["weight"], "points": armour_points},
            "weapons": [
                {"name": w["name"], "kind": w["kind"], "hands": w["hands"]} for w in weapons
            ],
            "statuses": [{"key": s.key, "turns": s.turns} for s in catalogue.values()],
            "rules": [{"key": r["key"], "text": r["text"]} for r in SHEET_RULES],
            "notes": notes,
        },
        warnings=tuple(c.warnings),
        tables=dict(tables.sources),
    )


def larp_hit_points(corpo: int) -> int:
    """1 + 1 per 10 points of Corpo, the units digit 1–5 rounding down and 6–9 up."""
    tens, units = divmod(corpo, 10)
    return 1 + tens + (1 if units >= 6 else 0)


def tabletop_values(raw: Mapping[str, Any], tables: TableSet) -> dict[str, Any]:
    """Values the tabletop game derives and the larp sheet drops (for the organiser's view)."""
    a = raw["attributes"]
    corpo, equilibrio, mente = a["corpo"], a["equilibrio"], a["mente"]
    better = max(corpo, equilibrio)
    armour = raw.get("armour")
    return {
        "hp": 10 + corpo,
        "fascino": equilibrio + a["spirito"],
        "leadership": mente + a["spirito"],
        "percezione": equilibrio + mente,
        "move_m": 2 + better // 10,
        "move_and_act_m": 1 + better // 10,
        "sprint_m": 6 + (corpo + equilibrio) // 10,
        "initiative_bonus": row_for(tables["attributes"], equilibrio)["initiative"],
        "melee": corpo + equilibrio,
        "ranged": equilibrio + mente,
        "defence": defence(equilibrio, armour),
        "colpo_d_occhio": equilibrio + mente,
    }


def defence(equilibrio: int, armour: Mapping[str, Any] | None) -> int:
    """Equilibrio + Equilibrio, or in armour Equilibrio + deflection, Equilibrio no higher
    than the armour's maximum (README.md, "Tabletop values")."""
    if not armour:
        return equilibrio * 2
    cap = armour.get("max_equilibrio")
    return (equilibrio if cap is None else min(equilibrio, cap)) + armour.get("deflection", 0)


# Wounds -------------------------------------------------------------------------------------

# The damage types a hit may name: "Intangibile: immune ai danni da taglio, punta e
# contundenti. Continua a ricevere danno da Calore ed Elettricità." Physical is every blow's
# (cutting, piercing, blunt); the console names the others on its buttons.
DAMAGE_TYPES = {
    "physical": {"it": "Fisico", "es": "Físico", "en": "Physical"},
    "heat": {"it": "Calore", "es": "Calor", "en": "Heat"},
    "electricity": {"it": "Elettricità", "es": "Electricidad", "en": "Electricity"},
}

# What every larp sheet recalls at 0 points and on a coup de grâce, in the rule's language
# (the published larp rules' "Vita e Morte", with their 3 seconds: README.md, "Wounds") with
# its translations, and
# where the console recalls it: at 0 points (not dying: a blow then changes nothing, the
# header must not say what one more does), and beside the coup de grâce.
SHEET_RULES = (
    {
        "key": "stagger",
        "wounds": ("grievous",),
        "text": {
            "it": "A 0 punti vita si può solo barcollare (1 metro per turno); un altro colpo: "
            "incosciente.",
            "en": "At 0 hit points, only stagger (1 metre a turn); one more blow: unconscious.",
            "es": "Con 0 puntos de vida, solo tambalearse (1 metro por turno); otro golpe: "
            "inconsciente.",
        },
    },
    {
        "key": "countdown",  # on paper only: the console shows the countdown itself
        "text": {
            "it": "Incosciente: passati 10 minuti (600 turni) senza cure, morto.",
            "en": "Unconscious: dead after 10 minutes (600 turns) without care.",
            "es": "Inconsciente: muerto tras 10 minutos (600 turnos) sin cuidados.",
        },
    },
    {
        "key": "coup_de_grace",
        "action": "coup_de_grace",
        "text": {
            "it": "Colpo di grazia: mimato per almeno 3 secondi, uccide un incosciente.",
            "en": "Coup de grâce: mimed for at least 3 seconds, it kills an unconscious character.",
            "es": "Golpe de gracia: fingido durante al menos 3 segundos, mata a un inconsciente.",
        },
    },
)


def worn_left(ap: int, own: int) -> int:
    """The worn armour's points among ``ap``, the armour points left: the worn armour is
    struck first, so Corpo's Armatura +X (``own``) is what is left last."""
    return max(0, ap - own)


def hit_comparing(breakable: Callable[[int, int], int | None]) -> Callable[..., State]:
    """The hit, its optional armour break comparing a blow with ``breakable(ap, own)`` of
    the armour points left (None: every one of them)."""

    def hit(state: State, entry: Hit, ctx: Context) -> State:
        """Each blow in turn: armour first (unless pierce), then points; at 0 a blow means
        dying. A blow of a type the character is immune to (Intangibile: physical) does
        nothing."""
        if not blow_lands(state, entry, ctx):
            return state
        hp, ap, destroyed, death_at = state.hp, state.ap, state.armour_destroyed, state.death_at
        worn = (ctx.sheet.details.get("armour") or {}).get("points", 0)
        own = ctx.sheet.ap_max - worn  # Corpo's Armatura +X: the character's own
        for _ in range(entry.blows):
            if hp < 0:
                break  # dying: only a coup de grâce changes anything
            before = ap
            # The optional rule breaks the worn armour only: Armatura +X stays.
            breaks = ctx.settings.armour_breaks and worn > 0 and not destroyed
            ap, destroyed, rest = take_blow(
                ap, destroyed, entry.damage, entry.pierce, breaks, breakable(ap, own)
            )
            if breaks and destroyed:
                ap = min(before, own)
            if rest >= 1:
                if hp > 0:
                    hp = max(0, hp - rest)
                else:
                    hp, death_at = -1, entry.at + DYING_TURNS * ctx.settings.turn
        statuses = tuple(s for s in state.statuses if not ctx.catalogue[s.key].ends_on_hit)
        return state.evolve(
            hp=hp, ap=ap, armour_destroyed=destroyed, death_at=death_at, statuses=statuses
        )

    return hit


# The optional rule as README.md and the seed state it: a blow is compared with the worn
# armour's points left ("il valore di bonus armatura offerto"), not with Armatura +X too.
hit = hit_comparing(worn_left)


def _breaks_worn_armour_beside_armatura(sheet: LarpSheet, settings) -> bool:
    worn = (sheet.details.get("armour") or {}).get("points", 0)
    return settings.armour_breaks and 0 < worn < sheet.ap_max


# Where the engine applied a rule otherwise than as written (README.md, "Rule corrections").
CORRECTIONS = (
    RuleCorrection(
        "armour_break_worn_points",
        words={
            "it": "Rottura dell'armatura (regola opzionale): il colpo è confrontato con i punti "
            "rimasti dell'armatura indossata, non più con questi più l'Armatura +X di Corpo.",
            "es": "Rotura de la armadura (regla opcional): el golpe se compara con los puntos "
            "que le quedan a la armadura puesta, ya no con ellos más la Armatura +X de Corpo.",
            "en": "Armour break (optional rule): a blow is compared with the worn armour's "
            "points left, no longer with them plus Corpo's Armatura +X.",
        },
        # As it was: the blow compared with every armour point left, Armatura's included.
        before={"hit": hit_comparing(lambda ap, own: None)},
        concerns=_breaks_worn_armour_beside_armatura,
    ),
)


def heal(state: State, entry: Heal, ctx: Context) -> State:
    """Heal counting from −1 when dying; reaching 0 or more ends the countdown."""
    hp = min(ctx.sheet.hp_max, max(state.hp, -1) + entry.amount)
    return state.evolve(hp=hp, death_at=None if hp >= 0 else state.death_at)


def coup_de_grace(state: State, entry: CoupDeGrace, ctx: Context) -> State:
    if state.hp >= 0:
        raise RuleError("not_dying")
    return state.dead_at(entry.at)


def advance_wounds(state: State, t: datetime, ctx: Context) -> State:
    """A dying character is dead when the countdown ends."""
    if state.death_at is not None and state.death_at <= t:
        return state.evolve(died_at=state.death_at, death_at=None)
    return state


def wound(state: State, ctx: Context) -> str:
    if state.died_at is not None:
        return "dead"
    if state.hp > 0:
        return "ok"
    return "grievous" if state.hp == 0 else "dying"


def armour_kept(sheet) -> tuple[dict, ...]:
    """A break takes the worn armour's points; Corpo's Armatura +X stays."""
    worn = (sheet.details.get("armour") or {}).get("points", 0)
    kept = sheet.ap_max - worn
    return ({"source": "Corpo", "points": kept},) if worn > 0 and kept > 0 else ()


RULESET = Ruleset(
    package_dir=Path(__file__).resolve().parent,
    key=KEY,
    language="it",
    tables={
        "attributes": parse_attribute_table,
        "armour": parse_armour_table,
        "statuses": parse_status_catalogue,
        "skills": parse_skill_list,
    },
    read_sheet=read_sheet,
    tabletop_values=tabletop_values,
    wound_handlers={"hit": hit, "heal": heal, "coup_de_grace": coup_de_grace},
    wound=wound,
    advance_wounds=advance_wounds,
    sheet_rules=SHEET_RULES,
    form_tables=form_tables,
    fold_details=("armour",),  # the worn armour's points: what the optional rule breaks
    damage_types=DAMAGE_TYPES,
    # "Un personaggio che finisce una sessione in status incosciente, senza nessun guaritore
    # in grado o che voglia curarlo, viene automaticamente considerato morto."
    end_of_session_is_death=True,
    sheet_schema=SCHEMA,
    armour_kept=armour_kept,
    problems=PROBLEMS,
    vocabulary=VOCABULARY,
    settings_offered=("armour_breaks",),
    corrections=CORRECTIONS,
)
