"""The characters phones follow, and which of them changed: as the database tells it.

What changed is read as every poll reads it (keeping/known.py): the database's marks, one
tiny query; when the versions mark moved, each event's version and its characters whose
version grew since. Whoever wrote the change (the app, a command, an operator's SQL), the
database's triggers moved the version, so the phones are told. When everything known was
forgotten (a restore: a new epoch, or marks that went down), every phone is told: each asks
its answer again, as after a restart.

Used from one thread (the push server's database thread): nothing here is locked.
"""

from __future__ import annotations

from ..keeping.known import VERSIONS, Known


class Followed:
    """Each followed character with the version its phones were last told of."""

    def __init__(self, known: Known):
        self.known = known
        self.told: dict[int, int] = {}  # character id -> version its phones hold
        self.marks: tuple | None = None
        self.everything = False
        known.also_forget(self._forgotten)

    def _forgotten(self) -> None:
        self.everything = True

    def follow(self, character_id: int, version: int) -> None:
        """A phone follows the character from ``version`` (the one it was told it holds)."""
        self.told.setdefault(character_id, version)

    def drop(self, character_id: int) -> None:
        """No phone follows the character any more."""
        self.told.pop(character_id, None)

    def moved(self) -> list[int] | None:
        """The followed characters whose version moved since their phones were last told (a
        character deleted moves too: its phones ask and are answered it is gone); None:
        every one, whatever it was (everything known was forgotten)."""
        known = self.known
        known.current()
        if self.everything:
            self.everything = False
            self.marks = known.marks
            for character_id in list(self.told):  # read again, one by one (a restore)
                facts = known.character(character_id)
                self.told[character_id] = -1 if facts is None else facts.version
            return None
        marks = known.marks
        if marks is None or (self.marks is not None and marks[VERSIONS] == self.marks[VERSIONS]):
            self.marks = marks
            return []
        self.marks = marks
        moved = []
        for character_id, told in self.told.items():
            if told < 0:
                continue  # gone: its phones were told
            facts = known.character(character_id)
            version = -1 if facts is None else facts.version
            if version != told:
                moved.append((character_id, version))
        for character_id, version in moved:
            self.told[character_id] = version
        return [character_id for character_id, _version in moved]
