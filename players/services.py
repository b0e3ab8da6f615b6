"""Every change the players app makes: one function per use case, each in a transaction with a row lock.

Errors are the games services' (``BadRequest`` 400, ``Forbidden`` 403, ``NotFound`` 404, ``Conflict`` 409):
views and API endpoints answer them the same way, and a refused request changes nothing.
"""
from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.play import seatsession
from games.play import services as games
from games.models import Game, Seat, hash_token
from games.play.services import BadRequest, Conflict, Forbidden, NotFound

from . import ratings
from .models import ApiKey, Challenge, Profile, RatedGame, RatedPlayer, RatingChange

log = logging.getLogger(__name__)

MAX_KEYS = 10  # active keys per account
MAX_PENDING = 50  # pending challenges per bot account
KEY_USED_EVERY = 60  # seconds: how often ``last_used`` is written


def profile_of(user) -> Profile | None:
    """The account's profile, if it has one (reading never creates it)."""
    return Profile.objects.filter(user=user).first() if user is not None and user.pk else None


def is_bot_account(user) -> bool:
    profile = profile_of(user)
    return bool(profile and profile.is_bot)


# --- API keys -----------------------------------------------------------------------------------------

@dataclass
class NewKey:
    key: ApiKey
    secret: str  # shown once


def create_api_key(user, name: str = "") -> NewKey:
    """A new key for ``user``'s programs; the account becomes a bot account (people may challenge it)."""
    if user is None or not user.is_authenticated:
        raise Forbidden("log in to make an API key")
    name = (name or "").strip()[:60]
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
        if ApiKey.objects.filter(user=user, revoked__isnull=True).count() >= MAX_KEYS:
            raise Conflict(f"you have {MAX_KEYS} active keys: revoke one first")
        secret = ApiKey.PREFIX + secrets.token_urlsafe(32)
        key = ApiKey.objects.create(user=user, name=name, prefix=secret[:12], key_hash=hash_token(secret))
        if not profile.is_bot:
            profile.is_bot = True
            profile.save(update_fields=["is_bot"])
    return NewKey(key, secret)


def revoke_api_key(user, key_id) -> ApiKey:
    with transaction.atomic():
        key = ApiKey.objects.select_for_update().filter(pk=_int(key_id), user=user).first()
        if key is None:
            raise NotFound("no such key of yours")
        if key.revoked is None:
            key.revoked = timezone.now()
            key.save(update_fields=["revoked"])
    return key


def user_for_key(secret: str | None):
    """The account whose active key ``secret`` is; Forbidden for a missing, unknown or revoked key."""
    if not secret:
        raise Forbidden("missing key (send 'Authorization: Key <key>')")
    key = ApiKey.objects.select_related("user").filter(key_hash=hash_token(secret)).first()
    if key is None or not key.user.is_active:
        raise Forbidden("unknown key")
    if key.revoked is not None:
        raise Forbidden("this key was revoked")
    now = timezone.now()
    if key.last_used is None or (now - key.last_used).total_seconds() > KEY_USED_EVERY:
        ApiKey.objects.filter(pk=key.pk).update(last_used=now)
    return key.user


# --- challenges ---------------------------------------------------------------------------------------

@dataclass
class NewChallenge:
    challenge: Challenge
    seat_token: str  # the challenger's seat token in the game to come (shown once)


def create_challenge(challenger, target: str, kind, *, params=None, side=None, rated=False,
                     turn_seconds=None, name: str = "") -> NewChallenge:
    """``challenger`` (an account, or None: anonymous) challenges the bot account named ``target`` to a game
    of ``kind``; ``side`` is the challenger's seat (None or "random": drawn now)."""
    challenger = challenger if challenger is not None and challenger.is_authenticated else None
    if not isinstance(target, str) or not target:
        raise BadRequest("'target' must be the name of a bot account")
    eg = games.load_kind(kind, params)
    sides = list(eg.info.players)
    if len(sides) != 2:
        raise BadRequest(f"challenges are for two-player games; {kind} has {len(sides)} seats")
    if side in (None, "", "random"):
        side = random.SystemRandom().choice(sides)
    elif side not in sides:
        raise BadRequest(f"'side' must be one of {', '.join(sides)} or \"random\"")
    if turn_seconds is not None and (isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int)
                                     or not 5 <= turn_seconds <= 3600):
        raise BadRequest("turn_seconds must be null or a whole number of seconds from 5 to 3600")
    if not isinstance(rated, bool):
        raise BadRequest("'rated' must be true or false")
    if rated and challenger is None:
        raise BadRequest("a rated challenge needs an account: log in or use a key")
    if not isinstance(name, str):
        raise BadRequest("'name' must be a string")
    User = get_user_model()
    bot = User.objects.filter(**{User.USERNAME_FIELD: target[:150]}, is_active=True).first()
    if bot is None:
        raise NotFound(f"no account {target[:40]!r}")
    if not is_bot_account(bot):
        raise BadRequest(f"{bot.get_username()} is not a bot account")
    if challenger is not None and challenger.pk == bot.pk:
        raise BadRequest("you cannot challenge yourself")
    token = secrets.token_urlsafe(24)
    with transaction.atomic():
        Profile.objects.select_for_update().filter(user=bot).first()  # one challenge at a time per bot account
        if Challenge.objects.filter(target=bot, status=Challenge.Status.PENDING).count() >= MAX_PENDING:
            raise Conflict(f"{bot.get_username()} has {MAX_PENDING} challenges waiting: try again later")
        challenge = Challenge.objects.create(
            challenger=challenger, challenger_name=name.strip()[:60], challenger_side=side,
            challenger_token_hash=hash_token(token), target=bot, kind=kind, params=dict(eg.params),
            turn_seconds=turn_seconds, rated=rated)
    return NewChallenge(challenge, token)


def get_challenge(challenge_id) -> Challenge:
    challenge = Challenge.objects.select_related("challenger", "target").filter(pk=str(challenge_id)[:16]).first()
    if challenge is None:
        raise NotFound(f"no challenge {str(challenge_id)[:20]!r}")
    return challenge


def _locked_challenge(challenge_id) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=str(challenge_id)[:16]).first()
    if challenge is None:
        raise NotFound(f"no challenge {str(challenge_id)[:20]!r}")
    return challenge


def bot_side(challenge: Challenge) -> str:
    sides = list(games.load_kind(challenge.kind, challenge.params).info.players)
    return next(s for s in sides if s != challenge.challenger_side)


@dataclass
class Accepted:
    challenge: Challenge
    game: Game
    side: str
    seat_token: str  # the bot account's seat token (shown once)


def accept_challenge(user, challenge_id) -> Accepted:
    """The bot account ``user`` accepts: the game is made with it in its seat (its token returned) and the
    challenger in theirs (with the token handed out when the challenge was made)."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if challenge.target_id != user.pk:
            raise Forbidden("this challenge is addressed to another account")
        if challenge.status != Challenge.Status.PENDING:
            raise Conflict(f"this challenge is {challenge.status}")
        mine = bot_side(challenge)
        players = {challenge.challenger_side: "human", mine: "human"}
        created = games.create_game(challenge.kind, players, challenge.turn_seconds, params=challenge.params,
                                    claim="all")
        game = created.game
        Seat.objects.filter(game=game, side=mine).update(user=user, display_name=user.get_username()[:60])
        Seat.objects.filter(game=game, side=challenge.challenger_side).update(
            user=challenge.challenger, token_hash=challenge.challenger_token_hash,
            display_name=(challenge.challenger.get_username() if challenge.challenger_id
                          else challenge.challenger_name)[:60])
        if challenge.rated:
            RatedGame.objects.create(game=game, requested_by=challenge.challenger)
        challenge.status = Challenge.Status.ACCEPTED
        challenge.game = game
        challenge.save(update_fields=["status", "game", "updated"])
    return Accepted(challenge, game, mine, created.tokens[mine])


def decline_challenge(user, challenge_id) -> Challenge:
    return _close(challenge_id, Challenge.Status.DECLINED,
                  lambda c: c.target_id == user.pk, "this challenge is addressed to another account")


def cancel_challenge(user, challenge_id, session=None) -> Challenge:
    """The challenger withdraws a pending challenge (an account, or the browser that made it)."""
    def mine(c):
        if c.challenger_id:
            return user is not None and c.challenger_id == user.pk
        return c.id in challenges_in_session(session)
    return _close(challenge_id, Challenge.Status.CANCELLED, mine, "only the challenger can cancel a challenge")


def _close(challenge_id, status, allowed, refusal) -> Challenge:
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if not allowed(challenge):
            raise Forbidden(refusal)
        if challenge.status != Challenge.Status.PENDING:
            raise Conflict(f"this challenge is {challenge.status}")
        challenge.status = status
        challenge.save(update_fields=["status", "updated"])
    return challenge


SESSION_CHALLENGES = "challenges"


def remember_challenge(session, challenge_id: str) -> None:
    """The browser that made a challenge keeps its id, to play its seat (and cancel it) without an account."""
    ids = [i for i in (session.get(SESSION_CHALLENGES) or []) if i != challenge_id][-49:]
    session[SESSION_CHALLENGES] = ids + [challenge_id]


def challenges_in_session(session) -> list[str]:
    return list(session.get(SESSION_CHALLENGES) or []) if session is not None else []


def take_challenge_seat(challenge: Challenge, user, session) -> bool:
    """Seat this browser in an accepted challenge's game if it is the challenger's (their account, or the
    browser that made it): the session keeps the hash of the seat token, as for any seat."""
    if challenge.status != Challenge.Status.ACCEPTED or challenge.game_id is None:
        return False
    if challenge.challenger_id:
        if user is None or not user.is_authenticated or user.pk != challenge.challenger_id:
            return False
    elif challenge.id not in challenges_in_session(session):
        return False
    seats = dict(session.get(seatsession.KEY) or {})
    seats[challenge.game_id] = {"side": challenge.challenger_side, "hash": challenge.challenger_token_hash}
    session[seatsession.KEY] = seats
    return True


# --- accounts -----------------------------------------------------------------------------------------

def claim_browser_seats(user, session) -> int:
    """Attach to ``user`` the seats this browser played without an account (its session keeps their token
    hashes): the games then show on the account's profile. Returns how many seats were claimed. Games
    already over are not rated afterwards."""
    if user is None or not user.is_authenticated or session is None:
        return 0
    claimed = 0
    with transaction.atomic():
        for game_id in seatsession.game_ids(session)[:500]:
            held = seatsession.recall(session, game_id)
            if held is None:
                continue
            side, proof = held
            seat = Seat.objects.select_for_update().filter(game_id=game_id, side=side, user__isnull=True,
                                                           kind=Seat.Kind.HUMAN).first()
            if seat is None or not seat.token_matches(proof):
                continue
            seat.user = user
            if not seat.display_name:
                seat.display_name = user.get_username()[:60]
            seat.save(update_fields=["user", "display_name"])
            # A new version of the game (``Game.version``): what viewers are shown of it is read again.
            Game.objects.filter(pk=game_id).update(updated=timezone.now())
            claimed += 1
    return claimed


# --- rated games --------------------------------------------------------------------------------------

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


def _int(value) -> int:
    try:
        return int(str(value)[:12])
    except ValueError:
        raise NotFound("no such key of yours") from None
