"""Each poll's tag, built here alone.

A poll is answered 304 when the client holds its tag. The full path (web/api.py,
web/player.py, web/organiser/board.py, reads/roster.py) and the quick answers before Flask
(web/quick.py) both build it with these functions, from what each knows: the same state,
language and caller give the same text whichever path answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Protocol

from .. import rules


class Token(Protocol):
    """A view's token (keeping/views.py ``Since``): its version and instant, as text."""

    def text(self) -> str: ...


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def micros(at: datetime) -> int:
    """An instant as tokens say it: microseconds since the epoch."""
    return (at - EPOCH) // rules.fold.TICK


def state(version: int, changed_at: datetime | None) -> str:
    """A character's state: its version and its latest change (two instants with the same
    tag see the same state)."""
    return f"state.{version}.{0 if changed_at is None else micros(changed_at)}"


def console_state(state_tag: str, user_id: int, dismissed: int) -> str:
    """A console's poll of a state: the state, and the caller's own conflicts (their id and
    their dismissals change the answer too)."""
    return f"{state_tag}.u{user_id}.d{dismissed}"


def player(locale: str, state_tag: str) -> str:
    """The player's page: its language and the character's state."""
    return f"player.{locale}.{state_tag}"


def roster_version(locale: str, tokens: Iterable[tuple[int, Token]]) -> str:
    """The version of a phone's roster: its language (the events' kits are in it) and each
    event's view token, by event id."""
    views = ",".join(f"{event_id}:{token.text()}" for event_id, token in tokens)
    return f"{locale}|{views}"


def roster(locale: str, version: str) -> str:
    return f"roster.{locale}.{version}"


def board_version(token: Token, refusals: int) -> str:
    """What the board shows: the view's version and instant, and the refusals mark."""
    return f"{token.text()}.{refusals}"


def board(locale: str, version: str) -> str:
    return f"board.{locale}.{version}"
