"""A browser's hold on the challenges it made without an account: its session keeps their ids, so it may
cancel one while it waits and take the challenger's seat once it is accepted (as ``games.play.seatsession``
keeps the seats a browser plays)."""
from __future__ import annotations

from games.play import seatsession

from .models import Challenge

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
