"""every schema main ever made is completed to this one; users lose the unread session epoch;
a heartbeat row /healthz rewrites to know the database accepts a write

Migrations were once renumbered and re-parented after they had reached main, and one
(0003) gained a column after it had run. A database made then is stamped with a revision
whose ancestors, in today's chain, include migrations that never ran on it; upgrading it
ran nothing for them. This migration does not trust the stamp: it looks at the tables,
columns and indexes that exist and adds whatever any migration up to 0013 should have added,
with that migration's own data steps (hashes filled, tokens carried over, duplicate
refusals merged). On a database made by the chain as it is today it changes nothing but
the session epoch.

The steps below are copies, not imports: a migration keeps its own code.

Revision ID: 9b4e6f1d2a73
Revises: c6b21e990480
Create Date: 2026-12-02 04:30:00.000000

"""
import hashlib

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9b4e6f1d2a73'
down_revision = 'c6b21e990480'
branch_labels = None
depends_on = None


def _inspector():
    return sa.inspect(op.get_bind())  # a new one each time: no cached answers


def _tables():
    return set(_inspector().get_table_names())


def _columns(table):
    return {column['name'] for column in _inspector().get_columns(table)}


def _indexes(table):
    """Index name -> unique, counting unique constraints as unique indexes."""
    inspector = _inspector()
    found = {index['name']: bool(index['unique']) for index in inspector.get_indexes(table)}
    for constraint in inspector.get_unique_constraints(table):
        found[constraint['name']] = True
    return found


def _foreign_keys(on):
    """SQLite: a batch rebuild drops a table others refer to, which PRAGMA foreign_keys=ON
    forbids; the check is made once the new tables are in place. The pragma only changes
    outside a transaction."""
    if op.get_bind().dialect.name != 'sqlite':
        return
    with op.get_context().autocommit_block():
        if on:
            broken = op.get_bind().exec_driver_sql('PRAGMA foreign_key_check').all()
            if broken:
                raise RuntimeError(f'foreign keys broken by the rebuild: {broken[:5]}')
        op.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


def _add_missing(table, *columns):
    missing = [column for column in columns if column.name not in _columns(table)]
    if missing:
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in missing:
                batch_op.add_column(column)


def _index(table, name, columns, unique=False):
    if name not in _indexes(table):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.create_index(name, columns, unique=unique)


# 0003: faction colours -------------------------------------------------------------------------


def _faction_colours():
    _add_missing(
        'event', sa.Column('faction_colours', sa.JSON(), nullable=False, server_default='{}')
    )


# 0006: refusals once -----------------------------------------------------------------------------


def _refusals_once():
    _add_missing('refused_entry', sa.Column('params', sa.JSON(), nullable=True))
    if not _indexes('refused_entry').get('ix_refused_entry_client_id'):
        # A refusal stored twice (two identical batches at once) keeps its first row.
        op.execute(
            "DELETE FROM refused_entry WHERE id NOT IN "
            "(SELECT MIN(id) FROM refused_entry GROUP BY client_id)"
        )
        with op.batch_alter_table('refused_entry', schema=None) as batch_op:
            if 'ix_refused_entry_client_id' in _indexes('refused_entry'):
                batch_op.drop_index('ix_refused_entry_client_id')
            batch_op.create_index('ix_refused_entry_client_id', ['client_id'], unique=True)
    if 'dismissed_conflict' not in _tables():
        op.create_table(
            'dismissed_conflict',
            sa.Column('id', sa.Integer(), nullable=False),
            sa.Column('client_id', sa.String(length=36), nullable=False),
            sa.Column('user_id', sa.Integer(), nullable=False),
            sa.Column('at', sa.DateTime(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(['user_id'], ['user.id']),
            sa.PrimaryKeyConstraint('id'),
            sa.UniqueConstraint('client_id', 'user_id', name='uq_dismissed_conflict'),
        )


# 0007: between events ------------------------------------------------------------------------


def _between_events():
    if 'sheet_change' not in _tables():
        op.create_table(
            'sheet_change',
            sa.Column('id', sa.Integer(), nullable=False),
            sa.Column('character_id', sa.Integer(), nullable=False),
            sa.Column('at', sa.DateTime(timezone=True), nullable=False),
            sa.Column('user_id', sa.Integer(), nullable=True),
            sa.Column('author', sa.String(length=80), nullable=True),
            sa.Column('source', sa.String(length=20), nullable=False),
            sa.Column('before', sa.JSON(), nullable=True),
            sa.Column('after', sa.JSON(), nullable=False),
            sa.ForeignKeyConstraint(['character_id'], ['character.id']),
            sa.ForeignKeyConstraint(['user_id'], ['user.id']),
            sa.PrimaryKeyConstraint('id'),
        )
    _index('sheet_change', 'ix_sheet_change_character_id', ['character_id'])
    _add_missing('event', sa.Column('archived_at', sa.DateTime(timezone=True), nullable=True))
    _add_missing(
        'character',
        sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('present_at', sa.DateTime(timezone=True), nullable=True),
    )


# 0008: print heartbeat -----------------------------------------------------------------------


def _print_heartbeat():
    _add_missing(
        'print_job',
        sa.Column('heartbeat_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('running_key', sa.String(length=64), nullable=True),
    )
    if 'uq_print_job_running_key' not in _indexes('print_job'):
        with op.batch_alter_table('print_job', schema=None) as batch_op:
            batch_op.create_unique_constraint('uq_print_job_running_key', ['running_key'])


# 0009: versions --------------------------------------------------------------------------------


def _versions():
    _add_missing(
        'event', sa.Column('version', sa.Integer(), nullable=False, server_default='0')
    )
    _add_missing(
        'character', sa.Column('version', sa.Integer(), nullable=False, server_default='0')
    )
    _index('character', 'ix_character_event_version', ['event_id', 'version'])


# 0010: revocable tokens and sessions ---------------------------------------------------------


def _revocable_tokens():
    if 'api_token' not in _tables():
        op.create_table(
            'api_token',
            sa.Column('id', sa.Integer(), nullable=False),
            sa.Column('user_id', sa.Integer(), nullable=False),
            sa.Column('token_hash', sa.String(length=64), nullable=False),
            sa.Column('label', sa.String(length=80), nullable=False),
            sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
            sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
            sa.ForeignKeyConstraint(['user_id'], ['user.id']),
            sa.PrimaryKeyConstraint('id'),
            sa.UniqueConstraint('token_hash'),
        )
    _index('api_token', 'ix_api_token_user_id', ['user_id'])
    if 'web_session' not in _tables():
        op.create_table(
            'web_session',
            sa.Column('id', sa.Integer(), nullable=False),
            sa.Column('key_hash', sa.String(length=64), nullable=False),
            sa.Column('user_id', sa.Integer(), nullable=False),
            sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
            sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
            sa.ForeignKeyConstraint(['user_id'], ['user.id']),
            sa.PrimaryKeyConstraint('id'),
            sa.UniqueConstraint('key_hash'),
        )
    _index('web_session', 'ix_web_session_user_id', ['user_id'])
    if 'token_hash' in _columns('user'):
        # Each account's token so far becomes its first listed token.
        op.execute(
            "INSERT INTO api_token (user_id, token_hash, label, created_at) "
            "SELECT u.id, u.token_hash, 'first', u.created_at FROM \"user\" u "
            "WHERE u.token_hash IS NOT NULL AND NOT EXISTS "
            "(SELECT 1 FROM api_token t WHERE t.token_hash = u.token_hash)"
        )
        with op.batch_alter_table('user', schema=None) as batch_op:
            batch_op.drop_column('token_hash')


# 0011: badges and player links found by their hash -------------------------------------------


def _digest(text):
    # As larp_app.tokens.digest, copied: a migration never changes with the app's code.
    return hashlib.sha256(text.encode()).hexdigest()


def _fill(table, pairs):
    """Set each empty ``hash`` column from its clear ``source`` column, row by row."""
    conn = op.get_bind()
    sources = ", ".join(source for source, _ in pairs)
    rows = conn.execute(sa.text(f"SELECT id, {sources} FROM {table}")).all()
    sets = ", ".join(f"{target} = :{target}" for _, target in pairs)
    update = sa.text(f"UPDATE {table} SET {sets} WHERE id = :id")
    for row in rows:
        values = {"id": row[0]}
        for (_, target), text in zip(pairs, row[1:]):
            values[target] = None if text is None else _digest(text)
        conn.execute(update, values)


def _badge_hashes():
    _add_missing('print_job', sa.Column('skipped', sa.Integer(), nullable=False,
                                        server_default='0'))
    if 'secret_hash' not in _columns('badge'):
        _add_missing(
            'badge',
            sa.Column('secret_hash', sa.String(length=64), nullable=True),
            sa.Column('short_code_hash', sa.String(length=64), nullable=True),
        )
        _fill('badge', [('secret', 'secret_hash'), ('short_code', 'short_code_hash')])
        with op.batch_alter_table('badge', schema=None) as batch_op:
            batch_op.alter_column('secret_hash', existing_type=sa.String(length=64),
                                  nullable=False)
            batch_op.alter_column('short_code_hash', existing_type=sa.String(length=64),
                                  nullable=False)
            batch_op.alter_column('secret', existing_type=sa.String(length=40), nullable=True)
            batch_op.alter_column('short_code', existing_type=sa.String(length=12),
                                  nullable=True)
    _index('badge', 'ix_badge_secret_hash', ['secret_hash'], unique=True)
    _index('badge', 'ix_badge_short_code_hash', ['short_code_hash'], unique=True)
    if 'player_secret_hash' not in _columns('character'):
        _add_missing(
            'character', sa.Column('player_secret_hash', sa.String(length=64), nullable=True)
        )
        _fill('"character"', [('player_secret', 'player_secret_hash')])
    _index('character', 'ix_character_player_secret_hash', ['player_secret_hash'], unique=True)


# 0012: the events each referee works; entries by author and arrival -------------------------


def _referee_events():
    if 'referee_event' not in _tables():
        op.create_table(
            'referee_event',
            sa.Column('user_id', sa.Integer(), nullable=False),
            sa.Column('event_id', sa.Integer(), nullable=False),
            sa.ForeignKeyConstraint(['event_id'], ['event.id']),
            sa.ForeignKeyConstraint(['user_id'], ['user.id']),
            sa.PrimaryKeyConstraint('user_id', 'event_id'),
        )
    _index('referee_event', 'ix_referee_event_event_id', ['event_id'])
    _index('entry', 'ix_entry_author_received', ['author_id', 'received_at'])


# 0013: the instant an entry's referee gave it --------------------------------------------------


def _entry_instant():
    _add_missing('entry', sa.Column('referee_at', sa.DateTime(timezone=True), nullable=True))


def upgrade():
    _foreign_keys(False)
    _faction_colours()
    _refusals_once()
    _between_events()
    _print_heartbeat()
    _versions()
    _revocable_tokens()
    _badge_hashes()
    _referee_events()
    _entry_instant()
    # Raised to end sessions, read by nothing: sessions end by their own rows (web_session).
    if 'session_epoch' in _columns('user'):
        with op.batch_alter_table('user', schema=None) as batch_op:
            batch_op.drop_column('session_epoch')
    if 'heartbeat' not in _tables():
        op.create_table(
            'heartbeat',
            sa.Column('name', sa.String(length=40), nullable=False),
            sa.Column('at', sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint('name'),
        )
        op.execute("INSERT INTO heartbeat (name, at) VALUES ('healthz', CURRENT_TIMESTAMP)")
    _foreign_keys(True)


def downgrade():
    # What was completed stays: the revisions below this one claim it already.
    op.drop_table('heartbeat')
    _foreign_keys(False)
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_epoch', sa.Integer(), nullable=False,
                                      server_default='0'))
    _foreign_keys(True)
