"""The lobby's catalogue of games: a card per registered game (its title, how many play it, its tagline) and
the small picture of its board at the start, drawn by the game's own board template (``/play/<name>/board.svg``).

Both depend only on the code, so each is made once per process. The picture is a standalone SVG with the
game's board stylesheet flattened into it (``games.web.previewcss``, as the share previews do): an ``<img>``
keeps the home page light, and the pictures' ids and styles apart from one another and from the page. The
dark theme's flattened rules come in a ``prefers-color-scheme: dark`` block, which an ``<img>`` follows as the
page does."""
from __future__ import annotations

import random
from functools import lru_cache

from django.template.loader import render_to_string

from games.engine import load_game
from games.engine.registry import names_in_order
from games.engine.ui import ui_for
from games.web import previewcss

PICTURE = 160  # the picture's side in CSS px: a card's thumbnail
MAX_CHANCE = 200  # chance events applied to reach a first position (a deal, a scramble, the first tiles)


def players_text(ui) -> str:
    """"2 players", or the range a ``players`` option offers ("2–10 players")."""
    counts = [len(ui.game.info.players)]
    for param in ui.params():
        if param.name == "players":
            counts = [v for v, _ in param.choices] or [param.minimum, param.maximum]
    low, high = min(counts), max(counts)
    if low == high:
        return "1 player" if low == 1 else f"{low} players"
    return f"{low}–{high} players"


@lru_cache(maxsize=1)
def cards() -> tuple[dict, ...]:
    """A card per registered game, in the registry's order."""
    found = []
    for name in names_in_order():
        ui = ui_for(load_game(name))
        found.append({"name": name, "title": ui.game.info.title, "players": players_text(ui),
                      "solo": len(ui.game.info.players) == 1, "tagline": ui.tagline})
    return tuple(found)


def first_position(game):
    """The game's first position a player sees: the initial state past its opening chance events (drawn
    from a generator seeded by the game's name, so the picture is the same every time)."""
    state = game.new_initial_state()
    rng = random.Random(game.info.name)
    for _ in range(MAX_CHANCE):
        if not state.is_chance_node():
            break
        outcomes, weights = zip(*state.chance_outcomes())
        state.apply_chance(rng.choices(outcomes, weights)[0])
    return state.observation(None)


@lru_cache(maxsize=64)
def board_picture(name: str) -> bytes:
    """The standalone SVG of game ``name``'s board at its start (KeyError for an unknown game)."""
    ui = ui_for(load_game(name))
    board = render_to_string(ui.board_template, {"board": ui.board(first_position(ui.game)),
                                                 "board_label": ui.game.info.title})
    return render_to_string("games/catalogue_board.svg", {
        "board": board, "board_css": previewcss.board_css(ui.stylesheet),
        "board_css_dark": previewcss.board_css(ui.stylesheet, dark=True), "size": PICTURE}).encode("utf-8")
