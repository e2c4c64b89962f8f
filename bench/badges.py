"""Benchmark the badge print: 500 badges, fronts and backs, to one PDF ready for duplex.

Run from the repository root: ``.venv/bin/python bench/badges.py [--layout L] [--paper P]``.
It prints figures only; nothing here asserts (TESTING.md "Levels"). Targets (issue): fronts
and backs of 500 badges in ≤ 6 s; peak memory ≤ 150 MB and not growing with the number of
badges (100 and 500 shown side by side); the PDF ≤ 5 MB; every QR code decodes when the PDF
is rendered at 150 dpi (``pdftoppm``, Debian poppler-utils) and read with zxing-cpp.

Each count runs in a fresh interpreter, so ru_maxrss is that run's own. The time is taken
without tracemalloc, which slows allocation-heavy code severalfold; the tracemalloc peak
comes from a second run in the same interpreter.

Badges are an event's worth: names with accents and a few very long ones, six factions and
no faction, secrets and short codes shaped like the real ones (larp_app.tokens), and the
URLs a phone on the site's Wi-Fi would open.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clean checkout

from larp_app.badges import LAYOUTS, PAPERS, BadgeFace, write_sheets
from larp_app.tokens import ALPHABET, SECRET_LENGTH, SHORT_DATA, check_symbol, format_short_code

COUNTS = (100, 500)
BASE = "http://192.168.1.10:5000"
DECODE_DPI = 150
PAGES_PER_RENDER = 10  # pdftoppm pages rendered, decoded and deleted at a time

FIRST = (
    "Nicolò",
    "Mosè",
    "Aldebrand",
    "Giulia",
    "Ægir",
    "Chiara",
    "Łucja",
    "Renée",
    "Tomás",
    "Aurelio",
    "Brunhilde",
    "Kaito",
    "Zoë",
    "Ffion",
    "Jörg",
    "Salomé",
    "Ottavio",
    "Ilse",
)
LAST = (
    "Carrà",
    "Montgomery-Vasquez",
    "di Sangro",
    "Żółkiewska",
    "Dubois",
    "Ó Briain",
    "Hohenstein",
    "Bianchi",
    "Søndergaard",
    "von Falkenrath",
    "Nakamura",
    "Ferreira",
)
TITLES = ("", "", "", "Fra'", "Ser", "Madonna", "Brother", "Captain")
EPITHETS = ("", "", "", "", "of the Silver Fen", "the Unbowed", "detto il Cieco")
FACTIONS = (
    ("Compagnia della Rosa Nera", "#b3261e"),
    ("Lupi", "#f2a900"),
    ("Ordine del Sole Calante", "#1f4e9c"),
    ("Gilda dei Mercanti", "#2e7d32"),
    ("Circolo Arcano", "#6a1b9a"),
    ("Le Maree", "#00838f"),
    (None, "#555555"),
)


def token(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(length))


def make_faces(count: int, seed: int = 2027) -> Iterator[BadgeFace]:
    """count badges, the same ones for the same seed; made one at a time, as a print would."""
    rng = random.Random(seed)
    for _ in range(count):
        character = " ".join(
            part
            for part in (
                rng.choice(TITLES),
                rng.choice(FIRST),
                rng.choice(LAST),
                rng.choice(EPITHETS),
            )
            if part
        )
        faction, colour = rng.choice(FACTIONS)
        short = token(rng, SHORT_DATA)
        yield BadgeFace(
            character=character,
            player=f"{rng.choice(FIRST)} {rng.choice(LAST)}",
            faction=faction,
            faction_colour=colour,
            event="Ex Nihilo — Atto III: La Caduta di Vel'Haran",
            scan_url=f"{BASE}/b/{token(rng, SECRET_LENGTH)}?v=1",
            short_code=format_short_code(short + check_symbol(short)),
            status_url=f"{BASE}/p/{token(rng, SECRET_LENGTH)}",
            hp=rng.randint(2, 8),
            ap=rng.randint(0, 4),
            energy=rng.randint(0, 6),
            energy_recovery_minutes=rng.choice((None, 15, 20, 30)),
        )


def measure(count: int, layout: str, paper: str, out: Path) -> dict[str, float]:
    """One count, in this interpreter: time, then memory; the PDF is left at out."""
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    with out.open("wb") as file:
        pages = write_sheets(make_faces(count), file, layout=layout, paper=paper)
    seconds = time.perf_counter() - started
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB on Linux

    tracemalloc.start()
    with out.with_suffix(".traced.pdf").open("wb") as file:
        write_sheets(make_faces(count), file, layout=layout, paper=paper)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "badges": count,
        "pages": pages,
        "seconds": seconds,
        "tracemalloc_peak_mb": peak / 2**20,
        "maxrss_before_mb": rss_before / 1024,
        "maxrss_mb": rss / 1024,
        "pdf_mb": out.stat().st_size / 2**20,
    }


def decode_check(pdf: Path, count: int, layout: str) -> dict[str, int]:
    """Render the PDF at 150 dpi and read every QR code; compare with what each page should hold."""
    import zxingcpp
    from PIL import Image

    per_page = LAYOUTS[layout].per_page
    faces = list(make_faces(count))
    expected: list[set[str]] = []
    for first in range(0, count, per_page):
        sheet = faces[first : first + per_page]
        expected.append({face.scan_url for face in sheet})
        expected.append({face.status_url for face in sheet})

    found = wrong = 0
    with tempfile.TemporaryDirectory() as folder:
        for first in range(1, len(expected) + 1, PAGES_PER_RENDER):
            last = min(first + PAGES_PER_RENDER - 1, len(expected))
            prefix = Path(folder) / "page"
            subprocess.run(
                [
                    "pdftoppm",
                    "-r",
                    str(DECODE_DPI),
                    "-gray",
                    "-f",
                    str(first),
                    "-l",
                    str(last),
                    str(pdf),
                    str(prefix),
                ],
                check=True,
            )
            for image_path in sorted(Path(folder).glob("page-*.pgm")):
                number = int(image_path.stem.rsplit("-", 1)[1])
                with Image.open(image_path) as image:
                    texts = {code.text for code in zxingcpp.read_barcodes(image)}
                image_path.unlink()
                found += len(texts & expected[number - 1])
                wrong += len(texts - expected[number - 1])
    return {"expected": 2 * count, "decoded": found, "unexpected": wrong}


def child(args: argparse.Namespace) -> None:
    figures = measure(args.child, args.layout, args.paper, Path(args.out))
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="cr80-10up", choices=list(LAYOUTS))
    parser.add_argument("--paper", default="a4", choices=list(PAPERS))
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return

    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"layout {args.layout}, paper {args.paper}, duplex"
    )
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for count in COUNTS:
            out = Path(folder) / f"badges-{count}.pdf"
            result = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    str(count),
                    "--out",
                    str(out),
                    "--layout",
                    args.layout,
                    "--paper",
                    args.paper,
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            rows.append(json.loads(result.stdout))
        print(
            f"{'badges':>7} {'pages':>6} {'time s':>7} {'ms/badge':>9} {'tracemalloc MB':>15} "
            f"{'maxrss MB':>10} {'(after imports)':>16} {'PDF MB':>7}"
        )
        for row in rows:
            print(
                f"{row['badges']:>7} {row['pages']:>6} {row['seconds']:>7.2f} "
                f"{1000 * row['seconds'] / row['badges']:>9.2f} "
                f"{row['tracemalloc_peak_mb']:>15.1f} {row['maxrss_mb']:>10.1f} "
                f"{row['maxrss_before_mb']:>16.1f} {row['pdf_mb']:>7.2f}"
            )
        small, large = rows[0], rows[-1]
        extra = large["badges"] - small["badges"]
        growth = (large["tracemalloc_peak_mb"] - small["tracemalloc_peak_mb"]) / extra * 1024
        print(
            f"tracemalloc peak grows {growth:.1f} kB a badge: the document fpdf2 holds until "
            f"it writes it (page content streams, uncompressed); QR matrices and layouts "
            f"live one sheet at a time"
        )

        biggest = Path(folder) / f"badges-{COUNTS[-1]}.pdf"
        if shutil.which("pdftoppm") is None:
            print("decode check skipped: pdftoppm (Debian poppler-utils) is not installed")
            return
        started = time.perf_counter()
        check = decode_check(biggest, COUNTS[-1], args.layout)
        print(
            f"decoded at {DECODE_DPI} dpi: {check['decoded']} of {check['expected']} QR codes "
            f"(fronts and backs), {check['unexpected']} unexpected "
            f"[render + decode {time.perf_counter() - started:.1f} s]"
        )


if __name__ == "__main__":
    main()
