"""What a referee's phone keeps to scan and log with no signal: the phone's roster.

Every event with its catalogue and settings, every character with what the console needs
and its last state (fetched whole once, then as what changed since the version the phone
holds), and the badges as salted SHA-256 hashes of their secrets and short
codes, never the secrets: a lost phone names characters but cannot make a badge.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from functools import lru_cache
from typing import Any

from flask import current_app
from flask_babel import force_locale
from sqlalchemy import select

from .. import rules, tokens
from ..extensions import db
from ..keeping import tags
from ..keeping.records import settings_key, state_of
from ..keeping.views import Row, Since, spending
from ..keeping.views import views as kept_views
from ..messages import own_refusals, ruleset_text
from ..models import Character, Event
from ..rules.kinds import CONSOLE_FORM
from ..rules.wire import settings_to_wire, sheet_to_wire, state_to_wire
from ..services.events import event_settings, status_catalogue
from .words import ruleset_words


def badge_hash(event_id: int, presented: str) -> str:
    """The hash a phone looks a badge up by: of its secret, or of its short code as stored.

    The phone computes the same from what it reads (static/js/lib/roster.js).
    """
    return salted_badge_hash(event_id, tokens.digest(presented))


@lru_cache(maxsize=65_536)
def salted_badge_hash(event_id: int, digest: str) -> str:
    """``badge_hash`` from the digest the server keeps (it may hold no secret in clear)."""
    return hashlib.sha256(f"larp_app:{event_id}:{digest}".encode()).hexdigest()


def in_language(texts: dict, locale: str, fallback: str) -> str:
    """A text in the UI language, else in the ruleset's own language, else any."""
    texts = {k: v for k, v in texts.items() if isinstance(v, str)}
    return texts.get(locale) or texts.get(fallback) or next(iter(texts.values()), "")


def original_and_translation(
    texts: Mapping[str, Any] | None, original: str, locale: str
) -> list[tuple[str, str]]:
    """A rule text as [(language, text)]: in the ruleset's own language (``original``), then
    translated into ``locale`` when that differs and there is a translation."""
    texts = {k: v for k, v in (texts or {}).items() if isinstance(v, str) and v}
    if not texts:
        return []
    source = original if original in texts else next(iter(texts))
    shown = [(source, texts[source])]
    if locale in texts and texts[locale] != texts[source]:
        shown.append((locale, texts[locale]))
    return shown


def _rules(event: Event, locale: str) -> list[dict]:
    """The rules the ruleset's larp sheets recall, as the console recalls them: each key, its
    ``wounds`` or ``action`` (where it shows), and its ``text`` as [language, text] pairs,
    the original first."""
    ruleset = rules.get_ruleset(event.ruleset)
    both = original_and_translation
    return [
        {
            "key": rule["key"],
            "wounds": list(rule.get("wounds", ())),
            "action": rule.get("action"),
            "text": [list(p) for p in both(rule["text"], ruleset.language, locale)],
        }
        for rule in ruleset.sheet_rules
        if rule.get("wounds") or rule.get("action")  # the others are recalled on paper only
    ]


def _statuses(event: Event, locale: str) -> list[dict]:
    """The catalogue as the status picker shows it: name in the UI language, default time."""
    fallback = rules.get_ruleset(event.ruleset).language
    settings = event_settings(event)
    return [
        {
            "key": status.key,
            "name": in_language(status.texts.get("name", {}), locale, fallback) or status.key,
            "seconds": None if status.turns is None else status.turns * settings.turn_seconds,
        }
        for status in status_catalogue(event).values()
    ]


def _checks(event: Event, locale: str) -> list[dict]:
    """The catalogue entries with a random check the app rolls on demand (a condition's check).

    Each: key, name, die; a d100 ``table`` of rows {from, to, text} (and a ``note``), or
    ``fails_at_or_below`` with ``text``, what a failure means. Texts in the UI language, else
    in the ruleset's own.
    """
    fallback = rules.get_ruleset(event.ruleset).language
    checks = []
    for status in status_catalogue(event).values():
        check = status.texts.get("check")
        if not isinstance(check, dict):
            continue
        item = {
            "key": status.key,
            "name": in_language(status.texts.get("name", {}), locale, fallback) or status.key,
            "die": check.get("die", "d100"),
        }
        if "table" in check:
            item["table"] = [
                {"from": row["from"], "to": row["to"], "text": in_language(row, locale, fallback)}
                for row in check["table"]
            ]
            item["note"] = in_language(check.get("note") or {}, locale, fallback)
        else:
            item["fails_at_or_below"] = check.get("fails_at_or_below")
            item["text"] = in_language(
                {k: v for k, v in check.items() if k != "die"}, locale, fallback
            )
        checks.append(item)
    return checks


def event_kit(event: Event, locale: str) -> dict[str, Any]:
    """An event as the phone keeps it: its settings, and its words in ``locale`` (the page's
    language) at the top and in every language under ``languages``, so that a phone whose
    referee switches language with no network still speaks the new one (lib/language.js);
    ``kit``, a digest of it all, tells a phone holding it that it has not changed."""
    return dict(_kept_kit(*_kit_key(event, locale))[0])


def kit_text(event: Event, locale: str, held: frozenset[str] = frozenset()) -> str:
    """``event_kit`` as JSON text; only its id and digest when the phone holds it
    (``held``: the digests of the kits it holds)."""
    _kit, digest, text = _kept_kit(*_kit_key(event, locale))
    return f'{{"id":{event.id},"kit":"{digest}"}}' if digest in held else text


def _kit_key(event: Event, locale: str) -> tuple:
    languages = tuple(current_app.config["LANGUAGES"])
    return event.id, event.name, event.ruleset, settings_key(event), locale, languages


@lru_cache(maxsize=256)
def _kept_kit(
    event_id: int, name: str, ruleset: str, settings: str, locale: str, languages: tuple
) -> tuple[dict[str, Any], str, str]:
    """The kit, its digest and its JSON text, made once for what it is made of: the event's
    name, rule system, settings (its tables, its catalogue) and the language (the app's
    words change only with its code)."""
    event = Event(id=event_id, name=name, ruleset=ruleset, settings=json.loads(settings))
    settings_read = event_settings(event)
    kit = {
        "id": event_id,
        "name": name,
        "ruleset": ruleset,
        "turn_seconds": settings_read.turn_seconds,
        "saves": settings_read.saves,
        "roster_max_age_minutes": settings_read.roster_max_age_minutes,
        **_worded(event, locale),
        "languages": {language: _worded(event, language) for language in languages},
        "own_kinds": [kind.key for kind in rules.get_ruleset(ruleset).entry_kinds],
        # What the console offers: only kinds the rule system's fold applies (no coup de
        # grâce where it has none).
        "handled_kinds": sorted(rules.kinds_handled(rules.get_ruleset(ruleset))),
        # What the phone's fold reads (static/js/lib/fold.js): settings and catalogue.
        "fold": settings_to_wire(settings_read, status_catalogue(event)),
    }
    text = json.dumps(kit, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    kit["kit"] = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
    return kit, kit["kit"], current_app.json.dumps(kit)


def _worded(event: Event, locale: str) -> dict[str, Any]:
    """What of an event's kit is said in words, in ``locale``."""
    return {
        "statuses": _statuses(event, locale),
        "checks": _checks(event, locale),
        "rules": _rules(event, locale),
        "kinds": _console_kinds(event, locale),
        # The damage types a hit may name, in words.
        "damage_types": _damage_types(event, locale),
        # Its own refusal codes in its words (the app's are the console page's).
        "refusals": own_refusals(event.ruleset, locale),
        # The rule system's words: its quantities, wound levels and own levels, the figures
        # it shows (larp_app.rules.vocabulary); the console shows only the quantities it
        # tracks.
        "words": ruleset_words(event.ruleset, locale),
    }


def _damage_types(event: Event, locale: str) -> list[dict[str, str]]:
    """The damage types a hit may name at the event's rule system (physical first), each key
    and name in the UI language; none where it tells none apart."""
    ruleset = rules.get_ruleset(event.ruleset)
    return [
        {"key": key, "name": in_language(dict(words), locale, ruleset.language) or key}
        for key, words in ruleset.damage_types.items()
    ]


def _console_kinds(event: Event, locale: str) -> list[dict]:
    """The rule system's own kinds the console offers as a form: key, label and fields (each
    name, JSON type, required, and its label), in the UI language."""
    ruleset = rules.get_ruleset(event.ruleset)
    return [
        {
            "key": kind.key,
            "label": _own_words(ruleset, kind.label, locale),
            "fields": [
                {
                    "name": f.name,
                    "type": f.type,
                    "required": f.required,
                    "label": _own_words(ruleset, kind.field_labels.get(f.name, f.name), locale),
                }
                for f in kind.fields()
            ],
        }
        for kind in ruleset.entry_kinds
        if kind.console == CONSOLE_FORM
    ]


def _own_words(ruleset: rules.Ruleset, label: str | Mapping[str, str], locale: str) -> str:
    """A rule system's declared word in ``locale``: a message id through its catalogue (the
    app's when it ships none), or its own ``{language: text}``."""
    with force_locale(locale):
        return ruleset_text(ruleset, label)


def character_kit(character: Character, at: datetime) -> dict[str, Any]:
    """One character as the phone keeps it (the console's page, rendered for it)."""
    snapshot = state_of(character, at)
    state = snapshot.to_dict()
    del state["at"]  # so that an unchanged roster keeps its ETag
    state["fold"] = state_to_wire(snapshot.state)  # the phone's fold goes on from here
    return {
        "id": character.id,
        "event_id": character.event_id,
        "name": character.name,
        "player": character.player,
        "faction": character.faction,
        "advancements": spending(character.larp),
        "sheet": sheet_to_wire(snapshot.sheet),
        "state": state,
    }


def row_kit(row: Row, event_id: int) -> dict[str, Any]:
    return {
        "id": row.id,
        "event_id": event_id,
        "name": row.name,
        "player": row.player,
        "faction": row.faction,
        # Spending lists what costs energy; passive or free advancements need no entry.
        "advancements": row.advancements,
        "sheet": row.record.wire_sheet,
        # Without its instant (it changes only with the state); with its inner values, from
        # which the phone's fold goes on offline.
        "state": {**row.record.state_json, "fold": row.record.fold_json},
    }


def row_json(row: Row, event_id: int) -> str:
    """``row_kit`` as JSON text, kept with the row's record until its state changes (a
    whole roster of thousands of characters is mostly these lines, written once)."""
    record = row.record
    if record.roster_json is None:
        record.roster_json = current_app.json.dumps(row_kit(row, event_id))
    return record.roster_json


def roster_text(data: dict[str, Any]) -> str:
    """A roster from ``phone_roster`` as JSON text, as ``json.dumps`` writes its keys in
    order: its events and characters are JSON text already, and its badges too (each
    ``"hash": id``, by hash)."""
    dumps = current_app.json.dumps
    badges = data["badges"]
    head = ", ".join(
        f'"{key}": ' + ("{" + ", ".join(badges[h] for h in sorted(badges)) + "}")
        if key == "badges"
        else f"{dumps(key)}: {dumps(data[key])}"
        for key in sorted(data)
        if key not in ("events", "characters")
    )
    events, characters = ",".join(data["events"]), ",".join(data["characters"])
    return f'{{{head},"events":[{events}],"characters":[{characters}]}}'


def read_roster_token(text: str | None) -> dict[int, Since] | None:
    if not text:
        return None
    held = {}
    for part in text.split(","):
        event_id, _, since = part.partition(":")
        parsed = Since.read(since)
        if not event_id.isdigit() or parsed is None:
            return None
        held[int(event_id)] = parsed
    return held


def phone_roster(
    locale: str,
    at: datetime,
    since: str | None = None,
    event_ids: list[int] | None = None,
    kits: frozenset[str] = frozenset(),
) -> tuple[str, dict[str, Any] | None]:
    """The open events (``event_ids``, else every one), their characters still in play and
    active badges, as a referee's phone keeps them offline; and the roster's version. An
    archived event is read-only: none of it goes to the phones; nor does a withdrawn
    character, whose badges a delta lists as revoked.

    With ``since`` (a version the phone holds) only what changed after it: the characters
    whose state or badge changed, their badges (``revoked``: the hashes to forget), the
    ids of those withdrawn since (``withdrawn``: to forget), and the events' kits (each
    only as its id and digest where ``kits`` names it: the phone holds it). None when
    nothing changed at all. The events and characters are JSON text (``kit_text``,
    ``row_json``): ``roster_text`` writes the whole.
    """
    query = select(Event).where(Event.archived_at.is_(None)).order_by(Event.id)
    if event_ids is not None:
        query = query.where(Event.id.in_(event_ids))
    events = db.session.scalars(query).all()
    kept = kept_views()
    views = [kept.view(e, at) for e in events]
    # The version names the language: the events' kits are in it, and a phone whose referee
    # changed language gets them whole again in the new one.
    token = tags.roster_version(locale, [(v.event_id, v.token()) for v in views])
    held_locale, _, held_since = (since or "").rpartition("|")
    held = read_roster_token(held_since) if held_locale == locale else None
    if held is not None and set(held) == {e.id for e in events}:
        if all(v.unchanged(held[e.id], e.version) for e, v in zip(events, views, strict=True)):
            return token, None
    else:
        held = None
    changed = [
        (row, view.event_id)
        for view in views
        for row in view.since(held.get(view.event_id) if held else None)
    ]
    return token, {
        "version": token,
        "full": held is None,
        "events": [kit_text(e, locale, frozenset() if held is None else kits) for e in events],
        "characters": [row_json(row, event_id) for row, event_id in changed if not row.withdrawn],
        # A delta names the characters withdrawn since: the phone forgets them (its search
        # would list a withdrawn one beside the one that took its place).
        "withdrawn": [] if held is None else [row.id for row, _ in changed if row.withdrawn],
        **_badges(changed, whole=held is None),
    }


def _badges(rows: list[tuple[Row, int]], whole: bool) -> dict[str, Any]:
    """The active badges' hashes of these rows (kept by the view, keeping/views.py), each
    with its line of the roster's ``badges`` (``roster_text``); for a delta (not ``whole``),
    the revoked ones' to forget, a withdrawn character's too."""
    active: dict[str, str] = {}
    revoked: list[str] = []
    for row, event_id in rows:
        lines, gone = badge_lines(row, event_id)
        active.update(lines)
        if not whole:
            revoked += gone
    return {"badges": active, "revoked": revoked}


def badge_lines(row: Row, event_id: int) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """The row's usable badges as (hash, its ``"hash": id`` line), and its other badges'
    hashes (all of them for a withdrawn character); found once a row (a new one is placed at
    every change of its character, its badges' included)."""
    kept = row.roster_badges
    if kept is None:
        usable, other = [], []
        for digest, active in row.badges:
            salted = salted_badge_hash(event_id, digest)
            if active and not row.withdrawn:
                usable.append((salted, f'"{salted}": {row.id}'))
            else:
                other.append(salted)
        kept = row.roster_badges = (tuple(usable), tuple(other))
    return kept
