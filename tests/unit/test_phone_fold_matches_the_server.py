"""The phone's fold (JavaScript) gives the server's states, exactly, for every rule system.

tests/vectors.py writes random logs with the Python fold's states; node runs them through
static/js/lib/fold.js and each rule system's own fold (its package's static/fold.js) and
names the first vector, instant and field that differ.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from datetime import timedelta
from pathlib import Path

import pytest

from larp_app.rules import convert_sheet, read_settings
from tests import vectors

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "js" / "run_vectors.mjs"
NODE = shutil.which("node") or "/usr/bin/node"


def run_vectors(path: Path, module: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [NODE, "--no-warnings", str(RUNNER), str(path), str(module)],
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize("ruleset", vectors.rulesets())
def test_the_phone_fold_reproduces_every_state_of_the_server_fold(ruleset, tmp_path):
    path = tmp_path / f"{ruleset}.json"
    path.write_text(vectors.json.dumps(vectors.vectors(ruleset)), encoding="utf-8")
    done = run_vectors(path, vectors.phone_fold(ruleset))
    assert done.returncode == 0, done.stdout[:4000] + done.stderr[:2000]
    assert "states reproduced" in done.stdout


def test_the_vectors_are_at_least_two_thousand_per_rule_system_and_the_same_each_run():
    for ruleset in vectors.rulesets():
        assert vectors.COUNT >= 2000
        assert vectors.vectors(ruleset, 3) == vectors.vectors(ruleset, 3)


def test_a_different_fold_on_the_phone_is_caught(tmp_path):
    """A phone fold that deals one point less per blow fails the vectors, naming a field."""
    ruleset = vectors.rulesets()[0]
    path = tmp_path / "v.json"
    path.write_text(vectors.json.dumps(vectors.vectors(ruleset, 200)), encoding="utf-8")
    changed = tmp_path / "fold.js"
    source = vectors.phone_fold(ruleset).read_text(encoding="utf-8")
    changed.write_text(source.replace("entry.damage", "(entry.damage - 1)", 1), encoding="utf-8")
    assert changed.read_text(encoding="utf-8") != source
    done = run_vectors(path, changed)
    assert done.returncode == 1
    assert '"path"' in done.stdout and '"vector"' in done.stdout


def test_the_phone_breaks_the_worn_armour_as_rules_md_states_it(tmp_path):
    """EX Nihilo's README, the optional rule: light armour (1) with Corpo 13 (Armatura +1) is broken
    by a blow of 2; heavy armour (3) with Corpo 20 (Armatura +2) by a blow of 6, which it
    takes whole (hp 3, Armatura's 2 points stay). The phone's fold gives the same numbers."""
    raw = json.loads((ROOT / "tests" / "data" / "ex-nihilo-sheet.json").read_text("utf-8"))
    breaks = read_settings({"optional_rules": {"armour_breaks": True}}, "ex-nihilo")
    t0 = vectors.T0
    cases, expected = [], []
    for n, (weight, corpo, damage, numbers) in enumerate(
        [("leggera", 13, 2, (2, 1, True)), ("pesante", 20, 6, (3, 2, True))]
    ):
        sheet = convert_sheet(
            {
                **raw,
                "attributes": {**raw["attributes"], "corpo": corpo},
                "armour": {**raw["armour"], "weight": weight},
            }
        )
        hit = {"id": str(uuid.uuid4()), "kind": "hit", "at": t0.isoformat(), "damage": damage}
        cases.append(vectors.case(n, sheet, breaks, [hit], [t0, t0 + timedelta(seconds=5)]))
        expected.append(numbers)
    for vector, numbers in zip(cases, expected, strict=True):
        state = vector["states"][-1]
        assert (state["hp"], state["ap"], state["armour_destroyed"]) == numbers
    path = tmp_path / "armour.json"
    path.write_text(json.dumps(cases), encoding="utf-8")
    done = run_vectors(path, vectors.phone_fold("ex-nihilo"))
    assert done.returncode == 0, done.stdout[:4000] + done.stderr[:2000]
