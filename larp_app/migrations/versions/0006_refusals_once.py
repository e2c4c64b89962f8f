"""refusals kept once per id, with their parameters; conflicts their authors dismissed

Revision ID: 7c2d4e1f9a30
Revises: 5a0c1f7e9b21
Create Date: 2026-12-01 00:45:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7c2d4e1f9a30'
down_revision = '5a0c1f7e9b21'
branch_labels = None
depends_on = None


def upgrade():
    # A refusal stored twice (two identical batches at once) keeps its first row.
    op.execute(
        "DELETE FROM refused_entry WHERE id NOT IN "
        "(SELECT MIN(id) FROM refused_entry GROUP BY client_id)"
    )
    with op.batch_alter_table('refused_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('params', sa.JSON(), nullable=True))
        batch_op.drop_index(batch_op.f('ix_refused_entry_client_id'))
        batch_op.create_index(batch_op.f('ix_refused_entry_client_id'), ['client_id'], unique=True)
    op.create_table(
        'dismissed_conflict',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('client_id', sa.String(length=36), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('client_id', 'user_id', name='uq_dismissed_conflict'),
    )


def downgrade():
    op.drop_table('dismissed_conflict')
    with op.batch_alter_table('refused_entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_refused_entry_client_id'))
        batch_op.create_index(batch_op.f('ix_refused_entry_client_id'), ['client_id'], unique=False)
        batch_op.drop_column('params')
