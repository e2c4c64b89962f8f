"""The app's dice draw exactly what ``random.Random`` drew from the same seed: stored states
and printed rolls stay what they were."""

from __future__ import annotations

import hashlib
import random

import pytest

from larp_app.rules import dice
from larp_app.rulesets.athkri.one_of_three import one_of_three_d10


def reference(seed: str, *parts: object) -> random.Random:
    """The generator the app seeded before its own draws: random.Random of the digest."""
    text = "\x1f".join([seed, *map(str, parts)])
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


@pytest.mark.parametrize("sides", [1, 2, 6, 10, 16, 17, 100, 2**31, 2**32])
def test_randint_draws_what_random_random_draws_for_every_width(sides):
    for i in range(200):
        ours, theirs = dice.rng_for("seed", "entry", i), reference("seed", "entry", i)
        # Twenty draws run past the words kept for a seed, into a generator seeded again.
        assert [ours.randint(1, sides) for _ in range(20)] == [
            theirs.randint(1, sides) for _ in range(20)
        ]


@pytest.mark.parametrize("bits", [0, 1, 4, 31, 32, 33, 64, 100, 257])
def test_getrandbits_draws_what_random_random_draws(bits):
    for i in range(100):
        ours, theirs = dice.rng_for("seed", i), reference("seed", i)
        assert [ours.getrandbits(bits) for _ in range(12)] == [
            theirs.getrandbits(bits) for _ in range(12)
        ]


def test_a_roll_is_the_same_whether_its_seed_was_kept_or_not():
    dice.first_words.cache_clear()
    first = one_of_three_d10(dice.rng_for("seed", "abc"), 0, 3, 12)
    again = one_of_three_d10(dice.rng_for("seed", "abc"), 0, 3, 12)
    assert dice.first_words.cache_info().hits >= 1
    dice.first_words.cache_clear()
    cold = one_of_three_d10(dice.rng_for("seed", "abc"), 0, 3, 12)
    assert first == again == cold
    theirs = reference("seed", "abc")
    assert first.dice == tuple(theirs.randint(1, 10) for _ in range(3))


def test_the_seeds_kept_are_bounded():
    dice.first_words.cache_clear()
    for i in range(dice.KEPT_SEEDS + 100):
        dice.rng_for("seed", i).randint(1, 10)
    assert dice.first_words.cache_info().currsize == dice.KEPT_SEEDS
