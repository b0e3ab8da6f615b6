"""Poker bots against each other: chips won per hand over many duplicate deals, with 95% confidence intervals.

The main figure is cash-style: every hand starts from fresh stacks of ``--stack`` big blinds (a new game, the
button at ``p0``; blinds 10/20) and ends when its pots are paid; a seat's result is its chips after the hand
minus before, in big blinds. A match is ``A`` vs ``B`` at ``--players`` seats (heads-up and 6 by default).
Variance is cut by duplicate deals: the benchmark draws the cards itself (a shuffled deck per deal, dealt in
order: hole cards, then the board) and plays every deal several times with the same cards and the bots moved
round the seats, so that each side gets every hand and position of the deal. ``--seating alternate`` (the
default) seats A, B, A, B, ... and then B, A, B, A, ...; ``--seating one`` seats a single A among B's, once
in each seat. One sample is a deal: A's chips won over its plays per A seat and hand; the figure is their mean
in big blinds per 100 hands (bb/100), with the 95% interval of the mean (normal approximation, deals are
independent). Zero is an even match: the game is zero-sum and every seat pays the blinds in turn. All bots
see every position through ``observe``, as the server shows a bot the game's log.

Opponents: the game's levels (``random``, ``greedy``, ``strong``) and ``calling``, the textbook calling
station (checks or calls whatever the bet, never bets or folds; all in only when calling would be), an outside
reference every poker bot is expected to beat. ``--match A:B`` (repeatable) picks the matches; by default
strong vs greedy and greedy vs random.

``--games G`` (default 0: off) adds the older, noisier figure: the share of G whole sit-and-go tournaments that
A's side wins (tournament k shifts the seats by k), against the share its seats would win by chance.

    python benchmarks/poker.py --hands 1500 --seconds 0.02 --jobs 1 --seed 1
    python benchmarks/poker.py --hands 500 --players 6 --seating one --seconds 0.02 --jobs 1 --seed 1
    python benchmarks/poker.py --hands 300 --match strong:calling --seconds 0.02 --jobs 1 --seed 1
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots.base import Bot, RandomBot  # noqa: E402
from games.poker import make_game  # noqa: E402
from games.poker.bots import BOTS  # noqa: E402
from games.poker.rules import DECK  # noqa: E402


class CallingStation(Bot):
    """Checks or calls, whatever the bet; all in only when that is the call."""

    level = "calling"

    def choose(self, state):
        legal = state.legal_actions(self.seat)
        return next(a for a in ("check", "call", "all_in") if a in legal)


FACTORIES = {"random": RandomBot, "calling": CallingStation, **BOTS}

MATCHES = (("strong", "greedy"), ("greedy", "random"))
BIG_BLIND = 20
CHUNK = 25  # deals per task sent to a worker process


def play_hand(levels: list[str], deck: list[str], seed: int, seconds: float, stack: int) -> list[float]:
    """One hand from fresh stacks of ``stack`` big blinds, ``levels[i]`` in seat ``pi``, the cards dealt in
    the order of ``deck``: each seat's chips won (negative: lost), in big blinds."""
    game = make_game(players=len(levels), chips=stack * BIG_BLIND, big_blind=BIG_BLIND)
    bots = {seat: FACTORIES[level](game, seat, seed=seed * 16 + i, seconds=seconds)
            for i, (seat, level) in enumerate(zip(game.info.players, levels))}
    state = game.new_initial_state()
    cards = iter(deck)
    while state.hand == 1 and not state.is_terminal():
        for bot in bots.values():  # every position, as the server shows a bot the game's log
            bot.observe(state)
        if state.is_chance_node():
            where = state.chance_outcomes()[0][0].partition(":")[0]
            state.apply_chance(f"{where}:{next(cards)}")
        else:
            seat = state.players_to_act()[0]
            state.apply_action(seat, bots[seat].choose(state))
    # chips behind plus chips already in the next hand (its blinds) = chips when this hand was paid
    return [(state.chips[i] + state.total[i]) / BIG_BLIND - stack for i in range(len(levels))]


def seatings(a: str, b: str, players: int, seating: str) -> list[list[str]]:
    """The plays of one deal: ``alternate``: A, B, A, B, ... then B, A, B, A, ...; ``one``: a single A among
    B's, in each seat in turn (heads-up both are the same two plays)."""
    if seating == "one":
        return [[a if i == k else b for i in range(players)] for k in range(players)]
    return [[(a, b)[(i + shift) % 2] for i in range(players)] for shift in (0, 1)]


def duplicate_deals(a: str, b: str, players: int, seeds: list[int], seconds: float, stack: int,
                    seating: str = "alternate") -> list[float]:
    """For each deal seed: A's chips won per A seat and hand (big blinds), over the deal played once for each
    of the ``seatings``, with the same cards."""
    out = []
    for seed in seeds:
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        won = 0.0
        a_seats = 0
        for levels in seatings(a, b, players, seating):
            result = play_hand(levels, deck, seed, seconds, stack)
            won += sum(r for r, level in zip(result, levels) if level == a)
            a_seats += levels.count(a)
        out.append(won / a_seats)
    return out


def tournament(a: str, b: str, players: int, seed: int, seconds: float) -> dict:
    """One sit-and-go (the game's default stacks and doubling blinds): whether side A won, its hands."""
    game = make_game(players=players)
    rng = random.Random(seed)
    sides = {seat: (a, b)[(i + seed) % 2] for i, seat in enumerate(game.info.players)}
    bots = {seat: FACTORIES[level](game, seat, seed=seed * 100 + i, seconds=seconds)
            for i, (seat, level) in enumerate(sides.items())}
    state = game.new_initial_state()
    while not state.is_terminal():
        for bot in bots.values():
            bot.observe(state)
        if state.is_chance_node():
            state.apply_chance(rng.choice(state.chance_outcomes())[0])
        else:
            seat = state.players_to_act()[0]
            state.apply_action(seat, bots[seat].choose(state))
    returns = state.returns()
    return {"a": sum(v for s, v in returns.items() if sides[s] == a),
            "a_seats": sum(1 for s in sides.values() if s == a), "hands": state.hand}


def interval(values) -> tuple[float, float]:
    """Mean and half-width of a 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    return mean, 1.96 * math.sqrt(var / n)


def _run(pool, fn, *columns):
    return list(pool.map(fn, *columns)) if pool else list(map(fn, *columns))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000,
                        help="duplicate deals per match and table size (each played twice: 2x the hands)")
    parser.add_argument("--stack", type=int, default=50, help="stacks at the start of each hand, in big blinds")
    parser.add_argument("--games", type=int, default=0, help="whole tournaments per match and table size (0: none)")
    parser.add_argument("--seconds", type=float, default=0.02, help="the strong bot's budget per move")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 6], help="table sizes (default: 2 6)")
    parser.add_argument("--match", action="append", type=lambda m: tuple(m.split(":")),
                        help="A:B, e.g. strong:calling (repeatable; default strong:greedy and greedy:random)")
    parser.add_argument("--seating", choices=("alternate", "one"), default="alternate",
                        help="alternate: A, B, A, B, ... and swapped; one: a single A among B's, in every seat")
    args = parser.parse_args(argv)
    matches = args.match or list(MATCHES)
    for match in matches:
        if len(match) != 2 or not set(match) <= set(FACTORIES):
            parser.error(f"--match: expected A:B, each one of {', '.join(FACTORIES)}, got {':'.join(match)}")
    pool = ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else None
    summary = []
    try:
        for players in args.players:
            for a, b in matches:
                if args.games:
                    started = time.perf_counter()
                    seeds = [args.seed + k for k in range(args.games)]
                    n = len(seeds)
                    runs = _run(pool, tournament, [a] * n, [b] * n, [players] * n, seeds, [args.seconds] * n)
                    mean, half = interval([r["a"] for r in runs])
                    chance = sum(r["a_seats"] for r in runs) / (players * n)
                    hands = sum(r["hands"] for r in runs) / n
                    print(f"{players} seats, {a} vs {b}: {a} wins {mean:.2f} ± {half:.2f} of {n} tournaments "
                          f"(chance {chance:.2f}); {hands:.0f} hands each, {time.perf_counter() - started:.0f} s",
                          flush=True)
                if args.hands:
                    started = time.perf_counter()
                    base = (args.seed * 1000 + players) * 10**6 + matches.index((a, b)) * 10**5
                    seeds = [base + k for k in range(args.hands)]
                    chunks = [seeds[k:k + CHUNK] for k in range(0, len(seeds), CHUNK)]
                    m = len(chunks)
                    won = [w for part in _run(pool, duplicate_deals, [a] * m, [b] * m, [players] * m, chunks,
                                              [args.seconds] * m, [args.stack] * m, [args.seating] * m)
                           for w in part]
                    mean, half = interval([100 * w for w in won])
                    plays = len(seatings(a, b, players, args.seating))
                    where = f"one {a} among {players - 1} {b}, " if args.seating == "one" and players > 2 else ""
                    line = (f"{players} seats, {a} vs {b}: {a} {mean:+.1f} ± {half:.1f} bb/100 hands "
                            f"(95% CI {mean - half:+.1f} to {mean + half:+.1f}; {where}{len(won)} deals played "
                            f"{plays} times, {args.stack} bb stacks)")
                    print(f"{line}, {time.perf_counter() - started:.0f} s", flush=True)
                    summary.append(line)
    finally:
        if pool:
            pool.shutdown()
    if summary:
        print(f"summary (--seconds {args.seconds} --seed {args.seed} --seating {args.seating}):")
        for line in summary:
            print(line)


if __name__ == "__main__":
    main()
