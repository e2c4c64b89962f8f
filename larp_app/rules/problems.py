"""Problems found in input, and refusals of log entries: codes and data, never sentences."""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .clean import bad_text


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong (or worth a warning) at a field path such as ``attributes.body``."""

    path: str
    code: str
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.path, "code": self.code, **self.params}


class InvalidInput(ValueError):
    """Raised with every problem at once when a sheet, a log or settings cannot be used."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(f"{p.path}: {p.code}" for p in problems))
        self.problems = problems


class RuleError(Exception):
    """An entry that the state at its instant does not allow, e.g. ``not_enough_energy``."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code, params)
        self.code = code
        self.params = params


class Checker:
    """Collect errors and warnings while reading plain data, naming each field's path."""

    def __init__(self, stored: Any = None) -> None:
        self.errors: list[Problem] = []
        self.warnings: list[Problem] = []
        # The data as stored before, if it was (a sheet read again): a field no declaration
        # names that it already held is warned of, as it was when stored, not refused.
        self.stored = stored

    def error(self, path: str, code: str, **params: Any) -> None:
        self.errors.append(Problem(path, code, params))

    def warn(self, path: str, code: str, **params: Any) -> None:
        self.warnings.append(Problem(path, code, params))

    def raise_if_errors(self) -> None:
        if self.errors:
            raise InvalidInput(self.errors)

    # Readers: each returns the value, or None after recording why it is unusable.

    def text(self, data: dict, key: str, path: str, *, required=True, max_len=120, multiline=False):
        """Text of at most ``max_len`` characters; control characters only as line breaks
        and tabs, and only in ``multiline`` text."""
        value = data.get(key)
        if value is None or (isinstance(value, str) and not value.strip() and not required):
            if required:
                self.error(path, "required")
            return None
        if not isinstance(value, str):
            self.error(path, "not_text")
            return None
        if len(value) > max_len * 2 + 100:  # long before stripping: refused unread
            self.error(path, "too_long", max=max_len, got=len(value))
            return None
        wrong = bad_text(value, multiline=multiline)
        if wrong:
            self.error(path, wrong)
            return None
        value = value.strip()
        if required and not value:
            self.error(path, "required")
            return None
        if len(value) > max_len:
            self.error(path, "too_long", max=max_len, got=len(value))
            return None
        return value

    def integer(
        self,
        data: dict,
        key: str,
        path: str,
        *,
        lo=None,
        hi=None,
        required=True,
        default=None,
        nullable=False,
    ):
        if key not in data or (data[key] is None and not nullable):
            if required:
                self.error(path, "required")
            return default
        value = data[key]
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path, "not_int", got=_shown(value))
            return None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.error(path, "out_of_range", min=lo, max=hi, got=value)
            return None
        return value

    def number(
        self,
        data: dict,
        key: str,
        path: str,
        *,
        lo=None,
        hi=None,
        allowed=None,
        required=True,
        default=None,
    ):
        if key not in data or data[key] is None:
            if required:
                self.error(path, "required")
            return default
        value = data[key]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            self.error(path, "not_number", got=_shown(value))
            return None
        if allowed is not None and value not in allowed:
            self.error(path, "not_allowed", allowed=list(allowed), got=value)
            return None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.error(path, "out_of_range", min=lo, max=hi, got=value)
            return None
        return value

    def boolean(self, data: dict, key: str, path: str, *, default: bool):
        value = data.get(key, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.error(path, "not_bool", got=_shown(value))
            return None
        return value

    def choice(self, data: dict, key: str, path: str, allowed, *, required=True, default=None):
        value = data.get(key)
        if value is None:
            if required:
                self.error(path, "required")
            return default
        if not isinstance(value, str | int | float) or value not in allowed:
            self.error(path, "not_allowed", allowed=list(allowed), got=_shown(value))
            return None
        return value

    def mapping(self, data: dict, key: str, path: str, *, required=True):
        value = data.get(key)
        if value is None:
            if required:
                self.error(path, "required")
            return None
        if not isinstance(value, dict):
            self.error(path, "not_object")
            return None
        return value

    def listing(self, data: dict, key: str, path: str, *, required=False):
        value = data.get(key)
        if value is None:
            if required:
                self.error(path, "required")
            return []
        if not isinstance(value, list):
            self.error(path, "not_list")
            return []
        return value

    def unknown_keys(self, data: dict, known, prefix: str = "") -> None:
        """Warn of fields nobody reads, so a misspelt one is noticed but does no harm."""
        for key in data:
            if key not in known:
                self.warn(f"{prefix}{key}", "ignored_field")

    def undeclared_keys(self, data: dict, known, prefix: str = "", part: str = "") -> None:
        """Refuse each field of ``data`` (the object at ``part``) that ``known`` does not
        declare, unless refused already (a rule system's schema found it first)."""
        reported = {p.path for p in (*self.errors, *self.warnings)}
        for key in data:
            if key not in known and f"{prefix}{key}" not in reported:
                self.undeclared(f"{prefix}{key}", str(key), part, tuple(known), data[key])

    def undeclared(self, path: str, key: str, part: str, known, value: Any, **more: Any) -> None:
        """A field no declaration names: refused (``not_a_sheet_field``), naming the nearest
        declared one, or listing them when none is near; warned of (``ignored_sheet_field``)
        when the data held it, as it is, when stored."""
        shown = key if len(key) <= 40 else key[:39] + "…"
        params: dict[str, Any] = {"got": shown, "part": part, **more}
        close = nearest(key, known)
        if close is None:
            params["allowed"] = list(known)
        else:
            params["nearest"] = close
        if self.stored is not None and value_at(self.stored, path) == value:
            self.warn(path, "ignored_sheet_field", **params)
        else:
            self.error(path, "not_a_sheet_field", **params)


def _shown(value: Any) -> Any:
    """Keep an offending value short enough to quote back in a message."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    text = value if isinstance(value, int | float | str) else type(value).__name__
    if isinstance(text, str) and len(text) > 40:
        text = text[:37] + "..."
    if isinstance(text, str) and bad_text(text):
        text = text.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
    return text


NEAR = 0.5  # how alike two names must be for one to be suggested for the other


def nearest(name: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` nearest ``name`` (case aside), or None when none is near it: the
    field a misspelt one most likely meant."""
    by_folded = {}
    for known in names:
        by_folded.setdefault(known.casefold(), known)
    found = difflib.get_close_matches(name.casefold(), list(by_folded), n=1, cutoff=NEAR)
    return by_folded[found[0]] if found else None


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
ABSENT = object()


def value_at(data: Any, path: str) -> Any:
    """The value at ``path`` (``armour.weight``, ``weapons[0].name``) of plain data, or
    ``ABSENT``."""
    for name, index in _STEP.findall(path):
        if index and isinstance(data, list) and int(index) < len(data):
            data = data[int(index)]
        elif not index and isinstance(data, dict) and name in data:
            data = data[name]
        else:
            return ABSENT
    return data
