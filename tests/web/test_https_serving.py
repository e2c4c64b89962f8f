"""``make run`` over HTTPS (larp_app/serving.py): a phone that reconnects resumes its TLS
session instead of paying a full handshake (gunicorn alone makes a TLS context for every
connection: none could be resumed); a phone that stays connected polls on one connection."""

from __future__ import annotations

import http.client
import os
import socket
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

from larp_app import serving

from .served import ROOT, free_port, wait_for_port

WORKERS = 2


class FakeConfig:
    certfile, keyfile, ca_certs, ciphers, cert_reqs = "cert.pem", "key.pem", None, None, 0


def test_the_tls_context_is_made_once_for_every_connection(monkeypatch):
    monkeypatch.setattr(serving, "_contexts", {})
    made = []

    def factory():
        made.append(object())
        return made[-1]

    first = serving.ssl_context(FakeConfig(), factory)
    assert serving.ssl_context(FakeConfig(), factory) is first
    assert len(made) == 1


@pytest.fixture
def https(tmp_path, database_url):
    """gunicorn as make run serves it, over HTTPS, with this machine's certificate."""
    env = {
        **os.environ,
        "LARP_SQLALCHEMY_DATABASE_URI": database_url,
        "LARP_SECRET_KEY": "a-test-secret",
        "LARP_TLS_FOLDER": str(tmp_path / "tls"),
    }
    bin_dir = Path(sys.executable).parent
    subprocess.run([str(bin_dir / "flask"), "--app", "larp_app", "tls", "init"], env=env,
                   check=True, capture_output=True, cwd=ROOT)  # fmt: skip
    port = free_port()
    command = [str(bin_dir / "gunicorn"), "-c", "python:larp_app.serving", "-w", str(WORKERS)]
    command += ["-b", f"127.0.0.1:{port}", "--certfile", str(tmp_path / "tls" / "server.pem")]
    command += ["--keyfile", str(tmp_path / "tls" / "server-key.pem"), "larp_app:create_app()"]
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    client = ssl.create_default_context(cafile=str(tmp_path / "tls" / "ca.pem"))
    client.check_hostname = False
    wait_for_port(process, port, log)
    yield port, client
    os.killpg(process.pid, 15)
    process.wait(30)


def get(port, client, session=None):
    """One request on a new connection: its TLS session, whether it was resumed, the status."""
    sock = client.wrap_socket(
        socket.create_connection(("127.0.0.1", port), 30), server_hostname="localhost",
        session=session,
    )  # fmt: skip
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=client, timeout=30)
    conn.sock = sock
    conn.request("GET", "/api/v1/openapi.json")
    answer = conn.getresponse()
    answer.read()
    found = sock.session, sock.session_reused, answer.status
    conn.close()
    return found


def test_a_phone_reconnecting_over_https_resumes_its_tls_session(https):
    port, client = https
    session, reused, status = get(port, client)
    assert status == 200 and not reused
    resumed = []
    for _ in range(12):
        _, reused, status = get(port, client, session)
        assert status == 200
        resumed.append(reused)
    assert all(resumed), resumed


def test_a_phone_polls_on_one_kept_connection_over_https(https):
    port, client = https
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=client, timeout=30)
    for _ in range(3):
        conn.request("GET", "/api/v1/openapi.json")
        answer = conn.getresponse()
        answer.read()
        assert answer.status == 200
        assert answer.getheader("Connection") != "close"
    sock = conn.sock
    conn.request("GET", "/api/v1/openapi.json")
    conn.getresponse().read()
    assert conn.sock is sock  # the same connection throughout
    conn.close()
