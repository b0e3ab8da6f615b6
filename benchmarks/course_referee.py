"""The course adapter measured as the 2021 COMP30024 referee measures a player: memory and CPU.

The referee imports both players' packages, takes the process's virtual size (``VmSize`` in ``/proc/self/status``)
as its baseline, and after every ``__init__``, ``action()`` and ``update()`` ends the game ("resource limit
exceeded") once ``VmPeak`` minus that baseline passes the limit (100 MB per player); each player may also use 60 s
of CPU. This plays one whole game of one of our classes (``games.bots.comp30024``) against a random course-style
opponent (or, with ``--opponent``, one of the engine's bots or a course-style ``package:Class`` such as the sparring
partner ``games.ropasci360.sparring:Player``, whose memory then counts against ours too: a longer game, still
measured conservatively) and reports the largest growth it saw and the CPU of our player's calls. Our
package is imported first and the baseline taken at once: whatever the referee side loads later (the rules to check
moves, the opponent's engine state) counts against us, which is stricter than the referee. One game per process, as
the referee plays.

    python benchmarks/course_referee.py [--player Player] [--side upper] [--seed 1] [--max-turns 360] [--json]
    python benchmarks/course_referee.py --json --moves   # with the game's record, to replay a draw or a loss
    python benchmarks/course_referee.py --opponent strong --opponent-seconds 0.05   # a long game
    python benchmarks/course_referee.py --opponent games.ropasci360.sparring:Player --side lower
    python benchmarks/course_referee.py --set THROW_FULL=160 --set KEPT=60   # an evaluation experiment

``--set NAME=VALUE`` changes a weight of the RoPaSci 360 evaluation (``games.ropasci360.bots``, C core included)
for this game only, before anything plays: how the weight experiments of ``docs/bots.md`` were run.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LIMIT_MB = 100  # the course's memory limit per player
CPU_LIMIT = 60.0  # the course's CPU limit per player


def vm_mb(key: str) -> float:
    """``VmSize`` or ``VmPeak`` of this process in MB, as the referee reads them."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {key} in /proc/self/status")


def set_weights(assignments: list[str]) -> dict:
    """Apply ``NAME=VALUE`` (a JSON value) to the evaluation's weights; the applied ones."""
    if not assignments:
        return {}
    from games.ropasci360 import bots
    applied = {}
    for item in assignments:
        name, _, text = item.partition("=")
        if not hasattr(bots, name):
            raise SystemExit(f"--set: games.ropasci360.bots has no {name!r}")
        value = json.loads(text)
        setattr(bots, name, tuple(value) if isinstance(value, list) else value)
        applied[name] = value
    bots.core_constants.cache_clear()  # the C core reads them at its first use, after this
    return applied


def play(player: str, side: str, seed: int, max_turns: int, opponent: str = "random",
         opponent_seconds: float = 0.05, moves: bool = False) -> dict:
    """One game of ``games.bots.comp30024.<player>`` on ``side`` against ``opponent`` (a bot level, or a
    course-style ``package:Class``), as the referee measures it; ``max_turns`` below 360 stops early (a bounded
    measurement, not a whole game); ``moves`` adds the game's record (each turn's ``[upper, lower]`` actions)."""
    preloaded = sorted(m for m in ("numpy", "scipy") if m in sys.modules)
    import games.bots.comp30024 as ours
    baseline = vm_mb("VmSize")

    from games.engine import load_game  # the referee's rules and the opponent's state, after the baseline
    game = load_game("ropasci360")
    other = "lower" if side == "upper" else "upper"
    state = game.new_initial_state()
    rng = random.Random(seed)
    course_opponent = None
    if ":" in opponent:  # a course-style player, told both actions after each turn
        from games.bots.arena import load_player_class
        random.seed(seed)
        course_opponent = load_player_class(opponent)(other)
    elif opponent != "random":
        from games.bots import make_bot
        bot = make_bot(opponent, game, other, seed=seed, seconds=opponent_seconds)
    cpu = 0.0
    growth: dict[str, float] = {}
    throws: dict[str, list[int]] = {side: [], other: []}  # the turns on which each side threw

    rises = [0.0]  # how far VmPeak rose during our own calls
    record = []
    searched = {"moves": 0, "entries": 0, "inner": 0}  # what the strong bot's searches did (machine speed shows here)

    def call(what: str, fn, *args):
        nonlocal cpu
        peak = vm_mb("VmPeak")
        started = time.process_time()
        out = fn(*args)
        cpu += time.process_time() - started
        now = vm_mb("VmPeak")
        rises[0] += now - peak
        growth[what] = max(growth.get(what, 0.0), now - baseline)
        return out

    me = call("init", getattr(ours, player), side)
    while not state.is_terminal() and state.turn < max_turns:
        if course_opponent is not None:
            theirs = tuple(tuple(x) if isinstance(x, list) else x for x in course_opponent.action())
        else:
            theirs = rng.choice(list(state.legal_actions(other))) if opponent == "random" else bot.choose(state)
        acts = {side: call("action", me.action), other: theirs}
        stats = getattr(getattr(me, "bot", None), "stats", None)
        if stats and stats is not searched.get("last"):  # a new search (a forced move searches nothing)
            searched["last"] = stats
            searched["moves"] += 1
            searched["entries"] += stats.get("entries", 0)
            searched["inner"] += stats.get("inner", 0)
        for seat, action in acts.items():
            state.check_action(seat, action)
            if action[0] == "THROW":
                throws[seat].append(state.turn + 1)
        record.append([acts["upper"], acts["lower"]])
        state.apply_actions(acts)
        call("update", me.update, acts[other], acts[side])
        if course_opponent is not None:
            course_opponent.update(acts[side], acts[other])
    result = state.result()
    per_move = {f"{k}_per_move": round(searched[k] / searched["moves"], 1) for k in ("entries", "inner")
                if searched["moves"]}
    extra = {"moves": record} if moves else {}
    return {"player": player, "side": side, "opponent": opponent, "seed": seed, "turns": state.turn,
            "result": result.text if result else "unfinished", "baseline_mb": round(baseline, 1),
            "thrown": {seat: state.thrown[k] for k, seat in enumerate(game.info.players)},
            "left": {seat: dict(zip("rps", state.symcount[k])) for k, seat in enumerate(game.info.players)},
            "throw_turns": throws,
            "growth_mb": {k: round(v, 1) for k, v in growth.items()}, "peak_growth_mb": round(max(growth.values()), 1),
            # What of that growth happened inside our own calls (the rest: the opponent's calls and the rules').
            "own_growth_mb": round(rises[0], 1),
            "cpu_s": round(cpu, 2), "preloaded": preloaded, **per_move, **extra}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", default="Player", choices=("Player", "GreedyPlayer", "RandomPlayer"))
    parser.add_argument("--side", default="upper", choices=("upper", "lower"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="random",
                        help="random, greedy, strong, or a course-style package:Class "
                             "(e.g. games.ropasci360.sparring:Player)")
    parser.add_argument("--opponent-seconds", type=float, default=0.05, help="the strong opponent's time per move")
    parser.add_argument("--max-turns", type=int, default=360)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    parser.add_argument("--moves", action="store_true", help="with --json: the game's record too")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="an evaluation weight of games.ropasci360.bots for this game (JSON value)")
    args = parser.parse_args()
    weights = set_weights(args.set)
    rec = play(args.player, args.side, args.seed, args.max_turns, args.opponent, args.opponent_seconds, args.moves)
    if weights:
        rec["weights"] = weights
    if args.json:
        print(json.dumps(rec))
        return
    verdict = "ok" if rec["peak_growth_mb"] < LIMIT_MB and rec["cpu_s"] < CPU_LIMIT else "OVER THE LIMIT"
    print(f"{rec['player']} ({rec['side']}) vs {rec['opponent']}: {rec['result']} after {rec['turns']} turns; "
          f"VmPeak growth {rec['peak_growth_mb']} MB (after __init__ {rec['growth_mb']['init']} MB, "
          f"baseline VmSize {rec['baseline_mb']} MB); CPU {rec['cpu_s']} s: {verdict}")
    if "entries_per_move" in rec:
        print(f"search: {rec['entries_per_move']} matrix entries and {rec['inner_per_move']} second-stage games a move")


if __name__ == "__main__":
    main()
