"""Benchmark the fold: one character's state from a long log, and a whole event at one instant.

Run from the repository root: ``.venv/bin/python bench/fold.py``. It prints figures only;
nothing here asserts on time (TESTING.md "Levels"). Target: 1,000 entries folded
in at most 5 ms. For each rule system it prints the fold alone and the stored entries read
back (``entry_from_stored``, as the services read the log) and folded, the median of several
runs; the validating parse (``read_log``, what input goes through) is printed beside them.
The fold is also timed "afresh", with no seed's dice kept from the fold before
(``dice.first_words`` emptied before each run): what a worker's first fold of a character
costs where the rules roll dice.

Logs are a weekend of play (Friday 18:00 to Sunday 16:00, quiet at night): mostly hits, heals
and repairs, energy spent and restored, statuses on and off, notes, a few undos and a few late
arrivals, so that energy recovery, status expiry and refused entries all happen in the fold.
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clean checkout

from larp_app.rules import (
    LarpSheet,
    convert_sheet,
    default_settings,
    dice,
    entry_from_stored,
    entry_to_dict,
    read_log,
    read_settings,
    state_at,
)

START = datetime(2027, 3, 5, 18, 0, tzinfo=UTC)  # Friday evening
END = datetime(2027, 3, 7, 16, 0, tzinfo=UTC)  # Sunday afternoon: every state is asked here
NIGHT = (2, 9)  # hours of the night with no play
SETTINGS = default_settings("ex-nihilo")
ATHKRI_SETTINGS = read_settings({"seed": "bench", "turn_seconds": 10}, "athkri")
TIMED_STATUSES = ("dolore", "paura", "a_terra", "stordimento", "paralisi", "ammaliamento")
OPEN_STATUSES = ("invisibile", "intangibile")
ADVANCEMENTS = (("Colpo Caricato", 1), ("Sguardo del Vuoto", 2))
MIX = {  # share of each kind among the entries a referee logs
    "hit": 30,
    "heal": 14,
    "repair": 9,
    "spend_energy": 10,
    "restore_energy": 4,
    "status_on": 11,
    "status_off": 4,
    "note": 16,
    "undo": 2,
}


def sheet_data(rng: random.Random) -> dict:
    """The example character with attributes and armour drawn for variety."""
    attrs = {a: rng.randint(8, 22) for a in ("corpo", "equilibrio", "mente")}
    attrs["spirito"] = rng.choice((12, 18, 20, 21, 21, 22))
    weight = rng.choice((None, "leggera", "media", "media", "pesante"))
    return {
        "ruleset": "ex-nihilo",
        "player": "Giulia Rossi",
        "character": "Dott.ssa Vera Lanz",
        "faction": "Corporazione",
        "attributes": attrs,
        "skills": {"medicina": 1},
        "advancements": [
            {"name": name, "energy_cost": cost, "text": "..."} for name, cost in ADVANCEMENTS
        ],
        "armour": weight and {"name": "Giubbotto", "weight": weight, "deflection": 10},
        "weapons": [{"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}],
    }


def play_instants(n: int, rng: random.Random) -> list[datetime]:
    """``n`` sorted instants over the weekend, none at night."""
    seconds = int((END - START).total_seconds())
    instants: list[datetime] = []
    while len(instants) < n:
        t = START + timedelta(seconds=rng.uniform(0, seconds))
        if not NIGHT[0] <= t.hour < NIGHT[1]:
            instants.append(t)
    return sorted(instants)


class Model:
    """A rough model of the character, so that the generated log stays plausible."""

    def __init__(self, sheet: LarpSheet):
        self.sheet = sheet
        self.hp, self.ap, self.energy = sheet.hp_max, sheet.ap_max, sheet.energy_max
        self.since: datetime | None = None
        self.recovery = timedelta(minutes=sheet.energy_recovery_minutes or 1)
        self.open_statuses: list[str] = []

    def recover(self, at: datetime) -> None:
        if self.since is None:
            return
        gained = (at - self.since) // self.recovery
        self.energy = min(self.sheet.energy_max, self.energy + gained)
        if self.energy == self.sheet.energy_max:
            self.since = None
        else:
            self.since += gained * self.recovery

    def spend(self, cost: int, at: datetime) -> None:
        self.energy -= cost
        self.since = self.since or at

    def hit(self, blows: int, damage: int) -> None:
        for _ in range(blows):
            absorbed = min(self.ap, damage)
            self.ap -= absorbed
            if damage > absorbed and self.hp >= 0:
                self.hp = max(0, self.hp - damage + absorbed) if self.hp > 0 else -1


def undo_target(rng, log, undone: set, kinds: tuple[str, ...]) -> str | None:
    """One of the last five entries, of ``kinds`` and not undone yet, now undone; or None."""
    recent = [e for e in log[-5:] if e["kind"] in kinds and e["id"] not in undone]
    if not recent:
        return None
    target = rng.choice(recent)["id"]
    undone.add(target)
    return target


def weekend_log(sheet: LarpSheet, n: int, rng: random.Random) -> list[dict]:
    """A referee's log of ``n`` entries as the API receives them (plain dicts, arrival order).

    The model keeps it plausible without asking the engine: a healer comes within minutes of a
    dying blow, energy is mostly spent when there is some, open statuses are ended.
    """
    kinds, weights = list(MIX), list(MIX.values())
    me = Model(sheet)
    log: list[dict] = []
    undone: set[str] = set()
    instants = iter(play_instants(n, rng))
    at = START
    while len(log) < n:
        if me.hp < 0:  # dying: a healer arrives before the countdown ends
            kind, at = "heal", min(END, at + timedelta(seconds=rng.randint(30, 300)))
        else:
            kind, at = rng.choices(kinds, weights)[0], max(at, next(instants))
            if kind == "hit" and len(log) == n - 1:
                kind = "note"  # no dying blow that the log ends before healing
        me.recover(at)
        entry: dict = {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "kind": kind}
        if kind == "hit":
            entry["blows"] = rng.choice((1, 1, 1, 2, 2, 3))
            if rng.random() < 0.1:
                entry["damage"] = 2
            me.hit(entry["blows"], entry.get("damage", 1))
        elif kind == "heal":
            entry["amount"] = rng.choice((1, 1, 2, 3))
            me.hp = min(sheet.hp_max, max(me.hp, -1) + entry["amount"])
        elif kind in ("repair", "restore_energy", "spend_energy") and not (
            sheet.ap_max if kind == "repair" else sheet.energy_max
        ):
            entry.update(kind="note", text="Niente armatura né energia.")
        elif kind == "repair":
            entry.update({"full": True} if rng.random() < 0.3 else {"amount": rng.randint(1, 2)})
            me.ap = min(sheet.ap_max, me.ap + entry.get("amount", sheet.ap_max))
        elif kind == "spend_energy":
            affordable = [a for a in ADVANCEMENTS if a[1] <= me.energy]
            if affordable:
                name, cost = rng.choice(affordable)
                entry.update(amount=cost, advancement=name)
                me.spend(cost, at)
            elif rng.random() < 0.1:  # now and then an attempt the engine refuses
                entry.update(amount=2, advancement="Sguardo del Vuoto")
            else:
                entry.update(kind="note", text="Senza energia.")
        elif kind == "restore_energy":
            entry["amount"] = 1
            me.energy = min(sheet.energy_max, me.energy + 1)
            me.since = None if me.energy == sheet.energy_max else me.since
        elif kind == "status_on":
            if rng.random() < 0.2:
                entry["key"] = rng.choice(OPEN_STATUSES)
                me.open_statuses.append(entry["key"])
            else:
                entry["key"] = rng.choice(TIMED_STATUSES)
        elif kind == "status_off" and me.open_statuses:
            entry["key"] = me.open_statuses.pop()
        elif kind == "status_off":
            entry.update(kind="status_on", key=rng.choice(TIMED_STATUSES))
        elif kind == "note":
            entry["text"] = "Parla col dottore della Corporazione."
        elif kind == "undo":
            target = undo_target(rng, log, undone, ("note", "status_on", "spend_energy"))
            if target:
                entry["target"] = target
            else:
                entry.update(kind="note", text="Niente da annullare.")
        entry["at"] = at.isoformat().replace("+00:00", "Z")
        entry["referee"] = "arbitro-1"
        log.append(entry)
    for _ in range(n // 50):  # a phone that was offline: a few entries arrive late
        i = rng.randrange(n)
        log.insert(min(n - 1, i + rng.randint(1, 20)), log.pop(i))
    return log


ATHKRI_MIX = {
    "hit": 30,
    "heal": 8,
    "note": 16,
    "status_on": 10,
    "status_off": 6,
    "spend_energy": 8,
    "restore_energy": 4,
    "dice": 8,
    "roll": 4,
    "undo": 2,
}
ATHKRI_CONDITIONS = ("enfermo", "asustado", "derribado", "agarrado", "dano_continuo")


def athkri_sheet_data(rng: random.Random) -> dict:
    """An Athkri character (the seed's example shape), Físico and PS drawn for variety."""
    return {
        "ruleset": "athkri",
        "player": "Ana Ruiz",
        "character": "Maurick",
        "faction": "Naufragio",
        "attributes": {
            "fisico": rng.randint(3, 6),
            "agilidad": 3,
            "mente": 5,
            "intuicion": 2,
            "presencia": 3,
        },
        "ps_max": rng.choice((16, 20, 24)),
        "defensa": 12,
        "voluntad": 10,
        "cobertura": 0,
        "blindaje": 2,
        "skills": {"aguante": 2, "atletismo": 1, "medicina": 3},
        "powers": [{"name": "Toque sanador", "mana_cost": 2, "text": "Cura 1d6 PS al tocar."}],
    }


def athkri_weekend_log(sheet: LarpSheet, n: int, rng: random.Random) -> list[dict]:
    """An Athkri referee's log of ``n`` entries (plain dicts, arrival order): blows, a healer
    when the points run low (now and then too late: knocked out, saves rolled each turn),
    conditions (Daño continuo among them), mana spent, the app's dice and checks."""
    kinds, weights = list(ATHKRI_MIX), list(ATHKRI_MIX.values())
    hp, mana = sheet.hp_max, sheet.energy_max
    log: list[dict] = []
    undone: set[str] = set()
    open_conditions: list[str] = []
    instants = iter(play_instants(n, rng))
    at = START
    while len(log) < n:
        if hp <= 8:
            kind, at = "heal", min(END, at + timedelta(seconds=rng.randint(20, 120)))
        else:
            kind, at = rng.choices(kinds, weights)[0], max(at, next(instants))
        entry: dict = {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "kind": kind}
        if kind == "hit":
            entry["damage"] = rng.choice((1, 2, 2, 3))
            hp -= entry["damage"]
        elif kind == "heal":
            entry["amount"] = max(1, sheet.hp_max - max(hp, 0))
            hp = sheet.hp_max
        elif kind == "status_on":
            entry["key"] = rng.choice(ATHKRI_CONDITIONS)
            if entry["key"] == "dano_continuo":
                entry["seconds"] = 30  # three turns of one point each
                hp -= 3
            elif rng.random() < 0.7:
                entry["seconds"] = rng.choice((30, 60, 120, 300))
            else:
                open_conditions.append(entry["key"])
        elif kind == "status_off" and open_conditions:
            entry["key"] = open_conditions.pop()
        elif kind == "spend_energy" and mana >= 2:
            entry.update(amount=2, advancement="Toque sanador")
            mana -= 2
        elif kind == "restore_energy":
            entry["amount"] = 2
            mana = min(sheet.energy_max, mana + 2)
        elif kind == "dice":
            entry.update(bonus=rng.randint(0, 4), target=12)
        elif kind == "roll":
            entry["key"] = "confundido"
        elif kind == "undo":
            target = undo_target(rng, log, undone, ("note", "dice", "status_on"))
            if target:
                entry["target"] = target
        if kind in ("status_off", "spend_energy", "undo") and len(entry) == 2:
            entry.update(kind="note", text="Nada que hacer.")
        elif kind == "note":
            entry["text"] = "Habla con el capitán del Naufragio."
        entry["at"] = at.isoformat().replace("+00:00", "Z")
        entry["referee"] = "arbitro-1"
        log.append(entry)
    for _ in range(n // 50):  # a phone that was offline: a few entries arrive late
        i = rng.randrange(n)
        log.insert(min(n - 1, i + rng.randint(1, 20)), log.pop(i))
    return log


def timings_ms(fn, repeats: int) -> tuple[float, float]:
    """The median and the best of ``repeats`` runs: on a shared machine the best is the
    nearest to what the work itself costs, the median what a request would see."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, min(times) * 1000


def median_ms(fn, repeats: int) -> float:
    return timings_ms(fn, repeats)[0]


def stored(raw: list[dict]) -> list[dict]:
    """The log as the database keeps it: each entry checked once, written back as JSON."""
    return [json.loads(json.dumps(entry_to_dict(e))) for e in read_log(raw)]


def one_character(label, sheet, settings, make_log, rng: random.Random) -> float:
    """Print the figures for one rule system; return the fold of 1,000 entries (ms)."""
    print(f"{label}: one character's state at Sunday 16:00 (median of repeats, perf_counter)")
    header = (
        f"{'entries':>8}  {'repeats':>7}  {'fold ms':>8}  {'(best)':>7}  {'fold µs/e':>9}  "
        f"{'afresh ms':>9}  {'(best)':>7}  "
        f"{'stored+fold ms':>14}  {'(best)':>7}  {'read_log ms':>11}  {'conflicts':>9}  "
        "final state"
    )
    print(header)
    print("-" * len(header))
    fold_1000 = None
    for n, repeats in ((100, 51), (1_000, 31), (10_000, 7)):
        raw = make_log(sheet, n, rng)
        rows = stored(raw)
        entries = [entry_from_stored(row) for row in rows]

        def parse_and_fold(rows=rows):
            return state_at(sheet, settings, [entry_from_stored(row) for row in rows], END)

        fold, fold_best = timings_ms(lambda e=entries: state_at(sheet, settings, e, END), repeats)

        def fold_afresh(entries=entries):
            dice.first_words.cache_clear()  # as a worker's first fold: no seed's words kept
            return state_at(sheet, settings, entries, END)

        afresh, afresh_best = timings_ms(fold_afresh, repeats)
        both, both_best = timings_ms(parse_and_fold, repeats)
        validate = median_ms(lambda raw=raw: read_log(raw), repeats)
        snap = state_at(sheet, settings, entries, END)
        s = snap.state
        final = f"{snap.wound}, hp {s.hp}, ap {s.ap}, energy {s.energy}"
        print(
            f"{n:>8,}  {repeats:>7}  {fold:>8.2f}  {fold_best:>7.2f}  {fold * 1000 / n:>9.2f}  "
            f"{afresh:>9.2f}  {afresh_best:>7.2f}  "
            f"{both:>14.2f}  {both_best:>7.2f}  {validate:>11.2f}  {len(snap.conflicts):>9}  "
            f"{final}"
        )
        if n == 1_000:
            fold_1000, best_1000, both_1000, afresh_1000 = fold, fold_best, both, afresh
    verdict = "met" if max(fold_1000, afresh_1000) <= 5 else "MISSED"
    print(
        f"{label}: 1,000 entries folded in {fold_1000:.2f} ms, median (best {best_1000:.2f}),"
        f" {afresh_1000:.2f} ms afresh (no dice kept); target <= 5 ms: {verdict};"
        f" read from storage and folded in {both_1000:.2f} ms."
    )
    print()
    return fold_1000


def whole_event(rng: random.Random, characters: int = 500, per_character: int = 200) -> None:
    sheets = [convert_sheet(sheet_data(rng), SETTINGS) for _ in range(characters)]
    raws = [weekend_log(sheet, per_character, rng) for sheet in sheets]
    logs = [read_log(raw) for raw in raws]
    total = characters * per_character

    def parse_all():
        for raw in raws:
            read_log(raw)

    def fold_all():
        for sheet, log in zip(sheets, logs, strict=True):
            state_at(sheet, SETTINGS, log, END)

    repeats = 5
    parse = median_ms(parse_all, repeats)
    fold = median_ms(fold_all, repeats)
    dead = sum(
        state_at(sheet, SETTINGS, log, END).wound == "dead"
        for sheet, log in zip(sheets, logs, strict=True)
    )
    print()
    print(
        f"Whole event: {characters} characters x {per_character} entries = {total:,} entries, "
        f"every state at Sunday 16:00 (median of {repeats})"
    )
    print(
        f"  parse {parse:8.1f} ms  ({parse * 1000 / total:.2f} µs/entry, "
        f"{parse / characters:.2f} ms/character)"
    )
    print(
        f"  fold  {fold:8.1f} ms  ({fold * 1000 / total:.2f} µs/entry, "
        f"{fold / characters:.2f} ms/character)  dead at the end: {dead}"
    )


def main() -> None:
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    print()
    print("(the machine may be shared: figures are medians, pessimistic under load)")
    print()
    rng = random.Random(2027)
    ex_nihilo = convert_sheet(sheet_data(random.Random(21)), SETTINGS)
    one_character("EX Nihilo", ex_nihilo, SETTINGS, weekend_log, rng)
    athkri = convert_sheet(athkri_sheet_data(random.Random(21)), ATHKRI_SETTINGS)
    one_character("Athkri", athkri, ATHKRI_SETTINGS, athkri_weekend_log, rng)
    whole_event(rng)


if __name__ == "__main__":
    main()
