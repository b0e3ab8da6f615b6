"""A game of Expendibots as the COMP30024 2020 referee (``python -m referee WHITE BLACK -t 60 -s 100``) plays it.

What that referee does, redone here from its documented behaviour: it imports both players' packages (a
``package[:Class]`` spec, class ``Player`` by default), reads the process's ``VmSize`` (``/proc/self/status``) as
its memory baseline, builds ``Class("white")`` then ``Class("black")``, and from White on asks the player to move
for ``action()``, checks the action is one of the mover's available actions (a list of tuples compared with
``==``: squares must be tuples), applies it to its own board, then calls ``update(colour, action)`` on White's
player and then Black's with the mover's colour and the very object returned. Every ``__init__``, ``action()``
and ``update()`` runs with the garbage collected first, off the clock; its ``time.process_time`` is added to that
player's total (over ``-t`` seconds: "resource limit exceeded"), and after it the process's ``VmPeak`` minus the
baseline may not pass the shared space limit, ``-s`` MB times two players. The game ends when a side has no
tokens (both: a draw), a position (stacks and side to move) occurs a fourth time, or after 500 actions.

This harness keeps its own board from the actions, exactly as the referee does (its own code: nothing here comes
from the engine), and, as a check on the engine, plays the same actions on ``games.engine``'s Expendibots state
after the baseline: before each action both must list the same available actions for the mover, after it the
same stacks, the same end and the same result line. Output: the referee's result line, or one JSON line.

    python benchmarks/course_referee_2020.py games.bots.comp30024_2020 games.bots.comp30024_2020:RandomPlayer
    python benchmarks/course_referee_2020.py WHITE BLACK [-t 60] [-s 100] [--json]
"""
from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

COLOURS = ("white", "black")
SIZE = 8
MAX_ACTIONS = 500  # each player's 250th turn
START = {**{(x, y): 1 for x in (0, 1, 3, 4, 6, 7) for y in (0, 1)},
         **{(x, y): -1 for x in (0, 1, 3, 4, 6, 7) for y in (6, 7)}}


class LimitExceeded(Exception):
    pass


class IllegalAction(Exception):
    pass


def vm_mb(key: str) -> float:
    """``VmSize`` or ``VmPeak`` of this process in MB, as the referee reads them."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {key} in /proc/self/status")


def load_class(spec: str):
    """``package[:Class]`` (a module name or a path to it) as the referee loads it."""
    package, _, name = spec.partition(":")
    module = package.strip("/\\").replace("/", ".").replace("\\", ".")
    module = module[:-3] if module.endswith(".py") else module
    return getattr(importlib.import_module(module), name or "Player")


# --- the referee's board ---------------------------------------------------------------------------------

def on_board(sq) -> bool:
    return 0 <= sq[0] < SIZE and 0 <= sq[1] < SIZE


def around(sq):
    """The up-to-eight squares next to ``sq`` (diagonals included): what its explosion reaches."""
    x, y = sq
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx or dy) and on_board((x + dx, y + dy))]


class Board:
    """Stacks as ``{(x, y): signed count}`` (White positive), the tokens left, actions so far, positions seen."""

    def __init__(self):
        self.stacks = dict(START)
        self.tokens = {"white": 12, "black": 12}
        self.actions = 0
        self.seen = Counter({self.position(): 1})
        self.draw = None

    def position(self):
        return frozenset(self.stacks.items()), self.actions % 2

    def available(self, colour: str) -> list:
        sign = 1 if colour == "white" else -1
        out = [("BOOM", sq) for sq, n in self.stacks.items() if n * sign > 0]
        for sq, n in self.stacks.items():
            n *= sign
            if n <= 0:
                continue
            for dx, dy in ((0, 1), (0, -1), (-1, 0), (1, 0)):
                for d in range(1, n + 1):
                    to = (sq[0] + dx * d, sq[1] + dy * d)
                    if on_board(to) and self.stacks.get(to, 0) * sign >= 0:
                        out.extend(("MOVE", m, sq, to) for m in range(1, n + 1))
        return out

    def apply(self, colour: str, action) -> None:
        if action not in self.available(colour):
            raise IllegalAction(f"illegal action detected ({colour}): {action!r}.")
        if action[0] == "MOVE":
            _, n, a, b = action
            n = n if colour == "white" else -n
            self.stacks[a] -= n
            if not self.stacks[a]:
                del self.stacks[a]
            self.stacks[b] = self.stacks.get(b, 0) + n
        else:
            chain = [action[1]]
            for sq in chain:  # each stack leaves the board as its explosion starts: it explodes once
                n = self.stacks.pop(sq, 0)
                if n:
                    self.tokens["white" if n > 0 else "black"] -= abs(n)
                    chain.extend(near for near in around(sq) if near in self.stacks)
        self.actions += 1
        self.seen[self.position()] += 1
        if self.actions >= MAX_ACTIONS:
            self.draw = "maximum number of turns reached."
        if self.seen[self.position()] >= 4:
            self.draw = "game state occurred 4 times."

    def over(self) -> bool:
        return min(self.tokens.values()) == 0 or self.draw is not None

    def result(self) -> str:
        if max(self.tokens.values()) == 0:
            return "draw detected: no tokens remaining"
        if min(self.tokens.values()) == 0:
            return "winner: " + max(self.tokens, key=self.tokens.get)
        return f"draw detected: {self.draw}"


# --- the players, measured ---------------------------------------------------------------------------------

class Measured:
    """One player under the referee's clock and the shared memory watch."""

    def __init__(self, cls, time_limit: float, space_limit: float, baseline: float, growth: dict):
        self.cls, self.time_limit, self.space_limit = cls, time_limit, space_limit
        self.baseline, self.growth, self.cpu = baseline, growth, 0.0

    def call(self, what: str, fn, *args):
        gc.collect()  # off the clock
        started = time.process_time()
        out = fn(*args)
        self.cpu += time.process_time() - started
        self.growth[what] = max(self.growth.get(what, 0.0), vm_mb("VmPeak") - self.baseline)
        if self.time_limit and self.cpu > self.time_limit:
            raise LimitExceeded(f"{self.colour} exceeded available time")
        if self.space_limit and self.growth[what] > self.space_limit:
            raise LimitExceeded("players exceeded shared space limit")
        return out

    def init(self, colour: str) -> None:
        self.colour = colour
        self.player = self.call("init", self.cls, colour)


def play(white: str, black: str, time_limit: float = 60.0, space_limit: float = 100.0,
         check_engine: bool = True) -> dict:
    """One game, as the referee plays it, with its figures."""
    preloaded = sorted(m for m in ("numpy", "scipy", "django") if m in sys.modules)
    classes = (load_class(white), load_class(black))
    baseline = vm_mb("VmSize")
    growth: dict[str, float] = {}
    players = [Measured(cls, time_limit, space_limit * len(COLOURS), baseline, growth) for cls in classes]
    board = Board()
    engine = None
    if check_engine:
        from games.engine import load_game
        engine = load_game("expendibots").new_initial_state()
    error = None
    try:
        for player, colour in zip(players, COLOURS):
            player.init(colour)
        mover = 0
        while not board.over():
            colour = COLOURS[mover]
            action = players[mover].call("action", players[mover].player.action)
            if engine is not None:
                check_same_options(board, engine, colour)
            board.apply(colour, action)
            if engine is not None:
                engine.apply_action(colour, action)
                check_same_board(board, engine)
            for player in players:
                player.call("update", player.player.update, colour, action)
            mover = 1 - mover
    except IllegalAction as exc:
        error = f"error: invalid action! {exc}"
    except LimitExceeded as exc:
        error = f"error: resource limit exceeded! {exc}"
    return {"white": white, "black": black, "result": error or board.result(), "actions": board.actions,
            "tokens": board.tokens, "cpu_s": {c: round(p.cpu, 2) for c, p in zip(COLOURS, players)},
            "baseline_mb": round(baseline, 1), "growth_mb": {k: round(v, 1) for k, v in growth.items()},
            "peak_growth_mb": round(max(growth.values(), default=0.0), 1), "preloaded": preloaded,
            "engine_checked": engine is not None and error is None}


def check_same_options(board: Board, engine, colour: str) -> None:
    mine, theirs = set(board.available(colour)), set(engine.legal_actions(colour))
    if mine != theirs:
        raise AssertionError(f"{colour}'s actions differ: referee only {sorted(mine - theirs)[:5]}, "
                             f"engine only {sorted(theirs - mine)[:5]}")


def check_same_board(board: Board, engine) -> None:
    stacks = {sq: n if who == "white" else -n for sq, who, n in engine.stacks()}
    if stacks != board.stacks:
        raise AssertionError(f"after action {board.actions} the boards differ: {stacks} != {board.stacks}")
    if engine.is_terminal() != board.over():
        raise AssertionError(f"after action {board.actions}: engine over {engine.is_terminal()}, referee "
                             f"{board.over()}")
    if board.over() and engine.result().text != board.result():
        raise AssertionError(f"results differ: {engine.result().text!r} != {board.result()!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("white", help="White's player: package[:Class]")
    parser.add_argument("black", help="Black's player: package[:Class]")
    parser.add_argument("-t", "--time", type=float, default=60.0, help="CPU seconds per player (0: no limit)")
    parser.add_argument("-s", "--space", type=float, default=100.0, help="MB per player, shared (0: no limit)")
    parser.add_argument("--no-engine-check", action="store_true", help="do not play the engine alongside")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args()
    rec = play(args.white, args.black, args.time, args.space, not args.no_engine_check)
    if args.json:
        print(json.dumps(rec))
        return
    print(f"{rec['result']} after {rec['actions']} actions; CPU white {rec['cpu_s']['white']} s, black "
          f"{rec['cpu_s']['black']} s; VmPeak growth {rec['peak_growth_mb']} MB of {2 * args.space:g} shared "
          f"(after __init__ {rec['growth_mb'].get('init')} MB; baseline VmSize {rec['baseline_mb']} MB)")


if __name__ == "__main__":
    main()
