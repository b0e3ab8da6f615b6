"""Sim's ``perfect`` bot and its table of the solved 6-node game (``games/sim/solved.py``): the table against an
independent exhaustive search on raw edge masks, the bot's moves in won positions, its games as the second
player, its time on the first move and its fallback to ``strong`` on other boards."""
from __future__ import annotations

import random
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from games.bots import levels_for, make_bot
from games.sim import bots, make_game, solved
from games.sim.rules import completes

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = make_game()
PAIRS = GAME.tables.pairs


@lru_cache(maxsize=None)
def mover_wins(own: int, opp: int) -> bool:
    """Exhaustive search on raw masks (no relabelling, the rules' own triangle test): the mover wins when some
    edge closes no triangle of its colour and leaves the opponent lost."""
    free = GAME.full & ~(own | opp)
    return any(free >> e & 1 and not completes(own, PAIRS[e]) and not mover_wins(opp, own | 1 << e)
               for e in range(len(PAIRS)))


def random_position(rng: random.Random, plies: int):
    """A state after ``plies`` random moves that close no own triangle (fewer if the mover had none left)."""
    state = GAME.new_initial_state()
    for _ in range(plies):
        own, opp = state.masks[state.to_move], state.masks[1 - state.to_move]
        moves = solved.safe_moves(own, opp)
        if not moves:
            break
        state.apply_action(state.players_to_act()[0], GAME.tables.edges[rng.choice(moves)])
    return state


def after(state, seat, action):
    child = state.clone()
    child.apply_action(seat, action)
    return child


def loses(state, seat, action) -> bool:
    """Whether ``action`` leaves ``seat`` lost: it closes an own triangle or leaves the opponent a win."""
    child = after(state, seat, action)
    return child.is_terminal() or mover_wins(child.masks[child.to_move], child.masks[1 - child.to_move])


def test_the_shipped_table_is_what_the_solver_computes_and_the_second_player_wins():
    won, lost = solved.solve()
    assert solved.table() == {**{k: True for k in won}, **{k: False for k in lost}}
    assert len(won) + len(lost) == 2250
    assert solved.wins(0, 0) is False  # the empty board: the first player loses
    assert mover_wins(0, 0) is False


@pytest.mark.parametrize("plies", range(1, 13))
def test_the_table_agrees_with_exhaustive_search(plies):
    rng = random.Random(plies)
    for _ in range(25):
        state = random_position(rng, plies)
        own, opp = state.masks[state.to_move], state.masks[1 - state.to_move]
        assert solved.wins(own, opp) is mover_wins(own, opp), state.to_text()


def test_relabelling_keeps_the_key_and_positions_no_game_reaches_have_none():
    rng = random.Random(5)
    state = random_position(rng, 6)
    own, opp = state.masks[state.to_move], state.masks[1 - state.to_move]
    perm = [3, 5, 0, 1, 4, 2]
    index = GAME.tables.index

    def relabel(mask):
        return sum(1 << index[tuple(sorted((perm[i], perm[j])))] for e, (i, j) in enumerate(GAME.tables.edges)
                   if mask >> e & 1)
    assert solved.canonical(relabel(own), relabel(opp)) == solved.canonical(own, opp)
    assert solved.wins(own | opp, 0) is None  # one colour with every edge: out of turn


@pytest.mark.parametrize("plies", range(0, 13))
def test_perfect_wins_every_won_position(plies):
    rng = random.Random(100 + plies)
    for k in range(15):
        state = random_position(rng, plies)
        if state.is_terminal():
            continue
        seat = state.players_to_act()[0]
        action = make_bot("perfect", GAME, seat, seed=k).choose(state)
        assert action in state.legal_actions(seat)
        if mover_wins(state.masks[state.to_move], state.masks[1 - state.to_move]):
            assert not loses(state, seat, action), state.to_text()


@pytest.mark.parametrize("first", ["random", "greedy", "strong", "perfect"])
def test_perfect_as_the_second_player_never_loses(first):
    """From openings of one or two random first-player moves (then ``first`` plays on)."""
    for k in range(8 if first == "strong" else 16):
        rng = random.Random(k)
        bots_ = {"black": make_bot(first, GAME, "black", seed=k, seconds=0.05),
                 "white": make_bot("perfect", GAME, "white", seed=k)}
        state = GAME.new_initial_state()
        opening = 1 + k % 2
        while not state.is_terminal():
            seat = state.players_to_act()[0]
            if seat == "black" and state.turn < 2 * opening:
                action = rng.choice(state.legal_actions(seat))
            else:
                action = bots_[seat].choose(state)
            assert action in state.legal_actions(seat)
            state.apply_action(seat, action)
        assert state.result().winner == "white", state.to_text()


def test_the_first_move_fits_the_lobbys_second():
    """A fresh process: loading the table and the relabellings plus the first move, in CPU time."""
    code = ("import time; t = time.process_time()\n"
            "from games.sim import make_game; from games.sim.bots import PerfectBot\n"
            "g = make_game(); PerfectBot(g, 'black', seed=1).choose(g.new_initial_state())\n"
            "print(time.process_time() - t)")
    out = subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, capture_output=True, text=True, check=True)
    assert float(out.stdout) < 0.5


def test_the_lobby_offers_perfect_as_the_best_level():
    assert levels_for(GAME) == ("random", "greedy", "strong", "perfect")


@pytest.mark.parametrize("params", [{"nodes": 4}, {"nodes": 5}, {"nodes": 7}, {"players": 3},
                                    {"players": 3, "coalition": "1-2"}])
def test_other_boards_offer_strong_as_the_best_and_old_perfect_bots_play_on_as_strong(params):
    game = make_game(**params)
    assert "perfect" not in levels_for(game) and levels_for(game)[-1] == "strong"
    assert isinstance(make_bot("perfect", game, "black"), bots.PerfectBot)  # a game started before still moves
    rng = random.Random(7)
    for k in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.players_to_act()[0]
            action = (bots.PerfectBot(game, seat, seed=k, seconds=0.02).choose(state) if rng.random() < 0.5
                      else rng.choice(state.legal_actions(seat)))
            assert action in state.legal_actions(seat)
            state.apply_action(seat, action)


def test_the_analysis_of_the_solved_board_is_exact():
    """Values 1 won, -1 lost (by the independent search); the best move wins where the position is won, and a
    move that throws the win away gives away 2."""
    rng = random.Random(11)
    for plies in range(0, 11):
        state = random_position(rng, plies)
        if state.is_terminal():
            continue
        seat = state.players_to_act()[0]
        won = mover_wins(state.masks[state.to_move], state.masks[1 - state.to_move])
        played = next((a for a in state.legal_actions(seat) if loses(state, seat, a)), None)
        answer = bots.analyse(state, actual={seat: played} if played else None)
        assert answer["values"][seat] == (1.0 if won else -1.0)
        if won:
            assert not loses(state, seat, GAME.action_from_json(answer["best"][seat]))
            if played:
                assert answer["actual"][seat]["gave_away"] == 2.0


@pytest.mark.django_db
def test_the_lobby_and_the_api_offer_perfect_only_on_the_solved_board():
    from django.test import Client
    from django.urls import reverse

    from games.models import Game
    client = Client()
    two = client.get(reverse("new_game_options"), {"game": "sim"}).content.decode()
    three = client.get(reverse("new_game_options"), {"game": "sim", "param_players": "3"}).content.decode()
    assert 'value="bot:perfect"' in two
    assert 'name="seat_blue"' in three and 'value="bot:strong"' in three and 'value="bot:perfect"' not in three
    form = {"game": "sim", "param_nodes": "6", "param_players": "3", "param_coalition": "none", "seat_black": "me",
            "seat_white": "bot:perfect", "seat_blue": "bot:strong", "turn_seconds": "", "bot_seconds": "1", "name": ""}
    response = client.post(reverse("new_game"), form)
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    api = client.post("/api/games", {"game": "sim", "params": {"players": 3},
                                     "players": {"black": "human", "white": "bot:perfect", "blue": "bot:strong"}},
                      content_type="application/json")
    assert api.status_code == 400 and "perfect" in api.content.decode()
    assert Game.objects.count() == 0
    assert client.post(reverse("new_game"), {**form, "seat_white": "bot:strong"}).status_code == 302
    ok = client.post("/api/games", {"game": "sim", "players": {"black": "human", "white": "bot:perfect"}},
                     content_type="application/json")
    assert ok.status_code == 201
