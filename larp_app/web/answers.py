"""Answers rendered once: a console's state that changed is turned into bytes once per tag
and encoding, kept on the character's record (keeping/records.py ``Record.answers``), and
served as bytes to every poll that asks for it, before Flask (web/quick.py) or in it
(web/api.py ``get_state``): the same tag, headers and body either way.

A state answer holds the caller's own entries that stopped counting (``your_conflicts``):
the bytes kept are those of a character none of whose entries stopped counting, the same for
every caller; any other is answered by the full path, which reads them.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from .. import rules
from ..keeping.records import Record
from ..rules.wire import state_to_wire
from .transfer import encoded

STATE = "state"


def state_data(snapshot: rules.Snapshot, instant: bool = False) -> dict[str, Any]:
    """The state as a console polls it: without the instant asked for (``instant``: with),
    so that its ETag changes only with it; with ``fold``, its inner values, from which a
    phone's fold goes on offline."""
    data = snapshot.to_dict()
    if not instant:
        del data["at"]
    data["fold"] = state_to_wire(snapshot.state)
    return data


def state_answer(
    app: Flask, record: Record, ctx: rules.Context, tag: str, at, encoding: str | None
) -> tuple[bytes, str | None]:
    """The body of the state answer of ``record`` at ``at`` (whose tag is ``tag``), with no
    entry of the caller's that stopped counting, in ``encoding`` as Flask-Compress would
    give it; and the encoding it is in (None: as it is, too short to compress)."""
    key = (tag, STATE, encoding)
    kept = record.answer(key)
    if kept is not None:
        return kept
    plain = record.answer((tag, STATE, None))
    if plain is None:
        snapshot = rules.snapshot_at(record.folded, ctx, at)
        body = app.json.response({**state_data(snapshot), "your_conflicts": []}).get_data()
        plain = (body, None)
        record.keep_answer((tag, STATE, None), plain)
    data = encoded(app, plain[0], encoding)
    answer = (data, None if data is plain[0] else encoding)
    record.keep_answer(key, answer)
    return answer
