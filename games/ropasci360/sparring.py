"""A sparring partner for the strong bot, after the published approach of the 2021 COMP30024 class tournament's
champion: a fixed five-move opening, rule-based choices (attack, throw, run, trade), then alpha-beta over a
*sequentialised* turn (our action first, the opponent's reply seeing it: a pessimistic reading of the
simultaneous turn) one or two turns deep with a cap on the positions searched. Not a site level: an opponent
of a different kind to measure ``strong`` against (``manage.py arena games.ropasci360.sparring:Player strong``).

Its evaluation is its own and plain (material, throws, a reserve throw, invincibility, distance to prey and
from predators), so it does not share the strong bot's blind spots. Pure Python, standard library only.
"""
from __future__ import annotations

import random

from .bots import BEATER, DIST, MAX_THROWS, PREY_OF, SEAT_INDEX, ZONE, bits, classify, one_sided, reach_masks
from .rules import GAME, INDEX

# Upper's opening (Lower plays it mirrored, (r, q) -> (-r, -q)): a throw of each symbol, then the two front
# tokens step forward. A step is skipped (the rules and the search take over) when it is illegal or a rule
# applies (a capture is on, a token is attacked).
OPENING = (("THROW", "s", (4, -2)), ("THROW", "r", (3, -1)), ("THROW", "p", (2, -1)),
           ("SLIDE", (2, -1), (1, -1)), ("SLIDE", (3, -1), (2, -1)))
NODE_CAP = 1500  # positions searched below the root per move, at most (the rest valued statically)
WIDTH = (8, 6)  # own candidates, opponent replies per node
DEPTH = 2  # turns
WIN = 1e6


def _mirror(action, p: int):
    if p == 0:
        return action
    kind, a, b = action
    flip = lambda h: (-h[0], -h[1])  # noqa: E731
    return (kind, a, flip(b)) if kind == "THROW" else (kind, flip(a), flip(b))


def evaluate(state, p: int) -> float:
    """Plain evaluation for side ``p``: tokens and throws, a throw kept, invincibility, prey and predators."""
    res = state.result()
    if res is not None:
        return 0.0 if res.winner is None else (WIN - state.turn if SEAT_INDEX[res.winner] == p else state.turn - WIN)
    total = 0.0
    for x, sign in ((p, 1.0), (1 - p, -1.0)):
        o = 1 - x
        throws = MAX_THROWS - state.thrown[x]
        sc, so = state.symcount[x], state.symcount[o]
        v = 100.0 * (sc[0] + sc[1] + sc[2]) + 90.0 * throws + (150.0 if throws else 0.0)
        if state.thrown[o] == MAX_THROWS and any(sc[s] and not so[BEATER[s]] for s in range(3)):
            v += 250.0
        mine = [(i, state.sym[x][i]) for i in bits(state.occ[x])]
        theirs = [(j, state.sym[o][j]) for j in bits(state.occ[o])]
        for i, s in mine:
            prey = [DIST[i][j] for j, t in theirs if t == PREY_OF[s]]
            if prey:
                v += 12.0 / (1 + min(prey))
            pred = [DIST[i][j] for j, t in theirs if t == BEATER[s]]
            if pred and min(pred) <= 2:
                v -= 15.0 * state.cnt[x][i] / min(pred)
        total += sign * v
    return total


class Sparring:
    """The sparring partner's choices for one side of one game."""

    def __init__(self, seat: str, seed=None, node_cap: int = NODE_CAP, depth: int = DEPTH):
        self.seat, self.p = seat, SEAT_INDEX[seat]
        self.opp = "lower" if seat == "upper" else "upper"
        # No seed: drawn from the global generator, which the arena seeds for course players.
        self.rng = random.Random(random.getrandbits(64) if seed is None else seed)
        self.node_cap, self.depth = node_cap, depth
        self.nodes = 0

    def choose(self, state):
        legal = list(state.legal_actions(self.seat))
        rule = self._rules(state, legal)
        if rule is not None:
            return rule
        if state.turn < len(OPENING):
            step = _mirror(OPENING[state.turn], self.p)
            if step in legal:
                return step
        return self._search(state, legal)

    # --- rules ---------------------------------------------------------------------------------------------
    def _rules(self, state, legal):
        p, o = self.p, 1 - self.p
        danger = reach_masks(state, o)  # per symbol, hexes the opponent's tokens of it reach
        zone_o = ZONE[o][state.thrown[o]]
        throws_left = MAX_THROWS - state.thrown[p]
        captures, safe_captures, trades, throws_on = [], [], [], []
        for a in legal:
            capture, f, s, t = classify(state, p, a)
            if not capture:
                continue
            gain = state.cnt[o][t]
            attacked = ((danger[BEATER[s]] | zone_o) >> t) & 1
            if f < 0:
                if throws_left >= 2:
                    throws_on.append((gain, not attacked, a))
            elif not attacked:
                safe_captures.append((gain, a))
            else:
                trades.append((gain - state.cnt[p][f], a))
            captures.append(a)
        if safe_captures:  # attack
            return max(safe_captures)[1]
        # run: a stack an opponent token can reach next turn moves out of reach
        threatened = [i for i in bits(state.occ[p]) if (danger[BEATER[state.sym[p][i]]] >> i) & 1]
        if threatened:
            i = max(threatened, key=lambda k: state.cnt[p][k])
            runs = [a for a in legal if a[0] != "THROW" and INDEX[a[1]] == i]
            best = self._best_one_sided(state, runs)
            if best is not None:
                return best
        safe_throws = [(g, a) for g, safe, a in throws_on if safe]
        if safe_throws:  # throw onto a token in reach, keeping a throw in reserve
            return max(safe_throws)[1]
        mine = sum(state.symcount[p]) + throws_left
        theirs = sum(state.symcount[o]) + MAX_THROWS - state.thrown[o]
        if trades and mine > theirs:  # trade when ahead
            gain, a = max(trades)
            if gain >= 0:
                return a
        return None

    def _best_one_sided(self, state, actions):
        if not actions:
            return None
        scored = [(evaluate(one_sided(state, self.p, a), self.p), self.rng.random(), a) for a in actions]
        return max(scored)[2]

    # --- search --------------------------------------------------------------------------------------------
    def _ordered(self, state, side: int, width: int):
        seat = "upper" if side == 0 else "lower"
        acts = list(state.legal_actions(seat))
        if len(acts) > 4 * width:  # sample the throws, keep every move of a token
            moves = [a for a in acts if a[0] != "THROW"]
            throws = [a for a in acts if a[0] == "THROW"]
            acts = moves + self.rng.sample(throws, min(len(throws), 2 * width))
        scored = sorted(((evaluate(one_sided(state, side, a), side), self.rng.random(), a) for a in acts),
                        reverse=True)
        return [a for _, _, a in scored[:width]]

    def _search(self, state, legal):
        self.nodes = 0
        A = self._ordered(state, self.p, WIDTH[0])
        best, best_v = A[0], -float("inf")
        for a in A:
            v = self._reply(state, a, self.depth, best_v, float("inf"))
            if v > best_v:
                best, best_v = a, v
        return best

    def _reply(self, state, a, depth, alpha, beta) -> float:
        """Min over the opponent's replies to our action ``a`` (it sees ``a``: the sequentialised turn)."""
        value = float("inf")
        for b in self._ordered(state, 1 - self.p, WIDTH[1]):
            child = state.clone()
            child.apply_actions({self.seat: a, self.opp: b})
            v = self._max(child, depth - 1, alpha, min(beta, value))
            value = min(value, v)
            if value <= alpha:
                break
        return value

    def _max(self, state, depth, alpha, beta) -> float:
        if depth <= 0 or state.is_terminal() or self.nodes >= self.node_cap:
            return evaluate(state, self.p)
        self.nodes += 1
        value = -float("inf")
        for a in self._ordered(state, self.p, WIDTH[0] // 2):
            value = max(value, self._reply(state, a, depth, max(alpha, value), beta))
            if value >= beta:
                break
        return value


class Player:
    """The sparring partner as a course player (``games.ropasci360.sparring:Player``)."""

    def __init__(self, player, seed=None):
        self.side = player
        self.other = "lower" if player == "upper" else "upper"
        self.state = GAME.new_initial_state()
        self.bot = Sparring(player, seed=seed)

    def action(self):
        return self.bot.choose(self.state)

    def update(self, opponent_action, player_action):
        tup = lambda a: tuple(tuple(x) if isinstance(x, list) else x for x in a)  # noqa: E731
        if not self.state.is_terminal():
            self.state.apply_actions({self.side: tup(player_action), self.other: tup(opponent_action)})
