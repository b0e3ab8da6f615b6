"""The analysis as the replay shows it (the answers come from ``games/read/analysis.py``): one position's
value, best move and strategies; and over the whole game, one seat's value after every turn as a chart, the
best move beside each move played, and the slips.

A *slip* is a move that gave away more than ``SLIP`` (an equilibrium analysis: against the other side's
mixed strategy) or ``SEARCH_SLIP`` (a best-move analysis: the seat's value after the best move minus its value
after the move played) of its seat's value, -1 lost .. 1 won. Each seat's biggest (``WORST``) are listed;
every slip is marked in the move lists.
"""
from __future__ import annotations

from games.engine.ui import ui_for
from games.models import Game
from games.play import services
from games.read import replay

SHOWN = 8  # actions listed per side (the rest summed up)
SLIP = 0.02  # a choice that gave away more than this is a slip, in an equilibrium analysis (RoPaSci 360) ...
SEARCH_SLIP = 0.1  # ... and in a best-move one (a search's values move more from move to move)
WORST = 3  # slips listed per seat
ROWS = 120  # rows of the best-move table, around the turn viewed
HITS = 400  # click targets of the chart at most (a long game's are turns grouped)


def signed(v: float) -> str:
    return f"{v:+.2f}".replace("+0.00", "0.00").replace("-0.00", "0.00")


def verdict(ui, first: str, second: str, v: float) -> str:
    """The value in words, for the first seat's value ``v`` (-1 lost .. 1 won)."""
    lead, by = (first, v) if v >= 0 else (second, -v)
    if by < 0.05:
        return "About even"
    word = "slightly better" if by < 0.25 else "better" if by < 0.6 else "winning" if by < 0.999 else "won"
    return f"{ui.seat_name(lead)} is {word}"


def threshold(result: dict) -> float:
    return SLIP if result.get("width") is not None else SEARCH_SLIP


def slips(results: dict[int, dict]) -> list[tuple[float, int, str, object]]:
    """Every slip ``(gave away, position, seat, action JSON)``, biggest first: the move played at position
    ``n`` (turn ``n + 1``) that gave away more than the threshold."""
    out = [(float(a["gave_away"]), n, seat, a["action"]) for n, r in results.items()
           for seat, a in (r.get("actual") or {}).items() if a.get("gave_away") is not None
           and float(a["gave_away"]) > threshold(r)]
    return sorted(out, key=lambda t: (-t[0], t[1]))


def seat_values(results: dict[int, dict], seat: str) -> list[tuple[int, float]]:
    return [(n, float(r["values"][seat])) for n, r in sorted(results.items())
            if (r.get("values") or {}).get(seat) is not None]


def position_context(game: Game, n: int, result: dict) -> dict:
    engine = services.engine_for(game)
    ui = ui_for(engine)
    players = list(engine.info.players)
    observation = services.state_at(game, n).observation(None)
    names = replay.seat_names(game)
    values = result.get("values") or {}
    sides = []
    for seat in players:
        strategy = result["strategies"].get(seat, [])
        actual = (result.get("actual") or {}).get(seat)
        rows = [{"words": ui.action_words(seat, a, observation), "p": p, "pct": f"{100 * p:.1f}",
                 "bar": f"{max(1.0, 100 * p):.1f}", "played": actual is not None and a == actual["action"]}
                for a, p in strategy]
        options = [{"words": ui.action_words(seat, a, observation), "value": signed(v),
                    "bar": f"{max(1.0, 50 + 50 * v):.1f}", "played": actual is not None and a == actual["action"]}
                   for a, v in (result.get("options") or {}).get(seat, [])]
        rest = rows[SHOWN:]
        side = {"side": seat, "label": ui.seat_name(seat), "name": names.get(seat, seat),
                "value": signed(values[seat]) if seat in values else "", "rows": rows[:SHOWN], "more": len(rest),
                "more_pct": f"{100 * sum(r['p'] for r in rest):.1f}", "options": options,
                "candidates": result.get("candidates", {}).get(seat), "legal": result.get("legal", {}).get(seat),
                "best": rows[0]["words"] if rows else "", "pure": len(rows) == 1}
        if actual is not None:
            gave = float(actual["gave_away"])
            side["actual"] = {"words": ui.action_words(seat, actual["action"], observation),
                              "pct": f"{100 * float(actual['probability']):.1f}",
                              "in_support": float(actual["probability"]) >= 1e-4,
                              "candidate": actual.get("candidate", True),
                              "gave": f"{abs(gave):.3f}", "gave_kind": "none" if abs(gave) < 5e-4 else
                              ("loss" if gave > 0 else "gain"),
                              "value": signed(float(actual["value"]))}
        if strategy or seat in values:
            sides.append(side)
    value = result.get("value")
    zero_sum = len(players) == 2 and len(values) == 2 and value is not None  # poker values only the mover
    mark = 100 + 100 * max(-1.0, min(1.0, value or 0.0))  # on a 0..200 scale, 100 even
    balance = {"fill_x": f"{min(100, mark):.1f}", "fill_w": f"{abs(mark - 100):.1f}",
               "mark_x": f"{min(196.0, max(0.0, mark - 2)):.1f}"}
    return {"n": n, "total": game.turn, "value": signed(value) if value is not None else "",
            "balance": balance if zero_sum else None,
            "verdict": verdict(ui, players[0], players[-1], value) if zero_sum else "",
            "first": ui.seat_name(players[0]), "sides": sides, "note": result.get("note", ""),
            "terminal": game.is_over and n == game.turn and not result.get("strategies"),
            "equilibrium": result.get("width") is not None,
            "withheld": ui.seat_name(result["withheld"]) if result.get("withheld") else "",
            "width": result.get("width"), "next_turn": n + 1 if n < game.turn else None}


def chart_context(game: Game, results: dict[int, dict], missing: int, current: int, seat: str | None) -> dict:
    """Geometry of the value chart (``seat``'s value, -1..1, after every analysed turn; the first seat with a
    value if ``seat`` is None or has none), the seats it can switch to, the best-move table around turn
    ``current`` and each seat's biggest slips."""
    engine = services.engine_for(game)
    ui = ui_for(engine)
    players = list(engine.info.players)
    valued = [s for s in players if any(s in (r.get("values") or {}) for r in results.values())]
    seat = seat if seat in valued else next(iter(valued), players[0])
    width, height = 360, 150
    left, right, top, bottom = 28, 10, 10, 22
    last = max(game.turn, 1)
    dx = (width - left - right) / last

    def x(n):
        return left + n * dx

    def y(v):
        return top + (1 - v) * (height - top - bottom) / 2

    points = seat_values(results, seat)
    line = " ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in points)
    if len(points) == 1:
        n, v = points[0]
        line = f"{x(n):.1f},{y(v):.1f} {x(n) + 6:.1f},{y(v):.1f}"
    group = -(-len(points) // HITS) or 1
    hits = []
    for k in range(0, len(points), group):
        n, v = points[k]
        x1 = max(left, x(n) - dx / 2)
        x2 = min(width - right, x(points[min(k + group, len(points)) - 1][0]) + dx / 2)
        hits.append({"n": n, "x": f"{x1:.1f}", "w": f"{max(x2 - x1, 0.5):.1f}",
                     "title": f"after turn {n}: {signed(v)} for {ui.seat_name(seat)}"})
    step = next(k for k in (1, 2, 5, 10, 20, 25, 50, 100, 1000, 10000) if last / k <= 6)
    found = slips(results)
    marks = {(n, s) for _, n, s, _ in found}
    observations = {}

    def before(n):
        if n not in observations:
            observations[n] = services.state_at(game, n).observation(None)
        return observations[n]

    sides = []
    for s in valued:
        mine = [t for t in found if t[2] == s]
        sides.append({"side": s, "label": ui.seat_name(s), "count": len(mine),
                      "total": f"{sum(g for g, *_ in mine):.2f}",
                      "worst": [{"n": n, "turn": n + 1, "gave": f"{g:.2f}", "words": ui.action_words(s, a, before(n))}
                                for g, n, _, a in mine[:WORST]]})
    rows = []
    first = max(0, min(current - ROWS // 2, game.turn - ROWS))
    for n in range(first, min(game.turn, first + ROWS)):
        for s, a in ((results.get(n) or {}).get("actual") or {}).items():
            best = ((results[n].get("strategies") or {}).get(s) or [[None]])[0][0]
            rows.append({"n": n, "turn": n + 1, "side": s, "label": ui.seat_name(s),
                         "played": ui.action_words(s, a["action"], before(n)),
                         "best": "" if best is None else ui.action_words(s, best, before(n)),
                         "same": abs(float(a["gave_away"])) < 5e-4, "gave": f"{float(a['gave_away']):.2f}",
                         "slip": (n, s) in marks})
    return {"width": width, "height": height, "left": left, "right": width - right, "top": top,
            "base": height - bottom, "plot_h": height - bottom - top, "x0": left, "dx": f"{dx:.4f}",
            "zero_y": f"{y(0):.1f}", "line": line, "hits": hits, "cursor_x": f"{x(current):.1f}",
            "grid": [{"v": label, "y": f"{y(v):.1f}"} for v, label in ((1, "+1"), (0.5, ""), (0, "0"),
                                                                         (-0.5, ""), (-1, "−1"))],
            "ticks": [{"n": n, "x": f"{x(n):.1f}"} for n in range(0, game.turn + 1, step)],
            "label_y": height - 6, "seat": seat, "seat_label": ui.seat_name(seat),
            "seats": [{"side": s, "label": ui.seat_name(s), "on": s == seat} for s in valued] if len(valued) > 1 else [],
            "turns": game.turn, "missing": missing, "analysed": len(points), "sides": sides, "rows": rows,
            "more_rows": first > 0 or first + ROWS < game.turn,
            "slip_turns": " ".join(f"{n + 1}:{s}" for n, s in sorted(marks)),
            "slip": min((threshold(r) for r in results.values()), default=SEARCH_SLIP), "final": signed(points[-1][1]) if points else ""}
