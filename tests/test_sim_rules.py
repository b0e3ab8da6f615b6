"""Sim: one test per rule (docs/games/sim.md) for two and three players, the forms, property tests over random
games, the bots (the two-player search checked against exhaustive minimax) and the UI adapter."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import xml.dom.minidom
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.base import RandomBot
from games.engine import RESIGN, IllegalAction, InvalidParams
from games.engine.history import fold
from games.sim import bots, make_game
from games.sim.rules import completes, final_returns
from games.sim.ui import UI

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = make_game()
THREE = make_game(players=3)
COALITION = make_game(players=3, coalition="1-2")


def play(game, *edges, state=None):
    """Apply the edges (``"i-j"``) in turn; returns the state and the last turn record."""
    s = state or game.new_initial_state()
    t = None
    for text in edges:
        t = s.apply_action(s.players_to_act()[0], game.action_from_text(text))
    return s, t


def rule_of(state, seat, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        state.check_action(seat, action)
    return exc.value.rule


def snapshot(state):
    return (state.to_json(), list(state.masks), list(state.out), state.to_move, state.turn, state.result())


# --- parameters and setup ---------------------------------------------------------------------------------

def test_parameters_and_seats():
    assert GAME.params == {"nodes": 6, "players": 2, "coalition": "none"}
    assert GAME.info.players == ("black", "white") and not GAME.info.simultaneous
    assert THREE.info.players == ("black", "white", "blue")
    assert COALITION.params == {"nodes": 6, "players": 3, "coalition": "1-2"}
    for bad in [{"nodes": 3}, {"nodes": 11}, {"players": 1}, {"players": 4}, {"players": True},
                {"coalition": "2-3"}, {"coalition": "1-2"}, {"coalition": None}, {"size": 6}]:
        with pytest.raises(InvalidParams):
            make_game(**bad)


@pytest.mark.parametrize("nodes", range(4, 11))
def test_nodes_range_and_the_complete_graph(nodes):
    game = make_game(nodes=nodes)
    s = game.new_initial_state()
    acts = s.legal_actions("black")
    assert len(acts) == nodes * (nodes - 1) // 2 == game.info.max_turns
    assert set(acts) == {(i, j) for i in range(nodes) for j in range(i + 1, nodes)}


def test_black_starts_then_turns_alternate():
    s = GAME.new_initial_state()
    assert s.players_to_act() == ["black"] and s.legal_actions("white") == []
    assert rule_of(s, "white", (0, 1)) == "it is black's turn"
    t = s.apply_action("black", (0, 1))
    assert t.number == 1 and t.actions == {"black": (0, 1)} and t.events == []
    assert s.players_to_act() == ["white"]
    assert rule_of(s, "white", (0, 1)) == "edge 0-1 is already coloured (black)"
    assert (0, 1) not in s.legal_actions("white")


# --- triangles ----------------------------------------------------------------------------------------------

def test_completing_a_triangle_of_ones_own_colour_loses():
    s, t = play(GAME, "0-1", "3-4", "0-2", "3-5", "1-2")
    assert t.events == [{"triangle": [0, 1, 2], "seat": "black"}, {"out": "black"}]
    assert s.is_terminal() and s.players_to_act() == []
    assert s.result().text == "winner: white" and s.returns() == {"black": 0.0, "white": 1.0}
    assert s.to_json()["triangles"] == [{"seat": "black", "nodes": [0, 1, 2]}]
    assert rule_of(s, "white", (4, 5)) == "the game is over"


def test_a_move_may_complete_two_own_triangles_at_once():
    s, t = play(GAME, "0-2", "4-5", "1-2", "3-5", "0-3", "1-5", "1-3", "0-5", "2-3")
    tri = [e["triangle"] for e in t.events if "triangle" in e]
    assert tri == [[0, 2, 3], [1, 2, 3]] and t.events[-1] == {"out": "black"}
    assert s.result().winner == "white"


def test_triangles_of_mixed_or_other_colours_do_not_lose():
    s, _ = play(GAME, "0-1", "1-2", "0-2")  # mixed triangle 0-1-2
    assert not s.is_terminal()
    s, _ = play(GAME, "0-1", "3-4", "0-2", "1-2")  # White closes 0-1-2, Black's two edges plus its own
    assert not s.is_terminal()
    s, _ = play(THREE, "0-1", "3-4", "0-2", "1-2")  # Black closes 0-1-2, whose edge 0-2 is Blue's
    assert not s.is_terminal() and s.out == []


def test_no_edge_left_is_a_tie():
    game = make_game(nodes=4)
    s, t = play(game, "0-1", "0-3", "2-3", "1-2", "0-2", "1-3")
    assert t.events == [{"no_edge_left": True}]
    assert s.result().text == "draw" and s.returns() == {"black": 0.5, "white": 0.5} and s.result().winners == []


# --- three players ---------------------------------------------------------------------------------------------

def test_three_players_turn_order():
    s, _ = play(THREE, "0-1", "0-2")
    assert s.players_to_act() == ["blue"]
    s.apply_action("blue", (0, 3))
    assert s.players_to_act() == ["black"]


def test_three_players_a_loser_drops_out_and_the_others_go_on():
    # White completes 0-3-4 (its edges 0-3, 0-4, then 3-4) and drops out; Blue moves next, then Black, Blue...
    s, t = play(THREE, "1-2", "0-3", "1-5", "2-5", "0-4", "2-4", "1-3", "3-4")
    assert t.events == [{"triangle": [0, 3, 4], "seat": "white"}, {"out": "white"}]
    assert not s.is_terminal() and s.out == [1] and s.to_json()["out"] == ["white"]
    assert s.players_to_act() == ["blue"]
    assert rule_of(s, "white", (0, 1)) == "white is out (completed a triangle of its colour)"
    s.apply_action("blue", (0, 1))
    assert s.players_to_act() == ["black"]
    s.apply_action("black", (0, 2))
    assert s.players_to_act() == ["blue"]
    assert s.to_json()["triangles"] == [{"seat": "white", "nodes": [0, 3, 4]}]


def test_three_players_second_loser_leaves_the_last_one_the_winner():
    s, _ = play(THREE, "1-2", "0-3", "1-5", "2-5", "0-4", "2-4", "1-3", "3-4")  # White out
    s, t = play(THREE, "1-4", "0-2", "4-5", state=s)  # Blue: 1-5, then 1-4, then 4-5 closes 1-4-5
    assert t.events == [{"triangle": [1, 4, 5], "seat": "blue"}, {"out": "blue"}]
    assert s.out == [1, 2] and s.is_terminal()
    assert s.result().text == "winner: black" and s.returns() == {"black": 1.0, "white": 0.0, "blue": 0.0}


def test_three_players_no_edge_left():
    # With four nodes every colour gets two edges: nobody can complete a triangle, all three tie.
    game = make_game(nodes=4, players=3)
    s, t = play(game, "0-1", "0-2", "0-3", "1-2", "1-3", "2-3")
    assert t.events == [{"no_edge_left": True}] and s.result().text == "draw"
    assert s.returns() == {"black": pytest.approx(1 / 3), "white": pytest.approx(1 / 3), "blue": pytest.approx(1 / 3)}
    # One out: the two still in share 1 when the edges run out.
    assert final_returns(3, [0, 2], "none") == (0.5, 0.0, 0.5)
    game = make_game(nodes=5, players=3)
    s, _ = play(game, "0-1", "0-2", "1-2", "3-4", "0-3", "2-3", "0-4", "1-3", "2-4", "1-4")
    assert s.is_terminal() and s.out == [0]
    assert s.result().text == "tie: white, blue" and s.returns() == {"black": 0.0, "white": 0.5, "blue": 0.5}


def test_coalition_white_and_blue_share_their_result():
    assert final_returns(3, [0], "1-2") == (1.0, 0.0, 0.0)
    assert final_returns(3, [1], "1-2") == (0.0, 0.5, 0.5)  # White wins: shared with Blue
    assert final_returns(3, [2], "1-2") == (0.0, 0.5, 0.5)
    assert final_returns(3, [0, 2], "1-2") == (0.5, 0.25, 0.25)  # White out, Black and Blue tie
    assert final_returns(3, [1, 2], "1-2") == (0.0, 0.5, 0.5)  # Black out, White and Blue tie
    s, _ = play(COALITION, "1-2", "0-3", "1-5", "2-5", "0-4", "2-4", "1-3", "3-4")  # White out
    s, _ = play(COALITION, "1-4", "0-2", "4-5", state=s)  # Blue out
    assert s.returns() == {"black": 1.0, "white": 0.0, "blue": 0.0} and s.result().text == "winner: black"
    s, _ = play(COALITION, "0-1", "2-3", "4-5", "0-2", "3-5", "1-4", "1-2")  # Black closes 0-1-2
    assert s.out == [0] and not s.is_terminal()  # White and Blue play on; their result is shared anyway
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        s.apply_action(seat, s.legal_actions(seat)[0])
    assert s.returns() == {"black": 0.0, "white": 0.5, "blue": 0.5}
    assert s.result().text == "winners: white and blue (coalition)" and s.result().winners == ["white", "blue"]


# --- forms ----------------------------------------------------------------------------------------------------

def test_action_forms():
    assert GAME.action_to_json((1, 4)) == [1, 4] and GAME.action_from_json([1, 4]) == (1, 4)
    assert GAME.action_to_text((1, 4)) == "1-4" and GAME.action_from_text("1-4") == (1, 4)
    assert GAME.action_from_text(" [1, 4] ") == (1, 4) and GAME.action_from_text("1 4") == (1, 4)
    s = GAME.new_initial_state()
    s.check_action("black", [0, 5])
    assert s.apply_action("black", [0, 5]).actions == {"black": (0, 5)}


@pytest.mark.parametrize("bad", [None, 3, "0-1", [], [0], [0, 1, 2], [1, 0], [2, 2], [-1, 2], [0, 6], [0, 10 ** 30],
                                 [0, 1.0], [False, 1], [0, True], {"i": 0}, [[0], 1]])
def test_malformed_json_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_json(bad, "black")
    assert exc.value.rule.startswith("malformed action: ") and exc.value.player == "black"
    assert rule_of(GAME.new_initial_state(), "black", bad).startswith("malformed action: ")


@pytest.mark.parametrize("bad", ["", "1", "1-", "2-1", "0-6", "a-b", "1-2-3", None, 7])
def test_malformed_text_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_text(bad)
    assert exc.value.rule.startswith("malformed action: ")


def test_state_json_and_text():
    s, _ = play(THREE, "0-1", "0-2")
    assert s.to_json() == {"turn": 2, "to_move": "blue", "nodes": 6, "edges": [[0, 1, "black"], [0, 2, "white"]],
                           "out": [], "triangles": [], "result": None}
    assert s.to_text().splitlines()[:3] == ["turn 2: blue to move", "   0 1 2 3 4 5", " 0   B W . . ."]
    good = s.to_json()
    for bad in [None, {**good, "nodes": 7}, {**good, "turn": 3}, {**good, "to_move": "red"},
                {**good, "to_move": None}, {**good, "out": ["white"]}, {**good, "edges": [[0, 1, "black"]] * 2,
                                                                       "turn": 2},
                {**good, "edges": [[1, 0, "black"], [0, 2, "white"]]}, {**good, "edges": [[0, 1, "red"],
                                                                                       [0, 2, "white"]]},
                {**good, "result": {"text": "draw"}}]:
        with pytest.raises(ValueError):
            THREE.state_from_json(bad)
    lost, _ = play(GAME, "0-1", "3-4", "0-2", "3-5", "1-2")
    assert GAME.state_from_json(lost.to_json()).to_json() == lost.to_json()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2, 7) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_action_from_json_is_total(data):
    s, _ = play(GAME, "0-1")
    before = snapshot(s)
    try:
        action = GAME.action_from_json(data, "white")
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action: ")
        return
    try:
        s.check_action("white", action)
    except IllegalAction:
        with pytest.raises(IllegalAction):
            s.apply_action("white", action)
        assert snapshot(s) == before


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 8), st.sampled_from([(2, "none"), (3, "none"), (3, "1-2")]), st.integers(0, 2 ** 32 - 1))
def test_random_games(nodes, setup, seed):
    players, coalition = setup
    game = make_game(nodes=nodes, players=players, coalition=coalition)
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        acts = s.legal_actions(seat)
        coloured = {(e[0], e[1]) for e in s.to_json()["edges"]}
        assert set(acts) == {(i, j) for i in range(nodes) for j in range(i + 1, nodes)} - coloured
        before = snapshot(s)
        i, j = rng.randrange(nodes), rng.randrange(nodes)
        if (i, j) not in acts:
            with pytest.raises(IllegalAction):
                s.apply_action(seat, (i, j))
            assert snapshot(s) == before
        assert game.state_from_json(s.to_json()).to_json() == s.to_json()
        twin = s.clone()
        twin.apply_action(seat, rng.choice(acts))
        assert snapshot(s) == before
        s.apply_action(seat, rng.choice(acts))
    assert game.state_from_json(s.to_json()).to_json() == s.to_json()
    assert abs(sum(s.returns().values()) - 1) < 1e-9


# --- bots ---------------------------------------------------------------------------------------------------

def minimax(game):
    """Exhaustive two-player value for the mover (1 win, 0 tie, -1 loss) of (own, opponent) edge masks."""
    pairs, full = game.tables.pairs, game.full

    @lru_cache(maxsize=None)
    def value(own: int, opp: int) -> int:
        free = full & ~(own | opp)
        if not free:
            return 0
        return max(-1 if completes(own, pairs[e]) else -value(opp, own | 1 << e)
                   for e in range(len(pairs)) if free >> e & 1)
    return value


@pytest.mark.parametrize("nodes", [4, 5])
def test_strong_plays_perfectly_on_small_boards(nodes):
    game = make_game(nodes=nodes)
    value = minimax(game)
    rng = random.Random(nodes)
    for n in range(3):
        s = game.new_initial_state()
        while not s.is_terminal():
            seat, me = s.players_to_act()[0], s.to_move
            own, opp = s.masks[me], s.masks[1 - me]
            a = bots.BOTS["strong"](game, seat, seed=n, seconds=5).choose(s)
            e = game.tables.index[a]
            got = -1 if completes(own, game.tables.pairs[e]) else -value(opp, own | 1 << e)
            assert got == value(own, opp)
            s.apply_action(seat, a if rng.random() < 0.5 else rng.choice(s.legal_actions(seat)))


def test_strong_beats_random():
    wins = 0
    for n in range(6):
        s = GAME.new_initial_state()
        strong = "black" if n % 2 else "white"
        rng = random.Random(n)
        while not s.is_terminal():
            seat = s.players_to_act()[0]
            if seat == strong:
                s.apply_action(seat, bots.BOTS["strong"](GAME, seat, seed=n, seconds=0.05).choose(s))
            else:
                s.apply_action(seat, rng.choice(s.legal_actions(seat)))
        wins += s.result().winner == strong
    assert wins >= 5


@pytest.mark.parametrize("level", ["random", "greedy", "strong", "perfect"])
@pytest.mark.parametrize("setup", [(2, "none"), (3, "none"), (3, "1-2")])
def test_bots_legal_and_leave_the_state_alone(level, setup):
    players, coalition = setup
    for seed in range(3):
        game = make_game(nodes=5 + seed, players=players, coalition=coalition)
        s = game.new_initial_state()
        while not s.is_terminal():
            seat = s.players_to_act()[0]
            factory = RandomBot if level == "random" else bots.BOTS[level]
            before = snapshot(s)
            a = factory(game, seat, seed=seed, seconds=0.02).choose(s)
            assert snapshot(s) == before and a in s.legal_actions(seat)
            s.apply_action(seat, a)


def test_the_bots_avoid_own_triangles():
    s, _ = play(GAME, "0-1", "3-4", "0-2")  # White to move; Black threatens nothing of White's
    s, _ = play(GAME, "3-5", state=s)  # Black to move: 1-2 would complete 0-1-2
    for level in ("greedy", "strong", "perfect"):
        for seed in range(5):
            assert bots.BOTS[level](GAME, "black", seed=seed, seconds=0.05).choose(s) != (1, 2)


# --- the UI adapter --------------------------------------------------------------------------------------------------

def test_ui_board_words_and_stats():
    ui = UI(THREE)
    s, t = play(THREE, "1-2", "0-3", "1-5", "2-5", "0-4", "2-4", "1-3", "3-4")  # White out
    obs = s.to_json()
    b = ui.board(obs, last={"number": t.number, "actions": {"white": [3, 4]}, "events": t.events})
    keys = {e["key"] for e in b["free"]}
    for a in s.legal_actions("blue"):
        path = ui.action_path("blue", THREE.action_to_json(a))
        assert path and path[0]["key"] in keys
    assert len(b["free"]) + len(b["coloured"]) == 15 and len(b["nodes"]) == 6
    assert b["last"]["key"] == "edge:3,4" and "losing" in b["last"]["cls"] and "seat-white" in b["last"]["cls"]
    assert [tr["seat"] for tr in b["triangles"]] == ["white"]
    assert b["caption"] == "Blue to move (out: White)"
    assert ui.seat_stats(obs, "white") == [("Status", "out"), ("Edges", 3), ("Lines", "dashed")]
    assert ui.seat_stats(obs, "blue") == [("Status", "in"), ("Edges", 2), ("Lines", "dotted")]
    assert [ui.event_words(e) for e in t.events] == ["White completes triangle 0-3-4 of its own colour", "White is out"]
    assert ui.action_words("blue", [0, 1]) == "Edge 0-1" and ui.action_group("blue", [0, 1]) == "From node 0"
    s, _ = play(THREE, "1-4", "0-2", "4-5", state=s)
    assert ui.result_reason(s.result().to_json(), s.to_json()) == (
        "White completed triangle 0-3-4 of its own colour and dropped out; Blue completed triangle 1-4-5 of its "
        "own colour.")
    two = UI(GAME)
    lost, _ = play(GAME, "0-1", "3-4", "0-2", "3-5", "1-2")
    assert two.result_reason(lost.result().to_json(), lost.to_json()) == (
        "Black completed triangle 0-1-2 of its own colour.")
    assert two.board(None)["turn"] == 0
    assert [p.name for p in two.params()] == ["nodes", "players", "coalition"]


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine
    ui = UI(THREE)
    s, t = play(THREE, "1-2", "0-3", "1-5", "2-5", "0-4", "2-4", "1-3", "3-4")
    engine = Engine(dirs=[str(BASE_DIR / "games/sim/templates")])
    html = engine.get_template(ui.board_template).render(Context({"board": ui.board(
        s.to_json(), last={"number": 8, "actions": {"white": [3, 4]}, "events": t.events}), "board_label": "Graph"}))
    svg = xml.dom.minidom.parseString(html.strip()).documentElement
    assert svg.getAttribute("id") == "board" and svg.getAttribute("class") == "board board-sim"
    picks = [g for g in svg.getElementsByTagName("g") if g.getAttribute("data-pick")]
    assert {g.getAttribute("data-pick") for g in picks} == {f"edge:{i},{j}" for i, j in s.legal_actions("blue")}
    assert all(g.getElementsByTagName("title") and g.getAttribute("aria-label") for g in picks)
    assert all(len(g.getElementsByTagName("polygon")) == 1 for g in picks)  # each free edge's click band
    triangles = [p for p in svg.getElementsByTagName("polygon") if p.getAttribute("class") != "hit"]
    assert len(triangles) == 1
    assert (BASE_DIR / "games/sim/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.sim, games.sim.rules, games.sim.bots, games.sim.solved, games.sim.ui, sys; "
            "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0


# --- resigning with three players: the seat drops out as if it had lost (rule 4) ---------------------------

def test_a_resigned_seat_drops_out_its_edges_stay_and_the_others_go_on():
    s, _ = play(THREE, "0-1")  # Black
    assert s.can_drop_out("blue") and not GAME.new_initial_state().can_drop_out("black")
    turn = s.resign("white")  # White is to move: the turn passes to Blue
    assert turn.actions == {RESIGN: "white"} and turn.events == [{"resigned": "white"}, {"out": "white"}]
    assert s.players_to_act() == ["blue"] and s.to_json()["out"] == ["white"]
    assert s.to_json()["resigned"] == ["white"] and s.to_json()["triangles"] == []
    assert rule_of(s, "white", (2, 3)) == "white is out (resigned)"
    s.apply_action("blue", (0, 2))
    assert s.players_to_act() == ["black"]  # Blue, Black, Blue, ...
    assert THREE.state_from_json(s.to_json()).to_json() == s.to_json()
    s.resign("blue")
    assert s.is_terminal() and s.result().text == "winner: black"
    assert s.result().returns == {"black": 1.0, "white": 0.0, "blue": 0.0}
    assert THREE.state_from_json(s.to_json()).to_json() == s.to_json()


def test_a_resignation_counts_for_the_coalition_as_a_drop_out():
    s, _ = play(COALITION, "0-1")
    s.resign("black")  # Black out: White and Blue play on (rule 6 runs as rule 4) and share the win
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        assert seat != "black"
        s.apply_action(seat, s.legal_actions(seat)[0])
    assert s.result().returns == {"black": 0.0, "white": 0.5, "blue": 0.5}


def test_random_games_with_resignations_replay_round_trip_and_the_bots_play_on():
    for seed in range(30):
        rng = random.Random(seed)
        s, records = THREE.new_initial_state(), []
        while not s.is_terminal():
            if rng.random() < 0.1:
                records.append(s.resign(rng.choice([p for p in THREE.info.players if s.can_drop_out(p)])).actions)
                continue
            seat = s.players_to_act()[0]
            action = (bots.BOTS["strong"](THREE, seat, seed=seed, seconds=0.02).choose(s) if seed % 3 == 0
                      else rng.choice(s.legal_actions(seat)))
            records.append({seat: list(action)})
            s.apply_action(seat, action)
            assert THREE.state_from_json(s.to_json()).to_json() == s.to_json()
        assert fold(THREE, records).to_json() == s.to_json()
        assert all(s.result().returns[r[RESIGN]] == 0.0 for r in records if RESIGN in r)
    with pytest.raises(ValueError):
        THREE.state_from_json({**s.to_json(), "resigned": ["black", "black"]})
