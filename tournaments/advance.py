"""Advancing a running tournament: ``advance`` creates the game of every pairing and game number whose
entrants are free (no unfinished game in the tournament, no earlier game of theirs still to be created),
never one twice (a unique constraint backs the row lock), pairs the next Swiss round once the last is
complete, and marks the tournament finished once every game is over. It is idempotent: it runs on the start,
from ``on_game_changed`` when a tournament game ends, when a page finds a running tournament with nothing in
play (``advance_if_stalled``: a repair, should a receiver ever fail), and from ``manage.py tournament advance``."""
from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from games.engine import load_game
from games.models import Game
from games.play import services as game_services
from games.play.services import NotFound

from . import pairing
from .models import Entrant, Pairing, Tournament, TournamentGame
from .standings import _results

log = logging.getLogger(__name__)

OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


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
