"""How gunicorn serves the app (``gunicorn -c python:larp_app.serving 'larp_app:create_app()'``,
as ``make run`` and deploy/larp_app.service do); the command line's options win.

- Threads (``gthread``, its worker answering a request line too long in the API's JSON): a
  phone's connection is kept alive between its polls, so a poll
  over HTTPS pays no new TLS handshake (sync workers close every connection), and a worker
  busy with one costly request still answers the quick ones. Every phone of a big event
  may hold one: a worker keeps up to ``worker_connections`` of them, and the server's limit
  of open files is raised to what the system allows (its soft limit is often 1,024).
- Over HTTPS, one TLS context for every connection, made once in the master before the
  workers fork (gunicorn makes one per connection: the key read from disk and parsed each
  time, and no session a phone could resume). A phone that reconnects resumes its session
  (TLS 1.3 tickets, whose keys the workers share) instead of a full handshake.
- A worker never takes requests cold: it builds the kept views of the open events first
  (``post_worker_init``), telling the master it is alive as it goes, so that the first
  roster of a 5,000-character event after a restart costs what a warm one does. As many
  workers warm up at once as the machine has cores, the others waiting their turn
  (``warm_up_turn``): four workers on two cores were all ready after twice one warm-up, and
  no phone was answered before; now the first two are ready after one. The timeout is a
  minute and a half for a worker that really is stuck, not one building a view.
  ``LARP_WARM_UP=0`` skips it. What the warm-up kept is then left out of Python's cyclic
  garbage collector (``gc.freeze``): a full collection of a 5,000-character event's views
  stopped every request of the worker for 90 ms or more, now and then, all day. So is
  whatever survives each full collection afterwards (``freeze_survivors``): as characters
  change, the records kept for them are new, and a full collection walked them all again.
- Cookie lines: a browser sends one. Repeated ones (gunicorn would join them into one
  header of any length) or a longer one than a line may be are taken off the request
  before anything reads them (``pre_request``), and the app refuses it with 431 in words
  (web/quick.py, web/hygiene.py): a stranger's junk is never held, nor parsed.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import resource
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from gunicorn.http.errors import LimitRequestLine
from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker as _ThreadWorker
from gunicorn.workers.sync import SyncWorker as _SyncWorker


class _Answers:
    """A request line longer than gunicorn reads (``limit_request_line``, 4,094 bytes) gets
    the API's JSON error (414), not gunicorn's HTML page: the request never reached the app,
    whose answers are JSON for a client that sends such lines (no page of the app has a URL
    that long)."""

    def handle_error(self, req, client, addr, exc):
        if not isinstance(exc, LimitRequestLine):
            return super().handle_error(req, client, addr, exc)
        limit = self.cfg.limit_request_line
        body = json.dumps(
            {
                "error": "request_line_too_long",
                "message": f"the request line (method, path and query) is longer than {limit} "
                "bytes: send fewer or shorter parameters",
                "fields": {},
            }
        ).encode()
        head = (
            "HTTP/1.1 414 URI Too Long\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        self.log.debug("request line too long: %s", exc)
        with contextlib.suppress(OSError):  # the client went away: nothing to tell
            write_nonblock(client, head + body)


class ThreadWorker(_Answers, _ThreadWorker):
    """gunicorn's threaded worker, answering a too-long request line in JSON."""


class SyncWorker(_Answers, _SyncWorker):
    """gunicorn's sync worker (``-k larp_app.serving.SyncWorker``), likewise."""


worker_class = "larp_app.serving.ThreadWorker"  # gthread
threads = int(os.environ.get("LARP_THREADS", "4"))
keepalive = 30  # seconds a phone's connection waits for its next poll (they poll every 3-5 s)
# Phones kept connected, per worker: a 5,000-player day (each page, console and status bar
# a connection) on as few as one worker.
worker_connections = 8000
timeout = 90
graceful_timeout = 30


_contexts: dict = {}


def ssl_context(conf, default_ssl_context_factory):
    """The server's TLS context, made once (gunicorn asks for one with every connection)."""
    key = (conf.certfile, conf.keyfile, conf.ca_certs, conf.ciphers, conf.cert_reqs)
    if key not in _contexts:
        _contexts[key] = default_ssl_context_factory()
    return _contexts[key]


def on_starting(server) -> None:
    """Open files enough for every phone's connection (and the workers' own files); the TLS
    context made before the workers fork, so that they share it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard == resource.RLIM_INFINITY else min(hard, 65_536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    if server.cfg.is_ssl:
        from gunicorn.sock import ssl_context as made

        made(server.cfg)


# One header line, at most (gunicorn's limit_request_field_size, as web/quick.py counts it).
MAX_COOKIE = 8190


def pre_request(worker, req) -> None:
    """Cookie lines repeated, or too long, taken off the request and named in a header of
    their own: the app refuses the request (web/quick.py ``cookies_refused``)."""
    worker.log.debug("%s %s", req.method, req.path)  # gunicorn's own pre_request
    lines = [value for name, value in req.headers if name == "COOKIE"]
    if len(lines) > 1 or sum(len(line) for line in lines) > MAX_COOKIE:
        reason = "repeated" if len(lines) > 1 else "too_large"
        req.headers = [(name, value) for name, value in req.headers if name != "COOKIE"]
        req.headers.append(("LARP-COOKIES-REFUSED", reason))


def post_worker_init(worker) -> None:
    """Build the open events' kept views before taking requests, in turn (``warm_up_turn``),
    and keep what lasts out of the garbage collector's walks (``freeze_survivors``)."""
    gc.callbacks.append(freeze_survivors)
    if os.environ.get("LARP_WARM_UP", "1") == "0":
        return
    from .reads.warm_up import warm_open_events

    app = worker.wsgi
    with warm_up_turn(Path(app.instance_path) / "warm-up", worker.notify), app.app_context():
        try:
            done = warm_open_events(worker.notify)
        except Exception as exc:  # a cache: a worker that cannot warm up answers cold
            worker.log.warning("warm-up failed: %s: %s", type(exc).__name__, exc)
            return
    for event_id, characters, seconds in done:
        worker.log.info("warm: event %s, %s characters, %.1f s", event_id, characters, seconds)
    gc.collect()
    gc.freeze()  # freed as ever when nothing refers to it; never walked by a collection


def freeze_survivors(phase: str, info: dict) -> None:
    """After each full collection, what survived it is left out of the next ones
    (``gc.freeze``): a full collection then walks only what was kept since the one before,
    not every record a worker keeps. A worker's records are new whenever their characters
    change: on a 10,000-character event whose board changed 100 characters a poll, a full
    collection walking them all held the worker up to 405 ms, 16 times in 200 polls; walking
    only the new, up to 88 ms (``bench/board_parts.py --changed 100 --polls 400``). Cycles
    among frozen objects that become garbage are never freed: 200 objects more after 30,000
    changes of a character there. Called by the collector (``gc.callbacks``)."""
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()


@contextlib.contextmanager
def warm_up_turn(
    folder: Path, alive: Callable[[], None], turns: int | None = None, wait: float = 0.05
) -> Iterator[None]:
    """The block runs while at most ``turns`` workers warm up (as many as this machine has
    cores): after a restart the first workers take requests in the time of one warm-up,
    not of every worker's sharing the cores (``alive`` is called while one waits its turn).
    The turns are lock files in ``folder``: a worker that dies gives its turn back; a folder
    that cannot be written lets every worker warm up at once, as before."""
    from .services.fair_share import free_slot, release

    turns = turns or len(os.sched_getaffinity(0))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        while (turn := free_slot(folder, "turn", turns)) is None:
            alive()
            time.sleep(wait)
    except OSError:
        turn = None
    try:
        yield
    finally:
        if turn is not None:
            release(turn)
