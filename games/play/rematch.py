"""Another game after one has ended: the same kind and parameters (or the next puzzle of the game's
library), the seats swapped (rotated by one in games of three or more), bots kept at their level and their
time (and a watched game of bots its pace), the browser's seat moved with the swap.

Against people, the first player to ask makes the rematch with the others' seats open, and the finished game
names it (``Game.rematch``, announced so that their pages offer it): each other player who then asks takes
their swapped seat in that same game, and the game starts once all have."""
from __future__ import annotations

from django.db import transaction

from games.engine.ui import ui_for
from games.models import Game, Seat
from games.play.access import get_game
from games.play.announce import after_commit
from games.play.create import Created, claim_seat, create_game, load_kind
from games.play.errors import BadRequest, Conflict


def swapped(sides: list[str], side: str) -> str:
    """The seat that ``side`` plays in the rematch: the next one (the same in a one-player game)."""
    return sides[(sides.index(side) + 1) % len(sides)]


def open_rematch(game: Game) -> Game | None:
    """The rematch one of ``game``'s players offers, while it still waits for the others."""
    offered = game.rematch
    return offered if offered is not None and offered.status == Game.Status.WAITING else None


def rematch(game_id: str, side: str | None, *, preset: str = "", user=None) -> tuple[Created, str | None]:
    """Create the rematch of a finished game, or take one's seat in the rematch another player made; ``side``:
    the seat the asker played (None: a spectator of a game of bots). ``preset``: the name of a ready-made
    setup of the game to play instead of the same parameters (the library's next puzzle). Returns the game
    and the asker's seat in it."""
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        if not game.is_over:
            raise Conflict("the game is not over yet")
        eg = load_kind(game.kind, game.params)
        sides = list(eg.info.players)
        seats = {s.side: s for s in game.seats.all()}
        if side is None and any(s.kind == Seat.Kind.HUMAN for s in seats.values()):
            raise Conflict("only a player of this game can ask for a rematch")
        new_side = swapped(sides, side) if side else None
        offered = open_rematch(game)
        if offered is not None and not preset:
            _, taken, token = claim_seat(offered.id, new_side, user=user, name=seats[side].display_name)
            game.save(update_fields=["updated"])  # its pages now lead to the rematch rather than offer it
            after_commit(game)
            return Created(get_game(offered.id), {taken: token}), taken
        params = dict(game.params)
        if preset:
            chosen = next((p for p in ui_for(eg).presets() if p.name == preset), None)
            if chosen is None:
                raise BadRequest(f"no setup {preset[:40]!r} in this game's library")
            params = dict(chosen.params)
        players = {swapped(sides, s): f"bot:{seats[s].bot_level}" if seats[s].kind == Seat.Kind.BOT else "human"
                   for s in sides}
        bot_seconds = next((s.bot_seconds for s in seats.values() if s.bot_seconds is not None), None)
        name = seats[side].display_name if side else ""
        created = create_game(game.kind, players, game.turn_seconds, params=params, claim=new_side, user=user,
                              name=name, bot_seconds=bot_seconds, move_seconds=game.move_seconds)
        if created.game.status == Game.Status.WAITING and not preset:  # other people to come: offer it to them
            game.rematch = created.game
            game.save(update_fields=["rematch", "updated"])
            after_commit(game)
    return created, new_side
