"""A property-based fuzz of the whole API from its OpenAPI document.

Schemathesis generates requests from /api/v1/openapi.json (valid and invalid), sends them to
the app in-process as an organiser and as a referee, and checks each answer against the
document: never a 5xx; status, content type and body as documented; a request the document
calls valid is not refused as malformed (positive data acceptance: 2xx, or 401, 403, 404,
409, 429 — a rule or a role may refuse it, never a 422); and where the document is meant to be
exact, a request it calls malformed is refused (negative data rejection). A fixed seed and a
bounded number of examples keep it quick and repeatable. Text is generated as the API takes
it (valid UTF-8 without NUL, which the document's 400 and 422 describe).
"""

from datetime import UTC, datetime

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis import checks  # noqa: E402
from schemathesis.generation.modes import GenerationMode  # noqa: E402

from larp_app.extensions import db  # noqa: E402
from larp_app.services.demo import load_demo  # noqa: E402
from larp_app.services.users import create_user  # noqa: E402

pytestmark = pytest.mark.both_databases

EXAMPLES = 12  # per operation and mode (valid, invalid): about 15 s each


@pytest.fixture
def api_schema(app):
    """The document, read from the app itself, with the demo's events and characters in it."""
    with app.app_context():
        load_demo()
        db.session.commit()
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    schema.config.generation.update(allow_x00=False, codec="utf-8")
    return schema


@pytest.fixture
def tokens(app):
    with app.app_context():
        made = {role: create_user(f"fuzz-{role}", role)[2] for role in ("organiser", "referee")}
        db.session.commit()
    return made


CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.positive_data_acceptance,
]
# Operations whose document is meant to be exact: a request it calls malformed is refused
# (negative data rejection: a 4xx). Not the sheets' (a sheet's fields are its rule system's,
# judged by it, beyond what the document says) nor bodies the document leaves open.
EXACT = {
    ("GET", "/badges/{presented}"),
    ("POST", "/events"),
    ("GET", "/events/{id}/roster"),
    ("GET", "/characters/{id}"),
    ("GET", "/events/{id}/export"),
    ("GET", "/characters/{id}/state"),
    ("GET", "/conflicts"),
    ("GET", "/characters/{id}/entries"),
    ("POST", "/characters/{id}/entries"),
    ("GET", "/me"),
    ("GET", "/roster"),
    ("POST", "/sync"),
}


def within_the_clock(body):
    """The body with each entry's instants no later than now: the document takes any instant
    of its years, and the app refuses an entry from the future by its clock (422 naming
    ``at``), which no schema can say. A phone's ``sent_at`` is now (the entry's ``at`` moves
    by the phone's clock's difference from the server's)."""
    if isinstance(body, list):
        return [within_the_clock(item) for item in body]
    if not isinstance(body, dict):
        return body
    now = datetime.now(UTC)
    kept = {key: within_the_clock(value) for key, value in body.items()}
    if isinstance(kept.get("sent_at"), str):
        kept["sent_at"] = now.isoformat()
    try:
        later = isinstance(kept.get("at"), str) and datetime.fromisoformat(kept["at"]) > now
    except ValueError:
        later = False
    if later:
        kept["at"] = now.isoformat()
    return kept


@pytest.mark.parametrize("role", ["organiser", "referee"])
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_request_the_api_document_allows_gets_a_5xx_or_an_undocumented_answer(
    api_schema, tokens, role, mode
):
    # identity: the checks read the bodies as sent, and compressed ones are not decoded here
    headers = {"Authorization": f"Bearer {tokens[role]}", "Accept-Encoding": "identity"}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 10
    for operation in operations:
        exact = (operation.method.upper(), operation.path) in EXACT
        run = [*CHECKS, checks.negative_data_rejection] if exact else CHECKS

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=EXAMPLES,
            derandomize=True,  # the fixed seed: the same requests on every run
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def send(case):
            if mode is GenerationMode.POSITIVE:
                case.body = within_the_clock(case.body)
            case.call_and_validate(headers=headers, checks=run)  # noqa: B023 (called at once)

        send()
