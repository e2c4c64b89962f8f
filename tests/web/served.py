"""The app under gunicorn (4 sync workers, or as ``make run`` serves it) on a free port of
127.0.0.1, for tests that need real concurrent requests; stopped with its whole process
group."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30  # seconds
WORKERS = 4


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(process: subprocess.Popen, port: int, log: Path) -> None:
    """Wait until the server ``process`` (logging to ``log``) takes connections on ``port``."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), 2):
                return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(log.read_text()[-2000:]) from None
            time.sleep(0.1)


class Served:
    """A running gunicorn serving ``database_url``; ``request`` speaks JSON to it."""

    def __init__(
        self, database_url: str, folder: Path, config: bool = False, workers: int = WORKERS
    ):
        """``config``: with larp_app/serving.py, as ``make run`` serves (threaded workers, no
        warm-up); else sync workers."""
        self.port = free_port()
        env = {
            **os.environ,
            "LARP_SQLALCHEMY_DATABASE_URI": database_url,
            "LARP_SECRET_KEY": "a-test-secret",
            "LARP_PRINT_FOLDER": str(folder / "prints"),
            "LARP_WARM_UP": "0",
        }
        gunicorn = Path(sys.executable).parent / "gunicorn"
        bind = f"127.0.0.1:{self.port}"
        kind = ["-c", "python:larp_app.serving"] if config else ["-k", "sync"]
        command = [str(gunicorn), *kind, "--preload", "-w", str(workers), "-b", bind]
        self.log = folder / "gunicorn.log"
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [*command, "larp_app:create_app()"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()[-2000:]}")
            try:
                if self.request("GET", "/api/v1/openapi.json")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer within {START_TIMEOUT} s")

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def request(self, method, path, body=None, token=None, connection=None):
        """Send one JSON request; return (status, decoded JSON body or None)."""
        conn = connection or self.connection()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = conn.getresponse()
        data = response.read()
        if connection is None:
            conn.close()
        return response.status, (json.loads(data) if data else None)

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGINT)  # quick shutdown
            self.process.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
