"""Cyclotron knowledge for the bots (the generic greedy and alpha-beta bots call these). Pure Python over the
engine's tables and the state's fields (``board``, ``pos``, ``to_move``, ``key``, ``_legal``).

* ``evaluate(state, seat) -> float``: static value for ``seat`` ("white"/"black" or 0/1), zero-sum; terminal
  positions ``+WIN``/``-WIN``; other values stay within a few thousand (well inside ``WIN - 1000``).
* ``position_key(state)``: the position as one int (pieces and side to move). It leaves out the set of
  positions seen, on which the legal moves also depend, so a transposition table keyed by it is slightly
  inexact; accepted.
* ``order_actions(state, seat, actions) -> list``: goal moves first, then captures (the most valuable victim
  first), then the rest by progress towards the goal square.
* ``score_actions(state, seat, actions, greedy=False) -> list[float]``: each action's value after it
  (applied to a clone), for bots that score moves one at a time.

The evaluation, per piece (White's view minus Black's): a base value; a large bonus when no opposing piece
can ever capture it (the seed's insight: trade your Rock for their Scissors and your Paper rampages safely);
a small one while its prey is on the board; progress towards the goal square (any piece reaching it wins),
weighted far more for such a safe piece. Then the next move's tactics: the side to move collects most of the
best piece it can capture now and is penalised for a second attacked piece (it can save only one), and
immediate goal threats count heavily (the side to move wins at once with one; two threats of the side not to
move can seldom both be stopped).
"""
from __future__ import annotations

from .rules import GOAL, INFO, N, NEIGHBOURS, OWN, PREY, SQUARES, VIA

WIN = 100000.0
SEAT_INDEX = {"white": 0, "black": 1}

PIECE = 100.0  # a piece on the board
SAFE = 120.0  # ... that no opposing piece can capture (its predator is gone)
HUNTER = 15.0  # ... whose prey is still on the board
ADVANCE = 4.0  # per step closer to the goal square
ADVANCE_SAFE = 14.0  # the same for a safe piece
CAPTURE_NOW = 0.7  # share of the best piece the side to move can capture now
SECOND_ATTACKED = 0.6  # share of the side to move's second most valuable attacked piece
WIN_NOW = 20000.0  # the side to move can reach the goal square now
GOAL_THREAT = 250.0  # the side not to move threatens to reach the goal square (one threat)
GOAL_THREATS = 3000.0  # ... with two or more pieces
MAX_DIST = 10.0  # the longest distance on the 6x6 board

DIST = tuple(tuple(abs(SQUARES[a][0] - SQUARES[b][0]) + abs(SQUARES[a][1] - SQUARES[b][1]) for b in range(N))
             for a in range(N))
PREDATOR = tuple(next(d for d in range(6) if PREY[d] == c) for c in range(6))  # the opposing piece that takes c


def position_key(state):
    """The position (pieces and side to move) as one int; see the module docstring."""
    return state.key


def _piece_values(pos) -> list[float]:
    """Each piece's static value (0 if captured): base, safety, prey alive (see the module docstring)."""
    values = [0.0] * 6
    for c in range(6):
        if pos[c] >= 0:
            v = PIECE
            if pos[PREDATOR[c]] < 0:
                v += SAFE
            if pos[PREY[c]] >= 0:
                v += HUNTER
            values[c] = v
    return values


def _threats(board, pos, x: int) -> tuple[list[int], int]:
    """The opposing pieces side ``x`` could capture if it moved now, and how many of its pieces could reach
    the goal square then (ignoring the no-repetition rule, which never forbids a capture or a goal move)."""
    goal = GOAL[x]
    victims = []
    goal_threats = 0
    g = board[goal]
    for c in OWN[x]:
        s = pos[c]
        if s < 0:
            continue
        prey = PREY[c]
        q = pos[prey]
        if q >= 0:
            if q in NEIGHBOURS[s]:
                victims.append(prey)
            else:
                for n, _ in VIA[s * N + q]:
                    if board[n] < 0 and n != goal:
                        victims.append(prey)
                        break
        if goal in NEIGHBOURS[s]:
            if g < 0 or g == prey:
                goal_threats += 1
        elif g == prey and DIST[s][goal] == 2:
            if any(board[n] < 0 for n, _ in VIA[s * N + goal]):
                goal_threats += 1
    return victims, goal_threats


def _score(state) -> float:
    """The evaluation from White's point of view (non-terminal positions)."""
    pos, board, mover = state.pos, state.board, state.to_move
    values = _piece_values(pos)
    score = 0.0
    for x in (0, 1):
        goal = GOAL[x]
        side = 0.0
        for c in OWN[x]:
            s = pos[c]
            if s < 0:
                continue
            safe = pos[PREDATOR[c]] < 0
            side += values[c] + (MAX_DIST - DIST[s][goal]) * (ADVANCE_SAFE if safe else ADVANCE)
        score += side if x == 0 else -side
    # Tactics of the next move.
    other = 1 - mover
    victims, wins = _threats(board, pos, mover)
    their_victims, their_wins = _threats(board, pos, other)
    tactics = 0.0
    if wins:
        tactics += WIN_NOW
    else:
        if victims:
            tactics += CAPTURE_NOW * max(values[v] for v in victims)
        if len(their_victims) > 1:  # (each piece has one prey: the victims are distinct)
            tactics -= SECOND_ATTACKED * sorted((values[v] for v in their_victims), reverse=True)[1]
        if their_wins:
            tactics -= GOAL_THREATS if their_wins > 1 else GOAL_THREAT
    return score + tactics if mover == 0 else score - tactics


def evaluate(state, seat) -> float:
    """Static value of ``state`` for ``seat`` (zero-sum); ``±WIN`` once the game is over."""
    p = SEAT_INDEX[seat] if isinstance(seat, str) else seat
    res = state.result()
    if res is not None:
        return WIN if SEAT_INDEX[res.winner] == p else -WIN
    v = _score(state)
    return v if p == 0 else -v


def order_actions(state, seat, actions) -> list:
    """``actions`` most promising first: goal moves, captures (most valuable victim first), then by progress
    towards the goal square; ties keep their order."""
    board = state.board
    p = SEAT_INDEX[seat] if isinstance(seat, str) else seat
    goal = GOAL[p]
    values = _piece_values(state.pos)
    dist = DIST
    keyed = []
    for k, a in enumerate(actions):
        s, n, m = INFO.get(a) or INFO[tuple(tuple(sq) for sq in a)]
        d = n if m < 0 else m
        if d == goal:
            score = 1e6
        elif board[d] >= 0:
            score = 1e4 + values[board[d]]
        else:
            score = dist[s][goal] - dist[d][goal]
        keyed.append((-score, k, a))
    keyed.sort(key=lambda t: (t[0], t[1]))
    return [a for _, _, a in keyed]


def score_actions(state, seat, actions, greedy: bool = False) -> list[float]:
    """Each action's value for ``seat`` after it is played (on a clone): the greedy score."""
    out = []
    for a in actions:
        child = state.clone()
        child.apply_action(seat if isinstance(seat, str) else ("white", "black")[seat], a)
        out.append(evaluate(child, seat))
    return out


ANALYSIS_SCALE = 250.0  # an evaluation this far ahead is a value of about 0.76 in the replay's analysis


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): alpha-beta on ``evaluate`` for the seat to act within
    ``seconds``, its move beside the one played and the search's value, ``tanh(score / ANALYSIS_SCALE)``."""
    from games.bots.looks import alphabeta_look
    from games.bots.review import review

    look = alphabeta_look(state.game, 0.05 if seconds is None else seconds, ANALYSIS_SCALE)
    return review(state.game, state, look, actual)
