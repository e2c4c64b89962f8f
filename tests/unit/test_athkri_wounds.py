"""Sistema Athkri's wound track as its seed says: each test quotes the seed.

The seed is the conditions chapter of Sistema Athkri; larp_app/rulesets/athkri/README.md
states the rules as the engine applies them, and where it says less, the seed wins.
"""

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from larp_app.rules import convert_sheet, read_entry, read_settings, state_at

DATA = Path(__file__).resolve().parents[1] / "data"
T0 = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)
RAW = json.loads((DATA / "athkri-sheet.json").read_text(encoding="utf-8"))
SHEET = convert_sheet(RAW)  # Físico 4, PS 20, Blindaje 2: dead at 24 damage, Indefenso blow 8
FRAIL = convert_sheet({**RAW, "ps_max": 10})  # unconscious at 10 damage: room for a blow of 8
# With this seed, the knock-out below (id 7) stabilises at its first save, awake 3 min later.
STABILISES = read_settings({"seed": "1"}, "athkri")
REFEREE = read_settings({"seed": "1", "saves": "referee"}, "athkri")


def entry(kind, t=0, number=None, **fields):
    at = T0 + timedelta(seconds=t)
    entry_id = str(uuid.uuid4() if number is None else uuid.UUID(int=number))
    return read_entry({"id": entry_id, "kind": kind, "at": at.isoformat(), **fields})


def state(entries, t, settings=STABILISES, sheet=SHEET):
    return state_at(sheet, settings, entries, T0 + timedelta(seconds=t))


def knocked_out(t=0, damage=20):
    """A piercing blow that takes PS from 20 to 0: unconscious."""
    return entry("hit", t, number=7, damage=damage, pierce=True)


def comparable(snapshot):
    data = snapshot.to_dict()
    del data["log_position"]
    return data


# 1. Waking after stabilising alone ---------------------------------------------------------


def test_a_character_who_stabilised_alone_wakes_with_no_other_entry():
    """ "Un personaje que se estabilice por sí mismo recobrará el conocimiento en 1d6
    minutos"."""
    asleep = state([knocked_out()], 60)
    assert (asleep.state.hp, asleep.extra["level"]) == (1, "inconsciente")
    woken = state([knocked_out()], 10 * 60)
    assert (woken.extra["level"], woken.extra["awake_at"]) == ("malherido", None)


def test_a_blow_after_waking_is_no_blow_on_a_helpless_character_note_or_no_note():
    """ "Si un personaje sufre daño estando Indefenso [...] Tirada de salvación de Físico a
    Dificultad 13": once awake the character is no longer Indefenso, with or without a note."""
    blow = entry("hit", 10 * 60, number=8, damage=8, pierce=True)
    note = entry("note", 8 * 60, number=9, text="scene 3")
    without = state([knocked_out(), blow], 10 * 60 + 30)
    with_note = state([knocked_out(), note, blow], 10 * 60 + 30)
    assert comparable(without) == comparable(with_note)
    assert not [r for r in without.extra["rolls"] if r["what"] == "indefenso"]


# 2. Revive ---------------------------------------------------------------------------------


def test_a_revived_character_is_alive_awake_with_no_save_due():
    """ "El individuo que acumula tantos puntos de daño -o más- como su valor en Físico x6
    muere definitivamente": a revive (a referee's ruling beyond the seed) starts over."""
    for settings in (STABILISES, REFEREE):
        log = [knocked_out(), entry("kill", 0.5), entry("revive", 600)]
        s = state(log, 600, settings)
        assert (s.state.hp, s.extra["level"], s.wound) == (20, "estable", "ok")
        assert s.extra["next_save_at"] is None and s.extra["awake_at"] is None


def test_no_save_is_rolled_for_the_time_a_character_was_dead():
    """ "Al comienzo de cada Turno, ha de realizar una Tirada de salvación de Físico": only
    while alive and unconscious, never for the turns it lay dead."""
    settings = read_settings({"seed": "0"}, "athkri")  # the first save fails: still dying
    log = [knocked_out(), entry("kill", 1.5), entry("revive", 600)]
    s = state(log, 700, settings)
    died, revived = T0 + timedelta(seconds=1.5), T0 + timedelta(seconds=600)
    dates = [datetime.fromisoformat(r["at"]) for r in s.extra["rolls"]]
    assert dates and not [d for d in dates if died < d <= revived]
    assert s.extra["level"] == "estable"


def test_revived_with_no_points_the_character_is_still_awake():
    """Revive means alive and awake: "pierde el conocimiento si sus Puntos de Salud equivalen
    a 0" would put them straight back to dying, so a revive gives at least 1 PS."""
    s = state([entry("kill", 0), entry("revive", 60, hp=0)], 61)
    assert (s.state.hp, s.extra["level"], s.extra["next_save_at"]) == (1, "malherido", None)


# 3. Indefenso as a condition ---------------------------------------------------------------


def test_a_big_blow_on_a_character_with_the_indefenso_condition_calls_the_save():
    """ "Si un personaje sufre daño estando Indefenso, y el resultado es igual o más que su
    valor de Físico x2, ha de superar una Tirada de salvación de Físico a Dificultad 13"."""
    log = [entry("status_on", 0, key="indefenso"), entry("hit", 1, damage=8, pierce=True)]
    [roll] = [r for r in state(log, 1).extra["rolls"] if r["what"] == "indefenso"]
    assert roll["target"] == 13 and roll["bonus"] == 4


def test_with_referee_saves_the_indefenso_save_is_asked_for():
    """ "ha de superar una Tirada de salvación de Físico a Dificultad 13; si falla, muere sin
    remedio": where referees roll, the state asks them for it."""
    log = [entry("status_on", 0, key="indefenso"), entry("hit", 1, damage=8, pierce=True)]
    s = state(log, 1, REFEREE)
    assert s.extra["indefenso_save_due"] == 1
    assert (s.wound, s.state.hp) == ("ok", 12)


def test_a_failed_referee_indefenso_save_kills():
    """ "si falla, muere sin remedio"."""
    log = [
        entry("status_on", 0, key="indefenso"),
        entry("hit", 1, damage=8, pierce=True),
        entry("save", 2, success=False),
    ]
    s = state(log, 3, REFEREE)
    assert (s.wound, s.state.died_at, s.conflicts) == ("dead", T0 + timedelta(seconds=2), ())


def test_a_save_right_after_a_big_blow_on_the_unconscious_is_the_indefenso_save():
    """ "Un personaje Inconsciente también está Indefenso": after such a blow, the save the
    referee enters is the one at 13 that kills, not the turn's."""
    log = [
        knocked_out(damage=10),
        entry("hit", 0.5, damage=8, pierce=True),
        entry("save", 0.6, success=False),
    ]
    s = state(log, 0.7, REFEREE, FRAIL)
    assert s.wound == "dead"
    passed = state([*log[:2], entry("save", 0.6, success=True)], 0.7, REFEREE, FRAIL)
    assert (passed.state.hp, passed.extra["indefenso_save_due"]) == (-8, 0)
    assert passed.extra["next_save_at"] == "2027-03-06T15:00:01Z"  # the turn's save still due


# 6. Healing an unconscious character -------------------------------------------------------


def test_healing_a_character_asleep_after_stabilising_alone_starts_from_zero():
    """ "Si un personaje recibe cualquier tipo de curación mientras está Inconsciente, sus
    Puntos de Salud se ajustan a 0 y después recibe el valor de curación obtenido"."""
    s = state([knocked_out(), entry("heal", 60, amount=2)], 61)
    assert s.state.hp == 2
    awake = state([knocked_out(), entry("heal", 10 * 60, amount=2)], 10 * 60)
    assert awake.state.hp == 3  # awake again: the heal adds to the 1 PS


# 7. Finishing the helpless ----------------------------------------------------------------


def test_a_big_blow_on_a_character_asleep_after_stabilising_calls_the_save_at_13():
    """ "Un personaje Inconsciente también está Indefenso": asleep, it cannot defend itself,
    and a blow of Físico × 2 calls "una Tirada de salvación de Físico a Dificultad 13"; the
    seed knows no coup de grâce (larp_app/rulesets/athkri/README.md)."""
    s = state([knocked_out(), entry("hit", 60, number=8, damage=8, pierce=True)], 61)
    assert [r["target"] for r in s.extra["rolls"] if r["what"] == "indefenso"] == [13]
    coup = entry("coup_de_grace", 60, number=9)
    refused = state([knocked_out(), coup], 61)
    assert (refused.wound, [c.code for c in refused.conflicts]) == ("grievous", ["not_in_ruleset"])


# 4. Penalties to all rolls -----------------------------------------------------------------


def test_enfermo_lowers_a_1o3d10_by_two_and_the_roll_says_so():
    """ "Cuando un personaje se encuentra Enfermo, sufre una penalización -2 a todas sus
    Tiradas"."""
    log = [entry("status_on", 0, key="enfermo"), entry("dice", 1, bonus=4, difficulty=12)]
    [roll] = state(log, 1).extra["rolls"]
    assert roll["modifiers"] == [{"key": "enfermo", "value": -2}]
    assert roll["total"] == roll["kept"] + 4 - 2


def test_asustado_and_dominado_lower_the_apps_own_saves():
    """ "cualquier criatura que esté Asustada sufre una penalización -2 a todas sus Tiradas";
    "el afectado sufre una penalización -2 a todas sus Tiradas" (Dominado)."""
    log = [
        entry("status_on", 0, key="asustado"),
        entry("status_on", 0, key="dominado"),
        knocked_out(0.5),
    ]
    roll = state(log, 2).extra["rolls"][0]
    assert roll["what"] == "save"
    assert roll["modifiers"] == [{"key": "asustado", "value": -2}, {"key": "dominado", "value": -2}]
    assert roll["total"] == roll["kept"] + 4 - 4
    assert roll["success"] == (roll["total"] >= 12)


def test_petrificado_holds_the_penalties_of_harmful_conditions_in_suspension():
    """ "cualquier Condición nociva se mantiene en suspensión hasta que se libre de la
    Petrificación"."""
    log = [
        entry("status_on", 0, key="enfermo"),
        entry("status_on", 0, key="petrificado"),
        entry("dice", 1),
    ]
    assert state(log, 1).extra["rolls"][0]["modifiers"] == []


# 5. Daño continuo, Agarrado, Petrificado ---------------------------------------------------


def ongoing(t=0, damage=2, difficulty=15):
    return entry("status_on", t, key="dano_continuo", damage=damage, difficulty=difficulty)


def test_dano_continuo_deals_its_damage_at_the_start_of_each_turn():
    """ "provocando pérdidas de Puntos de Salud al comienzo de su Turno. Cuando un personaje se
    ve afligido por Daño continuo, sufre una cantidad de Daño determinada por la naturaleza del
    peligro"."""
    assert state([ongoing()], 0.5).state.hp == 20
    assert state([ongoing()], 1).state.hp == 18
    assert state([ongoing()], 3.5).state.hp == 14
    stopped = [ongoing(), entry("status_off", 2.5, key="dano_continuo")]
    assert state(stopped, 10).state.hp == 16


def test_dano_continuo_ends_when_its_fisico_save_succeeds():
    """ "Para librarse de un Daño continuo, el personaje ha de superar una Tirada de Salvación
    de Físico establecida por la potencia del efecto"."""
    outcomes = set()
    for n in range(30):
        log = [ongoing(difficulty=13), entry("roll", 1.5, number=100 + n, key="dano_continuo")]
        s = state(log, 5)
        [roll] = [r for r in s.extra["rolls"] if r["what"] == "dano_continuo"]
        assert (roll["bonus"], roll["target"], len(roll["dice"])) == (4, 13, 3)
        expected = 18 if roll["success"] else 10  # one turn's damage, or five
        assert s.state.hp == expected
        outcomes.add(roll["success"])
    assert outcomes == {True, False}


def test_agarrado_rolls_fisico_plus_aguante_against_the_difficulty_and_frees_on_success():
    """ "cada Turno ha de realizar una Tirada enfrentada de Físico + Aguante contra el Ataque
    cuerpo a cuerpo (u otra Dificultad asignada por el Director de juego)"."""
    aguante = dict((s["key"], s["grade"]) for s in SHEET.details["skills"]).get("aguante", 0)
    log = [entry("status_on", 0, key="agarrado"), entry("roll", 1, key="agarrado", difficulty=16)]
    s = state(log, 1)
    [roll] = s.extra["rolls"]
    assert (roll["bonus"], roll["target"]) == (4 + aguante, 16)
    assert ("agarrado" in [x.key for x in s.state.statuses]) == (not roll["success"])


def test_healing_does_not_end_dano_continuo():
    """ "Para librarse de un Daño continuo, el personaje ha de superar una Tirada de Salvación
    de Físico": a heal restores points, the damage keeps coming."""
    log = [ongoing(), entry("heal", 2.5, amount=3)]
    assert state(log, 2.5).state.hp == 19  # 20 − 2 − 2, healed by 3
    assert state(log, 3).state.hp == 17


def test_petrificado_adds_twenty_blindaje_and_suspends_ongoing_damage():
    """ "obtiene +20 a Blindaje [...] y cualquier Condición nociva se mantiene en suspensión
    hasta que se libre de la Petrificación"."""
    stone = entry("status_on", 0, key="petrificado")
    assert state([stone, entry("hit", 1, damage=22)], 1).state.hp == 20  # 20 + the sheet's 2
    assert state([stone, ongoing()], 5).state.hp == 20


# 11. Dice no client can steer --------------------------------------------------------------


def test_the_same_seed_and_entry_ids_roll_other_dice_under_another_secret():
    """An event's secret, never sent to a phone, fixes the dice with the
    entry id; the same id and seed under two secrets roll differently (and each the same on
    every replay)."""
    log = [knocked_out()]
    one = read_settings({"seed": "1", "secret": "one"}, "athkri")
    two = read_settings({"seed": "1", "secret": "two"}, "athkri")
    dice_one = [r["dice"] for r in state(log, 60, one).extra["rolls"]]
    dice_two = [r["dice"] for r in state(log, 60, two).extra["rolls"]]
    assert dice_one != dice_two
    assert dice_one == [r["dice"] for r in state(list(log), 60, one).extra["rolls"]]


# 8. Sheets whose points and Físico disagree ------------------------------------------------


def test_a_sheet_that_would_die_while_estable_warns_on_its_points():
    """ "El individuo que acumula tantos puntos de daño -o más- como su valor en Físico x6
    muere definitivamente": with PS ≥ Físico × 6 that comes while still "Estable"."""
    from larp_app.rules import check_sheet

    sheet, checker = check_sheet({**RAW, "ps_max": 24})
    assert sheet is not None and not checker.errors
    assert [(w.path, w.code, w.params) for w in checker.warnings] == [
        ("ps_max", "dies_before_zero", {"got": 24, "dead_at": 24})
    ]


def test_a_sheet_with_points_at_or_below_fisico_warns_it_starts_malherido():
    """ "Un individuo queda Malherido cuando sus Puntos de Salud son igual o menos que su valor
    en Físico"."""
    from larp_app.rules import check_sheet

    _, checker = check_sheet({**RAW, "ps_max": 4})
    assert [(w.path, w.code) for w in checker.warnings] == [("ps_max", "starts_badly_wounded")]
    _, fine = check_sheet(RAW)
    assert fine.warnings == []
