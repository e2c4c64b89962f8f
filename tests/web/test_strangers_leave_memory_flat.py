"""What a stranger sends is never kept: junk cookies and repeated or oversized cookie lines
leave every worker's memory as it was, and repeated or oversized lines are refused (431)
in the API's words, before anything reads them."""

from __future__ import annotations

import http.client
import secrets
import time
from pathlib import Path

import pytest

from larp_app.extensions import db
from larp_app.services.users import create_user

from .served import Served

pytestmark = pytest.mark.both_databases

JUNK_LINES = 90  # cookie lines in one request, each as long as a line may be
JUNK_LINE = 7_800
ROUNDS = 60
MIB = 1024 * 1024
FLAT = 4 * MIB  # what a worker may grow by, at most, after every round of junk


def junk_cookie(size: int = JUNK_LINE) -> str:
    return f"j{secrets.token_hex(4)}={secrets.token_urlsafe(size)[: size - 10]}"


def get(port: int, path: str, cookies: list[str], language: str = "en"):
    """One GET whose cookies each go on a line of their own; (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest("GET", path)
        conn.putheader("Accept-Language", language)
        for cookie in cookies:
            conn.putheader("Cookie", cookie)
        conn.endheaders()
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        conn.close()


def workers(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


@pytest.fixture
def served(app, database_url, tmp_path):
    """The app as ``make run`` serves it (larp_app/serving.py: threaded workers)."""
    with app.app_context():
        create_user("rita", "referee", "a-long-password")
        db.session.commit()
        db.engine.dispose()
    server = Served(database_url, tmp_path, config=True, workers=2)
    yield server
    server.stop()


def test_junk_and_repeated_cookie_lines_leave_every_workers_memory_flat(served):
    import json

    status, headers, body = get(served.port, "/api/v1/roster?since=1", [junk_cookie()] * 3)
    assert status == 431
    assert headers["Content-Type"] == "application/json"
    refused = json.loads(body)
    assert refused["error"] == "cookies_refused"
    assert "Cookie" in refused["fields"]
    assert get(served.port, "/api/v1/roster?since=1", [junk_cookie()])[0] == 401

    def a_round():
        for _ in range(ROUNDS):
            lines = [junk_cookie() for _ in range(JUNK_LINES)]
            assert get(served.port, "/api/v1/roster?since=1", lines)[0] == 431
            assert get(served.port, "/api/v1/roster?since=1", [junk_cookie()])[0] == 401
            forged = f"session={secrets.token_urlsafe(3000)}.{secrets.token_urlsafe(20)}"
            assert get(served.port, "/api/v1/roster?since=1", [forged])[0] == 401

    a_round()  # what a worker holds for such a request once is held from here
    time.sleep(0.2)
    before = {pid: rss(pid) for pid in workers(served.process.pid)}
    a_round()
    time.sleep(0.2)
    grown = {pid: rss(pid) - before[pid] for pid in before}
    assert all(growth < FLAT for growth in grown.values()), {
        pid: f"{growth / MIB:.1f} MiB" for pid, growth in grown.items()
    }


def test_repeated_cookie_lines_are_refused_in_the_callers_language(served):
    import json

    status, _headers, body = get(
        served.port, "/api/v1/characters/1/state", [junk_cookie(100)] * 2, language="it"
    )
    assert status == 431
    message = json.loads(body)["message"]
    assert message and "cookie" in message.lower()
    english = json.loads(get(served.port, "/api/v1/me", [junk_cookie(100)] * 2)[2])["message"]
    assert english != message


def test_a_cookie_that_proves_no_open_session_is_never_kept(app, client):
    from larp_app.models import User
    from larp_app.services.users import end_sessions

    from .helpers import log_in, make_user

    quick = app.wsgi_app
    for _ in range(50):
        stranger = app.test_client(use_cookies=False)  # sends the header as it is
        answer = stranger.get("/api/v1/roster?since=1", headers={"Cookie": junk_cookie(2000)})
        assert answer.status_code == 401
    assert quick.kept_bytes() == 0
    make_user(app, "remo", "referee")
    phone = app.test_client()
    assert log_in(phone, "remo").status_code == 302
    signed = phone.get_cookie("session").value
    assert phone.get("/api/v1/roster?since=1").status_code == 200
    assert 0 < quick.kept_bytes() < 4096  # the phone's own cookie, proven: its session is open
    with app.app_context():
        end_sessions(db.session.scalar(db.select(User).where(User.username == "remo")))
        db.session.commit()
    for _ in range(3):  # a cookie the app signed, of a session now ended
        old = app.test_client(use_cookies=False)
        assert (
            old.get("/api/v1/roster?since=1", headers={"Cookie": f"session={signed}"}).status_code
            == 401
        )
    assert quick.kept_bytes() == 0


def test_cookie_lines_a_server_joined_are_refused_before_the_app_reads_them(app):
    client = app.test_client(use_cookies=False)  # sends the header as it is
    # gunicorn and werkzeug's own server join repeated header lines with a comma.
    for header in ("session=abc,session=def", "a=" + "x" * 9000):
        answer = client.get("/api/v1/roster", headers={"Cookie": header})
        assert answer.status_code == 431
        assert answer.json["error"] == "cookies_refused"
        assert set(answer.json) >= {"error", "message", "fields"}
