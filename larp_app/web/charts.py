"""Small charts drawn on the server as SVG: no script, no library, black-and-white printable.

Every series is told apart by its line or fill pattern and named in a legend, and every bar
carries its number, so no chart relies on colour alone. Labels are escaped here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from markupsafe import Markup, escape

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 36, 40
DASHES = ("", "6 4", "2 3", "10 3 2 3")  # line styles, one per series
FILLS = ("#333", "url(#hatch)", "#bbb", "#777")
HATCH = (
    '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse"'
    ' patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/>'
    '<line x1="0" y1="0" x2="0" y2="6" stroke="#000" stroke-width="2"/></pattern></defs>'
)


EMPTY = "—"  # drawn where a chart has nothing to show


def _svg(title: str, body: list[str], height: int = HEIGHT, chart_id: str = "") -> Markup:
    label = escape(title)
    ident = f' id="{escape(chart_id)}"' if chart_id else ""
    return Markup(
        f'<svg class="chart"{ident} role="img" aria-label="{label}" viewBox="0 0 {WIDTH} {height}"'
        f' width="100%" preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{label}</title>{HATCH}"
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#fff"/>'
        f'<text x="{LEFT}" y="20" font-size="15" font-weight="bold">{label}</text>'
        + "".join(body)
        + "</svg>"
    )


def _nice_max(value: float) -> int:
    """A round top for an axis holding ``value`` (at least 1)."""
    top = max(1, int(value))
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if top <= step * 5:
            return -(-top // step) * step
    return top


def _y_axis(low: int, high: int, plot_h: int) -> tuple[list[str], Callable[[float], float]]:
    span = max(1, high - low)

    def y(value: float) -> float:
        return TOP + plot_h - (value - low) / span * plot_h

    parts = []
    step = max(1, span // 5)
    for tick in range(low, high + 1, step):
        parts.append(
            f'<line x1="{LEFT}" y1="{y(tick):.1f}" x2="{WIDTH - RIGHT}" y2="{y(tick):.1f}"'
            ' stroke="#ddd"/>'
            f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" font-size="11" text-anchor="end">'
            f"{tick}</text>"
        )
    return parts, y


def _legend(names: Sequence[str], lines: bool, y: float) -> list[str]:
    parts, x = [], LEFT
    for i, name in enumerate(names):
        if lines:
            pattern = DASHES[i % len(DASHES)]
            dash = f' stroke-dasharray="{pattern}"' if pattern else ""
            parts.append(
                f'<line x1="{x}" y1="{y - 4}" x2="{x + 24}" y2="{y - 4}" stroke="#000"'
                f' stroke-width="2.5"{dash}/>'
            )
        else:
            parts.append(
                f'<rect x="{x}" y="{y - 11}" width="14" height="12" fill="{FILLS[i % len(FILLS)]}"'
                ' stroke="#000"/>'
            )
        parts.append(f'<text x="{x + 30}" y="{y}" font-size="12">{escape(name)}</text>')
        x += 40 + 7 * len(name)
    return parts


def line_chart(
    title: str,
    series: Sequence[tuple[str, Sequence[tuple[datetime, float]]]],
    time_label: Callable[[datetime], str],
    *,
    step: bool = False,
    chart_id: str = "",
) -> Markup:
    """Lines over time, one per series; ``step`` holds each value until the next point."""
    points = [p for _, pts in series for p in pts]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM - 18
    if not points:
        return _svg(title, [_empty(plot_h)], chart_id=chart_id)
    t0, t1 = min(t for t, _ in points), max(t for t, _ in points)
    span = max(1.0, (t1 - t0).total_seconds())
    low = min(0, int(min(v for _, v in points)))
    high = _nice_max(max(v for _, v in points))
    parts, y = _y_axis(low, high, plot_h)

    def x(t: datetime) -> float:
        return LEFT + (t - t0).total_seconds() / span * plot_w

    for i, anchor in enumerate(("start", "middle", "middle", "middle", "end")):
        t = t0 + (t1 - t0) * i / 4
        parts.append(
            f'<text x="{x(t):.1f}" y="{TOP + plot_h + 16}" font-size="11"'
            f' text-anchor="{anchor}">{escape(time_label(t))}</text>'
        )
    for i, (_name, pts) in enumerate(series):
        coords = []
        for j, (t, v) in enumerate(pts):
            if step and j:
                coords.append(f"{x(t):.1f},{y(pts[j - 1][1]):.1f}")
            coords.append(f"{x(t):.1f},{y(v):.1f}")
        if step and pts:
            coords.append(f"{x(t1):.1f},{y(pts[-1][1]):.1f}")
        dash = DASHES[i % len(DASHES)]
        parts.append(
            f'<polyline fill="none" stroke="#000" stroke-width="2.5" points="{" ".join(coords)}"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + "/>"
        )
    parts += _legend([name for name, _ in series], True, HEIGHT - 8)
    return _svg(title, parts, chart_id=chart_id)


def bar_chart(
    title: str, items: Sequence[tuple[str, int]], *, chart_id: str = "", empty: str = EMPTY
) -> Markup:
    """Horizontal bars, one per label, each with its number written beside it."""
    row = 26
    height = TOP + max(1, len(items)) * row + 12
    if not items:
        return _svg(title, [_empty(row, empty)], height=height, chart_id=chart_id)
    label_w = min(220, 12 + 7 * max(len(label) for label, _ in items))
    top = max(value for _, value in items) or 1
    plot_w = WIDTH - label_w - RIGHT - 40
    parts = []
    for i, (label, value) in enumerate(items):
        y0 = TOP + i * row
        w = value / top * plot_w
        parts.append(
            f'<text x="{label_w - 6}" y="{y0 + 16}" font-size="12" text-anchor="end">'
            f"{escape(_short(label))}</text>"
            f'<rect x="{label_w}" y="{y0 + 4}" width="{w:.1f}" height="{row - 8}" fill="#555"'
            ' stroke="#000"/>'
            f'<text x="{label_w + w + 6:.1f}" y="{y0 + 16}" font-size="12">{value}</text>'
        )
    return _svg(title, parts, height=height, chart_id=chart_id)


def grouped_bars(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[int]]],
    *,
    chart_id: str = "",
) -> Markup:
    """Vertical bars per category, one per series (told apart by fill and legend)."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM - 18
    values = [v for _, vs in series for v in vs]
    if not categories or not values:
        return _svg(title, [_empty(plot_h)], chart_id=chart_id)
    parts, y = _y_axis(0, _nice_max(max(values)), plot_h)
    slot = plot_w / len(categories)
    bar = max(2.0, min(28.0, (slot - 6) / len(series)))
    for c, category in enumerate(categories):
        x0 = LEFT + c * slot + (slot - bar * len(series)) / 2
        for s, (_name, vs) in enumerate(series):
            v = vs[c]
            parts.append(
                f'<rect x="{x0 + s * bar:.1f}" y="{y(v):.1f}" width="{bar:.1f}"'
                f' height="{TOP + plot_h - y(v):.1f}" fill="{FILLS[s % len(FILLS)]}"'
                ' stroke="#000"/>'
            )
            if v and len(categories) <= 12:
                parts.append(
                    f'<text x="{x0 + s * bar + bar / 2:.1f}" y="{y(v) - 3:.1f}" font-size="10"'
                    f' text-anchor="middle">{v}</text>'
                )
        if len(categories) <= 12 or c % max(1, len(categories) // 8) == 0:
            parts.append(
                f'<text x="{LEFT + c * slot + slot / 2:.1f}" y="{TOP + plot_h + 16}"'
                f' font-size="11" text-anchor="middle">{escape(category)}</text>'
            )
    parts += _legend([name for name, _ in series], False, HEIGHT - 8)
    return _svg(title, parts, chart_id=chart_id)


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _empty(plot_h: int, text: str = EMPTY) -> str:
    return (
        f'<text x="{WIDTH / 2}" y="{TOP + plot_h / 2}" font-size="13" text-anchor="middle"'
        f' fill="#444">{escape(text)}</text>'
    )
