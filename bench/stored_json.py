"""The anchor of ``bench/day.py``: a minimal Flask app that answers the day's requests from
memory, with the very answers the app gave.

``bench/day.py`` asks the app once for each kind of answer (a console's state, a player
page's twin, the board, the roster, an entry through ``/sync``), writes them to a JSON file
and serves this app beside the app, with the same gunicorn settings, under the same load:
what a poll or an entry costs when nothing is looked up, folded or stored. Each answer keeps
its ETag: a request that holds it gets a 304, as from the app. A ``/sync`` body is read as
JSON and each item answered with the stored result under the item's own id; a bearer token
is checked against a set (one lookup).

Served as ``gunicorn 'stored_json:create_app()'`` from ``bench/`` with ``STORED_ANSWERS``
naming the file.
"""

from __future__ import annotations

import json
import os

from flask import Flask, Response, request


def create_app() -> Flask:
    app = Flask(__name__)
    with open(os.environ["STORED_ANSWERS"], encoding="utf-8") as file:
        stored = json.load(file)
    tokens = set(stored["tokens"])
    answers = {kind: (a["body"].encode(), a["etag"]) for kind, a in stored["answers"].items()}
    sync_result = stored["sync_result"]

    def answer(kind: str, private: bool = True):
        if private and request.headers.get("Authorization", "")[7:] not in tokens:
            return Response(status=401)
        body, etag = answers[kind]
        if etag and etag in request.headers.get("If-None-Match", ""):
            response = Response(status=304)
        else:
            response = Response(body, mimetype="application/json")
        if etag:
            response.headers["ETag"] = etag
        return response

    @app.get("/ready")
    def ready():
        return "ok"

    @app.get("/api/v1/characters/<int:character_id>/state")
    def state(character_id: int):
        return answer("state")

    @app.get("/p/<secret>/live.json")
    def player(secret: str):
        return answer("player", private=False)

    @app.get("/events/<int:event_id>/board.json")
    def board(event_id: int):
        return answer("board", private=False)

    @app.get("/api/v1/roster")
    def roster():
        return answer("roster")

    @app.post("/api/v1/sync")
    def sync():
        if request.headers.get("Authorization", "")[7:] not in tokens:
            return Response(status=401)
        items = request.get_json()["entries"]
        results = [{**sync_result, "id": item.get("id")} for item in items]
        return {"results": results, "conflicts": []}

    return app
