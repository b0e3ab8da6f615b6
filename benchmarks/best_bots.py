"""Each game's best bot against an outside baseline, where no other benchmark measures it: the figures of
``docs/bots.md``, "Every game's best bot". One subcommand per game; each prints a summary line per side or
opponent measured.

    python benchmarks/best_bots.py tic_tac_toe            # against every opponent: never loses
    python benchmarks/best_bots.py nim                    # every won position of small games: wins it
    python benchmarks/best_bots.py nim3p --games 300      # perfect against two random or two greedy players
    python benchmarks/best_bots.py sim --games 40         # the solved second-player win, 6 nodes
    python benchmarks/best_bots.py rubiks_cube --scrambles 100   # solution lengths

``tic_tac_toe`` walks the whole game tree with the bot on one side, every legal reply on the other, for both
sides: every game that can happen against it. ``nim`` values every position of every small game (up to 4 heaps
of 6, every ``max_take``) by plain minimax over the rules (not the Grundy formula the bot uses) and checks that
in every won position the bot's move leaves a lost one. ``sim`` plays the bot as the second player against
each opponent as the first and prints the CPU time of its moves. Randomness is seeded (``--seed``); the
searching bots run on a wall-clock budget (``--seconds``, default the lobby's 1 s), so reruns give similar, not
identical, figures.
"""
from __future__ import annotations

import argparse
import functools
import math
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import make_bot  # noqa: E402
from games.bots.arena import wilson_interval  # noqa: E402
from games.engine import load_game  # noqa: E402


def mean_interval(values) -> tuple[float, float]:
    """Mean and half-width of its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    return mean, 1.96 * math.sqrt(var / n)


def score_line(name: str, scores: list[float]) -> str:
    """``name: W-D-L score=S (95% CI lo-hi)`` as the arena prints it (Wilson interval of the mean score)."""
    wins, draws = scores.count(1.0), scores.count(0.5)
    score = sum(scores) / len(scores)
    lo, hi = wilson_interval(score, len(scores))
    return f"{name}: {wins}-{draws}-{len(scores) - wins - draws} score={score:.3f} (95% CI {lo:.3f}-{hi:.3f})"


# --- tic-tac-toe: every game against the bot ------------------------------------------------------------

def tic_tac_toe(args) -> None:
    game = load_game("tic_tac_toe")
    for seat in game.info.players:
        bot = make_bot(args.level, game, seat, seed=args.seed, seconds=args.seconds)
        tally = {"win": 0, "draw": 0, "loss": 0}
        started = time.process_time()

        def walk(state):
            if state.is_terminal():
                winners = state.result().winners
                tally["draw" if not winners else "win" if winners == [seat] else "loss"] += 1
                return
            mover = state.players_to_act()[0]
            moves = [bot.choose(state)] if mover == seat else state.legal_actions(mover)
            for action in moves:
                child = state.clone()
                child.apply_action(mover, action)
                walk(child)

        walk(game.new_initial_state())
        print(f"tic_tac_toe {args.level} as {seat}: {sum(tally.values())} games (every reply of the other side): "
              f"won {tally['win']}, drawn {tally['draw']}, lost {tally['loss']}; "
              f"{time.process_time() - started:.1f} s CPU", flush=True)


# --- Nim: every won position of small games -------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def nim_wins(heaps: tuple[int, ...], max_take: int) -> bool:
    """Whether the side to move wins (the last taker wins), by minimax over every move."""
    return any(not nim_wins(tuple(sorted(heaps[:i] + (h - k,) + heaps[i + 1:])), max_take)
               for i, h in enumerate(heaps) for k in range(1, min(h, max_take) + 1))


def nim(args) -> None:
    checked = won = 0
    for heaps in range(1, args.heaps + 1):
        for size in range(1, args.size + 1):
            for max_take in range(1, size + 1):
                game = load_game("nim", heaps=heaps, size=size, max_take=max_take)
                bots = {seat: make_bot(args.level, game, seat, seed=args.seed) for seat in game.info.players}
                seen = set()
                stack = [game.new_initial_state()]
                while stack:
                    state = stack.pop()
                    key = tuple(state.heaps)
                    if state.is_terminal() or key in seen:
                        continue
                    seen.add(key)
                    checked += 1
                    mover = state.players_to_act()[0]
                    if nim_wins(tuple(sorted(key)), max_take):
                        won += 1
                        after = state.clone()
                        after.apply_action(mover, bots[mover].choose(state))
                        if nim_wins(tuple(sorted(after.heaps)), max_take):
                            raise SystemExit(f"nim {args.level} missed the win: heaps {key}, max_take {max_take}")
                    for action in state.legal_actions(mover):
                        child = state.clone()
                        child.apply_action(mover, action)
                        stack.append(child)
    print(f"nim {args.level}: {checked} positions of every game with 1-{args.heaps} heaps of 1-{args.size} "
          f"and every max_take; {won} won for the side to move; the bot wins all {won} (its move leaves a lost "
          f"position every time)")


# --- three-player Nim: against two random or two greedy players -----------------------------------------

def nim3p(args) -> None:
    game = load_game("nim3p")
    seats = game.info.players
    for other in args.against:
        mine, theirs = [], []
        for k in range(args.games):
            me = seats[k % 3]
            bots = {s: make_bot(args.level if s == me else other, game, s, seed=args.seed + 3 * k + i,
                                seconds=args.seconds) for i, s in enumerate(seats)}
            state = game.new_initial_state()
            while not state.is_terminal():
                seat = state.players_to_act()[0]
                state.apply_action(seat, bots[seat].choose(state))
            returns = state.result().returns
            mine.append(returns[me])
            theirs.append(sum(returns[s] for s in seats if s != me) / 2)
        mean, half = mean_interval(mine)
        print(f"nim3p {args.level} vs 2 {other}: mean return {mean:.3f} ± {half:.3f} (95% CI), each {other} "
              f"{sum(theirs) / len(theirs):.3f}; {args.games} games, seats rotated (a fair share is 1/3)",
              flush=True)


# --- Sim: the second player wins with perfect play -----------------------------------------------------

def sim(args) -> None:
    game = load_game("sim", nodes=args.nodes)
    first, second = game.info.players
    for other in args.against:
        scores, cpu = [], []
        for k in range(args.games):
            bots = {first: make_bot(other, game, first, seed=args.seed + 2 * k, seconds=args.seconds),
                    second: make_bot(args.level, game, second, seed=args.seed + 2 * k + 1, seconds=args.seconds)}
            state = game.new_initial_state()
            while not state.is_terminal():
                seat = state.players_to_act()[0]
                started = time.process_time()
                action = bots[seat].choose(state)
                if seat == second:
                    cpu.append(time.process_time() - started)
                state.apply_action(seat, action)
            winners = state.result().winners
            scores.append(0.5 if not winners else 1.0 if winners == [second] else 0.0)
        print(score_line(f"sim {args.nodes} nodes {args.level} (second, {second}) vs {other} (first, {first})",
                         scores) + f"; its moves {1000 * statistics.mean(cpu):.0f} ms CPU on average, at most "
              f"{1000 * max(cpu):.0f} ms", flush=True)


# --- Rubik's Cube: solution lengths ---------------------------------------------------------------------

def rubiks_cube(args) -> None:
    game = load_game("rubiks_cube", scramble_moves=args.scramble_moves)
    lengths, seconds = [], []
    for k in range(args.scrambles):
        rng = random.Random(args.seed + k)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_chance(rng.choice(state.chance_outcomes())[0])
        bot = make_bot(args.level, game, "player", seed=args.seed + k)
        moves, started = 0, time.process_time()
        while not state.is_terminal():
            state.apply_action("player", bot.choose(state))
            moves += 1
        if state.result().returns["player"] != 1.0:  # solved
            raise SystemExit(f"scramble {k}: {state.result().text}")
        lengths.append(moves)
        seconds.append(time.process_time() - started)
    print(f"rubiks_cube {args.level}: {len(lengths)} random {args.scramble_moves}-move scrambles solved in "
          f"{statistics.mean(lengths):.2f} moves on average (median {statistics.median(lengths):g}, "
          f"{min(lengths)} to {max(lengths)}; half-turn metric), solver CPU time median "
          f"{1000 * statistics.median(seconds):.0f} ms, at most {1000 * max(seconds):.0f} ms")


COMMANDS = {"tic_tac_toe": tic_tac_toe, "nim": nim, "nim3p": nim3p, "sim": sim, "rubiks_cube": rubiks_cube}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="game", required=True)
    for name, level in (("tic_tac_toe", "perfect"), ("nim", "perfect"), ("nim3p", "perfect"), ("sim", "perfect"),
                        ("rubiks_cube", "strong")):
        p = sub.add_parser(name)
        p.add_argument("--level", default=level, help=f"the bot measured (default {level}: the game's best)")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--seconds", type=float, default=1.0, help="the bots' time per move (the lobby's 1 s)")
        if name == "nim":
            p.add_argument("--heaps", type=int, default=4)
            p.add_argument("--size", type=int, default=6)
        if name in ("nim3p", "sim"):
            p.add_argument("--games", type=int, default=100)
            p.add_argument("--against", nargs="+",
                           default=["random", "greedy"] + (["strong", "perfect"] if name == "sim" else []))
        if name == "sim":
            p.add_argument("--nodes", type=int, default=6)
        if name == "rubiks_cube":
            p.add_argument("--scrambles", type=int, default=100)
            p.add_argument("--scramble-moves", type=int, default=25)
    args = parser.parse_args(argv)
    COMMANDS[args.game](args)


if __name__ == "__main__":
    main()
