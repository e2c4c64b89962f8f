"""entries the server refused, listed on the organiser's board

Revision ID: 5a0c1f7e9b21
Revises: e4ba60bdb2d6
Create Date: 2026-11-29 15:30:00.000000

"""
from alembic import op
import sqlalchemy as sa



# revision identifiers, used by Alembic.
revision = '5a0c1f7e9b21'
down_revision = 'e4ba60bdb2d6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'refused_entry',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('client_id', sa.String(length=36), nullable=False),
        sa.Column('character_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('fields', sa.JSON(), nullable=False),
        sa.Column('code', sa.String(length=40), nullable=False),
        sa.Column('message', sa.String(length=400), nullable=False),
        sa.ForeignKeyConstraint(['character_id'], ['character.id']),
        sa.ForeignKeyConstraint(['user_id'], ['user.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('refused_entry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_refused_entry_at'), ['at'], unique=False)
        batch_op.create_index(batch_op.f('ix_refused_entry_character_id'), ['character_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_refused_entry_client_id'), ['client_id'], unique=False)


def downgrade():
    op.drop_table('refused_entry')
