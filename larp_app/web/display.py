"""Helpers templates use to show engine data in words."""

from __future__ import annotations

from flask import Flask, current_app, request
from flask_babel import get_locale
from flask_babel import gettext as _

from .. import rules
from ..messages import problem_message, refusal_message


def entry_summary(entry: rules.Entry) -> str:
    """A few words on what an entry did, e.g. ``2 blows of 1, pierce``."""
    kind = entry.kind
    if kind == "hit":
        text = _("%(blows)d × %(damage)d", blows=entry.blows, damage=entry.damage)
        return text + (", " + _("pierce") if entry.pierce else "")
    if kind in ("heal", "restore_energy"):
        return f"+{entry.amount}"
    if kind == "spend_energy":
        return f"−{entry.amount}" + (f" · {entry.advancement}" if entry.advancement else "")
    if kind == "repair":
        return _("full") if entry.full else f"+{entry.amount}"
    if kind in ("status_on", "status_off"):
        return entry.key
    if kind == "kill":
        return entry.reason
    if kind == "revive":
        return "" if entry.hp is None else str(entry.hp)
    if kind == "note":
        return entry.text
    if kind == "undo":
        return entry.target[:8]
    return ""


def public_base_url() -> str:
    """Where phones reach this app: configured for the event's network, else as asked."""
    return current_app.config.get("PUBLIC_BASE_URL") or request.host_url


def register(app: Flask) -> None:
    app.jinja_env.globals.update(
        entry_summary=entry_summary,
        format_instant=rules.format_instant,
        get_locale=get_locale,
        problem_text=problem_message,
        refusal_text=lambda code, **params: refusal_message(code, params),
    )
