"""A larp sheet's content digest, found by the stored text it was parsed from: the same digest
as its content's, the sheet written with sorted keys only for a text not seen lately."""

import json

import pytest

from larp_app.keeping import records
from larp_app.keeping.records import LarpDigests, larp_digest

SHEET = {"character": "Aria", "hp_max": 3, "skills": ["guarigione", "scudo"]}


@pytest.fixture
def written(monkeypatch):
    """The sheets whose digest is found by writing them (``larp_digest``)."""
    found = []

    def counted(larp):
        found.append(larp)
        return larp_digest(larp)

    monkeypatch.setattr(records, "larp_digest", counted)
    return found


def test_a_text_seen_before_gives_its_content_digest_without_writing_the_sheet(written):
    digests = LarpDigests()
    text = json.dumps(SHEET)
    assert digests.of(text, json.loads(text)) == larp_digest(SHEET)
    assert digests.of(text, json.loads(text)) == larp_digest(SHEET)
    assert len(written) == 1
    # The same content written in another order: another text, the same content digest.
    other = json.dumps(dict(reversed(list(SHEET.items()))))
    assert other != text
    assert digests.of(other, json.loads(other)) == larp_digest(SHEET)
    assert len(written) == 2


def test_the_texts_known_are_bounded_the_oldest_going_first(written):
    digests = LarpDigests(most=2)
    texts = [json.dumps({**SHEET, "character": name}) for name in ("A", "B", "C")]
    for text in texts:
        digests.of(text, json.loads(text))
    assert len(digests.known) == 2
    digests.of(texts[2], json.loads(texts[2]))
    assert len(written) == 3  # the newest still known
    digests.of(texts[0], json.loads(texts[0]))
    assert len(written) == 4  # the oldest had gone
