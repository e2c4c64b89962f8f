"""badge prints: a heartbeat (a dead worker's print is seen as failed) and one run a selection

Revision ID: 7c2e94d1a0b8
Revises: 22702a60a98e
Create Date: 2026-12-01 00:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7c2e94d1a0b8'
down_revision = '22702a60a98e'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('print_job', schema=None) as batch_op:
        batch_op.add_column(sa.Column('heartbeat_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('running_key', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint('uq_print_job_running_key', ['running_key'])


def downgrade():
    with op.batch_alter_table('print_job', schema=None) as batch_op:
        batch_op.drop_constraint('uq_print_job_running_key', type_='unique')
        batch_op.drop_column('running_key')
        batch_op.drop_column('heartbeat_at')
