"""A build backend of a few lines (PEP 517), so that pip builds this package with no download:
a wheel of the package folder, with its entry points read from pyproject.toml."""

from __future__ import annotations

import base64
import hashlib
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = "larp_lanterns"


def _project() -> dict:
    return tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _dist_info(project: dict) -> tuple[str, dict[str, str]]:
    name = project["name"].replace("-", "_")
    folder = f"{name}-{project['version']}.dist-info"
    points = "".join(
        f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in entries.items())
        for group, entries in project.get("entry-points", {}).items()
    )
    files = {
        "METADATA": (
            f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
            f"Summary: {project['description']}\n"
        ),
        "WHEEL": "Wheel-Version: 1.0\nGenerator: wheel_maker\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
        "entry_points.txt": points,
    }
    return folder, files


def _hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    project = _project()
    folder, meta = _dist_info(project)
    name = f"{project['name'].replace('-', '_')}-{project['version']}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path in sorted((HERE / PACKAGE).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                arcname = path.relative_to(HERE).as_posix()
                data = path.read_bytes()
                wheel.writestr(arcname, data)
                record.append(f"{arcname},{_hash(data)}")
        for file, text in meta.items():
            wheel.writestr(f"{folder}/{file}", text)
            record.append(f"{folder}/{file},{_hash(text.encode())}")
        record.append(f"{folder}/RECORD,,")
        wheel.writestr(f"{folder}/RECORD", "\n".join(record) + "\n")
    return name


def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return []
