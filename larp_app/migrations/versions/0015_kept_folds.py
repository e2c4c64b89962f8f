"""kept folds: each character's log folded at a version, read by a starting worker instead
of folding again (derived data: an empty table changes no answer)

Revision ID: 4d7a0c2e8f15
Revises: 9b4e6f1d2a73
Create Date: 2026-12-02 05:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4d7a0c2e8f15'
down_revision = '9b4e6f1d2a73'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'kept_fold',
        sa.Column('character_id', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('fingerprint', sa.String(length=64), nullable=False),
        sa.Column('folded', sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(['character_id'], ['character.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('character_id'),
    )


def downgrade():
    op.drop_table('kept_fold')
