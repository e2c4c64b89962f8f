"""Sentences for the engine's problem and refusal codes (the engine itself speaks in codes)."""

from __future__ import annotations

from typing import Any

from .rules import Problem

PROBLEMS = {
    "required": "is required",
    "not_text": "must be text",
    "not_int": "must be a whole number, got {got}",
    "not_number": "must be a number, got {got}",
    "not_bool": "must be true or false, got {got}",
    "not_object": "must be an object",
    "not_list": "must be a list",
    "not_uuid": "must be a UUID, got {got}",
    "not_instant": "must be an ISO-8601 date and time, got {got}",
    "not_json": "is not valid JSON: {detail}",
    "too_long": "must be at most {max} characters, got {got}",
    "not_allowed": "must be one of {allowed}, got {got}",
    "ignored_field": "is not a known field (ignored)",
    "unknown_field": "is not a known field (known: {allowed})",
    "unknown_skill": "is not a skill of this ruleset (known: {allowed})",
    "unknown_ruleset": "unknown ruleset {got} (known: {allowed})",
    "unknown_table": "is not a table of this ruleset (known: {allowed})",
    "ruleset_mismatch": "must be {expected}, got {got}",
    "duplicate": "appears twice: {got}",
    "not_found": "{got} does not exist",
    "taken": "{got} is already taken",
    "too_short": "must be at least {min} characters",
    "in_future": "is in the future: {got}",
    "too_old": "is more than 24 hours ago: {got}",
    "must_cover_once": "rows must cover every value {min}–{max} exactly once",
    "too_many_skills": "{has} skills for {slots} Mente skill slots",
    "above_equipment_class": "needs {needs} equipment, the character has {has}",
}

REFUSALS = {
    "dead": "the character is dead",
    "not_dying": "only a dying character can be given the coup de grâce",
    "not_dead": "only a dead character can be revived",
    "not_enough_energy": "needs {needs} energy, has {has}",
    "no_energy": "the character has no energy",
    "no_armour": "the character has no armour",
    "armour_destroyed": "the armour is destroyed: only a full repair (replacement) restores it",
    "unknown_status": "{key} is not in the status catalogue",
    "status_not_active": "{key} is not active",
    "unknown_advancement": "{advancement} is not one of the character's advancements",
    "unknown_target": "there is no earlier entry {target} to undo",
    "cannot_undo_undo": "an undo cannot be undone",
    "already_undone": "entry {target} is already undone",
}


def _render(template: str, params: dict[str, Any]) -> str:
    shown = {
        k: ", ".join(map(str, v)) if isinstance(v, list | tuple) else v for k, v in params.items()
    }
    if "min" in template or "max" in template:
        shown.setdefault("min", "")
        shown.setdefault("max", "")
    return template.format(**shown)


def _range(params: dict[str, Any]) -> str:
    lo, hi, got = params.get("min"), params.get("max"), params.get("got")
    if lo is not None and hi is not None:
        return f"must be {lo}–{hi}, got {got}"
    if lo is not None:
        return f"must be ≥ {lo}, got {got}"
    return f"must be ≤ {hi}, got {got}"


def problem_message(problem: Problem) -> str:
    """``attributes.corpo: must be 8–22, got 25``."""
    if problem.code == "out_of_range":
        text = _range(problem.params)
    else:
        text = _render(PROBLEMS.get(problem.code, problem.code), problem.params)
    return f"{problem.path}: {text}"


def refusal_message(code: str, params: dict[str, Any]) -> str:
    """``needs 2 energy, has 1``."""
    return _render(REFUSALS.get(code, code), params)
