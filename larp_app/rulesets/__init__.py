"""The rule systems shipped with the app, one package each.

Each package exposes ``RULESET`` (a ``larp_app.rules.Ruleset``) in its ``__init__.py`` and is
declared as an entry point of the group ``larp_app.rulesets`` in pyproject.toml; next to its code
it may carry ``data/`` (its default tables and catalogues), ``templates/`` (its larp-sheet
partial, its settings fields) and ``static/`` (scripts the phone runs for it), and ``schema.py``,
its tabletop sheet as a JSON Schema document (``Ruleset.sheet_schema``, see
``larp_app.rules.schema``) from which its imports, spreadsheet, edit form and field names come.
The engine and the web app know a rule system only through that interface.
"""
