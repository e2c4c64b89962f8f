"""Accounts: hashed passwords, API tokens kept only as hashes."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from .. import rules
from ..extensions import db
from ..models import User
from .clock import now_utc

ROLES = ("organiser", "referee")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_user(username: str, role: str, password: str | None = None) -> tuple[User, str, str]:
    """Create an account; return it with its password (generated when none given) and token."""
    checker = rules.Checker()
    name = checker.text({"username": username}, "username", "username", max_len=80)
    checker.choice({"role": role}, "role", "role", ROLES)
    if password is not None and len(password) < 8:
        checker.error("password", "too_short", min=8)
    if name and db.session.scalar(select(User).where(User.username == name)):
        checker.error("username", "taken", got=name)
    checker.raise_if_errors()
    password = password or secrets.token_urlsafe(12)
    token = secrets.token_urlsafe(32)
    user = User(
        username=name,
        role=role,
        password_hash=generate_password_hash(password),
        token_hash=token_digest(token),
        created_at=now_utc(),
    )
    db.session.add(user)
    db.session.flush()
    return user, password, token


def user_for_token(token: str) -> User | None:
    user = db.session.scalar(select(User).where(User.token_hash == token_digest(token)))
    return user if user is not None and user.active else None


def password_matches(user: User, password: str) -> bool:
    return check_password_hash(user.password_hash, password)


def set_active(user: User, active: bool) -> None:
    """Enable or disable an account; disabling ends its open sessions."""
    user.active = active
    if not active:
        user.session_epoch += 1
    db.session.flush()


def end_sessions(user: User) -> None:
    """Log every phone and browser of the account out (a lost phone): it logs in again."""
    user.session_epoch += 1
    db.session.flush()


def reset_password(user: User) -> str:
    """Give the account a new random password, ending its open sessions; return it."""
    password = secrets.token_urlsafe(12)
    user.password_hash = generate_password_hash(password)
    user.session_epoch += 1
    db.session.flush()
    return password
