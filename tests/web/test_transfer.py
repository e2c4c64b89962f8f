"""What travels on the wire: compressed answers, long-lived versioned stylesheets."""

import gc
import gzip
import json
import re
import warnings

import brotli
import pytest

from .helpers import data_sheet
from .test_api import auth

SHEET = data_sheet()


def make_cast(client, token, count):
    event = client.post(
        "/api/v1/events", json={"name": "Notte", "ruleset": "ex-nihilo"}, headers=auth(token)
    )
    client.post(
        f"/api/v1/events/{event.json['id']}/characters",
        json=[{**SHEET, "character": f"Character {n}"} for n in range(count)],
        headers=auth(token),
    )
    return event.json["id"]


def same_roster(one: bytes, other: bytes) -> bool:
    """The same roster, but for its version (which names the instant answered)."""
    one, other = json.loads(one), json.loads(other)
    one.pop("version"), other.pop("version")
    return one == other and len(one["characters"]) == 5


def test_the_phone_roster_is_gzipped_for_a_browser_that_accepts_gzip(client, tokens):
    make_cast(client, tokens["organiser"], 5)
    plain = client.get("/api/v1/roster", headers=auth(tokens["referee"]))
    zipped = client.get(
        "/api/v1/roster", headers={**auth(tokens["referee"]), "Accept-Encoding": "gzip"}
    )
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert same_roster(gzip.decompress(zipped.data), plain.data)
    assert len(zipped.data) < len(plain.data) / 3


def test_brotli_is_preferred_when_the_browser_accepts_it(client, tokens):
    make_cast(client, tokens["organiser"], 5)
    plain = client.get("/api/v1/roster", headers=auth(tokens["referee"]))
    answer = client.get(
        "/api/v1/roster", headers={**auth(tokens["referee"]), "Accept-Encoding": "gzip, br"}
    )
    assert answer.headers["Content-Encoding"] == "br"
    assert same_roster(brotli.decompress(answer.data), plain.data)


def test_pages_scripts_and_styles_are_compressed(client):
    for url in ("/login", "/static/js/lib/roster.js", "/static/css/app.css"):
        plain = client.get(url)
        with client.get(url, headers={"Accept-Encoding": "gzip"}) as answer:
            assert answer.status_code == 200, url
            assert answer.headers.get("Content-Encoding") == "gzip", url
            assert gzip.decompress(answer.data) == plain.data, url
        plain.close()


def test_a_stylesheet_is_linked_by_its_digest_and_kept_for_a_year(client):
    page = client.get("/login").get_data(as_text=True)
    link = re.search(r'href="(/static/css/app\.css\?v=[0-9a-f]+)"', page)
    assert link, "the stylesheet's link carries its digest"
    with client.get(link.group(1)) as answer:
        assert "max-age=31536000" in answer.headers["Cache-Control"]
        assert "immutable" in answer.headers["Cache-Control"]


def test_a_static_file_without_its_current_digest_is_revalidated(client):
    with client.get("/static/css/app.css?v=000000000000") as stale:
        assert stale.headers["Cache-Control"] == "no-cache"
    with client.get("/static/js/lib/roster.js") as script:
        assert script.headers["Cache-Control"] == "no-cache"
        etag = script.headers["ETag"]
    with client.get("/static/js/lib/roster.js", headers={"If-None-Match": etag}) as again:
        assert again.status_code == 304


@pytest.mark.parametrize("path", ["/static/js/console/main.js", "/rulesets/athkri/static/fold.js"])
def test_a_compressed_static_file_is_closed_once_its_answer_is_built(app, path):
    """A phone that drops its connection mid-answer leaves no file open behind it: the bytes
    were read whole for compression, and the file closed there and then."""
    with app.test_request_context(path, headers={"Accept-Encoding": "gzip"}):
        response = app.full_dispatch_request()  # the answer built, after_request run
        assert response.headers["Content-Encoding"] == "gzip"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            del response  # never sent, never closed by the server
            gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []
