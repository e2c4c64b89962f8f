"""Answers rendered once: a console's state or a player's page that changed is turned into
bytes once per tag, language and encoding, kept on the character's record
(keeping/records.py ``Record.answers``), and served as bytes to every poll that asks for
it, before Flask (web/quick.py) or in it (web/api.py ``get_state``, web/player.py
``live``): the same tag, headers and body either way.

A state answer holds the caller's own entries that stopped counting (``your_conflicts``):
the bytes kept are those of a character none of whose entries stopped counting, the same for
every caller; any other is answered by the full path, which reads them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import Flask

from .. import rules
from ..keeping.records import Record, settings_key_of
from ..models import Event
from ..reads.roster import in_language
from ..reads.words import speaking
from ..rules.wire import state_to_wire
from ..services.events import status_catalogue
from .live_part import live_part
from .transfer import encoded

STATE, PLAYER = "state", "player"


def state_data(snapshot: rules.Snapshot, instant: bool = False) -> dict[str, Any]:
    """The state as a console polls it: without the instant asked for (``instant``: with),
    so that its ETag changes only with it; with ``fold``, its inner values, from which a
    phone's fold goes on offline."""
    data = snapshot.to_dict()
    if not instant:
        del data["at"]
    data["fold"] = state_to_wire(snapshot.state)
    return data


def json_body(app: Flask, data: Any) -> bytes:
    """``data`` as the body Flask's ``jsonify`` gives it (the app's JSON provider, compact
    unless debugging, a new line last), with no response made around it."""
    provider = app.json
    compact = getattr(provider, "compact", None)
    pretty = (compact is None and app.debug) or compact is False
    layout: dict[str, Any] = {"indent": 2} if pretty else {"separators": (",", ":")}
    return f"{provider.dumps(data, **layout)}\n".encode()


def _encoded(app: Flask, record: Record, key: tuple, plain: Callable[[], bytes]):
    """The answer kept under ``key`` (its tag, what, its language..., its encoding last),
    made from its plain bytes (kept under the same key with no encoding) when missing."""
    kept = record.answer(key)
    if kept is not None:
        return kept
    bare = (*key[:-1], None)
    body = record.answer(bare)
    if body is None:
        body = (plain(), None)
        record.keep_answer(bare, body)
    data = encoded(app, body[0], key[-1])
    answer = (data, None if data is body[0] else key[-1])
    record.keep_answer(key, answer)
    return answer


def state_answer(
    app: Flask, record: Record, tag: str, at, encoding: str | None
) -> tuple[bytes, str | None]:
    """The body of the state answer of ``record`` at ``at`` (whose tag is ``tag``), with no
    entry of the caller's that stopped counting, in ``encoding`` as Flask-Compress would
    give it; and the encoding it is in (None: as it is, too short to compress). Made with
    the record's own sheet (``Record.ctx``): no sheet is parsed for it."""

    def plain() -> bytes:
        snapshot = rules.snapshot_at(record.folded, record.ctx, at)
        return json_body(app, {**state_data(snapshot), "your_conflicts": []})

    return _encoded(app, record, (tag, STATE, encoding), plain)


def live_data(snapshot: rules.Snapshot) -> dict[str, Any]:
    """The state as the player's page shows it: without the instant asked for (so that an
    unchanged state keeps its ETag from one poll to the next), nor the conflicts (the
    organisers' business, not the player's)."""
    data = snapshot.to_dict()
    del data["at"], data["conflicts"]
    return data


def player_answer(
    app: Flask,
    record: Record,
    tag: str,
    locale: str,
    at,
    encoding: str | None,
    facts: Callable[[], tuple[dict[str, Any], str, dict]],
) -> tuple[bytes, str | None]:
    """The body of the player's page's live part (web/player.py ``live``) of ``record`` at
    ``at`` (whose tag is ``tag``) in ``locale``, in ``encoding``, and the encoding it is in.
    ``facts``: the character's name, player and faction, its event's rule system and
    settings (as their key: keeping/records.py ``settings_key_of``), read only when the
    answer is made."""

    def plain() -> bytes:
        character, ruleset, settings = facts()
        snapshot = rules.snapshot_at(record.folded, record.ctx, at)
        names = dict(_status_names(ruleset, settings, locale))
        with speaking(locale):  # no app context: its words are found in ``locale``
            html = live_part(snapshot, names)
        data = {"character": character, "state": live_data(snapshot), "html": html}
        return json_body(app, data)

    return _encoded(app, record, (tag, PLAYER, locale, encoding), plain)


def status_names(ruleset: str, settings: dict, locale: str) -> dict[str, str]:
    """Each status of the event's catalogue by its name in ``locale`` (else the rules' own)."""
    return dict(_status_names(ruleset, settings_key_of(settings), locale))


@lru_cache(maxsize=256)
def _status_names(ruleset: str, settings_key: str, locale: str) -> tuple[tuple[str, str], ...]:
    """``status_names`` of the settings as their key."""
    event = Event(ruleset=ruleset, settings=json.loads(settings_key))
    original = rules.get_ruleset(ruleset).language
    return tuple(
        (key, in_language(status.texts.get("name") or {}, locale, original) or key)
        for key, status in status_catalogue(event).items()
    )
