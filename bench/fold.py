"""Benchmark the fold: one character's state from a long log, and a whole event at one instant.

Run from the repository root: ``.venv/bin/python bench/fold.py``. It prints figures only;
nothing here asserts on time (TESTING.md "Levels"). Target (issue): 1,000 entries under 5 ms.

Logs are a weekend of play (Friday 18:00 to Sunday 16:00, quiet at night): mostly hits, heals
and repairs, energy spent and restored, statuses on and off, notes, a few undos and a few late
arrivals, so that energy recovery, status expiry and refused entries all happen in the fold.
"""

from __future__ import annotations

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
    read_log,
    state_at,
)

START = datetime(2027, 3, 5, 18, 0, tzinfo=UTC)  # Friday evening
END = datetime(2027, 3, 7, 16, 0, tzinfo=UTC)  # Sunday afternoon: every state is asked here
NIGHT = (2, 9)  # hours of the night with no play
SETTINGS = default_settings("ex-nihilo")
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
            recent = [e for e in log[-5:] if e["kind"] in ("note", "status_on", "spend_energy")]
            recent = [e for e in recent if e["id"] not in undone]
            if recent:
                entry["target"] = rng.choice(recent)["id"]
                undone.add(entry["target"])
            else:
                entry.update(kind="note", text="Niente da annullare.")
        entry["at"] = at.isoformat().replace("+00:00", "Z")
        entry["referee"] = "arbitro-1"
        log.append(entry)
    for _ in range(n // 50):  # a phone that was offline: a few entries arrive late
        i = rng.randrange(n)
        log.insert(min(n - 1, i + rng.randint(1, 20)), log.pop(i))
    return log


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def one_character(rng: random.Random) -> None:
    sheet = convert_sheet(sheet_data(random.Random(21)), SETTINGS)
    print("One character: state at Sunday 16:00 (median of repeats, time.perf_counter)")
    header = (
        f"{'entries':>8}  {'repeats':>7}  {'parse ms':>9}  {'parse µs/e':>10}  "
        f"{'fold ms':>8}  {'fold µs/e':>9}  {'conflicts':>9}  final state"
    )
    print(header)
    print("-" * len(header))
    fold_1000 = None
    for n, repeats in ((100, 51), (1_000, 21), (10_000, 7)):
        raw = weekend_log(sheet, n, rng)
        parse = median_ms(lambda raw=raw: read_log(raw), repeats)
        entries = read_log(raw)
        fold = median_ms(lambda e=entries: state_at(sheet, SETTINGS, e, END), repeats)
        snap = state_at(sheet, SETTINGS, entries, END)
        s = snap.state
        final = f"{snap.wound}, hp {s.hp}, ap {s.ap}, energy {s.energy}"
        print(
            f"{n:>8,}  {repeats:>7}  {parse:>9.2f}  {parse * 1000 / n:>10.2f}  "
            f"{fold:>8.2f}  {fold * 1000 / n:>9.2f}  {len(snap.conflicts):>9}  {final}"
        )
        if n == 1_000:
            fold_1000 = fold
    print(f"Target: 1,000 entries folded under 5 ms; measured {fold_1000:.2f} ms.")


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
    rng = random.Random(2027)
    one_character(rng)
    whole_event(rng)


if __name__ == "__main__":
    main()
