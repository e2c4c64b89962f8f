"""Accounts: hashed passwords, API tokens and login sessions kept only as hashes."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import bindparam, func, select, update
from werkzeug.security import check_password_hash, generate_password_hash

from .. import rules
from ..extensions import db
from ..models import ApiToken, User, WebSession
from .clock import now_utc

ROLES = ("organiser", "referee")
MIN_PASSWORD = 8
MAX_PASSWORD = 200


# Generated passwords are typed on a phone in a field: four made-up words of two syllables in
# lower-case letters, with hyphens between them (boka-tepi-muso-rade). No capitals, digits or
# symbols to hunt for, no l beside I and 1; 14 consonants and 5 vowels make 4,900 words: about
# 49 bits, and logins are slowed after a few failures (services/logins.py).
CONSONANTS = "bcdfgkmnprstvz"
VOWELS = "aeiou"
PASSWORD_WORDS = 4


def new_password() -> str:
    """A random password a person can read out and type on a phone."""
    return "-".join(_syllable() + _syllable() for _ in range(PASSWORD_WORDS))


def _syllable() -> str:
    return secrets.choice(CONSONANTS) + secrets.choice(VOWELS)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _check_password(checker: rules.Checker, password: str, path: str = "password") -> None:
    if len(password) < MIN_PASSWORD:
        checker.error(path, "too_short", min=MIN_PASSWORD)
    elif len(password) > MAX_PASSWORD:
        checker.error(path, "too_long", max=MAX_PASSWORD, got=len(password))
    elif rules.bad_text(password):
        checker.error(path, rules.bad_text(password))


def create_user(
    username: str, role: str, password: str | None = None, *, token_label: str | None = "script"
) -> tuple[User, str, str | None]:
    """Create an account; return it with its password (generated when none given) and, when
    ``token_label`` names one, an API token for scripts (None: a person who signs in needs
    none, and can make one on their account page)."""
    checker = rules.Checker()
    name = checker.text({"username": username}, "username", "username", max_len=80)
    checker.choice({"role": role}, "role", "role", ROLES)
    if password is not None:
        _check_password(checker, password)
    if name and db.session.scalar(select(User).where(User.username == name)):
        checker.error("username", "taken", got=name)
    checker.raise_if_errors()
    password = password or new_password()
    user = User(
        username=name,
        role=role,
        password_hash=generate_password_hash(password),
        created_at=now_utc(),
    )
    db.session.add(user)
    db.session.flush()
    token = new_token(user, token_label) if token_label else None
    return user, password, token


# API tokens ----------------------------------------------------------------------------------


def new_token(user: User, label: str = "") -> str:
    """A new API token of the account; only its hash is kept, so it is shown this once."""
    token = secrets.token_urlsafe(32)
    db.session.add(
        ApiToken(
            user_id=user.id,
            token_hash=token_digest(token),
            label=(label or "token")[:80],
            created_at=now_utc(),
        )
    )
    db.session.flush()
    return token


# Every API request asks it: one query on the unique (indexed) hash, built once.
USER_FOR_TOKEN = (
    select(User)
    .join(ApiToken, ApiToken.user_id == User.id)
    .where(
        ApiToken.token_hash == bindparam("digest"),
        ApiToken.revoked_at.is_(None),
        User.active.is_(True),
    )
)


def user_for_token(token: str) -> User | None:
    """The active account whose token this is, unless the token was revoked."""
    if len(token) > 200:
        return None
    return db.session.scalar(USER_FOR_TOKEN, {"digest": token_digest(token)})


def tokens_of(user: User) -> list[ApiToken]:
    """The account's tokens that still work, oldest first."""
    return db.session.scalars(
        select(ApiToken)
        .where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
        .order_by(ApiToken.id)
    ).all()


def revoke_token(user: User, token_id: int) -> bool:
    """Revoke one of the account's tokens; False when it has no such working token."""
    result = db.session.execute(
        update(ApiToken)
        .where(ApiToken.id == token_id, ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
        .values(revoked_at=now_utc())
    )
    return result.rowcount == 1


def revoke_tokens(user: User) -> None:
    db.session.execute(
        update(ApiToken)
        .where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
        .values(revoked_at=now_utc())
    )


# Login sessions ------------------------------------------------------------------------------


def start_session(user: User) -> str:
    """A new login session; return the key the cookie keeps (only its hash is stored)."""
    key = secrets.token_urlsafe(32)
    db.session.add(WebSession(key_hash=token_digest(key), user_id=user.id, created_at=now_utc()))
    db.session.flush()
    return key


def session_user(key: str) -> User | None:
    """The active account of a session that has not ended."""
    return db.session.scalar(
        select(User)
        .join(WebSession, WebSession.user_id == User.id)
        .where(
            WebSession.key_hash == token_digest(key),
            WebSession.ended_at.is_(None),
            User.active.is_(True),
        )
    )


def end_session(key: str) -> None:
    db.session.execute(
        update(WebSession)
        .where(WebSession.key_hash == token_digest(key), WebSession.ended_at.is_(None))
        .values(ended_at=now_utc())
    )


def password_matches(user: User, password: str) -> bool:
    return check_password_hash(user.password_hash, password)


# What ends every session and token -----------------------------------------------------------


def end_sessions(user: User) -> None:
    """Log every phone and browser of the account out (a lost phone), and revoke its API
    tokens: it logs in again."""
    db.session.execute(
        update(WebSession)
        .where(WebSession.user_id == user.id, WebSession.ended_at.is_(None))
        .values(ended_at=now_utc())
    )
    revoke_tokens(user)
    db.session.flush()


class LastOrganiser(Exception):
    """Refused: this would leave no active organiser."""


def active_organisers() -> int:
    return db.session.scalar(
        select(func.count()).select_from(User).where(User.role == "organiser", User.active)
    )


def set_active(user: User, active: bool) -> None:
    """Enable or disable an account; disabling ends its open sessions.

    LastOrganiser when it would disable the last active organiser.
    """
    if not active and user.active and user.role == "organiser" and active_organisers() <= 1:
        raise LastOrganiser()
    user.active = active
    if not active:
        end_sessions(user)
    db.session.flush()


def set_password(user: User, password: str) -> None:
    """Give the account this password (InvalidInput if too short), ending its sessions."""
    checker = rules.Checker()
    _check_password(checker, password)
    checker.raise_if_errors()
    user.password_hash = generate_password_hash(password)
    end_sessions(user)


def reset_password(user: User) -> str:
    """Give the account a new random password, ending its open sessions; return it."""
    password = new_password()
    set_password(user, password)
    return password


def change_own_password(user: User, current: str, new: str) -> None:
    """The user's own change: InvalidInput names ``current`` when it is wrong.

    Every other session and token of the account ends; the caller starts a new session.
    """
    checker = rules.Checker()
    if not password_matches(user, current):
        checker.error("current", "wrong_password")
    _check_password(checker, new, "new")
    checker.raise_if_errors()
    set_password(user, new)
