"""A rule system's own codes are worded in its package, in each language; the app's sentences
(larp_app/messages.py) name no rule system's terms."""

from pathlib import Path

import pytest
from flask_babel import force_locale

from larp_app import messages, rules

HOST = Path(messages.__file__).read_text(encoding="utf-8")


@pytest.mark.parametrize("term", ["Físico", "Malherido", "Estable", "Mente", "Corpo", "Maná"])
def test_the_apps_sentences_name_no_rule_systems_term(term):
    assert term not in HOST


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "it",
            "il tiro salvezza di questo turno è già registrato (uno per turno): il prossimo "
            "tra 4 s",
        ),
        (
            "es",
            "la tirada de salvación de este turno ya está registrada (una por turno): la "
            "siguiente dentro de 4 s",
        ),
        ("en", "this turn's save is already logged (one save a turn): the next in 4 s"),
    ],
)
def test_an_athkri_refusal_is_worded_by_athkri_in_each_language(app, language, words):
    with app.test_request_context(), force_locale(language):
        said = messages.refusal_message("save_already_made_this_turn", {"seconds": 4}, "athkri")
    assert said == words


@pytest.mark.parametrize(
    ("language", "slots", "words"),
    [
        ("es", 1, "demasiadas habilidades (3) para 1 espacio de habilidad de Mente"),
        ("es", 2, "demasiadas habilidades (3) para 2 espacios de habilidad de Mente"),
        ("en", 1, "too many skills (3) for 1 Mente skill slot"),
        ("it", 2, "troppe abilità (3) per 2 slot abilità di Mente"),
    ],
)
def test_an_ex_nihilo_problem_is_worded_by_its_count_in_each_language(app, language, slots, words):
    problem = rules.Problem("skills", "too_many_skills", {"has": 3, "slots": slots})
    with app.test_request_context(), force_locale(language):
        assert messages.problem_words(problem, "ex-nihilo") == words
        assert messages.problem_words(problem) == words  # found by its code alone too


def test_a_rule_systems_code_of_a_shared_name_is_worded_by_that_rule_system(app, toy_ruleset):
    import dataclasses

    own = dataclasses.replace(toy_ruleset, key="own", refusals={"dead": {"en": "snuffed out"}})
    rules.register(own)
    try:
        with app.test_request_context(), force_locale("en"):
            assert messages.refusal_message("dead", {}, "own") == "snuffed out"
            assert messages.refusal_message("dead", {}, "toy") == "the character is dead"
    finally:
        rules.unregister("own")
