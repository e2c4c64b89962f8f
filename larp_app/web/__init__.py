"""Blueprints, one per audience, and what every page shares."""

from flask import Flask, render_template

from ..extensions import csrf
from . import display, security


def register(app: Flask) -> None:
    from .api import bp as api
    from .auth import bp as auth
    from .home import bp as home
    from .i18n import bp as i18n
    from .organiser import bp as organiser
    from .referee import bp as referee
    from .scan import bp as scan

    security.configure(app)
    display.register(app)
    for blueprint in (home, auth, i18n, organiser, referee, scan, api):
        app.register_blueprint(blueprint)
    csrf.exempt(api)  # the API authenticates each request by its bearer token, not a cookie

    @app.errorhandler(403)
    def forbidden(error):
        return render_template("errors/error.html", code=403, error=error), 403

    @app.errorhandler(404)
    def not_found(error):
        return render_template("errors/error.html", code=404, error=error), 404
