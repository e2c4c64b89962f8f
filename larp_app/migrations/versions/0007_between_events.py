"""between events: sheet change history, withdrawn characters, archived events, check-in

Revision ID: 22702a60a98e
Revises: 7c2d4e1f9a30
Create Date: 2026-12-01 00:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '22702a60a98e'
down_revision = '7c2d4e1f9a30'
branch_labels = None
depends_on = None


def upgrade():
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
    with op.batch_alter_table('sheet_change', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sheet_change_character_id'), ['character_id'], unique=False)
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('archived_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('character', schema=None) as batch_op:
        batch_op.add_column(sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('present_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('character', schema=None) as batch_op:
        batch_op.drop_column('present_at')
        batch_op.drop_column('withdrawn_at')
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('archived_at')
    op.drop_table('sheet_change')
