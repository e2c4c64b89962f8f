"""The OpenAPI 3 description of /api/v1, served at /api/v1/openapi.json.

The routes' words are written here; the entries' schemas are made from the entry-kind
declarations (larp_app.rules.kinds), so that a rule system's own kinds are documented too.
tests/web/test_openapi.py checks the document against the app's routes and validates it.
"""

from __future__ import annotations

import copy
from typing import Any

from .. import rules

_ERROR = {"$ref": "#/components/schemas/Error"}
_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
_AT = {
    "name": "at",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "format": "date-time"},
    "description": "The instant asked for (default: now).",
}
_SINCE = {
    "name": "since",
    "in": "query",
    "required": False,
    "schema": {"type": "string"},
    "description": "The version of an earlier answer: only what changed after it (and 304 "
    "when nothing did).",
}
_EVENTS = {
    "name": "event",
    "in": "query",
    "required": False,
    "schema": {"type": "string"},
    "description": "Event ids, comma-separated: only those events (default: every one).",
}
_NOT_MODIFIED = {"304": {"description": "Nothing changed since the version held"}}


def _errors(*codes: int) -> dict:
    names = {
        401: "No or bad bearer token",
        403: "Role not allowed",
        404: "Not found",
        409: "Refused by the rules (the code says why); kept, and answered alike if sent again",
        413: "Request body too large",
        422: "Malformed input",
        429: "Too many refused lookups: wait a minute (Retry-After)",
        503: "The database cannot be reached: nothing stored; try again after Retry-After",
    }
    return {
        str(c): {"description": names[c], "content": {"application/json": {"schema": _ERROR}}}
        for c in codes
    }


def _json(schema: dict, description: str = "OK") -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_OBJECT = {"type": "object"}
_SHEET = {"$ref": "#/components/schemas/Sheet"}

_ROUTES: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "larp_app API", "version": "1"},
    "servers": [{"url": "/api/v1"}],
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error", "message", "fields"],
                "properties": {
                    "error": {"type": "string"},
                    "message": {"type": "string"},
                    "fields": {"type": "object"},
                },
            },
            "State": {
                "type": "object",
                "properties": {
                    "hp": {"type": "integer"},
                    "hp_max": {"type": "integer"},
                    "ap": {"type": "integer"},
                    "ap_max": {"type": "integer"},
                    "armour_destroyed": {"type": "boolean"},
                    "energy": {"type": "integer"},
                    "energy_max": {"type": "integer"},
                    "next_energy_at": {"type": "string", "format": "date-time", "nullable": True},
                    "wound": {"type": "string", "enum": ["ok", "grievous", "dying", "dead"]},
                    "death_at": {"type": "string", "format": "date-time", "nullable": True},
                    "died_at": {"type": "string", "format": "date-time", "nullable": True},
                    "statuses": {"type": "array", "items": _OBJECT},
                    "conflicts": {"type": "array", "items": _OBJECT},
                    "log_position": {
                        "type": "integer",
                        "description": "Entries in the log this state was folded from: of two "
                        "states of a character, the higher is the newer.",
                    },
                    "fold": {
                        "type": "object",
                        "description": "The state's inner values (its rule system's wound "
                        "track included), from which a phone's fold goes on offline "
                        "(static/js/lib/fold.js); not in a board's or an export's states.",
                    },
                },
            },
            "Voided": {
                "type": "object",
                "description": "One of the caller's entries that was stored and later stopped "
                "counting (an earlier-dated entry arrived late, or an earlier one was undone).",
                "required": ["id", "kind", "at", "character", "code", "message", "because"],
                "properties": {
                    "id": {"type": "string"},
                    "kind": {"type": "string"},
                    "at": {"type": "string", "format": "date-time"},
                    "summary": {"type": "string"},
                    "character": _OBJECT,
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "because": {"type": "object", "nullable": True},
                },
            },
            "Sheet": {
                "type": "object",
                "required": ["player", "character"],
                "description": "A tabletop sheet; its other fields are its rule system's "
                "(the import names every problem).",
                "properties": {
                    "ruleset": {"type": "string"},
                    "player": {"type": "string"},
                    "character": {"type": "string"},
                    "faction": {"type": "string", "nullable": True},
                },
            },
        },
    },
    "security": [{"bearer": []}],
    "paths": {
        "/openapi.json": {
            "get": {
                "summary": "This document",
                "security": [],
                "responses": {"200": _json(_OBJECT)},
            }
        },
        "/badges/{presented}": {
            "get": {
                "summary": "The character a scanned badge secret or a typed short code names",
                "parameters": [
                    {
                        "name": "presented",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "minLength": 1},
                    },
                    {
                        "name": "event",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "integer"},
                        "description": "Refuse a badge of another event.",
                    },
                ],
                "responses": {"200": _json(_OBJECT), **_errors(401, 403, 404, 422, 429)},
            }
        },
        "/characters/{id}/badge": {
            "post": {
                "summary": "Reissue a lost badge and the player's link (organisers)",
                "parameters": [_ID],
                "responses": {"201": _json(_OBJECT, "Issued"), **_errors(401, 403, 404)},
            }
        },
        "/events": {
            "post": {
                "summary": "Create an event (organisers)",
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["name", "ruleset"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "ruleset": {"type": "string"},
                                    "settings": _OBJECT,
                                },
                            }
                        }
                    }
                },
                "responses": {"201": _json(_OBJECT, "Created"), **_errors(401, 403, 422)},
            }
        },
        "/events/{id}/characters": {
            "post": {
                "summary": "Import one tabletop sheet or a list, all or nothing (organisers)",
                "parameters": [_ID],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {"oneOf": [_SHEET, {"type": "array", "items": _SHEET}]}
                        }
                    }
                },
                "responses": {"201": _json(_OBJECT, "Created"), **_errors(401, 403, 404, 422)},
            }
        },
        "/events/{id}/characters/check": {
            "post": {
                "summary": "Preview an import: errors and warnings per row, nothing saved",
                "parameters": [_ID],
                "responses": {"200": _json(_OBJECT), **_errors(401, 403, 404, 422)},
            }
        },
        "/events/{id}/roster": {
            "get": {
                "summary": "Every character of the event with its state, and the answer's "
                "version; with since, only the characters whose state changed after it",
                "parameters": [_ID, _AT, _SINCE],
                "responses": {
                    "200": _json(_OBJECT),
                    **_NOT_MODIFIED,
                    **_errors(401, 404, 422),
                },
            }
        },
        "/characters/{id}": {
            "get": {
                "summary": "Tabletop sheet, larp sheet and warnings",
                "parameters": [_ID],
                "responses": {"200": _json(_OBJECT), **_errors(401, 404)},
            }
        },
        "/characters/{id}/sheet": {
            "put": {
                "summary": "Replace the tabletop sheet; the larp sheet is recomputed, the log kept,"
                " the change recorded (organisers)",
                "parameters": [_ID],
                "requestBody": {"content": {"application/json": {"schema": _SHEET}}},
                "responses": {"200": _json(_OBJECT), **_errors(401, 403, 404, 422)},
            }
        },
        "/characters/{id}/withdraw": {
            "post": {
                "summary": "Withdraw from the event, or {withdrawn: false} to bring back"
                " (organisers)",
                "parameters": [_ID],
                "responses": {"200": _json(_OBJECT), **_errors(401, 403, 404, 422)},
            }
        },
        "/events/{id}/archive": {
            "post": {
                "summary": "Archive the event (read-only, out of the roster), or {archived:"
                " false} to reopen (organisers)",
                "parameters": [_ID],
                "responses": {"200": _json(_OBJECT), **_errors(401, 403, 404, 422)},
            }
        },
        "/events/{id}/export": {
            "get": {
                "summary": "Final states (one per character) and the whole log (organisers)",
                "parameters": [_ID],
                "responses": {"200": _json(_OBJECT), **_errors(401, 403, 404)},
            }
        },
        "/characters/{id}/state": {
            "get": {
                "summary": "The state at an instant, with your_conflicts: the caller's entries "
                "on this character that stopped counting, until dismissed; now, polled with "
                "If-None-Match: 304 when unchanged",
                "parameters": [_ID, _AT],
                "responses": {
                    "200": _json({"$ref": "#/components/schemas/State"}),
                    **_NOT_MODIFIED,
                    **_errors(401, 404, 422, 503),
                },
            }
        },
        "/conflicts": {
            "get": {
                "summary": "The caller's entries of the last day that stopped counting and "
                "that they have not dismissed",
                "responses": {
                    "200": _json(
                        {
                            "type": "object",
                            "properties": {
                                "conflicts": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Voided"},
                                }
                            },
                        }
                    ),
                    **_errors(401, 503),
                },
            }
        },
        "/conflicts/{entry_id}/dismiss": {
            "post": {
                "summary": "The caller has seen that their entry stopped counting",
                "parameters": [
                    {
                        "name": "entry_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {"204": {"description": "Dismissed"}, **_errors(401, 404, 503)},
            }
        },
        "/characters/{id}/entries": {
            "get": {
                "summary": "The log, with conflicts and undone entries marked",
                "parameters": [_ID],
                "responses": {"200": _json(_OBJECT), **_errors(401, 404)},
            },
            "post": {
                "summary": "Log an entry; the same id with the same content answers the first "
                "time's, with other content 409 id_reused. Writes for one character are "
                "serialised: a 201 means the entry counts",
                "parameters": [_ID],
                "requestBody": {
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Entry"}}
                    }
                },
                "responses": {
                    "201": _json(_OBJECT, "Stored"),
                    "200": _json(_OBJECT, "Already stored"),
                    **_errors(401, 403, 404, 409, 422, 503),
                },
            },
        },
        "/me": {
            "get": {
                "summary": "Who is calling, and a fresh CSRF token for a browser session",
                "responses": {"200": _json(_OBJECT), **_errors(401)},
            }
        },
        "/roster": {
            "get": {
                "summary": "What a referee's phone keeps offline: every event the referee works "
                "(those an organiser assigned them to; none assigned: every open event; "
                "403 not_your_event for an event asked for and not worked), its characters and "
                "states, and the active badges as salted SHA-256 hashes, never their secrets; "
                "its version; with since, only the characters changed after it, their badges "
                "and the revoked badges' hashes to forget",
                "parameters": [_EVENTS, _SINCE],
                "responses": {
                    "200": _json(_OBJECT),
                    **_NOT_MODIFIED,
                    **_errors(401, 403, 422),
                },
            }
        },
        "/sync": {
            "post": {
                "summary": "A phone's outbox, oldest first: {entries: [{character, id, kind, "
                "at, sent_at, ...}]} (at most 200). Each is stored once, or refused in words; "
                "the answer lists {id, status: stored|duplicate|refused|invalid|"
                "unknown_character, entry?, state?, code?, message?} in order, and conflicts: "
                "the caller's entries that stopped counting (Voided)",
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["entries"],
                                "properties": {"entries": {"type": "array", "items": _OBJECT}},
                            }
                        }
                    }
                },
                "responses": {"200": _json(_OBJECT), **_errors(401, 403, 422, 503)},
            }
        },
    },
}


def _entry_schema(kind: rules.EntryKind) -> dict[str, Any]:
    """One kind of entry: what every entry has, and the fields its declaration names."""
    properties: dict[str, Any] = {
        "id": {"type": "string", "format": "uuid"},
        "kind": {"type": "string", "enum": [kind.key]},
        "at": {"type": "string", "format": "date-time"},
        "sent_at": {
            "type": "string",
            "format": "date-time",
            "description": "The phone's clock when it sent the entry.",
        },
    }
    required = ["id", "kind", "at"]
    for field in kind.fields():
        properties[field.name] = {
            "type": field.type,
            **({"nullable": True} if field.nullable else {}),
        }
        if field.required:
            required.append(field.name)
    roles = " or ".join(sorted(kind.roles))
    return {
        "type": "object",
        "required": required,
        "properties": properties,
        "description": f"{kind.key}: logged by {roles}.",
    }


def document() -> dict[str, Any]:
    """The whole document, with an ``Entry`` schema per kind of entry known now."""
    doc = copy.deepcopy(_ROUTES)
    schemas = doc["components"]["schemas"]
    kinds = rules.entry_kinds()
    for kind in kinds:
        schemas[f"Entry_{kind.key}"] = _entry_schema(kind)
    refs = {kind.key: f"#/components/schemas/Entry_{kind.key}" for kind in kinds}
    schemas["Entry"] = {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "kind", "mapping": refs},
    }
    return doc
