"""``/rules/<name>``: how to play a game, written for people. The words and diagrams live in the game's own
package (``games/<package>/templates/<package>/rules.html``, a fragment); this page only frames them."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.engine import game_module, load_game
from games.web.views import not_found


@require_safe
def rules(request: HttpRequest, name: str) -> HttpResponse:
    try:
        package = game_module(name).__name__.rsplit(".", 1)[-1]
    except KeyError:
        return not_found(request, f"There is no game “{name}”.")
    return render(request, "games/rules.html", {
        "title": load_game(name).info.title,
        "game_name": name,
        "fragment": f"{package}/rules.html",
    })
