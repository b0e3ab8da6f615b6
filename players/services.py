"""The players app's public functions, one import for callers: every change it makes goes through them, one
module per use case (``accounts``, ``keys``, ``challenges`` and a browser's ``challengesession``,
``ratedgames``), each change in a transaction with a row lock.

Errors are the games services' (``BadRequest`` 400, ``Forbidden`` 403, ``NotFound`` 404, ``Conflict`` 409):
views and API endpoints answer them the same way, and a refused request changes nothing.
"""
from games.play.services import BadRequest, Conflict, Forbidden, NotFound
from players.accounts import claim_browser_seats, is_bot_account, profile_of
from players.challenges import (MAX_PENDING, Accepted, NewChallenge, accept_challenge, bot_side, cancel_challenge,
                                create_challenge, decline_challenge, get_challenge)
from players.challengesession import (SESSION_CHALLENGES, challenges_in_session, remember_challenge,
                                      take_challenge_seat)
from players.keys import KEY_USED_EVERY, MAX_KEYS, NewKey, create_api_key, revoke_api_key, user_for_key
from players.ratedgames import identity, mark_rated, rate_game, rate_pending

__all__ = ["KEY_USED_EVERY", "MAX_KEYS", "MAX_PENDING", "SESSION_CHALLENGES", "Accepted", "BadRequest", "Conflict",
           "Forbidden", "NewChallenge", "NewKey", "NotFound", "accept_challenge", "bot_side", "cancel_challenge",
           "challenges_in_session", "claim_browser_seats", "create_api_key", "create_challenge",
           "decline_challenge", "get_challenge", "identity", "is_bot_account", "mark_rated", "profile_of",
           "rate_game", "rate_pending", "remember_challenge", "revoke_api_key", "take_challenge_seat",
           "user_for_key"]
