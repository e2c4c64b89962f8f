"""interface language remembered per user

Revision ID: e4ba60bdb2d6
Revises: 57dd8e7f3a87
Create Date: 2026-11-29 14:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e4ba60bdb2d6'
down_revision = '57dd8e7f3a87'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=5), nullable=True))


def downgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.drop_column('language')
