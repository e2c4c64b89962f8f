"""The pages' template environment: Flask's, with each template's globals one plain dict.

Jinja keeps a template's globals as a ChainMap over the environment's own, so that a global
added after a template was loaded is still seen by it. Every render copies that map into its
context, key by key through the chain, and every ``{% from ... import ... %}`` compares the
two templates' globals key by key too: together they cost more than the rest of a board's
row (templates/organiser/board_row.html), which is rendered for every change of a character.

Here a template's globals are one dict, made when the template is loaded. The environment's
globals are all set while the app is built (web/display.py, web/rulesets.py, Flask-Babel's
gettext); a global set or removed afterwards forgets every template loaded, which is then
loaded again with it.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from flask import Flask
from flask.templating import Environment as FlaskEnvironment


class Globals(dict):
    """The environment's globals: any change forgets the templates loaded before it."""

    def __init__(self, environment: Environment, found: Mapping[str, Any]):
        super().__init__(found)
        self._environment = environment

    def _changed(self) -> None:
        cache = self._environment.cache
        if cache is not None:
            cache.clear()

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self._changed()

    def __delitem__(self, key) -> None:
        super().__delitem__(key)
        self._changed()

    def update(self, *args, **kwargs) -> None:
        super().update(*args, **kwargs)
        self._changed()

    def setdefault(self, key, default=None):
        found = super().setdefault(key, default)
        self._changed()
        return found

    def pop(self, *args):
        found = super().pop(*args)
        self._changed()
        return found

    def popitem(self):
        found = super().popitem()
        self._changed()
        return found

    def clear(self) -> None:
        super().clear()
        self._changed()

    def __ior__(self, other):
        self.update(other)
        return self


class Environment(FlaskEnvironment):
    """Flask's template environment, each template's globals one dict (see the module)."""

    def __init__(self, app: Flask, **options: Any):
        super().__init__(app, **options)
        self.globals = Globals(self, self.globals)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **d} if d else dict(self.globals)
