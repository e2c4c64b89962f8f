"""Benchmark: what a poll over HTTPS costs the server, with and without a kept TLS context.

Run from a checkout: ``.venv/bin/python bench/tls.py [--requests 400]``. Prints figures only.

``make run`` serves HTTPS (phones give the camera and offline use only to a secure page), so
every poll is a TLS exchange. Set-up: a fresh SQLite database with the demo, its referee's
token, and this machine's certificate made by ``flask tls init`` in a temporary folder. Two
servers, each ``gunicorn -c <config> -w 2 --certfile … --keyfile …`` on 127.0.0.1:

- larp_app/serving.py as ``make run`` serves (one TLS context, made before the workers fork);
- the same settings with gunicorn's own TLS context, made afresh for every connection (the
  key file read and parsed each time, no session a client can resume).

Against each, ``--requests`` unchanged polls of one character's state (304, answered before
Flask: web/quick.py), one at a time, in three ways a phone may ask: a new connection and a
full handshake each time; a new connection resuming the previous TLS session; one
connection kept alive. Printed: the server's CPU per poll (its processes' CPU time from
/proc) and the latency.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import ssl
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from entries import (
    HOST,
    ROOT,
    cpu_seconds,
    create_token,
    flask_cli,
    free_port,
    load_text,
    server_pids,
    stop_server,
)

# gunicorn's own TLS context for every connection: larp_app/serving.py without its hook.
PER_CONNECTION = """
from larp_app.serving import *  # noqa: F403

del ssl_context  # noqa: F821


def on_starting(server):
    pass
"""


def start(env, port, config: str, cert: Path, key: Path, log: Path, cwd: Path):
    import subprocess

    gunicorn = Path(sys.executable).parent / "gunicorn"
    command = [str(gunicorn), "-c", config, "-w", "2", "-b", f"{HOST}:{port}"]
    command += ["--certfile", str(cert), "--keyfile", str(key), "larp_app:create_app()"]
    with open(log, "ab") as out:
        return subprocess.Popen(
            command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip


def wait_ready(port: int, context: ssl.SSLContext, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPSConnection(HOST, port, context=context, timeout=5)
            conn.request("GET", "/api/v1/openapi.json")
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("no HTTPS answer")


def polls(port, context, path, headers, count: int, how: str) -> list[float]:
    """``count`` polls one at a time: a new connection each (``fresh``), one resuming the
    last session (``resumed``), or one connection kept (``kept``); their latencies."""
    times, session, kept = [], None, None
    polls.reused = 0
    for _ in range(count):
        started = time.perf_counter()
        if how == "kept":
            kept = kept or http.client.HTTPSConnection(HOST, port, context=context, timeout=30)
            conn = kept
        else:
            conn = http.client.HTTPSConnection(HOST, port, context=context, timeout=30)
            if how == "resumed" and session is not None:
                conn.sock = context.wrap_socket(
                    __import__("socket").create_connection((HOST, port), 30),
                    server_hostname=HOST,
                    session=session,
                )
        conn.request("GET", path, headers=headers)
        answer = conn.getresponse()
        answer.read()
        if answer.status != 304:
            raise RuntimeError(f"{answer.status}: not an unchanged poll")
        if how == "resumed":
            polls.reused += conn.sock.session_reused
            session = conn.sock.session
        if how != "kept":
            conn.close()
        times.append(time.perf_counter() - started)
    if kept is not None:
        kept.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-tls-"))
    procs = []
    try:
        uri = f"sqlite:///{tmp / 'tls.sqlite3'}"
        env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": uri}
        env["LARP_TLS_FOLDER"] = str(tmp / "tls")
        env.pop("DATABASE_URL", None)
        flask_cli(env, "db", "upgrade")
        flask_cli(env, "demo")
        flask_cli(env, "tls", "init")
        token = create_token(env, "bench-tls", "referee")
        cert, key = tmp / "tls" / "server.pem", tmp / "tls" / "server-key.pem"
        client = ssl.create_default_context(cafile=str(tmp / "tls" / "ca.pem"))
        client.check_hostname = False  # 127.0.0.1 is in the certificate; the name need not be
        (tmp / "per_connection.py").write_text(PER_CONNECTION)
        bearer = {"Authorization": f"Bearer {token}"}
        path = "/api/v1/characters/1/state"
        print(f"machine: {load_text()}   cores: {os.cpu_count()}   {ssl.OPENSSL_VERSION}")
        print(f"{args.requests} unchanged polls (304) of a state, one at a time, each way")
        print(f"  {'server':44}{'how':10}{'CPU/poll':>10}{'p50':>9}{'p99':>9}")
        for label, config, cwd in (
            ("serving.py (one TLS context)", "python:larp_app.serving", ROOT),
            ("gunicorn's TLS context per connection", "per_connection.py", tmp),
        ):
            port = free_port()
            env_run = {**env, "PYTHONPATH": str(ROOT)}
            proc = start(env_run, port, config, cert, key, tmp / "gunicorn.log", cwd)
            procs.append(proc)
            wait_ready(port, client)
            conn = http.client.HTTPSConnection(HOST, port, context=client, timeout=30)
            conn.request("GET", path, headers=bearer)
            first = conn.getresponse()
            body = first.read()
            etag = first.getheader("ETag")
            conn.close()
            if first.status != 200 or not json.loads(body):
                raise RuntimeError(f"{first.status}: {body[:200]!r}")
            held = {**bearer, "If-None-Match": etag}
            for how in ("fresh", "resumed", "kept"):
                polls(port, client, path, held, 20, how)  # every worker warm
                pids = server_pids(proc.pid)
                before = cpu_seconds(pids)
                times = polls(port, client, path, held, args.requests, how)
                used = (cpu_seconds(pids) - before) / args.requests * 1000
                p50 = statistics.median(times) * 1000
                p99 = statistics.quantiles(times, n=100)[98] * 1000
                resumed = f"  ({polls.reused} sessions resumed)" if how == "resumed" else ""
                print(f"  {label:44}{how:10}{used:8.2f}ms{p50:7.2f}ms{p99:7.2f}ms{resumed}")
            stop_server(proc)
            procs.remove(proc)
    finally:
        for proc in procs:
            stop_server(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
