"""Tic-tac-toe knowledge for the bots, and the ``perfect`` bot.

* ``evaluate(state, seat)``: ``±WIN`` once won, 0 for a draw; otherwise the next move's tactics (the side to
  move can complete a line; the other side has two open threats, so one will be completed) and else the lines
  still open to each side, weighted by the marks in them. Used by the generic ``greedy`` and ``strong``.
* ``position_key(state)``, ``order_actions(state, seat, actions)``: for the generic alpha-beta.
* ``solve(me, opp)``: the game-theoretic value of a position for the side to move, by full minimax memoised
  over every reachable position (5478 of them): ``1 + empty cells`` for a win (sooner is better),
  ``-(1 + empty cells)`` for a loss, 0 for a draw.
* ``BOTS = {"perfect": PerfectBot}``: plays a move of the best value, ties broken by its seeded RNG.
"""
from __future__ import annotations

from games.bots.base import Bot

from .rules import FULL, LINE_MASKS, SEAT_INDEX

WIN = 100000.0
WIN_NOW = 10000.0  # the side to move completes a line next
FORK = 9000.0  # the side not to move threatens two cells: the side to move can block only one
OPEN = (0.0, 1.0, 4.0)  # a line holding only one side's marks, by how many (0, 1 or 2)
ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)  # centre, corners, edges

_VALUES: dict[tuple[int, int], int] = {}


def _seat(seat) -> int:
    return SEAT_INDEX[seat] if isinstance(seat, str) else seat


def _threats(me: int, opp: int) -> int:
    """The empty cells that would complete a line of ``me``'s."""
    cells = 0
    for m in LINE_MASKS:
        if not m & opp and (m & me).bit_count() == 2:
            cells |= m & ~me
    return cells


def evaluate(state, seat) -> float:
    p = _seat(seat)
    res = state.result()
    if res is not None:
        if res.winner is None:
            return 0.0
        return WIN if SEAT_INDEX[res.winner] == p else -WIN
    mover = state.to_move()
    me, opp = state.bits[mover], state.bits[1 - mover]
    if _threats(me, opp):
        value = WIN_NOW
    elif _threats(opp, me).bit_count() > 1:
        value = -FORK
    else:
        value = 0.0
        for m in LINE_MASKS:
            if not m & opp:
                value += OPEN[(m & me).bit_count()]
            elif not m & me:
                value -= OPEN[(m & opp).bit_count()]
    return value if mover == p else -value


def position_key(state) -> int:
    """X's marks and O's in one int (the side to move follows from the counts)."""
    return state.bits[0] | state.bits[1] << 9


def order_actions(state, seat, actions) -> list:
    """Winning cells, then blocking cells, then centre, corners, edges."""
    p = _seat(seat)
    me, opp = state.bits[p], state.bits[1 - p]
    win, block = _threats(me, opp), _threats(opp, me)
    return sorted(actions, key=lambda a: (not win >> a & 1, not block >> a & 1, ORDER.index(a)))


def solve(me: int, opp: int) -> int:
    """The value for the side to move with marks ``me`` against ``opp`` (who moved last); see above."""
    key = (me, opp)
    value = _VALUES.get(key)
    if value is None:
        empty = FULL & ~(me | opp)
        if any(opp & m == m for m in LINE_MASKS):
            value = -(1 + empty.bit_count())
        elif not empty:
            value = 0
        else:
            value = max(-solve(opp, me | 1 << i) for i in range(9) if empty >> i & 1)
        _VALUES[key] = value
    return value


class PerfectBot(Bot):
    """Plays as the game is solved: a move of the best minimax value (quickest win, slowest loss)."""

    level = "perfect"

    def choose(self, state):
        actions = state.legal_actions(self.seat)
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        p = SEAT_INDEX[self.seat]
        me, opp = state.bits[p], state.bits[1 - p]
        values = [-solve(opp, me | 1 << a) for a in actions]
        best = max(values)
        ties = [a for a, v in zip(actions, values) if v == best]
        return ties[self.rng.randrange(len(ties))]


BOTS = {"perfect": PerfectBot}


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the solved game. Values 1 won, 0 drawn, -1 lost under perfect
    play; the best move the quickest win (slowest loss), centre, corners, edges on ties."""
    from games.bots.review import Look, review, zero_sum

    game = state.game

    def look(s, best: bool) -> Look:
        p = s.to_move()
        me, opp = s.bits[p], s.bits[1 - p]
        value = solve(me, opp)
        move = None
        if best:
            move = max(s.legal_actions(game.info.players[p]), key=lambda a: (-solve(opp, me | 1 << a), -ORDER.index(a)))
        v = float((value > 0) - (value < 0))
        return Look(zero_sum(game, game.info.players[p], v), move, after=v)
    return review(game, state, look, actual)
