"""Rated games, the database side of ``ratings`` (the maths): a game becomes rated at its creator's request,
and is rated once when it ends (every seat against every other, from the ratings before it), or skipped with
the reason why. The rows of the players are locked in one order, so two games ending together cannot deadlock."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.models import Game, Seat
from games.play import services as games

from . import ratings
from .models import RatedGame, RatedPlayer, RatingChange


def mark_rated(game_id: str, user) -> bool:
    """Make a new game rated, at its creator's request (a person seated in it, logged in). False (and
    nothing made) for a one-player game or a creator who does not play in it."""
    if user is None or not user.is_authenticated:
        return False
    with transaction.atomic():
        game = games.get_game(game_id, lock=True)
        seats = list(game.seats.all())
        if len(seats) < 2 or not any(s.user_id == user.pk for s in seats):
            return False
        _, made = RatedGame.objects.get_or_create(game=game, defaults={"requested_by": user})
    if made and game.is_over:  # finished before it was marked (cannot happen from the lobby, but be exact)
        rate_game(game.id)
    return True


def identity(seat: Seat) -> tuple[str, object] | None:
    """Who a seat's rating belongs to: ("user", id) for an account, ("bot", level) for a server bot, None for
    an anonymous person."""
    if seat.kind == Seat.Kind.BOT:
        return ("bot", seat.bot_level)
    if seat.user_id:
        return ("user", seat.user_id)
    return None


def _rated_player(kind: str, who: tuple[str, object]) -> RatedPlayer:
    if who[0] == "user":
        player, _ = RatedPlayer.objects.get_or_create(kind=kind, user_id=who[1], defaults={"bot_level": ""})
    else:
        player, _ = RatedPlayer.objects.get_or_create(kind=kind, user=None, bot_level=who[1])
    return player


def rate_game(game_id: str) -> RatedGame | None:
    """Rate a finished rated game, once: every seat against every other, from the ratings before it. A
    re-sent signal, a second process or a retry finds the row no longer pending and does nothing."""
    with transaction.atomic():
        request = RatedGame.objects.select_for_update().filter(game_id=game_id).first()
        if request is None or request.state != RatedGame.State.PENDING:
            return request
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.ABORTED:
            return _skip(request, "the game was aborted")
        if game.status != Game.Status.FINISHED:
            return request
        seats = list(game.seats.all())
        if len(seats) < 2:
            return _skip(request, "one-player games are not rated")
        who = {s.side: identity(s) for s in seats}
        if any(v is None for v in who.values()):
            return _skip(request, "a seat was played without an account")
        if len(set(who.values())) < len(who):
            return _skip(request, "one player held several seats")
        returns = (game.outcome or {}).get("returns") or {}
        returns = {s.side: returns.get(s.side, s.score) for s in seats}
        if any(not isinstance(v, (int, float)) for v in returns.values()):
            return _skip(request, "the game has no result")
        players = {side: _rated_player(game.kind, w) for side, w in who.items()}
        locked = {p.pk: p for p in RatedPlayer.objects.select_for_update().filter(
            pk__in=[p.pk for p in players.values()]).order_by("pk")}
        players = {side: locked[p.pk] for side, p in players.items()}
        before = {side: p.current for side, p in players.items()}
        after = ratings.rate_game(before, returns)
        winners = set((game.outcome or {}).get("winners") or [])
        for side, player in players.items():
            new, score = after[side]
            RatingChange.objects.create(
                game=game, player=player, score=score, rating_before=before[side].rating,
                rd_before=before[side].rd, volatility_before=before[side].volatility, rating=new.rating,
                rd=new.rd, volatility=new.volatility)
            player.rating, player.rd, player.volatility = new.rating, new.rd, new.volatility
            player.games += 1
            if not winners:
                player.draws += 1
            elif side in winners:
                player.wins += 1
            else:
                player.losses += 1
            player.save()
        request.state = RatedGame.State.RATED
        request.rated_at = timezone.now()
        request.save(update_fields=["state", "rated_at"])
    return request


def _skip(request: RatedGame, why: str) -> RatedGame:
    request.state = RatedGame.State.SKIPPED
    request.note = why[:200]
    request.rated_at = timezone.now()
    request.save(update_fields=["state", "note", "rated_at"])
    return request


def rate_pending() -> int:
    """Rate every finished rated game still pending (a missed signal); returns how many were looked at."""
    ids = list(RatedGame.objects.filter(state=RatedGame.State.PENDING,
                                        game__status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
               .values_list("game_id", flat=True)[:1000])
    for game_id in ids:
        rate_game(game_id)
    return len(ids)
