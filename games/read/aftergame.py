"""What a finished game's page offers next, beside the board: a rematch (seats swapped) for its players, or a
new game of bots for anyone; the rematch another player offers, to accept, or the one this player made, to go
to; after a puzzle of the game's library its next puzzle and the library; and the links other apps add (a
tournament's page), registered here so that the core imports none of them. An app whose link says
``"decides_next"`` (a tournament: it makes the pairings) leaves no rematch offered."""
from __future__ import annotations

from typing import Callable

from django.urls import reverse

from games.models import Game, Seat
from games.play.rematch import open_rematch, swapped

# Other apps' links for a finished game: ``provider(game) -> [{"url", "text", "role"}]`` (see ``register``).
_providers: list[Callable] = []


def register(provider: Callable) -> None:
    """Add a provider of links (called with the game) to every finished game's page, once. A link with
    ``"decides_next": True`` takes the rematch away (the app decides what is played next)."""
    if provider not in _providers:
        _providers.append(provider)


def preset_of(ui, params: dict):
    """(this setup, the next one) of the game's library when ``params`` are one of its presets, else (None, None)."""
    presets = list(ui.presets())
    for i, p in enumerate(presets):
        if all(params.get(k) == v for k, v in p.params.items()):
            return p, presets[i + 1] if i + 1 < len(presets) else None
    return None, None


def after_game(game: Game, ui, viewer_side: str | None) -> dict:
    """The finished game's next steps for one viewer: ``rematch_url`` (empty: none offered), ``rematch_offer``
    (the rematch a player made that waits for others: ``url``, ``accept`` whether this viewer's seat is open
    there, ``by`` who asked), ``next_preset`` (the library's next puzzle, a name) and ``after_links``."""
    if not game.is_over:
        return {"rematch_url": "", "rematch_offer": None, "next_preset": "", "after_links": []}
    only_bots = all(s.kind == Seat.Kind.BOT for s in game.seats.all())
    links = []
    this, following = preset_of(ui, game.params or {}) if ui.presets() else (None, None)
    if this is not None:
        links.append({"url": reverse("library", args=[game.kind]), "text": "Back to the library", "role": "library"})
    for provider in _providers:
        links.extend(provider(game))
    decided = any(link.get("decides_next") for link in links)
    url = reverse("rematch", args=[game.id]) if (viewer_side or only_bots) and not decided else ""
    return {"rematch_url": url, "rematch_offer": _offer(game, ui, viewer_side) if url and viewer_side else None,
            "next_preset": following.name if following and url else "", "after_links": links}


def _offer(game: Game, ui, viewer_side: str) -> dict | None:
    offered = open_rematch(game)
    if offered is None:
        return None
    seats = {s.side: s for s in offered.seats.all()}
    sides = list(ui.game.info.players)
    mine = seats.get(swapped(sides, viewer_side))
    by = next((s for s in seats.values() if s.kind == Seat.Kind.HUMAN and s.is_claimed and s is not mine), None)
    before = sides[(sides.index(by.side) - 1) % len(sides)] if by else ""  # the seat they played in this game
    return {"url": offered.get_absolute_url(), "accept": mine is not None and not mine.is_claimed,
            "by": (by.display_name or ui.seat_name(before)) if by else ""}
