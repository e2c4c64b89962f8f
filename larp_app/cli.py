"""Command line: ``flask --app larp_app <noun> <verb>``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from flask import Flask
from flask.cli import AppGroup

from . import rules
from .messages import problem_message, refusal_message

sheets_cli = AppGroup("sheets", help="Check and convert character sheets.")
log_cli = AppGroup("log", help="Work with exported referee logs.")


def register(app: Flask) -> None:
    app.cli.add_command(sheets_cli)
    app.cli.add_command(log_cli)


def _fail(problems: list[rules.Problem], prefix: str = "") -> None:
    """Print one ``field: message`` line per problem on stderr and exit with status 2."""
    for p in problems:
        click.echo(problem_message(rules.Problem(prefix + p.path, p.code, p.params)), err=True)
    sys.exit(2)


def _load_json(path: str, label: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        _fail([rules.Problem(label, "not_json", {"detail": str(exc)})])
    except json.JSONDecodeError as exc:
        _fail(
            [
                rules.Problem(
                    label,
                    "not_json",
                    {"detail": f"{exc.msg} at line {exc.lineno}, column {exc.colno}"},
                )
            ]
        )


def _print(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _read_sheet(raw: Any, settings: rules.Settings | None = None) -> rules.LarpSheet:
    """Convert a tabletop sheet, or exit 2 listing every problem."""
    try:
        return rules.convert_sheet(raw, settings)
    except rules.InvalidInput as exc:
        _fail(exc.problems)


@sheets_cli.command("convert")
@click.argument("sheet_file", metavar="SHEET.json", type=click.Path(dir_okay=False))
def convert_command(sheet_file: str) -> None:
    """Print the larp sheet of a tabletop SHEET.json; exit 2 listing every problem."""
    _print(_read_sheet(_load_json(sheet_file, "sheet")).to_dict())


@log_cli.command("replay")
@click.argument("sheet_file", metavar="SHEET.json", type=click.Path(dir_okay=False))
@click.argument("log_file", metavar="LOG.json", type=click.Path(dir_okay=False))
@click.option(
    "--at",
    "at_text",
    required=True,
    metavar="ISO-8601",
    help="The instant to compute the state for.",
)
@click.option(
    "--settings",
    "settings_file",
    metavar="SETTINGS.json",
    type=click.Path(dir_okay=False),
    help="Event settings (turn length, rules, tables).",
)
def replay_command(sheet_file: str, log_file: str, at_text: str, settings_file: str | None):
    """Print a character's state at --at from SHEET.json and an exported LOG.json."""
    try:
        at = rules.parse_instant(at_text)
    except ValueError:
        _fail([rules.Problem("--at", "not_instant", {"got": at_text})])
    raw_sheet = _load_json(sheet_file, "sheet")
    raw_settings = _load_json(settings_file, "settings") if settings_file else None
    try:
        ruleset = rules.sheet_ruleset(raw_sheet)
    except rules.InvalidInput as exc:
        _fail(exc.problems)
    try:
        settings = rules.read_settings(raw_settings, ruleset)
    except rules.InvalidInput as exc:
        _fail(exc.problems, "settings.")
    sheet = _read_sheet(raw_sheet, settings)
    try:
        entries = rules.read_log(_load_json(log_file, "log"))
    except rules.InvalidInput as exc:
        _fail(exc.problems, "log")
    snapshot = rules.state_at(sheet, settings, entries, at)
    for conflict in snapshot.conflicts:
        click.echo(
            f"conflict {conflict.id}: {refusal_message(conflict.code, conflict.params)}", err=True
        )
    _print(snapshot.to_dict())
