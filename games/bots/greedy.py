"""The greedy bot: the best immediate outcome by the game's evaluation, ignoring the opponent's reply."""
from __future__ import annotations

from . import get_evaluation
from .base import Bot


class GreedyBot(Bot):
    level = "greedy"

    def __init__(self, game, seat, *, seed=None, seconds=None):
        super().__init__(game, seat, seed=seed, seconds=seconds)
        self.ev = get_evaluation(game.info.name)

    def choose(self, state):
        actions = list(state.legal_actions(self.seat))
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        scores = self.ev.score_actions(state, self.seat, actions, greedy=True)
        best = max(scores)
        ties = [a for a, s in zip(actions, scores) if s >= best - 1e-9]
        return ties[self.rng.randrange(len(ties))]
