"""What the site knows of an account: its profile (a bot account or not) and, once it logs in, the seats its
browser played before it had one. Reading a profile never creates it."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.models import Game, Seat
from games.play import seatsession

from .models import Profile


def profile_of(user) -> Profile | None:
    """The account's profile, if it has one (reading never creates it)."""
    return Profile.objects.filter(user=user).first() if user is not None and user.pk else None


def is_bot_account(user) -> bool:
    profile = profile_of(user)
    return bool(profile and profile.is_bot)


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
