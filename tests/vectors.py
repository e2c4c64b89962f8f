"""Conformance vectors: random logs with the Python fold's states, for the phone's fold.

Each rule system gets ``count`` random logs (a fixed seed: the same vectors every run) over
every entry kind: undos (of nothing, of an undo, twice), late entries (dated before entries
that arrived earlier), a repeated id, app-rolled and referee-entered saves (in turns of their
own, in a turn already saved, before the first), hits of every damage type (and of one the
rule system lacks), the optional armour-breaking rule on and off, and several turn lengths.
Each vector holds the sheet and settings as a phone receives them (larp_app/rules/wire.py),
the log, the dice the server rolled (by what fixed them: the phone is given them here, never
offline), and the state JSON at several instants (the instants where time changes the state,
and either side of them).

A vector may also *resume*: the state's inner values at an instant, as the roster sends them,
and the entries after it, as a phone's outbox holds them; folding on from there must give the
same states as the whole log.

    python -m tests.vectors OUT_DIR [COUNT]     # writes OUT_DIR/<ruleset>.json
"""

from __future__ import annotations

import json
import random
import sys
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from larp_app import rules
from larp_app.rules import (
    Context,
    convert_sheet,
    entry_to_dict,
    fold_log,
    next_change,
    read_settings,
    snapshot_at,
    state_at,
)
from larp_app.rules import dice as dice_module
from larp_app.rules.entries import read_entry
from larp_app.rules.wire import settings_to_wire, sheet_to_wire, state_to_wire

DATA = Path(__file__).parent / "data"
T0 = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)
SEED = 20270306
COUNT = 2000


# --- the dice the server rolls, recorded by what fixed them ---------------------------------


class _Recording(random.Random):
    """A generator that writes each value it gives under its parts' key."""

    def __init__(self, seed: int, values: list[int]):
        super().__init__(seed)
        self._values, self._i = values, 0

    def randint(self, a: int, b: int) -> int:
        value = super().randint(a, b)
        if self._i < len(self._values):
            assert self._values[self._i] == value
        else:
            self._values.append(value)
        self._i += 1
        return value


@contextmanager
def recorded_dice():
    """Record every roll the rules make: {parts joined by \\x1f: [values]}."""
    rolls: dict[str, list[int]] = {}
    original = dice_module.rng_for

    def rng_for(seed: str, *parts: object) -> random.Random:
        seeded = original(seed, *parts)
        key = "\x1f".join(map(str, parts))
        return _Recording(seeded.getrandbits(64), rolls.setdefault(key, []))

    # A generator seeded from the original keeps the dice as random as they were.
    dice_module.rng_for = rng_for
    try:
        yield rolls
    finally:
        dice_module.rng_for = original


# --- sheets and settings --------------------------------------------------------------------


def _ex_nihilo_sheet(rng: random.Random):
    weight = rng.choice([None, "leggera", "media", "pesante", "multistrato"])
    return convert_sheet(
        {
            "ruleset": "ex-nihilo",
            "player": "Giulia Rossi",
            "character": "Vera Lanz",
            "attributes": {
                "corpo": rng.randint(8, 22),
                "equilibrio": rng.randint(8, 22),
                "mente": rng.randint(8, 22),
                "spirito": rng.choice([rng.randint(8, 22), rng.randint(20, 22)]),
            },
            "advancements": [
                {"name": "Colpo Caricato", "energy_cost": 1},
                {"name": "Sguardo del Vuoto", "energy_cost": 2},
            ],
            "armour": None
            if weight is None
            else {"name": "Armatura", "weight": weight, "deflection": 1, "absorption": 1},
            "weapons": [],
        }
    )


def _athkri_sheet(rng: random.Random):
    raw = json.loads((DATA / "athkri-sheet.json").read_text(encoding="utf-8"))
    fisico = rng.randint(2, 6)
    raw["attributes"] = {**raw["attributes"], "fisico": fisico}
    raw["ps_max"] = rng.randint(fisico + 1, fisico * 5)
    raw["blindaje"] = rng.choice([0, 0, 1, 2, 4])
    return convert_sheet(raw)


def _toy_sheet(rng: random.Random):
    return convert_sheet(
        {"ruleset": "toy", "player": "Ann", "character": "Bo", "vigour": rng.randint(1, 10)}
    )


def _toy_settings(rng: random.Random):
    return read_settings({"turn_seconds": rng.choice([1, 2, 0.5])}, "toy")


def _ex_nihilo_settings(rng: random.Random):
    return read_settings(
        {
            "turn_seconds": rng.choice([1, 1, 0.5, 2.5, 6]),
            "optional_rules": {"armour_breaks": rng.random() < 0.5},
        },
        "ex-nihilo",
    )


def _athkri_settings(rng: random.Random):
    return read_settings(
        {
            "turn_seconds": rng.choice([10, 10, 6, 1, 3]),
            "optional_rules": {"armour_breaks": rng.random() < 0.5},
            "saves": rng.choice(["app", "app", "referee"]),
            "seed": f"event-{rng.randint(0, 10**6)}",
        },
        "athkri",
    )


# --- entries --------------------------------------------------------------------------------


def _fields(kind: str, rng: random.Random, ctx: Context) -> dict[str, Any]:
    statuses = [*ctx.catalogue, "not_a_status"]
    big = ctx.sheet.hp_max > 6  # points in tens, not units
    names = [a.name for a in ctx.sheet.advancements] + ["not_an_advancement"]
    if kind == "hit":
        fields = {"damage": rng.choice([1, 1, rng.randint(1, 12 if big else 4)])}
        if rng.random() < 0.4:
            fields["blows"] = rng.randint(1, 4)
        if rng.random() < 0.2:
            fields["pierce"] = True
        if rng.random() < 0.3:
            fields["damage_type"] = rng.choice(["physical", "heat", "electricity", "cold"])
        return fields
    if kind in ("heal", "restore_energy"):
        return {"amount": rng.randint(1, 8 if big else 3)}
    if kind == "repair":
        return {"full": True} if rng.random() < 0.3 else {"amount": rng.randint(1, 3)}
    if kind == "spend_energy":
        name = rng.choice([None, *names])
        if name is None:
            return {"amount": rng.randint(1, 6)}
        cost = next((a.energy_cost for a in ctx.sheet.advancements if a.name == name), 1)
        return {"amount": cost if rng.random() < 0.8 else cost + 1, "advancement": name}
    if kind == "status_on":
        fields = {"key": rng.choice(statuses)}
        if rng.random() < 0.4:
            fields["seconds"] = rng.choice([0, rng.randint(1, 900)])
        if rng.random() < 0.3:
            fields["damage"] = rng.randint(1, 6)
            fields["difficulty"] = rng.randint(6, 18)
        return fields
    if kind == "status_off":
        return {"key": rng.choice(statuses)}
    if kind == "kill":
        return {"reason": "trama"}
    if kind == "revive":
        return {} if rng.random() < 0.5 else {"hp": rng.randint(0, 6)}
    if kind == "note":
        return {"text": "scena 3"}
    if kind == "save":
        return {"success": rng.random() < 0.5}
    if kind == "roll":
        checks = [k for k, s in ctx.catalogue.items() if s.texts.get("check")]
        fields = {"key": rng.choice([*checks, *checks, "derribado"])}
        if rng.random() < 0.3:
            fields["difficulty"] = rng.randint(6, 20)
        return fields
    if kind == "rally":
        return (
            {"cry": "avanti"} if rng.random() < 0.5 else {"cry": "su", "points": rng.randint(1, 3)}
        )
    if kind == "dice":
        fields = {"level": rng.randint(-1, 1), "bonus": rng.randint(-3, 6)}
        if rng.random() < 0.5:
            fields["difficulty"] = rng.randint(6, 20)
        return fields
    return {}


COMMON = [
    *["hit"] * 8,
    *["heal"] * 3,
    "repair",
    "repair",
    *["spend_energy"] * 3,
    "restore_energy",
    *["status_on"] * 3,
    "status_off",
    "coup_de_grace",
    "kill",
    "revive",
    "note",
    *["undo"] * 2,
]
KINDS = {
    "ex-nihilo": [*COMMON, "save"],  # a kind its rule system has not: refused
    "athkri": [*COMMON, *["save"] * 5, "roll", "dice"],
    "toy": [*COMMON, *["rally"] * 3, "save", "dice"],
}


def _log(rng: random.Random, ctx: Context) -> list[dict[str, Any]]:
    """A log in arrival order: mostly forwards in time, some late entries, an id twice."""
    size = rng.choice([rng.randint(0, 6), rng.randint(4, 30)])
    clock, log = 0.0, []
    kinds = KINDS[ctx.sheet.ruleset]
    turn = ctx.settings.turn_seconds
    if ctx.settings.saves == "referee" and rng.random() < 0.5:  # knocked out, saves to enter
        knock_out = {"damage": min(100, ctx.sheet.hp_max), "pierce": True}
        log.append({"id": str(uuid.UUID(int=1)), "kind": "hit", "at": T0, **knock_out})
    for _ in range(size):
        kind = rng.choice(kinds)
        steps = [0, 1, 5, rng.uniform(0, 120), rng.uniform(0, 900)]
        if kind == "save":  # a turn on, part of one, or a couple: saves one turn apart or not
            steps += [turn, turn, turn * rng.choice([0.3, 0.9, 1.5, 2])]
        clock += rng.choice(steps)
        at = clock if rng.random() > 0.15 else rng.uniform(0, clock)  # late: dated earlier
        if rng.random() < 0.5:
            at = round(at)  # whole seconds, as most phones' entries, or microseconds
        if kind == "undo":
            fields = {"target": str(uuid.UUID(int=rng.randint(1, len(log) + 1)))}
        else:
            fields = _fields(kind, rng, ctx)
        instant = T0 + timedelta(microseconds=round(at * 1_000_000))
        log.append({"id": str(uuid.UUID(int=len(log) + 1)), "kind": kind, "at": instant, **fields})
        if kind == "save" and rng.random() < 0.4:  # a second referee at the body, a moment on
            later = instant + timedelta(seconds=rng.choice([0, 1, 2, turn / 2]))
            again = {"kind": "save", "at": later, **_fields("save", rng, ctx)}
            log.append({"id": str(uuid.UUID(int=len(log) + 1)), **again})
    if log and rng.random() < 0.05:
        again = rng.choice(log)  # its id and instant, as a note: no field of its own kind
        log.append({"id": again["id"], "at": again["at"], "kind": "note", "text": "same id"})
    return [entry_to_dict(read_entry({**e, "at": e["at"].isoformat()})) for e in log]


# --- instants and states --------------------------------------------------------------------


def _instants(rng: random.Random, ctx: Context, entries) -> list[datetime]:
    """Where time changes the state (and either side of it), at entries, and at random."""
    ats = sorted(e.at for e in entries)
    end = ats[-1] if ats else T0
    chosen = {T0, end, end + timedelta(seconds=rng.randint(1, 4000))}
    if ats:
        chosen.add(rng.choice(ats))
        chosen.add(T0 + (end - T0) * rng.random())
    folded = fold_log(ctx, entries)
    state, t = folded.state, end
    for _ in range(rng.randint(1, 4)):
        due = next_change(state, ctx) if state.died_at is None else None
        if due is None:
            break
        tick = timedelta(microseconds=1)
        chosen.update({due - tick, due, due + tick})
        t = due + tick
        state = snapshot_at(folded, ctx, t).state
    return sorted(chosen)


def _resume(rng: random.Random, ctx, sheet, settings, entries, raw) -> dict | None:
    """The state's inner values at an instant between entries, and the entries after it."""
    ats = sorted({e.at for e in entries})
    if len(ats) < 2:
        return None
    at = ats[rng.randrange(len(ats) - 1)] + timedelta(microseconds=rng.randint(0, 2_000_000))
    after = [e for e in entries if e.at > at]
    before_ids = {e.id for e in entries if e.at <= at}
    if not after or any(getattr(e, "target", None) in before_ids for e in after):
        return None  # an undo of an entry the phone does not hold: the server's to tell
    if any(e.id in before_ids for e in after):
        return None
    snapshot = state_at(sheet, settings, entries, at)
    later = sorted({at, *(e.at for e in after)})[1:]
    last = later[-1]
    times = [*later, last + timedelta(seconds=rng.randint(1, 3000))]
    return {
        "at": _format(at),
        "state": state_to_wire(snapshot.state),
        "conflicts": [{"id": c.id, "code": c.code} for c in snapshot.conflicts],
        "log_position": snapshot.log_position,
        "entries": [r for r in raw if r["id"] in {e.id for e in after}],
        "states": [state_at(sheet, settings, entries, t).to_dict() for t in times],
    }


def _format(at: datetime) -> str:
    from larp_app.rules import format_instant

    return format_instant(at)


MAKERS: dict[str, tuple[Callable, Callable]] = {
    "ex-nihilo": (_ex_nihilo_sheet, _ex_nihilo_settings),
    "athkri": (_athkri_sheet, _athkri_settings),
    "toy": (_toy_sheet, _toy_settings),  # the rule system that lives in the tests
}


@contextmanager
def known_rulesets():
    """Every rule system the vectors cover known to the engine (the toy one for a while)."""
    from tests.toy_ruleset import RULESET as TOY

    added = TOY.key not in rules.ruleset_keys()
    if added:
        rules.register(TOY)
    try:
        yield
    finally:
        if added:
            rules.unregister(TOY.key)


def phone_fold(ruleset: str) -> Path:
    """A rule system's phone fold: fold.js in its package's static files."""
    with known_rulesets():
        return rules.get_ruleset(ruleset).static_dir() / "fold.js"


def vectors(ruleset: str, count: int = COUNT, seed: int = SEED) -> list[dict[str, Any]]:
    """``count`` vectors for ``ruleset``, the same for the same seed."""
    with known_rulesets():
        return _vectors(ruleset, count, seed)


def _vectors(ruleset: str, count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(f"{seed}:{ruleset}")
    make_sheet, make_settings = MAKERS[ruleset]
    out = []
    for n in range(count):
        sheet, settings = make_sheet(rng), make_settings(rng)
        ctx = Context.of(sheet, settings)
        raw = _log(rng, ctx)
        entries = [read_entry(r) for r in raw]
        with recorded_dice() as rolls:
            instants = _instants(rng, ctx, entries)
            states = [state_at(sheet, settings, entries, t).to_dict() for t in instants]
            resume = _resume(rng, ctx, sheet, settings, entries, raw)
        out.append(
            {
                "n": n,
                "sheet": sheet_to_wire(sheet),
                "settings": settings_to_wire(settings, ctx.catalogue),
                "entries": raw,
                "rolls": rolls,
                "states": states,
                "resume": resume,
            }
        )
    return out


def case(
    n: int, sheet, settings, raw: list[dict[str, Any]], instants: list[datetime]
) -> dict[str, Any]:
    """One vector of a worked case: the sheet and settings as a phone receives them, the log
    (plain data, instants as text) and the server's states at ``instants``."""
    entries = [read_entry(r) for r in raw]
    ctx = Context.of(sheet, settings)
    with recorded_dice() as rolls:
        states = [state_at(sheet, settings, entries, t).to_dict() for t in instants]
    return {
        "n": n,
        "sheet": sheet_to_wire(sheet),
        "settings": settings_to_wire(settings, ctx.catalogue),
        "entries": [entry_to_dict(e) for e in entries],
        "rolls": rolls,
        "states": states,
        "resume": None,
    }


def rulesets() -> list[str]:
    return sorted(MAKERS)


def write(directory: Path, count: int = COUNT) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for ruleset in rulesets():
        path = directory / f"{ruleset}.json"
        path.write_text(json.dumps(vectors(ruleset, count)), encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    count = int(sys.argv[2]) if len(sys.argv) > 2 else COUNT
    for written in write(Path(sys.argv[1]), count):
        print(written)
