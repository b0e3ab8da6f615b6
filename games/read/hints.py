"""Hints for one-player games (a puzzle, 2048, the cube): the game's best bot level chooses the move the player
is to make, in the bot workers; the player sees it in words and may play it. Only for games with one seat, so
a hint can never help against another person. One computation per game turn: the answer is cached."""
from __future__ import annotations

from concurrent.futures import TimeoutError as FutureTimeout

from django.core.cache import cache

from games.play import services
from games.bots import levels_for
from games.bots import pool
from games.models import Game
from games.play import turnlog

HINT_SECONDS = 2.0  # the bot's time for a hint
WAIT_SECONDS = 30.0  # the longest the request waits for the worker (a busy pool queues it)


def best_level(engine) -> str:
    return levels_for(engine)[-1]


def hint(game_id: str, token: str | None) -> tuple[Game, str, object]:
    """(game, side, action JSON): the best bot's move for the token's seat in the turn in play."""
    game = services.get_game(game_id)
    seat = services.seat_for_token(game, token)
    engine = services.engine_for(game)
    if len(engine.info.players) != 1:
        raise services.Forbidden("hints are only for one-player games")
    if game.status != Game.Status.ACTIVE or seat.side not in services.waiting_on(game):
        raise services.Conflict("there is no move of yours to hint at now")
    key = f"hint:{game.id}:{game.turn}"
    action = cache.get(key)
    if action is None:
        turns = turnlog.records(game)
        future = pool.submit(game.kind, turns, seat.side, best_level(engine), seconds=HINT_SECONDS,
                             params=game.params)
        try:
            action = future.result(timeout=WAIT_SECONDS)
        except FutureTimeout:
            raise services.Conflict("the bots are busy: ask again in a moment") from None
        cache.set(key, action, 3600)
    return game, seat.side, action
