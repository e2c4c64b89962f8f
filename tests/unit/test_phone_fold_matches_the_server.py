"""The phone's fold (JavaScript) gives the server's states, exactly, for every rule system.

tests/vectors.py writes random logs with the Python fold's states; node runs them through
static/js/lib/fold.js and each rule system's own fold (its package's static/fold.js) and
names the first vector, instant and field that differ.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

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
