"""Command line: ``flask --app larp_app <noun> <verb>``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext
from sqlalchemy.exc import IntegrityError

from . import rules
from .archive.backups import (
    BackupError,
    create_backup,
    default_path,
    new_epoch_after_restore,
    restore_backup,
    serving_lately,
)
from .archive.campaign import continue_event
from .archive.event_archive import ArchiveRefused, export_event, import_event
from .badges import LAYOUTS, PAPERS
from .extensions import db
from .messages import badge_labels, problem_message, refusal_message
from .models import Event, RefereeEvent, User
from .private_files import private_file, private_folder
from .reads.words import badge_words
from .services.assignments import assign_referees, referees_of
from .services.badge_prints import print_badges
from .services.demo import load_demo
from .services.events import archive_event, create_event
from .services.reimport import ADDED, UNCHANGED, UPDATED, apply_import
from .services.sheet_files import ENCODINGS, read_json, read_sheet_bytes
from .services.users import (
    ROLES,
    LastOrganiser,
    create_user,
    end_sessions,
    new_token,
    reset_password,
    revoke_token,
    set_active,
    set_password,
    tokens_of,
)

sheets_cli = AppGroup("sheets", help="Check, convert and import character sheets.")
log_cli = AppGroup("log", help="Work with exported referee logs.")
event_cli = AppGroup(
    "event", help="Create, archive and continue events; read their settings; move one."
)
users_cli = AppGroup(
    "users", help="Accounts: create, disable or enable, log out, reset a password, API tokens."
)
tokens_cli = AppGroup("tokens", help="API tokens: revoke them.")
badges_cli = AppGroup("badges", help="Print badges.")
tls_cli = AppGroup("tls", help="HTTPS on a laptop: a local authority phones trust.")
backup_cli = AppGroup("backup", help="Back up the database while the app serves; restore it.")


settings_option = click.option(
    "--settings",
    "settings_file",
    metavar="SETTINGS.json",
    type=click.Path(dir_okay=False),
    help="Event settings (turn length, rules, tables).",
)


def register(app: Flask) -> None:
    groups = (
        sheets_cli,
        log_cli,
        event_cli,
        users_cli,
        tokens_cli,
        badges_cli,
        backup_cli,
        tls_cli,
    )
    for group in groups:
        app.cli.add_command(group)
    app.cli.add_command(demo_command)
    app.cli.add_command(push_command)


def _fail(problems: list[rules.Problem], prefix: str = "") -> None:
    """Print one ``field: message`` line per problem on stderr and exit with status 2."""
    for p in problems:
        click.echo(problem_message(rules.Problem(prefix + p.path, p.code, p.params)), err=True)
    sys.exit(2)


def _refuse(words: str) -> None:
    """Print why on stderr and exit with status 2."""
    click.echo(words, err=True)
    sys.exit(2)


def _on_row(problem: rules.Problem, rows: list[int]) -> rules.Problem:
    """Name a sheet's problem by its row in the file: ``[3].x`` -> ``row 5: x``."""
    index, sep, rest = problem.path.partition("].")
    if not sep or not index.startswith("["):
        return problem
    return rules.Problem(f"row {rows[int(index[1:])]}: {rest}", problem.code, problem.params)


def _load_json(path: str, label: str) -> Any:
    try:
        return read_json(Path(path).read_text(encoding="utf-8"), label)
    except (OSError, UnicodeDecodeError) as exc:
        _fail([rules.Problem(label, "not_json", {"detail": str(exc)})])
    except rules.InvalidInput as exc:
        _fail(exc.problems)


def _shown(value: Any) -> str:
    """A sheet's value on one line: text as is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


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
@settings_option
def replay_command(sheet_file: str, log_file: str, at_text: str, settings_file: str | None):
    """Print a character's state at --at from SHEET.json and an exported LOG.json."""
    try:
        at = rules.parse_instant(at_text, zone=True)
    except ValueError as wrong:
        _fail([rules.Problem("--at", rules.instant_problem(wrong), {"got": at_text})])
    raw_sheet = _load_json(sheet_file, "sheet")
    raw_settings = _load_json(settings_file, "settings") if settings_file else None
    try:
        ruleset = rules.sheet_ruleset(raw_sheet)
    except rules.InvalidInput as exc:
        _fail(exc.problems)
    if raw_settings is None or (
        isinstance(raw_settings, dict) and "turn_seconds" not in raw_settings
    ):
        # As a new event gets: the rule system's own turn (ten seconds for one of short turns).
        turn = rules.get_ruleset(ruleset).turn_seconds
        raw_settings = {"turn_seconds": turn, **(raw_settings or {})}
    try:
        settings = rules.read_settings(raw_settings, ruleset)
    except rules.InvalidInput as exc:
        _fail(exc.problems, "settings.")
    sheet = _read_sheet(raw_sheet, settings)
    try:
        entries = rules.read_log(_load_json(log_file, "log"), ruleset)
    except rules.InvalidInput as exc:
        _fail(exc.problems, "log")
    snapshot = rules.state_at(sheet, settings, entries, at)
    for conflict in snapshot.conflicts:
        click.echo(
            f"conflict {conflict.id}: {refusal_message(conflict.code, conflict.params, ruleset)}",
            err=True,
        )
    _print(snapshot.to_dict())


@log_cli.command("kinds")
@click.option("--ruleset", default=None, help="Only the shared kinds and this rule system's.")
def log_kinds_command(ruleset: str | None) -> None:
    """List the kinds of log entry: each key, label, who may log it, and its fields
    (required ones marked with *)."""
    try:
        kinds = rules.entry_kinds(ruleset)
    except KeyError:
        _fail(
            [
                rules.Problem(
                    "--ruleset",
                    "unknown_ruleset",
                    {"got": ruleset, "allowed": rules.ruleset_keys()},
                )
            ]
        )
    for kind in kinds:
        label = kind.label if isinstance(kind.label, str) else kind.label.get("en", kind.key)
        fields = " ".join(f.name + ("*" if f.required else "") for f in kind.fields())
        roles = ",".join(sorted(kind.roles))
        click.echo(f"{kind.key}\t{label}\t{roles}\t{fields}".rstrip())


@sheets_cli.command("import")
@click.argument("event_id", metavar="EVENT", type=int)
@click.argument("sheets_file", metavar="FILE", type=click.Path(dir_okay=False, exists=True))
def import_command(event_id: int, sheets_file: str) -> None:
    """Import a JSON list or a CSV file of tabletop sheets into EVENT: all of them, or none
    (UTF-8, UTF-16 or Windows-1252, as the web import reads them)."""
    event = db.session.get(Event, event_id)
    if event is None:
        _fail([rules.Problem("EVENT", "not_found", {"got": event_id})])
    short: list = []  # the spreadsheet's rows short of cells
    try:
        # The bytes as the web import reads them: UTF-8 (BOM or not), UTF-16, Windows-1252.
        sheets, rows, encoding = read_sheet_bytes(
            Path(sheets_file).read_bytes(), sheets_file, event.ruleset, short=short
        )
    except rules.InvalidInput as exc:
        _fail(exc.problems)
    if encoding != ENCODINGS["utf-8"]:
        click.echo(f"read as {encoding}")
    try:
        plan = apply_import(event, sheets, None, short)
    except rules.InvalidInput as exc:
        db.session.rollback()
        _fail([_on_row(p, rows) for p in exc.problems])
    db.session.commit()
    for row, line in zip(plan.rows, rows, strict=True):
        if row.kind != UPDATED:
            continue
        changes = "; ".join(f"{c.path} {_shown(c.before)} → {_shown(c.after)}" for c in row.changes)
        click.echo(f"row {line}: updated {row.character.name}: {changes}")
        for c in row.changes:
            if c.web_edit is not None:
                click.echo(
                    f"row {line}: {c.path} was changed on the web since the last import "
                    f"({c.web_edit.author or '-'}, {rules.format_instant(c.web_edit.at)}): "
                    "this import replaced that change",
                    err=True,
                )
    added, updated = plan.count(ADDED), plan.count(UPDATED)
    click.echo(
        f"imported {added + updated} characters into event {event.id}: {added} added, "
        f"{updated} updated, {plan.count(UNCHANGED)} unchanged"
    )


@event_cli.command("create")
@click.argument("name")
@click.option("--ruleset", required=True, help="The key of the event's rule system.")
@settings_option
def event_create_command(name: str, ruleset: str, settings_file: str | None) -> None:
    """Create an event and print its id."""
    settings = _load_json(settings_file, "settings") if settings_file else None
    try:
        event = create_event(name, ruleset, settings)
    except rules.InvalidInput as exc:
        _fail(exc.problems)
    db.session.commit()
    click.echo(f"event {event.id}: {event.name} ({event.ruleset})")


@event_cli.command("settings")
@click.argument("event_id", metavar="EVENT", type=int)
def event_settings_command(event_id: int) -> None:
    """Print EVENT's stored settings, its dice secret included: with them, ``log replay``
    rolls the same dice as the app. Only whoever runs the server can read them."""
    event = db.session.get(Event, event_id)
    if event is None:
        _fail([rules.Problem("EVENT", "not_found", {"got": event_id})])
    _print(event.settings or {})


def _event(event_id: int) -> Event:
    event = db.session.get(Event, event_id)
    if event is None:
        _fail([rules.Problem("EVENT", "not_found", {"got": event_id})])
    return event


@event_cli.command("archive")
@click.argument("event_id", metavar="EVENT", type=int)
@click.option("--reopen", is_flag=True, help="Make the event writable again.")
def event_archive_command(event_id: int, reopen: bool) -> None:
    """Make EVENT read-only and take it out of the referees' roster (nothing is deleted)."""
    event = _event(event_id)
    archive_event(event, archived=not reopen)
    db.session.commit()
    click.echo(f"event {event.id}: {'reopened' if reopen else 'archived'}")


@event_cli.command("referees")
@click.argument("event_id", metavar="EVENT", type=int)
@click.option("--add", "added", multiple=True, metavar="NAME", help="A referee who works it.")
@click.option("--remove", "removed", multiple=True, metavar="NAME", help="One who no longer does.")
def event_referees_command(event_id: int, added, removed) -> None:
    """List the referees who work EVENT, after adding and taking off those named (seen at
    once on every worker). A referee who works no event works every open event."""
    event = _event(event_id)
    wanted = referees_of(event)
    for username in added:
        user = _user_named(username)
        if user.role != "referee":
            _refuse(f"--add: {username} is an {user.role}, who works every event already")
        wanted.add(user.id)
    for username in removed:
        wanted.discard(_user_named(username).id)
    if added or removed:
        assign_referees(event, wanted)
        db.session.commit()
    names = db.session.scalars(
        db.select(User.username)
        .join(RefereeEvent, RefereeEvent.user_id == User.id)
        .where(RefereeEvent.event_id == event.id)
        .order_by(User.username)
    )
    for name in names:
        click.echo(name)


@event_cli.command("continue")
@click.argument("event_id", metavar="OLD", type=int)
@click.option("--name", required=True, help="The new event's name.")
@click.option(
    "--bring-back",
    "bring_back",
    multiple=True,
    type=int,
    metavar="CHARACTER",
    help="A dead character's id to carry over all the same (repeatable).",
)
@click.option(
    "--reissue-badges",
    is_flag=True,
    help="New badges for everyone (default: each player keeps their card).",
)
def event_continue_command(event_id: int, name: str, bring_back, reissue_badges: bool) -> None:
    """Create the next event with OLD's survivors' tabletop sheets, then archive OLD."""
    old = _event(event_id)
    try:
        carried = continue_event(
            old, name, bring_back=list(bring_back), keep_badges=not reissue_badges
        )
    except rules.InvalidInput as exc:
        db.session.rollback()
        _fail(exc.problems)
    db.session.commit()
    click.echo(
        f"event {carried.event.id}: {carried.event.name} ({carried.event.ruleset}), "
        f"{len(carried.carried)} characters carried over from event {old.id}"
    )
    for character in carried.dead:
        click.echo(f"left out (dead): {character.id} {character.name} ({character.player})")
    click.echo(
        f"badges: {carried.kept_badges} kept, {len(carried.carried) - carried.kept_badges} new"
    )


@event_cli.command("export")
@click.argument("event_id", metavar="EVENT", type=int)
@click.option("--out", required=True, type=click.Path(dir_okay=False), metavar="FILE")
def event_export_command(event_id: int, out: str) -> None:
    """Write EVENT to one archive FILE: everything but passwords (keep it as safe as a backup)."""
    event = db.session.get(Event, event_id)
    if event is None:
        _fail([rules.Problem("EVENT", "not_found", {"got": event_id})])
    archive = export_event(event)
    path = private_file(Path(out))  # badge secrets are inside: this account's only
    path.write_text(json.dumps(archive, ensure_ascii=False, indent=1), encoding="utf-8")
    click.echo(
        f"event {event.id} written to {out}: {len(archive['characters'])} characters, "
        f"{len(archive['entries'])} entries"
    )


@event_cli.command("import")
@click.argument("archive_file", metavar="FILE", type=click.Path(dir_okay=False, exists=True))
def event_import_command(archive_file: str) -> None:
    """Load an event archive written by `event export` into this database, once."""
    archive = _load_json(archive_file, "FILE")
    try:
        event, made = import_event(archive)
        db.session.flush()
    except ArchiveRefused as exc:
        db.session.rollback()
        click.echo(str(exc), err=True)
        sys.exit(2)
    except IntegrityError as exc:  # a clash the checks did not foresee: still in words
        db.session.rollback()
        reason = str(exc.orig).strip().splitlines()[0][:200]
        click.echo(f"FILE: clashes with this database ({reason}): nothing imported", err=True)
        sys.exit(2)
    db.session.commit()
    click.echo(f"imported as event {event.id}: {event.name} ({len(event.characters)} characters)")
    for username, password in made:
        click.echo(f"new account {username}: password {password}")


@users_cli.command("create")
@click.argument("username")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.option("--password", help="Generated and printed when not given.")
def users_create_command(username: str, role: str, password: str | None) -> None:
    """Create an account; print its password when generated, and an API token for scripts."""
    try:
        user, password_used, token = create_user(username, role, password)
    except rules.InvalidInput as exc:
        _fail(exc.problems)
    db.session.commit()
    click.echo(f"created {user.role} {user.username}")
    if password is None:
        click.echo(f"password: {password_used}")
    click.echo(f"token (for scripts): {token}")


def _user_named(username: str) -> User:
    user = db.session.scalar(db.select(User).where(User.username == username))
    if user is None:
        _fail([rules.Problem("NAME", "not_found", {"got": username})])
    return user


@users_cli.command("password")
@click.argument("username", metavar="NAME")
@click.option("--password", help="Generated and printed when not given.")
def users_password_command(username: str, password: str | None) -> None:
    """Reset an account's password (its sessions and API tokens end); print it when generated."""
    user = _user_named(username)
    try:
        if password is None:
            password = reset_password(user)
            click.echo(f"password: {password}")
        else:
            set_password(user, password)
    except rules.InvalidInput as exc:
        _fail(exc.problems)
    db.session.commit()
    click.echo(f"{user.username}: password changed, every session and API token ended")


@users_cli.command("tokens")
@click.argument("username", metavar="NAME")
def users_tokens_command(username: str) -> None:
    """List an account's working API tokens: id, label, when made (never the token itself)."""
    for token in tokens_of(_user_named(username)):
        click.echo(f"{token.id}\t{token.label}\t{rules.format_instant(token.created_at)}")


@users_cli.command("new-token")
@click.argument("username", metavar="NAME")
@click.option("--label", default="token", help="What the token is for.")
def users_new_token_command(username: str, label: str) -> None:
    """Make a new API token for the account and print it (only this once)."""
    token = new_token(_user_named(username), label)
    db.session.commit()
    click.echo(f"token: {token}")


@users_cli.command("revoke-token")
@click.argument("username", metavar="NAME")
@click.argument("token_id", metavar="ID", type=int)
def users_revoke_token_command(username: str, token_id: int) -> None:
    """Revoke one API token of the account (its id from `users tokens`)."""
    if not revoke_token(_user_named(username), token_id):
        _fail([rules.Problem("ID", "not_found", {"got": token_id})])
    db.session.commit()
    click.echo(f"token {token_id} revoked")


@users_cli.command("disable")
@click.argument("username", metavar="NAME")
def users_disable_command(username: str) -> None:
    """Disable an account: its phones are logged out and its API tokens stop working, at
    once on every worker (never the last active organiser)."""
    user = _user_named(username)
    try:
        set_active(user, False)
    except LastOrganiser:
        _refuse(f"NAME: {username} is the last active organiser: enable another one first")
    db.session.commit()
    click.echo(f"{user.username}: disabled, every session and API token ended")


@users_cli.command("enable")
@click.argument("username", metavar="NAME")
def users_enable_command(username: str) -> None:
    """Enable an account again: it logs in with its password (its old tokens stay ended)."""
    user = _user_named(username)
    set_active(user, True)
    db.session.commit()
    click.echo(f"{user.username}: enabled")


@users_cli.command("logout")
@click.argument("username", metavar="NAME")
def users_logout_command(username: str) -> None:
    """Log every phone and browser of the account out and end its API tokens (a lost phone)."""
    user = _user_named(username)
    end_sessions(user)
    db.session.commit()
    click.echo(f"{user.username}: every session and API token ended")


@tokens_cli.command("revoke")
@click.argument("username", metavar="NAME")
@click.option("--label", help="Revoke the account's working tokens of this label.")
@click.option("--id", "token_id", type=int, help="Revoke the token of this id (`users tokens`).")
@click.option("--all", "every", is_flag=True, help="Revoke every token of the account.")
def tokens_revoke_command(
    username: str, label: str | None, token_id: int | None, every: bool
) -> None:
    """Revoke API tokens of the account NAME: by --label, by --id, or --all; at once on every
    worker. Exit 2 when none matched."""
    ways = [way for way, given in (("--label", label), ("--id", token_id), ("--all", every))
            if given not in (None, False)]  # fmt: skip
    if len(ways) != 1:
        _refuse("name the tokens one way: --label LABEL, --id ID or --all")
    user = _user_named(username)
    working = [
        token
        for token in tokens_of(user)
        if every or token.id == token_id or (label is not None and token.label == label)
    ]
    if not working:
        named = label if label is not None else token_id if token_id is not None else "a token"
        _fail([rules.Problem(ways[0], "not_found", {"got": named})])
    for token in working:
        revoke_token(user, token.id)
    db.session.commit()
    for token in working:
        click.echo(f"token {token.id} ({token.label}) revoked")


@click.command("push")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=int, default=5001, show_default=True, help="The port to listen on.")
@click.option("--certfile", type=click.Path(dir_okay=False, exists=True), help="HTTPS: PEM.")
@click.option("--keyfile", type=click.Path(dir_okay=False, exists=True), help="Its key.")
@with_appcontext
def push_command(host: str, port: int, certfile: str | None, keyfile: str | None) -> None:
    """Tell phones of their character's changes (server-sent events), beside the workers.

    The app's pages find it at PUSH_URL (``make run`` sets it); without it they poll."""
    from .push.server import run

    click.echo(f"push: streams served on {host}:{port}")
    run(current_app._get_current_object(), host, port, certfile, keyfile)


@click.command("demo")
@with_appcontext
def demo_command() -> None:
    """Load the demo events (one of each shipped rule system), an organiser and a referee, once."""
    result = load_demo()
    db.session.commit()
    click.echo(
        ("created" if result.created else "already there")
        + f": demo events {result.event_id} ({_ruleset_of(result.event_id)}),"
        + f" {result.athkri_event_id} ({_ruleset_of(result.athkri_event_id)})"
    )
    for username, password in result.logins:
        click.echo(f"login: {username} / {password}")
    if not result.logins:
        click.echo("demo logins: as printed when they were made (reset: flask users password NAME)")


@badges_cli.command("print")
@click.argument("event_id", metavar="EVENT", type=int)
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(dir_okay=False, writable=True),
    metavar="FILE.pdf",
)
@click.option("--layout", type=click.Choice(list(LAYOUTS)), default="cr80-10up", show_default=True)
@click.option("--paper", type=click.Choice(list(PAPERS)), default="a4", show_default=True)
@click.option("--faction", default="", help="Only this faction's badges.")
@click.option("--only-new", is_flag=True, help="Only badges never printed (new or reissued).")
@click.option("--base-url", help="Address in the QR codes (default: PUBLIC_BASE_URL).")
def badges_print_command(event_id, out, layout, paper, faction, only_new, base_url):
    """Write the print PDF of EVENT's badges, fronts and backs for long-edge duplex."""
    event = db.session.get(Event, event_id)
    if event is None:
        _fail([rules.Problem("EVENT", "not_found", {"got": event_id})])
    base = base_url or current_app.config.get("PUBLIC_BASE_URL")
    if not base:  # the address `make run` prints, where phones reach this laptop
        port = int(os.environ.get("PORT") or 5000)
        from . import tls  # (cryptography: loaded only by the commands that need it)

        base = tls.laptop_base_url(current_app, port, os.environ.get("HOST"))
        click.echo(f"QR codes point at {base} (--base-url to change)")
    printed = print_badges(
        event,
        out,
        base=base,
        labels=badge_words(badge_labels(), event.ruleset),
        layout=layout,
        paper=paper,
        faction=faction,
        only_new=only_new,
    )
    db.session.commit()
    if printed.count:
        click.echo(f"{printed.count} badges written to {out} ({layout}, {paper})")
    elif not printed.left_out:
        click.echo("no badges to print: nothing written")
    if printed.left_out:
        click.echo(
            f"{len(printed.left_out)} badges came from another database and were left out: "
            "reissue them to print, or print them where they were issued "
            "(Reissue badge on each character's page)",
            err=True,
        )
        for character in printed.left_out:
            click.echo(f"left out: {character.id} {character.name} ({character.player})", err=True)
        if not printed.count:
            sys.exit(2)


@backup_cli.command("create")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
def backup_create_command(path: str | None) -> None:
    """Write a consistent copy of the database to PATH (default: instance/backups/)."""
    uri = current_app.config["SQLALCHEMY_DATABASE_URI"]
    try:
        folder = Path(current_app.instance_path) / "backups"
        target = Path(path) if path else default_path(uri, private_folder(folder))
        written = create_backup(uri, target)
    except BackupError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    click.echo(f"backup written to {written} ({written.stat().st_size} bytes)")


@backup_cli.command("restore")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--yes", is_flag=True, help="Do not ask before replacing the database.")
@click.option(
    "--force",
    is_flag=True,
    help="Restore while the app serves: entries it stores meanwhile may be lost.",
)
def backup_restore_command(path: str, yes: bool, force: bool) -> None:
    """Replace the database with the backup at PATH. Refused while the app serves (a worker
    answered in the last 30 s) unless --force; either way every worker then forgets what
    it kept of the database as it was (the database gets a new epoch)."""
    uri = current_app.config["SQLALCHEMY_DATABASE_URI"]
    lately = serving_lately()
    if lately is not None and not force:
        click.echo(
            f"the app is serving (a worker answered {lately:.0f} s ago): stop it first, or "
            "restore with --force (entries it stores meanwhile may be lost)",
            err=True,
        )
        sys.exit(2)
    if not yes:
        click.confirm("Replace everything in the database with this backup?", abort=True)
    db.session.remove()
    db.engine.dispose()  # no pooled connection of this process holds the old tables
    try:
        restore_backup(uri, Path(path))
        epoch = new_epoch_after_restore(db.engine)
    except BackupError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    click.echo(f"database restored from {path}")
    if not epoch:
        click.echo("the backup is older than this code: run `flask db upgrade` now", err=True)


@tls_cli.command("init")
@click.option("--name", "names", multiple=True, help="Another DNS name for this machine.")
@click.option("--ip", "addresses", multiple=True, help="Another IP address for this machine.")
@click.option("--keep", is_flag=True, help="Change nothing while the certificate still fits.")
def tls_init_command(names: tuple[str, ...], addresses: tuple[str, ...], keep: bool) -> None:
    """Make the local authority (once) and a server certificate for this machine's addresses.

    Run it again after the laptop changes network, or yearly: phones keep the authority.
    """
    from . import tls

    files = tls.tls_files(current_app)
    all_names = [*tls.default_names(), *names]
    all_addresses = [*tls.lan_addresses(), "127.0.0.1", *addresses]
    try:
        for address in addresses:
            tls.ipaddress.ip_address(address)
    except ValueError:
        _fail([rules.Problem("--ip", "not_ip", {"got": address})])
    public = [a for a in addresses if not tls.is_venue_address(a)]
    if public:  # the venue's authority signs for private addresses only
        _fail([rules.Problem("--ip", "not_private", {"got": public[0]})])
    fits = tls.authority_fits(files, all_names)
    if keep and fits and tls.covers(files, all_names, all_addresses):
        click.echo(f"HTTPS certificate kept: {files.cert}")
        return
    replaced = files.ca_cert.exists() and not fits
    ca_cert, new = tls.ensure_authority(files, all_names)
    server = tls.issue_server_certificate(files, all_names, all_addresses)
    until = f"{ca_cert.not_valid_after_utc:%Y-%m-%d}"
    said = f" (new, for this venue only, until {until}: phones install it once)" if new else ""
    click.echo(f"authority: {files.ca_cert}{said}")
    if replaced:
        click.echo(
            "the previous authority is replaced (it could sign for any site, or had expired, "
            "or did not name this machine): remove it from the phones that trusted it"
        )
    click.echo(
        f"server certificate: {files.cert}, until {server.not_valid_after_utc:%Y-%m-%d}, for "
        + ", ".join([*dict.fromkeys(all_names), *dict.fromkeys(all_addresses)])
    )


def _ruleset_of(event_id: int | None) -> str:
    """The name of an event's rule system, for the command line (English)."""
    event = db.session.get(Event, event_id) if event_id is not None else None
    if event is None:
        return "-"
    ruleset = rules.get_ruleset(event.ruleset)
    return ruleset.words().in_language("en", ruleset.language)["name"]
