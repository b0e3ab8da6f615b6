"""Agents for ``python -m games.client``'s generic interface, which plays any game: a class built as
``Class(seat)`` with ``choose(observation, legal_actions)`` returning one of ``legal_actions`` (the API's JSON).
Pure Python; also a starting point for your own (``docs/api.md``, "Write a bot")."""
from __future__ import annotations

import random


class RandomAgent:
    """Any legal action, uniformly: ``python -m games.client ... --player games.bots.agent:RandomAgent``."""

    def __init__(self, seat: str, seed: int | None = None):
        self.seat = seat
        self.rng = random.Random(seed)

    def choose(self, observation, legal_actions):
        return self.rng.choice(legal_actions)
