"""Copy the browser's libraries from node_modules into static/vendor: only what pages load.

``npm ci`` installs what package-lock.json pins; ``python -m larp_app.vendor`` then copies the
few files a browser fetches, so the app serves them itself (no CDN: the event's LAN has no
internet). The copy needs no Node; static/vendor/ and node_modules/ are never committed.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# static/vendor/<destination> ← node_modules/<source>. The ponyfill's ES module imports
# ./zxing-exported.js (which bundles zxing-wasm's reader glue); the page points its
# locateFile at the reader's wasm. zxing_full.wasm (reader and writer) is never shipped.
FILES = {
    "barcode-detector/ponyfill.js": "barcode-detector/dist/es/ponyfill.js",
    "barcode-detector/zxing-exported.js": "barcode-detector/dist/es/zxing-exported.js",
    "barcode-detector/zxing_reader.wasm": "zxing-wasm/dist/reader/zxing_reader.wasm",
}


class MissingPackage(Exception):
    """A file the browser needs is not in node_modules: ``npm ci`` has not run."""


def copy_vendor(
    node_modules: Path = ROOT / "node_modules", vendor: Path = ROOT / "static" / "vendor"
) -> list[Path]:
    """Copy FILES from node_modules into vendor, dropping stale files there; return the copies."""
    missing = [source for source in FILES.values() if not (node_modules / source).is_file()]
    if missing:
        raise MissingPackage(f"not in {node_modules}: {', '.join(missing)} (run `npm ci` first)")
    wanted = {vendor / target for target in FILES}
    for folder in {path.parent for path in wanted}:
        if folder.is_dir():
            for stale in folder.iterdir():
                if stale.is_file() and stale not in wanted:
                    stale.unlink()
    for target, source in FILES.items():
        (vendor / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(node_modules / source, vendor / target)
    return sorted(wanted)


def main() -> int:
    try:
        copied = copy_vendor()
    except MissingPackage as missing:
        print(f"larp_app.vendor: {missing}", file=sys.stderr)
        return 1
    for path in copied:
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
