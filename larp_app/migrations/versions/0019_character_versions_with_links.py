"""what changed since a version, read from one index: (event_id, version) gains the
player link's digest, so that every worker's look at what changed (keeping/known.py
``CHANGED``: the id, the event, the version and the player link's digest of each character
changed since the version it knows) reads the index alone. Before, each character found
was read from the table too, past its tabletop and larp sheets to the digest stored after
them (several pages each, read again after every commit on SQLite, whose readers drop their
page cache whenever another connection writes). Every worker looks at every change: 16
characters changed in one commit, 133-190 µs a worker's look, now 117-128
(bench/known_changes.py).

Revision ID: 9e4b1d7a2c63
Revises: 7c3f9a1e5d48
Create Date: 2026-12-08 02:00:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '9e4b1d7a2c63'
down_revision = '7c3f9a1e5d48'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index(
        'ix_character_event_version_link',
        'character',
        ['event_id', 'version', 'player_secret_hash'],
        unique=False,
    )
    op.drop_index('ix_character_event_version', table_name='character')


def downgrade():
    op.create_index(
        'ix_character_event_version', 'character', ['event_id', 'version'], unique=False
    )
    op.drop_index('ix_character_event_version_link', table_name='character')
