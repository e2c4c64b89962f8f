"""Rules the seeds state, each test quoting its seed (the rule systems' own documents,
larp_app/rulesets/athkri/README.md and larp_app/rulesets/ex_nihilo/README.md, cite them too).

Sistema Athkri's seed is its combat-conditions chapter; EX Nihilo's is its
"Regolamento da tavolo".
"""

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from larp_app.rules import (
    InvalidInput,
    convert_sheet,
    entry_to_dict,
    get_ruleset,
    kinds_handled,
    read_entry,
    read_settings,
    state_at,
    tabletop_values,
)

DATA = Path(__file__).resolve().parents[1] / "data"
T0 = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)
ATHKRI = json.loads((DATA / "athkri-sheet.json").read_text(encoding="utf-8"))
EX_NIHILO = json.loads((DATA / "ex-nihilo-sheet.json").read_text(encoding="utf-8"))
# Físico 4, PS 10: a blow of 12 leaves PS −2 (12 damage): alive until 24, so two failed saves
# (4 then 8) kill, one does not.
FRAIL = convert_sheet({**ATHKRI, "ps_max": 10})
PETRIFIABLE = convert_sheet(ATHKRI)  # PS 20, Blindaje 2
TURN = 10  # seconds: Sistema Athkri's turn at a new event
REFEREE = read_settings({"seed": "1", "saves": "referee", "turn_seconds": TURN}, "athkri")
APP = read_settings({"seed": "1", "turn_seconds": TURN}, "athkri")
VERA = convert_sheet(EX_NIHILO)  # 3 points, 3 armour points
ITALIAN = read_settings({}, "ex-nihilo")


def entry(kind, t=0, **fields):
    at = T0 + timedelta(seconds=t)
    fields.setdefault("id", str(uuid.uuid4()))
    return read_entry({"kind": kind, "at": at.isoformat(), **fields})


def state(sheet, settings, entries, t):
    return state_at(sheet, settings, entries, T0 + timedelta(seconds=t))


def knocked_out(damage=12):
    """A piercing blow at 15:00:00 (of 12: PS −2), Inconsciente, saves from the next turn."""
    return entry("hit", 0, damage=damage, pierce=True)


def refusals(snapshot):
    return {c.id: (c.code, c.params) for c in snapshot.conflicts}


# Sistema Athkri: one save a turn, at its start ----------------------------------------------


def test_two_failed_saves_two_seconds_apart_are_one_turns_save_and_the_second_is_refused():
    """ "Al comienzo de cada Turno, ha de realizar una Tirada de salvación de Físico a
    Dificultad 12": one save a turn. Two referees tapping "save failed" at one body 2 s apart
    must not deal the second failure (Físico × 2) a turn early and kill the character."""
    first, second = entry("save", 10, success=False), entry("save", 12, success=False)
    s = state(FRAIL, REFEREE, [knocked_out(), first, second], 13)
    assert (s.wound, s.state.hp, s.extra["damage"]) == ("dying", -6, 16)
    assert refusals(s)[second.id] == ("save_already_made_this_turn", {"seconds": 8})
    assert first.id not in refusals(s)


def test_a_save_entered_before_the_first_turn_after_the_knock_out_is_refused():
    """ "Al comienzo de cada Turno": the knock-out's own turn has no save; the first comes
    when the next turn begins, 10 s later, and a save entered 3 s after the blow is refused,
    saying how long until it may be made."""
    early = entry("save", 3, success=False)
    s = state(FRAIL, REFEREE, [knocked_out(), early], 4)
    assert refusals(s)[early.id] == ("save_before_first_turn", {"seconds": 7})
    assert (s.state.hp, s.extra["next_failure_damage"]) == (-2, 4)


def test_saves_in_later_turns_count_their_failures_in_order_even_with_a_turn_skipped():
    """ "si falla, recibe tantos puntos de daño automáticos como su valor en Físico [...] Si
    vuelve a fallar una segunda vez, recibirá tanto daño como su Físico x2": the second
    failure the referees enter deals 8, whichever turn it comes in; one more in that turn
    is refused, the next turn's counts."""
    log = [
        knocked_out(damage=10),
        entry("save", 10.5, success=False),
        entry("save", 35, success=False),
    ]
    assert state(FRAIL, REFEREE, log, 36).state.hp == -12  # 0 −4 −8: 22 damage, alive
    again = entry("save", 38, success=True)
    s = state(FRAIL, REFEREE, [*log, again], 39)
    assert refusals(s)[again.id] == ("save_already_made_this_turn", {"seconds": 2})
    passed = state(FRAIL, REFEREE, [*log, entry("save", 40, success=True)], 41)
    assert (passed.state.hp, passed.extra["level"], passed.extra["next_save_at"]) == (
        1,
        "inconsciente",
        None,
    )


def test_the_helpless_save_at_thirteen_is_entered_at_once_not_at_a_turn():
    """ "Si un personaje sufre daño estando Indefenso, y el resultado es igual o más que su
    valor de Físico x2, ha de superar una Tirada de salvación de Físico a Dificultad 13":
    it follows the blow, whatever the turn; the turn's save still waits for its turn."""
    log = [knocked_out(), entry("hit", 2, damage=8, pierce=True), entry("save", 3, success=True)]
    s = state(FRAIL, REFEREE, log, 4)
    assert (s.wound, s.extra["indefenso_save_due"], refusals(s)) == ("dying", 0, {})
    too_soon = entry("save", 4, success=True)
    assert refusals(state(FRAIL, REFEREE, [*log, too_soon], 5))[too_soon.id][0] == (
        "save_before_first_turn"
    )


# Sistema Athkri: no coup de grâce; a finishing blow is the Indefenso save --------------------


def test_sistema_athkri_has_no_coup_de_grace_and_refuses_one_by_name():
    """The seed has no coup de grâce: an unconscious character "también está Indefenso", and
    a blow on the helpless "igual o más que su valor de Físico x2" calls "una Tirada de
    salvación de Físico a Dificultad 13; si falla, muere sin remedio" - a save, not an
    outright kill."""
    coup = entry("coup_de_grace", 2)
    s = state(FRAIL, APP, [knocked_out(), coup], 2)
    assert refusals(s)[coup.id] == ("not_in_ruleset", {"kind": "coup_de_grace"})
    assert s.wound == "dying"
    assert "coup_de_grace" not in kinds_handled(get_ruleset("athkri"))
    assert "coup_de_grace" in kinds_handled(get_ruleset("ex-nihilo"))


def test_a_finishing_blow_on_an_unconscious_athkri_character_is_the_save_at_thirteen():
    """ "si falla, muere sin remedio": with the same blow, some seeds pass the save and the
    character lives on, unconscious."""
    outcomes = set()
    for seed in range(30):
        settings = read_settings({"seed": str(seed), "turn_seconds": TURN}, "athkri")
        blow = entry("hit", 2, damage=8, pierce=True, id=str(uuid.UUID(int=seed + 1)))
        s = state(FRAIL, settings, [knocked_out(), blow], 2)
        [roll] = [r for r in s.extra["rolls"] if r["what"] == "indefenso"]
        assert roll["target"] == 13 and (s.wound == "dead") == (not roll["success"])
        outcomes.add(s.wound)
    assert outcomes == {"dead", "dying"}


# Which rule system ends a session with "unconscious is death" --------------------------------


def test_only_ex_nihilo_declares_that_ending_a_session_unconscious_is_death():
    """EX Nihilo: "Un personaggio che finisce una sessione in status incosciente, senza
    nessun guaritore in grado o che voglia curarlo, viene automaticamente considerato
    morto." Sistema Athkri's seed says nothing of the kind: its unconscious go on saving."""
    assert get_ruleset("ex-nihilo").end_of_session_is_death is True
    assert get_ruleset("athkri").end_of_session_is_death is False


# Damage types: Intangibile --------------------------------------------------------------------


def test_an_intangible_character_takes_no_cutting_piercing_or_blunt_blow():
    """ "Intangibile: immune ai danni da taglio, punta e contundenti": a plain blow (the
    physical damage of a sword, an arrow, a club) passes through; armour and points stay."""
    log = [entry("status_on", 0, key="intangibile"), entry("hit", 1, damage=2, blows=3)]
    s = state(VERA, ITALIAN, log, 2)
    assert (s.state.hp, s.state.ap, s.conflicts) == (3, 3, ())
    pierce = state(VERA, ITALIAN, [log[0], entry("hit", 1, pierce=True)], 2)
    assert pierce.state.hp == 3


def test_an_intangible_character_is_still_hurt_by_heat_and_electricity():
    """ "Continua a ricevere danno da Calore ed Elettricità"."""
    for kind in ("heat", "electricity"):
        log = [
            entry("status_on", 0, key="intangibile"),
            entry("hit", 1, damage=4, damage_type=kind),
        ]
        s = state(VERA, ITALIAN, log, 2)
        assert (s.state.ap, s.state.hp) == (0, 2), kind


def test_a_blow_that_passes_through_an_intangible_character_does_not_end_stordimento():
    """ "Stordimento: [...] per 5 turni o fin quando non viene colpito": a blow the seed
    makes harmless to the intangible ("immune") has not struck them."""
    log = [
        entry("status_on", 0, key="intangibile"),
        entry("status_on", 0, key="stordimento"),
        entry("hit", 1),
    ]
    keys = {st.key for st in state(VERA, ITALIAN, log, 2).state.statuses}
    assert keys == {"intangibile", "stordimento"}
    burnt = state(VERA, ITALIAN, [*log[:2], entry("hit", 1, damage_type="heat")], 2)
    assert {st.key for st in burnt.state.statuses} == {"intangibile"}


def test_a_hit_is_physical_unless_it_names_another_damage_type():
    """A plain blow is physical: a hit that says so is the same entry as one that says
    nothing, and an EX Nihilo character not intangible takes heat like any blow."""
    plain, said = entry("hit", 1), entry("hit", 1, damage_type="physical")
    assert entry_to_dict(plain).keys() == entry_to_dict(said).keys()
    assert "damage_type" not in entry_to_dict(said)
    assert entry_to_dict(entry("hit", 1, damage_type="heat"))["damage_type"] == "heat"
    assert state(VERA, ITALIAN, [entry("hit", 1, damage_type="heat")], 2).state.ap == 2


def test_a_damage_type_the_rule_system_does_not_know_is_refused_naming_those_it_knows():
    cold = entry("hit", 1, damage_type="cold")
    s = state(VERA, ITALIAN, [cold], 2)
    assert refusals(s)[cold.id] == (
        "unknown_damage_type",
        {"type": "cold", "allowed": ["physical", "heat", "electricity"]},
    )
    heat = entry("hit", 1, damage_type="heat")
    athkri = state(PETRIFIABLE, APP, [heat], 2)
    assert refusals(athkri)[heat.id] == (
        "unknown_damage_type",
        {"type": "heat", "allowed": ["physical"]},
    )


def test_a_damage_type_must_be_a_short_word():
    with pytest.raises(InvalidInput) as caught:
        entry("hit", 1, damage_type=7)
    assert [p.path for p in caught.value.problems] == ["damage_type"]


def test_ex_nihilo_declares_heat_and_electricity_in_three_languages_and_athkri_none():
    types = get_ruleset("ex-nihilo").damage_types
    assert list(types) == ["physical", "heat", "electricity"]
    assert types["heat"]["it"] == "Calore" and types["electricity"]["it"] == "Elettricità"
    assert all(set(words) == {"it", "es", "en"} for words in types.values())
    assert get_ruleset("athkri").damage_types == {}


# Tabletop defence: the armour's maximum Equilibrio -------------------------------------------


def test_the_armours_maximum_equilibrio_caps_tabletop_defence():
    """ "il bonus di Equilibrio massimo, che indica qual è il grado della caratteristica
    Equilibrio applicabile quando si prova a schivare indossando quel tipo di armatura";
    defence in armour is "Equilibrio + Deflessione": Equilibrio 15 capped at 12, + 10."""
    raw = json.loads(json.dumps(EX_NIHILO))
    raw["attributes"]["equilibrio"] = 15
    raw["armour"].update(deflection=10, max_equilibrio=12)
    assert tabletop_values(raw)["defence"] == 22
    raw["armour"]["max_equilibrio"] = None  # no cap
    assert tabletop_values(raw)["defence"] == 25
    raw["armour"]["max_equilibrio"] = 18  # a cap above the value changes nothing
    assert tabletop_values(raw)["defence"] == 25


# Blindaje: one reading, the pool, Petrificado included ---------------------------------------


def test_petrificados_twenty_blindaje_is_armour_blows_use_up_before_the_sheets():
    """ "obtiene +20 a Blindaje": twenty more points of the same Blindaje the sheet gives, a
    pool that blows use up; the stone takes them first."""
    log = [entry("status_on", 0, key="petrificado"), entry("hit", 1, damage=5)]
    s = state(PETRIFIABLE, APP, log, 2)
    assert (s.state.hp, s.state.ap, s.extra["extra_blindaje"]) == (20, 2, 15)
    worn = state(PETRIFIABLE, APP, [log[0], entry("hit", 1, damage=5, blows=5)], 2)
    assert (worn.state.hp, worn.state.ap, worn.extra["extra_blindaje"]) == (17, 0, 0)


def test_what_is_left_of_petrificados_blindaje_goes_when_it_ends():
    """ "cualquier Condición nociva se mantiene en suspensión hasta que se libre de la
    Petrificación": what the stone gave lasts while it does, and no longer."""
    log = [
        entry("status_on", 0, key="petrificado"),
        entry("hit", 1, damage=5),
        entry("status_off", 2, key="petrificado"),
        entry("hit", 3, damage=5),
    ]
    s = state(PETRIFIABLE, APP, log, 4)
    assert (s.state.hp, s.state.ap, s.extra["extra_blindaje"]) == (17, 0, 0)
    timed = [entry("status_on", 0, key="petrificado", seconds=2), entry("hit", 3, damage=5)]
    assert state(PETRIFIABLE, APP, timed, 4).state.hp == 17


def test_petrified_again_the_character_has_a_fresh_twenty():
    log = [
        entry("status_on", 0, key="petrificado"),
        entry("hit", 1, damage=19),
        entry("status_on", 2, key="petrificado"),
        entry("hit", 3, damage=5),
    ]
    s = state(PETRIFIABLE, APP, log, 4)
    assert (s.state.hp, s.state.ap, s.extra["extra_blindaje"]) == (20, 2, 15)


def test_a_piercing_blow_ignores_petrificados_blindaje_as_it_ignores_the_sheets():
    """The house's "pierce" ignores armour; the stone's Blindaje is armour like the sheet's."""
    log = [entry("status_on", 0, key="petrificado"), entry("hit", 1, damage=5, pierce=True)]
    s = state(PETRIFIABLE, APP, log, 2)
    assert (s.state.hp, s.state.ap, s.extra["extra_blindaje"]) == (15, 2, 20)
