"""marks: a counter per kind of change (accounts: sessions, tokens, who works what; conflicts:
which entries count), moved in the change's transaction, read by every worker to know that
what it holds is still true; the heartbeat table where 0014 ran before it made one

Migration 0014 gained the heartbeat table after it had run on main (commit 0597e11 made a
database stamped 0014 without it): such a database gets it here.

Revision ID: 5e8b3f0a9c21
Revises: 4d7a0c2e8f15
Create Date: 2026-12-03 11:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5e8b3f0a9c21'
down_revision = '4d7a0c2e8f15'
branch_labels = None
depends_on = None


def upgrade():
    mark = op.create_table(
        'mark',
        sa.Column('name', sa.String(length=20), nullable=False),
        sa.Column('value', sa.Integer(), server_default='0', nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )
    op.bulk_insert(mark, [{'name': 'accounts', 'value': 0}, {'name': 'conflicts', 'value': 0}])
    if 'heartbeat' not in sa.inspect(op.get_bind()).get_table_names():
        op.create_table(
            'heartbeat',
            sa.Column('name', sa.String(length=40), nullable=False),
            sa.Column('at', sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint('name'),
        )
        op.execute("INSERT INTO heartbeat (name, at) VALUES ('healthz', CURRENT_TIMESTAMP)")


def downgrade():
    # The heartbeat table, where made here, stays: 0014 claims it.
    op.drop_table('mark')
