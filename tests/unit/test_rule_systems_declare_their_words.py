"""Each rule system declares its words in its package, in every language the app speaks: its
quantities, wound levels, own levels and derived values (larp_app/rules/vocabulary.py)."""

import pytest

from larp_app.rules import tabletop_values
from larp_app.rules.vocabulary import QUANTITIES, WOUNDS, problems
from larp_app.rulesets.athkri import RULESET as ATHKRI
from larp_app.rulesets.ex_nihilo import RULESET as EX_NIHILO
from tests.toy_ruleset import RULESET as TOY

from ..web.helpers import data_sheet

LANGUAGES = ("it", "es", "en")
RULESETS = [EX_NIHILO, ATHKRI, TOY]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.key)
def test_every_rule_system_declares_its_words_in_every_language(ruleset):
    assert ruleset.vocabulary is not None
    assert problems(ruleset.vocabulary, LANGUAGES) == []
    assert "hp" in ruleset.vocabulary.quantities
    assert set(ruleset.vocabulary.quantities) <= set(QUANTITIES)
    assert {"ok", "dead"} <= set(ruleset.vocabulary.wounds) <= set(WOUNDS)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.key)
def test_its_own_language_is_the_fallback(ruleset):
    said = ruleset.words().in_language("de", ruleset.language)
    own = ruleset.words().in_language(ruleset.language, ruleset.language)
    assert said == own


@pytest.mark.parametrize(
    ("ruleset", "sheet"),
    [(EX_NIHILO, "ex-nihilo-sheet.json"), (ATHKRI, "athkri-sheet.json")],
    ids=lambda r: getattr(r, "key", ""),
)
def test_every_derived_value_has_a_name(ruleset, sheet):
    values = tabletop_values(data_sheet(sheet))
    assert values and set(values) <= set(ruleset.vocabulary.derived)


def test_athkri_names_every_level_of_its_wound_track():
    assert set(ATHKRI.vocabulary.levels) == {"estable", "malherido", "inconsciente", "muerto"}


@pytest.mark.parametrize(
    ("language", "grievous", "hp", "energy"),
    [
        ("es", "Malherido", "Puntos de Salud", "Maná"),
        ("it", "Malherido (gravemente ferito)", "Puntos de Salud (punti salute)", "Mana (Maná)"),
        ("en", "Malherido (badly wounded)", "Puntos de Salud (health)", "Mana (Maná)"),
    ],
)
def test_athkri_keeps_its_own_terms_beside_their_translation(language, grievous, hp, energy):
    said = ATHKRI.words().in_language(language, ATHKRI.language)
    assert said["wounds"]["grievous"]["word"] == grievous
    assert said["quantities"]["hp"]["name"] == hp
    assert said["quantities"]["energy"]["name"] == energy


def test_the_toy_tracks_neither_armour_nor_energy():
    assert not TOY.words().tracks("ap") and not TOY.words().tracks("energy")


@pytest.mark.parametrize(
    ("ruleset", "settings"),
    [(EX_NIHILO, ("armour_breaks",)), (ATHKRI, ("seed", "saves")), (TOY, ())],
    ids=lambda r: getattr(r, "key", ""),
)
def test_each_rule_system_names_the_shared_settings_it_reads(ruleset, settings):
    assert ruleset.settings_offered == settings
