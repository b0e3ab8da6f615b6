"""Another game after one has ended: the same kind and parameters (or the next puzzle of the game's
library), the seats swapped (rotated by one in games of three or more), bots kept at their level and their
time, the browser's seat moved with the swap; the other people's seats stay open for the invite link."""
from __future__ import annotations

from games.engine.ui import ui_for
from games.models import Seat
from games.play.access import get_game
from games.play.create import Created, create_game, load_kind
from games.play.errors import BadRequest, Conflict


def swapped(sides: list[str], side: str) -> str:
    """The seat that ``side`` plays in the rematch: the next one (the same in a one-player game)."""
    return sides[(sides.index(side) + 1) % len(sides)]


def rematch(game_id: str, side: str | None, *, preset: str = "", user=None) -> tuple[Created, str | None]:
    """Create the rematch of a finished game; ``side``: the seat the asker played (None: a spectator of a
    game of bots). ``preset``: the name of a ready-made setup of the game to play instead of the same
    parameters (the library's next puzzle). Returns the new game and the asker's seat in it."""
    game = get_game(game_id)
    if not game.is_over:
        raise Conflict("the game is not over yet")
    eg = load_kind(game.kind, game.params)
    params = dict(game.params)
    if preset:
        chosen = next((p for p in ui_for(eg).presets() if p.name == preset), None)
        if chosen is None:
            raise BadRequest(f"no setup {preset[:40]!r} in this game's library")
        params = dict(chosen.params)
    sides = list(eg.info.players)
    seats = {s.side: s for s in game.seats.all()}
    if side is None and any(s.kind == Seat.Kind.HUMAN for s in seats.values()):
        raise Conflict("only a player of this game can ask for a rematch")
    players = {swapped(sides, s): f"bot:{seats[s].bot_level}" if seats[s].kind == Seat.Kind.BOT else "human"
               for s in sides}
    new_side = swapped(sides, side) if side else None
    bot_seconds = next((s.bot_seconds for s in seats.values() if s.bot_seconds is not None), None)
    name = seats[side].display_name if side else ""
    created = create_game(game.kind, players, game.turn_seconds, params=params, claim=new_side, user=user,
                          name=name, bot_seconds=bot_seconds)
    return created, new_side
