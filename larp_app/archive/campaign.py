"""The next event of a campaign: the survivors' tabletop sheets carried over, the dead left out.

What happened at the old event reaches the next through the tabletop sheets (as edited
between events); the new event starts everyone at check-in as any event does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .. import rules
from ..extensions import db
from ..models import Character, Event, User
from ..services.badges import active_badge, ensure_badges, give_player_link
from ..services.characters import record_change
from ..services.clock import now_utc
from ..services.entries import state_of
from ..services.events import archive_event, create_event


@dataclass(frozen=True)
class Carried:
    event: Event
    carried: list[Character]  # the new event's characters
    dead: list[Character]  # the old event's dead, left out
    kept_badges: int  # old cards that now open the new characters


def survivors_and_dead(event: Event, at: datetime) -> tuple[list[Character], list[Character]]:
    """The old event's characters still in play, alive and dead at ``at`` (withdrawn: neither)."""
    alive, dead = [], []
    for character in sorted(event.characters, key=lambda c: (c.faction or "", c.name)):
        if character.withdrawn_at is not None:
            continue
        (dead if state_of(character, at).wound == "dead" else alive).append(character)
    return alive, dead


def continue_event(
    old: Event,
    name: str,
    *,
    bring_back: list[int] = (),
    keep_badges: bool = True,
    user: User | None = None,
) -> Carried:
    """Create the next event with the survivors (and the dead named in ``bring_back``).

    With ``keep_badges`` each player keeps the card they have (its QR and code now open the
    new character); otherwise every carried character gets a new badge. The old event is
    archived. InvalidInput names a bad name or an id in ``bring_back`` that is not one of the
    old event's dead.
    """
    alive, dead = survivors_and_dead(old, now_utc())
    dead_ids = {c.id for c in dead}
    wrong = [i for i in bring_back if i not in dead_ids]
    if wrong:
        raise rules.InvalidInput(
            [rules.Problem("bring_back", "not_dead_character", {"got": ", ".join(map(str, wrong))})]
        )
    event = create_event(name, old.ruleset, dict(old.settings or {}))
    event.faction_colours = dict(old.faction_colours or {})
    chosen = alive + [c for c in dead if c.id in bring_back]
    now, carried, kept = now_utc(), [], 0
    for before in chosen:
        character = Character(
            event=event,
            player=before.player,
            name=before.name,
            faction=before.faction,
            tabletop=before.tabletop,
            larp=before.larp,
            created_at=now,
            badges=[],
        )
        db.session.add(character)
        carried.append(character)
    db.session.flush()
    for before, character in zip(chosen, carried, strict=True):
        record_change(character, None, user, "continue")
        badge = active_badge(before) if keep_badges else None
        if badge is not None:
            link = before.player_secret, before.player_secret_hash
            give_player_link(before, None)
            db.session.flush()  # the secret is unique: free it before giving it on
            badge.character = character
            give_player_link(character, *link)
            kept += 1
    db.session.flush()
    ensure_badges(carried)
    archive_event(old)
    return Carried(event, carried, [c for c in dead if c.id not in bring_back], kept)
