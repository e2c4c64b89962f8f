"""The installable referee app: web manifest, icons drawn here, and the service worker.

The worker is served from the site's root so that it may control every page; its script
names a version made from the bytes of everything it precaches, so any change to a script,
style or decoder file makes browsers install a new worker, which offers the update.
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, url_for
from flask_babel import gettext as _

from .. import rules
from ..vendor import FILES as VENDOR_FILES

bp = Blueprint("pwa", __name__)

ICON_SIZES = (192, 512)
THEME = "#101316"
ACCENT = "#f2b33d"


# What the app needs with no network, under static/: every script and the screen's styles,
# and the vendor files (the QR decoder, its wasm included) that `make install` copies there.
def precached_static() -> list[str]:
    static = Path(current_app.static_folder)
    scripts = sorted(p.relative_to(static).as_posix() for p in (static / "js").rglob("*.js"))
    return ["css/app.css", *scripts, *(f"vendor/{name}" for name in VENDOR_FILES)]


# Each rule system's own scripts (its package's static/, e.g. its offline fold): (key, name).
def ruleset_scripts() -> list[tuple[str, Path]]:
    found = []
    for ruleset in rules.rulesets():
        folder = ruleset.static_dir()
        if folder is not None and folder.is_dir():
            found += [(ruleset.key, p) for p in sorted(folder.rglob("*.js"))]
    return found


def _ruleset_url(key: str, path: Path) -> str:
    folder = rules.get_ruleset(key).static_dir()
    return url_for("rulesets.static", key=key, filename=path.relative_to(folder).as_posix())


# Pages the worker keeps for offline use (the console's shell serves every character).
SHELL_PAGES = ["scanner.scan", "console.offline_shell"]


def precache_urls(names: list[str]) -> list[str]:
    static = [url_for("static", filename=name) for name in names]
    icons = [url_for("pwa.icon", size=size) for size in ICON_SIZES]
    scripts = [_ruleset_url(key, path) for key, path in ruleset_scripts()]
    return [*static, *scripts, *icons, url_for("pwa.manifest")]


def _version(names: list[str]) -> str:
    """A digest of every precached file and of the worker's own template (and of the
    optional PWA_RELEASE setting, which makes every phone take a new version)."""
    static = Path(current_app.static_folder)
    templates = Path(current_app.root_path).parent / "templates"
    scripts = [path for _key, path in ruleset_scripts()]
    paths = [*(static / name for name in names), *scripts, templates / "pwa" / "sw.js"]
    stats = tuple(
        (str(p), p.stat().st_mtime_ns, p.stat().st_size) if p.is_file() else (str(p),)
        for p in paths
    )
    return _digest(str(current_app.config.get("PWA_RELEASE", "")), stats)


@lru_cache(maxsize=8)
def _digest(release: str, stats: tuple[tuple, ...]) -> str:
    """The files' bytes are read again only when one of them changed (phones ask for the
    worker at every page they open)."""
    digest = hashlib.sha256(release.encode())
    for path, *changed in stats:
        digest.update(Path(path).name.encode())
        digest.update(Path(path).read_bytes() if changed else b"missing")
    return digest.hexdigest()[:16]


@bp.get("/sw.js")
def service_worker():
    names = precached_static()
    script = render_template(
        "pwa/sw.js",
        version=_version(names),
        precache=precache_urls(names),
        shells=[url_for(endpoint) for endpoint in SHELL_PAGES],
        console_shell=url_for("console.offline_shell"),
        api=url_for("api.openapi").rsplit("/", 1)[0],
        outbox=url_for("static", filename="js/lib/outbox.js"),
        language=url_for("static", filename="js/lib/language.js"),
        languages=list(current_app.config["LANGUAGES"]),
    )
    response = Response(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    data = {
        "name": "larp_app",
        "short_name": "larp_app",
        "description": _("Scan badges and log hits, energy and statuses, even offline."),
        "start_url": url_for("scanner.scan"),
        "scope": url_for("home.index"),
        "display": "standalone",
        "orientation": "portrait",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [
            {
                "src": url_for("pwa.icon", size=size),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in ICON_SIZES
        ],
    }
    response = current_app.json.response(data)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/icons/<int:size>.png")
def icon(size: int):
    if size not in ICON_SIZES:
        return Response(status=404)
    response = Response(icon_png(size), mimetype="image/png")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@lru_cache(maxsize=len(ICON_SIZES))
def icon_png(size: int) -> bytes:
    """A badge with a QR code's three finder squares, inside a maskable icon's safe zone."""
    from PIL import Image, ImageDraw  # loaded by the worker that draws an icon, once

    image = Image.new("RGB", (size, size), THEME)
    draw = ImageDraw.Draw(image)
    unit = size / 10
    draw.rounded_rectangle((2 * unit, 2 * unit, 8 * unit, 8 * unit), radius=unit * 0.6, fill=ACCENT)
    for x, y in ((2.6, 2.6), (5.6, 2.6), (2.6, 5.6)):
        draw.rectangle((x * unit, y * unit, (x + 1.8) * unit, (y + 1.8) * unit), fill=THEME)
        draw.rectangle(
            ((x + 0.4) * unit, (y + 0.4) * unit, (x + 1.4) * unit, (y + 1.4) * unit), fill=ACCENT
        )
        draw.rectangle(
            ((x + 0.65) * unit, (y + 0.65) * unit, (x + 1.15) * unit, (y + 1.15) * unit),
            fill=THEME,
        )
    draw.rectangle((6.2 * unit, 6.2 * unit, 7.4 * unit, 7.4 * unit), fill=THEME)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()
