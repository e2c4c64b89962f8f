"""The phone's outbox keeps every entry until the server answers it for good.

node runs static/js/lib/outbox.js over an IndexedDB in memory (tests/js/fake_indexeddb.mjs)
against a server whose answers the script chooses: a batch the database cut part way, a
server that cannot be reached, an answer that leaves an entry out, then a whole answer.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "js" / "outbox_cut_short.mjs"
NODE = shutil.which("node") or "/usr/bin/node"


def sends() -> dict[str, dict]:
    done = subprocess.run(
        [NODE, "--no-warnings", str(SCRIPT)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return {line["label"]: line for line in lines}


def statuses(send: dict) -> list[str]:
    return [status for _id, status, _message in send["outbox"]]


def test_a_batch_cut_part_way_takes_the_answered_entries_and_keeps_the_rest_pending():
    cut = sends()["cut short"]
    assert statuses(cut) == ["stored", "stored", "pending", "pending", "pending"]
    assert "2 of these 5 entries were stored" in cut["outcome"]["error"]


def test_entries_stay_pending_through_an_unanswered_send_and_one_left_out_of_an_answer():
    seen = sends()
    assert statuses(seen["unreachable"]) == ["stored", "stored", "pending", "pending", "pending"]
    assert statuses(seen["one left out"]) == ["stored"] * 4 + ["pending"]
    assert statuses(seen["whole"]) == ["stored"] * 5
