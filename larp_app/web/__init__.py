"""Blueprints, one per audience."""

from flask import Flask


def register(app: Flask) -> None:
    from .home import bp as home

    app.register_blueprint(home)
