"""A worker keeps parsed the sheets of every character in play on the largest day: the 600
that its consoles follow, each changed every few seconds. Going round them again (a view
brought up to date, a poll, an entry) parses none of them again; a smaller bound parsed
every one of them at every turn, the least recently used going first."""

from __future__ import annotations

from sqlalchemy import String, cast, select

from larp_app.extensions import db
from larp_app.keeping.records import Records, settings_key
from larp_app.models import Character, Event
from larp_app.services.events import event_settings

IN_PLAY = 600  # consoles following a character each, on the largest day (bench/day.py)


def stored_sheet(character_id: int) -> tuple:
    """The character's larp sheet as stored (its text), and its event's settings (key, read)."""
    character = db.session.get(Character, character_id)
    event = db.session.get(Event, character.event_id)
    text = db.session.scalar(
        select(cast(Character.larp, String)).where(Character.id == character_id)
    )
    return text, settings_key(event), event_settings(event)


def test_the_sheets_of_the_largest_day_s_characters_in_play_are_parsed_once(app, character_id):
    with app.app_context():
        text, key, settings = stored_sheet(character_id)
        kept = Records()
        # (the same stored sheet for each: a character's is kept by its id)
        first = [kept.sheet_from_text(n, key, text, settings) for n in range(1, IN_PLAY + 1)]
        again = [kept.sheet_from_text(n, key, text, settings) for n in range(1, IN_PLAY + 1)]
        reparsed = sum(1 for a, b in zip(first, again, strict=True) if a is not b)
        assert reparsed == 0
        assert again[0].ctx.sheet == first[0].ctx.sheet


def test_the_sheets_kept_are_bounded(app, character_id):
    with app.app_context():
        text, key, settings = stored_sheet(character_id)
        kept = Records(kept_contexts=IN_PLAY)
        for n in range(1, 2 * IN_PLAY + 1):
            kept.sheet_from_text(n, key, text, settings)
        assert len(kept.contexts) == IN_PLAY
        assert list(kept.contexts) == list(range(IN_PLAY + 1, 2 * IN_PLAY + 1))  # the latest
