"""What one badge shows, front and back: plain data, translated by the caller."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

DEFAULT_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "your_status": "Your status",
        "hit_points": "Hit points",
        "armour": "Armour",
        "energy": "Energy",
        "every_minutes": "1 every {minutes} min",
        "code": "Code",
    }
)

COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")


@dataclass(frozen=True)
class BadgeFace:
    character: str
    player: str
    faction: str | None
    faction_colour: str  # "#RRGGBB"; the text on it is black or white, whichever reads better
    event: str
    scan_url: str  # front QR payload
    short_code: str  # typed when a camera fails, e.g. "K7M-Q2X-9HP"
    status_url: str  # back QR payload: the player's own page
    hp: int
    ap: int
    energy: int
    energy_recovery_minutes: int | None
    labels: Mapping[str, str] = field(default_factory=lambda: DEFAULT_LABELS)
    # The quantities printed (of "hp", "ap", "energy"): only those the rule system tracks.
    shown: tuple[str, ...] = ("hp", "ap", "energy")

    def __post_init__(self) -> None:
        if not COLOUR.fullmatch(self.faction_colour):
            raise ValueError(f"faction_colour must be #RRGGBB, not {self.faction_colour!r}")

    def label(self, key: str, minutes: int | None = None) -> str:
        """The caller's word for ``key`` (English when it gave none), ``{minutes}`` filled in."""
        text = self.labels.get(key) or DEFAULT_LABELS[key]
        return text if minutes is None else text.replace("{minutes}", str(minutes))


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#1f4e9c"`` → ``(31, 78, 156)``."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _luminance(colour: tuple[int, int, int]) -> float:
    """Relative luminance (WCAG 2)."""
    channels = [c / 255 for c in colour]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG contrast ratio, 1 to 21."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


BLACK = (0, 0, 0)
WHITE = (255, 255, 255)


def text_colour_on(background: str) -> tuple[int, int, int]:
    """Black or white, whichever contrasts more with the background."""
    back = rgb(background)
    return BLACK if contrast(back, BLACK) >= contrast(back, WHITE) else WHITE
