"""What every request is checked for before a view reads it, and errors the API answers in JSON.

JSON bodies are read without NaN, ±Infinity, lone surrogates or NUL, and at most a few levels
deep; JSON is written without NaN. Ids in URLs fit the database's integer column. A NUL byte
in the path, the query or a form is refused with 400 (PostgreSQL cannot store one). Cookie
lines sent repeated, or longer than one line may be, are refused with 431 (web/quick.py
finds them, before anything reads them).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, jsonify, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, RequestHeaderFieldsTooLarge

from .. import rules

MAX_ID = 2**31 - 1  # PostgreSQL's integer; SQLite's is larger
# Set in the environ by web/quick.py: why the request's cookies are refused (431).
COOKIES_REFUSED = "larp.cookies_refused"


class StrictJSONProvider(DefaultJSONProvider):
    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return rules.strict_json_loads(s, **kwargs)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)


def configure(app: Flask) -> None:
    app.json_provider_class = StrictJSONProvider
    app.json = StrictJSONProvider(app)
    app.url_value_preprocessor(_bounded_ids)
    app.before_request(_refuse_cookies)
    app.before_request(_refuse_nul)
    for code in (400, 404, 405, 413, 429, 431):
        app.register_error_handler(code, _api_or_page)


class CookiesRefused(RequestHeaderFieldsTooLarge):
    code_name = "cookies_refused"

    def __init__(self, reason: str):
        words = {
            "repeated": _("the Cookie header was sent more than once"),
            "too_large": _("the Cookie header is too long"),
        }[reason]
        super().__init__(
            _(
                "The request's cookies were refused (%(reason)s): clear this site's cookies.",
                reason=words,
            )
        )
        self.fields = {"Cookie": words}


def _refuse_cookies() -> None:
    """Cookie lines repeated or too long (web/quick.py says which): 431, nothing read."""
    reason = request.environ.get(COOKIES_REFUSED)
    if reason is not None:
        raise CookiesRefused(reason)


def _bounded_ids(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """``<int:id>`` beyond the database's integers names nothing: 404, not a database error."""
    if values and any(isinstance(v, int) and not 0 <= v <= MAX_ID for v in values.values()):
        abort(404)


def _refuse_nul() -> None:
    query = request.query_string
    if b"%00" in query or b"\x00" in query:  # a NUL in the query can only come so
        texts = [request.path, *request.args.keys(), *request.args.values()]
    else:
        texts = [request.path]
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        texts += [*request.form.keys(), *request.form.values()]
    if any("\x00" in text for text in texts):
        abort(400, "a NUL character is not allowed in a request")


def is_api() -> bool:
    return request.path.startswith("/api/")


def api_error(status: int, code: str, message: str, fields: dict | None = None):
    return jsonify({"error": code, "message": message, "fields": fields or {}}), status


def http_api_error(exc: HTTPException):
    """An HTTP error as the API's documented JSON error."""
    code = getattr(exc, "code_name", None) or (exc.name or "error").lower().replace(" ", "_")
    response = api_error(exc.code or 500, code, exc.description or "", getattr(exc, "fields", None))
    if exc.code == 405 and exc.valid_methods:
        response[0].headers["Allow"] = ", ".join(exc.valid_methods)
    retry = dict(exc.get_headers()).get("Retry-After")
    if retry:
        response[0].headers["Retry-After"] = retry
    return response


def _api_or_page(exc: HTTPException):
    if is_api():
        return http_api_error(exc)
    if exc.code in (403, 404):
        from flask import render_template

        return render_template("errors/error.html", code=exc.code, error=exc), exc.code
    retry = dict(exc.get_headers()).get("Retry-After")
    if exc.code == 429 and retry and retry.isdigit():
        # A page made to wait its turn waits and asks again by itself, saying why.
        from flask import render_template

        page = render_template(
            "errors/error.html", code=429, message=exc.description, seconds=int(retry)
        )
        return page, 429, {"Retry-After": retry, "Cache-Control": "no-store"}
    return exc
