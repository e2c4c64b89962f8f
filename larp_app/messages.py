"""Sentences for the engine's problem and refusal codes (the engine itself speaks in codes).

The codes every rule system shares are worded here; a rule system words its own in its package
(``Ruleset.refusals``, ``Ruleset.problems``), in each language it speaks, or as message ids its
own catalogues translate (``<package>/translations/<language>/LC_MESSAGES/messages.mo``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.support import NullTranslations, Translations
from flask import has_request_context
from flask_babel import force_locale, get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from . import rules
from .rules import Problem
from .rules.entries import PHYSICAL

PROBLEMS = {
    "required": _l("is required"),
    "not_text": _l("must be text"),
    "not_unicode": _l("must be valid Unicode text"),
    "control_character": _l("must not hold control characters"),
    "not_int": _l("must be a whole number, got {got}"),
    "not_number": _l("must be a number, got {got}"),
    "not_bool": _l("must be true or false, got {got}"),
    "not_object": _l("must be an object"),
    "not_list": _l("must be a list"),
    "not_uuid": _l("must be a UUID, got {got}"),
    "not_ip": _l("must be an IP address, got {got}"),
    "not_private": _l(
        "must be a private address (the venue's authority signs for no public one), got {got}"
    ),
    "not_instant": _l("must be an ISO-8601 date and time, got {got}"),
    "no_zone": _l("must say its time zone (Z for UTC, or an offset such as +01:00), got {got}"),
    "not_json": _l("is not valid JSON: {detail}"),
    "too_long": _l("must be at most {max} characters, got {got}"),
    "too_many": _l("must hold at most {max} items, got {got}"),
    "not_allowed": _l("must be one of {allowed}, got {got}"),
    "ignored_field": _l("is not a known field (ignored)"),
    "not_a_field": _l("is not a field of a “{kind}” entry: did you mean `{nearest}`?"),
    "not_a_field_of": _l("is not a field of a “{kind}” entry, whose fields are: {allowed}"),
    "no_fields": _l("is not a field: a “{kind}” entry has no fields of its own"),
    "not_a_sheet_field": _l("is not a field of “{part}”: did you mean {nearest}?"),
    "not_a_sheet_field_of": _l("is not a field of “{part}”, whose fields are: {allowed}"),
    "ignored_sheet_field": _l(
        "is not a field of “{part}”: stored so before, it is kept but never read"
    ),
    "unknown_field": _l("is not a known field (known: {allowed})"),
    "unknown_field_near": _l("is not a known field: did you mean `{nearest}`?"),
    "no_query": _l("is not asked of this address: it takes no query parameters"),
    "unknown_ruleset": _l("unknown ruleset {got} (known: {allowed})"),
    "unknown_table": _l("is not a table of this ruleset (known: {allowed})"),
    "ruleset_mismatch": _l("must be {expected}, got {got}"),
    "duplicate": _l("appears twice: {got}"),
    "kind_of_several": _l(
        "{got} is a kind of entry of several rule systems ({allowed}): read it for a character"
    ),
    "unknown_column": _l("is not a column of the template, whose columns are: {allowed}"),
    "short_row": _l(
        "the row has {got} cells where the header has {columns}: none for {missing}. A "
        "separator left out shifts every cell after it one column to the left: check the row"
    ),
    "not_utf8": _l('cannot be read: save it as "CSV UTF-8" and upload it again'),
    "no_csv_format": _l("is a spreadsheet, but this rule system reads only JSON sheets"),
    "csv_separator": _l("cannot hold the characters | or : in a CSV cell"),
    "not_csv": _l("is not a readable CSV file: {detail}"),
    "not_found": _l("{got} does not exist"),
    "taken": _l("{got} is already taken"),
    "too_short": _l("must be at least {min} characters"),
    "wrong_password": _l("is not your current password"),
    "in_future": _l("is in the future: {got}"),
    "too_old": _l("is more than 24 hours ago: {got}"),
    "not_dead_character": _l("{got} is not one of the event's dead characters"),
    "archived": _l("the event is archived: it can be read, not changed"),
}

REFUSALS = {
    "not_your_event": _l(
        "you do not work the event {event}: an organiser assigns referees to events"
    ),
    "dead": _l("the character is dead"),
    "not_dying": _l("only a dying character can be given the coup de grâce"),
    "not_dead": _l("only a dead character can be revived"),
    "not_enough_energy": _l("needs {needs} energy, has {has}"),
    "no_energy": _l("the character has no energy"),
    "no_armour": _l("the character has no armour"),
    "armour_destroyed": _l("the armour is destroyed: only a full repair (replacement) restores it"),
    "unknown_status": _l("{key} is not in the status catalogue"),
    "status_not_active": _l("{key} is not active"),
    "unknown_advancement": _l("{advancement} is not one of the character's advancements"),
    "wrong_cost": _l("{advancement} costs {cost} energy, not {got}"),
    "not_in_ruleset": _l("this event's rule system has no {kind} entries"),
    "unknown_damage_type": _l("{type} is not a damage type of this rule system ({allowed})"),
    "unknown_target": _l("there is no earlier entry {target} to undo"),
    "cannot_undo_undo": _l("an undo cannot be undone"),
    "already_undone": _l("entry {target} is already undone"),
    "undo_not_allowed": _l("referees undo only their own entries of the last {minutes} minutes"),
    "only_organisers": _l("only organisers may revive"),
    "id_reused": _l(
        "this entry's id {id} was already used for another entry: stored {stored}; sent {sent}"
    ),
    "not_acceptable": _l("only an entry refused for its age can be accepted"),
    "too_old": _l("dated {got}, more than {hours} hours ago: an organiser may accept it"),
    "unknown": _l("no badge has this code"),
    "revoked": _l("this badge was replaced by a new one: ask for the new card"),
    "other_event": _l("this badge belongs to another event"),
    "bad_short_code": _l("this code has a typo: check each character"),
    "withdrawn": _l("this character was withdrawn from the event"),
    "event_archived": _l("the event is archived: nothing more can be logged"),
    "dead_left_out": _l(
        "this character died at an earlier event, and the dead are not carried over to the "
        "next one: the badge opens nothing now"
    ),
    "fair_share": _l(
        "costly reads (whole rosters, exports, the report) come one at a time for each "
        "account, and one that keeps asking for them takes its turn: try again in {seconds} s"
    ),
    "server_busy": _l("the server is busy with other costly reads: try again in {seconds} s"),
    "not_the_author": _l(
        "logged by {author}: only {author}, logged in, sends it (it waits on the phone)"
    ),
    "archived_out_of_reach": _l(
        "the event {event} is archived: it is off the referees' phones, only organisers read it"
    ),
    "character_withdrawn": _l("the character was withdrawn from the event"),
    "too_many": _l("too many codes refused in a minute: wait a minute and try again"),
}


def _render(template: Any, params: dict[str, Any]) -> str:
    if callable(template):  # a message with a plural: it picks its form from the params
        template = template(params)
    shown = {k: _shown(v) for k, v in params.items()}
    if "min" in template or "max" in template:
        shown.setdefault("min", "")
        shown.setdefault("max", "")
    return str(template).format(**shown)


def _shown(value: Any) -> Any:
    """A parameter as a sentence shows it: lists joined, objects as ``key value`` pairs."""
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    if isinstance(value, dict):
        return "(" + ", ".join(f"{k} {v}" for k, v in value.items()) + ")"
    return value


def _range(params: dict[str, Any]) -> str:
    lo, hi, got = params.get("min"), params.get("max"), params.get("got")
    if lo is not None and hi is not None:
        return str(_l("must be {min}–{max}, got {got}")).format(min=lo, max=hi, got=got)
    if lo is not None:
        return str(_l("must be ≥ {min}, got {got}")).format(min=lo, got=got)
    return str(_l("must be ≤ {max}, got {got}")).format(max=hi, got=got)


def problem_words(problem: Problem, ruleset: str | None = None) -> str:
    """What is wrong, without naming the field: ``must be 8–22, got 25``."""
    if problem.code == "out_of_range":
        return _range(problem.params)
    params, code = problem.params, problem.code
    if code in ENTRY_FIELDS and isinstance(params.get("kind"), str):
        params = {**params, "kind": kind_label(params["kind"], ruleset)}
    if code in SHEET_FIELDS:
        params = _sheet_part_words(params, ruleset)
        if code == "not_a_sheet_field" and "nearest" not in params:
            code = "not_a_sheet_field_of"
    return _render(_template("problems", PROBLEMS, code, ruleset), params)


ENTRY_FIELDS = ("not_a_field", "not_a_field_of", "no_fields")  # problems naming an entry's kind
SHEET_FIELDS = ("not_a_sheet_field", "ignored_sheet_field")  # naming a part of a sheet


def _sheet_part_words(params: dict[str, Any], ruleset: str | None) -> dict[str, Any]:
    """The part of the sheet a field is not a field of, and the nearest field that is, as the
    reader's language names them (the rule system's sheet schema): «Armatura», Peso
    (`weight`)."""
    key = params.get("ruleset") or ruleset
    schema = rules.get_ruleset(key).schema() if key in rules.ruleset_keys() else None
    locale = str(get_locale()) if has_request_context() else "en"
    part = params.get("part") or ""
    if schema is None:
        part_words = part or str(_l("the sheet"))
    elif part:
        part_words = schema.path_label(part, locale) or part
    else:
        labels = schema.document.get("x-labels") or {}
        part_words = labels.get(locale) or schema.document.get("title") or str(_l("the sheet"))
    worded = {**params, "part": part_words}
    near = params.get("nearest")
    if near is not None:
        named = schema.path_label(f"{part}.{near}" if part else near, locale) if schema else None
        worded["nearest"] = f"{named.split(' · ')[-1]} (`{near}`)" if named else f"`{near}`"
    if isinstance(params.get("allowed"), list):
        worded["allowed"] = ", ".join(f"`{name}`" for name in params["allowed"])
    return worded


def problem_message(problem: Problem, field: str | None = None, ruleset: str | None = None) -> str:
    """``attributes.body: must be 8–22, got 25``, or the field as ``field`` names it."""
    return f"{problem.path if field is None else field}: {problem_words(problem, ruleset)}"


def refusal_message(code: str, params: dict[str, Any], ruleset: str | None = None) -> str:
    """``needs 2 energy, has 1``: a refusal of (a character of) ``ruleset`` in its words."""
    return _render(refusal_template(code, ruleset), _worded(params, ruleset))


def _worded(params: dict[str, Any], ruleset: str | None) -> dict[str, Any]:
    """Parameters that name a kind of entry or damage types, in words: a refusal never shows
    a key ("the rule system has no rolls of the dice", not "... no dice entries"). A value
    nothing declares (the sender's own text) stays as it was sent."""
    worded = dict(params)
    if isinstance(params.get("kind"), str):
        worded["kind"] = kind_label(params["kind"])
    if isinstance(params.get("allowed"), list) and "type" in params:  # damage types
        own = rules.get_ruleset(ruleset) if ruleset in rules.ruleset_keys() else None
        worded["allowed"] = [_damage_label(own, kind) for kind in params["allowed"]]
    return worded


def kind_owner(declared: rules.EntryKind) -> rules.Ruleset | None:
    """The rule system that declares a kind, whose words it speaks (None: a shared kind)."""
    return next((r for r in rules.rulesets() if declared in r.entry_kinds), None)


def kind_label(kind: str, ruleset: str | None = None) -> str:
    """A kind of entry in the reader's words, the kind of ``ruleset`` (a kind of the same name
    is another rule system's other kind; None: the first rule system, by key, that declares
    it); the key itself for a kind nothing declares (the sender's own text)."""
    declared = rules.entry_kind(kind, ruleset)
    if declared is None:
        return kind
    owner = kind_owner(declared)
    if owner is not None:
        return ruleset_text(owner, declared.label)
    if isinstance(declared.label, str):
        return _(declared.label)
    locale = str(get_locale())
    return (
        declared.label.get(locale)
        or declared.label.get("en")
        or next(iter(declared.label.values()), "")
    )


def _damage_label(ruleset: rules.Ruleset | None, kind: str) -> str:
    """A damage type in the reader's words: the rule system's, else the physical blow's."""
    if ruleset is not None and kind in ruleset.damage_types:
        return ruleset_text(ruleset, ruleset.damage_types[kind])
    return _("physical") if kind == PHYSICAL else kind


def refusal_template(code: str, ruleset: str | None = None) -> Any:
    """The sentence of a refusal code, its parameters unfilled (``needs {needs} energy``)."""
    return _template("refusals", REFUSALS, code, ruleset)


def refusal_templates(ruleset: str | None) -> dict[str, str]:
    """Every refusal code's sentence for a character of ``ruleset`` (of any rule system when
    None, each code in the words of the first rule system, by key, that declares it)."""
    found = {code: str(text) for code, text in REFUSALS.items()}
    for known in reversed(rules.rulesets()) if ruleset is None else [rules.get_ruleset(ruleset)]:
        found.update(
            (code, str(_own_text(known, words, {}))) for code, words in known.refusals.items()
        )
    return found


def own_refusals(ruleset: str, locale: str) -> dict[str, str]:
    """The rule system's own refusal codes' sentences in ``locale`` (parameters unfilled)."""
    known = rules.get_ruleset(ruleset)
    with force_locale(locale):
        return {code: str(_own_text(known, words, {})) for code, words in known.refusals.items()}


def _template(table: str, shared: Mapping[str, Any], code: str, ruleset: str | None) -> Any:
    """A code's sentence: the rule system's own (a code lives under its key), else the app's,
    else that of another rule system that declares it (a caller that knows no rule system)."""
    known = {r.key: r for r in rules.rulesets()}
    own = known.get(ruleset) if ruleset else None
    if own is not None and code in getattr(own, table):
        return _Own(own, getattr(own, table)[code])
    if code in shared:
        return shared[code]
    for other in known.values():
        if code in getattr(other, table):
            return _Own(other, getattr(other, table)[code])
    return code


class _Own:
    """A rule system's words for a code, worded once its parameters are known (a plural)."""

    def __init__(self, ruleset: rules.Ruleset, words: Any):
        self.ruleset, self.words = ruleset, words

    def __call__(self, params: dict[str, Any]) -> str:
        return _own_text(self.ruleset, self.words, params)


def _own_text(ruleset: rules.Ruleset, words: Any, params: dict[str, Any]) -> str:
    if callable(words):  # worded by a count: (params, language) -> the words' form
        words = words(params, _language(ruleset))
    return ruleset_text(ruleset, words)


def ruleset_text(ruleset: rules.Ruleset, words: str | Mapping[str, str]) -> str:
    """A rule system's words in the reader's language: ``{language: text}`` (its own language,
    then English, when the reader's is missing), or a message id its own catalogue translates
    (the app's when the package ships none for it)."""
    language = _language(ruleset)
    if isinstance(words, Mapping):
        return (
            words.get(language)
            or words.get(ruleset.language)
            or words.get("en")
            or next(iter(words.values()), "")
        )
    catalogue = plugin_catalogue(ruleset.package_dir, language)
    translated = catalogue.ugettext(words)
    return translated if translated != words or isinstance(catalogue, Translations) else _(words)


def _language(ruleset: rules.Ruleset) -> str:
    return str(get_locale()) if has_request_context() else ruleset.language


@cache
def plugin_catalogue(package: Path | None, language: str) -> NullTranslations:
    """The gettext catalogue a rule system's package ships for ``language`` (its folder
    ``translations/<language>/LC_MESSAGES/messages.mo``); none: an empty one."""
    folder = None if package is None else package / "translations"
    if folder is None or not folder.is_dir():
        return NullTranslations()
    return Translations.load(str(folder), [language], domain="messages")


def badge_labels() -> dict[str, str]:
    """The words printed on badges, in the current language."""
    return {
        "your_status": str(_l("Your status")),
        "hit_points": str(_l("Hit points")),
        "armour": str(_l("Armour")),
        "energy": str(_l("Energy")),
        "every_minutes": str(_l("1 every {minutes} min")),
        "code": str(_l("Code")),
    }
