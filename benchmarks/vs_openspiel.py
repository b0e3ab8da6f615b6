"""Our bots against OpenSpiel's MCTS (random rollouts) at tic_tac_toe, connect_four, othello and hex.

OpenSpiel is a benchmark-only dependency, imported nowhere else:

    .venv/bin/pip install -r benchmarks/requirements-openspiel.txt
    .venv/bin/python benchmarks/vs_openspiel.py --game connect_four --games 20 --jobs 2

Each game steps both engines with every move: ours (``games.<name>``, which checks legality and decides the
result) and OpenSpiel's (``pyspiel``, which the MCTS bot searches); at the end both must agree that the game
is over and on the winner. The opponent is ``open_spiel.python.algorithms.mcts.MCTSBot`` with
``RandomRolloutEvaluator(n_rollouts=1)``, ``uct_c=2`` and ``--simulations`` per move (its defaults otherwise,
so it solves terminal subtrees). Who moves first alternates from game to game; our bot plays ``--level``
with ``--seconds`` per move. Seeds: game ``i`` uses ``--seed + i`` for both bots.

Actions: an OpenSpiel action is a cell index ``row * width + col`` (a column for Connect Four); our JSON
actions are the same cell index (tic-tac-toe), a column (Connect Four) or ``[row, col]``, and anything else
is a pass (Othello: OpenSpiel's action 64). Seats: our first seat is OpenSpiel's player 0 in every game,
checked against OpenSpiel 2.0.2: Tic-tac-toe: player 0 is ``x`` and moves first, as ours. Connect Four:
player 0 (``x``) drops first = yellow. Othello: player 0 is Black (``x``) and moves first; the start is
White on (3, 3) and (4, 4), Black on (3, 4) and (4, 3), as ours. Hex: player 0 (``x``) moves first and joins
row 0 to the last row = our black; player 1 joins column 0 to the last column = white; besides its row and
column neighbours, (r, c) touches (r - 1, c + 1) and (r + 1, c - 1) (ours must agree: the final check would
catch it); no swap rule.
A side with no move in Othello passes explicitly in OpenSpiel; if our engine skips that side instead, the
pass is applied to OpenSpiel alone.

Prints one line per game, then e.g. ``connect_four strong(1.0s) vs openspiel-mcts(1000): 17.5/20 = 0.875
(W 17 D 1 L 2)`` and the score's Wilson 95% interval, ``95% CI 0.669-0.960``.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots.arena import wilson_interval  # noqa: E402


GAMES = ("tic_tac_toe", "connect_four", "othello", "hex")


@dataclass(frozen=True)
class Spec:
    """How one of our games maps onto OpenSpiel's."""

    openspiel: str  # OpenSpiel's game name
    width: int  # cells per row in OpenSpiel's action numbering
    pass_action: int | None = None
    sized: bool = False  # takes --size (ours as "size", OpenSpiel's as "board_size")


def spec_for(name: str, size: int) -> Spec:
    if name == "tic_tac_toe":
        return Spec("tic_tac_toe", 3)
    if name == "connect_four":
        return Spec("connect_four", 7)
    if name == "othello":
        return Spec("othello", 8, pass_action=64)
    if name == "hex":
        return Spec("hex", size, sized=True)
    raise SystemExit(f"no OpenSpiel counterpart for {name!r} (games: {', '.join(GAMES)})")


def to_openspiel(spec: Spec, data) -> int:
    """Our JSON action as OpenSpiel's action number."""
    if isinstance(data, int) and not isinstance(data, bool):
        return data
    if isinstance(data, (list, tuple)) and len(data) == 2 and all(isinstance(v, int) for v in data):
        return data[0] * spec.width + data[1]
    if spec.pass_action is None:
        raise ValueError(f"cannot translate {data!r} for OpenSpiel's {spec.openspiel}")
    return spec.pass_action


def our_bot(name: str, level: str, game, seat: str, seed: int, seconds: float):
    """The package's own bot for ``level`` (its ``BOTS``), else the generic one with its evaluation."""
    from games.bots.base import RandomBot
    if level == "random":
        return RandomBot(game, seat, seed=seed, seconds=seconds)
    evaluation = importlib.import_module(f"games.{name}.bots")
    own = getattr(evaluation, "BOTS", {})
    if level in own:
        return own[level](game, seat, seed=seed, seconds=seconds)
    if level == "strong":
        from games.bots.alphabeta import AlphaBetaBot
        return AlphaBetaBot(game, seat, evaluation=evaluation, seed=seed, seconds=seconds)
    if level == "greedy":
        from games.bots.greedy import GreedyBot
        return GreedyBot(game, seat, evaluation=evaluation, seed=seed, seconds=seconds)
    raise SystemExit(f"{name} has no {level!r} bot")


def play(args: argparse.Namespace, index: int) -> dict:
    """Game number ``index``: our bot moves first when ``index`` is even. Returns our score and details."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    spec = spec_for(args.game, args.size)
    game = importlib.import_module(f"games.{args.game}").make_game(**({"size": args.size} if spec.sized else {}))
    os_game = pyspiel.load_game(spec.openspiel, {"board_size": args.size} if spec.sized else {})
    seats = game.info.players
    ours = seats[index % 2]
    seed = args.seed + index
    rng = np.random.RandomState(seed)
    opponent = mcts.MCTSBot(os_game, uct_c=2, max_simulations=args.simulations,
                            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), random_state=rng)
    bot = our_bot(args.game, args.level, game, ours, seed, args.seconds)
    state, os_state = game.new_initial_state(), os_game.new_initial_state()
    thinking, our_moves = 0.0, 0
    while not os_state.is_terminal():
        seat = seats[os_state.current_player()]
        if state.players_to_act() != [seat]:
            if os_state.legal_actions() != [spec.pass_action]:
                raise AssertionError(f"game {index}: OpenSpiel has {seat} to move, ours {state.players_to_act()}"
                                     f"\n{state.to_text()}\n{os_state}")
            os_state.apply_action(spec.pass_action)
            continue
        if seat == ours:
            started = time.perf_counter()
            action = bot.choose(state)
            thinking += time.perf_counter() - started
            our_moves += 1
            os_action = to_openspiel(spec, game.action_to_json(action))
        else:
            os_action = opponent.step(os_state)
            matches = [a for a in state.legal_actions(seat) if to_openspiel(spec, game.action_to_json(a)) == os_action]
            if len(matches) != 1:
                raise AssertionError(f"game {index}: OpenSpiel's action {os_action} matches {matches} of ours")
            action = matches[0]
        state.apply_action(seat, action)
        os_state.apply_action(os_action)
    os_winners = [seats[p] for p, r in enumerate(os_state.returns()) if r > 0]
    result = state.result()
    if result is None or result.winners != os_winners:
        raise AssertionError(f"game {index}: OpenSpiel's winners {os_winners}, ours "
                             f"{result.winners if result else 'not over'}\n{state.to_text()}\n{os_state}")
    return {"index": index, "seat": ours, "score": result.returns[ours], "plies": os_state.move_number(),
            "per_move": thinking / max(our_moves, 1), "text": result.text}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="connect_four", choices=GAMES)
    parser.add_argument("--level", default="strong")
    parser.add_argument("--seconds", type=float, default=1.0, help="our bot's time per move")
    parser.add_argument("--simulations", type=int, default=1000, help="MCTS simulations per move")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=7, help="board size (hex only)")
    args = parser.parse_args(argv)
    indices = range(args.games)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(_report(pool.map(play, [args] * args.games, indices)))
    else:
        results = list(_report(play(args, i) for i in indices))
    wins = sum(r["score"] == 1.0 for r in results)
    draws = sum(r["score"] == 0.5 for r in results)
    total = sum(r["score"] for r in results)
    print(f"{args.game} {args.level}({args.seconds}s) vs openspiel-mcts({args.simulations}): "
          f"{total:g}/{len(results)} = {total / max(len(results), 1):.3f} "
          f"(W {wins} D {draws} L {len(results) - wins - draws})")
    low, high = wilson_interval(total / max(len(results), 1), len(results))
    print(f"95% CI {low:.3f}-{high:.3f}")


def _report(results):
    """Print each game's line as it comes, passing the results on."""
    for r in results:
        outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[r["score"]]
        print(f"game {r['index'] + 1}: ours {r['seat']}: {outcome} ({r['text']}, {r['plies']} plies, "
              f"{r['per_move']:.2f} s/move)", flush=True)
        yield r


if __name__ == "__main__":
    main()
