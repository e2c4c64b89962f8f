"""versions: an event's grows with every change, a character keeps the one of its last change

Revision ID: 3c9e1d27a4b8
Revises: 7c2e94d1a0b8
Create Date: 2026-12-01 00:35:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3c9e1d27a4b8'
down_revision = '7c2e94d1a0b8'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('character', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), nullable=False, server_default='0'))
        batch_op.create_index('ix_character_event_version', ['event_id', 'version'], unique=False)


def downgrade():
    with op.batch_alter_table('character', schema=None) as batch_op:
        batch_op.drop_index('ix_character_event_version')
        batch_op.drop_column('version')
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('version')
