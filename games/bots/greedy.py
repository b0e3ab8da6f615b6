"""The greedy bot: the best immediate outcome by the game's evaluation, ignoring the opponent's reply.

With an evaluation that has ``score_actions(state, seat, actions, greedy=True)`` (RoPaSci 360's, where the
seats move at once) the bot takes its scores; otherwise it applies each legal action to a clone and scores
the position reached with ``evaluate(child, seat)``. Ties are broken by ``self.rng``.
"""
from __future__ import annotations

from .evaluation import get_evaluation
from .base import Bot


class GreedyBot(Bot):
    level = "greedy"

    def __init__(self, game, seat, *, seed=None, seconds=None, evaluation=None):
        super().__init__(game, seat, seed=seed, seconds=seconds)
        self.ev = evaluation if evaluation is not None else get_evaluation(game.info.name)

    def choose(self, state):
        actions = list(state.legal_actions(self.seat))
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        score_actions = getattr(self.ev, "score_actions", None)
        if score_actions is not None:
            scores = score_actions(state, self.seat, actions, greedy=True)
        else:
            scores = [self._score(state, action) for action in actions]
        best = max(scores)
        ties = [a for a, s in zip(actions, scores) if s >= best - 1e-9]
        return ties[self.rng.randrange(len(ties))]

    def _score(self, state, action) -> float:
        child = state.clone()
        child.apply_action(self.seat, action)
        return self.ev.evaluate(child, self.seat)
