"""Nim3P: one test per rule (docs/games/nim3p.md), the forms, property tests over random games, the max^n
bots checked against an independent exhaustive search, and the UI adapter."""
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
from games.nim3p import bots, make_game
from games.nim3p.ui import UI

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = make_game()
EXTRA = make_game(extra_rule=True)
SEATS = ("p0", "p1", "p2")


def position(heaps, turn, game=GAME):
    """A state with these heaps after ``turn`` moves (only for positions still in play)."""
    return game.state_from_json({"turn": turn, "heaps": list(heaps), "to_move": SEATS[turn % 3], "result": None})


def rule_of(state, seat, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        state.check_action(seat, action)
    return exc.value.rule


def snapshot(state):
    return (state.to_json(), list(state.heaps), state.turn, state.result())


# --- parameters and setup ---------------------------------------------------------------------------------

def test_parameters_defaults_and_ranges():
    assert GAME.params == {"heaps": 3, "size": 5, "extra_rule": False}
    assert GAME.info.name == "nim3p" and GAME.info.players == SEATS and not GAME.info.simultaneous
    assert make_game(heaps=6, size=10, extra_rule=True).new_initial_state().heaps == [10] * 6
    for bad in [{"heaps": 0}, {"heaps": 7}, {"size": 0}, {"size": 11}, {"extra_rule": 1}, {"extra_rule": "yes"},
                {"max_take": 2}, {"heaps": False}]:
        with pytest.raises(InvalidParams):
            make_game(**bad)


def test_turn_order_p0_p1_p2():
    s = GAME.new_initial_state()
    order = []
    for h in (0, 1, 2, 0):
        seat = s.players_to_act()[0]
        order.append(seat)
        assert all(s.legal_actions(other) == [] for other in SEATS if other != seat)
        assert rule_of(s, SEATS[(SEATS.index(seat) + 1) % 3], (h, 1)) == f"it is {seat}'s turn"
        s.apply_action(seat, (h, 1))
    assert order == ["p0", "p1", "p2", "p0"] and s.to_json()["to_move"] == "p1"


def test_a_move_may_take_a_whole_heap():
    # GBG: Max Minus is always the heap size in Nim3P.
    s = GAME.new_initial_state()
    assert sorted(s.legal_actions("p0")) == [(h, c) for h in range(3) for c in range(1, 6)]
    s.apply_action("p0", (1, 5))
    assert s.heaps == [5, 0, 5]
    assert rule_of(s, "p1", (1, 1)) == "heap 1 is empty"
    assert rule_of(s, "p1", (0, 6)) == "heap 0 has only 5 items left"
    assert rule_of(s, "p1", (0, 0)) == "a move takes at least one item"


@pytest.mark.parametrize("last", SEATS)
def test_the_player_after_the_last_taker_wins(last):
    turn = 3 + SEATS.index(last)
    s = position([0, 2, 0], turn)
    assert s.players_to_act() == [last]
    t = s.apply_action(last, (1, 2))
    winner = SEATS[(SEATS.index(last) + 1) % 3]
    assert t.events == [{"last_item": last, "winner": winner}]
    assert s.is_terminal() and s.players_to_act() == []
    assert s.result().text == f"winner: {winner}" and s.result().winner == winner
    assert s.returns() == {seat: float(seat == winner) for seat in SEATS}
    assert s.to_json()["to_move"] is None


@pytest.mark.parametrize("last", SEATS)
def test_extra_rule_gives_the_player_after_the_winner_0_2(last):
    s = position([1, 0, 0], 3 + SEATS.index(last), EXTRA)
    s.apply_action(last, (0, 1))
    winner = SEATS[(SEATS.index(last) + 1) % 3]
    third = SEATS[(SEATS.index(last) + 2) % 3]
    assert s.returns() == {winner: 1.0, third: 0.2, last: 0.0}
    assert s.result().winners == [winner]


def test_no_ties():
    for seed in range(30):
        rng = random.Random(seed)
        game = make_game(heaps=rng.randint(1, 4), size=rng.randint(1, 6), extra_rule=bool(seed % 2))
        s = game.new_initial_state()
        while not s.is_terminal():
            seat = s.players_to_act()[0]
            last = seat
            s.apply_action(seat, rng.choice(s.legal_actions(seat)))
        assert s.result().winners == [SEATS[(SEATS.index(last) + 1) % 3]]


# --- forms ----------------------------------------------------------------------------------------------------

def test_action_forms_are_nims():
    assert GAME.action_to_json((2, 5)) == [2, 5] and GAME.action_from_json([2, 5]) == (2, 5)
    assert GAME.action_to_text((2, 5)) == "2:5" and GAME.action_from_text("2:5") == (2, 5)
    for bad in [None, [1], [1, True], "1:1", [1.0, 1]]:
        with pytest.raises(IllegalAction) as exc:
            GAME.action_from_json(bad, "p0")
        assert exc.value.rule.startswith("malformed action: ")
    assert rule_of(GAME.new_initial_state(), "p3", (0, 1)).startswith("unknown player")


def test_state_json_and_text():
    s = GAME.new_initial_state()
    assert s.to_json() == {"turn": 0, "to_move": "p0", "heaps": [5, 5, 5], "result": None}
    assert s.to_text().splitlines()[0] == "turn 0: p0 to move"
    good = s.to_json()
    for bad in [None, {**good, "to_move": "p1"}, {**good, "turn": 1, "heaps": [0, 0, 5], "to_move": "p1"},
                {**good, "heaps": [5, 5]}, {**good, "result": {"text": "winner: p1"}}]:
        with pytest.raises(ValueError):
            GAME.state_from_json(bad)
    end = position([0, 0, 1], 5, EXTRA)
    end.apply_action("p2", (2, 1))
    assert EXTRA.state_from_json(end.to_json()).to_json() == end.to_json()
    assert end.to_json()["result"]["returns"] == {"p0": 1.0, "p1": 0.2, "p2": 0.0}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2, 7) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_action_from_json_is_total(data):
    s = GAME.new_initial_state()
    before = snapshot(s)
    try:
        action = GAME.action_from_json(data, "p0")
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action: ")
        return
    try:
        s.check_action("p0", action)
    except IllegalAction:
        with pytest.raises(IllegalAction):
            s.apply_action("p0", action)
        assert snapshot(s) == before


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 7), st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_random_games(heaps, size, extra_rule, seed):
    game = make_game(heaps=heaps, size=size, extra_rule=extra_rule)
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        acts = s.legal_actions(seat)
        assert set(acts) == {(h, c) for h, n in enumerate(s.heaps) for c in range(1, n + 1)}
        before = snapshot(s)
        bad = (rng.randint(-1, heaps), rng.randint(-1, size + 1))
        if bad not in acts:
            with pytest.raises(IllegalAction):
                s.apply_action(seat, bad)
            assert snapshot(s) == before
        assert game.state_from_json(s.to_json()).to_json() == s.to_json()
        twin = s.clone()
        twin.apply_action(seat, rng.choice(acts))
        assert snapshot(s) == before
        s.apply_action(seat, rng.choice(acts))
    assert game.state_from_json(s.to_json()).to_json() == s.to_json()


# --- bots ---------------------------------------------------------------------------------------------------

def maxn(extra: bool):
    """Max^n over unsorted heaps, written from the docs' wording: returns (mover, next, third); the mover takes
    its highest return, then the next player's lowest, then the smallest resulting sorted position."""
    @lru_cache(maxsize=None)
    def value(heaps: tuple) -> tuple:
        if not any(heaps):
            return (1.0, 0.2 if extra else 0.0, 0.0)
        options = []
        for h, n in enumerate(heaps):
            for c in range(1, n + 1):
                child = heaps[:h] + (n - c,) + heaps[h + 1:]
                nxt, third, mover = value(child)
                options.append(((-mover, nxt, third), tuple(sorted(x for x in child if x)), (mover, nxt, third)))
        return min(options)[2]
    return value


@pytest.mark.parametrize("extra", [False, True])
def test_solver_matches_independent_maxn(extra):
    brute = maxn(extra)
    solver = bots.Solver(extra, float("inf"))
    for heaps in [(1,), (2,), (3, 1), (2, 2), (3, 3, 1), (4, 2, 1), (3, 3, 3), (5, 2, 2), (4, 4, 1, 1)]:
        assert solver.value(tuple(sorted(heaps))) == brute(heaps), heaps
    assert solver.value((1,)) == (0.0, 1.0, 0.2 if extra else 0.0)  # forced to take the last item


@pytest.mark.parametrize("extra", [False, True])
def test_perfect_plays_the_maxn_move_everywhere(extra):
    game = make_game(heaps=3, size=4, extra_rule=extra)
    brute = maxn(extra)
    rng = random.Random(5)
    for _ in range(15):
        s = game.new_initial_state()
        while not s.is_terminal():
            seat = s.players_to_act()[0]
            a = bots.BOTS["perfect"](game, seat, seed=1, seconds=5).choose(s)
            child = s.clone()
            child.apply_action(seat, a)
            own = brute(tuple(child.heaps))[2] if not child.is_terminal() else child.returns()[seat]
            assert own == brute(tuple(s.heaps))[0]
            s.apply_action(seat, a if rng.random() < 0.5 else rng.choice(s.legal_actions(seat)))


def test_perfect_respects_the_clock():
    game = make_game(heaps=6, size=10)
    bots._MEMO.clear()
    bots._CHANCE.clear()
    bot = bots.BOTS["perfect"](game, "p0", seed=3, seconds=0.0)
    s = game.new_initial_state()
    assert bot.choose(s) in s.legal_actions("p0")  # out of time at once: greedy's move
    assert bots.BOTS["strong"](game, "p0", seconds=5).choose(s) in s.legal_actions("p0")


@pytest.mark.parametrize("level", ["random", "greedy", "strong", "perfect"])
def test_bots_legal_and_leave_the_state_alone(level):
    for seed in range(6):
        rng = random.Random(seed)
        game = make_game(heaps=rng.randint(1, 5), size=rng.randint(1, 8), extra_rule=bool(seed % 2))
        s = game.new_initial_state()
        while not s.is_terminal():
            seat = s.players_to_act()[0]
            factory = RandomBot if level == "random" else bots.BOTS[level]
            before = snapshot(s)
            a = factory(game, seat, seed=seed, seconds=0.2).choose(s)
            assert snapshot(s) == before and a in s.legal_actions(seat)
            s.apply_action(seat, a)


def test_perfect_prefers_the_move_that_leaves_most_room_for_mistakes():
    # Heaps 3 and 3, p0 to move: every move is lost under max^n (own return 0). The model's tie-break would take
    # 2 (leaving 1 and 3); emptying a heap leaves p0 a half chance if the others then play at random.
    solver = bots.Solver(False, float("inf"))
    s = GAME.state_from_json({"turn": 3, "heaps": [3, 3, 0], "to_move": "p0", "result": None})
    assert all(solver.rank(bots.after(s.heaps, h, c))[0] == 0 for h, c in s.legal_actions("p0"))
    assert solver.chance((1, 3))[2] == pytest.approx(1 / 3) and solver.chance((3,))[2] == 0.5
    assert bots.BOTS["perfect"](GAME, "p0").choose(s) == (0, 3)


def test_greedy_avoids_taking_the_last_item():
    s = position([0, 3, 0], 3)
    for seed in range(10):
        assert bots.BOTS["greedy"](GAME, "p0", seed=seed).choose(s) in [(1, 1), (1, 2)]
    assert bots.BOTS["greedy"](GAME, "p0").choose(position([0, 1, 0], 3)) == (1, 1)  # forced


# --- the UI adapter --------------------------------------------------------------------------------------------------

def test_ui_board_words_and_stats():
    ui = UI(EXTRA)
    s = EXTRA.new_initial_state()
    s.apply_action("p0", (2, 4))
    obs = s.to_json()
    b = ui.board(obs, last={"number": 1, "actions": {"p0": [2, 4]}, "events": []})
    keys = {it["key"] for heap in b["heaps"] for it in heap["items"]}
    for a in s.legal_actions("p1"):
        path = ui.action_path("p1", EXTRA.action_to_json(a))
        assert path and path[0]["key"] in keys
    assert b["caption"] == "P1 to move" and b["name"] == "nim3p"
    assert ui.seat_stats(obs, "p0") == [("Wins if", "P2 takes the last item")]
    assert ui.seat_name("p2") == "P2"
    end = position([0, 1, 0], 4, EXTRA)
    ev = end.apply_action("p1", (1, 1)).events
    assert ui.event_words(ev[0]) == "P1 takes the last item: P2, who follows, wins"
    assert ui.result_reason(end.result().to_json(), end.to_json()) == (
        "P1 took the last item, and P2 follows P1. P0, next after the winner, gets 0.2 (extra rule).")
    assert ui.seat_stats(end.to_json(), "p0") == [("Return", "0.2")]
    assert [(p.name, p.default) for p in ui.params()] == [("heaps", 3), ("size", 5), ("extra_rule", False)]


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine
    ui = UI(GAME)
    s = position([5, 2, 4], 3)
    engine = Engine(dirs=[str(BASE_DIR / "games/nim3p/templates"), str(BASE_DIR / "games/nim/templates")])
    html = engine.get_template(ui.board_template).render(Context({"board": ui.board(s.to_json())}))
    svg = xml.dom.minidom.parseString(html.strip()).documentElement
    assert svg.getAttribute("id") == "board" and svg.getAttribute("class") == "board board-nim3p nim-heaps"
    picks = {g.getAttribute("data-pick") for g in svg.getElementsByTagName("g") if g.getAttribute("data-pick")}
    assert picks == {f"take:{h},{c}" for h, n in enumerate([5, 2, 4]) for c in range(1, n + 1)}
    assert (BASE_DIR / "games/nim/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.nim3p, games.nim3p.rules, games.nim3p.bots, games.nim3p.ui, sys; "
            "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0


# --- resigning: the seat is skipped, the player after the last taker is the next seat still in ------------

def test_a_resigned_seat_is_skipped_and_the_next_seat_in_after_the_last_taker_wins():
    s = GAME.new_initial_state()
    s.apply_action("p0", (0, 2))
    assert s.can_drop_out("p2")
    turn = s.resign("p2")
    assert turn.actions == {RESIGN: "p2"} and turn.events == [{"resigned": "p2"}]
    assert s.players_to_act() == ["p1"] and s.to_json()["out"] == ["p2"] and not s.can_drop_out("p2")
    order = []
    for action in [(1, 5), (0, 3), (2, 5)]:  # p1, p0, p1: p1 takes the last item
        order.append(s.players_to_act()[0])
        last = s.apply_action(order[-1], action)
    assert order == ["p1", "p0", "p1"]
    assert last.events == [{"last_item": "p1", "winner": "p0"}]  # p0 follows p1 (p2 is skipped)
    assert s.result().returns == {"p0": 1.0, "p1": 0.0, "p2": 0.0} and s.result().text == "winner: p0"
    assert rule_of(GAME.state_from_json(s.to_json()), "p2", (0, 1)) == "the game is over"


def test_resigning_when_to_move_passes_the_turn_and_the_last_seat_in_wins_with_no_extra_rule():
    s = EXTRA.new_initial_state()
    s.resign("p0")
    assert s.players_to_act() == ["p1"]
    with pytest.raises(IllegalAction):
        s.check_action("p0", (0, 1))
    turn = s.resign("p2")
    assert s.is_terminal() and turn.events == [{"resigned": "p2"}, {"winner": "p1"}]
    assert s.result().returns == {"p0": 0.0, "p1": 1.0, "p2": 0.0}  # no 0.2 once a seat resigned
    assert EXTRA.state_from_json(s.to_json()).to_json() == s.to_json()


def test_random_games_with_resignations_replay_and_round_trip():
    for seed in range(40):
        rng = random.Random(seed)
        s, records = EXTRA.new_initial_state(), []
        while not s.is_terminal():
            if rng.random() < 0.15:
                seat = rng.choice([p for p in SEATS if s.can_drop_out(p)])
                records.append(s.resign(seat).actions)
            else:
                seat = s.players_to_act()[0]
                action = rng.choice(s.legal_actions(seat))
                records.append({seat: list(action)})
                s.apply_action(seat, action)
            assert EXTRA.state_from_json(s.to_json()).to_json() == s.to_json()
        assert fold(EXTRA, records).to_json() == s.to_json()
        assert all(s.result().returns[r[RESIGN]] == 0.0 for r in records if RESIGN in r)
    bad = s.to_json()
    for out in (["p9"], ["p0", "p0"], ["p0", "p1", "p2"], "p0"):
        with pytest.raises(ValueError):
            EXTRA.state_from_json({**bad, "out": out})


def test_the_ui_says_who_resigned():
    ui = UI(GAME)
    s = GAME.new_initial_state()
    s.resign("p1")
    assert ui.seat_stats(s.to_json(), "p1") == [("Out", "resigned")]
    assert ui.seat_stats(s.to_json(), "p2") == [("Wins if", "P0 takes the last item")]
    assert ui.event_words({"resigned": "p1"}) == "P1 resigns and is skipped from now on"
    s.resign("p2")
    assert ui.result_reason(s.result().to_json(), s.to_json()) == "P1 and P2 resigned; P0 won."
