"""The bot interface and the generic random bot."""
from __future__ import annotations

import random


class Bot:
    """A player for one seat of one game: ``choose(state)`` returns a legal action of that seat.

    ``observe(state)`` may be called with every position of the game as it is reached (before ``choose``
    on it); bots that care about history (repetitions) remember what they saw. ``choose`` observes its
    own argument too, so calling ``observe`` is only needed for positions where the bot did not choose.
    """

    level = "?"

    def __init__(self, game, seat: str, *, seed: int | None = None, seconds: float | None = None):
        self.game = game
        self.seat = seat
        self.seed = seed
        self.seconds = seconds
        self.rng = random.Random(seed)

    def observe(self, state) -> None:
        pass

    def choose(self, state):
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.level} {self.game.info.name}:{self.seat}>"


class RandomBot(Bot):
    """A uniformly random legal action, for any engine game."""

    level = "random"

    def choose(self, state):
        parts = state.legal_action_parts(self.seat)
        if parts is not None:  # one part at a time: the same uniform choice, without listing the product
            if not all(parts):
                raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
            return tuple(options[self.rng.randrange(len(options))] for options in parts)
        actions = state.legal_actions(self.seat)
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        return actions[self.rng.randrange(len(actions))]
