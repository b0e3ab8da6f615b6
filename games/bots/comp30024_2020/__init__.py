"""COMP30024 2020 course adapter (Expendibots): ``Player`` (strong), ``GreedyPlayer``, ``RandomPlayer``.

The 2020 referee loads ``<package>:Player`` (or ``<package>.player``): from the project root,
``python -m referee games.bots.comp30024_2020 OTHER`` plays the strong bot as White, and
``games.bots.comp30024_2020:GreedyPlayer`` picks another level. See :mod:`games.bots.comp30024_2020.player`.
"""
from .player import GreedyPlayer, Player, RandomPlayer

__all__ = ["GreedyPlayer", "Player", "RandomPlayer"]
