"""What a finished game's page offers next, beside the board: a rematch (seats swapped) for its players, or a
new game of bots for anyone; after a puzzle of the game's library its next puzzle and the library; and the
links other apps add (a tournament's page), registered here so that the core imports none of them."""
from __future__ import annotations

from typing import Callable

from django.urls import reverse

from games.models import Game, Seat

# Other apps' links for a finished game: ``provider(game) -> [{"url", "text", "role"}]`` (see ``register``).
_providers: list[Callable] = []


def register(provider: Callable) -> None:
    """Add a provider of links (called with the game) to every finished game's page, once."""
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
    """The finished game's next steps for one viewer: ``rematch_url`` (empty: none offered), ``next_preset``
    (the library's next puzzle, a name) and ``after_links`` (library, other apps' links)."""
    if not game.is_over:
        return {"rematch_url": "", "next_preset": "", "after_links": []}
    only_bots = all(s.kind == Seat.Kind.BOT for s in game.seats.all())
    url = reverse("rematch", args=[game.id]) if viewer_side or only_bots else ""
    links = []
    this, following = preset_of(ui, game.params or {}) if ui.presets() else (None, None)
    if this is not None:
        links.append({"url": reverse("library", args=[game.kind]), "text": "Back to the library", "role": "library"})
    for provider in _providers:
        links.extend(provider(game))
    return {"rematch_url": url, "next_preset": following.name if following and url else "", "after_links": links}
