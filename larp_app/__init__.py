"""larp_app: the companion for live-action role-play events."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

MIGRATIONS = str(Path(__file__).resolve().parent / "migrations")
TRANSLATIONS = str(Path(__file__).resolve().parent / "translations")


def configured_flask(import_name: str, test_config: Mapping[str, Any] | None = None) -> Flask:
    """A Flask app on the project's folders, configured: defaults, then instance/config.py,
    then LARP_* variables, then tests."""
    root = Path(__file__).resolve().parent.parent
    app = Flask(
        import_name,
        instance_path=str(root / "instance"),
        instance_relative_config=True,
        template_folder=str(root / "templates"),
        static_folder=str(root / "static"),
    )
    app.config.from_object("larp_app.config")
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("LARP")
    if test_config:
        app.config.from_mapping(test_config)
    return app


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app on its configuration (``configured_flask``)."""
    from .private_files import private_umask

    private_umask()  # the database, backups, archives and prints: this account's only
    app = configured_flask(__name__, test_config)
    from .web.templating import Environment

    app.jinja_environment = Environment  # before anything loads a template (web/templating.py)
    app.config["SQLALCHEMY_DATABASE_URI"] = uri = database_uri(
        app.config.get("SQLALCHEMY_DATABASE_URI"), Path(app.instance_path)
    )
    options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})  # (a copy: per app)
    options.setdefault("pool_pre_ping", not uri.startswith("sqlite"))
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options

    from . import cli, models, web  # noqa: F401  (models: tables known to migrations)
    from .extensions import babel, csrf, db, migrate
    from .web.i18n import select_locale

    db.init_app(app)
    migrate.init_app(app, db, directory=MIGRATIONS)
    babel.init_app(app, locale_selector=select_locale, default_translation_directories=TRANSLATIONS)
    csrf.init_app(app)
    cli.register(app)
    web.register(app)
    from .web.quick import QuickAnswers

    # Polls that changed nothing are answered before Flask (web/quick.py).
    app.wsgi_app = QuickAnswers(app, app.wsgi_app)
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies:  # the client's address, scheme and host as the proxies saw them
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies
        )
    return app


def database_uri(configured: str | None, instance: Path) -> str:
    """SQLite in instance/ unless configured; a postgres:// URL is read with psycopg 3."""
    if not configured:
        return f"sqlite:///{instance / 'larp.sqlite3'}"
    for prefix in ("postgres://", "postgresql://"):
        if configured.startswith(prefix):
            return "postgresql+psycopg://" + configured.removeprefix(prefix)
    return configured
