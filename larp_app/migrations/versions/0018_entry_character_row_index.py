"""entries found by character and row: one index on (character_id, id) instead of
character_id alone, so that "a character's entries after row R" is one range of the index
on PostgreSQL too (its planner otherwise joined the character's rows with every row after R
of the primary key: 10-25 ms a view's catch-up on a 100,000-entry log whose statistics were
not fresh). On SQLite the old index held the row id already: the same reads.

Revision ID: 7c3f9a1e5d48
Revises: 6a2d8e4f1b37
Create Date: 2026-12-07 10:00:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '7c3f9a1e5d48'
down_revision = '6a2d8e4f1b37'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_entry_character_row', 'entry', ['character_id', 'id'], unique=False)
    op.execute('DROP INDEX IF EXISTS ix_entry_character_id')


def downgrade():
    op.create_index('ix_entry_character_id', 'entry', ['character_id'], unique=False)
    op.drop_index('ix_entry_character_row', table_name='entry')
