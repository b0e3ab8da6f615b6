"""Context for the game page and its live fragments (the UI engineer fills this in)."""
from django.template.loader import render_to_string
from django.utils.html import escape

from . import board, services


def game_context(game, viewer_side=None) -> dict:
    return {"game": game, "viewer_side": viewer_side, "board": board.board_context(game.state)}


def live_fragments(game_id: str, viewer_side=None) -> str:
    game = services.get_game(game_id)
    ctx = game_context(game, viewer_side)
    return '<div id="board-wrap" hx-swap-oob="true">' + render_to_string("games/_board.html", ctx) + "</div>"


def error_fragment(message: str) -> str:
    return f'<div id="game-error" hx-swap-oob="true" role="alert">{escape(message)}</div>'
