"""Refused entries the organiser accepts from the live board."""

from __future__ import annotations

from flask import flash, g, redirect, url_for
from flask_babel import gettext as _

from ... import rules
from ...extensions import db
from ...messages import refusal_message
from ...models import RefusedEntry
from ...services.refusals import accept_refusal
from ..auth import login_required
from . import bp


@bp.post("/refused/<int:refusal_id>/accept")
@login_required("organiser")
def accept_refused(refusal_id: int):
    """Store an entry refused for its age: the rules still judge it at its own instant."""
    row = db.get_or_404(RefusedEntry, refusal_id)
    event_id = row.character.event_id
    try:
        accept_refusal(row, g.user)
    except rules.RuleError as refused:
        db.session.commit()  # the new reason replaces the old one on the board
        reason = refusal_message(refused.code, refused.params, row.character.event.ruleset)
        flash(_("Not stored: %(reason)s.", reason=reason))
    else:
        db.session.commit()
        flash(_("Entry accepted and stored."), "info")
    return redirect(url_for("organiser.board", event_id=event_id))
