"""Sim as in GBG (rules: ``docs/games/sim.md``): the board is the complete graph on ``nodes`` nodes; the seats
(``black``, ``white`` and, with three players, ``blue``) take turns, Black first, each colouring one uncoloured
edge in its colour. Completing a triangle of one's own colour loses: with two players the other wins; with
three the loser drops out (its edges stay) and the others go on in the same order until a second one loses
(the last one in wins) or no edge is left (the players still in share 1 equally). With ``coalition`` "1-2"
White and Blue share their result: each gets the mean of their two returns. With three players a seat may
resign (``resign``): it drops out as if it had completed a triangle (its edges stay) and the others go on.

An action is an edge ``(i, j)``, ``0 <= i < j < nodes``. JSON ``[i, j]``; text ``i-j``. Inside, edge ``(i, j)``
is bit ``e`` of a mask (``Tables.edges[e]``), each seat's colour one mask; ``Tables.pairs[e]`` are the masks of
the two other edges of each triangle through ``e``, so a move on ``e`` completes an own triangle exactly when
one of them lies wholly in the mover's mask.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from games.engine.api import RESIGN, Game, GameInfo, IllegalAction, Result, Turn
from games.engine.sequential import SequentialState

SEATS = ("black", "white", "blue")

_TEXT_ACTION = re.compile(r"\s*\[?\s*(\d+)\s*(?:-|,|\s)\s*(\d+)\s*\]?\s*")


class Tables(NamedTuple):
    edges: tuple  # edge index -> (i, j), i < j, in order
    index: dict  # (i, j) -> edge index
    pairs: tuple  # edge index -> ((mask of the other two edges, third node), ...) per triangle through it
    triangles: tuple  # ((a, b, c), mask of its three edges), a < b < c


@lru_cache(maxsize=None)
def tables(nodes: int) -> Tables:
    edges = tuple((i, j) for i in range(nodes) for j in range(i + 1, nodes))
    index = {e: k for k, e in enumerate(edges)}

    def bit(a, b):
        return 1 << index[(min(a, b), max(a, b))]

    pairs = tuple(tuple((bit(i, k) | bit(j, k), k) for k in range(nodes) if k not in (i, j)) for i, j in edges)
    triangles = tuple(((a, b, c), bit(a, b) | bit(a, c) | bit(b, c)) for a in range(nodes)
                      for b in range(a + 1, nodes) for c in range(b + 1, nodes))
    return Tables(edges, index, pairs, triangles)


def completes(mask: int, pairs) -> list[int]:
    """The third nodes of the triangles an edge (with triangle ``pairs``) completes in colour ``mask``."""
    return [k for m, k in pairs if mask & m == m]


def final_returns(players: int, alive, coalition: str) -> tuple[float, ...]:
    """Each seat's return when the seats ``alive`` (indices) are still in at the end: they share 1 equally, the
    others get 0; with coalition "1-2" seats 1 and 2 then each get the mean of their two returns."""
    share = 1.0 / len(alive)
    returns = [share if p in alive else 0.0 for p in range(players)]
    if coalition == "1-2":
        returns[1] = returns[2] = (returns[1] + returns[2]) / 2
    return tuple(returns)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Sim(Game):
    """Sim with the given (validated) parameters; ``make_game`` builds it."""

    def __init__(self, nodes: int, players: int, coalition: str):
        self.params = {"nodes": nodes, "players": players, "coalition": coalition}
        self.nodes, self.coalition = nodes, coalition
        self.tables = tables(nodes)
        self.full = (1 << len(self.tables.edges)) - 1
        self.info = GameInfo(name="sim", title="Sim", players=SEATS[:players], simultaneous=False,
                             max_turns=len(self.tables.edges))

    def outcome(self, alive) -> Result:
        """The result when the seats ``alive`` (indices) are still in at the end."""
        seats = self.info.players
        values = final_returns(len(seats), alive, self.coalition)
        returns = dict(zip(seats, values))
        best = max(values)
        top = [s for s, v in returns.items() if v == best]
        if len(set(values)) == 1:
            text = "draw"
        elif self.coalition == "1-2":
            text = {1.0: "winner: black", 0.0: "winners: white and blue (coalition)"}.get(
                returns["black"], "tie: black and the white-blue coalition")
        elif len(alive) == 1:
            text = f"winner: {seats[alive[0]]}"
        else:
            text = "tie: " + ", ".join(seats[p] for p in alive)
        return Result(text, top[0] if len(top) == 1 else None, returns)

    def parse_edge(self, player, data) -> tuple[int, int]:
        """Any value to an edge ``(i, j)`` of this board, or IllegalAction "malformed action"."""
        if (isinstance(data, (list, tuple)) and len(data) == 2 and _is_int(data[0]) and _is_int(data[1])
                and 0 <= data[0] < data[1] < self.nodes):
            return self.tables.edges[self.tables.index[(data[0], data[1])]]
        raise IllegalAction(player, data, f"malformed action: expected an edge [i, j], node numbers with "
                                          f"0 <= i < j < {self.nodes}")

    def new_initial_state(self) -> "SimState":
        return SimState(self, [0] * len(self.info.players), [], 0, 0)

    def action_to_json(self, action):
        return [action[0], action[1]]

    def action_from_json(self, data, player=None):
        return self.parse_edge(player, data)

    def action_to_text(self, action) -> str:
        return f"{action[0]}-{action[1]}"

    def action_from_text(self, text, player=None):
        """``i-j``; also reads ``i,j``, ``i j`` and ``[i, j]``."""
        match = _TEXT_ACTION.fullmatch(text) if isinstance(text, str) else None
        if not match:
            raise IllegalAction(player, text, "malformed action: expected 'i-j', e.g. '0-3'")
        return self.parse_edge(player, (int(match[1]), int(match[2])))

    def state_from_json(self, data) -> "SimState":
        """A state from ``to_json`` output; ValueError unless it is consistent (see the docs for what is
        checked: not that each seat's number of edges fits the turn order)."""
        seats = self.info.players
        try:
            turn, edges, out = data["turn"], data["edges"], data["out"]
            resigned = data.get("resigned", [])
            if not isinstance(resigned, list) or not set(resigned) <= set(out) or len(set(resigned)) != len(resigned):
                raise ValueError(f"resigned must list seats out, each once, got {resigned!r}")
            if data["nodes"] != self.nodes:
                raise ValueError(f"nodes must be {self.nodes}")
            if not isinstance(edges, list) or not _is_int(turn) or turn != len(edges):
                raise ValueError("turn must be the number of coloured edges")
            masks = [0] * len(seats)
            for entry in edges:
                i, j, seat = entry
                bit = 1 << self.tables.index[self.parse_edge(None, (i, j))]
                if any(m & bit for m in masks):
                    raise ValueError(f"edge {i}-{j} appears twice")
                masks[seats.index(seat)] |= bit
            if not isinstance(out, list) or len(set(out)) != len(out) or len(out) >= len(seats):
                raise ValueError(f"out must list distinct seats, fewer than all, got {out!r}")
            out_idx = [seats.index(s) for s in out]
            gave_up = [seats.index(s) for s in resigned]
            for p, mask in enumerate(masks):
                if any(mask & m == m for _, m in self.tables.triangles) != (p in out_idx and p not in gave_up):
                    raise ValueError(f"{seats[p]} has a triangle of its colour exactly when it is out (not resigned)")
            to_move = data["to_move"]
            mover = seats.index(to_move) if to_move is not None else 0
            state = SimState(self, masks, out_idx, mover, turn, gave_up)
            if state.is_terminal() != (to_move is None) or (to_move is not None and mover in out_idx):
                raise ValueError("to_move must name a seat still in while the game goes on, else be null")
            if data["result"] != state.to_json()["result"] or ("resigned" in data) != bool(resigned):
                raise ValueError("the result does not match the position")
        except (KeyError, TypeError, AttributeError, IndexError, IllegalAction) as exc:
            raise ValueError(f"not a Sim state: {exc!r}") from None
        return state


class SimState(SequentialState):
    """A position: one edge mask per seat, the seats out (in the order they lost or resigned) and those of them
    that resigned, the seat to move, the turn."""

    __slots__ = ("game", "masks", "out", "resigned", "to_move", "turn", "_result")

    def __init__(self, game: Sim, masks: list[int], out: list[int], to_move: int, turn: int,
                 resigned: list[int] | None = None):
        self.game, self.masks, self.out, self.to_move, self.turn = game, masks, out, to_move, turn
        self.resigned = resigned or []
        self._result = None
        alive = self.alive()
        if len(alive) == 1 or not self.free():
            self._result = game.outcome(alive)

    def clone(self) -> "SimState":
        c = SimState.__new__(SimState)
        c.game, c.masks, c.out, c.to_move, c.turn, c._result = (self.game, self.masks[:], self.out[:],
                                                                self.to_move, self.turn, self._result)
        c.resigned = self.resigned[:]
        return c

    def alive(self) -> list[int]:
        """Indices of the seats still in."""
        return [p for p in range(len(self.masks)) if p not in self.out]

    def free(self) -> int:
        """The mask of the uncoloured edges."""
        used = 0
        for m in self.masks:
            used |= m
        return self.game.full & ~used

    def triangles(self) -> list[tuple[str, tuple[int, int, int]]]:
        """(seat, nodes) of every triangle in the colour of a seat that is out: the ones it lost by."""
        seats = self.game.info.players
        return [(seats[p], t) for p in self.out if p not in self.resigned
                for t, m in self.game.tables.triangles if self.masks[p] & m == m]

    # --- status -------------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        return [] if self._result is not None else [self.game.info.players[self.to_move]]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str) -> list:
        if self._result is not None or player != self.game.info.players[self.to_move]:
            return []
        free, edges = self.free(), self.game.tables.edges
        return [edges[e] for e in range(len(edges)) if free >> e & 1]

    def check_action(self, player: str, action) -> None:
        self._validate(player, action)

    def _validate(self, player, action) -> int:
        """The edge index of ``action`` if ``player`` may colour it now; IllegalAction naming the rule if not."""
        seats = self.game.info.players
        if player not in seats:
            raise IllegalAction(player, action, f"unknown player (expected one of {', '.join(seats)})")
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        if seats.index(player) in self.resigned:
            raise IllegalAction(player, action, f"{player} is out (resigned)")
        if seats.index(player) in self.out:
            raise IllegalAction(player, action, f"{player} is out (completed a triangle of its colour)")
        if player != seats[self.to_move]:
            raise IllegalAction(player, action, f"it is {seats[self.to_move]}'s turn")
        i, j = self.game.parse_edge(player, action)
        e = self.game.tables.index[(i, j)]
        for p, mask in enumerate(self.masks):
            if mask >> e & 1:
                raise IllegalAction(player, action, f"edge {i}-{j} is already coloured ({seats[p]})")
        return e

    def _apply_move(self, seat: str, action) -> Turn:
        """Colour the edge ``action``, ``(i, j)``, for ``seat`` (to move)."""
        e = self._validate(seat, action)
        p, (i, j) = self.to_move, self.game.tables.edges[e]
        events = [{"triangle": sorted((i, j, k)), "seat": seat}
                  for k in completes(self.masks[p], self.game.tables.pairs[e])]
        self.masks[p] |= 1 << e
        self.turn += 1
        if events:
            self.out.append(p)
            events.append({"out": seat})
        alive = self.alive()
        if len(alive) == 1 or not self.free():
            if len(alive) > 1:
                events.append({"no_edge_left": True})
            self._result = self.game.outcome(alive)
        else:
            self.to_move = self._next_in(p)
        return Turn(self.turn, {seat: (i, j)}, events)

    def _next_in(self, p: int) -> int:
        """The first seat after ``p`` still in."""
        n = len(self.masks)
        return next(q % n for q in range(p + 1, p + n + 1) if q % n not in self.out)

    # --- resigning ----------------------------------------------------------------------------------
    def can_drop_out(self, player: str) -> bool:
        """With three players, a seat still in may resign; with two, resigning ends the game (the default)."""
        seats = self.game.info.players
        return len(seats) == 3 and self._result is None and player in seats and seats.index(player) not in self.out

    def resign(self, player: str) -> Turn:
        """``player`` drops out as if it had completed a triangle (rule 4): its edges stay, the turn passes on if
        it was to move, and if one seat is left in it wins. A resignation colours no edge: ``turn`` stays."""
        if not (isinstance(player, str) and self.can_drop_out(player)):
            raise IllegalAction(player, RESIGN, "only a seat still in a game of three players can resign")
        p = self.game.info.players.index(player)
        self.out.append(p)
        self.resigned.append(p)
        if self.to_move == p:
            self.to_move = self._next_in(p)
        alive = self.alive()
        if len(alive) == 1:
            self._result = self.game.outcome(alive)
        return Turn(self.turn, {RESIGN: player}, [{"resigned": player}, {"out": player}])

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """``{"turn": moves played, "to_move": seat or null once over, "nodes": n, "edges": [[i, j, seat], ...]
        (the coloured edges in (i, j) order), "out": [seats out, in the order they lost], "triangles":
        [{"seat": s, "nodes": [a, b, c]}, ...] (the triangles the seats out lost by), "result": Result.to_json()
        or null}``, and ``"resigned": [seats out by resigning]`` once a seat has."""
        seats = self.game.info.players
        over = self._result is not None
        edges = [[i, j, seats[p]] for e, (i, j) in enumerate(self.game.tables.edges)
                 for p, m in enumerate(self.masks) if m >> e & 1]
        data = {"turn": self.turn, "to_move": None if over else seats[self.to_move], "nodes": self.game.nodes,
                "edges": edges, "out": [seats[p] for p in self.out],
                "triangles": [{"seat": s, "nodes": list(t)} for s, t in self.triangles()],
                "result": self._result.to_json() if over else None}
        if self.resigned:
            data["resigned"] = [seats[p] for p in self.resigned]
        return data

    def to_text(self) -> str:
        """The adjacency matrix: ``B``/``W``/``U`` (blue) an edge of that colour, ``.`` an uncoloured edge."""
        seats = self.game.info.players
        status = self._result.text if self._result is not None else f"{seats[self.to_move]} to move"
        n, index = self.game.nodes, self.game.tables.index
        lines = [f"turn {self.turn}: {status}" + (f" (out: {', '.join(seats[p] for p in self.out)})"
                                                   if self.out else ""),
                 "   " + " ".join(str(c % 10) for c in range(n))]
        for r in range(n):
            cells = []
            for c in range(n):
                if r == c:
                    cells.append(" ")
                    continue
                e = index[(min(r, c), max(r, c))]
                cells.append(next(("BWU"[p] for p, m in enumerate(self.masks) if m >> e & 1), "."))
            lines.append(f"{r:>2} " + " ".join(cells))
        return "\n".join(lines)
