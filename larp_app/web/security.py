"""Headers and cookies every response gets; the secret key an install makes for itself."""

from __future__ import annotations

import mimetypes
import secrets
from pathlib import Path

from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


# Service workers and wasm decoders refuse other types than these.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("application/manifest+json", ".webmanifest")


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed session cookie, Secure whenever the request itself came over HTTPS
    (directly, or from a trusted proxy that says X-Forwarded-Proto: https): never sent back
    over plain HTTP then, while phones on a plain-HTTP LAN still log in."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or request.is_secure


def configure(app: Flask) -> None:
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))
    app.session_interface = SessionInterface()
    app.after_request(_headers)


def instance_secret(instance: Path) -> str:
    """Read instance/secret_key, writing a new random one the first time."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


def _headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
