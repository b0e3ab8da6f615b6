"""Short finished games of every registered game, played by bots, as turn records: what the analysis tests
analyse (``tests/test_analysis_every_game.py``, ``tests/test_poker_analysis.py``)."""
from __future__ import annotations

import random

from games.bots import levels_for, make_bot
from games.engine import load_game
from games.engine.api import CHANCE
from games.engine.history import apply_record

# Parameters that keep each game short; a game not named plays with its defaults.
SHORT = {"hex": {"size": 5}, "poker": {"players": 3, "chips": 100, "big_blind": 20},
         "rubiks_cube": {"scramble_moves": 6}}
# Games whose random play would not end soon: their best level plays.
SOLVERS = ("rubiks_cube", "ropasci_puzzle")


def play(name: str, seed: int = 1, max_turns: int = 400) -> tuple[dict, list[dict]]:
    """(params, turn records) of a game played to its end by bots: random moves (the best level's for the
    puzzles), chance drawn by its odds."""
    params = SHORT.get(name, {})
    game = load_game(name, **params)
    rng = random.Random(seed)
    level = next(lv for lv in ("perfect", "strong") if lv in levels_for(game)) if name in SOLVERS else "random"
    bots = {seat: make_bot(level, game, seat, seed=seed, seconds=0.05) for seat in game.info.players}
    state, records = game.new_initial_state(), []
    while not state.is_terminal():
        assert len(records) < max_turns, f"{name} did not end in {max_turns} turns"
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            record = {CHANCE: rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]}
        else:
            record = {seat: game.action_to_json(bots[seat].choose(state)) for seat in state.players_to_act()}
        apply_record(game, state, record)
        records.append(record)
    return params, records
