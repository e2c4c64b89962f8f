"""The pages' template environment (web/templating.py): each template's globals one plain
dict, and a global set or removed after templates were loaded seen by them all the same."""

import jinja2
import pytest
from jinja2 import DictLoader

from larp_app.web.templating import Environment


@pytest.fixture
def environment(app):
    environment = app.jinja_env
    assert isinstance(environment, Environment)
    kept_loader = environment.loader
    environment.loader = jinja2.ChoiceLoader(
        [
            DictLoader(
                {
                    "said.html": "{{ said() }}",
                    "uses.html": "{% from 'm.html' import m %}{{ m() }}",
                    "m.html": "{% macro m() %}[{{ said() }}]{% endmacro %}",
                }
            ),
            kept_loader,
        ]
    )
    yield environment
    environment.loader = kept_loader
    environment.globals.pop("said", None)


def test_a_template_s_globals_are_one_dict_holding_every_global_of_the_app(environment):
    template = environment.get_template("organiser/board_row.html")
    assert type(template.globals) is dict
    assert {"url_for", "live_words", "gettext", "wound", "live_part"} <= template.globals.keys()


@pytest.mark.parametrize("change", ["set", "update", "setdefault"])
def test_a_global_set_after_templates_were_loaded_is_seen_by_them(environment, change):
    environment.globals["said"] = lambda: "first"
    assert environment.get_template("said.html").render() == "first"
    assert environment.get_template("uses.html").render() == "[first]"
    if change == "set":
        environment.globals["said"] = lambda: "then"
    elif change == "update":
        environment.globals.update(said=lambda: "then")
    else:
        del environment.globals["said"]
        environment.globals.setdefault("said", lambda: "then")
    assert environment.get_template("said.html").render() == "then"
    assert environment.get_template("uses.html").render() == "[then]"


def test_a_global_removed_after_templates_were_loaded_is_gone_from_them(environment):
    environment.globals["said"] = lambda: "first"
    assert environment.get_template("said.html").render() == "first"
    environment.globals.pop("said")
    with pytest.raises(jinja2.UndefinedError):
        environment.get_template("said.html").render()


def test_a_template_s_own_globals_overlay_the_app_s(environment):
    environment.globals["said"] = lambda: "app"
    template = environment.get_template("said.html", globals={"said": lambda: "own"})
    assert template.render() == "own"
    assert environment.from_string("{{ said() }}").render() == "app"
