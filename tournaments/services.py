"""Every change to a tournament: creating one, an account's answer to its invitation, starting it, advancing
it (its games, the next Swiss round, its end), and handing an account its seat in one of its games. Each is one function, one transaction, a row lock on the
tournament (or the game); games are made through ``games.play.services.create_game`` like any other game.

``advance`` is idempotent: it creates the game of every pairing and game number whose entrants are free
(no unfinished game in the tournament, no earlier game of theirs still to be created), never one twice
(a unique constraint backs the row lock), pairs the next Swiss round once the last is complete, and marks
the tournament finished once every game is over. It runs on creation, from ``on_game_changed`` when a
tournament game ends, when a page finds a running tournament with nothing in play (a repair, should a
receiver ever fail), and from ``manage.py tournament advance``.

An account enters only by accepting: ``create_tournament`` enters the creator (if listed) and server bots at
once and invites every other account listed; while an invitation is unanswered the tournament is open (no
pairing, no game). ``answer`` records an account's acceptance or refusal, ``start_now`` lets the creator stop
waiting; once nobody is left to answer, ``_start`` pairs the accepted entrants (fewer than two: cancelled).

Scores come from each game's outcome: a win 1, a draw ½, a loss 0 (``game_points``); an aborted game
scores nothing for either entrant and counts as not played. A Swiss bye scores as won games.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.play import services as game_services
from games.bots import levels_for
from games.engine import InvalidParams, load_game, registered_names
from games.engine.registry import names_in_order
from games.models import Game, Seat
from games.play.services import BadRequest, Conflict, Forbidden, NotFound, ServiceError  # noqa: F401 (re-exported)
from games.engine.ui import ui_for

from . import pairing
from .models import Entrant, Pairing, Tournament, TournamentGame

log = logging.getLogger(__name__)

MAX_ENTRANTS = 32
MAX_GAMES_PER_PAIRING = 10
MAX_GAMES = 1000  # games in a whole tournament
OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


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


def planned_games(fmt: str, entrants: int, rounds: int, games_per_pairing: int) -> int:
    if fmt == Tournament.Format.ROUND_ROBIN:
        return entrants * (entrants - 1) // 2 * games_per_pairing
    return rounds * (entrants // 2) * games_per_pairing


def default_swiss_rounds(entrants: int) -> int:
    return max(1, min(entrants - 1, math.ceil(math.log2(max(entrants, 2)))))


# --- creating -------------------------------------------------------------------------------------------

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
            _start(t)
    return t


# --- invitations and the start ----------------------------------------------------------------------------

def _locked(tournament_id) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"no tournament {str(tournament_id)[:20]!r}") from None


def answer(tournament_id, user, accept: bool) -> Tournament:
    """``user`` accepts (or declines) the invitation to enter; the last answer starts the tournament."""
    with transaction.atomic():
        t = _locked(tournament_id)
        entry = t.entrants.filter(user_id=user.pk).first() if user is not None and user.is_authenticated else None
        if entry is None:
            raise Forbidden("you are not invited to this tournament")
        if t.status != Tournament.Status.OPEN:
            raise Conflict("the tournament is no longer waiting for entrants")
        if entry.status != Entrant.Status.INVITED:
            raise Conflict(f"you have already answered ({entry.get_status_display().lower()})")
        entry.status = Entrant.Status.ACCEPTED if accept else Entrant.Status.DECLINED
        entry.save(update_fields=["status"])
        if not t.entrants.filter(status=Entrant.Status.INVITED).exists():
            _start(t)
    return t


def start_now(tournament_id, user) -> Tournament:
    """The creator (or staff) starts an open tournament with the entrants who have accepted so far."""
    with transaction.atomic():
        t = _locked(tournament_id)
        if user is None or not user.is_authenticated or (t.created_by_id != user.pk and not user.is_staff):
            raise Forbidden("only the tournament's creator can start it")
        if t.status != Tournament.Status.OPEN:
            raise Conflict("the tournament has already started")
        t.entrants.filter(status=Entrant.Status.INVITED).update(status=Entrant.Status.UNANSWERED)
        _start(t)
    return t


def _start(t: Tournament) -> None:
    """Pair the accepted entrants (under the tournament's lock) and create the first games; with fewer than
    two the tournament is cancelled."""
    entrants = list(t.entrants.filter(status=Entrant.Status.ACCEPTED).order_by("seed"))
    count = len(entrants)
    if count < 2:
        t.status, t.finished = Tournament.Status.CANCELLED, timezone.now()
        t.save(update_fields=["status", "finished"])
        return
    if t.format == Tournament.Format.ROUND_ROBIN:
        t.rounds = pairing.round_robin_rounds(count)
        for number, pairs in enumerate(pairing.round_robin([e.pk for e in entrants]), start=1):
            Pairing.objects.bulk_create([Pairing(tournament=t, round=number, board=board, first_id=a, second_id=b)
                                         for board, (a, b) in enumerate(pairs, start=1)])
    else:
        t.rounds = min(t.rounds, count - 1) if t.rounds else default_swiss_rounds(count)
    t.status = Tournament.Status.RUNNING
    t.save(update_fields=["rounds", "status"])
    advance(t.pk)


# --- advancing ------------------------------------------------------------------------------------------

def advance(tournament_id) -> list[Game]:
    """Create every game that can start now (see the module's docstring); returns the games created."""
    with transaction.atomic():
        try:
            t = Tournament.objects.select_for_update().get(pk=tournament_id)
        except (Tournament.DoesNotExist, ValueError, TypeError):
            raise NotFound(f"no tournament {str(tournament_id)[:20]!r}") from None
        if t.status != Tournament.Status.RUNNING:
            return []
        entrants = {e.pk: e for e in t.entrants.filter(status=Entrant.Status.ACCEPTED)}
        pairings = list(t.pairings.all())
        tgames = list(TournamentGame.objects.filter(pairing__tournament=t).select_related("game"))
        made = {(tg.pairing_id, tg.number) for tg in tgames}
        if t.format == Tournament.Format.SWISS:
            current = max((p.round for p in pairings), default=0)
            if current < t.rounds and _complete(t, [p for p in pairings if p.round == current], tgames):
                pairings += _pair_swiss_round(t, current + 1, entrants, pairings, tgames)

        by_pairing = {p.pk: p for p in pairings}
        busy = set()
        for tg in tgames:
            if not tg.is_over:
                p = by_pairing[tg.pairing_id]
                busy |= {p.first_id, p.second_id}
        blocked: set = set()  # entrants with an earlier game still to be created
        created = []
        for p in sorted(pairings, key=lambda p: (p.round, p.board)):
            if p.second_id is None:
                continue
            for number in range(1, t.games_per_pairing + 1):
                if (p.pk, number) in made:
                    continue
                ids = {p.first_id, p.second_id}
                if ids & (busy | blocked):
                    blocked |= ids
                    continue
                created.append(_start_game(t, p, number, entrants))
                busy |= ids
        if not created and (t.format == Tournament.Format.ROUND_ROBIN or
                            max((p.round for p in pairings), default=0) >= t.rounds) and _complete(t, pairings, tgames):
            t.status = Tournament.Status.FINISHED
            t.finished = timezone.now()
            t.save(update_fields=["status", "finished"])
    return created


def _complete(t: Tournament, pairings: list, tgames: list) -> bool:
    """Every game of these pairings created and over."""
    ids = {p.pk for p in pairings if p.second_id is not None}
    games = [tg for tg in tgames if tg.pairing_id in ids]
    return len(games) == len(ids) * t.games_per_pairing and all(tg.is_over for tg in games)


def _pair_swiss_round(t: Tournament, number: int, entrants: dict, pairings: list, tgames: list) -> list[Pairing]:
    keys = sorted(entrants, key=lambda k: entrants[k].seed)
    games, byes = _results(t, pairings, tgames)
    table = pairing.standings(keys, games, byes, pairing.SWISS)
    met = {frozenset((p.first_id, p.second_id)) for p in pairings if p.second_id is not None}
    had_bye = {p.first_id for p in pairings if p.second_id is None}
    firsts: dict = {}
    for p in pairings:
        if p.second_id is not None:
            firsts[p.first_id] = firsts.get(p.first_id, 0) + 1
    plan = pairing.swiss_round([r.key for r in table], {r.key: r.score for r in table}, met, had_bye, firsts)
    if plan.repeats:
        log.info("tournament %s round %s: %s repeat pairing(s), no round without repeats", t.pk, number,
                 plan.repeats)
    rows = [Pairing(tournament=t, round=number, board=board, first_id=a, second_id=b)
            for board, (a, b) in enumerate(plan.pairs, start=1)]
    if plan.bye is not None:
        rows.append(Pairing(tournament=t, round=number, board=len(rows) + 1, first_id=plan.bye, second_id=None))
    for row in rows:
        row.save()
    return rows


def _start_game(t: Tournament, p: Pairing, number: int, entrants: dict) -> Game:
    """Game ``number`` of pairing ``p``: the pairing's first entrant takes the first seat in odd-numbered
    games, the second seat in even ones. Accounts' seats get their user (the game is in their list) and a
    token nobody holds yet: ``take_seat`` hands one to the account's browser."""
    sides = load_game(t.kind, **(t.params or {})).info.players
    first, second = entrants[p.first_id], entrants[p.second_id]
    on = {sides[0]: first, sides[1]: second} if number % 2 else {sides[0]: second, sides[1]: first}
    bots = any(e.is_bot for e in on.values())
    made = game_services.create_game(t.kind, {side: e.player_spec for side, e in on.items()}, t.turn_seconds,
                                     params=t.params, claim="all", bot_seconds=t.bot_seconds if bots else None)
    game = made.game
    for seat in game.seats.all():
        e = on[seat.side]
        if not e.is_bot:
            seat.user_id = e.user_id
            seat.display_name = e.name[:60]
            seat.save(update_fields=["user", "display_name"])
    TournamentGame.objects.create(pairing=p, number=number, game=game,
                                  first_side=sides[0] if number % 2 else sides[1])
    return game


def on_game_changed(sender, game_id, turn, over=True, **kwargs) -> None:
    """Receiver of ``games.play.signals.game_changed``: a tournament game that is over lets its tournament go on."""
    if not over:  # most changes: a turn played (no query)
        return
    tournament_id = (TournamentGame.objects
                     .filter(game_id=game_id, game__status__in=OVER, pairing__tournament__status=Tournament.Status.RUNNING)
                     .values_list("pairing__tournament_id", flat=True).first())
    if tournament_id is not None:
        advance(tournament_id)


def advance_if_stalled(t: Tournament) -> Tournament:
    """A running tournament with no game in play should have gone on: advance it (a repair; idempotent)."""
    if t.status != Tournament.Status.RUNNING:
        return t
    live = (TournamentGame.objects.filter(pairing__tournament=t, game__isnull=False)
            .exclude(game__status__in=OVER).exists())
    if not live:
        advance(t.pk)
        t.refresh_from_db()
    return t


# --- an account's seat ----------------------------------------------------------------------------------

def take_seat(tournament_id, game_id: str, user) -> tuple[Game, str, str]:
    """A new token for the seat ``user`` plays in game ``game_id`` of the tournament (returned once; an
    older token of that seat stops working): (game, side, token)."""
    with transaction.atomic():
        game = game_services.get_game(game_id, lock=True)
        if not TournamentGame.objects.filter(game=game, pairing__tournament_id=tournament_id).exists():
            raise NotFound(f"game {game.id} is not a game of this tournament")
        seat = None
        if user is not None and user.is_authenticated:
            seat = next((s for s in game.seats.all() if s.user_id == user.pk and s.kind == Seat.Kind.HUMAN), None)
        if seat is None:
            raise Forbidden("you have no seat in this game")
        if game.is_over:
            raise Conflict(f"the game is over ({game.result or game.get_status_display()})")
        token = seat.issue_token()
        seat.save(update_fields=["token_hash"])
    return game, seat.side, token


# --- reading --------------------------------------------------------------------------------------------

def game_points(game: Game | None, side: str) -> float | None:
    """What ``side`` scored in a finished game (1, ½, 0); None while it is played, or if it was aborted."""
    if game is None or game.status != Game.Status.FINISHED or not isinstance(game.outcome, dict):
        return None
    winners = game.outcome.get("winners") or []
    if not winners:
        return pairing.DRAW
    if side not in winners:
        return pairing.LOSS
    return pairing.WIN if len(winners) == 1 else pairing.DRAW


def _results(t: Tournament, pairings: list, tgames: list):
    by_pairing = {p.pk: p for p in pairings}
    games = []
    for tg in tgames:
        p = by_pairing[tg.pairing_id]
        points = game_points(tg.game, tg.first_side)
        if points is not None:
            games.append(pairing.GameResult(p.round, p.first_id, p.second_id, points))
    byes = []
    if t.format == Tournament.Format.SWISS:
        byes = [(p.first_id, float(t.games_per_pairing)) for p in pairings if p.second_id is None]
    return games, byes


@dataclass
class Table:
    tiebreaks: tuple[str, ...]  # names, in order
    rows: list[dict]  # rank, entrant, played, wins, draws, losses, byes, score, tiebreaks
    rounds: list[dict]  # number, pairings: first, second, score (first's, second's), games
    over: int = 0  # games over (finished or aborted)
    planned: int = 0  # games in the whole tournament

    @property
    def tiebreak_heads(self) -> list[tuple[str, str]]:
        """(short, full) name of each tie-break, for column heads."""
        return [(pairing.TIEBREAK_ABBR.get(name, name), name) for name in self.tiebreaks]


def table(t: Tournament) -> Table:
    """The standings and every round's pairings and games, from the games' outcomes."""
    entrants = {e.pk: e for e in t.entrants.filter(status=Entrant.Status.ACCEPTED).select_related("user")}
    pairings = list(t.pairings.all())
    tgames = list(TournamentGame.objects.filter(pairing__tournament=t)
                  .select_related("game").prefetch_related("game__seats"))
    games, byes = _results(t, pairings, tgames)
    keys = sorted(entrants, key=lambda k: entrants[k].seed)
    fmt = pairing.SWISS if t.format == Tournament.Format.SWISS else pairing.ROUND_ROBIN
    rows = [{"rank": r.rank, "entrant": entrants[r.key], "played": r.played, "wins": r.wins, "draws": r.draws,
             "losses": r.losses, "byes": r.byes, "score": r.score, "tiebreaks": r.tiebreaks}
            for r in pairing.standings(keys, games, byes, fmt)]
    ui = ui_for(load_game(t.kind, **(t.params or {})))
    by_pairing: dict = {}
    for tg in tgames:
        by_pairing.setdefault(tg.pairing_id, []).append(tg)
    rounds: dict = {}
    for p in sorted(pairings, key=lambda p: (p.round, p.board)):
        played = sorted(by_pairing.get(p.pk, []), key=lambda tg: tg.number)
        score = [0.0, 0.0]
        items = []
        for tg in played:
            points = game_points(tg.game, tg.first_side)
            if points is not None:
                score[0] += points
                score[1] += 1.0 - points
            items.append({"tg": tg, "game": tg.game, "points": points, "first_side": tg.first_side,
                          "first_seat": ui.seat_name(tg.first_side),
                          "other_points": None if points is None else 1.0 - points})
        rounds.setdefault(p.round, []).append({
            "pairing": p, "first": entrants[p.first_id],
            "second": entrants[p.second_id] if p.second_id else None,
            "score": score if any(i["points"] is not None for i in items) else None, "games": items,
            "to_come": t.games_per_pairing - len(played) if p.second_id else 0,
            "bye_points": float(t.games_per_pairing) if (p.second_id is None and fmt == pairing.SWISS) else None,
        })
    over = sum(tg.is_over for tg in tgames)
    planned = planned_games(t.format, len(entrants), t.rounds, t.games_per_pairing) if len(entrants) > 1 else 0
    return Table(pairing.TIEBREAKS[fmt], rows, [{"number": n, "pairings": ps} for n, ps in sorted(rounds.items())],
                 over, planned)
