"""Bots that play any game through the engine interface; pure Python, never imports Django.

Levels (``LEVELS``):

* ``random``: a uniformly random legal action; works for every game.
* ``greedy``: the action with the best immediate outcome by the game's evaluation, ignoring the replies.
* ``strong``: for simultaneous games, a payoff matrix over pruned candidate actions of both seats solved for
  a mixed Nash equilibrium (SciPy/HiGHS, :mod:`games.bots.strong`); for alternating games, alpha-beta search
  with iterative deepening and a transposition table (:mod:`games.bots.alphabeta`).

``make_bot(level, game, seat, seed=..., seconds=...)`` returns an object with ``choose(state) -> action``
(the engine's action form) and ``observe(state)`` (optional: shows the bot every position of the game).
``greedy`` and ``strong`` need the game's evaluation: the ``bots`` module of its package (see
``docs/bots.md`` for the functions it provides). A game's ``bots`` module may also define ``BOTS``, a dict
level -> factory ``(game, seat, *, seed, seconds) -> Bot``: its own bots for a level (a bitboard search for
``strong``, say) or a level only it has (``perfect``, for a solved game). Levels are offered in ``LEVELS``
order, then any of the game's own.
"""
from __future__ import annotations

from .evaluation import DEFAULT_SECONDS, get_evaluation

LEVELS = ("random", "greedy", "strong", "perfect")
LEVEL_WORDS = {
    "random": "Random: any legal move",
    "greedy": "Greedy: best immediate outcome",
    "strong": "Strong: looks ahead",
    "perfect": "Perfect: plays the game as solved",
}

def _own_bots(game) -> dict:
    try:
        return dict(getattr(get_evaluation(game.info.name), "BOTS", {}) or {})
    except KeyError:
        return {}


def _offered(bot_class, game) -> bool:
    """Whether a game's own level is offered for these options (its class's optional ``plays(game)``: a solved
    player offered only where its table holds the game)."""
    plays = getattr(bot_class, "plays", None)
    return plays is None or bool(plays(game))


def levels_for(game) -> tuple[str, ...]:
    """The bot levels offered for ``game``: ``random``; ``greedy`` and ``strong`` when its evaluation has
    ``evaluate`` (``strong`` by alpha-beta only for two seats); and every level of its own ``BOTS`` that plays
    these options."""
    own = {level: cls for level, cls in _own_bots(game).items() if _offered(cls, game)}
    try:
        ev = get_evaluation(game.info.name)
    except KeyError:
        ev = None
    generic = {"random"}
    if ev is not None and hasattr(ev, "evaluate"):
        generic.add("greedy")
        if game.info.simultaneous or len(game.info.players) == 2:
            generic.add("strong")
    have = generic | set(own)
    return tuple(level for level in LEVELS if level in have) + tuple(sorted(set(own) - set(LEVELS)))


def make_bot(level: str, game, seat: str, *, seed: int | None = None, seconds: float | None = None):
    """A bot of ``level`` playing ``seat`` in ``game`` (an engine Game object or its registered name)."""
    if isinstance(game, str):
        from games.engine import load_game
        game = load_game(game)
    if seat not in game.info.players:
        raise ValueError(f"unknown seat {seat!r} for {game.info.name} (seats: {', '.join(game.info.players)})")
    # A game's own level is made even for options it is no longer offered for: games started before keep it.
    if level not in levels_for(game) and level not in _own_bots(game):
        raise ValueError(f"no {level!r} bot for {game.info.name} (levels: {', '.join(levels_for(game))})")
    own = _own_bots(game).get(level)
    if own is not None:
        return own(game, seat, seed=seed, seconds=seconds)
    if level == "random":
        from .base import RandomBot
        return RandomBot(game, seat, seed=seed, seconds=seconds)
    if level == "greedy":
        from .greedy import GreedyBot
        return GreedyBot(game, seat, seed=seed, seconds=seconds)
    if level == "strong":
        if game.info.simultaneous:
            from .strong import StrongBot
            return StrongBot(game, seat, seed=seed, seconds=seconds)
        from .alphabeta import AlphaBetaBot
        return AlphaBetaBot(game, seat, seed=seed, seconds=seconds)
    raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")


__all__ = ["DEFAULT_SECONDS", "LEVELS", "LEVEL_WORDS", "get_evaluation", "levels_for", "make_bot"]
