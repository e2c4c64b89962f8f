"""What gunicorn reads from the working directory (``make run``, deploy/larp_app.service)."""


def post_worker_init(worker):
    """Each worker folds the open events before its first request: no phone's roster or
    board waits for a build (the heartbeat goes on while it does)."""
    from larp_app.services.snapshots import warm

    warm(worker.wsgi, progress=worker.notify)
