"""COMP30024 2021 course adapter: ``Player`` (strong), ``GreedyPlayer``, ``RandomPlayer``.

The course referee loads ``<package>:Player`` (or ``<package>.player``): from the project root,
``python -m referee games.bots.comp30024 OTHER`` plays the strong bot, and
``games.bots.comp30024:GreedyPlayer`` picks another level. See :mod:`games.bots.comp30024.player`.
"""
from .player import GreedyPlayer, Player, RandomPlayer

__all__ = ["GreedyPlayer", "Player", "RandomPlayer"]
