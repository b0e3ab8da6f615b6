"""Poker bots (``BOTS``): both decide from ``state.observation(seat)`` only (their own hole cards, the board,
the bets), never from the full state, so they cannot see another seat's cards.

* ``greedy``: Monte Carlo equity (``GREEDY_TRIALS`` deals) of its hand against a random hand for each player
  still in; it calls when the equity beats the pot odds, bets or raises when the equity is well above a fair
  share (``1 / players in``), and folds otherwise.
* ``strong``: equity against ranges: each opponent's hand is drawn weighted by a preflop strength score,
  the more so the more that player has bet or raised this hand (a player who has not is given a random
  hand). Deals are drawn until ``STRONG_TRIALS`` or half the time budget. Its thresholds are lower than
  greedy's (it bets more for value) and loosen in late position (at most one player left to act); a short
  stack (under ``PUSH_BLINDS`` big blinds) plays push-or-fold preflop; a call that would leave less than a
  big blind behind goes all in instead; now and then (``BLUFF``) it bets when last to act and checked to.
"""
from __future__ import annotations

import time

from phevaluator import evaluate_cards

from games.bots import DEFAULT_SECONDS
from games.bots.base import Bot

from .rules import CARD_ID

GREEDY_TRIALS = 200
STRONG_TRIALS = 1500
PUSH_BLINDS = 10
BLUFF = 0.08
RANGE_DRAWS = 6  # draws of a hand for an opponent's range before the last one drawn is kept


def preflop_strength(a: int, b: int) -> float:
    """A rough 0..1 score of two hole cards (phevaluator ids): high cards, pairs, suited and connected."""
    hi, lo = max(a, b) >> 2, min(a, b) >> 2
    if hi == lo:
        return 0.55 + 0.45 * hi / 12
    score = (hi + lo) / 28 + (0.08 if a % 4 == b % 4 else 0) - 0.03 * min(hi - lo - 1, 4)
    return min(max(score, 0.02), 0.9)


def equity(hole, board, tightness, trials: int, rng, deadline: float | None = None) -> float:
    """Share of the pot ``hole`` wins on average against one hand per entry of ``tightness`` (0: a random
    hand; higher: a hand drawn from a stronger range), the board completed at random."""
    known = set(hole) | set(board)
    deck = [c for c in range(52) if c not in known]
    missing = 5 - len(board)
    won = 0.0
    done = 0
    for done in range(1, trials + 1):
        avail = deck[:]
        fill = rng.sample(avail, missing)
        for c in fill:
            avail.remove(c)
        hands = []
        for tight in tightness:
            for _ in range(RANGE_DRAWS):
                hand = rng.sample(avail, 2)
                if not tight or rng.random() < preflop_strength(*hand) ** tight:
                    break
            avail.remove(hand[0])
            avail.remove(hand[1])
            hands.append(hand)
        full = board + fill
        mine = evaluate_cards(*hole, *full)
        best = min(evaluate_cards(*h, *full) for h in hands) if hands else 7463
        if mine < best:
            won += 1
        elif mine == best:
            won += 1 / (1 + sum(evaluate_cards(*h, *full) == mine for h in hands))
        if deadline is not None and not done % 50 and time.perf_counter() > deadline:
            break
    return won / done


class _View:
    """What a bot reads from its observation."""

    def __init__(self, obs: dict, seat: str):
        seats = obs["seats"]
        me = next(d for d in seats if d["seat"] == seat)
        self.hole = [CARD_ID[c] for c in me["cards"]]
        self.board = [CARD_ID[c] for c in obs["board"]]
        self.stack, self.bb = me["chips"], obs["big_blind"]
        self.to_call = max(d["bet"] for d in seats) - me["bet"]
        self.pot = sum(d["total"] for d in seats)
        self.opponents = [d for d in seats if d["seat"] != seat and d["status"] in ("active", "all_in")]
        order = [d["seat"] for d in seats]
        i = order.index(seat)
        later = [d for d in seats[i + 1:] + seats[:i] if d["status"] == "active" and not d["acted"]]
        self.left_to_act = len(later)
        self.preflop = not obs["board"]


def _pick(legal, *wanted):
    return next((a for a in wanted if a in legal), None)


class GreedyBot(Bot):
    level = "greedy"

    def choose(self, state):
        legal = state.legal_actions(self.seat)
        v = _View(state.observation(self.seat), self.seat)
        e = equity(v.hole, v.board, [0] * len(v.opponents), GREEDY_TRIALS, self.rng)
        share = e * (len(v.opponents) + 1)  # 1: a fair share of the pot
        if v.to_call:
            odds = v.to_call / (v.pot + v.to_call)
            if share > 1.6:
                return _pick(legal, "raise", "call", "all_in")
            return _pick(legal, "call", "all_in") if e >= odds else "fold"
        if share > 1.3:
            return _pick(legal, "bet", "raise", "check")
        return "check"


class StrongBot(Bot):
    level = "strong"

    def choose(self, state):
        started = time.perf_counter()
        legal = state.legal_actions(self.seat)
        v = _View(state.observation(self.seat), self.seat)
        budget = DEFAULT_SECONDS["strong"] if self.seconds is None else self.seconds
        tightness = [1.5 * min(d["raises"], 3) for d in v.opponents]
        e = equity(v.hole, v.board, tightness, STRONG_TRIALS, self.rng, started + budget / 2)
        n = len(v.opponents) + 1
        share = e * n
        loosen = 0.15 if v.left_to_act <= 1 else 0.0
        if v.preflop and v.stack < PUSH_BLINDS * v.bb:
            push = e >= (0.9 if v.to_call else 0.75) / n + 0.1
            return "all_in" if push else ("check" if not v.to_call else "fold")
        if v.to_call:
            odds = v.to_call / (v.pot + v.to_call)
            if share > 1.5 - loosen:
                return _pick(legal, "raise", "call", "all_in")
            if e >= odds:
                if v.stack - v.to_call < v.bb:
                    return "all_in"
                return _pick(legal, "call", "all_in")
            return "fold"
        if share > 1.15 - loosen or (v.left_to_act == 0 and self.rng.random() < BLUFF):
            return _pick(legal, "bet", "raise", "check")
        return "check"


BOTS = {"greedy": GreedyBot, "strong": StrongBot}
