"""RoPaSci 360 knowledge for the bots: a fast one-sided move simulator, a static evaluation, and candidate
actions for search. Pure Python over the engine's stable tables (``HEXES``, ``INDEX``, ``NEIGHBOURS``,
``NMASK``) and the state's stable fields (``occ``, ``sym``, ``cnt``, ``symcount``, ``thrown``, ``turn``).

The evaluation module interface (what :mod:`games.bots.greedy` and :mod:`games.bots.strong` use, so a later
game plugs in its own module with the same functions):

* ``evaluate(state, seat) -> float``: static value for ``seat`` (zero-sum: ``evaluate(s, a) == -evaluate(s, b)``);
  terminal states score ``±WIN`` (a win sooner scores higher), draws 0.
* ``value(state, seat) -> float``: the same squashed to about -1..1 (a win just over 1), what search averages.
* ``score_actions(state, seat, actions) -> list[float]``: each action's value for ``seat`` if it alone moved
  (the opponent's action ignored), i.e. the greedy score.
* ``candidates(state, seat, scores=None) -> list[action]``: every legal action, most promising first, with
  tactical actions (captures, escapes of attacked tokens, the best throw of each symbol) promoted to the front.
* ``position_key(state)``: a hashable key of the configuration, as the repetition rule compares them.
* ``matrix_values(state, seat, rows, cols, seen, ...)`` (optional): a fast filler of the strong bot's payoff
  matrix, or None (then the bot computes each entry itself); here the C core of :mod:`.matrix`.
* ``analyse(state, seconds, *, seen, actual)``: the strong bot's equilibrium at a position, for the replay's
  analysis (see ``docs/bots.md``).

Symbols are coded 0 rock, 1 paper, 2 scissors: code ``c`` beats ``(c + 2) % 3`` and is beaten by ``(c + 1) % 3``.
"""
from __future__ import annotations

import functools
import math

from . import matrix
from .rules import HEXES, INDEX, NEIGHBOURS, NMASK

SEATS = ("upper", "lower")
SEAT_INDEX = {"upper": 0, "lower": 1}
SYMBOLS = ("r", "p", "s")
SYMBOL_INDEX = {"r": 0, "p": 1, "s": 2}
MAX_THROWS = 9
MAX_TURNS = 360
N = len(HEXES)

# --- weights ---------------------------------------------------------------------------------------------
WIN = 100000.0
VALUE_SCALE = 600.0  # evaluation units per unit of tanh in value()
TOKEN = 100.0  # a token on the board
THROW = 100.0  # a throw still in hand (greedy evaluation)
THROW_FULL = 120.0  # a throw still in hand (full evaluation: throws are flexible, keep them)
INVINCIBLE = 300.0  # holding a token the opponent can never beat again
NEAR_INVINCIBLE = 90.0  # ... or one whose last possible beater is the opponent's single token of that symbol
RESERVE = 200.0  # keeping at least one throw: the opponent's tokens cannot become invincible
KEPT_THROWS = 3  # the last this many throws in hand (full evaluation) ...
KEPT = 60.0  # ... are each worth this more: they win the ending, where the first throws build the army
# The side ahead in lives (tokens and throws) gains by even trades: this times the lead's share of all lives.
SIMPLIFY = 200.0
ZONE_THREAT = 0.3  # a stack only a throw can reach counts this share of one a predator can reach (guessing)
RESERVE_GREEDY = 40.0  # the same for the greedy evaluation (it spends its last throw on any capture)
LAST_TOKENS = (0.0, 120.0, 40.0, 10.0)  # no throws left and only this many tokens: close to losing
# Conversion: a side down to its last life (one token and no throws, or no token and one throw, which it must
# then throw) loses within two turns to an opponent holding a throw (or tokens of all three symbols).
LAST_LIFE = 1500.0
THREAT_WEIGHTS = (0.15, 0.5, 0.2, 0.1)  # expected loss among attacked stacks, largest first
PREY = (0.0, 9.0, 7.0, 4.0, 2.5, 1.5, 1.0, 0.5, 0.25, 0.0)  # nearest prey at distance d
HUNT = 2.0  # prey bonus multiplier once the opponent has no throws (the hunt wins the game)
CENTRE = 0.6  # per step closer to the centre
COMPOSITION = 3.0  # per (my token, opponent prey token) minus (my token, opponent predator token) pair


def _dist(a, b):
    dr, dq = a[0] - b[0], a[1] - b[1]
    return (abs(dr) + abs(dq) + abs(dr + dq)) // 2


DIST = tuple(tuple(_dist(a, b) for b in HEXES) for a in HEXES)
ROW = tuple(h[0] for h in HEXES)
CENTRE_BONUS = tuple(CENTRE * (4 - _dist(h, (0, 0))) for h in HEXES)
# Landing hexes of a swing from hex a around its neighbour y: neighbours of y, not a, not next to a.
SWING = tuple({y: sum(1 << z for z in NEIGHBOURS[y] if z != a and not (NMASK[a] >> z) & 1) for y in NEIGHBOURS[a]}
              for a in range(N))
# Hexes a side may throw onto having thrown k tokens (k = 9: none).
ZONE = tuple(tuple(sum(1 << i for i in range(N) if (ROW[i] >= 4 - k if p == 0 else ROW[i] <= k - 4))
                   if k < MAX_THROWS else 0 for k in range(MAX_THROWS + 1)) for p in (0, 1))


def bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Result:
    __slots__ = ("winner", "text")

    def __init__(self, winner, text):
        self.winner, self.text = winner, text


_END = {0: _Result("upper", "winner: upper"), 1: _Result("lower", "winner: lower"),
        None: _Result(None, "draw")}


def end_condition(thrown, symcount, turn):
    """The referee's end conditions 1-3 and 5 (not repetition): None, or a result with ``.winner``."""
    tu, tl = thrown
    su, sl = symcount
    if tu == MAX_THROWS or tl == MAX_THROWS:
        nu, nl = su[0] + su[1] + su[2], sl[0] + sl[1] + sl[2]
        out_u = tu == MAX_THROWS and nu == 0
        out_l = tl == MAX_THROWS and nl == 0
        if out_u or out_l:
            return _END[None if out_u and out_l else (1 if out_u else 0)]
        inv_u = tl == MAX_THROWS and bool((su[0] and not sl[1]) or (su[1] and not sl[2]) or (su[2] and not sl[0]))
        inv_l = tu == MAX_THROWS and bool((sl[0] and not su[1]) or (sl[1] and not su[2]) or (sl[2] and not su[0]))
        if inv_u and inv_l:
            return _END[None]
        if inv_u and nl == 1:
            return _END[0]
        if inv_l and nu == 1:
            return _END[1]
    if turn >= MAX_TURNS:
        return _END[None]
    return None


class Pos:
    """A light position with the engine state's stable fields, for hypothetical (one-sided) moves."""

    __slots__ = ("turn", "thrown", "occ", "sym", "cnt", "symcount", "_result")

    def result(self):
        return self._result

    def is_terminal(self):
        return self._result is not None


def one_sided(state, p: int, action) -> Pos:
    """The position after side ``p`` alone plays ``action`` (assumed legal), battles and end checks included."""
    pos = Pos()
    pos.turn = state.turn + 1
    pos.thrown = state.thrown[:]
    occ = pos.occ = state.occ[:]
    sym = pos.sym = [state.sym[0][:], state.sym[1][:]]
    cnt = pos.cnt = [state.cnt[0][:], state.cnt[1][:]]
    symcount = pos.symcount = [state.symcount[0][:], state.symcount[1][:]]
    if action[0] == "THROW":
        s = SYMBOL_INDEX[action[1]]
        t = INDEX[action[2]]
        pos.thrown[p] += 1
    else:
        f = INDEX[action[1]]
        t = INDEX[action[2]]
        s = sym[p][f]
        n = cnt[p][f] - 1
        cnt[p][f] = n
        symcount[p][s] -= 1
        if not n:
            sym[p][f] = -1
            occ[p] ^= 1 << f
    _land(occ, sym, cnt, symcount, t, p, s)
    pos._result = end_condition(pos.thrown, symcount, pos.turn)
    return pos


def _land(occ, sym, cnt, symcount, t, p, s):
    """Put one token of side p, symbol s on hex t, then battle there."""
    o = 1 - p
    sp = sym[p][t] if cnt[p][t] else s
    so = sym[o][t] if cnt[o][t] else s
    if sp == s and so == s:
        cnt[p][t] += 1
        sym[p][t] = s
        occ[p] |= 1 << t
        symcount[p][s] += 1
        return
    present = {s, sp, so}
    if len(present) == 3:
        dead = present
    else:
        a, b = present
        dead = {b} if (a + 2) % 3 == b else {a}
    arrive_dies = s in dead
    for side in (p, o):
        n = cnt[side][t]
        if n and sym[side][t] in dead:
            symcount[side][sym[side][t]] -= n
            cnt[side][t] = 0
            sym[side][t] = -1
            occ[side] &= ~(1 << t)
    if not arrive_dies:
        cnt[p][t] += 1
        sym[p][t] = s
        occ[p] |= 1 << t
        symcount[p][s] += 1


def position_key(state):
    """The configuration as the repetition rule sees it: tokens per hex, side and symbol, and both throw counts."""
    return (tuple(state.thrown),
            tuple((i, state.sym[0][i], state.cnt[0][i]) for i in bits(state.occ[0])),
            tuple((i, state.sym[1][i], state.cnt[1][i]) for i in bits(state.occ[1])))


# --- evaluation -----------------------------------------------------------------------------------------

def value(state, seat) -> float:
    """The evaluation squashed to a win-probability-like scale for search: a win is worth a little over 1
    (more the sooner), a loss the opposite, a draw 0, any other position ``tanh(evaluate / VALUE_SCALE)``.
    On this scale a big lead is worth nearly a win, so the search does not gamble a winning position for
    a chance of winning a few turns earlier."""
    p = SEAT_INDEX[seat] if isinstance(seat, str) else seat
    res = state.result()
    if res is not None:
        if res.winner is None:
            return 0.0
        v = 1.0 + 0.01 * (MAX_TURNS - state.turn) / MAX_TURNS
        return v if SEAT_INDEX[res.winner] == p else -v
    return math.tanh(_evaluate(state, p, True) / VALUE_SCALE)


def reach_masks(state, x: int):
    """Per symbol, the hexes side x's tokens of that symbol can move onto next turn (slides and swings)."""
    occx = state.occ[x]
    symx = state.sym[x]
    r = [0, 0, 0]
    m = occx
    while m:
        low = m & -m
        i = low.bit_length() - 1
        m ^= low
        reach = NMASK[i]
        piv = reach & occx
        sw = SWING[i]
        while piv:
            lp = piv & -piv
            reach |= sw[lp.bit_length() - 1]
            piv ^= lp
        r[symx[i]] |= reach
    return r


BEATER = (1, 2, 0)  # the symbol that beats each symbol
PREY_OF = (2, 0, 1)  # the symbol each symbol beats


def _board_terms(state, t0: int, t1: int) -> float:
    """Positions, distances to prey and threats of both sides' tokens (positive: good for Upper)."""
    occ, sym, cnt = state.occ, state.sym, state.cnt
    toks = ([], [])
    by_sym = (([], [], []), ([], [], []))
    reach = ([0, 0, 0], [0, 0, 0])
    for x in (0, 1):
        occx, symx, cntx = occ[x], sym[x], cnt[x]
        tx, bx, rx = toks[x], by_sym[x], reach[x]
        m = occx
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            s = symx[i]
            tx.append((i, s, cntx[i], low))
            bx[s].append(i)
            r = NMASK[i]
            piv = r & occx
            if piv:
                sw = SWING[i]
                while piv:
                    lp = piv & -piv
                    r |= sw[lp.bit_length() - 1]
                    piv ^= lp
            rx[s] |= r
    thrown = state.thrown
    zones = (ZONE[0][thrown[0]], ZONE[1][thrown[1]])
    throws = (t0, t1)
    total = 0.0
    for x in (0, 1):
        o = 1 - x
        reach_o, zone_o, prey_hexes = reach[o], zones[o], by_sym[o]
        prey_w = HUNT if throws[o] == 0 else 1.0
        side = 0.0
        attacked = []
        for i, s, c, low in toks[x]:
            side += CENTRE_BONUS[i]
            if reach_o[BEATER[s]] & low:
                attacked.append(c * TOKEN)
            elif zone_o & low:
                attacked.append(c * TOKEN * ZONE_THREAT)
            preys = prey_hexes[PREY_OF[s]]
            if preys:
                di = DIST[i]
                side += PREY[min([di[j] for j in preys])] * prey_w
        if attacked:
            if len(attacked) > 1:
                attacked.sort(reverse=True)
            for w, v in zip(THREAT_WEIGHTS, attacked):
                side -= w * v
        total += side if x == 0 else -side
    return total


def evaluate(state, seat) -> float:
    """Static value of ``state`` for ``seat`` (``"upper"``/``"lower"`` or 0/1); zero-sum. The strong bot's
    evaluation: material, the last throws kept in reserve, the lead's share of the lives left (tokens and throws),
    invincible tokens, the danger of running out of tokens, symbol composition, distances to prey, threats for the
    next turn, centrality."""
    return _evaluate(state, SEAT_INDEX[seat] if isinstance(seat, str) else seat, True)


def greedy_evaluate(state, seat) -> float:
    """The greedy bot's plainer material-and-threat evaluation: the same without the reserve throws and the
    symbol composition terms."""
    return _evaluate(state, SEAT_INDEX[seat] if isinstance(seat, str) else seat, False)


def _evaluate(state, p: int, full: bool) -> float:
    res = state.result()
    if res is not None:
        if res.winner is None:
            return 0.0
        v = WIN - state.turn
        return v if SEAT_INDEX[res.winner] == p else -v
    thrown = state.thrown
    symcount = state.symcount
    t0, t1 = MAX_THROWS - thrown[0], MAX_THROWS - thrown[1]
    s0, s1 = symcount
    n0, n1 = s0[0] + s0[1] + s0[2], s1[0] + s1[1] + s1[2]
    score = (n0 - n1) * TOKEN + (t0 - t1) * (THROW_FULL if full else THROW)
    reserve = RESERVE if full else RESERVE_GREEDY
    if full:
        score += (min(t0, KEPT_THROWS) - min(t1, KEPT_THROWS)) * KEPT
        score += SIMPLIFY * (n0 + t0 - n1 - t1) / (n0 + t0 + n1 + t1)
    if t0:
        score += reserve
    if t1:
        score -= reserve
    # No throws left and few tokens: one more loss may end the game.
    if t0 == 0 and n0 < 4:
        score -= LAST_TOKENS[n0]
    if t1 == 0 and n1 < 4:
        score += LAST_TOKENS[n1]
    # Invincible tokens (the opponent has no throws and no token of the beating symbol).
    if t1 == 0 and ((s0[0] and not s1[1]) or (s0[1] and not s1[2]) or (s0[2] and not s1[0])):
        score += INVINCIBLE
    if t0 == 0 and ((s1[0] and not s0[1]) or (s1[1] and not s0[2]) or (s1[2] and not s0[0])):
        score -= INVINCIBLE
    if full:
        # Nearly invincible: the opponent has no throws and a single token that can beat a symbol of mine.
        if t1 == 0 and ((s0[0] and s1[1] == 1) or (s0[1] and s1[2] == 1) or (s0[2] and s1[0] == 1)):
            score += NEAR_INVINCIBLE
        if t0 == 0 and ((s1[0] and s0[1] == 1) or (s1[1] and s0[2] == 1) or (s1[2] and s0[0] == 1)):
            score -= NEAR_INVINCIBLE
        # Composition: my tokens with prey on the board, against my tokens facing their predators.
        comp = 0
        for s in (0, 1, 2):
            comp += s0[s] * (s1[(s + 2) % 3] - s1[(s + 1) % 3])
        score += COMPOSITION * comp
        score += _conversion(t0, s0, n1, t1) - _conversion(t1, s1, n0, t0)
    # Positions, distances to prey, and threats for the next turn (moves of both kinds and throws).
    score += _board_terms(state, t0, t1)
    return score if p == 0 else -score


def _conversion(t: int, syms, n_o: int, t_o: int) -> float:
    """LAST_LIFE when the opponent (``n_o`` tokens, ``t_o`` throws) is down to its last life and loses to this
    side (``t`` throws, ``syms`` tokens per symbol) within two turns: holding a throw, this side throws the
    beater of the opponent's last token (invincible, and the last token is not); without one, it needs every
    symbol on the board, or the opponent's forced last throw picks a symbol that is invincible too (a draw)."""
    if n_o + t_o > 1:
        return 0.0
    if t or (n_o == 0 and syms[0] and syms[1] and syms[2]):
        return LAST_LIFE
    return 0.0


def matrix_values(state, seat, rows, cols, seen, *, contempt, repeat_contempt, repeat_factor):
    """The strong bot's payoff matrix from the C core: ``fill(out, i0, i1, j0, j1)`` or None without it
    (see :func:`games.ropasci360.matrix.values`)."""
    return matrix.values(core_constants(), state, seat, rows, cols, seen, contempt=contempt,
                         repeat_contempt=repeat_contempt, repeat_factor=repeat_factor)


@functools.cache
def core_constants() -> tuple:
    """What the C core needs of this evaluation: the weights in the order of its ``W_*`` indices, then the
    SWING, ZONE, DIST and CENTRE_BONUS tables (see :func:`games.ropasci360.matrix.core`)."""
    weights = (TOKEN, THROW_FULL, RESERVE, *LAST_TOKENS, INVINCIBLE, NEAR_INVINCIBLE, COMPOSITION, LAST_LIFE,
               *THREAT_WEIGHTS, *PREY, HUNT, VALUE_SCALE, WIN, KEPT_THROWS, KEPT,
               SIMPLIFY, ZONE_THREAT)
    return weights, SWING, ZONE, DIST, CENTRE_BONUS


# --- action scoring and candidates ---------------------------------------------------------------------

def score_actions(state, seat, actions, greedy: bool = False) -> list[float]:
    """Each action's value if ``seat`` alone played it (the opponent's action ignored): by the full
    evaluation, or by the greedy bot's plainer one."""
    p = SEAT_INDEX[seat]
    if not greedy:
        fast = matrix.scores(core_constants(), state, p, actions)  # the C core's, when there is one
        if fast is not None:
            return fast
    return [_evaluate(one_sided(state, p, a), p, not greedy) for a in actions]


def classify(state, p: int, action):
    """(is_capture, moved_from_hex_index or -1, symbol code, landing hex index) of a legal action."""
    if action[0] == "THROW":
        f, s = -1, SYMBOL_INDEX[action[1]]
    else:
        f = INDEX[action[1]]
        s = state.sym[p][f]
    t = INDEX[action[2]]
    o = 1 - p
    capture = bool(state.cnt[o][t]) and state.sym[o][t] == (s + 2) % 3
    return capture, f, s, t


def candidates(state, seat, actions=None, scores=None, rng=None) -> list:
    """Legal actions of ``seat`` ordered for search: tactical ones first (captures; for each attacked stack
    its best escape; the best throw of each symbol; the best slide/swing), then the rest by greedy score."""
    p = SEAT_INDEX[seat]
    o = 1 - p
    if actions is None:
        actions = list(state.legal_actions(seat))
    ties = None if rng is None else [rng.random() for _ in actions]
    if scores is None:
        fast = matrix.order(core_constants(), state, p, actions, ties)  # the C core's, when there is one
        if fast is not None:
            return [actions[k] for k in fast]
        scores = score_actions(state, seat, actions)
    keyed = [(sc, -k if ties is None else ties[k], k) for k, sc in enumerate(scores)]
    keyed.sort(reverse=True)
    order = [k for _, _, k in keyed]
    reach_o = reach_masks(state, o)
    zone_o = ZONE[o][state.thrown[o]]
    first = []
    seen_from = set()
    best_throw = set()
    best_move = False
    for k in order:
        a = actions[k]
        capture, f, s, t = classify(state, p, a)
        tactical = capture
        if f >= 0:
            if f not in seen_from and ((reach_o[(s + 1) % 3] | zone_o) >> f) & 1:
                seen_from.add(f)
                tactical = True
            if not best_move:
                best_move = tactical = True
        elif s not in best_throw:
            best_throw.add(s)
            tactical = True
        if tactical:
            first.append(k)
    chosen = set(first)
    return [actions[k] for k in first] + [actions[k] for k in order if k not in chosen]


# --- analysis (the replay's "Analyse") ------------------------------------------------------------------

ANALYSIS_SECONDS = 0.5  # default budget of an analysis (it sets the matrix width, not a clock)


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The strong bot's equilibrium at ``state``: value, each side's mixed strategy and, with ``actual``
    (side -> engine action played here), what each choice gave away. Deterministic: the budget sets the
    number of candidates (``games.bots.matrixanalysis.width_for``), not a deadline. ``seen``: position_key -> times
    reached so far, as the bot would have observed (repeated positions are valued towards a draw). See
    :func:`games.bots.matrixanalysis.analyse` for the answer's form."""
    from games.bots.matrixanalysis import analyse as matrix_analysis, width_for

    from . import make_game
    budget = ANALYSIS_SECONDS if seconds is None else seconds
    return matrix_analysis(make_game(), state, width=width_for(budget), seen=seen, actual=actual)
