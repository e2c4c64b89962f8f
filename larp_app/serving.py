"""How gunicorn serves the app (``gunicorn -c python:larp_app.serving 'larp_app:create_app()'``,
as ``make run`` and deploy/larp_app.service do); the command line's options win.

- Threads (``gthread``): a phone's connection is kept alive between its polls, so a poll
  over HTTPS pays no new TLS handshake (sync workers close every connection), and a worker
  busy with one costly request still answers the quick ones.
- A worker never takes requests cold: it builds the kept views of the open events first
  (``post_worker_init``), telling the master it is alive as it goes, so that the first
  roster of a 5,000-character event after a restart costs what a warm one does. The
  timeout is a minute and a half for a worker that really is stuck, not one building a view.
  ``LARP_WARM_UP=0`` skips it.
"""

from __future__ import annotations

import os

worker_class = "gthread"
threads = int(os.environ.get("LARP_THREADS", "4"))
keepalive = 30  # seconds a phone's connection waits for its next poll (they poll every 3-5 s)
timeout = 90
graceful_timeout = 30


def post_worker_init(worker) -> None:
    """Build the open events' kept views before taking requests."""
    if os.environ.get("LARP_WARM_UP", "1") == "0":
        return
    from .services.warm_up import warm_open_events

    app = worker.wsgi
    with app.app_context():
        try:
            done = warm_open_events(worker.notify)
        except Exception as exc:  # a cache: a worker that cannot warm up answers cold
            worker.log.warning("warm-up failed: %s: %s", type(exc).__name__, exc)
            return
    for event_id, characters, seconds in done:
        worker.log.info("warm: event %s, %s characters, %.1f s", event_id, characters, seconds)
