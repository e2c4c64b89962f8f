"""Headers and cookies every response gets; the secret key an install makes for itself."""

from __future__ import annotations

import functools
import mimetypes
import secrets
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, g, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature


@functools.cache
def content_security_policy(push_url: str | None = None) -> str:
    """The pages' policy: everything from the app itself; and, with a push server
    (``PUSH_URL``), its streams."""
    connect = "connect-src 'self'" + (f" {push_origin(push_url)}" if push_url else "")
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self' 'wasm-unsafe-eval'",
            "style-src 'self'",
            "img-src 'self' data: blob:",
            "media-src 'self' blob:",
            connect,
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def push_origin(push_url: str) -> str:
    """The push server's origin, from ``PUSH_URL`` (e.g. https://192.168.1.10:5001)."""
    parts = urlsplit(push_url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path.strip("/"):
        raise ValueError(f"PUSH_URL: an http(s) address with no path, not {push_url!r}")
    return f"{parts.scheme}://{parts.netloc}"


# Service workers and wasm decoders refuse other types than these.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("application/manifest+json", ".webmanifest")


# A session cookie signed longer ago than this is signed again by the next answer (a phone
# that only ever polls stays logged in: PERMANENT_SESSION_LIFETIME); a younger one is sent
# again only when its session changed. An answer that signs an unchanged cookie again races
# the one that changed it (a language chosen while the console polls): the later to arrive
# wins, so it is left to happen once an hour rather than at every poll.
FRESH_COOKIE = timedelta(hours=1)


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed session cookie, Secure whenever the request itself came over HTTPS
    (directly, or from a trusted proxy that says X-Forwarded-Proto: https): never sent back
    over plain HTTP then, while phones on a plain-HTTP LAN still log in; signed again when
    it changed, or when it was signed over ``FRESH_COOKIE`` ago."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or request.is_secure

    def open_session(self, app: Flask, request) -> SecureCookieSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        session = self.session_class(data)
        session.signed_at = signed.timestamp()
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        signed = getattr(session, "signed_at", None)
        stale = signed is None or time.time() - signed > FRESH_COOKIE.total_seconds()
        return stale and session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]

    def get_signing_serializer(self, app: Flask):
        """Flask's serializer, made once per secret key rather than for every request."""
        key = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        kept = app.extensions.get("larp_session_serializer")
        if kept is None or kept[0] != key:
            kept = (key, super().get_signing_serializer(app))
            app.extensions["larp_session_serializer"] = kept
        return kept[1]


def configure(app: Flask) -> None:
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))
    app.session_interface = SessionInterface()
    app.after_request(_headers)
    if app.config.get("PUSH_URL"):
        push_origin(app.config["PUSH_URL"])  # refused at start, in words, if it is no address
    app.jinja_env.globals["push_address"] = push_address


def push_address() -> str | None:
    """Where pages find the push server (their ``data-push``); None: they poll alone."""
    push_url = current_app.config.get("PUSH_URL")
    return push_origin(push_url) if push_url else None


def instance_secret(instance: Path) -> str:
    """Read instance/secret_key, writing a new random one the first time."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


# Over HTTPS, browsers are told to come back only over HTTPS for a year (they ignore it for
# an address such as 192.168.1.10, and honour it for a name); deploy/Caddyfile says the same.
HSTS = "max-age=31536000"


def security_headers(secure: bool, push_url: str | None = None) -> list[tuple[str, str]]:
    """The headers every answer carries, the quick answers before Flask (web/quick.py) too;
    ``secure``: the request came over HTTPS; ``push_url``: the app's push server, if any."""
    headers = [
        ("Content-Security-Policy", content_security_policy(push_url)),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
    ]
    if secure:
        headers.append(("Strict-Transport-Security", HSTS))
    return headers


def _headers(response: Response) -> Response:
    for name, value in security_headers(request.is_secure, current_app.config.get("PUSH_URL")):
        response.headers.setdefault(name, value)
    if _private(response):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def _private(response: Response) -> bool:
    """A page made for the logged-in user (sheets, accounts, the console) or a download (an
    export): no cache, the browser's nor a proxy's, keeps a copy for the next person at the
    computer. The service worker keeps what a phone needs offline in its own storage."""
    if "attachment" in response.headers.get("Content-Disposition", ""):
        return True
    # The page's type first: a poll's 304 or JSON never reads the user for this.
    return response.mimetype == "text/html" and g.get("user") is not None
