"""Nim: one test per rule (docs/games/nim.md), the action and state forms, property tests over random games,
the bots (the Grundy strategy checked against exhaustive search) and the UI adapter."""
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
from games.engine import IllegalAction, InvalidParams
from games.nim import bots, make_game
from games.nim.ui import UI

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = make_game()


def position(heaps, turn, game=GAME):
    """A state from its heaps and turn number (the seat to move and result follow)."""
    over = not any(heaps)
    seats = game.info.players
    data = {"turn": turn, "heaps": list(heaps), "to_move": None if over else seats[turn % 2], "result": None}
    if over:
        data["result"] = {"text": f"winner: {seats[(turn - 1) % 2]}", "winners": [seats[(turn - 1) % 2]],
                          "returns": {s: float(s == seats[(turn - 1) % 2]) for s in seats}}
    return game.state_from_json(data)


def rule_of(state, seat, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        state.check_action(seat, action)
    return exc.value.rule


def snapshot(state):
    return (state.to_json(), list(state.heaps), state.turn, state.result())


# --- parameters and setup ---------------------------------------------------------------------------------

def test_parameters_defaults_and_ranges():
    assert GAME.params == {"heaps": 3, "size": 5, "max_take": 3}
    assert GAME.info.name == "nim" and GAME.info.players == ("black", "white") and not GAME.info.simultaneous
    assert make_game(heaps=10, size=20, max_take=20).params == {"heaps": 10, "size": 20, "max_take": 20}
    assert make_game(heaps=1, size=1, max_take=1).new_initial_state().heaps == [1]
    for bad in [{"heaps": 0}, {"heaps": 11}, {"size": 0}, {"size": 21}, {"max_take": 0}, {"max_take": 21},
                {"heaps": True}, {"size": "5"}, {"max_take": 2.0}, {"colour": "red"}]:
        with pytest.raises(InvalidParams):
            make_game(**bad)


def test_heaps_start_equal():
    # GBG: "The game starts with N heaps of size S."
    s = make_game(heaps=4, size=7, max_take=2).new_initial_state()
    assert s.heaps == [7, 7, 7, 7]
    assert s.to_json() == {"turn": 0, "to_move": "black", "heaps": [7, 7, 7, 7], "result": None}


def test_black_starts_then_alternate():
    s = GAME.new_initial_state()
    assert s.players_to_act() == ["black"] and s.legal_actions("white") == []
    assert rule_of(s, "white", (0, 1)) == "it is black's turn"
    t = s.apply_action("black", (0, 2))
    assert t.number == 1 and t.actions == {"black": (0, 2)} and t.events == []
    assert s.players_to_act() == ["white"] and s.heaps == [3, 5, 5]
    with pytest.raises(IllegalAction):
        s.apply_actions({"black": (1, 1)})
    with pytest.raises(IllegalAction):
        s.apply_actions({"white": (1, 1), "black": (1, 1)})
    s.apply_actions({"white": (1, 1)})
    assert s.players_to_act() == ["black"]


# --- the move rule ----------------------------------------------------------------------------------------------

def test_take_one_to_max_take_from_one_heap():
    s = GAME.new_initial_state()
    assert sorted(s.legal_actions("black")) == [(h, c) for h in range(3) for c in (1, 2, 3)]
    assert rule_of(s, "black", (0, 4)) == "a move takes at most 3 items"
    assert rule_of(s, "black", (0, 0)) == "a move takes at least one item"
    assert rule_of(s, "black", (1, -2)) == "a move takes at least one item"
    assert rule_of(s, "black", (3, 1)) == "there is no heap 3 (heaps are numbered 0 to 2)"
    assert rule_of(s, "black", (-1, 1)).startswith("there is no heap -1")


def test_max_take_above_the_heap_size_is_the_heap():
    game = make_game(heaps=2, size=3, max_take=10)
    s = game.new_initial_state()
    assert sorted(s.legal_actions("black")) == [(h, c) for h in range(2) for c in (1, 2, 3)]
    assert rule_of(s, "black", (0, 4)) == "heap 0 has only 3 items left"


def test_count_above_the_items_left_is_illegal():
    s = position([2, 0, 5], 4)
    assert (0, 3) not in s.legal_actions("black")
    assert rule_of(s, "black", (0, 3)) == "heap 0 has only 2 items left"
    assert rule_of(s, "black", (1, 1)) == "heap 1 is empty"
    assert sorted(s.legal_actions("black")) == [(0, 1), (0, 2), (2, 1), (2, 2), (2, 3)]


def test_whoever_takes_the_last_item_wins():
    s = position([0, 2, 0], 7)  # white to move
    assert s.players_to_act() == ["white"]
    t = s.apply_action("white", (1, 2))
    assert t.events == [{"last_item": "white"}]
    assert s.is_terminal() and s.players_to_act() == [] and s.legal_actions("black") == []
    assert s.result().text == "winner: white" and s.returns() == {"black": 0.0, "white": 1.0}
    assert s.to_json()["to_move"] is None and s.to_json()["result"]["winners"] == ["white"]
    assert rule_of(s, "black", (1, 1)) == "the game is over"


def test_no_ties():
    for seed in range(30):
        rng = random.Random(seed)
        s = make_game(heaps=rng.randint(1, 4), size=rng.randint(1, 6), max_take=rng.randint(1, 4)).new_initial_state()
        while not s.is_terminal():
            seat = s.players_to_act()[0]
            last = seat
            s.apply_action(seat, rng.choice(s.legal_actions(seat)))
        assert s.result().winners == [last] and sum(s.returns().values()) == 1.0


# --- forms ----------------------------------------------------------------------------------------------------

def test_action_forms():
    assert GAME.action_to_json((2, 3)) == [2, 3] and GAME.action_from_json([2, 3]) == (2, 3)
    assert GAME.action_to_text((2, 3)) == "2:3" and GAME.action_from_text("2:3") == (2, 3)
    assert GAME.action_from_text(" [1, 2] ") == (1, 2) and GAME.action_from_text("1 2") == (1, 2)
    assert GAME.action_from_json([9, 99]) == (9, 99)  # well formed: the rules refuse it
    s = GAME.new_initial_state()
    s.check_action("black", [0, 1])
    assert s.apply_action("black", [0, 1]).actions == {"black": (0, 1)}


@pytest.mark.parametrize("bad", [None, 1, "0:1", [], [0], [0, 1, 2], [0, 1.0], [True, 1], [0, False], {"h": 0},
                                 [[0], 1], ["0", "1"]])
def test_malformed_json_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_json(bad, "black")
    assert exc.value.rule.startswith("malformed action: ") and exc.value.player == "black"
    assert rule_of(GAME.new_initial_state(), "black", bad).startswith("malformed action: ")


@pytest.mark.parametrize("bad", ["", "1", "1:", "a:b", "1:2:3", "-1:2", None, 3])
def test_malformed_text_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_text(bad)
    assert exc.value.rule.startswith("malformed action: ")


def test_unknown_player():
    assert rule_of(GAME.new_initial_state(), "blue", (0, 1)).startswith("unknown player")


def test_to_text():
    assert GAME.new_initial_state().to_text().splitlines() == [
        "turn 0: black to move", "heap 0: ooooo 5", "heap 1: ooooo 5", "heap 2: ooooo 5"]
    assert position([0, 3, 5], 3).to_text().splitlines()[1:3] == ["heap 0: ..... 0", "heap 1: ooo.. 3"]


def test_state_from_json_rejects_nonsense():
    good = GAME.new_initial_state().to_json()
    for bad in [None, [], {}, {**good, "heaps": [5, 5]}, {**good, "heaps": [5, 5, 6]}, {**good, "heaps": [5, 5, -1]},
                {**good, "heaps": [5, 5, 4]},  # one item gone in no move
                {**good, "turn": 1},  # a move that took nothing
                {**good, "turn": 1, "heaps": [1, 5, 5]},  # 4 items in one move
                {**good, "to_move": "white"}, {**good, "turn": -1}, {**good, "turn": True},
                {**good, "result": {"text": "winner: black"}}, {**good, "heaps": "555"}]:
        with pytest.raises(ValueError):
            GAME.state_from_json(bad)


# --- property tests -----------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2, 7) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_action_from_json_is_total(data):
    s = GAME.new_initial_state()
    before = snapshot(s)
    try:
        action = GAME.action_from_json(data, "black")
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action: ")
        return
    assert GAME.action_to_json(action) == list(data)
    try:
        s.check_action("black", action)
    except IllegalAction:
        with pytest.raises(IllegalAction):
            s.apply_action("black", action)
        assert snapshot(s) == before


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 8), st.integers(1, 6), st.integers(0, 2 ** 32 - 1))
def test_random_games(heaps, size, max_take, seed):
    game = make_game(heaps=heaps, size=size, max_take=max_take)
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        acts = s.legal_actions(seat)
        expected = {(h, c) for h, n in enumerate(s.heaps) for c in range(1, min(n, max_take) + 1)}
        assert len(acts) == len(expected) and set(acts) == expected
        before = snapshot(s)
        for _ in range(3):
            bad = (rng.randint(-1, heaps), rng.randint(-1, max_take + 2))
            if bad not in expected:
                with pytest.raises(IllegalAction):
                    s.apply_action(seat, bad)
                assert snapshot(s) == before
        restored = game.state_from_json(s.to_json())
        assert restored.to_json() == s.to_json() and restored.legal_actions(seat) == acts
        twin = s.clone()
        twin.apply_action(seat, rng.choice(acts))
        assert snapshot(s) == before
        s.apply_action(seat, rng.choice(acts))
    assert game.state_from_json(s.to_json()).to_json() == s.to_json()
    assert s.turn <= game.info.max_turns


# --- bots ---------------------------------------------------------------------------------------------------

def solve(max_take):
    """Exhaustive win/loss of a position for the side to move (independent of the Grundy formula)."""
    @lru_cache(maxsize=None)
    def wins(heaps: tuple) -> bool:
        return any(not wins(tuple(sorted(heaps[:i] + (n - c,) + heaps[i + 1:])))
                   for i, n in enumerate(heaps) for c in range(1, min(n, max_take) + 1))
    return wins


SMALL = [(h, s, m) for h in (1, 2, 3) for s in (1, 2, 3, 4) for m in (1, 2, 3, 4)]


@pytest.mark.parametrize("heaps,size,max_take", SMALL)
def test_grundy_value_matches_exhaustive_search(heaps, size, max_take):
    wins = solve(max_take)
    for start in range(size + 1):
        for rest in range(size + 1):
            hs = tuple(sorted((start, rest) + (size,) * (heaps - 1)))
            assert (bots.grundy(hs, max_take) != 0) == wins(hs)


def perfect_always_wins(game, state, seat, bot, memo) -> bool:
    """Whether ``bot`` (for ``seat``) wins from ``state`` against every possible reply."""
    if state.is_terminal():
        return state.result().winner == seat
    key = (tuple(state.heaps), state.turn % 2)
    if key not in memo:
        mover = state.players_to_act()[0]
        if mover == seat:
            child = state.clone()
            child.apply_action(seat, bot.choose(state))
            memo[key] = perfect_always_wins(game, child, seat, bot, memo)
        else:
            memo[key] = all(perfect_always_wins(game, _after(state, mover, a), seat, bot, memo)
                            for a in state.legal_actions(mover))
    return memo[key]


def _after(state, seat, action):
    child = state.clone()
    child.apply_action(seat, action)
    return child


@pytest.mark.parametrize("heaps,size,max_take", SMALL)
def test_perfect_wins_from_every_winning_start(heaps, size, max_take):
    game = make_game(heaps=heaps, size=size, max_take=max_take)
    start = game.new_initial_state()
    first_wins = bots.grundy(start.heaps, max_take) != 0
    seat = "black" if first_wins else "white"
    bot = bots.BOTS["perfect"](game, seat, seed=1)
    assert perfect_always_wins(game, start, seat, bot, {})


def test_perfect_never_loses_a_won_position_against_random():
    for seed in range(40):
        rng = random.Random(seed)
        game = make_game(heaps=rng.randint(1, 6), size=rng.randint(1, 12), max_take=rng.randint(1, 6))
        s = game.new_initial_state()
        perfect = {seat: bots.BOTS["perfect"](game, seat, seed=seed) for seat in game.info.players}
        won = None  # the first seat to move in a won position: it must win
        while not s.is_terminal():
            seat = s.players_to_act()[0]
            if won is None and bots.grundy(s.heaps, game.max_take):
                won = seat
            a = perfect[seat].choose(s) if seat == won else rng.choice(s.legal_actions(seat))
            s.apply_action(seat, a)
        assert won is None or s.result().winner == won


@pytest.mark.parametrize("level", ["random", "greedy", "strong", "perfect"])
def test_bots_legal_and_leave_the_state_alone(level):
    for seed in range(8):
        rng = random.Random(seed)
        game = make_game(heaps=rng.randint(1, 5), size=rng.randint(1, 9), max_take=rng.randint(1, 5))
        s = game.new_initial_state()
        while not s.is_terminal():
            seat = s.players_to_act()[0]
            factory = RandomBot if level == "random" else bots.BOTS[level]
            before = snapshot(s)
            a = factory(game, seat, seed=seed, seconds=0.05).choose(s)
            assert snapshot(s) == before and a in s.legal_actions(seat)
            s.apply_action(seat, a)


def test_greedy_takes_a_win_and_avoids_handing_one_over():
    assert bots.BOTS["greedy"](GAME, "black", seed=0).choose(position([0, 3, 0], 4)) == (1, 3)
    for seed in range(20):
        h, c = bots.BOTS["greedy"](GAME, "black", seed=seed).choose(position([0, 2, 4], 4))
        rest = [0, 2, 4]
        rest[h] -= c
        left = [n for n in rest if n]
        assert not (len(left) == 1 and left[0] <= 3)  # the opponent could take the rest at once


def test_perfect_and_strong_levels():
    bot = bots.BOTS["perfect"](GAME, "black")
    assert bot.choose(GAME.new_initial_state()) == (0, 1)  # 5%4 = 1 per heap: XOR 1, take 1 from heap 0
    assert bots.perfect_action([4, 4, 0], 3) == (0, 1)  # lost (4 % 4 = 0): 1 from the biggest heap
    assert bots.BOTS["strong"](GAME, "black").choose(GAME.new_initial_state()) == (0, 1)


# --- the UI adapter --------------------------------------------------------------------------------------------------

def test_ui_board_and_words():
    ui = UI(GAME)
    s = position([5, 2, 5], 1)
    obs = s.observation("white")
    b = ui.board(obs, last={"number": 1, "actions": {"black": [1, 3]}, "events": []})
    keys = {it["key"] for heap in b["heaps"] for it in heap["items"]}
    for a in s.legal_actions("white"):
        path = ui.action_path("white", GAME.action_to_json(a))
        assert path and path[0]["key"] in keys
    assert b["turn"] == 1 and b["caption"] == "White to move"
    assert [it["key"] for it in b["heaps"][1]["items"]] == ["take:1,2", "take:1,1"]
    assert [g["last"] for g in b["heaps"][1]["ghosts"]] == [True, True, True]
    assert b["heaps"][1]["last"] and not b["heaps"][0]["last"]
    # Heaps numbered from 1 as drawn (the engine's from 0).
    assert ui.action_words("white", [1, 2]) == "Take 2 from heap 2" and b["heaps"][1]["number"] == 2
    assert ui.action_group("white", [1, 2]) == "Heap 2" and b["heaps"][0]["label"] == "Heap 1: 5 items left"
    assert ui.board(None)["turn"] == 0
    end = position([0, 1, 0], 6)
    ev = end.apply_action("black", (1, 1)).events
    assert ui.event_words(ev[0]) == "Black takes the last item and wins"
    assert ui.result_reason(end.result().to_json(), end.to_json()) == "Black took the last item."
    assert [p.name for p in ui.params()] == ["heaps", "size", "max_take"]
    assert ui.flippable is False


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine
    ui = UI(GAME)
    s = position([5, 2, 4], 3)
    html = Engine(dirs=[str(BASE_DIR / "games/nim/templates")]).get_template(ui.board_template).render(
        Context({"board": ui.board(s.to_json()), "board_label": "Position"}))
    svg = xml.dom.minidom.parseString(html.strip()).documentElement
    assert svg.getAttribute("id") == "board" and svg.getAttribute("class") == "board board-nim nim-heaps"
    assert svg.getAttribute("data-turn") == "3"
    picks = [g for g in svg.getElementsByTagName("g") if g.getAttribute("data-pick")]
    assert {g.getAttribute("data-pick") for g in picks} == {f"take:{h},{c}" for h, n in enumerate([5, 2, 4])
                                                            for c in range(1, n + 1)}
    assert all(g.getElementsByTagName("title") and g.getAttribute("aria-label") for g in picks)
    assert (BASE_DIR / "games/nim/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.nim, games.nim.rules, games.nim.bots, games.nim.ui, sys; "
            "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0
