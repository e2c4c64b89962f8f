"""API tokens listable and revocable per user; server-side sessions that logout ends

Revision ID: 4bfa12e7d7b1
Revises: 3c9e1d27a4b8
Create Date: 2026-12-01 01:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4bfa12e7d7b1'
down_revision = '3c9e1d27a4b8'
branch_labels = None
depends_on = None



def _foreign_keys(on):
    """SQLite: rebuilding ``user`` (batch mode, to drop a column) drops the table that entries,
    sessions and tokens refer to, which PRAGMA foreign_keys=ON forbids once any row points at
    it; the check is made once the new table is in place. The pragma only changes outside a
    transaction. (As in 0011: a migration keeps its own code.)"""
    if op.get_bind().dialect.name != 'sqlite':
        return
    with op.get_context().autocommit_block():
        if on:
            broken = op.get_bind().exec_driver_sql('PRAGMA foreign_key_check').all()
            if broken:
                raise RuntimeError(f'foreign keys broken by the rebuild: {broken[:5]}')
        op.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


def upgrade():
    op.create_table(
        'api_token',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('label', sa.String(length=80), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('token_hash'),
    )
    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_api_token_user_id'), ['user_id'], unique=False)
    op.create_table(
        'web_session',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key_hash', sa.String(length=64), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('key_hash'),
    )
    with op.batch_alter_table('web_session', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_web_session_user_id'), ['user_id'], unique=False)
    # Each account's token so far becomes its first listed token.
    op.execute(
        "INSERT INTO api_token (user_id, token_hash, label, created_at) "
        "SELECT id, token_hash, 'first', created_at FROM \"user\""
    )
    _foreign_keys(False)
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.drop_column('token_hash')
    _foreign_keys(True)


def downgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token_hash', sa.String(length=64), nullable=True))
    # The oldest token of each account that is not revoked (its first, as before).
    op.execute(
        "UPDATE \"user\" SET token_hash = (SELECT t.token_hash FROM api_token t "
        "WHERE t.user_id = \"user\".id AND t.revoked_at IS NULL ORDER BY t.id LIMIT 1)"
    )
    with op.batch_alter_table('web_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_web_session_user_id'))
    op.drop_table('web_session')
    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_api_token_user_id'))
    op.drop_table('api_token')
