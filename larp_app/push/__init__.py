"""Phones told of their character's changes, instead of asking every few seconds: the push
server (server.py, ``flask push``, started beside the workers by ``make run``) and what it
reads of the database (followed.py). Polling stays, as the fallback."""
