"""What travels on the wire: compressed answers, and long-lived static files where versioned.

HTML, JSON, scripts and styles are compressed (brotli, else gzip) by Flask-Compress when the
browser accepts it. A stylesheet's URL carries a digest of its bytes (``?v=...``), so a
browser may keep it for a year: a changed file gets a new URL. Scripts keep their plain URLs
(they import each other by relative path, and the service worker precaches them by URL):
browsers revalidate them, a 304 when unchanged.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, Response, current_app, request
from flask_compress import Compress
from flask_compress.flask_compress import _choose_algorithm, _compress_data

compress = Compress()

COMPRESSED = [
    "text/html",
    "text/css",
    "text/plain",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "application/wasm",
    "image/svg+xml",
]
VERSIONED_SUFFIXES = (".css",)
STATIC_ENDPOINTS = ("static", "rulesets.static")  # the app's files, and each rule system's
A_YEAR = 365 * 24 * 3600


def configure(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Brotli's quality 2: a phone's roster of 600 characters (685 KB of JSON) in 2.8 ms
    # instead of 4.9 at quality 4, to the same 50 KB; a state or a player's page (0.6-1.5 KB)
    # in 12 µs instead of 36, 7 % larger. Every roster and changed answer is compressed anew.
    app.config.setdefault("COMPRESS_BR_LEVEL", 2)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    app.config.setdefault("COMPRESS_STREAMS", False)  # downloads stream; pages do not
    compress.init_app(app)
    app.url_defaults(_static_version)
    app.after_request(_static_lifetime)
    app.after_request(_read_static_whole)  # runs before Flask-Compress's (hooks run in reverse)


def encoding_for(accept: str) -> str | None:
    """The encoding Flask-Compress gives an answer to a request that accepts ``accept`` (its
    Accept-Encoding header), or None: identity. For an answer encoded once and kept as
    bytes (web/answers.py), the same bytes as Flask-Compress's own."""
    return _choose_algorithm(compress.enabled_algorithms, accept)


def encoded(app: Flask, data: bytes, encoding: str | None) -> bytes:
    """``data`` in ``encoding`` as Flask-Compress encodes it (None, or data shorter than it
    compresses: as it is)."""
    if encoding is None or len(data) < app.config["COMPRESS_MIN_SIZE"]:
        return data
    return _compress_data(app, data, encoding)


@lru_cache(maxsize=256)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def static_version(filename: str) -> str | None:
    """The digest of a static file's bytes (read again only when the file changed)."""
    path = Path(current_app.static_folder) / filename
    try:
        stat = path.stat()
    except OSError:
        return None
    return _digest(str(path), stat.st_mtime_ns, stat.st_size)


def _static_version(endpoint: str, values: dict) -> None:
    filename = values.get("filename", "")
    if endpoint == "static" and "v" not in values and filename.endswith(VERSIONED_SUFFIXES):
        version = static_version(filename)
        if version:
            values["v"] = version


def _read_static_whole(response: Response) -> Response:
    """Read a (small) static file now, the app's or a rule system's, so that it is compressed
    whole like any other answer, and close it at once: a connection dropped mid-answer
    leaves no file open."""
    if (
        request.endpoint in STATIC_ENDPOINTS
        and response.status_code == 200
        and response.mimetype in COMPRESSED
    ):
        response.direct_passthrough = False
        response.get_data()
        response.close()
    return response


def _static_lifetime(response: Response) -> Response:
    """A year for a static file asked for by its current digest; revalidation otherwise."""
    if request.endpoint != "static" or response.status_code not in (200, 304):
        return response
    asked = request.args.get("v")
    if asked and asked == static_version(request.view_args.get("filename", "")):
        response.headers["Cache-Control"] = f"public, max-age={A_YEAR}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response
