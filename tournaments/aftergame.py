"""The link back to its tournament on a finished tournament game's page (registered with
``games.read.aftergame`` in ``apps.py``: the games core knows no tournament); the tournament decides who plays
next, so the page offers no rematch."""
from __future__ import annotations

from .models import TournamentGame


def back_to_tournament(game) -> list[dict]:
    played = TournamentGame.objects.filter(game_id=game.id).select_related("pairing__tournament").first()
    if played is None:
        return []
    tournament = played.pairing.tournament
    return [{"url": tournament.get_absolute_url(), "text": f"Back to the tournament ({tournament.name})",
             "role": "tournament", "decides_next": True}]
