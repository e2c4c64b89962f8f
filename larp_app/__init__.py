"""larp_app: the companion for live-action role-play events."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then instance/config.py, then LARP_* variables, then tests."""
    root = Path(__file__).resolve().parent.parent
    app = Flask(
        __name__,
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

    from . import cli, web

    cli.register(app)
    web.register(app)
    return app
