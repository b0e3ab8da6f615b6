"""Everything that changes a game goes through here: one function per use case, each in a transaction
with a row lock on the game, the engine validating, the turn log written, and a broadcast after commit.

Views, API endpoints, consumers, bots and admin actions are thin callers of these functions.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from .engine import IllegalAction, load_game, registered_names
from .models import Game, PendingAction, Seat, Turn

log = logging.getLogger(__name__)

BOT_LEVELS = ("random", "greedy", "strong")
TURN_SECONDS_CHOICES = (None, 30, 120)


class ServiceError(Exception):
    """A request the service refuses; ``status`` is the HTTP status that says why."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BadRequest(ServiceError):
    status = 400


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


# --- reading ------------------------------------------------------------------------------------------

def get_game(game_id: str, *, lock: bool = False) -> Game:
    qs = Game.objects.select_for_update() if lock else Game.objects
    try:
        return qs.get(pk=str(game_id)[:16])
    except Game.DoesNotExist:
        raise NotFound(f"no game {game_id!r}") from None


def engine_for(game: Game):
    return load_game(game.kind)


def replay_state(game: Game, upto: int | None = None):
    """The exact engine state after ``upto`` turns (default: all), folded over the turn log."""
    eg = engine_for(game)
    state = eg.new_initial_state()
    turns = Turn.objects.filter(game=game).order_by("number")
    if upto is not None:
        turns = turns.filter(number__lte=upto)
    for actions in turns.values_list("actions", flat=True):
        state.apply_actions({side: eg.action_from_json(a, side) for side, a in actions.items()})
    return state


def seat_for_token(game: Game, token: str | None) -> Seat:
    """The seat of ``game`` that ``token`` plays; Forbidden for a missing or wrong token."""
    if not token:
        raise Forbidden("missing seat token (send 'Authorization: Seat <token>')")
    for seat in game.seats.all():
        if seat.token_matches(token):
            return seat
    raise Forbidden("wrong seat token for this game")


def waiting_on(game: Game) -> list[str]:
    """Seats still to act in the turn being played (public: whether, never what, a seat submitted)."""
    if game.status != Game.Status.ACTIVE:
        return []
    to_act = (game.state or {}).get("to_act", list(engine_for(game).info.players))
    done = set(game.pending.filter(turn=game.turn + 1).values_list("side", flat=True))
    return [side for side in to_act if side not in done]


# --- creating and joining -----------------------------------------------------------------------------

def parse_player(spec) -> tuple[str, str]:
    """``"human"`` or ``"bot:LEVEL"`` to (kind, level)."""
    if spec == "human":
        return Seat.Kind.HUMAN, ""
    if isinstance(spec, str) and spec.startswith("bot:") and spec[4:] in BOT_LEVELS:
        return Seat.Kind.BOT, spec[4:]
    raise BadRequest(f"a player must be \"human\" or one of {', '.join('bot:' + lv for lv in BOT_LEVELS)}; got {spec!r}")


@dataclass
class Created:
    game: Game
    tokens: dict[str, str]  # side -> seat token, for the human seats handed out now


def create_game(kind: str = "ropasci360", players: dict | None = None, turn_seconds: int | None = None, *,
                claim: str | None = "all", user=None, name: str = "") -> Created:
    """Create a game. ``claim="all"`` hands out a token for every human seat (API), ``claim=SIDE`` only
    for that side (the creator in the browser; other human seats stay open for an invitee)."""
    if kind not in registered_names():
        raise BadRequest(f"unknown game {kind!r}; known: {', '.join(registered_names())}")
    sides = engine_for_kind(kind).info.players
    if not isinstance(players, dict) or set(players) != set(sides):
        raise BadRequest(f"players must name each of {', '.join(sides)}")
    if turn_seconds is not None and (isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int)
                                     or not 5 <= turn_seconds <= 3600):
        raise BadRequest("turn_seconds must be null or a whole number of seconds from 5 to 3600")
    specs = {side: parse_player(players[side]) for side in sides}
    if claim not in ("all", None) and claim not in sides:
        raise BadRequest(f"unknown side {claim!r}")
    tokens = {}
    with transaction.atomic():
        game = Game.objects.create(kind=kind, turn_seconds=turn_seconds,
                                   state=engine_for_kind(kind).new_initial_state().to_json())
        for side in sides:
            kind_, level = specs[side]
            seat = Seat(game=game, side=side, kind=kind_, bot_level=level)
            if kind_ == Seat.Kind.HUMAN and (claim == "all" or claim == side):
                tokens[side] = _hand_out(seat, user, name)
            seat.save()
        _start_if_full(game)
    return Created(game, tokens)


def engine_for_kind(kind: str):
    return load_game(kind)


def claim_seat(game_id: str, side: str | None = None, *, user=None, name: str = "") -> tuple[Game, str, str]:
    """Take an open seat (the invite link); returns (game, side, token)."""
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        open_seats = [s for s in game.seats.all() if not s.is_claimed]
        if side is not None:
            open_seats = [s for s in open_seats if s.side == side]
        if game.status != Game.Status.WAITING or not open_seats:
            raise Conflict("this game has no open seat")
        seat = open_seats[0]
        token = _hand_out(seat, user, name)
        seat.save()
        _start_if_full(game)
    return game, seat.side, token


def _hand_out(seat: Seat, user, name: str) -> str:
    """Give a human seat to its player: a new token (returned once, stored hashed), their user and name."""
    token = seat.issue_token()
    seat.user = user if (user is not None and user.is_authenticated) else None
    seat.display_name = name or (user.get_username() if seat.user else "")
    return token


def _start_if_full(game: Game) -> None:
    """Start the clock once every seat is taken, save, and tell the world after commit."""
    if all(s.is_claimed for s in game.seats.all()):
        game.status = Game.Status.ACTIVE
        game.turn_started = timezone.now()
    game.save()
    _after_commit(game)


# --- playing ------------------------------------------------------------------------------------------

def submit_action(game_id: str, token: str | None, turn, action) -> tuple[Game, bool]:
    """A seat's action for turn ``turn``. Checked in order: token (403), turn (409), action (400).
    Returns (game, resolved): resolved is True when this submission completed the turn."""
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        seat = seat_for_token(game, token)
        return _submit(game, seat.side, turn, action)


def submit_bot_action(game_id: str, side: str, turn: int, action) -> tuple[Game, bool]:
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        return _submit(game, side, turn, action)


def _submit(game: Game, side: str, turn, action) -> tuple[Game, bool]:
    _expire_if_late(game)
    if game.is_over:
        raise Conflict(f"the game is over ({game.result or game.status})")
    if game.status != Game.Status.ACTIVE:
        raise Conflict("the game has not started: a seat is still open")
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise BadRequest("'turn' must be the number of the turn being played (resolved turns + 1)")
    if turn != game.turn + 1:
        raise Conflict(f"stale turn: turn {game.turn + 1} is being played, not turn {turn}")
    if game.pending.filter(side=side, turn=turn).exists():
        raise Conflict(f"{side} has already submitted an action for turn {turn}")
    state = replay_state(game)
    eg = engine_for(game)
    if side not in state.players_to_act():
        raise Conflict(f"{side} is not to act in turn {turn}")
    try:
        parsed = eg.action_from_json(action, side)
        state.check_action(side, parsed)
    except IllegalAction as exc:
        raise BadRequest(f"illegal action: {exc.rule}") from None
    PendingAction.objects.create(game=game, side=side, turn=turn, action=eg.action_to_json(parsed))
    pending = {p.side: p.action for p in game.pending.filter(turn=turn)}
    if set(pending) >= set(state.players_to_act()):
        _resolve(game, state, pending)
        return game, True
    game.save(update_fields=["updated"])
    _after_commit(game)  # open pages show that (never what) this seat has chosen: services.waiting_on
    return game, False


def _resolve(game: Game, state, pending: dict) -> None:
    eg = engine_for(game)
    result = state.apply_actions({side: eg.action_from_json(a, side) for side, a in pending.items()})
    Turn.objects.create(game=game, number=result.number, actions=pending, events=result.events)
    game.pending.all().delete()
    game.turn = result.number
    game.state = state.to_json()
    game.turn_started = timezone.now()
    if state.is_terminal():
        _finish(game, state.result().text, Game.Ending.RULES)
    game.save()
    _after_commit(game)


def _finish(game: Game, result: str, ending: str, status: str = Game.Status.FINISHED) -> None:
    game.status = status
    game.result = result
    game.ending = ending
    game.pending.all().delete()


def resign(game_id: str, token: str | None) -> Game:
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        seat = seat_for_token(game, token)
        if game.is_over:
            raise Conflict("the game is already over")
        others = [s.side for s in game.seats.all() if s.side != seat.side]
        _finish(game, f"winner: {others[0]}", Game.Ending.RESIGNATION)
        game.save()
        _after_commit(game)
    return game


def abort(game_id: str, reason: str = "aborted by staff") -> Game:
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        if game.is_over:
            return game
        _finish(game, "", Game.Ending.ABORTED, status=Game.Status.ABORTED)
        game.note = reason[:300]
        game.save()
        _after_commit(game)
    return game


def _expire_if_late(game: Game) -> bool:
    """End the game by timeout if its turn clock ran out (called under the game's row lock)."""
    deadline = game.turn_deadline
    if deadline is None or timezone.now() < deadline:
        return False
    late = waiting_on(game)
    if not late:
        return False
    sides = list(engine_for(game).info.players)
    on_time = [s for s in sides if s not in late]
    if on_time:
        _finish(game, f"winner: {on_time[0]}", Game.Ending.TIMEOUT)
    else:
        _finish(game, "draw: both players ran out of time", Game.Ending.TIMEOUT)
    game.save()
    _after_commit(game)
    return True


def check_timeout(game_id: str) -> Game:
    """Apply the turn clock now; cheap when there is no clock or it has not run out."""
    game = get_game(game_id)
    deadline = game.turn_deadline
    if deadline is None or timezone.now() < deadline:
        return game
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        _expire_if_late(game)
    return game


# --- after commit -------------------------------------------------------------------------------------

def _after_commit(game: Game) -> None:
    """Once the transaction commits: tell every open page, and let bot seats and the clock act."""
    game_id, turn = game.id, game.turn

    def run():
        from . import live
        live.game_changed(game_id, turn)

    transaction.on_commit(run)
