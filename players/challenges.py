"""Challenges: anyone (an account, or an anonymous browser) asks a bot account for a game; the bot account
accepts (the game is made with both seated) or declines, and the challenger may withdraw while it waits. Each
answer is one transaction with a row lock on the challenge; a challenge is answered once."""
from __future__ import annotations

import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Game, Seat, hash_token, new_token
from games.play import services as games
from games.play.services import BadRequest, Conflict, Forbidden, NotFound

from .accounts import is_bot_account
from .challengesession import challenges_in_session
from .models import Challenge, Profile, RatedGame

MAX_PENDING = 50  # pending challenges per bot account


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
    token = new_token()
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
