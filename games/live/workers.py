"""Bot workers on the channel layer: ``python manage.py runworker bot-moves`` (one move at a time per
process; start as many processes, on as many machines, as the bots need). Used when ``BOT_QUEUE=channels``
(with Redis: ``REDIS_URL``); the embedded default computes in an in-process pool instead.

A message names (game, seat, turn). The worker reads the game, skips a move that is no longer due (the turn
moved on, the game ended), computes it with the seat's level and time, and submits it through the services,
which refuse a second move for the same turn: never a double move, never a move on a stale turn. A message
lost with a worker that died mid-move is sent again by a web server's sweep once the bot has been due for
``BOT_STALL_SECONDS``.
"""
from __future__ import annotations

import logging
import time

from channels.consumer import SyncConsumer
from django.utils import timezone

log = logging.getLogger(__name__)

CHANNEL = "bot-moves"


class BotMoveWorker(SyncConsumer):
    def bot_move(self, message):
        from games.bots.play import choose_action
        from games.models import Game
        from games.play import botmoves, services, turnlog
        game_id, side, turn = message["game_id"], message["side"], message["turn"]
        game = Game.objects.filter(pk=game_id).first()
        seat = botmoves.due_seat(game, side, turn)
        if seat is None:
            return  # done already (another worker, a restart's duplicate) or no longer due
        turns = turnlog.records(game)
        try:
            action = choose_action(game.kind, turns, side, seat.bot_level, botmoves.bot_seconds(seat),
                                   params=game.params)
            time.sleep(botmoves.wait_before(game, timezone.now()))  # a watched game's pace (this worker's one move)
            services.submit_bot_action(game_id, side, turn, action)
            log.info("bot move %s/%s/%s played by worker %s", game_id, side, turn, self.channel_name)
        except services.ServiceError as exc:
            log.info("bot move %s/%s/%s not used: %s", game_id, side, turn, exc.message)
        except Exception:
            log.exception("bot move %s/%s/%s failed; the sweep will send it again", game_id, side, turn)
