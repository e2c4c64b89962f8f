"""Blueprints, one per audience, and what every page shares."""

from flask import Flask, render_template

from ..extensions import csrf
from . import (
    display,
    health,
    hygiene,
    live_part,
    quick,
    rulesets,
    security,
    transfer,
    unavailable,
)


def register(app: Flask) -> None:
    from .api import bp as api
    from .auth import Globals
    from .auth import bp as auth
    from .console import bp as console
    from .home import bp as home
    from .i18n import bp as i18n
    from .organiser import bp as organiser
    from .player import bp as player
    from .pwa import bp as pwa
    from .referee import bp as referee
    from .scan import bp as scan
    from .scanner import bp as scanner

    app.app_ctx_globals_class = Globals  # the user read when first asked for
    security.configure(app)
    health.register(app)
    hygiene.configure(app)
    app.before_request(quick.keep_up)  # what the worker keeps, up to the database's marks
    transfer.configure(app)
    display.register(app)
    live_part.register(app)
    unavailable.register(app)
    rulesets.register(app)
    for blueprint in (
        home,
        auth,
        i18n,
        organiser,
        referee,
        scan,
        scanner,
        console,
        player,
        pwa,
        api,
    ):
        app.register_blueprint(blueprint)
    # The API checks a bearer token, or for the logged-in browser the X-CSRFToken header.
    csrf.exempt(api)

    @app.errorhandler(403)
    def forbidden(error):
        if hygiene.is_api():
            return hygiene.http_api_error(error)
        return render_template("errors/error.html", code=403, error=error), 403
