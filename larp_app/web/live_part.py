"""A character's live state as the pages show it: the player's live part, and the wound, the
countdown and the clock time the organisers' pages show too (templates call them as
globals: ``live_part``, ``wound``, ``countdown``, ``clock_time``).

Written here rather than in a template: the live part is rendered anew at every change of
every character a phone follows (10,000 player pages on the largest day, each change
answered before Flask: web/answers.py), and a template's render was a third of such an
answer's CPU on a busy worker (a render alone: 69 µs as a template, 13 here). Each piece of
markup is written once, here; every value is escaped (``_text``), the words of the app's
catalogue (``live_words``: trusted, as a template's own ``_()``) are not.

Words, never colour alone: a wound is its icon and its word, a stat its name and numbers.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from datetime import datetime
from functools import lru_cache

from flask import Flask
from markupsafe import Markup

from .. import rules
from ..reads.words import figures_shown, page_language, wound_shown
from .display import clock, live_words


def _text(value: object) -> str:
    """``value`` as an element's text or an attribute's value: a whole number as it is,
    anything else escaped (quotes too). Not markupsafe's ``escape``, which makes a ``Markup``
    of every value: 12 of them were half of a render's time."""
    return str(value) if type(value) is int else html.escape(str(value))


def wound(level: str, ruleset: str | None, own: str | None = None) -> Markup:
    """A wound level in the words and symbol of the rule system (``ruleset``: its key), its
    own wound track's ``own`` level first (reads/words.py ``wound_shown``)."""
    return _wound(level, ruleset, own, page_language())


@lru_cache(maxsize=1024)
def _wound(level: str, ruleset: str | None, own: str | None, locale: str) -> Markup:
    shown = wound_shown(level, ruleset, own)
    return Markup(
        f'<span class="wound wound-{_text(level)}" data-wound="{_text(level)}">'
        f'<span class="wound-icon" aria-hidden="true">{_text(shown.icon)}</span>'
        f" {_text(shown.word)}</span>"
    )


def countdown(instant: datetime, refresh: bool = False, big: bool = False) -> Markup:
    """Time left until ``instant``, ticked by the phone from the timestamp
    (static/js/lib/clock.js). The text is only a placeholder: a value computed on the server
    would change the page's ETag at every poll. ``refresh``: ask the server again when it
    reaches zero."""
    return Markup(
        f'<span class="timer{" big" if big else ""}"'
        f' data-until="{_text(rules.format_instant(instant))}"'
        f'{" data-refresh-at-zero" if refresh else ""} role="timer">--:--</span>'
    )


def clock_time(instant: datetime) -> Markup:
    """An instant as the page's language writes a UTC time; the phone rewrites it in its
    own time zone."""
    return Markup(
        f'<time datetime="{_text(rules.format_instant(instant))}" data-local>'
        f"{_text(clock(instant))} UTC</time>"
    )


def live_part(state: rules.Snapshot, status_names: Mapping[str, str]) -> Markup:
    """The live part of the player's page (and of its JSON twin): the wound and the rule
    system's figures, the death countdown or the time of death, the numbers, the statuses,
    in the page's language. ``status_names``: each status of the event's catalogue by its
    name in that language."""
    st, sheet, key = state.state, state.sheet, state.sheet.ruleset
    said = live_words(key)
    figures = "".join(
        f' <small class="muted" data-figure>· {_text(name)} {_text(value)}</small>'
        for name, value in figures_shown(key, state.extra)
    )
    parts = [
        f'<p class="player-wound">{wound(state.wound, key, state.extra.get("level"))}'
        f"{figures}</p>\n"
    ]
    if st.death_at:
        parts.append(
            f'<p class="alarm"><span>{said.dies_in}</span>'
            f" {countdown(st.death_at, refresh=True, big=True)}"
            f" <span>{said.unless_healed}</span></p>\n"
        )
    elif st.died_at:
        parts.append(f'<p class="alarm">{said.dead_since} {clock_time(st.died_at)}</p>\n')
    parts.append('<dl class="live-numbers">\n')
    parts.append(
        f'<div data-stat="hp"><dt>{_text(said.hp)}</dt>'
        f"<dd><b>{_text(st.hp)}</b> / {_text(sheet.hp_max)}</dd></div>\n"
    )
    if said.ap:
        destroyed = f" <small>✖ {said.destroyed}</small>" if st.armour_destroyed else ""
        parts.append(
            f'<div data-stat="ap"><dt>{_text(said.ap)}</dt>'
            f"<dd><b>{_text(st.ap)}</b> / {_text(sheet.ap_max)}{destroyed}</dd></div>\n"
        )
    if sheet.energy_max and said.energy:
        next_one = (
            f" <small>+1 {said.next_in} {countdown(st.next_energy_at, refresh=True)}</small>"
            if st.next_energy_at
            else ""
        )
        parts.append(
            f'<div data-stat="energy"><dt>{_text(said.energy)}</dt>'
            f"<dd><b>{_text(st.energy)}</b> / {_text(sheet.energy_max)}{next_one}</dd></div>\n"
        )
    parts.append(f"</dl>\n<h2>{said.statuses}</h2>\n")
    if st.statuses:
        parts.append('<ul class="live-statuses">\n')
        for status in st.statuses:
            until = (
                f'<span class="muted">{said.until_ended}</span>'
                if status.until is None
                else countdown(status.until, refresh=True)
            )
            name = _text(status_names.get(status.key, status.key))
            parts.append(f"<li><strong>{name}</strong> {until}</li>\n")
        parts.append("</ul>\n")
    else:
        parts.append(f'<p class="muted">{said.none}</p>\n')
    return Markup("".join(parts))


def register(app: Flask) -> None:
    app.jinja_env.globals.update(
        live_part=live_part, wound=wound, countdown=countdown, clock_time=clock_time
    )
