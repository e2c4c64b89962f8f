"""Spreadsheets as the tests write them: a rule system's CSV in one of its languages."""

from larp_app.rules import get_ruleset
from larp_app.services import sheet_csv


def write_csv(sheets, ruleset="ex-nihilo", locale="en", delimiter=","):
    return sheet_csv.write_csv(sheets, get_ruleset(ruleset).schema(), locale, delimiter)


def template_csv(ruleset="ex-nihilo", locale="en", delimiter=","):
    return sheet_csv.template_csv(get_ruleset(ruleset).schema(), locale, delimiter)
