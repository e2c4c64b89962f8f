"""EX Nihilo gaps found in the review of its rules; each test quotes the seed
(its "Regolamento da tavolo") or larp_app/rulesets/ex_nihilo/README.md where the seed says
less."""

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from larp_app.rules import check_sheet, convert_sheet, read_entry, read_settings, state_at

DATA = Path(__file__).resolve().parents[1] / "data"
T0 = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)
RAW = json.loads((DATA / "ex-nihilo-sheet.json").read_text(encoding="utf-8"))
SHEET = convert_sheet(RAW)  # Corpo 16: Armatura +1; a "media" armour of 2 points; 3 energy
BREAKS = read_settings({"optional_rules": {"armour_breaks": True}}, "ex-nihilo")


def entry(kind, t=0, **fields):
    at = T0 + timedelta(seconds=t)
    return read_entry({"id": str(uuid.uuid4()), "kind": kind, "at": at.isoformat(), **fields})


def test_a_breaking_blow_breaks_the_worn_armour_not_the_armatura_bonus_of_corpo():
    """ "Se il danno inflitto è doppio rispetto al valore di bonus armatura offerto,
    l'armatura protegge dal danno per quel colpo, ma viene distrutta": the worn armour; the
    "Armatura +X" of Corpo is the character's own and stays."""
    s = state_at(SHEET, BREAKS, [entry("hit", damage=6)], T0)
    assert (s.state.hp, s.state.ap, s.state.armour_destroyed) == (3, 1, True)
    after = state_at(SHEET, BREAKS, [entry("hit", damage=6), entry("hit", 1, damage=1)], T0)
    assert after.state.hp == 3  # the Armatura +1 still takes the next point


def test_without_worn_armour_nothing_breaks():
    """The optional rule is about "l'armatura" worn: Armatura +X alone cannot be destroyed."""
    bare = convert_sheet({**RAW, "armour": None})
    assert bare.ap_max == 1
    s = state_at(bare, BREAKS, [entry("hit", damage=2)], T0)
    assert (s.state.hp, s.state.ap, s.state.armour_destroyed) == (2, 0, False)


def test_spending_energy_on_an_advancement_must_pay_its_cost():
    """larp_app/rules/README.md: on an advancement, energy spent is what it costs."""
    wrong = entry("spend_energy", amount=1, advancement="Sguardo del Vuoto")
    s = state_at(SHEET, BREAKS, [wrong], T0)
    assert [(c.code, c.params) for c in s.conflicts] == [
        ("wrong_cost", {"advancement": "Sguardo del Vuoto", "cost": 2, "got": 1})
    ]
    right = entry("spend_energy", amount=2, advancement="Sguardo del Vuoto")
    assert state_at(SHEET, BREAKS, [right], T0).state.energy == 1


def test_a_sheet_with_an_advancement_that_costs_energy_and_no_energy_warns():
    """ "Slot per punti Energia: numero massimo di punti Energia che è possibile accumulare":
    with none, an advancement that costs energy can never be used."""
    sheet, checker = check_sheet({**RAW, "attributes": {**RAW["attributes"], "spirito": 12}})
    assert sheet is not None and sheet.energy_max == 0
    assert [(w.path, w.code) for w in checker.warnings] == [
        ("advancements[0].energy_cost", "no_energy_to_spend"),
        ("advancements[1].energy_cost", "no_energy_to_spend"),
    ]


def test_the_larp_sheet_carries_the_stagger_and_coup_de_grace_rules_in_italian():
    """ "è impossibilitato a fare qualcosa di diverso dal semplice barcollare o muoversi di 1
    metro per turno"; larp_app/rulesets/ex_nihilo/README.md: "mimed for at least 3 seconds"."""
    rules = {r["key"]: r for r in SHEET.details["rules"]}
    assert "barcollare" in rules["stagger"]["text"]["it"]
    assert "3 secondi" in rules["coup_de_grace"]["text"]["it"]
    assert rules["coup_de_grace"]["text"]["en"] and rules["stagger"]["text"]["es"]


def _in_armour(weight: str, corpo: int):
    return convert_sheet(
        {
            **RAW,
            "attributes": {**RAW["attributes"], "corpo": corpo},
            "armour": {**RAW["armour"], "weight": weight},
        }
    )


def test_a_breaking_blow_is_compared_with_the_worn_armours_points_not_with_armatura_too():
    """README.md, Wounds: "the armour compared and destroyed is the worn one; Corpo's
    Armatura +X is the character's own and stays". Light armour (1) with Corpo 13 (Armatura
    +1): a blow of 2 is twice the worn armour and breaks it, the armour taking it whole."""
    light = _in_armour("leggera", 13)
    assert (light.hp_max, light.ap_max) == (2, 2)
    s = state_at(light, BREAKS, [entry("hit", damage=2)], T0).state
    assert (s.hp, s.ap, s.armour_destroyed) == (2, 1, True)


def test_a_damage_six_blow_breaks_heavy_armour_with_corpo_twenty_and_leaves_every_point():
    """Heavy armour (3) with Corpo 20 (Armatura +2): a blow of 6 is twice the worn 3, so the
    armour is destroyed and takes the blow (hp 3), Armatura's 2 points stay; compared with
    worn + Armatura (5) it would have been absorbed 5 and left hp 2."""
    heavy = _in_armour("pesante", 20)
    assert (heavy.hp_max, heavy.ap_max) == (3, 5)
    s = state_at(heavy, BREAKS, [entry("hit", damage=6)], T0).state
    assert (s.hp, s.ap, s.armour_destroyed) == (3, 2, True)


def test_worn_armour_takes_blows_before_armatura_and_once_used_up_breaks_no_more():
    """The worn armour is struck first: after a blow of 3 on heavy armour (3) with Corpo 20,
    only Armatura's 2 are left, which no blow destroys."""
    heavy = _in_armour("pesante", 20)
    log = [entry("hit", damage=3), entry("hit", 1, damage=4)]
    s = state_at(heavy, BREAKS, log, T0 + timedelta(seconds=1)).state
    assert (s.hp, s.ap, s.armour_destroyed) == (1, 0, False)
    # Half used up (1 of the worn 3 left): a blow of 2 breaks what is left of it.
    log = [entry("hit", damage=2), entry("hit", 1, damage=2)]
    s = state_at(heavy, BREAKS, log, T0 + timedelta(seconds=1)).state
    assert (s.hp, s.ap, s.armour_destroyed) == (3, 2, True)


def test_the_correction_of_the_armour_break_says_which_logs_it_judges_otherwise():
    """A stored log the earlier reading judged otherwise is listed for review: the first
    entry judged otherwise, and the state as it was and as it is."""
    from larp_app.rules import changed_outcome, get_ruleset

    [correction] = get_ruleset("ex-nihilo").corrections
    heavy = _in_armour("pesante", 20)
    blow, note = entry("hit", damage=6), entry("note", 5, text="x")
    change = changed_outcome(correction, heavy, BREAKS, [blow, note], T0 + timedelta(seconds=9))
    assert change.entry == blow
    assert (change.was.state.hp, change.was.state.ap) == (2, 0)
    assert (change.now.state.hp, change.now.state.ap, change.now.state.armour_destroyed) == (
        3,
        2,
        True,
    )
    # A blow that both readings judge alike, or the rule off: nothing to review.
    small = [entry("hit", damage=1)]
    assert changed_outcome(correction, heavy, BREAKS, small, T0) is None
    off = read_settings({}, "ex-nihilo")
    assert changed_outcome(correction, heavy, off, [blow], T0) is None
