"""An account enters a tournament only by accepting its invitation: while one is unanswered the tournament is
open (no pairing, no game). ``answer`` records an acceptance or a refusal, ``start_now`` lets the creator stop
waiting; once nobody is left to answer, ``begin`` pairs the accepted entrants (fewer than two: cancelled) and
the first games are made. Each is one transaction with a row lock on the tournament."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.play.services import Conflict, Forbidden, NotFound

from . import pairing
from .advance import advance
from .models import Entrant, Pairing, Tournament
from .plan import default_swiss_rounds


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
            begin(t)
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
        begin(t)
    return t


def begin(t: Tournament) -> None:
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
