"""Expendibots knowledge for the bots: a static evaluation, a position key and move ordering. Pure Python over
the engine's stable tables (``NEAR``, ``INDEX``, ``SQUARES``) and the state's stable fields (``board``: 64
signed counts, positive White, index ``8 * y + x``; ``tokens``; ``turn``; ``key``; ``result()``).

The interface (what :mod:`games.bots.greedy` and :mod:`games.bots.alphabeta` use):

* ``evaluate(state, seat) -> float``: static value for ``seat``, zero-sum (``evaluate(s, "white") ==
  -evaluate(s, "black")``); a finished game scores ``+WIN`` (won), ``-WIN`` (lost) or 0 (drawn); any other
  position stays within a few thousand.
* ``position_key(state)``: an int, the stacks and the side to move (what the repetition rule compares).
* ``order_actions(state, seat, actions) -> list``: the actions, most promising first.

The one fact the evaluation is built on: a boom explodes exactly the *cluster* of its stack, the set of
stacks connected to it through 3x3 neighbourhoods (colours do not matter). So per cluster, with ``w`` White
and ``b`` Black tokens in it, White can win ``b - w`` tokens by booming it (if it holds a White stack) and
Black ``w - b`` (if it holds a Black stack). Terms, from White's side (Black's are subtracted):

- material: 100 per token (dominant), plus a small bonus for the material *ratio*, so that a side ahead
  welcomes even trades;
- threats: the side to move can cash its best cluster now (0.9 of the gain), the other side's best threat
  counts 0.4 (the mover may dodge it) and its second, in another cluster, 0.2 (a fork is hard to dodge);
  a boom that would leave the opponent with no tokens (and the booming side with some) is worth more;
- mobility: per stack, the squares it can reach (a taller stack reaches further, but fewer stacks are
  fewer targets to spread threats with);
- advance: per stack, rows gained towards the opponent's side (up to four), so that play makes progress.
"""
from __future__ import annotations

from .rules import NEAR, RAYS, SIDE_BIT

SEATS = ("white", "black")
SEAT_INDEX = {"white": 0, "black": 1}

# --- weights ---------------------------------------------------------------------------------------------
WIN = 100000.0
TOKEN = 100.0  # a token on the board
RATIO = 400.0  # times (w - b) / (w + b): a lead is worth more as the board empties (trades when ahead)
CASH = 0.9  # the side to move: share of its best boom's net gain
THREAT = 0.4  # the side not to move: share of its best boom's net gain
FORK = 0.2  # ... and of its second best, in another cluster
WIPE_NOW = 3000.0  # the side to move can boom the opponent's last tokens away (and keep some)
WIPE_THREAT = 600.0  # the side not to move could
MOBILITY = 1.5  # per reachable square (moves of the whole stack, enemy squares excluded)
ADVANCE = 3.0  # per stack, per row advanced (at most ADVANCE_ROWS)
ADVANCE_ROWS = 4
ROW = tuple(i // 8 for i in range(64))
ADV = (tuple(min(ROW[i], ADVANCE_ROWS) for i in range(64)),  # White advances up the board
       tuple(min(7 - ROW[i], ADVANCE_ROWS) for i in range(64)))  # Black down


def position_key(state) -> int:
    """The position as the repetition rule sees it: the stacks and the side to move (one int)."""
    return state.key | SIDE_BIT if state.turn & 1 else state.key


def clusters(board) -> list[tuple[int, int, list[int]]]:
    """The board's clusters (stacks connected through 3x3 neighbourhoods, what one boom explodes), as
    (White tokens, Black tokens, squares)."""
    occ = [i for i in range(64) if board[i]]
    left = set(occ)
    out = []
    for i in occ:
        if i not in left:
            continue
        left.discard(i)
        group = [i]
        w = b = 0
        for q in group:
            v = board[q]
            if v > 0:
                w += v
            else:
                b -= v
            for r in NEAR[q]:
                if r in left:
                    left.discard(r)
                    group.append(r)
        out.append((w, b, group))
    return out


def _best_two(gains: list) -> tuple[float, float]:
    g1 = g2 = 0.0
    for g in gains:
        if g > g1:
            g1, g2 = g, g1
        elif g > g2:
            g2 = g
    return g1, g2


def evaluate(state, seat) -> float:
    """Static value of ``state`` for ``seat`` (``"white"``/``"black"`` or 0/1); zero-sum."""
    p = SEAT_INDEX[seat] if isinstance(seat, str) else seat
    res = state.result()
    if res is not None:
        if res.winner is None:
            return 0.0
        return WIN if SEAT_INDEX[res.winner] == p else -WIN
    board = state.board
    w, b = state.tokens
    score = (w - b) * TOKEN + RATIO * (w - b) / (w + b)
    gains_w = []
    gains_b = []
    wipe_w = wipe_b = False
    for cw, cb, group in clusters(board):
        if cw and cb:  # a cluster of one colour gains nobody anything; one of both, either side can boom
            gains_w.append(cb - cw)
            gains_b.append(cw - cb)
            if cb == b and cw < w:
                wipe_w = True
            if cw == w and cb < b:
                wipe_b = True
    if gains_w or gains_b:
        bw1, bw2 = _best_two(gains_w)
        bb1, bb2 = _best_two(gains_b)
        if state.turn & 1 == 0:  # White to move
            score += CASH * bw1 * TOKEN - (THREAT * bb1 + FORK * bb2) * TOKEN
            score += WIPE_NOW * wipe_w - WIPE_THREAT * wipe_b
        else:
            score += (THREAT * bw1 + FORK * bw2) * TOKEN - CASH * bb1 * TOKEN
            score += WIPE_THREAT * wipe_w - WIPE_NOW * wipe_b
    # Mobility and advance, per stack.
    adv_w, adv_b = ADV
    pos = 0.0
    for i in range(64):
        v = board[i]
        if not v:
            continue
        if v > 0:
            reach = 0
            for ray in RAYS[i]:
                for j, _ in ray[:v]:
                    if board[j] >= 0:
                        reach += 1
            pos += MOBILITY * reach + ADVANCE * adv_w[i]
        else:
            n = -v
            reach = 0
            for ray in RAYS[i]:
                for j, _ in ray[:n]:
                    if board[j] <= 0:
                        reach += 1
            pos -= MOBILITY * reach + ADVANCE * adv_b[i]
    score += pos
    return score if p == 0 else -score


def _distances(sources: list[int]) -> list[int]:
    """Per square, the king-move (Chebyshev) distance to the nearest of ``sources``."""
    dist = [99] * 64
    frontier = list(sources)
    for q in frontier:
        dist[q] = 0
    d = 0
    while frontier:
        d += 1
        nxt = []
        for q in frontier:
            for r in NEAR[q]:
                if dist[r] == 99:
                    dist[r] = d
                    nxt.append(r)
        frontier = nxt
    return dist


def order_actions(state, seat, actions) -> list:
    """``actions`` of ``seat``, most promising first: booms that win material (the most first; one that wipes
    the opponent out before all), then moves (escapes of threatened stacks, moves next to enemy stacks
    that risk few tokens, moves towards the nearest enemy), then booms that lose material."""
    p = SEAT_INDEX[seat] if isinstance(seat, str) else seat
    s = 1 if p == 0 else -1
    board = state.board
    mine, theirs = (state.tokens[0], state.tokens[1]) if p == 0 else (state.tokens[1], state.tokens[0])
    gain = {}  # square -> my net gain from booming its cluster
    danger = {}  # square of my stack -> the opponent's net gain from booming its cluster (if positive)
    enemies = []
    for cw, cb, group in clusters(board):
        own, opp = (cw, cb) if p == 0 else (cb, cw)
        g = opp - own
        if own and opp and opp == theirs and own < mine:
            g = 1000  # wipes the opponent out
        for q in group:
            gain[q] = g
            if board[q] * s > 0:
                if own and opp and -g > 0:
                    danger[q] = -g
            else:
                enemies.append(q)
    dist = _distances(enemies) if enemies else None
    scored = []
    for k, a in enumerate(actions):
        if a[0] == "BOOM":
            x, y = a[1]
            g = gain.get(8 * y + x, 0)
            sc = 100000 + g * 100 if g > 0 else -100000 + g * 100
        else:
            n = a[1]
            (ax, ay), (bx, by) = a[2], a[3]
            i, j = 8 * ay + ax, 8 * by + bx
            sc = 0.0
            d = danger.get(i)
            if d:
                sc += d * (60 if n == abs(board[i]) else 20)  # lifting the whole stack out of the blast
            near_enemy = 0
            for r in NEAR[j]:
                v = board[r] * s
                if v < 0 and r != i:
                    near_enemy -= v
            if near_enemy:
                sc += 30 * (near_enemy - n)  # an attack: worth the enemy tokens at risk minus mine
            if dist is not None:
                sc += 5 * (dist[i] - dist[j]) - n * 0.5
        scored.append((-sc, k, a))
    scored.sort()
    return [a for _, _, a in scored]


ANALYSIS_SCALE = 600.0  # an evaluation this far ahead is a value of about 0.76 in the replay's analysis


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): alpha-beta on ``evaluate`` for the seat to act within
    ``seconds``, its move beside the one played and the search's value, ``tanh(score / ANALYSIS_SCALE)``."""
    from games.bots.looks import alphabeta_look
    from games.bots.review import review

    look = alphabeta_look(state.game, 0.05 if seconds is None else seconds, ANALYSIS_SCALE)
    return review(state.game, state, look, actual)
