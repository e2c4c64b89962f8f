"""What the engine knows of a rule system: one interface, filled in by each rule-system package.

A rule system is a package (``larp_app.rulesets.<name>`` in the project, or a pip package of its
own) that exposes a ``RULESET`` of this class; ``registry`` finds them."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .problems import Checker
from .schema import SheetSchema
from .tables import TableParser, TableSet
from .vocabulary import NEUTRAL, Vocabulary

if TYPE_CHECKING:
    from .kinds import EntryKind
    from .sheet import LarpSheet
    from .state import State

SheetReader = Callable[[Any, TableSet, Checker], "LarpSheet | None"]
Handler = Callable[..., "State"]


@dataclass(frozen=True)
class RuleCorrection:
    """A rule now applied as written: what changed (``words``, {language: text}), the
    handlers of the kinds of entry as they were before (``before``), and which characters it
    can concern (``concerns(sheet, settings)``: the others are not folded again)."""

    key: str
    words: Mapping[str, str]
    before: Mapping[str, Callable[..., Any]]
    # (sheet, the event's settings) -> whether it may change that character's outcome
    concerns: Callable[[LarpSheet, Any], bool] = lambda sheet, settings: True


@dataclass(frozen=True)
class Ruleset:
    """What makes a rule system: its tables, how its sheets convert, how wounds work."""

    key: str
    language: str
    tables: Mapping[str, TableParser]
    read_sheet: SheetReader
    tabletop_values: Callable[[Mapping[str, Any], TableSet], dict[str, Any]]
    wound_handlers: Mapping[str, Handler]  # entry kind -> handler(state, entry, ctx)
    wound: Callable[..., str]  # (state, ctx) -> ok | grievous | dying | dead
    # What time does to wounds (a countdown, saves each turn): state and instant -> state;
    # it may set died_at (never after the instant), and leaves energy and statuses alone.
    advance_wounds: Callable[..., State]
    # What a revive does to the wound track, after the points and death are reset.
    revived: Callable[..., State] = lambda state, ctx: state
    catalogue: str = "statuses"  # the table of statuses (conditions) referees apply
    turn_seconds: float = 1  # a new event's turn, unless its organiser sets another
    # Ruleset-specific figures added to the state's JSON (thresholds, next save...).
    describe: Callable[..., dict[str, Any]] = lambda state, ctx: {}
    # The next instant at which advance_wounds would change the state (a countdown's end, the
    # next save), or None: (state, ctx) -> datetime | None.
    next_wound_change: Callable[..., Any] = lambda state, ctx: state.death_at
    # Rules every larp sheet recalls, each {key, text: {language: text}} in the ruleset's own
    # language and translated; the console recalls one in its header while the wound is one
    # of its ``wounds``, or beside the action named ``action``.
    sheet_rules: tuple[Mapping[str, Any], ...] = ()
    # Its own kinds of log entry, declared once (larp_app.rules.kinds.EntryKind): the fold
    # gives each to its handler in ``wound_handlers``; other rule systems refuse them by name.
    entry_kinds: tuple[EntryKind, ...] = ()
    # The tables the event's settings form edits, read from the form's fields (name -> text)
    # over the shipped tables: (form, shipped) -> {table name: table}. The fields themselves are
    # the package's template ``settings.html``.
    form_tables: Callable[[Mapping[str, str], Mapping[str, Any]], dict[str, Any]] = (
        lambda form, shipped: {}
    )
    # The package's folder: data/ (its shipped tables), templates/ (found by the web app as
    # ``rulesets/<key>/...``: its larp-sheet partial, its settings fields), static/ (served at
    # /rulesets/<key>/static/...). None for a rule system that ships none of them.
    package_dir: Path | None = None
    # The larp sheet's details its phone fold (static/fold.js) reads, sent to phones with the
    # sheet's maxima; None: every detail.
    fold_details: tuple[str, ...] | None = None
    # The damage types a hit may name, each with its words ({language: text}): physical (every
    # blow's, unless its hit names another) and the others the rule system tells apart; none
    # when it tells none apart (larp_app/rules/README.md, "Damage types").
    damage_types: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # Whether ending a session dying (or in a status its catalogue marks
    # ``deadly_at_end_of_session``) with no healer is death: the organiser then decides each
    # such character when closing a session. The rule system's own declaration.
    end_of_session_is_death: bool = False
    # Its tabletop sheet as a JSON Schema document with labels and spreadsheet columns in each
    # language (larp_app.rules.schema): imports, the CSV template, the edit form and the names
    # of fields in messages are derived from it. None: sheets only as JSON, edited as text.
    sheet_schema: Mapping[str, Any] | None = None
    # What a break of the armour (the optional rule) leaves of the larp sheet's armour points,
    # by where they come from: (sheet) -> ({"source": name, "points": n}, ...). None left: the
    # break takes every point. The console says what a break did and what stays.
    armour_kept: Callable[[LarpSheet], tuple[Mapping[str, Any], ...]] = lambda sheet: ()
    # The words of its own refusal codes (RuleError) and problem codes (Checker), which live
    # under its key: each code's sentence as {language: text}, as a message id its package's
    # catalogues translate (``translations/<language>/LC_MESSAGES/messages.mo``), or as
    # (params, language) -> either, for a sentence worded by a count. ``{name}``: a parameter.
    refusals: Mapping[str, Any] = field(default_factory=dict)
    problems: Mapping[str, Any] = field(default_factory=dict)
    # Its words (larp_app.rules.vocabulary): every screen, export and printed sheet names its
    # quantities, wound levels and derived values so. None: the host's neutral words.
    vocabulary: Vocabulary | None = None
    # The shared event settings it reads (of larp_app.rules.settings.OPTIONS): the
    # settings form offers only these, beside its own fields (its ``settings.html``).
    settings_offered: tuple[str, ...] = ()
    # Its rules once applied otherwise than as written, now as written
    # (larp_app.rules.corrections): the stored characters whose outcome one changes are
    # listed for the organiser to review.
    corrections: tuple[RuleCorrection, ...] = ()

    def words(self) -> Vocabulary:
        """Its vocabulary, or the host's neutral words when it declares none."""
        return self.vocabulary or NEUTRAL

    def schema(self) -> SheetSchema | None:
        """The sheet schema, read once."""
        if self.sheet_schema is None:
            return None
        return _read_schema(self.key, self.language, id(self.sheet_schema), self.sheet_schema)

    def shipped_table(self, name: str) -> Any:
        """A fresh copy of the table ``name`` shipped in the package's data/ folder."""
        if self.package_dir is None:
            raise KeyError(name)
        return json.loads(_read_text(self.package_dir / "data" / f"{name}.json"))

    def templates_dir(self) -> Path | None:
        folder = self.package_dir / "templates" if self.package_dir else None
        return folder if folder and folder.is_dir() else None

    def static_dir(self) -> Path | None:
        folder = self.package_dir / "static" if self.package_dir else None
        return folder if folder and folder.is_dir() else None


_schemas: dict[tuple[str, str, int], SheetSchema] = {}


def _read_schema(key: str, language: str, ident: int, document: Mapping[str, Any]) -> SheetSchema:
    found = _schemas.get((key, language, ident))
    if found is None or found.document is not document:
        found = _schemas[(key, language, ident)] = SheetSchema(document, language)
    return found


@cache
def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")
