"""Each rule system declares its tabletop sheet once, as a JSON Schema document with labels and
spreadsheet columns in each language; its reader holds to every bound and choice declared."""

import copy

import pytest
from jsonschema import Draft202012Validator

from larp_app.rules import check_sheet, get_ruleset, register, unregister
from larp_app.rules.schema import fold
from larp_app.services import sheet_csv
from tests.toy_ruleset import RULESET as TOY

SHIPPED = ("ex-nihilo", "athkri")
LANGUAGES = ("it", "es", "en")


@pytest.fixture(params=[*SHIPPED, "toy"])
def ruleset(request):
    if request.param == "toy":
        register(TOY)
        yield TOY
        unregister(TOY.key)
    else:
        yield get_ruleset(request.param)


def errors_at(sheet, ruleset):
    return {(p.path, p.code) for p in check_sheet({**sheet, "ruleset": ruleset.key})[1].errors}


def test_every_rule_system_declares_a_sheet_schema_that_is_valid_json_schema(ruleset):
    document = ruleset.schema().document
    Draft202012Validator.check_schema(document)
    assert document["properties"]["ruleset"] == {"const": ruleset.key}


def test_each_schema_example_is_valid_by_the_schema_and_by_the_rule_system(ruleset):
    schema = ruleset.schema()
    assert schema.examples
    for example in schema.examples:
        assert list(Draft202012Validator(schema.document).iter_errors(example)) == []
        sheet, checker = check_sheet(example)
        assert sheet is not None and checker.errors == []


def test_every_field_is_named_in_italian_spanish_and_english(ruleset):
    for f in ruleset.schema().walk():
        labels = f.node.get("x-labels") or {}
        assert set(labels) == set(LANGUAGES), f.path
        assert all(labels.values()), f.path


def _set(sheet, path, value):
    """Put ``value`` at a dotted path of ``sheet``; a list item's field in its first item."""
    *parents, last = path.split(".")
    node = sheet
    for name in parents:
        node = node[name]
        if isinstance(node, list):
            node = node[0]
    node[last] = value


def _probes(ruleset):
    """(path, value, error expected) for each bound, choice and required field the schema
    declares, on a copy of its example that has the field."""
    schema = ruleset.schema()
    example = schema.examples[0]
    for f in schema.walk():
        if f.kind not in ("integer", "number", "choice", "text"):
            continue
        parents = f.path.split(".")[:-1]
        node = example
        for name in parents:
            node = node.get(name) if isinstance(node, dict) else None
            node = node[0] if isinstance(node, list) and node else node
        if not isinstance(node, dict):
            continue
        error_path = f.path if not parents else f.path.replace(".", "[0].", 1)
        if schema.field(parents[0] if parents else f.key).kind == "group":
            error_path = f.path
        if f.minimum is not None:
            yield f.path, error_path, f.minimum, False
            yield f.path, error_path, f.minimum - 1, True
        if f.maximum is not None:
            yield f.path, error_path, f.maximum, False
            yield f.path, error_path, f.maximum + 1, True
        if f.kind == "choice":
            for choice in f.choices:
                yield f.path, error_path, choice, False
            yield f.path, error_path, "nothing of the kind", True
        if f.max_length:
            yield f.path, error_path, "x" * f.max_length, False
            yield f.path, error_path, "x" * (f.max_length + 1), True


def test_every_bound_and_choice_of_the_schema_is_the_one_its_rule_system_enforces(ruleset):
    example = ruleset.schema().examples[0]
    probed = 0
    for path, error_path, value, refused in _probes(ruleset):
        sheet = copy.deepcopy(example)
        _set(sheet, path, value)
        found = [p for p, _code in errors_at(sheet, ruleset) if p == error_path]
        assert bool(found) is refused, (path, value)
        probed += 1
    assert probed >= 6


def test_every_required_field_of_the_schema_is_required_by_its_rule_system(ruleset):
    schema = ruleset.schema()
    example = schema.examples[0]
    for f in schema.fields:
        if f.required:
            sheet = {k: v for k, v in example.items() if k != f.key}
            assert (f.key, "required") in errors_at(sheet, ruleset), f.key
        for child in f.children if f.kind == "group" else ():
            if child.required and isinstance(example.get(f.key), dict):
                sheet = copy.deepcopy(example)
                del sheet[f.key][child.key]
                assert (child.path, "required") in errors_at(sheet, ruleset), child.path


def test_no_two_fields_of_a_schema_share_a_column_name_in_any_language(ruleset):
    seen = {}
    for column in sheet_csv.columns(ruleset.schema()):
        for name in column.every_name():
            owner = seen.setdefault(fold(name), column.key)
            assert owner == column.key, (name, owner, column.key)


def test_a_field_path_is_named_by_its_labels_in_the_readers_language():
    ex_nihilo, athkri = get_ruleset("ex-nihilo").schema(), get_ruleset("athkri").schema()
    assert ex_nihilo.path_label("weapons[0].hands", "it") == "Armi 1 · Mani"
    assert ex_nihilo.path_label("weapons[1].hands", "es") == "Armas 2 · Manos"
    assert ex_nihilo.path_label("armour.weight", "en") == "Armour · Weight"
    assert ex_nihilo.path_label("skills.medicina", "it") == "Abilità · medicina"
    assert athkri.path_label("attributes.fisico", "es") == "Atributos · Físico"
    assert athkri.path_label("powers[0].mana_cost", "it") == "Poteri 1 · Costo in Maná"
    assert athkri.path_label("columns.fisico", "es") is None


def test_choices_match_without_case_or_accents_and_in_any_language_of_the_rule_system():
    schema = get_ruleset("ex-nihilo").schema()
    sheet = {
        "armour": {"name": "Giacca", "weight": "Leggera"},
        "weapons": [{"name": "Arco", "kind": "DISTANZA"}, {"name": "Ascia", "kind": "Melee"}],
    }
    assert schema.canonical(sheet) == {
        "armour": {"name": "Giacca", "weight": "leggera"},
        "weapons": [{"name": "Arco", "kind": "distanza"}, {"name": "Ascia", "kind": "mischia"}],
    }
    assert schema.canonical({"armour": {"weight": "Ligera"}})["armour"]["weight"] == "leggera"
    # A word of no choice stays as written, for the reader to refuse naming it.
    assert schema.canonical({"armour": {"weight": "Leggerissima"}})["armour"]["weight"] == (
        "Leggerissima"
    )


def test_the_served_document_is_titled_in_the_readers_language():
    schema = get_ruleset("athkri").schema()
    spanish = schema.document_in("es")
    assert spanish["properties"]["powers"]["title"] == "Poderes"
    assert spanish["properties"]["attributes"]["properties"]["fisico"]["title"] == "Físico"
    assert schema.document_in("it")["properties"]["powers"]["title"] == "Poteri"
    Draft202012Validator.check_schema(spanish)
