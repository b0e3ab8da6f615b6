"""A turn's mechanics, under the game's row lock: append a record to the turn log, draw chance events, record
the position and who is to act, and end a game (by the rules, a clock, a resignation or staff)."""
from __future__ import annotations

import hashlib
import random

from django.utils import timezone

from games.engine import CHANCE, Result
from games.engine.history import apply_record
from games.models import Game, Turn
from games.play import positions
from games.play.access import waiting_on
from games.play.announce import after_commit
from games.play.positions import engine_for


def log_turn(game: Game, state, record: dict) -> None:
    """Apply one turn record (seat actions or a chance outcome) and append it to the log."""
    turn = apply_record(engine_for(game), state, record)
    game.turn += 1
    Turn.objects.create(game=game, number=game.turn, actions=record, events=turn.events)


def advance(game: Game, state) -> None:
    """After a turn: draw any chance events (logged like turns), then record the position and whose turn
    it is, and finish the game if it is over. The position is cached once the transaction commits."""
    while state.is_chance_node() and not state.is_terminal():
        log_turn(game, state, {CHANCE: draw_chance(game, state)})
    game.state = state.to_json()
    game.to_act = state.players_to_act()
    game.turn_started = timezone.now()
    if state.is_terminal():
        finish(game, state.result(), Game.Ending.RULES)
    positions.remember_on_commit(game, state)


def draw_chance(game: Game, state):
    """A chance outcome drawn from the game's secret seed and the turn number: reproducible by the server,
    unpredictable to players."""
    outcomes = state.chance_outcomes()
    digest = hashlib.sha256(f"{game.seed}:{game.turn + 1}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    values = [o for o, _ in outcomes]
    return rng.choices(values, weights=[p for _, p in outcomes])[0]


def finish(game: Game, result: Result | None, ending: str, status: str = Game.Status.FINISHED) -> None:
    game.status = status
    game.result = result.text if result else ""
    game.outcome = result.to_json() if result else None
    game.ending = ending
    game.to_act = []
    game.pending.all().delete()
    if result:
        for seat in game.seats.all():
            seat.score = result.returns.get(seat.side)
            seat.save(update_fields=["score"])


def expire_if_late(game: Game) -> bool:
    """End the game by timeout if its turn clock ran out (called under the game's row lock)."""
    deadline = game.turn_deadline
    if deadline is None or timezone.now() < deadline:
        return False
    late = waiting_on(game)
    if not late:
        return False
    sides = list(engine_for(game).info.players)
    on_time = [s for s in sides if s not in late]
    if len(on_time) == 1:
        text = f"winner: {on_time[0]}"
    elif on_time:
        text = f"out of time: {', '.join(late)}"
    else:
        text = "draw: both players ran out of time" if len(sides) == 2 else "draw: every player ran out of time"
    finish(game, Result.shared(sides, on_time, text), Game.Ending.TIMEOUT)
    game.save()
    after_commit(game)
    return True
