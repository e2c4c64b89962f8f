"""Badge print runs: which badges, their faces, the PDF, and runs in the background."""

from __future__ import annotations

import hashlib
import io
import json
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, BinaryIO

from flask import Flask, current_app
from sqlalchemy import func, select, update

from .. import badges as badge_art
from ..badges import LAYOUTS, PAPERS, BadgeFace
from ..extensions import db
from ..models import Character, Event, PrintJob
from ..private_files import open_private, private_folder
from ..reads.words import tracks
from .badges import active_badge, ensure_badges, issued_elsewhere, scan_url, status_url
from .characters import find_characters
from .clock import now_utc

# Distinct in hue and in lightness, so a grey photocopy still tells most apart.
PALETTE = ("#1f4e9c", "#b3261e", "#2e7d32", "#f2a900", "#6a1b9a", "#00838f", "#5d4037", "#c2185b")
NO_FACTION = "#555555"
PROGRESS_EVERY = 25  # badges between two progress updates of a background print
# A background print touches its heartbeat this often; one silent for PRINT_STALE_SECONDS
# (config) lost its worker (killed, restarted) and is seen as failed.
HEARTBEAT_SECONDS = 5
STALE_SECONDS = 30
WORKER_STOPPED = "worker_stopped"  # the error of such a print; pages say it in words
ACTIVE = ("queued", "running")
ISSUED_ELSEWHERE = (
    "this badge came from another database: reissue it to print, or print it where it was issued"
)


@dataclass(frozen=True)
class Printed:
    count: int  # badges in the PDF
    left_out: list[Character]  # their badges came from another database: no secret here


def faction_colours(event: Event) -> dict[str, str]:
    """Each faction's band colour: the one the organiser chose, else a palette colour no
    other faction of the event has while one is free. Factions are dealt colours in the
    order they first appeared, so a faction imported later never changes the colour of
    badges printed before it."""
    firsts = (
        select(Character.faction)
        .where(Character.event_id == event.id, Character.faction.is_not(None))
        .group_by(Character.faction)
        .order_by(func.min(Character.id))
    )
    factions = [f for f in db.session.scalars(firsts) if f]
    chosen = event.faction_colours or {}
    colours = {f: chosen[f] for f in factions if chosen.get(f)}
    for faction in factions:
        if faction not in colours:
            colours[faction] = _free_colour(faction, set(colours.values()))
    return colours


def _free_colour(faction: str, taken: set[str]) -> str:
    """The palette colour the faction's name points at, or the next one not taken."""
    start = hashlib.sha256(faction.encode()).digest()[0] % len(PALETTE)
    turn = PALETTE[start:] + PALETTE[:start]
    return next((c for c in turn if c not in taken), turn[0])


def faction_colour(
    event: Event, faction: str | None, colours: Mapping[str, str] | None = None
) -> str:
    """The faction's band colour (``colours``: the event's, when already worked out)."""
    if not faction:
        return NO_FACTION
    colours = faction_colours(event) if colours is None else colours
    return colours.get(faction) or _free_colour(faction, set())


def shared_colours(colours: Mapping[str, str]) -> list[list[str]]:
    """The factions whose bands look the same, each group in name order."""
    by_colour: dict[str, list[str]] = {}
    for faction, colour in colours.items():
        by_colour.setdefault(colour.lower(), []).append(faction)
    return sorted(sorted(group) for group in by_colour.values() if len(group) > 1)


def badge_face(
    character: Character,
    base: str,
    labels: Mapping[str, str],
    colours: Mapping[str, str] | None = None,
) -> BadgeFace:
    """What the character's card shows; ValueError for a badge issued elsewhere (no secret).
    ``colours``: the event's faction colours, when a print has worked them out once."""
    if issued_elsewhere(character):
        raise ValueError(f"{character.name}: {ISSUED_ELSEWHERE}")
    badge = active_badge(character)
    larp = character.larp
    return BadgeFace(
        character=character.name,
        player=character.player,
        faction=character.faction,
        faction_colour=faction_colour(character.event, character.faction, colours),
        event=character.event.name,
        scan_url=scan_url(base, badge),
        short_code=badge.short_code,
        status_url=status_url(base, character),
        hp=larp["hp_max"],
        ap=larp["ap_max"],
        energy=larp["energy_max"],
        energy_recovery_minutes=larp.get("energy_recovery_minutes"),
        labels=dict(labels),
        shown=tuple(q for q in ("hp", "ap", "energy") if tracks(character.event.ruleset, q)),
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
) -> Printed:
    """Write the badges' print PDF; mark them printed; say how many badges it holds.

    Badges imported from another database (their secrets stayed there) are left out, and
    listed. With no badge to print (say, nothing new), nothing is written.
    """
    check_options({"layout": layout, "paper": paper})
    chosen = characters_to_print(event, faction, only_new)
    left_out = [c for c in chosen if issued_elsewhere(c)]
    characters = [c for c in chosen if not issued_elsewhere(c)]
    total = len(characters)
    if total == 0:
        return Printed(0, left_out)
    if progress:
        progress(0, total)  # the total is known before the first badge is drawn

    colours = faction_colours(event)

    def faces() -> Iterator[BadgeFace]:
        for character in characters:
            yield badge_face(character, base, labels, colours)

    # A file named is written once the PDF is whole, readable by the app's account only.
    pdf = out if hasattr(out, "write") else io.BytesIO()
    badge_art.write_sheets(
        faces(),
        pdf,
        layout=layout,
        paper=paper,
        progress=(lambda done: progress(done, total)) if progress else None,
    )
    if pdf is not out:
        with open_private(Path(out)) as file:
            file.write(pdf.getvalue())
    printed_at = now_utc()
    for character in characters:
        active_badge(character).printed_at = printed_at
    db.session.flush()
    return Printed(total, left_out)


def selection_key(event: Event, options: Mapping[str, Any]) -> str:
    """The digest naming which badges a print covers: the same one twice may not run at once."""
    chosen = {
        "event": event.id,
        "faction": options.get("faction", ""),
        "only_new": bool(options.get("only_new")),
    }
    return hashlib.sha256(json.dumps(chosen, sort_keys=True).encode()).hexdigest()


def expire_stale_jobs() -> int:
    """Mark failed every queued or running print whose heartbeat stopped (flushed); return
    how many."""
    stale = timedelta(seconds=current_app.config.get("PRINT_STALE_SECONDS", STALE_SECONDS))
    now = now_utc()
    jobs = db.session.scalars(select(PrintJob).where(PrintJob.status.in_(ACTIVE))).all()
    dead = [j for j in jobs if (j.heartbeat_at or j.created_at) < now - stale]
    for job in dead:
        job.status, job.error, job.finished_at = "failed", WORKER_STOPPED, now
        job.running_key = None
    if dead:
        db.session.flush()
    return len(dead)


def queue_print_job(event: Event, options: dict[str, Any]) -> tuple[PrintJob, bool]:
    """Queue a print (flushed), so that no web worker waits for thousands of badges: the
    job and True. When the same selection is already being printed: that print and False.

    The database's unique running key decides, whichever worker asks: a print of the same
    selection queued meanwhile by another makes the flush fail (IntegrityError), and its
    caller commits with ``web/commits.commit_retrying``, which finds that print. Once
    committed, ``start_print_job`` runs it.
    """
    check_options(options)
    expire_stale_jobs()
    key = selection_key(event, options)
    running = db.session.scalar(select(PrintJob).where(PrintJob.running_key == key))
    if running is not None:
        return running, False
    now = now_utc()
    job = PrintJob(
        event_id=event.id,
        options=options,
        status="queued",
        created_at=now,
        heartbeat_at=now,
        running_key=key,
    )
    db.session.add(job)
    db.session.flush()
    return job, True


def start_print_job(app: Flask, job: PrintJob) -> None:
    """Run a committed print in a thread of its own. The thread is its own unit of work: it
    commits the print's progress and end itself (no request waits for it)."""
    threading.Thread(
        target=_run, args=(app, job.id), daemon=True, name=f"badge-print-{job.id}"
    ).start()


def job_file(app: Flask, job_id: int) -> Path:
    folder = Path(app.config.get("PRINT_FOLDER") or Path(app.instance_path) / "prints")
    return private_folder(folder) / f"badges-{job_id}.pdf"


def _beat(app: Flask, job_id: int, stop: threading.Event) -> None:
    """Touch the print's heartbeat until it ends; its own connection, never the print's."""
    interval = app.config.get("PRINT_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)
    with app.app_context():
        while not stop.wait(interval):
            try:
                with db.engine.begin() as conn:
                    conn.execute(
                        update(PrintJob)
                        .where(PrintJob.id == job_id, PrintJob.status.in_(ACTIVE))
                        .values(heartbeat_at=now_utc())
                    )
            except Exception:  # a busy database: the next beat tries again
                app.logger.warning("badge print %s: heartbeat missed", job_id, exc_info=True)


def _run(app: Flask, job_id: int) -> None:
    stop = threading.Event()
    threading.Thread(
        target=_beat, args=(app, job_id, stop), daemon=True, name=f"badge-print-{job_id}-beat"
    ).start()
    try:
        _print_job(app, job_id)
    finally:
        stop.set()


def _print_job(app: Flask, job_id: int) -> None:
    with app.app_context():
        job = db.session.get(PrintJob, job_id)
        job.status, job.heartbeat_at = "running", now_utc()
        db.session.commit()
        options = dict(job.options)
        path = job_file(app, job_id)

        def progress(done: int, total: int) -> None:
            if done % PROGRESS_EVERY == 0 or done == total:
                job.done, job.total = done, total
                db.session.commit()

        try:
            event = db.session.get(Event, job.event_id)
            with open_private(path) as out:
                printed = print_badges(event, out, progress=progress, **options)
            count = printed.count
            job.status, job.done, job.total = "done", count, count
            job.skipped = len(printed.left_out)
            job.path = str(path) if count else None
        except Exception as exc:  # the organiser sees that it failed and why
            db.session.rollback()
            job = db.session.get(PrintJob, job_id)
            job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"[:255]
            app.logger.error("badge print %s failed:\n%s", job_id, traceback.format_exc())
        job.finished_at, job.running_key = now_utc(), None
        db.session.commit()
