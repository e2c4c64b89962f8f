"""The OpenAPI 3 description of /api/v1, served at /api/v1/openapi.json.

The routes' words are written here; the entries' schemas are made from the entry-kind
declarations (larp_app.rules.kinds), so that a rule system's own kinds are documented too.
tests/web/test_openapi.py checks the document against the app's routes and validates it.
"""

from __future__ import annotations

import copy
import re
from functools import cache
from typing import Any

from .. import rules
from ..rules.kinds import SHARED
from ..services.badges import SCAN_VERSION

_ERROR = {"$ref": "#/components/schemas/Error"}
# An instant a client sends: ISO-8601 with its offset, of the years 1900-2999 (the app reads
# no other: larp_app/rules/timeutil.py).
_INSTANT = {"type": "string", "format": "date-time", "pattern": "^(19|2[0-9])[0-9][0-9]-"}
_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
_AT = {
    "name": "at",
    "in": "query",
    "required": False,
    "schema": _INSTANT,
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
_KITS = {
    "name": "kits",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "pattern": "^[0-9a-f]{16}(,[0-9a-f]{16})*$"},
    "description": "The digests (kit) of the events' kits the phone holds, comma-separated: "
    "with since, an unchanged one is answered as its id and kit alone.",
}
_EVENTS = {
    "name": "event",
    "in": "query",
    "required": False,
    # Ids up to 999,999,999 (the database's integers reach 2³¹−1: a larger one is refused).
    "schema": {"type": "string", "pattern": "^[1-9][0-9]{0,8}(,[1-9][0-9]{0,8})*$"},
    "description": "Event ids, comma-separated: only those events (default: every one).",
}
# Text a person types (names): no control characters, at most 120 characters once trimmed.
_NAME = {
    "type": "string",
    "minLength": 1,
    "maxLength": 120,
    "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f]"
    "[^\\u0000-\\u001f\\u007f-\\u009f]*$",
}
# A line of text that may be empty: no control characters.
_LINE = {"type": "string", "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"}
# Text of several lines: line breaks and tabs, no other control character.
_LINES = {
    "type": "string",
    "pattern": "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$",
}
_NOT_MODIFIED = {"304": {"description": "Nothing changed since the version held"}}


def _errors(*codes: int) -> dict:
    names = {
        400: "A NUL character in the request, or a stale CSRF token (browser sessions)",
        401: "No or bad bearer token",
        403: "Role not allowed; not_your_event (a referee who does not work the event); "
        "event_archived (a referee reading an archived event); not_the_author (an entry "
        "declared by another user)",
        404: "Not found",
        409: "Refused by the rules (the code says why); kept, and answered alike if sent again",
        413: "Request body too large",
        414: "The request line (method, path and query) is longer than the server reads "
        "(4,094 bytes): request_line_too_long",
        422: "Malformed input (a query parameter the operation does not declare too, "
        "naming the nearest one)",
        429: "Too many requests from this account: wait Retry-After seconds (refused badge "
        "lookups; costly reads beyond the account's fair share)",
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
            "Settings": {
                "type": "object",
                "additionalProperties": False,
                "description": "An event's settings (README, Event settings); every field is "
                "optional, and a field not named here is refused. tables: the event's own "
                "tables, each replacing its rule system's default (checked by it; not "
                "described here).",
                "properties": {
                    "turn_seconds": {"type": "number", "minimum": 0.1, "maximum": 60},
                    "optional_rules": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {"armour_breaks": {"type": "boolean"}},
                    },
                    "saves": {"type": "string", "enum": ["app", "referee"]},
                    "roster_max_age_minutes": {"type": "integer", "minimum": 1, "maximum": 1440},
                    "entry_max_age_hours": {"type": "integer", "minimum": 1, "maximum": 720},
                    "seed": {**_LINE, "maxLength": 100},
                    "secret": {
                        **_LINE,
                        "maxLength": 200,
                        "description": "The dice's secret (made for a new event when not "
                        "given; never shown again).",
                    },
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
                        "schema": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
                        "description": "Refuse a badge of another event.",
                    },
                    {
                        "name": "v",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string", "enum": [SCAN_VERSION]},
                        "description": "A whole scanned badge URL sent unencoded brings its "
                        "own format's version (``/b/SECRET?v=1``).",
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
                                "additionalProperties": False,
                                "properties": {
                                    "name": _NAME,
                                    "ruleset": {"type": "string", "enum": ["RULESETS"]},
                                    "settings": {"$ref": "#/components/schemas/Settings"},
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
                "summary": "Import one tabletop sheet or a list, all or nothing (organisers), "
                "as the web and the command line do: a sheet with the same player and "
                "character as one of the event's (or an id naming it) updates it, a new one "
                "adds a character, two rows for one character are refused (422). Each "
                "character is answered with import: added|updated|unchanged (and changed: the "
                "fields an update changed); 201 when one was added, else 200",
                "parameters": [_ID],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {"oneOf": [_SHEET, {"type": "array", "items": _SHEET}]}
                        }
                    }
                },
                "responses": {
                    "201": _json(_OBJECT, "Added"),
                    "200": _json(_OBJECT, "Updated or unchanged"),
                    **_errors(401, 403, 404, 422),
                },
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
                "its version; with since, only the characters changed after it, their badges, "
                "the revoked badges' hashes and the withdrawn characters' ids to forget",
                "parameters": [_EVENTS, _SINCE, _KITS],
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
                "at, sent_at, author, ...}], held: [...]} (at most 200 in all). Each entry is "
                "stored once, or refused in words; one whose author is not the caller, and "
                "every held one (entries the phone keeps for another user), is answered held "
                "and kept for the organisers' board, never stored under the caller's name. "
                "The answer lists {id, status: stored|duplicate|refused|invalid|held|"
                "unknown_character, entry?, state?, code?, message?} in order, and conflicts: "
                "the caller's entries that stopped counting (Voided). A batch the database "
                "failed part way through answers 503 cut_short with the results of the entries "
                "answered before, and stored, answered, total and left: send the rest again",
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["entries"],
                                "properties": {
                                    "entries": {"type": "array", "items": _OBJECT},
                                    "held": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["author"],
                                            "properties": {"author": {"type": "string"}},
                                        },
                                    },
                                },
                            }
                        }
                    }
                },
                "responses": {"200": _json(_OBJECT), **_errors(401, 403, 422, 503)},
            }
        },
    },
}


def _kinds_by_name() -> dict[str, list[tuple[str, rules.EntryKind]]]:
    """Every kind of entry by its name: the shared ones (owner ""), then each rule system's,
    with the rule systems that declare it (one name may be several rule systems' kinds)."""
    found: dict[str, list[tuple[str, rules.EntryKind]]] = {}
    found.update((kind.key, [("", kind)]) for kind in SHARED)
    for ruleset in rules.rulesets():
        for kind in ruleset.entry_kinds:
            found.setdefault(kind.key, []).append((ruleset.key, kind))
    return found


def _entry_schema(kind: rules.EntryKind) -> dict[str, Any]:
    """One kind of entry: what every entry has, and the fields its declaration names."""
    properties: dict[str, Any] = {
        "id": {"type": "string", "format": "uuid"},
        "kind": {"type": "string", "enum": [kind.key]},
        "at": _INSTANT,
        "sent_at": {**_INSTANT, "description": "The phone's clock when it sent the entry."},
    }
    properties["author"] = {
        **_LINE,
        "description": "Who logged it: the caller, or the entry is refused (403 "
        "not_the_author) and kept as held until its author sends it.",
    }
    properties["referee"] = {**_LINE, "deprecated": True, "description": "author"}
    required = ["id", "kind", "at"]
    for field in kind.fields():
        text = (_LINES if field.multiline else _LINE) if field.type == "string" else {}
        properties[field.name] = {
            "type": field.type,
            **text,
            **({"nullable": True} if field.nullable else {}),
        }
        if field.required:
            required.append(field.name)
    for old, name in kind.cls.formerly.items():  # still read, as the field it became
        properties[old] = {**properties[name], "deprecated": True, "description": name}
    roles = " or ".join(sorted(kind.roles))
    return {
        "type": "object",
        "required": required,
        "properties": properties,
        # A field its kind does not declare is refused (422), naming the nearest one.
        "additionalProperties": False,
        "description": f"{kind.key}: logged by {roles}.",
    }


# What any operation may answer besides its own: a NUL character in the request (400), no
# or a bad token (401), the caller's role or events (403), a body too large (413), a request
# line too long (414), a query parameter it does not declare (422), the account's fair share
# used up (429), the database out of reach (503).
_ANY = (400, 401, 403, 413, 414, 422, 429, 503)


def document() -> dict[str, Any]:
    """The whole document, with an ``Entry`` schema per kind of entry known now."""
    doc = copy.deepcopy(_ROUTES)
    for path, operations in doc["paths"].items():
        for operation in operations.values():
            if path != "/openapi.json":
                operation["responses"] = {**_errors(*_ANY), **operation["responses"]}
            if "requestBody" in operation:  # JSON, always: no body is malformed input
                operation["requestBody"]["required"] = True
    create = doc["paths"]["/events"]["post"]["requestBody"]["content"]["application/json"]
    create["schema"]["properties"]["ruleset"]["enum"] = list(rules.ruleset_keys())
    schemas = doc["components"]["schemas"]
    for key, owners in _kinds_by_name().items():
        if len(owners) == 1:
            schemas[f"Entry_{key}"] = _entry_schema(owners[0][1])
            continue
        # Several rule systems' own kinds of one name: the character's rule system says which.
        for owner, kind in owners:
            own = _entry_schema(kind)
            own["description"] = f"{own['description']} The rule system {owner}'s own kind."
            schemas[f"Entry_{key}_{owner}"] = own
        schemas[f"Entry_{key}"] = {
            "oneOf": [{"$ref": f"#/components/schemas/Entry_{key}_{o}"} for o, _kind in owners],
            "description": f"{key}: a kind of several rule systems, each its own; the one of "
            "the character's rule system is read.",
        }
    refs = {key: f"#/components/schemas/Entry_{key}" for key in _kinds_by_name()}
    schemas["Entry"] = {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "kind", "mapping": refs},
    }
    return doc


_PLACEHOLDER = re.compile(r"\{[^}]*\}|<[^>]*>")


@cache
def _query_names() -> dict[tuple[str, str], frozenset[str]]:
    """Each operation's query parameters, by its path's shape (``/characters/{}/state``)
    and method."""
    names = {}
    for path, operations in _ROUTES["paths"].items():
        for method, operation in operations.items():
            declared = (p["name"] for p in operation.get("parameters", ()) if p["in"] == "query")
            names[(_PLACEHOLDER.sub("{}", path), method.upper())] = frozenset(declared)
    return names


def query_names(rule: str, method: str) -> frozenset[str] | None:
    """The query parameters the document declares for the route ``rule`` (Flask's, under
    ``/api/v1``) and ``method``; None for a route the document does not describe."""
    shape = _PLACEHOLDER.sub("{}", rule.removeprefix(_ROUTES["servers"][0]["url"]))
    return _query_names().get((shape, "GET" if method == "HEAD" else method))
