"""Badge secrets and short codes: unguessable, unambiguous, typos caught."""

import math

import pytest

from larp_app import tokens


def test_a_badge_secret_carries_at_least_128_random_bits_without_look_alikes():
    secret = tokens.new_secret()
    assert len(secret) * math.log2(len(tokens.ALPHABET)) >= 128
    assert not set(secret) & set("0O1IL")
    assert secret != tokens.new_secret()


def test_a_short_code_is_nine_symbols_in_three_groups_and_reads_back():
    code = tokens.new_short_code()
    assert len(code) == 11 and code[3] == code[7] == "-"
    assert tokens.read_short_code(code) == code
    assert tokens.read_short_code(code.lower().replace("-", " ")) == code


def test_every_single_wrong_symbol_in_a_short_code_is_caught():
    for _ in range(50):
        code = tokens.new_short_code().replace("-", "")
        for i, symbol in enumerate(code):
            for other in tokens.ALPHABET.replace(symbol, ""):
                assert tokens.read_short_code(code[:i] + other + code[i + 1 :]) is None


def test_every_two_swapped_symbols_in_a_short_code_are_caught():
    for _ in range(50):
        code = list(tokens.new_short_code().replace("-", ""))
        for i in range(9):
            for j in range(i + 1, 9):
                if code[i] != code[j]:
                    swapped = code.copy()
                    swapped[i], swapped[j] = swapped[j], swapped[i]
                    assert tokens.read_short_code("".join(swapped)) is None


@pytest.mark.parametrize("typed", ["", "ABC", "ABC-DEF-GHJK", "ABC-DEF-GH!"])
def test_a_malformed_short_code_is_refused(typed):
    assert tokens.read_short_code(typed) is None


def test_an_o_typed_for_a_zero_is_not_a_way_into_another_badge():
    # 0 is not in the alphabet at all: a code with O or 0 can never be valid.
    assert tokens.read_short_code("OOO-OOO-OOO") is None
