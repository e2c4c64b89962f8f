"""The referee's scanner page, and the decoder files the app serves itself (no CDN)."""

from html.parser import HTMLParser

import pytest

from larp_app import vendor

from .helpers import log_in, make_user

VENDOR = vendor.ROOT / "static" / "vendor"
NEEDS_VENDOR = pytest.mark.skipif(
    not (VENDOR / "barcode-detector" / "zxing_reader.wasm").exists(),
    reason="static/vendor is empty: run `make install` (npm ci, then python -m larp_app.vendor)",
)


class Scripts(HTMLParser):
    """Every <script> tag's attributes and text, and every inline handler or style."""

    def __init__(self):
        super().__init__()
        self.scripts, self.inline, self._in_script = [], [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.scripts.append(attrs | {"text": ""})
            self._in_script = True
        self.inline += [f"{tag} {name}" for name in attrs if name.startswith("on")]
        self.inline += [f"{tag} style" for name in attrs if name == "style"]

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1]["text"] += data


@pytest.fixture
def referee(app, client):
    make_user(app, "rita", "referee")
    log_in(client, "rita")
    return client


def test_the_scanner_sends_strangers_to_the_login_page(client):
    answer = client.get("/scan?event=1")
    assert answer.status_code == 302
    assert answer.headers["Location"].startswith("/login?next=")


def test_an_organiser_may_scan_too(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    assert client.get("/scan").status_code == 200


def test_the_scanner_page_has_no_inline_script_and_loads_only_its_modules(referee):
    page = referee.get("/scan?event=1")
    assert page.status_code == 200
    parsed = Scripts()
    parsed.feed(page.get_data(as_text=True))
    assert parsed.inline == []
    assert [(s.get("type"), s.get("src"), s["text"].strip()) for s in parsed.scripts] == [
        ("module", "/static/js/pwa.js", ""),
        ("module", "/static/js/scan.js", ""),
    ]
    assert "script-src 'self' 'wasm-unsafe-eval'" in page.headers["Content-Security-Policy"]


def test_the_scanner_page_knows_its_event_and_where_the_decoder_is(referee):
    html = referee.get("/scan?event=1").get_data(as_text=True)
    assert 'data-event="1"' in html
    assert 'data-api="/api/v1/badges/__TEXT__"' in html
    assert 'data-console="/console/__ID__"' in html
    assert 'data-wasm="/static/vendor/barcode-detector/zxing_reader.wasm"' in html
    assert "jsdelivr" not in html and "unpkg" not in html
    assert 'data-event=""' in referee.get("/scan").get_data(as_text=True)


def test_the_scanner_script_is_served_as_javascript(client):
    answer = client.get("/static/js/scan.js")
    assert answer.mimetype == "text/javascript"
    answer.close()


@NEEDS_VENDOR
@pytest.mark.parametrize(
    ("path", "mimetype"),
    [
        ("barcode-detector/ponyfill.js", "text/javascript"),
        ("barcode-detector/zxing-exported.js", "text/javascript"),
        ("barcode-detector/zxing_reader.wasm", "application/wasm"),
    ],
)
def test_the_vendored_decoder_is_served_with_the_type_browsers_require(client, path, mimetype):
    answer = client.get(f"/static/vendor/{path}")
    assert answer.status_code == 200
    assert answer.mimetype == mimetype
    answer.close()


@NEEDS_VENDOR
def test_static_vendor_holds_exactly_the_files_the_browser_needs():
    shipped = {
        str(p.relative_to(VENDOR)) for p in VENDOR.rglob("*") if p.is_file() and p.name[0] != "."
    }
    assert shipped == set(vendor.FILES)


def test_the_copy_takes_the_reader_wasm_only_and_drops_stale_files(tmp_path):
    node_modules, static = tmp_path / "node_modules", tmp_path / "vendor"
    for source in [*vendor.FILES.values(), "zxing-wasm/dist/full/zxing_full.wasm"]:
        (node_modules / source).parent.mkdir(parents=True, exist_ok=True)
        (node_modules / source).write_text(source)
    (static / "barcode-detector").mkdir(parents=True)
    (static / "barcode-detector" / "zxing_full.wasm").write_text("stale")
    copied = vendor.copy_vendor(node_modules, static)
    assert sorted(p.relative_to(static).as_posix() for p in copied) == sorted(vendor.FILES)
    assert sorted(p.name for p in (static / "barcode-detector").iterdir()) == [
        "ponyfill.js",
        "zxing-exported.js",
        "zxing_reader.wasm",
    ]
    assert (static / "barcode-detector" / "zxing_reader.wasm").read_text().endswith("reader.wasm")


def test_the_copy_says_to_run_npm_ci_when_node_modules_is_missing(tmp_path):
    with pytest.raises(vendor.MissingPackage, match="npm ci"):
        vendor.copy_vendor(tmp_path / "node_modules", tmp_path / "vendor")
