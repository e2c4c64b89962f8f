"""Blueprints, one per audience."""

from flask import Flask


def register(app: Flask) -> None:
    from .api import bp as api
    from .home import bp as home

    app.register_blueprint(home)
    app.register_blueprint(api)
