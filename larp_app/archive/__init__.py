"""The archive: an event as one file (export, check, re-import), the next event of a
campaign, and backups of the whole database."""
