"""Creating a tournament: every choice checked (a registered two-seat game and its parameters, the format,
time controls, bot levels, the accounts listed, the number of entrants and of games) before anything is
written. The creator (if listed) and server bots enter at once, every other account listed is invited; with
nobody to wait for, the tournament starts before this returns."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from games.bots import levels_for
from games.engine import InvalidParams, load_game, registered_names
from games.engine.registry import names_in_order
from games.play import services as game_services
from games.play.services import BadRequest, Forbidden

from . import pairing
from .invitations import begin
from .models import Entrant, Tournament
from .plan import default_swiss_rounds, planned_games

MAX_ENTRANTS = 32
MAX_GAMES_PER_PAIRING = 10
MAX_GAMES = 1000  # games in a whole tournament


def two_seat_kinds() -> list[tuple[str, str]]:
    """(name, title) of every registered game with two seats (tournaments are for those only)."""
    kinds = []
    for name in names_in_order():
        eg = load_game(name)
        if len(eg.info.players) == 2:
            kinds.append((name, eg.info.title))
    return kinds


def _engine(kind, params=None):
    if not isinstance(kind, str) or kind not in registered_names():
        raise BadRequest(f"unknown game {str(kind)[:40]!r}")
    if params is not None and not isinstance(params, dict):
        raise BadRequest("params must be an object of the game's parameters")
    try:
        eg = load_game(kind, **(params or {}))
    except InvalidParams as exc:
        raise BadRequest(f"bad params: {exc}") from None
    seats = eg.info.players
    if len(seats) != 2:
        two = ", ".join(title for _, title in two_seat_kinds())
        raise BadRequest(f"{eg.info.title} has {len(seats)} seat{'s' if len(seats) != 1 else ''}: tournaments are "
                         f"for two-seat games ({two})")
    return eg


def _whole(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"{name} must be a whole number from {low} to {high}")
    return value


def create_tournament(*, name: str, kind: str, format: str = Tournament.Format.ROUND_ROBIN, bots=(),
                      usernames=(), games_per_pairing: int = 1, rounds: int | None = None,
                      turn_seconds: int | None = None, bot_seconds: float | None = None, user=None,
                      params: dict | None = None) -> Tournament:
    """A tournament of the accounts named in ``usernames`` and the server bots of the levels in ``bots``
    (entered in that order), started at once: the first games are created before this returns."""
    if user is None or not user.is_authenticated:
        raise Forbidden("log in to create a tournament")
    name = (name or "").strip() if isinstance(name, str) else ""
    if not name:
        raise BadRequest("give the tournament a name")
    if len(name) > 100:
        raise BadRequest("the name must be at most 100 characters")
    eg = _engine(kind, params)
    if format not in Tournament.Format.values:
        raise BadRequest(f"format must be one of {', '.join(Tournament.Format.values)}")
    games_per_pairing = _whole(games_per_pairing, "games per pairing", 1, MAX_GAMES_PER_PAIRING)
    if turn_seconds not in game_services.TURN_SECONDS_CHOICES:
        raise BadRequest("time per turn must be none, 30 or 120 seconds")
    low, high = game_services.BOT_SECONDS_RANGE
    if bot_seconds is not None and (isinstance(bot_seconds, bool) or not isinstance(bot_seconds, (int, float))
                                    or not low <= bot_seconds <= high):
        raise BadRequest(f"bots' time per move must be from {low:g} to {high:g} seconds")

    levels = levels_for(eg)
    bots = list(bots or [])
    for level in bots:
        if level not in levels:
            raise BadRequest(f"{eg.info.title} has no {str(level)[:20]!r} bot; its levels: {', '.join(levels)}")
    if len(set(bots)) != len(bots):
        raise BadRequest("each bot level can enter once")
    wanted = [u.strip() for u in (usernames or []) if isinstance(u, str) and u.strip()]
    twice = sorted({u for u in wanted if wanted.count(u) > 1})
    if twice:
        raise BadRequest(f"listed twice: {', '.join(twice)}")
    User = get_user_model()
    accounts = {u.get_username(): u for u in User.objects.filter(**{f"{User.USERNAME_FIELD}__in": wanted})}
    missing = [u for u in wanted if u not in accounts]
    if missing:
        raise BadRequest(f"no account named {', '.join(repr(u[:40]) for u in missing[:5])}"
                         f"{' …' if len(missing) > 5 else ''}")
    count = len(wanted) + len(bots)
    if not 2 <= count <= MAX_ENTRANTS:
        raise BadRequest(f"a tournament needs from 2 to {MAX_ENTRANTS} entrants (accounts and bots); got {count}")
    if format == Tournament.Format.ROUND_ROBIN:
        rounds = pairing.round_robin_rounds(count)
    elif rounds is not None:
        rounds = _whole(rounds, f"rounds (with {count} entrants)", 1, count - 1)
    total = planned_games(format, count, rounds or default_swiss_rounds(count), games_per_pairing)
    if total > MAX_GAMES:
        raise BadRequest(f"that is {total} games; a tournament may have at most {MAX_GAMES}")

    with transaction.atomic():
        t = Tournament.objects.create(
            name=name, kind=kind, params=dict(eg.params), format=format, rounds=rounds or 0,
            games_per_pairing=games_per_pairing, turn_seconds=turn_seconds, status=Tournament.Status.OPEN,
            bot_seconds=float(bot_seconds) if bot_seconds is not None else None, created_by=user)
        entrants = [Entrant(tournament=t, seed=i, user=accounts[u], name=u[:60],
                            status=Entrant.Status.ACCEPTED if accounts[u].pk == user.pk else Entrant.Status.INVITED)
                    for i, u in enumerate(wanted, start=1)]
        entrants += [Entrant(tournament=t, seed=len(wanted) + i, bot_level=level, name=f"bot ({level})")
                     for i, level in enumerate(bots, start=1)]
        for e in entrants:
            e.save()
        if not any(e.status == Entrant.Status.INVITED for e in entrants):
            begin(t)
    return t
