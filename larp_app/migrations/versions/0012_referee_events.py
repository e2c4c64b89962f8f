"""The events each referee works (none: every open event); entries by author and arrival

Revision ID: 7d13a5e0c2f1
Revises: 5d1f0c3b8e27
Create Date: 2026-12-01 04:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7d13a5e0c2f1'
down_revision = '5d1f0c3b8e27'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'referee_event',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['event.id'], ),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ),
        sa.PrimaryKeyConstraint('user_id', 'event_id'),
    )
    with op.batch_alter_table('referee_event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_referee_event_event_id'), ['event_id'], unique=False)
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.create_index('ix_entry_author_received', ['author_id', 'received_at'], unique=False)


def downgrade():
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.drop_index('ix_entry_author_received')
    with op.batch_alter_table('referee_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_referee_event_event_id'))
    op.drop_table('referee_event')
