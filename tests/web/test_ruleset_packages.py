"""A rule-system package's templates and static files reach the web app through its object."""

import dataclasses

from flask import render_template

from larp_app import rules


def test_a_ruleset_template_is_found_under_its_key(app, toy_ruleset):
    with app.test_request_context():
        html = render_template("rulesets/toy/hello.html", name="here")
    assert '<p class="toy-hello">Toy ruleset here</p>' in html


def test_a_ruleset_static_file_is_served_from_its_package(client, toy_ruleset):
    with client.get("/rulesets/toy/static/toy.js") as answer:
        assert answer.status_code == 200
        assert b'export const TOY = "toy";' in answer.data


def test_an_unknown_ruleset_or_file_is_not_found(client, toy_ruleset):
    assert client.get("/rulesets/nobody/static/toy.js").status_code == 404
    assert client.get("/rulesets/toy/static/missing.js").status_code == 404
    assert client.get("/rulesets/toy/static/../__init__.py").status_code == 404


def test_a_ruleset_without_a_static_folder_serves_nothing(client, toy_ruleset):
    bare = rules.register(dataclasses.replace(toy_ruleset, key="bare", package_dir=None))
    try:
        assert client.get(f"/rulesets/{bare.key}/static/toy.js").status_code == 404
    finally:
        rules.unregister(bare.key)


def test_every_shipped_rule_system_serves_its_offline_fold_and_the_phone_keeps_it(client):
    with client.get("/sw.js") as worker:
        script = worker.get_data(as_text=True)
    for key in rules.ruleset_keys():
        with client.get(f"/rulesets/{key}/static/fold.js") as answer:
            assert answer.status_code == 200
            assert b"export function makeRuleset" in answer.data
        assert f'"/rulesets/{key}/static/fold.js"' in script


def test_the_shared_templates_hold_no_rule_systems_dice():
    """The 1o3d10 dialog is Sistema Athkri's: its package's console part ships it."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    shared = [p for p in (root / "templates").rglob("*.html") if "1o3d10" in p.read_text("utf-8")]
    assert shared == []
    athkri = rules.get_ruleset("athkri").templates_dir() / "console.html"
    assert 'data-dialog="dice"' in athkri.read_text("utf-8")
