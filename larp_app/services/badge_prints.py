"""Badge print runs: which badges, their faces, the PDF, and runs in the background."""

from __future__ import annotations

import hashlib
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from flask import Flask

from ..badges import LAYOUTS, PAPERS, BadgeFace, write_sheets
from ..extensions import db
from ..models import Character, Event, PrintJob
from .badges import active_badge, ensure_badges, scan_url, status_url
from .characters import find_characters
from .clock import now_utc

# Distinct in hue and in lightness, so a grey photocopy still tells most apart.
PALETTE = ("#1f4e9c", "#b3261e", "#2e7d32", "#f2a900", "#6a1b9a", "#00838f", "#5d4037", "#c2185b")
NO_FACTION = "#555555"
PROGRESS_EVERY = 25  # badges between two progress updates of a background print


def faction_colour(event: Event, faction: str | None) -> str:
    if not faction:
        return NO_FACTION
    chosen = (event.faction_colours or {}).get(faction)
    if chosen:
        return chosen
    digest = hashlib.sha256(faction.encode()).digest()
    return PALETTE[digest[0] % len(PALETTE)]


def badge_face(character: Character, base: str, labels: Mapping[str, str]) -> BadgeFace:
    badge = active_badge(character)
    larp = character.larp
    return BadgeFace(
        character=character.name,
        player=character.player,
        faction=character.faction,
        faction_colour=faction_colour(character.event, character.faction),
        event=character.event.name,
        scan_url=scan_url(base, badge),
        short_code=badge.short_code,
        status_url=status_url(base, character),
        hp=larp["hp_max"],
        ap=larp["ap_max"],
        energy=larp["energy_max"],
        energy_recovery_minutes=larp.get("energy_recovery_minutes"),
        labels=dict(labels),
    )


def characters_to_print(event: Event, faction: str = "", only_new: bool = False) -> list[Character]:
    """The characters whose badges a print covers; every one gets a badge if it has none."""
    characters = find_characters(event, faction=faction)
    ensure_badges(characters)
    if only_new:  # never printed: new characters, and reissued badges
        characters = [c for c in characters if active_badge(c).printed_at is None]
    return characters


def check_options(options: Mapping[str, Any]) -> None:
    if options.get("layout", "cr80-10up") not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}")
    if options.get("paper", "a4") not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}")


def print_badges(
    event: Event,
    out: BinaryIO | str | Path,
    *,
    base: str,
    labels: Mapping[str, str],
    layout: str = "cr80-10up",
    paper: str = "a4",
    faction: str = "",
    only_new: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the badges' print PDF; mark them printed; return how many badges it holds.

    With no badge to print (say, nothing new), nothing is written and 0 comes back.
    """
    check_options({"layout": layout, "paper": paper})
    characters = characters_to_print(event, faction, only_new)
    total = len(characters)
    if total == 0:
        return 0
    if progress:
        progress(0, total)  # the total is known before the first badge is drawn

    def faces() -> Iterator[BadgeFace]:
        for character in characters:
            yield badge_face(character, base, labels)

    write_sheets(
        faces(),
        out,
        layout=layout,
        paper=paper,
        progress=(lambda done: progress(done, total)) if progress else None,
    )
    printed_at = now_utc()
    for character in characters:
        active_badge(character).printed_at = printed_at
    db.session.flush()
    return total


def start_print_job(app: Flask, event: Event, options: dict[str, Any]) -> PrintJob:
    """Queue a print and run it in a thread, so no web worker waits for thousands of badges."""
    check_options(options)
    job = PrintJob(event_id=event.id, options=options, status="queued", created_at=now_utc())
    db.session.add(job)
    db.session.commit()
    threading.Thread(
        target=_run, args=(app, job.id), daemon=True, name=f"badge-print-{job.id}"
    ).start()
    return job


def job_file(app: Flask, job_id: int) -> Path:
    folder = Path(app.config.get("PRINT_FOLDER") or Path(app.instance_path) / "prints")
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"badges-{job_id}.pdf"


def _run(app: Flask, job_id: int) -> None:
    with app.app_context():
        job = db.session.get(PrintJob, job_id)
        job.status = "running"
        db.session.commit()
        options = dict(job.options)
        path = job_file(app, job_id)

        def progress(done: int, total: int) -> None:
            if done % PROGRESS_EVERY == 0 or done == total:
                job.done, job.total = done, total
                db.session.commit()

        try:
            event = db.session.get(Event, job.event_id)
            with path.open("wb") as out:
                count = print_badges(event, out, progress=progress, **options)
            job.status, job.done, job.total = "done", count, count
            job.path = str(path) if count else None
        except Exception as exc:  # the organiser sees that it failed and why
            db.session.rollback()
            job = db.session.get(PrintJob, job_id)
            job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"[:255]
            app.logger.error("badge print %s failed:\n%s", job_id, traceback.format_exc())
        job.finished_at = now_utc()
        db.session.commit()
