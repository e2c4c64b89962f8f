"""badges and player links found by their SHA-256: an imported event holds no secret in clear

Revision ID: 5d1f0c3b8e27
Revises: 4bfa12e7d7b1
Create Date: 2026-12-01 04:00:00.000000

"""
import hashlib

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5d1f0c3b8e27'
down_revision = '4bfa12e7d7b1'
branch_labels = None
depends_on = None


def _digest(text):
    # As larp_app.tokens.digest, copied: a migration never changes with the app's code.
    return hashlib.sha256(text.encode()).hexdigest()


def _fill(table, pairs):
    """Set each ``hash`` column from its clear ``source`` column, row by row (SQLite has no
    SHA-256 function; the same code serves PostgreSQL)."""
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


def _foreign_keys(on):
    """SQLite: rebuilding ``badge`` (batch mode) drops the table that refused scans refer to,
    which PRAGMA foreign_keys=ON forbids; the check is made once the new table is in place.
    The pragma only changes outside a transaction."""
    if op.get_bind().dialect.name != 'sqlite':
        return
    with op.get_context().autocommit_block():
        if on:
            broken = op.get_bind().exec_driver_sql('PRAGMA foreign_key_check').all()
            if broken:
                raise RuntimeError(f'foreign keys broken by the rebuild: {broken[:5]}')
        op.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


def upgrade():
    _foreign_keys(False)
    with op.batch_alter_table('badge', schema=None) as batch_op:
        batch_op.add_column(sa.Column('secret_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('short_code_hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('character', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_secret_hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('print_job', schema=None) as batch_op:
        batch_op.add_column(sa.Column('skipped', sa.Integer(), nullable=False, server_default='0'))

    _fill('badge', [('secret', 'secret_hash'), ('short_code', 'short_code_hash')])
    _fill('"character"', [('player_secret', 'player_secret_hash')])

    with op.batch_alter_table('badge', schema=None) as batch_op:
        batch_op.alter_column('secret_hash', existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column('short_code_hash', existing_type=sa.String(length=64),
                              nullable=False)
        batch_op.alter_column('secret', existing_type=sa.String(length=40), nullable=True)
        batch_op.alter_column('short_code', existing_type=sa.String(length=12), nullable=True)
        batch_op.create_index(batch_op.f('ix_badge_secret_hash'), ['secret_hash'], unique=True)
        batch_op.create_index(batch_op.f('ix_badge_short_code_hash'), ['short_code_hash'],
                              unique=True)
    with op.batch_alter_table('character', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_character_player_secret_hash'),
                              ['player_secret_hash'], unique=True)
    _foreign_keys(True)


def downgrade():
    conn = op.get_bind()
    elsewhere = conn.execute(sa.text("SELECT count(*) FROM badge WHERE secret IS NULL")).scalar()
    if elsewhere:
        raise RuntimeError(
            f"{elsewhere} badges came from another database and have no secret here: "
            "the older schema cannot hold them (delete their events first)"
        )
    _foreign_keys(False)
    with op.batch_alter_table('character', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_character_player_secret_hash'))
        batch_op.drop_column('player_secret_hash')
    with op.batch_alter_table('badge', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_badge_short_code_hash'))
        batch_op.drop_index(batch_op.f('ix_badge_secret_hash'))
        batch_op.alter_column('secret', existing_type=sa.String(length=40), nullable=False)
        batch_op.alter_column('short_code', existing_type=sa.String(length=12), nullable=False)
        batch_op.drop_column('short_code_hash')
        batch_op.drop_column('secret_hash')
    with op.batch_alter_table('print_job', schema=None) as batch_op:
        batch_op.drop_column('skipped')
    _foreign_keys(True)
