"""Replay viewer, import and export (the replay engineer fills this in)."""
from django.shortcuts import render

from . import board, services

urlpatterns = []


def replay_page(request, game_id):
    game = services.get_game(game_id)
    return render(request, "games/_board.html", {"board": board.board_context(game.state)})
