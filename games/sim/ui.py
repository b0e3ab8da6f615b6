"""The site's adapter for Sim: the complete graph drawn on a circle, coloured edges, words and click input.
Works from observations (``SimState.to_json``) and canonical JSON actions only.

Click input: every uncoloured edge carries ``data-pick="edge:i,j"`` (with an invisible band 14 units wide around it); an
action is that one step. Coloured edges are told apart by line pattern as well as colour: Black solid, White
dashed (a light line with a dark casing), Blue dotted. The triangles the seats out lost by are shaded and
their edges marked; the last move's edge is underlaid with a highlight bar.

``board(...)`` returns (for the template): ``turn``, ``view_box``, ``node_r``, ``nodes`` (``index``, ``x``,
``y``), ``free`` and ``coloured`` (edge dicts: ``key``, ``x1``, ``y1``, ``x2``, ``y2``, ``seat``, ``cls``,
``label``), ``last`` (the last move's edge dict or None), ``triangles`` (``seat``, ``points``, ``label``),
``caption``, ``caption_y``, ``to_move`` and ``result``.
"""
from __future__ import annotations

import math

from games.engine.ui import GameUI, Param

from . import NODES

CENTRE, RADIUS, NODE_R = 200.0, 165.0, 13
PATTERN = {"black": "solid", "white": "dashed", "blue": "dotted"}


def _edge_text(i, j) -> str:
    return f"{i}-{j}"


class UI(GameUI):
    board_template = "sim/_board.html"
    tagline = "Colour the edges in turn: whoever makes a triangle of their own colour loses."
    stylesheet = "sim/board.css"
    flippable = False
    legend = ("Black's edges are solid, White's dashed, Blue's dotted; thin grey lines are uncoloured. "
              "Completing a triangle of your own colour loses.")
    hint = "Click an uncoloured edge to colour it."

    # --- words -------------------------------------------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return seat.title()

    def action_words(self, seat: str, action, observation=None) -> str:
        i, j = self.game.action_from_json(action, seat)
        return f"Edge {_edge_text(i, j)}"

    def event_words(self, event) -> str:
        if not isinstance(event, dict):
            return ""
        if "triangle" in event:
            nodes = "-".join(str(n) for n in event["triangle"])
            return f"{self.seat_name(str(event.get('seat', '')))} completes triangle {nodes} of its own colour"
        if "resigned" in event:
            return f"{self.seat_name(str(event['resigned']))} resigns"
        if "out" in event:
            seat = self.seat_name(str(event["out"]))
            return f"{seat} is out" if len(self.game.info.players) == 3 else f"{seat} loses"
        if "no_edge_left" in event:
            return "No edge is left"
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        obs = observation or {}
        if not obs.get("result"):
            return super().result_reason(outcome, observation)
        seats = self.game.info.players
        lost = {}
        for t in obs.get("triangles") or []:
            lost.setdefault(t["seat"], "-".join(str(n) for n in t["nodes"]))
        parts = [f"{self.seat_name(s)} completed triangle {lost.get(s, '?')} of its own colour"
                 + (" and dropped out" if len(seats) == 3 and k == 0 else "")
                 for k, s in enumerate(obs.get("out") or [])]
        alive = [s for s in seats if s not in (obs.get("out") or [])]
        if len(alive) == len(seats):
            parts.append("no edge was left and nobody completed a triangle of their own colour")
        elif len(alive) > 1:
            parts.append(f"no edge was left, so {' and '.join(self.seat_name(s) for s in alive)} tie")
        reason = "; ".join(parts)
        reason = reason[:1].upper() + reason[1:] + "."
        if self.game.coalition == "1-2":
            reason += " White and Blue share their result (coalition)."
        return reason

    def caption(self, obs) -> str:
        out = obs.get("out") or []
        if obs.get("result"):
            text = obs["result"].get("text", "")
        else:
            text = f"{self.seat_name(obs['to_move'])} to move" if obs.get("to_move") else ""
        if out:
            text += f" (out: {', '.join(self.seat_name(s) for s in out)})"
        return text

    # --- drawing -----------------------------------------------------------------------------------
    def _xy(self, k: int, n: int) -> tuple[float, float]:
        """Node ``k`` of ``n`` on the circle, node 0 at the top, clockwise."""
        a = -math.pi / 2 + 2 * math.pi * k / n
        return CENTRE + RADIUS * math.cos(a), CENTRE + RADIUS * math.sin(a)

    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or {}
        n = self.game.nodes
        xy = [self._xy(k, n) for k in range(n)]
        colour = {(e[0], e[1]): e[2] for e in obs.get("edges") or []}
        losing = set()
        triangles = []
        for t in obs.get("triangles") or []:
            a, b, c = t["nodes"]
            losing |= {(a, b), (a, c), (b, c)}
            points = " ".join(f"{xy[k][0]:.1f},{xy[k][1]:.1f}" for k in (a, b, c))
            triangles.append({"seat": t["seat"], "points": points,
                              "label": f"{self.seat_name(t['seat'])}'s losing triangle {a}-{b}-{c}"})
        last_edge = None
        for action in ((last or {}).get("actions") or {}).values():
            try:
                last_edge = self.game.action_from_json(action)
            except ValueError:
                continue
        free, coloured, last_drawn = [], [], None
        for i in range(n):
            for j in range(i + 1, n):
                seat = colour.get((i, j))
                (x1, y1), (x2, y2) = xy[i], xy[j]
                cls = ["edge", f"seat-{seat}" if seat else "free"]
                if (i, j) in losing:
                    cls.append("losing")
                if (i, j) == last_edge:
                    cls.append("last")
                label = (f"Edge {_edge_text(i, j)}: {self.seat_name(seat)} ({PATTERN[seat]})" if seat
                         else f"Edge {_edge_text(i, j)}: uncoloured")
                edge = {"key": f"edge:{i},{j}", "x1": f"{x1:.1f}", "y1": f"{y1:.1f}", "x2": f"{x2:.1f}",
                        "y2": f"{y2:.1f}", "seat": seat, "cls": " ".join(cls), "label": label,
                        "hit": _band(x1, y1, x2, y2)}
                (coloured if seat else free).append(edge)
                if (i, j) == last_edge:
                    last_drawn = edge
        height = 2 * CENTRE + 30
        return {"turn": obs.get("turn", 0), "view_box": f"0 0 {2 * CENTRE:.0f} {height:.0f}", "node_r": NODE_R,
                "nodes": [{"index": k, "x": f"{x:.1f}", "y": f"{y:.1f}"} for k, (x, y) in enumerate(xy)],
                "free": free, "coloured": coloured, "last": last_drawn, "triangles": triangles,
                "caption": self.caption(obs), "caption_y": height - 12, "to_move": obs.get("to_move"),
                "result": obs.get("result")}

    def seat_stats(self, observation, seat: str) -> list:
        """Whether the seat is still in (or, once over, its return), its edges and their line pattern."""
        obs = observation or {}
        status = "out" if seat in (obs.get("out") or []) else "in"
        stats = [("Status", status)]
        if obs.get("result"):
            stats.append(("Return", f"{obs['result']['returns'].get(seat, 0):.3g}"))
        edges = sum(1 for e in obs.get("edges") or [] if e[2] == seat)
        return stats + [("Edges", edges), ("Lines", PATTERN.get(seat, ""))]

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        i, j = self.game.action_from_json(action, seat)
        return [{"key": f"edge:{i},{j}", "label": f"Edge {_edge_text(i, j)}"}]

    def action_group(self, seat: str, action, observation=None) -> str:
        return f"From node {self.game.action_from_json(action, seat)[0]}"

    # --- the lobby ---------------------------------------------------------------------------------
    def params(self) -> list[Param]:
        return [Param("nodes", "Nodes", 6, minimum=NODES[0], maximum=NODES[1],
                      help="The board is the complete graph on this many nodes"),
                Param("players", "Players", 2, choices=((2, "2 (Black, White)"), (3, "3 (Black, White, Blue)"))),
                Param("coalition", "Coalition", "none",
                      choices=(("none", "None: everyone for themselves"),
                               ("1-2", "White and Blue against Black (3 players only)")),
                      help="With 3 players, White and Blue may share their result")]


def _band(x1: float, y1: float, x2: float, y2: float, half: float = 15.0) -> str:
    """The points of a band ``2 * half`` wide along a segment: an edge's click target with a real area (a
    line's box is flat when it is level, so some browsers' hit tests and automation would miss it)."""
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    nx, ny = -dy / length * half, dx / length * half
    corners = [(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)]
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)
