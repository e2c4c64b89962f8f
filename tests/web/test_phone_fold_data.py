"""What the phone's fold needs reaches it with every state the phone holds: the
state's inner values (``fold``) in the roster, the state's answer, an entry's answer and the
outbox's sync; the sheet's figures and the event's settings in the roster, never its dice
seed nor its secret."""

import json

from larp_app.extensions import db
from larp_app.models import Character, Event
from larp_app.rules import LarpSheet
from larp_app.rules.wire import sheet_to_wire, state_to_wire
from larp_app.services.clock import now_utc
from larp_app.services.entries import state_of
from larp_app.services.events import change_settings

from .test_api import entry
from .test_offline_api import api, cast, queued, sync  # noqa: F401  (fixtures)


def test_every_state_the_phone_gets_carries_its_inner_values(app, client, api, cast):  # noqa: F811
    character_id = cast[1][0]
    url = f"/api/v1/characters/{character_id}"
    posted = client.post(f"{url}/entries", json=entry("hit", 5, damage=2), headers=api["referee"])
    synced = sync(client, [queued(character_id, "spend_energy", 2, amount=1)], api["referee"])
    state = client.get(f"{url}/state", headers=api["referee"]).json
    roster = client.get("/api/v1/roster", headers=api["referee"]).json
    with app.app_context():
        character = db.session.get(Character, character_id)
        expected = state_to_wire(state_of(character, now_utc()).state)
        sheet = json.loads(json.dumps(sheet_to_wire(LarpSheet.from_dict(character.larp))))
    after_hit = posted.json["state"]
    assert {k: after_hit["fold"][k] for k in ("hp", "ap", "energy")} == {
        k: after_hit[k] for k in ("hp", "ap", "energy")
    }
    assert synced.json["results"][0]["state"]["fold"] == expected
    assert state["fold"] == expected
    kept = next(c for c in roster["characters"] if c["id"] == character_id)
    assert kept["state"]["fold"] == expected
    assert kept["sheet"]["hp_max"] == kept["state"]["hp_max"]
    assert kept["sheet"] == sheet  # the details its rule system's fold reads included
    assert kept["sheet"]["details"]


def test_the_roster_gives_the_fold_the_events_settings_but_not_its_dice_seed(
    app,
    client,
    api,  # noqa: F811
    cast,  # noqa: F811
):
    event_id = cast[0]
    with app.app_context():
        event = db.session.get(Event, event_id)
        change_settings(
            event,
            {
                **(event.settings or {}),
                "seed": "SEED-XYZ",
                "secret": "SECRET-XYZ",
                "turn_seconds": 2,
            },
        )
        db.session.commit()
    roster = client.get("/api/v1/roster", headers=api["referee"]).json
    kit = next(e for e in roster["events"] if e["id"] == event_id)
    assert kit["fold"]["turn_seconds"] == 2
    assert kit["fold"]["ruleset"] == "ex-nihilo"
    assert {s["key"] for s in kit["fold"]["catalogue"]} >= {"dolore", "stordimento"}
    text = json.dumps(roster)
    assert "SEED-XYZ" not in text and "SECRET-XYZ" not in text
