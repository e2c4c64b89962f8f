"""What a rule-system package brings to the web app: its templates and its static files.

A ruleset's ``templates/`` folder is found as ``rulesets/<key>/...`` (e.g.
``rulesets/<key>/larp_sheet.html``), and its ``static/`` folder is served at
``/rulesets/<key>/static/<path>``; both are found from the ruleset object, never by name.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Flask, abort, send_from_directory
from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound

from .. import rules

PREFIX = "rulesets/"

bp = Blueprint("rulesets", __name__)


class RulesetLoader(BaseLoader):
    """Templates ``rulesets/<key>/<name>`` from the templates/ folder of the ruleset ``key``
    (looked up on each load, so a ruleset registered after start-up is found too)."""

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        if not template.startswith(PREFIX) or template.count("/") < 2:
            raise TemplateNotFound(template)
        key, name = template.removeprefix(PREFIX).split("/", 1)
        try:
            folder = rules.get_ruleset(key).templates_dir()
        except KeyError:
            folder = None
        if folder is None:
            raise TemplateNotFound(template)
        return FileSystemLoader(str(folder)).get_source(environment, name)

    def list_templates(self) -> list[str]:
        names = []
        for ruleset in rules.rulesets():
            folder = ruleset.templates_dir()
            if folder is not None:
                names += [
                    f"{PREFIX}{ruleset.key}/{name}"
                    for name in FileSystemLoader(str(folder)).list_templates()
                ]
        return sorted(names)


def ruleset_template(key: str, name: str) -> str | None:
    """The name to render for the ruleset's template ``name``, or None when it ships none."""
    try:
        folder = rules.get_ruleset(key).templates_dir()
    except KeyError:
        return None
    return f"{PREFIX}{key}/{name}" if folder and (folder / name).is_file() else None


@bp.get("/rulesets/<key>/static/<path:filename>")
def static(key: str, filename: str):
    try:
        folder = rules.get_ruleset(key).static_dir()
    except KeyError:
        abort(404)
    if folder is None:
        abort(404)
    return send_from_directory(folder, filename)


def register(app: Flask) -> None:
    """Find rulesets' templates after the app's own, and serve their static files."""
    app.jinja_env.loader = ChoiceLoader([app.jinja_env.loader, RulesetLoader()])
    rules.rulesets()  # found now: their own entry kinds are readable from the first request
    app.jinja_env.globals["ruleset_template"] = ruleset_template
    app.jinja_env.globals["ruleset"] = rules.get_ruleset
    app.register_blueprint(bp)
