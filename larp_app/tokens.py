"""Badge and player secrets, and the short codes typed when a camera fails.

Random tokens from an alphabet without look-alike characters (no 0/O, 1/I/L), never a
database id (the pattern of pretix's base/secrets.py).
"""

from __future__ import annotations

import hashlib
import secrets

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # 31 symbols, about 4.95 bits each
SECRET_LENGTH = 26  # 26 × log2(31) ≈ 128.8 bits
SHORT_DATA = 8  # plus one check symbol: 9 typed symbols, shown as K7M-Q2X-9HP
# What a person may type for a symbol the alphabet leaves out.
LOOK_ALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_secret() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(SECRET_LENGTH))


def digest(text: str) -> str:
    """The SHA-256 (hex) a badge, a short code or a player link is found by.

    Unsalted on purpose: a lookup goes by the digest of what is presented. A secret is 26
    random symbols (about 129 bits): no one finds it back from its digest, salt or not. A
    short code has about 40 bits: its digest can be searched out by brute force, which gives
    only what a referee types by hand, and the lookups of those are logged and throttled.
    """
    return hashlib.sha256(text.encode()).hexdigest()


def check_symbol(data: str) -> str:
    """The symbol that makes the sum of (position × value) a multiple of 31.

    31 is prime and every weight differs, so any single wrong symbol and any two symbols
    swapped change that sum: the typo is caught.
    """
    n = len(ALPHABET)
    total = sum((i + 1) * ALPHABET.index(symbol) for i, symbol in enumerate(data))
    weight = len(data) + 1
    return ALPHABET[(-total * pow(weight, -1, n)) % n]


def new_short_code() -> str:
    data = "".join(secrets.choice(ALPHABET) for _ in range(SHORT_DATA))
    return format_short_code(data + check_symbol(data))


def format_short_code(symbols: str) -> str:
    return "-".join(symbols[i : i + 3] for i in range(0, len(symbols), 3))


def read_short_code(typed: str) -> str | None:
    """The short code as stored (``K7M-Q2X-9HP``), or None when it is malformed or mistyped."""
    symbols = "".join(ch for ch in typed.upper() if ch.isalnum()).translate(LOOK_ALIKES)
    if len(symbols) != SHORT_DATA + 1 or any(ch not in ALPHABET for ch in symbols):
        return None
    if check_symbol(symbols[:-1]) != symbols[-1]:
        return None
    return format_short_code(symbols)


def looks_like_short_code(typed: str) -> bool:
    return len("".join(ch for ch in typed if ch.isalnum())) == SHORT_DATA + 1
