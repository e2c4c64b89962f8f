"""marks moved by the database: triggers raise an event's and its characters' versions and
the marks (epoch, versions, accounts, refusals, conflicts) whoever writes, the app, a
command, an operator's SQL or a restore; an entry says whether the app stepped it onto the
latest fold (stepped_on); the marks of the epoch, of every version and of refusals

Triggers, not the app's ORM listeners: a listener sees only the writes made through the
app's own session, and an operator's UPDATE, a bare connection or a restored copy went
unseen. Each trigger is FOR EACH ROW on both dialects (SQLite has no other kind), so the
two behave alike; the common path, one entry, is one row. A row trigger of PostgreSQL calls
a function of its own (the same name).

What moves what (services/versions.py says why):

- entry inserted: its character's version (the event's, raised by one); the conflicts mark
  unless ``stepped_on``;
- entry updated or deleted (the log is append-only: history rewritten): its character's
  version, the conflicts mark and the epoch;
- badge inserted, updated or deleted: its character's version;
- character inserted or updated (any column but ``version``): its version; its larp sheet:
  the conflicts mark; moved to another event or deleted: the epoch;
- event inserted: the versions mark; updated (any column but ``version``): its version and
  every character's of it; its settings or rule system: the conflicts mark; deleted: the
  epoch; its version moved (by any of these or by hand): the versions mark;
- an account, a token, a session (updated or deleted), who works what and a dismissed
  conflict (inserted, updated or deleted): the accounts mark;
- a refused entry inserted, updated or deleted: the refusals mark.

A later migration that rebuilds one of these tables on SQLite (a batch operation copies
the table and drops the old one) drops its triggers with it: it must create them again.
``flask db upgrade`` fails naming any trigger missing (services/database_health.py).

Revision ID: 6a2d8e4f1b37
Revises: 5e8b3f0a9c21
Create Date: 2026-12-05 09:10:00.000000

"""
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6a2d8e4f1b37'
down_revision = '5e8b3f0a9c21'
branch_labels = None
depends_on = None

# An epoch is a random number below this: raised by one at each rewrite, it stays an integer.
EPOCH_RANGE = 2**30

# (name, table, operation, condition, actions). An action: ("touch", character id) raises
# the character's event's version and gives it to the character; ("event", event id) the
# same for every character of the event; ("mark", name[, condition]) raises a mark.
ACCOUNTS = [("mark", "accounts")]
TRIGGERS = [
    ("larp_entry_insert", "entry", "INSERT", None,
     [("touch", "NEW.character_id"), ("mark", "conflicts", "NOT NEW.stepped_on")]),
    ("larp_entry_update", "entry", "UPDATE", None,
     [("touch", "NEW.character_id"), ("touch", "OLD.character_id"),
      ("mark", "conflicts"), ("mark", "epoch")]),
    ("larp_entry_delete", "entry", "DELETE", None,
     [("touch", "OLD.character_id"), ("mark", "conflicts"), ("mark", "epoch")]),
    ("larp_badge_insert", "badge", "INSERT", None, [("touch", "NEW.character_id")]),
    ("larp_badge_update", "badge", "UPDATE", None,
     [("touch", "NEW.character_id"), ("touch", "OLD.character_id")]),
    ("larp_badge_delete", "badge", "DELETE", None, [("touch", "OLD.character_id")]),
    ("larp_character_insert", "character", "INSERT", None, [("touch", "NEW.id")]),
    ("larp_character_update", "character", "UPDATE", "NEW.version = OLD.version",
     [("touch", "NEW.id")]),
    ("larp_character_update_sheet", "character", "UPDATE OF larp", None,
     [("mark", "conflicts")]),
    ("larp_character_update_event", "character", "UPDATE OF event_id",
     "NEW.event_id <> OLD.event_id", [("mark", "epoch")]),
    ("larp_character_delete", "character", "DELETE", None, [("mark", "epoch")]),
    ("larp_event_insert", "event", "INSERT", None, [("mark", "versions")]),
    ("larp_event_update", "event", "UPDATE", "NEW.version = OLD.version",
     [("event", "NEW.id")]),
    ("larp_event_update_rules", "event", "UPDATE OF settings, ruleset", None,
     [("mark", "conflicts")]),
    ("larp_event_update_version", "event", "UPDATE OF version",
     "NEW.version <> OLD.version", [("mark", "versions")]),
    ("larp_event_delete", "event", "DELETE", None, [("mark", "epoch")]),
    *(
        (f"larp_{table}_{operation.lower()}", table, operation, None, ACCOUNTS)
        for table in ("user", "api_token", "web_session")
        for operation in ("UPDATE", "DELETE")
    ),
    *(
        (f"larp_{table}_{operation.lower()}", table, operation, None, actions)
        for table, actions in (
            ("referee_event", ACCOUNTS),
            ("dismissed_conflict", ACCOUNTS),
            ("refused_entry", [("mark", "refusals")]),
        )
        for operation in ("INSERT", "UPDATE", "DELETE")
    ),
]
NEW_MARKS = ("epoch", "versions", "refusals")


def _sqlite(actions):
    statements = []
    for action, *args in actions:
        if action == "touch":
            (character,) = args
            statements += [
                'UPDATE event SET version = version + 1'
                f' WHERE id = (SELECT event_id FROM "character" WHERE id = {character})',
                'UPDATE "character" SET version = (SELECT version FROM event'
                f' WHERE event.id = "character".event_id) WHERE id = {character}',
            ]
        elif action == "event":
            (event,) = args
            statements += [
                f'UPDATE event SET version = version + 1 WHERE id = {event}',
                'UPDATE "character" SET version = (SELECT version FROM event'
                f' WHERE id = {event}) WHERE event_id = {event}',
            ]
        else:
            name, condition = (*args, None)[:2]
            also = f" AND {condition}" if condition else ""
            statements.append(f"UPDATE mark SET value = value + 1 WHERE name = '{name}'{also}")
    return "".join(f"    {s};\n" for s in statements)


def _postgresql(actions):
    lines = []
    for action, *args in actions:
        if action == "touch":
            (character,) = args
            lines += [
                'UPDATE event SET version = version + 1'
                f' WHERE id = (SELECT event_id FROM "character" WHERE id = {character})'
                ' RETURNING version INTO raised;',
                f'UPDATE "character" SET version = raised WHERE id = {character};',
            ]
        elif action == "event":
            (event,) = args
            lines += [
                f'UPDATE event SET version = version + 1 WHERE id = {event}'
                ' RETURNING version INTO raised;',
                f'UPDATE "character" SET version = raised WHERE event_id = {event};',
            ]
        else:
            name, condition = (*args, None)[:2]
            statement = f"UPDATE mark SET value = value + 1 WHERE name = '{name}';"
            lines.append(f"IF {condition} THEN {statement} END IF;" if condition else statement)
    return "".join(f"    {line}\n" for line in lines)


def create_triggers(dialect):
    for name, table, operation, condition, actions in TRIGGERS:
        if dialect == "postgresql":
            op.execute(
                f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$\n"
                "DECLARE raised integer;\nBEGIN\n"
                f"{_postgresql(actions)}    RETURN NULL;\nEND $$"
            )
            when = f" WHEN ({condition})" if condition else ""
            op.execute(
                f'CREATE TRIGGER {name} AFTER {operation} ON "{table}" FOR EACH ROW{when}'
                f" EXECUTE FUNCTION {name}()"
            )
        else:
            when = f" WHEN {condition}" if condition else ""
            op.execute(
                f'CREATE TRIGGER {name} AFTER {operation} ON "{table}" FOR EACH ROW{when}'
                f"\nBEGIN\n{_sqlite(actions)}END"
            )


def drop_triggers(dialect):
    for name, table, *_ in TRIGGERS:
        if dialect == "postgresql":
            op.execute(f'DROP TRIGGER IF EXISTS {name} ON "{table}"')
            op.execute(f"DROP FUNCTION IF EXISTS {name}()")
        else:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")


def upgrade():
    dialect = op.get_bind().dialect.name
    op.add_column(
        'entry', sa.Column('stepped_on', sa.Boolean(), nullable=False, server_default=sa.false())
    )
    mark = sa.table('mark', sa.column('name', sa.String), sa.column('value', sa.Integer))
    op.bulk_insert(
        mark,
        [
            {'name': 'epoch', 'value': 1 + secrets.randbelow(EPOCH_RANGE)},
            {'name': 'versions', 'value': 0},
            {'name': 'refusals', 'value': 0},
        ],
    )
    # Folds stored before: their fingerprint names no epoch, none is read again.
    op.execute("DELETE FROM kept_fold")
    create_triggers(dialect)


def downgrade():
    dialect = op.get_bind().dialect.name
    drop_triggers(dialect)
    op.execute("DELETE FROM mark WHERE name IN ('epoch', 'versions', 'refusals')")
    with op.batch_alter_table('entry') as batch_op:
        batch_op.drop_column('stepped_on')
