"""Everything that changes a game goes through here: one function per use case, each in a transaction
with a row lock on the game, the engine validating, the turn log written, and ``signals.game_changed``
sent after commit (the broadcaster, bot runner and turn clock listen; this module imports none of them).

Views, API endpoints, consumers, bots and admin actions are thin callers of these functions.
"""
from __future__ import annotations

import hashlib
import logging
import random
from dataclasses import dataclass

from django.db import transaction
from django.db.models import prefetch_related_objects
from django.utils import timezone

from games.play import positions
from games.bots import LEVELS, levels_for
from games.engine import CHANCE, RESIGN, IllegalAction, InvalidParams, Result, load_game, registered_names
from games.engine.history import apply_record
from games.models import Game, PendingAction, Seat, Turn
from games.play.signals import game_changed

log = logging.getLogger(__name__)

BOT_LEVELS = LEVELS  # every level some game has; a game offers those of levels_for(game)
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
    return load_game(game.kind, **(game.params or {}))


def current_state(game: Game):
    """The exact engine state after the game's resolved turns (a private copy)."""
    return positions.state_after(game, game.turn)


def state_at(game: Game, turn: int):
    """The exact engine state after ``turn`` resolved turns (0: the start), a private copy."""
    return positions.state_after(game, max(0, min(turn, game.turn)))


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
    done = set(game.pending.filter(turn=game.turn + 1).values_list("side", flat=True)) if len(game.to_act) > 1 else ()
    return [side for side in game.to_act if side not in done]


# --- creating and joining -----------------------------------------------------------------------------

def parse_player(spec, levels=BOT_LEVELS) -> tuple[str, str]:
    """``"human"`` or ``"bot:LEVEL"`` to (kind, level)."""
    if spec == "human":
        return Seat.Kind.HUMAN, ""
    if isinstance(spec, str) and spec.startswith("bot:") and spec[4:] in levels:
        return Seat.Kind.BOT, spec[4:]
    raise BadRequest(f"a player must be \"human\" or one of {', '.join('bot:' + lv for lv in levels)}; "
                     f"got {str(spec)[:60]!r}")


def load_kind(kind, params=None):
    """The engine game of ``kind`` with ``params``; BadRequest saying what is wrong otherwise."""
    if not isinstance(kind, str) or kind not in registered_names():
        raise BadRequest(f"unknown game {str(kind)[:40]!r}; known: {', '.join(registered_names())}")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise BadRequest("params must be a JSON object of the game's parameters")
    try:
        return load_game(kind, **params)
    except InvalidParams as exc:
        raise BadRequest(f"bad params: {exc}") from None


@dataclass
class Created:
    game: Game
    tokens: dict[str, str]  # side -> seat token, for the human seats handed out now


BOT_SECONDS_RANGE = (0.1, 10.0)


def create_game(kind: str = "ropasci360", players: dict | None = None, turn_seconds: int | None = None, *,
                params: dict | None = None, claim: str | None = "all", user=None, name: str = "",
                bot_seconds: float | None = None) -> Created:
    """Create a game. ``claim="all"`` hands out a token for every human seat (API), ``claim=SIDE`` only
    for that side (the creator in the browser; other human seats stay open for an invitee).
    ``bot_seconds``: the bots' thinking time per move (None: each level's default)."""
    eg = load_kind(kind, params)
    sides = eg.info.players
    if not isinstance(players, dict) or set(players) != set(sides):
        raise BadRequest(f"players must name each of {', '.join(sides)}")
    if turn_seconds is not None and (isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int)
                                     or not 5 <= turn_seconds <= 3600):
        raise BadRequest("turn_seconds must be null or a whole number of seconds from 5 to 3600")
    low, high = BOT_SECONDS_RANGE
    if bot_seconds is not None and (isinstance(bot_seconds, bool) or not isinstance(bot_seconds, (int, float))
                                    or not low <= bot_seconds <= high):
        raise BadRequest(f"bot_seconds must be null or a number of seconds from {low:g} to {high:g}")
    specs = {side: parse_player(players[side], levels_for(eg)) for side in sides}
    if claim not in ("all", None) and claim not in sides:
        raise BadRequest(f"unknown side {claim!r}")
    tokens = {}
    with transaction.atomic():
        state = eg.new_initial_state()
        game = Game.objects.create(kind=kind, params=dict(eg.params), turn_seconds=turn_seconds,
                                   state=state.to_json(), to_act=state.players_to_act())
        for side in sides:
            kind_, level = specs[side]
            seat = Seat(game=game, side=side, kind=kind_, bot_level=level,
                        bot_seconds=float(bot_seconds) if level and bot_seconds is not None else None)
            if kind_ == Seat.Kind.HUMAN and (claim == "all" or claim == side):
                tokens[side] = _hand_out(seat, user, name)
            seat.save()
        _start_if_full(game)
    return Created(game, tokens)


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
        state = current_state(game)
        if state.is_chance_node():  # e.g. the first deal
            _advance(game, state)
    game.save()
    _after_commit(game, as_saved=True)


# --- playing ------------------------------------------------------------------------------------------

def submit_action(game_id: str, token: str | None, turn, action) -> tuple[Game, bool]:
    """A seat's action for turn ``turn``. Checked in order: token (403), turn (409), action (400).
    Returns (game, resolved): resolved is True when this submission completed the turn."""
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        prefetch_related_objects([game], "seats")  # read once: for the token here, and the caller's answer
        seat = seat_for_token(game, token)
        if not _expire_if_late(game):
            return _submit(game, seat.side, turn, action)
    raise Conflict(f"the game is over ({game.result}): the turn clock ran out")  # the timeout is committed


def submit_bot_action(game_id: str, side: str, turn: int, action) -> tuple[Game, bool]:
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        if not _expire_if_late(game):
            return _submit(game, side, turn, action)
    raise Conflict(f"the game is over ({game.result}): the turn clock ran out")


def _submit(game: Game, side: str, turn, action) -> tuple[Game, bool]:
    if game.is_over:
        raise Conflict(f"the game is over ({game.result or game.status})")
    if game.status != Game.Status.ACTIVE:
        raise Conflict("the game has not started: a seat is still open")
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise BadRequest("'turn' must be the number of the turn being played (resolved turns + 1)")
    if turn != game.turn + 1:
        raise Conflict(f"stale turn: turn {game.turn + 1} is being played, not turn {turn}")
    if side not in game.to_act:
        raise Conflict(f"{side} is not to act in turn {turn}")
    alone = len(game.to_act) == 1  # alternating: no pending rows (a lone seat's action resolves at once)
    if not alone and game.pending.filter(side=side, turn=turn).exists():
        raise Conflict(f"{side} has already submitted an action for turn {turn}")
    state = current_state(game)
    eg = engine_for(game)
    try:
        parsed = eg.action_from_json(action, side)
        state.check_action(side, parsed)
    except IllegalAction as exc:
        raise BadRequest(f"illegal action: {exc.rule}") from None
    as_json = eg.action_to_json(parsed)
    if alone:
        _resolve(game, state, {side: as_json}, clear_pending=False)
        return game, True
    PendingAction.objects.create(game=game, side=side, turn=turn, action=as_json)
    pending = {p.side: p.action for p in game.pending.filter(turn=turn)}
    if set(pending) >= set(game.to_act):
        _resolve(game, state, pending)
        return game, True
    game.save(update_fields=["updated"])
    _after_commit(game, as_saved=True)  # open pages show that (never what) this seat has chosen: waiting_on
    return game, False


def _resolve(game: Game, state, pending: dict, *, clear_pending: bool = True) -> None:
    _log_turn(game, state, pending)
    if clear_pending:
        game.pending.all().delete()
    _advance(game, state)
    game.save()
    _after_commit(game, as_saved=True)


def _log_turn(game: Game, state, record: dict) -> None:
    """Apply one turn record (seat actions or a chance outcome) and append it to the log."""
    turn = apply_record(engine_for(game), state, record)
    game.turn += 1
    Turn.objects.create(game=game, number=game.turn, actions=record, events=turn.events)


def _advance(game: Game, state) -> None:
    """After a turn: draw any chance events (logged like turns), then record the position and whose turn
    it is, and finish the game if it is over. The position is cached once the transaction commits."""
    while state.is_chance_node() and not state.is_terminal():
        _log_turn(game, state, {CHANCE: draw_chance(game, state)})
    game.state = state.to_json()
    game.to_act = state.players_to_act()
    game.turn_started = timezone.now()
    if state.is_terminal():
        _finish(game, state.result(), Game.Ending.RULES)
    positions.remember_on_commit(game, state)


def draw_chance(game: Game, state):
    """A chance outcome drawn from the game's secret seed and the turn number: reproducible by the server,
    unpredictable to players."""
    outcomes = state.chance_outcomes()
    digest = hashlib.sha256(f"{game.seed}:{game.turn + 1}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    values = [o for o, _ in outcomes]
    return rng.choices(values, weights=[p for _, p in outcomes])[0]


def _finish(game: Game, result: Result | None, ending: str, status: str = Game.Status.FINISHED) -> None:
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


def resign(game_id: str, token: str | None) -> Game:
    """The seat of ``token`` gives up. Where the game lets a seat drop out (``State.can_drop_out``: three or
    more seats) it leaves and the others play on: the turn log records ``{RESIGN: side}`` so that a replay
    does the same. Otherwise the game ends and the other seats share the win."""
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        seat = seat_for_token(game, token)
        if game.is_over:
            raise Conflict("the game is already over")
        if game.turns.filter(actions={RESIGN: seat.side}).exists():
            raise Conflict(f"{seat.side} has already resigned: the others play on")
        if game.status == Game.Status.ACTIVE:
            state = current_state(game)
            if state.can_drop_out(seat.side):
                _drop_out(game, state, seat.side)
                return game
        sides = list(engine_for(game).info.players)
        others = [s for s in sides if s != seat.side]
        text = f"winner: {others[0]}" if len(others) == 1 else f"{seat.side} resigned"
        # Alone at the table (a puzzle, 2048) giving up returns nothing; otherwise the others share the win.
        result = Result(text, None, {seat.side: 0.0}) if not others else Result.shared(sides, others, text)
        _finish(game, result, Game.Ending.RESIGNATION)
        game.save()
        _after_commit(game)
    return game


def _drop_out(game: Game, state, side: str) -> None:
    """``side`` leaves a game that goes on without it (its own turn record); the seat to move keeps its clock
    unless the turn passed to another seat. Should that leave the game over, it ended by resignation."""
    to_act, started = list(game.to_act), game.turn_started
    game.pending.all().delete()  # a choice made for this turn is void: the seats still in choose again
    _log_turn(game, state, {RESIGN: side})
    _advance(game, state)
    if game.is_over:
        game.ending = Game.Ending.RESIGNATION
    elif game.to_act == to_act:
        game.turn_started = started
    game.save()
    _after_commit(game, as_saved=True)


def abort(game_id: str, reason: str = "aborted by staff") -> Game:
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        if game.is_over:
            return game
        _finish(game, None, Game.Ending.ABORTED, status=Game.Status.ABORTED)
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
    if len(on_time) == 1:
        text = f"winner: {on_time[0]}"
    elif on_time:
        text = f"out of time: {', '.join(late)}"
    else:
        text = "draw: both players ran out of time" if len(sides) == 2 else "draw: every player ran out of time"
    _finish(game, Result.shared(sides, on_time, text), Game.Ending.TIMEOUT)
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

def _after_commit(game: Game, *, as_saved: bool = False) -> None:
    """Once the transaction commits, announce the change (pages, bot seats and the clock listen). A
    listener that fails is logged and never fails the request: the change is stored either way.
    ``as_saved``: ``game`` and the seats it has read are as the transaction saved them (a turn: its seats
    change only through those objects), so listeners may use it rather than read it again."""
    game_id, turn, over, deadline, version = game.id, game.turn, game.is_over, game.turn_deadline, game.version
    bots_to_act = game.status == Game.Status.ACTIVE and any(
        s.kind == Seat.Kind.BOT and s.side in game.to_act for s in game.seats.all())

    def announce():
        for receiver, error in game_changed.send_robust(sender=Game, game_id=game_id, turn=turn, over=over,
                                                        deadline=deadline, version=version,
                                                        bots_to_act=bots_to_act,
                                                        game=game if as_saved else None):
            if error is not None:
                log.error("after game %s turn %s: %s failed: %r", game_id, turn, getattr(receiver, "__name__",
                          receiver), error)

    transaction.on_commit(announce)
