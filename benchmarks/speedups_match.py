"""RoPaSci 360's C speedups weighed by what they buy a bot: the strong bot with them against itself without.

``games/ropasci360/_speedups.c`` replaces two methods of ``RoPaSci360State``, ``legal_actions`` and
``apply_actions``; ``rules.PURE_LEGAL_ACTIONS`` and ``rules.PURE_APPLY_ACTIONS`` are the Python ones. So both
variants live in one process: before each bot's ``choose`` the class gets that side's pair (the bots reach
the engine only through the state's methods; everything else they call is Python in both). Each side then
runs on the same machine at the same moments, so load on the shared cores hits both alike. The game itself
is resolved with the Python pair (the reference) outside the bots' clocks. Three parts:

1. random playouts (as ``benchmarks/engine.py``), rounds alternating between the two, turns per second;
2. fixed work: the strong bot's depth-1 search without a clock at positions of a seeded game, with each
   pair in turn: CPU time to order both seats' candidates, then matrix entries (leaves) per CPU second of a
   ``--width`` matrix;
3. the match: ``--games`` games of the strong bot, ``--seconds`` of wall clock per move each, under the
   course's rules (the 360-turn cap included), in pairs: each pair starts from its own ``--opening`` turns
   of seeded random actions (from the empty board the two bots often repeat one 9-turn line into a draw by
   repetition, a game that says nothing about speed) and is played twice, sides swapped (the C side is
   Upper in games 1, 3, 5, ...). The C side's score with a Wilson 95% interval over games (as ``manage.py
   arena`` gives it) and a Student t interval over pairs, and each side's matrix entries and width per move.

    python benchmarks/speedups_match.py --games 60 --seconds 0.15 --workers 2 --seed 1     # about 20 min

Needs the extension built (``make setup``) and not switched off (``ROPASCI_PURE_PYTHON``).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import make_bot  # noqa: E402
from games.bots.arena import wilson_interval  # noqa: E402
from games.bots.strong import StrongBot  # noqa: E402
from games.ropasci360 import make_game, rules  # noqa: E402

State = rules.RoPaSci360State
PAIRS = {"C": (State.__dict__["legal_actions"], State.__dict__["apply_actions"]),
         "pure": (rules.PURE_LEGAL_ACTIONS, rules.PURE_APPLY_ACTIONS)}
SEATS = ("upper", "lower")


def use(variant: str) -> None:
    """Give RoPaSci360State the C or the pure-Python ``legal_actions`` and ``apply_actions``."""
    State.legal_actions, State.apply_actions = PAIRS[variant]


# --- 1. playouts ------------------------------------------------------------------------------------------

def playouts(seconds: float, seed: int) -> float:
    """Random playouts for ``seconds`` (each turn lists both sides' actions and applies one of each): turns/s."""
    rnd = random.Random(seed).random
    turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = rules.RoPaSci360State()
        while not state.is_terminal():
            a = state.legal_actions("upper")
            b = state.legal_actions("lower")
            state.apply_actions({"upper": a[int(rnd() * len(a))], "lower": b[int(rnd() * len(b))]})
            turns += 1
    return turns / (time.perf_counter() - start)


# --- 2. fixed work ----------------------------------------------------------------------------------------

def sample_positions(seed: int, every: int) -> list:
    """Every ``every``-th position of one seeded game of two fast strong bots (mid-game positions as bots
    meet them, not random ones)."""
    game = make_game()
    use("pure")
    bots = {s: make_bot("strong", game, s, seed=seed + k, seconds=0.02) for k, s in enumerate(SEATS)}
    state, out = game.new_initial_state(), []
    while not state.is_terminal():
        if state.turn % every == 0:
            out.append(state.clone())
        state.apply_actions({s: bots[s].choose(state) for s in SEATS})
    return out


def search_cpu(state, variant: str, width: int) -> tuple[float, int, float]:
    """The strong bot's depth-1 search at ``state`` with a fixed width and no clock: CPU seconds for both
    seats' candidates, then the matrix's entries and CPU seconds (the part a longer budget buys more of)."""
    use(variant)
    bot = StrongBot(make_game(), "upper", seed=0, seconds=0.0)
    start = time.process_time()
    A, B = bot.candidates(state, list(state.legal_actions("upper")))
    middle = time.process_time()
    bot.stats = {"entries": 0}
    bot.matrix_game(state, A, B, (width,))
    return middle - start, bot.stats["entries"], time.process_time() - middle


# --- 3. the match -----------------------------------------------------------------------------------------

def opening(seed: int, turns: int):
    """The position after ``turns`` turns of uniformly random legal actions (seeded), and every position
    on the way (the bots are shown them, for the repetition rule)."""
    rnd = random.Random(seed)
    state = make_game().new_initial_state()
    positions = [state.clone()]
    while state.turn < turns and not state.is_terminal():
        state.apply_actions({s: rnd.choice(list(state.legal_actions(s))) for s in SEATS})
        positions.append(state.clone())
    return state, positions


def play(index: int, seed: int, seconds: float, opening_turns: int) -> dict:
    """Game ``index``: the C side has seat ``index % 2``, from opening ``index // 2`` (``opening_turns``
    random turns: games 2k and 2k + 1 start alike, sides swapped). Each side's entries and width per
    searched move."""
    game = make_game()
    c_seat = SEATS[index % 2]
    variant = {c_seat: "C", SEATS[1 - index % 2]: "pure"}
    bots = {s: make_bot("strong", game, s, seed=2 * (seed + index) + k, seconds=seconds)
            for k, s in enumerate(SEATS)}
    searched = {"C": [], "pure": []}  # (entries, width) per move that searched
    use("pure")
    state, seen = opening(seed + index // 2, opening_turns)
    for position in seen[:-1]:  # the bots observe the last one when choosing
        for bot in bots.values():
            bot.observe(position)
    started = time.perf_counter()
    while not state.is_terminal():
        joint = {}
        for s in SEATS:
            use(variant[s])
            bots[s].stats = {}
            joint[s] = bots[s].choose(state)
            st = bots[s].stats
            if "seconds" in st:  # a full search (not a single legal action)
                searched[variant[s]].append((st["entries"], st["width"]))
        use("pure")
        state.apply_actions(joint)
    res = state.result()
    score = 0.5 if res.winner is None else float(res.winner == c_seat)
    return {"index": index, "c_seat": c_seat, "result": res.text, "turns": state.turn, "c_score": score,
            "searched": searched, "seconds": time.perf_counter() - started}


def pair_interval(records) -> tuple[float, float, float]:
    """The C side's mean score and 95% interval (Student t) over pairs of games from the same opening:
    pairs, not games, are the independent trials."""
    from scipy.stats import t
    pairs = [(a["c_score"] + b["c_score"]) / 2 for a, b in zip(records[::2], records[1::2])]
    mean = sum(pairs) / len(pairs)
    if len(pairs) < 2:
        return mean, 0.0, 1.0
    half = t.ppf(0.975, len(pairs) - 1) * statistics.stdev(pairs) / len(pairs) ** 0.5
    return mean, mean - half, mean + half


def _play(args):
    return play(*args)


def _mean(xs) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="match games, rounded up to pairs (0: speed parts only)")
    parser.add_argument("--seconds", type=float, default=0.15, help="wall-clock budget per move of each bot")
    parser.add_argument("--workers", type=int, default=2, help="games played in parallel")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening", type=int, default=4,
                        help="random turns before the bots play; each opening is played twice, sides swapped")
    parser.add_argument("--rounds", type=int, default=3, help="playout rounds of each variant (0: skip)")
    parser.add_argument("--round-seconds", type=float, default=3.0)
    parser.add_argument("--width", type=int, default=20, help="fixed search width (0: skip that part)")
    args = parser.parse_args(argv)
    if rules.SPEEDUPS != "on":
        sys.exit(f"RoPaSci 360's C speedups are not in use ({rules.SPEEDUPS}): build them with `make setup`")

    if args.rounds:
        rates = {"C": [], "pure": []}
        for r in range(args.rounds):
            for variant in (("C", "pure") if r % 2 == 0 else ("pure", "C")):
                use(variant)
                rates[variant].append(playouts(args.round_seconds, args.seed + r))
        c, p = statistics.median(rates["C"]), statistics.median(rates["pure"])
        print(f"playouts: C {c:,.0f} turns/s, pure {p:,.0f} turns/s (medians of {args.rounds} "
              f"{args.round_seconds:g} s rounds): {c / p:.2f}x", flush=True)

    if args.width:
        positions = sample_positions(args.seed, 6)
        work = {"C": [0.0, 0, 0.0], "pure": [0.0, 0, 0.0]}  # candidates CPU s, entries, matrix CPU s
        for k, state in enumerate(positions):
            for variant in (("C", "pure") if k % 2 == 0 else ("pure", "C")):
                for i, x in enumerate(search_cpu(state, variant, args.width)):
                    work[variant][i] += x
        (cc, ce, cs), (pc, pe, ps) = work["C"], work["pure"]
        print(f"fixed search ({len(positions)} positions): candidates C {1e3 * cc / len(positions):.1f} ms, "
              f"pure {1e3 * pc / len(positions):.1f} ms a position; a width-{args.width} matrix C "
              f"{ce / cs:,.0f} entries per CPU s, pure {pe / ps:,.0f}: {(ce / cs) / (pe / ps):.3f}x", flush=True)

    if args.games <= 0:
        return
    use("pure")
    games = args.games + args.games % 2  # whole pairs
    jobs = [(i, args.seed * 100003, args.seconds, args.opening) for i in range(games)]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    records = []
    with ProcessPoolExecutor(max_workers=max(1, args.workers), mp_context=context) as pool:
        for rec in pool.map(_play, jobs):
            records.append(rec)
            ent = {v: _mean([e for e, _ in rec["searched"][v]]) for v in ("C", "pure")}
            print(f"game {rec['index'] + 1}: C={rec['c_seat']}: {rec['result']} after {rec['turns']} turns, "
                  f"C score {rec['c_score']:g}; entries/move C {ent['C']:.0f} pure {ent['pure']:.0f} "
                  f"({rec['seconds']:.0f} s)", flush=True)
    n = len(records)
    score = sum(r["c_score"] for r in records) / n
    lo, hi = wilson_interval(score, n)
    w = sum(r["c_score"] == 1.0 for r in records)
    d = sum(r["c_score"] == 0.5 for r in records)
    moves = {v: [m for r in records for m in r["searched"][v]] for v in ("C", "pure")}
    ent = {v: _mean([e for e, _ in moves[v]]) for v in moves}
    wid = {v: _mean([x for _, x in moves[v]]) for v in moves}
    for seat in SEATS:
        rs = [r["c_score"] for r in records if r["c_seat"] == seat]
        print(f"C as {seat}: {sum(rs):g} of {len(rs)}")
    print(f"searched moves: C {len(moves['C'])}, pure {len(moves['pure'])}; matrix entries per move: "
          f"C {ent['C']:.1f}, pure {ent['pure']:.1f} ({ent['C'] / ent['pure']:.3f}x); "
          f"width reached: C {wid['C']:.2f}, pure {wid['pure']:.2f}")
    print(f"mean game length {_mean([r['turns'] for r in records]):.0f} turns")
    mean, plo, phi = pair_interval(records)
    print(f"by pairs of games from the same opening: {mean:.3f} (95% CI {plo:.3f}-{phi:.3f}, {n // 2} pairs)")
    print(f"C vs pure at {args.seconds:g} s a move: {w}-{d}-{n - w - d} score={score:.3f} "
          f"(95% CI {lo:.3f}-{hi:.3f})")


if __name__ == "__main__":
    main()
