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

from larp_app.rules import convert_sheet, default_settings, entry_to_dict, read_log, state_at

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


def weekend_log(n: int, rng: random.Random) -> list[dict]:
    """A referee's log of ``n`` entries as the API receives them (plain dicts, arrival order).

    A rough model of the character keeps the log plausible (a heal soon after a grave wound,
    energy spent when there is some, open statuses ended), without asking the engine.
    """
    kinds, weights = list(MIX), list(MIX.values())
    hp = ap = 3
    energy, open_statuses = 3, set()
    log: list[dict] = []
    for at in play_instants(n, rng):
        kind = rng.choices(kinds, weights)[0]
        if hp <= 0:
            kind = "heal"  # a healer arrives before the countdown ends
        entry: dict = {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "kind": kind}
        if kind == "hit":
            entry["blows"] = rng.choice((1, 1, 1, 2, 2, 3))
            if rng.random() < 0.1:
                entry["damage"] = 2
            taken = entry["blows"] * entry.get("damage", 1)
            hp, ap = hp - max(0, taken - ap), max(0, ap - taken)
        elif kind == "heal":
            entry["amount"] = rng.choice((1, 1, 2, 3))
            hp = min(3, max(hp, -1) + entry["amount"])
        elif kind == "repair":
            entry.update({"full": True} if rng.random() < 0.3 else {"amount": rng.randint(1, 2)})
            ap = 3
        elif kind == "spend_energy":
            name, cost = rng.choice(ADVANCEMENTS)
            entry.update(amount=cost, advancement=name)
            energy = max(0, energy - cost)
        elif kind == "restore_energy":
            entry["amount"] = 1
            energy += 1
        elif kind == "status_on":
            if rng.random() < 0.2:
                entry["key"] = rng.choice(OPEN_STATUSES)
                open_statuses.add(entry["key"])
            else:
                entry["key"] = rng.choice(TIMED_STATUSES)
        elif kind == "status_off":
            entry["key"] = open_statuses.pop() if open_statuses else rng.choice(OPEN_STATUSES)
        elif kind == "note":
            entry["text"] = "Parla col dottore della Corporazione."
        elif kind == "undo":
            recent = [e for e in log[-5:] if e["kind"] not in ("undo",)]
            if not recent:
                entry.update(kind="note", text="Niente da annullare.")
            else:
                entry["target"] = rng.choice(recent)["id"]
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
        raw = weekend_log(n, rng)
        parse = median_ms(lambda raw=raw: read_log(raw), repeats)
        entries = read_log(raw)
        assert [entry_to_dict(e)["id"] for e in entries] == [d["id"] for d in raw]
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
    raws = [weekend_log(per_character, rng) for _ in range(characters)]
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
