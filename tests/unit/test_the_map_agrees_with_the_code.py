"""The map (ARCHITECTURE.md) and the keeping room's README name files, functions and
classes that exist: a rename that forgets the documents fails here."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "larp_app"
DOCUMENTS = [ROOT / "ARCHITECTURE.md", PACKAGE / "keeping" / "README.md"]
CODE = re.compile(r"`([^`\s]+)`")
PATH = re.compile(r"^[\w./<>-]+\.(py|md|js|html)$")
NAMED = re.compile(r"^([\w/]+)\.(\w+)(\(\))?$")


def source_file(name: str, near: Path) -> Path | None:
    """The file a document means by ``name`` (``web/commits``, ``known``, ``records.py``)."""
    name = name.removesuffix(".py")
    for folder in (near.parent, PACKAGE, PACKAGE / "keeping", ROOT):
        candidate = folder / f"{name}.py"
        if candidate.is_file():
            return candidate
    return None


def defines(path: Path, name: str) -> bool:
    pattern = rf"^\s*(def|class)\s+{name}\b|^\s*(self\.)?{name}\s*[:=]"
    return re.search(pattern, path.read_text(encoding="utf-8"), re.M) is not None


def class_file(name: str) -> Path | None:
    for path in PACKAGE.rglob("*.py"):
        if re.search(rf"^class {name}\b", path.read_text(encoding="utf-8"), re.M):
            return path
    return None


def wrong_names(document: Path) -> tuple[list[str], int]:
    wrong, checked = [], 0
    for text in CODE.findall(document.read_text(encoding="utf-8")):
        if PATH.match(text) and "<" not in text:
            checked += 1
            if not any((base / text).exists() for base in (ROOT, PACKAGE, document.parent)):
                wrong.append(text)
            continue
        named = NAMED.match(text)
        if named is None or named.group(1) in {"rules", "db"}:
            continue
        owner, name = named.group(1), named.group(2)
        path = source_file(owner, document) or class_file(owner)
        if path is None:
            continue  # not code (a table's column, a word)
        checked += 1
        if not defines(path, name):
            wrong.append(text)
    return wrong, checked


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_file_and_name_the_document_gives_exists(document):
    wrong, checked = wrong_names(document)
    assert checked >= 10  # the check reads the document's names
    assert wrong == []


def test_the_check_sees_a_name_that_is_gone(tmp_path):
    document = tmp_path / "MAP.md"
    document.write_text("`web/commits.commit_retrying` `web/commits.commit_twice` `gone.py`")
    assert wrong_names(document) == (["web/commits.commit_twice", "gone.py"], 3)
