"""Helpers templates use to show engine data in words."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from babel import dates
from flask import Flask, current_app, request
from flask_babel import format_datetime, format_decimal, format_time, get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from .. import TRANSLATIONS, rules
from ..messages import kind_label, kind_owner, plugin_catalogue, refusal_message, ruleset_text
from ..reads.roster import original_and_translation as both_languages
from ..reads.words import (
    derived_name,
    figures_shown,
    page_language,
    quantity_name,
    ruleset_name,
    ruleset_words,
    status_name,
    tracks,
    wound_shown,
)
from ..services.refusals import refusal_words
from .field_names import field_name, problem_line, shown_value, tabletop_rows

APP_PACKAGE = Path(TRANSLATIONS).parent  # (its catalogues in translations/, as a rule system's)


def words(label: str | Mapping[str, str]) -> str:
    """A declared word in the page's language: a message id through the catalogue, or a rule
    system's own ``{language: text}`` (English, then any, when the page's is missing)."""
    if isinstance(label, str):
        return _(label)
    locale = str(get_locale())
    return label.get(locale) or label.get("en") or next(iter(label.values()), "")


def kind_words(kind: str, ruleset: str | None = None) -> str:
    """An entry kind's label in the page's language (``messages.kind_label``)."""
    return kind_label(kind, ruleset)


def _declared(entry: rules.Entry) -> rules.EntryKind | None:
    """An entry's declaration, found by its class (each rule system's kinds are its own)."""
    for declared in rules.entry_kinds():
        if declared.cls is type(entry):
            return declared
    own = (k for r in rules.rulesets() for k in r.entry_kinds if k.cls is type(entry))
    return next(own, None)


def entry_summary(entry: rules.Entry) -> str:
    """A few words on what an entry did, e.g. ``2 × 1, pierce``, as its kind declares; a hit
    of another damage type than physical names it in the words of its rule system."""
    declared = _declared(entry)
    owner = None if declared is None else kind_owner(declared)
    say = _ if owner is None else _own_gettext(owner)
    text = "" if declared is None else declared.summary(entry, say)
    damage_type = getattr(entry, "damage_type", None)
    if damage_type:
        named = (
            r.damage_types[damage_type] for r in rules.rulesets() if damage_type in r.damage_types
        )
        text += " · " + words(next(named, {}) or damage_type)
    return text


def _own_gettext(ruleset: rules.Ruleset):
    """A gettext of the rule system's own catalogue (the app's for the words it lacks)."""

    def say(message: str, **params: Any) -> str:
        text = ruleset_text(ruleset, message)
        return text % params if params else text

    return say


def original_and_translation(
    texts: Mapping[str, Any] | None, original: str
) -> list[tuple[str, str]]:
    """A rule text as [(language, text)]: in the ruleset's own language, then translated
    into the page's language when that differs and there is a translation."""
    return both_languages(texts, original, str(get_locale()))


def public_base_url() -> str:
    """Where phones reach this app: configured for the event's network, else as asked."""
    return current_app.config.get("PUBLIC_BASE_URL") or request.host_url


def clock(value: datetime | None) -> str:
    """A time of day in UTC with seconds as the page's language writes it: 15:12:00,
    3:12:00 PM (the pages say "UTC" after it; the phone rewrites it in its own time zone)."""
    return "" if value is None else dates.format_time(value, "medium", UTC, page_language())


def weekday_clock(value: datetime | None) -> str:
    """The weekday and time with seconds in the page's language: sab 15:12:00, Sat 3:12:00 PM."""
    if value is None:
        return ""
    return f"{format_datetime(value, 'EEE')} {format_time(value, 'medium')}"


def date_time(value: datetime | None, format: str = "medium") -> str:
    """A date and time in the page's language, e.g. 6 mar 2027, 15:12:00."""
    return "" if value is None else format_datetime(value, format)


def number(value: float | int | None, format: str | None = None) -> str:
    """A number with the page's language's separators: 1.234,5 in Italian, 1,234.5 in English."""
    return "" if value is None else format_decimal(value, format)


class LiveWords(NamedTuple):
    """What a character's live parts say (``live_words``), as attributes: a template reads
    an attribute of a tuple directly, where a dict's key costs it a failed attribute
    lookup first (an exception made and dropped, a microsecond a word)."""

    hp: str
    ap: str | None
    energy: str | None
    hp_short: str
    ap_short: str | None
    energy_short: str | None
    dies_in: Markup
    unless_healed: Markup
    dead_since: Markup
    destroyed: Markup
    next_in: Markup
    statuses: Markup
    until_ended: Markup
    none: Markup
    present: Markup
    not_checked_in: Markup


def live_words(key: str | None) -> LiveWords:
    """What a character's live parts say, in the page's language: the player's
    (web/live_part.py) and a line of the organiser's board
    (templates/organiser/board_row.html). Its rule system's names of the quantities, long
    and short (``ap`` and ``energy`` None where it does not track them), and the parts' own
    words. Found once a rule system and language: the parts are rendered again at every
    change of a character, with no request around them too (reads/words.py ``speaking``)."""
    return _live_words(key, page_language())


@lru_cache(maxsize=64)
def _live_words(key: str | None, locale: str) -> LiveWords:
    tracked = {q: q == "hp" or tracks(key, q) for q in ("hp", "ap", "energy")}
    names = {q: quantity_name(key, q) if tracked[q] else None for q in tracked}
    shorts = {
        f"{q}_short": quantity_name(key, q, short=True) if tracked[q] else None for q in tracked
    }
    # The interface's catalogue for ``locale`` (no request to ask), named so that the
    # catalogue's extraction finds the words.
    _ = plugin_catalogue(APP_PACKAGE, locale).ugettext
    # (Translations are trusted, as the templates' own _() marks them.)
    return LiveWords(
        **names,
        **shorts,
        dies_in=Markup(_("Dies in")),
        unless_healed=Markup(_("unless a healer reaches you.")),
        dead_since=Markup(_("Dead since")),
        destroyed=Markup(_("destroyed")),
        next_in=Markup(_("in")),
        statuses=Markup(_("Statuses")),
        until_ended=Markup(_("until a referee ends it")),
        none=Markup(_("None.")),
        present=Markup(_("present")),
        not_checked_in=Markup(_("not checked in")),
    )


def register(app: Flask) -> None:
    # Times are shown in UTC as each language writes them: ``clock`` by Babel itself (a live
    # part is rendered with no request), the others through Flask-Babel (its time zone UTC).
    app.jinja_env.filters.update(
        clock=clock,
        weekday_clock=weekday_clock,
        date_time=date_time,
        number=number,
    )
    app.jinja_env.globals.update(
        entry_summary=entry_summary,
        entry_kinds=rules.entry_kinds,
        kind_words=kind_words,
        format_instant=rules.format_instant,
        get_locale=get_locale,
        original_and_translation=original_and_translation,
        problem_text=problem_line,
        field_name=field_name,
        shown_value=shown_value,
        tabletop_rows=tabletop_rows,
        refusal_text=lambda code, **params: refusal_message(code, params),
        refusal_words=refusal_words,
        ruleset_words=ruleset_words,
        ruleset_name=ruleset_name,
        wound_shown=wound_shown,
        quantity_name=quantity_name,
        tracks=tracks,
        derived_name=derived_name,
        status_name=status_name,
        figures_shown=figures_shown,
        live_words=live_words,
    )
