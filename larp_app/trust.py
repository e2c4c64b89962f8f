"""The plain-HTTP page on its own port that helps phones trust the laptop's HTTPS: a big QR
code of itself, the steps for Android and iOS, the authority to download, and a check.

A separate small app (`make run` serves it beside the real one): nothing else is ever served
over plain HTTP, and it needs no database.
"""

from __future__ import annotations

import io
from typing import Any

import qrcode
import qrcode.image.svg
from flask import Flask, Response, abort, render_template, request
from markupsafe import Markup

from . import TRANSLATIONS, configured_flask
from .extensions import babel
from .tls import authority_until, ca_der, tls_files

# The page's script checks the HTTPS app by loading one of its icons.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def create_trust_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = configured_flask(__name__, test_config)
    babel.init_app(app, locale_selector=_locale, default_translation_directories=TRANSLATIONS)
    files = tls_files(app)

    @app.get("/")
    def trust():
        here = request.host_url
        image = qrcode.make(here, image_factory=qrcode.image.svg.SvgPathImage, box_size=20)
        buffer = io.BytesIO()
        image.save(buffer)
        svg = buffer.getvalue().decode().split("?>", 1)[-1]  # inline: no XML declaration
        https = (app.config.get("PUBLIC_BASE_URL") or "").rstrip("/")
        until = authority_until(files)
        return render_template(
            "trust/index.html",
            qr=Markup(svg),
            here=here,
            app_url=https if https.startswith("https://") else None,
            lang=_locale(),
            until=until and until.date().isoformat(),
            languages=app.config["LANGUAGES"],
        )

    @app.get("/larp-ca.crt")
    def authority():
        if not files.ca_cert.exists():
            abort(404)
        return Response(
            ca_der(files),
            mimetype="application/x-x509-ca-cert",
            headers={"Content-Disposition": 'attachment; filename="larp-ca.crt"'},
        )

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app


def _locale() -> str:
    from flask import current_app

    languages = current_app.config["LANGUAGES"]
    chosen = request.args.get("lang")
    if chosen in languages:
        return chosen
    return (
        request.accept_languages.best_match(languages) or current_app.config["BABEL_DEFAULT_LOCALE"]
    )
