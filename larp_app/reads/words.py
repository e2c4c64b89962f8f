"""A rule system's words in the reader's language (larp_app.rules.vocabulary): what every
page, export and printed sheet calls its quantities, wound levels and derived values."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, NamedTuple

from flask_babel import get_locale

from .. import rules
from ..rules.vocabulary import NEUTRAL, in_language

# The language of a part rendered with no request around it (``speaking``).
_SPOKEN: ContextVar[str | None] = ContextVar("spoken", default=None)


def page_language() -> str:
    """The language the words shown are in: the one a part is rendered in (``speaking``),
    else the request's (Flask-Babel's), else English."""
    return _SPOKEN.get() or str(get_locale() or "en")


@contextmanager
def speaking(locale: str) -> Iterator[None]:
    """Words found in here are in ``locale``, with no request or app context to ask: a
    part rendered once for every poll of a character that changed (web/answers.py)."""
    token = _SPOKEN.set(locale)
    try:
        yield
    finally:
        _SPOKEN.reset(token)


def ruleset_words(key: str | None, locale: str | None = None) -> dict[str, Any]:
    """The rule system ``key``'s vocabulary in ``locale`` (the page's language), its own
    language the fallback; the host's neutral words for an unknown rule system."""
    locale = locale or page_language()
    try:
        ruleset = rules.get_ruleset(key)
    except KeyError:
        return NEUTRAL.in_language(locale, "en")
    return ruleset.words().in_language(locale, ruleset.language)


def ruleset_name(key: str | None) -> str:
    """The rule system's name in the page's language (its key only when none is known)."""
    return ruleset_words(key)["name"] if _known(key) else str(key)


def _known(key: str | None) -> bool:
    try:
        rules.get_ruleset(key)
    except KeyError:
        return False
    return True


class WoundShown(NamedTuple):
    """A wound level as a page shows it (attributes: a template reads them as such)."""

    icon: str
    word: str


def wound_shown(wound: str, key: str | None, level: str | None = None) -> WoundShown:
    """A wound level as a page shows it: ``icon`` and ``word``; where the rule system keeps a
    wound track of its own (a state's ``level``), the word is that level's. Found once a
    level and language (a board renders it for every changed character); read, never
    changed, by whoever asks."""
    return _wound_shown(wound, key, level, page_language())


@lru_cache(maxsize=1024)
def _wound_shown(wound: str, key: str | None, level: str | None, locale: str) -> WoundShown:
    said = ruleset_words(key, locale)
    declared = said["wounds"].get(wound) or NEUTRAL.in_language(locale, "en")["wounds"].get(
        wound, {"word": wound, "icon": "?", "severity": 0}
    )
    word = said["levels"].get(level) if level else None
    return WoundShown(declared["icon"], word or declared["word"])


def quantity_name(key: str | None, quantity: str, short: bool = False) -> str:
    """What the rule system calls ``quantity`` (hp, ap, energy) in the page's language."""
    said = ruleset_words(key)["quantities"].get(quantity)
    if said is None:
        said = NEUTRAL.in_language(page_language(), "en")["quantities"][quantity]
    return said["short" if short else "name"]


def tracks(key: str | None, quantity: str) -> bool:
    """Whether the rule system tracks ``quantity`` (a screen shows only what it has)."""
    try:
        return rules.get_ruleset(key).words().tracks(quantity)
    except KeyError:
        return True


def derived_name(key: str | None, value: str) -> str:
    """A derived tabletop value's name (the key itself read as words where none is declared)."""
    return ruleset_words(key)["derived"].get(value) or value.replace("_", " ").capitalize()


def status_name(key: str | None, status: str) -> str:
    """A status's (condition's) name in the page's language, from the rule system's shipped
    catalogue (its own language the fallback)."""
    try:
        ruleset = rules.get_ruleset(key)
        table = ruleset.shipped_table(ruleset.catalogue)
    except (KeyError, OSError):
        return status
    for item in table.get("statuses", []):
        if item.get("key") == status:
            return in_language(item.get("name"), page_language(), ruleset.language) or status
    return status


def figures_shown(key: str | None, extra: dict[str, Any]) -> list[tuple[str, str]]:
    """The figures of a state's own part (``extra``) the rule system names for people, as
    (name, value) in the page's language: "daño", "13 / 24"."""
    try:
        vocabulary = rules.get_ruleset(key).words()
        language = rules.get_ruleset(key).language
    except KeyError:
        return []
    shown = []
    for name, figure in vocabulary.figures.items():
        value = extra.get(name)
        if value is None:
            continue
        of = extra.get(figure.of) if figure.of else None
        text = f"{value} / {of}" if of is not None else str(value)
        shown.append((in_language(figure.name, page_language(), language), text))
    return shown


def badge_words(labels: dict[str, str], key: str | None) -> dict[str, str]:
    """The badge's labels with the rule system's names for its quantities."""
    return {
        **labels,
        "hit_points": quantity_name(key, "hp"),
        "armour": quantity_name(key, "ap"),
        "energy": quantity_name(key, "energy"),
    }
