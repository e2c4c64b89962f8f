"""The organiser prints badges in the background, previews a card, reissues a lost one."""

import re
import shutil
import subprocess
import time

import pytest

from larp_app.extensions import db
from larp_app.models import Badge, Character, PrintJob
from larp_app.services.demo import load_demo

from .helpers import log_in, make_user, post_form

zxingcpp = pytest.importorskip("zxingcpp")


@pytest.fixture
def organiser(app, client):
    with app.app_context():
        load_demo()
        db.session.commit()
    log_in(client, "organiser", "organiser-demo")
    return client


def wait_for(app, job_id, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with app.app_context():
            job = db.session.get(PrintJob, job_id)
            if job.status in ("done", "failed"):
                return job.status, job.total, job.error
        time.sleep(0.2)
    raise AssertionError("the print did not finish in time")


def active_secrets(app, faction=None):
    with app.app_context():
        query = (
            db.select(Character.name, Badge.secret).join(Badge).where(Badge.revoked_at.is_(None))
        )
        if faction:
            query = query.where(Character.faction == faction)
        return dict(db.session.execute(query).all())


def decode_pdf(pdf: bytes, tmp_path) -> list[str]:
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm (Debian poppler-utils) is not installed")
    from PIL import Image

    (tmp_path / "badges.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "150", "-png", str(tmp_path / "badges.pdf"), str(tmp_path / "page")],
        check=True,
    )
    texts = []
    for page in sorted(tmp_path.glob("page*.png")):
        texts += [r.text for r in zxingcpp.read_barcodes(Image.open(page))]
    return texts


def test_a_faction_print_runs_in_the_background_and_every_front_scans_to_its_badge(
    app, organiser, tmp_path
):
    answer = post_form(
        organiser,
        "/events/1/badges/print",
        {"layout": "cr80-10up", "paper": "a4", "faction": "Esploratori"},
        page="/events/1/badges",
    )
    assert answer.status_code == 302
    job_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert "progress" in organiser.get(answer.headers["Location"]).get_data(as_text=True)
    status, total, error = wait_for(app, job_id)
    assert (status, error) == ("done", None)
    secrets = active_secrets(app, "Esploratori")
    assert total == len(secrets) == 6
    state = organiser.get(f"/events/1/badges/jobs/{job_id}.json").json
    assert (state["status"], state["done"]) == ("done", 6)
    download = organiser.get(state["download"])
    pdf = download.data
    download.close()
    texts = decode_pdf(pdf, tmp_path)
    scanned = sorted(t.split("/b/")[1].split("?")[0] for t in texts if "/b/" in t)
    assert scanned == sorted(secrets.values())
    assert sum("/p/" in t for t in texts) == 6  # every back: the player's own link


def test_only_new_prints_only_badges_never_printed(app, organiser):
    first = post_form(
        organiser, "/events/1/badges/print", {"layout": "a6-4up"}, page="/events/1/badges"
    )
    wait_for(app, int(first.headers["Location"].rsplit("/", 1)[1]))
    post_form(organiser, "/characters/3/badge", {}, page="/characters/3")  # a lost badge
    again = post_form(
        organiser,
        "/events/1/badges/print",
        {"layout": "a6-4up", "only_new": "on"},
        page="/events/1/badges",
    )
    status, total, _error = wait_for(app, int(again.headers["Location"].rsplit("/", 1)[1]))
    assert (status, total) == ("done", 1)


def test_the_character_page_previews_both_sides_of_the_badge(organiser):
    page = organiser.get("/characters/1").get_data(as_text=True)
    assert "badge-front.png" in page and "badge-back.png" in page
    for side in ("front", "back"):
        image = organiser.get(f"/characters/1/badge-{side}.png")
        assert image.mimetype == "image/png" and image.data[:4] == b"\x89PNG"


def test_reissuing_from_the_character_page_revokes_the_old_badge(app, organiser):
    old = active_secrets(app)
    post_form(organiser, "/characters/1/badge", {}, page="/characters/1")
    new = active_secrets(app)
    changed = [name for name in old if old[name] != new[name]]
    assert len(changed) == 1


def test_faction_colours_are_saved_and_bad_ones_ignored(app, organiser):
    post_form(
        organiser,
        "/events/1/badges/colours",
        {"colour.Esploratori": "#00AA00", "colour.Corporazione": "red"},
        page="/events/1/badges",
    )
    with app.app_context():
        from larp_app.models import Event

        assert db.session.get(Event, 1).faction_colours == {"Esploratori": "#00aa00"}


def shown_colours(organiser, event_id=1):
    page = organiser.get(f"/events/{event_id}/badges").get_data(as_text=True)
    return dict(
        (name, colour)
        for colour, name in re.findall(
            r'type="color" name="colour\.[^"]*" value="(#[0-9a-f]{6})"> ([^<]+?)</label>', page
        )
    ), page


def test_each_faction_of_an_event_gets_its_own_band_colour_by_default(app, organiser):
    colours, page = shown_colours(organiser)
    assert set(colours) == {"Corporazione", "Culto del Vuoto", "Esploratori", "Indipendenti"}
    assert len(set(colours.values())) == len(colours)
    assert "share a colour" not in page


def test_two_factions_given_one_colour_are_warned_of_on_the_badges_page(app, organiser):
    post_form(
        organiser,
        "/events/1/badges/colours",
        {"colour.Esploratori": "#00aa00", "colour.Indipendenti": "#00AA00"},
        page="/events/1/badges",
    )
    colours, page = shown_colours(organiser)
    assert colours["Esploratori"] == colours["Indipendenti"] == "#00aa00"
    assert "Esploratori, Indipendenti share a colour: their printed bands look the same." in page
    others = [colours["Corporazione"], colours["Culto del Vuoto"]]
    assert "#00aa00" not in others and len(set(others)) == 2


def test_a_faction_imported_later_leaves_the_colours_of_the_others_as_they_were(app, organiser):
    before, _page = shown_colours(organiser)
    with app.app_context():
        first = db.session.get(Character, 1)
        for n, faction in enumerate(["Nuovi Venuti", "Guardiani", "Mercanti", "Ombre"]):
            db.session.add(
                Character(
                    event_id=first.event_id,
                    name=f"Nuovo {n}",
                    player=f"Giocatore {n}",
                    faction=faction,
                    tabletop=first.tabletop,
                    larp=first.larp,
                    created_at=first.created_at,
                )
            )
        db.session.commit()
    after, _page = shown_colours(organiser)
    assert {f: after[f] for f in before} == before
    assert len(set(after.values())) == 8  # the palette's eight, one each


def test_a_referee_cannot_print_badges(app, client):
    with app.app_context():
        load_demo()
        db.session.commit()
    make_user(app, "rita", "referee")
    log_in(client, "rita")
    assert client.get("/events/1/badges").status_code == 403
    assert client.get("/characters/1/badge-front.png").status_code == 403
