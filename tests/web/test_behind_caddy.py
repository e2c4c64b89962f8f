"""The server set-up: the app behind Caddy (Debian's package) with an internal certificate.

The app trusts one proxy (TRUSTED_PROXIES=1): a login, a logged entry and a badge's address
go through Caddy; the badge URL is the public one, and failed logins are counted by the
client's own address (the client speaks from 127.0.0.2, Caddy from 127.0.0.1).
"""

import functools
import http.client
import http.cookiejar
import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from larp_app import create_app
from larp_app.extensions import db
from larp_app.models import LoginAttempt
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc
from larp_app.services.demo import load_demo
from larp_app.services.users import create_user

from ..conftest import DEMO_PASSWORDS
from .helpers import TOKEN
from .test_push import Running

pytestmark = pytest.mark.skipif(
    not shutil.which("caddy"), reason="Caddy is not installed (.ci/run installs Debian's caddy)"
)
CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"
CLIENT = "127.0.0.2"  # the phone; Caddy reaches the app from 127.0.0.1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def proxied(database_url, tmp_path):
    """The app on a free port of 127.0.0.1, and Caddy in front of it with HTTPS."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "TRUSTED_PROXIES": 1,
            "DEMO_PASSWORDS": DEMO_PASSWORDS,  # the demo's passwords are random otherwise
        }
    )
    with app.app_context():
        load_demo()
        _user, _password, organiser = create_user("organiser-api", "organiser")
        _user, _password, referee = create_user("referee-api", "referee")
        db.session.commit()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    push = Running(app.config)  # the push server, as deploy/larp_app_push.service runs it
    port = free_port()
    data = tmp_path / "caddy"
    # The README's deploy/Caddyfile, its option lines filled for a test on 127.0.0.1.
    options = {
        "CADDY_GLOBAL_OPTIONS": "\n".join(
            [
                "admin off",
                "auto_https disable_redirects",
                "skip_install_trust",
                f"storage file_system {data}",
                "servers {\nprotocols h1 h2\n}",
            ]
        ),
        "LARP_SITE": f"https://localhost:{port}",
        "LARP_SITE_OPTIONS": "bind 127.0.0.1\ntls internal",
        "LARP_PORT": str(server.server_port),
        "LARP_PUSH_PORT": str(push.port),
    }
    log = (tmp_path / "caddy.log").open("wb")
    caddy = subprocess.Popen(
        ["caddy", "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env={"HOME": str(tmp_path), "XDG_DATA_HOME": str(data), "XDG_CONFIG_HOME": str(data)}
        | options,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    root = data / "pki" / "authorities" / "local" / "root.crt"
    base = f"https://localhost:{port}"
    try:
        context = wait_for_caddy(root, port, caddy, tmp_path)
        yield {
            "app": app,
            "base": base,
            "context": context,
            "organiser": organiser,
            "referee": referee,
        }
    finally:
        caddy.terminate()
        caddy.wait(timeout=10)
        log.close()
        push.stop()
        server.shutdown()
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def wait_for_caddy(root, port, caddy, tmp_path, seconds=30) -> ssl.SSLContext:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if caddy.poll() is not None:
            raise AssertionError((tmp_path / "caddy.log").read_text())
        if root.exists():
            context = ssl.create_default_context(cafile=str(root))
            try:
                with (
                    socket.create_connection(("127.0.0.1", port), timeout=2) as raw,
                    context.wrap_socket(raw, server_hostname="localhost"),
                ):
                    return context
            except (OSError, ssl.SSLError):
                pass
        time.sleep(0.2)
    raise AssertionError("Caddy did not start: " + (tmp_path / "caddy.log").read_text())


class FromClient(urllib.request.HTTPSHandler):
    """HTTPS from the phone's own address."""

    def https_open(self, req):
        connection = functools.partial(http.client.HTTPSConnection, source_address=(CLIENT, 0))
        return self.do_open(connection, req, context=self._context)


def browser(context, jar=None):
    jar = http.cookiejar.CookieJar() if jar is None else jar
    return urllib.request.build_opener(
        FromClient(context=context), urllib.request.HTTPCookieProcessor(jar)
    )


def submit_login(opener, base, password):
    page = opener.open(f"{base}/login?next=/referee/").read().decode()
    form = {"username": "referee", "password": password, "csrf_token": TOKEN.search(page)[1]}
    request = urllib.request.Request(
        f"{base}/login?next=/referee/",
        data=urllib.parse.urlencode(form).encode(),
        headers={"Referer": f"{base}/login"},  # HTTPS: the CSRF check compares it to the host
    )
    return opener.open(request)


def api(proxied, method, path, token, body=None):
    request = urllib.request.Request(
        proxied["base"] + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with browser(proxied["context"]).open(request) as answer:
        return answer.status, json.load(answer)


def test_behind_caddy_a_referee_logs_in_and_logs_an_entry_and_badges_carry_the_public_address(
    proxied,
):
    base = proxied["base"]
    jar = http.cookiejar.CookieJar()
    opener = browser(proxied["context"], jar)
    answer = submit_login(opener, base, "referee-demo")
    assert answer.url == f"{base}/referee/"
    assert "referee" in answer.read().decode()
    # Caddy says X-Forwarded-Proto: https, and the app trusts it: the cookie is Secure.
    assert [(c.name, c.secure) for c in jar] == [("session", True)]

    entry = {"id": str(uuid.uuid4()), "kind": "note", "at": format_instant(now_utc()), "text": "x"}
    status, body = api(proxied, "POST", "/api/v1/characters/1/entries", proxied["referee"], entry)
    assert status == 201, body

    status, body = api(proxied, "POST", "/api/v1/characters/5/badge", proxied["organiser"], {})
    assert body["scan_url"].startswith(f"{base}/b/")
    assert body["status_url"].startswith(f"{base}/p/")


def test_behind_caddy_a_players_page_is_told_of_a_change_through_the_site_itself(proxied):
    with proxied["app"].app_context():
        from larp_app.models import Character

        secret = db.session.get(Character, 1).player_secret
    with (
        socket.create_connection(("127.0.0.1", int(proxied["base"].rsplit(":", 1)[1]))) as raw,
        proxied["context"].wrap_socket(raw, server_hostname="localhost") as stream,
    ):
        stream.settimeout(10)
        stream.sendall(
            f"GET /push/p/{secret} HTTP/1.1\r\nHost: localhost\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += stream.recv(4096)
        assert head.startswith(b"HTTP/1.1 200"), head
        assert b"text/event-stream" in head
        entry = {"id": str(uuid.uuid4()), "kind": "note", "at": format_instant(now_utc()),
                 "text": "x"}  # fmt: skip
        status, _ = api(proxied, "POST", "/api/v1/characters/1/entries", proxied["referee"], entry)
        assert status == 201
        told = head.partition(b"\r\n\r\n")[2]
        while b"data: changed" not in told:  # flushed at once, not held back by the proxy
            got = stream.recv(4096)
            assert got, "the stream was closed"
            told += got


def test_behind_caddy_failed_logins_count_the_clients_own_address(proxied):
    with pytest.raises(urllib.error.HTTPError) as refused:
        submit_login(browser(proxied["context"]), proxied["base"], "wrong-password")
    assert refused.value.code == 401
    refused.value.close()
    with proxied["app"].app_context():
        addresses = db.session.scalars(db.select(LoginAttempt.address)).all()
        db.session.remove()
    assert addresses == [CLIENT]
