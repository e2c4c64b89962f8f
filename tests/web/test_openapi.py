"""The OpenAPI document is made from the routes' words and the entry-kind
declarations; every /api/v1 route is in it, and it validates."""

import re

from openapi_spec_validator import validate

from larp_app import rules

PREFIX = "/api/v1"
IGNORED_METHODS = {"HEAD", "OPTIONS"}


def shape(path: str) -> str:
    """A path with its parameters unnamed: /characters/<int:character_id> ~ /characters/{id}."""
    return re.sub(r"<[^>]+>|\{[^}]+\}", "{}", path)


def resolve(doc: dict, schema: dict) -> dict:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def test_the_document_validates_as_openapi(client):
    validate(client.get("/api/v1/openapi.json").json)


def test_every_api_route_and_method_is_in_the_document(app, client):
    doc = client.get("/api/v1/openapi.json").json
    documented = {
        (shape(path), method.upper()) for path, item in doc["paths"].items() for method in item
    }
    routes = {
        (shape(rule.rule.removeprefix(PREFIX)), method)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(PREFIX + "/")
        for method in rule.methods - IGNORED_METHODS
    }
    assert routes - documented == set()
    assert documented - routes == set()


def test_every_request_body_names_its_required_fields(client):
    doc = client.get("/api/v1/openapi.json").json
    missing = []
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            body = operation.get("requestBody")
            if body is None:
                continue
            schema = resolve(doc, body["content"]["application/json"]["schema"])
            options = schema.get("oneOf", [schema])
            for option in options:
                option = resolve(doc, option)
                if option.get("type") == "array":
                    option = resolve(doc, option["items"])
                if not option.get("required"):
                    missing.append(f"{method} {path}")
    assert missing == []


def test_each_entry_kind_is_documented_with_its_required_fields(client):
    doc = client.get("/api/v1/openapi.json").json
    schemas = doc["components"]["schemas"]
    assert set(schemas["Entry"]["discriminator"]["mapping"]) == {k.key for k in rules.entry_kinds()}
    assert schemas["Entry_heal"]["required"] == ["id", "kind", "at", "amount"]
    assert schemas["Entry_note"]["required"] == ["id", "kind", "at", "text"]
    assert schemas["Entry_hit"]["required"] == ["id", "kind", "at"]
    assert schemas["Entry_revive"]["description"] == "revive: logged by organiser."


def test_a_registered_rule_systems_own_kind_is_documented(client, toy_ruleset):
    doc = client.get("/api/v1/openapi.json").json
    rally = doc["components"]["schemas"]["Entry_rally"]
    assert rally["required"] == ["id", "kind", "at", "cry"]
    assert rally["properties"]["points"] == {"type": "integer"}
    validate(doc)
