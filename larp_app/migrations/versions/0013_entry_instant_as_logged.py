"""entries keep the instant their referee gave them when the simultaneity rule placed them later

Revision ID: c6b21e990480
Revises: 7d13a5e0c2f1
Create Date: 2026-12-02 02:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c6b21e990480'
down_revision = '7d13a5e0c2f1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('referee_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.drop_column('referee_at')
