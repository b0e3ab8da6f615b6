"""The rating-over-time chart of a profile, drawn on the server as SVG (no script): the geometry here, the
markup in ``templates/players/_rating_chart.html``."""
from __future__ import annotations

import math

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 14, 30


def rating_chart(changes) -> dict | None:
    """``changes``: one player's ``RatingChange`` rows, oldest first. The chart starts at the rating before
    the first game; each game is one step to the right (games, not days: a busy evening would otherwise be a
    vertical line)."""
    changes = list(changes)
    if not changes:
        return None
    values = [changes[0].rating_before] + [c.rating for c in changes]
    low, high = min(values), max(values)
    step = _nice_step(max(high - low, 40) / 4)
    low = math.floor((low - step / 4) / step) * step
    high = math.ceil((high + step / 4) / step) * step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = len(values)

    def x(i):
        return LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v):
        return TOP + plot_h * (high - v) / (high - low)

    points = []
    for i, value in enumerate(values):
        change = changes[i - 1] if i else None
        points.append({
            "x": round(x(i), 1), "y": round(y(value), 1), "rating": round(value),
            "delta": round(change.delta) if change else None,
            "when": change.created if change else None, "game_id": change.game_id if change else None,
        })
    ticks = []
    v = low
    while v <= high + 1e-9:
        ticks.append({"y": round(y(v), 1), "label": int(v)})
        v += step
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP,
        "bottom": HEIGHT - BOTTOM, "points": points, "ticks": ticks,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "first": changes[0].created, "last": changes[-1].created, "games": len(changes),
        "low": round(min(values)), "high": round(max(values)), "now": round(values[-1]),
    }


def _nice_step(raw: float) -> float:
    """1, 2, 2.5 or 5 times a power of ten, at least ``raw``."""
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * power >= raw:
            return m * power
    return 10 * power
