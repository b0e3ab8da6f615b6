"""Tic-tac-toe: one test per rule (docs/games/tic_tac_toe.md), the action and state forms, property tests over
random games, the bots (perfect never loses) and the UI adapter."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import xml.dom.minidom
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.alphabeta import AlphaBetaBot
from games.bots.base import RandomBot
from games.bots.greedy import GreedyBot
from games.engine import IllegalAction, InvalidParams
from games.tic_tac_toe import bots, make_game
from games.tic_tac_toe.ui import UI

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = make_game()
LINES = [[(r, c) for c in range(3)] for r in range(3)] + [[(r, c) for r in range(3)] for c in range(3)] + \
    [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]


def play(*cells):
    """The state after these cells were marked, X first."""
    s = GAME.new_initial_state()
    for cell in cells:
        s.apply_action(s.players_to_act()[0], cell)
    return s


def rule_of(state, seat, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        state.check_action(seat, action)
    return exc.value.rule


def brute_lines(board: list[str], mark: str) -> list[list[list[int]]]:
    return [[list(sq) for sq in line] for line in LINES if all(board[r][c] == mark for r, c in line)]


# --- setup and turn order -------------------------------------------------------------------------------

def test_no_params():
    assert make_game() is GAME
    assert GAME.info.players == ("x", "o") and not GAME.info.simultaneous and GAME.params == {}
    with pytest.raises(InvalidParams):
        make_game(size=4)


def test_initial_state():
    s = GAME.new_initial_state()
    assert s.to_json() == {"turn": 0, "to_move": "x", "board": ["...", "...", "..."], "lines": [], "result": None}
    assert s.players_to_act() == ["x"] and not s.is_terminal() and s.result() is None
    assert s.legal_actions("x") == list(range(9)) and s.legal_actions("o") == []
    assert s.returns() == {"x": 0.0, "o": 0.0}


def test_players_alternate_x_first():
    s = GAME.new_initial_state()
    assert rule_of(s, "o", 4) == "it is x's turn"
    t = s.apply_action("x", 4)
    assert t.number == 1 and t.actions == {"x": 4} and t.events == []
    assert s.players_to_act() == ["o"] and s.to_json()["board"] == ["...", ".x.", "..."]
    with pytest.raises(IllegalAction):
        s.apply_actions({"x": 0})
    with pytest.raises(IllegalAction):
        s.apply_actions({"o": 0, "x": 1})
    s.apply_actions({"o": 0})
    assert s.players_to_act() == ["x"] and s.to_json()["board"] == ["o..", ".x.", "..."]


# --- moves ------------------------------------------------------------------------------------------------

def test_marks_go_on_empty_cells():
    s = play(4)
    assert 4 not in s.legal_actions("o")
    assert rule_of(s, "o", 4) == "cell 4 (row 1, column 1) already holds X: marks go on empty cells"
    assert rule_of(s, "nobody", 0).startswith("unknown player")


@pytest.mark.parametrize("line", LINES)
def test_three_in_a_line_wins(line):
    cells = [3 * r + c for r, c in line]
    others = [i for i in range(9) if i not in cells]
    s = play(cells[0], others[0], cells[1], others[1])
    t = s.apply_action("x", cells[2])
    assert t.events == [{"line": [list(sq) for sq in line]}]
    assert s.is_terminal() and s.players_to_act() == [] and s.legal_actions("o") == []
    assert s.result().text == "winner: x" and s.returns() == {"x": 1.0, "o": 0.0}
    assert s.to_json()["lines"] == [[list(sq) for sq in line]] and s.to_json()["to_move"] is None
    assert rule_of(s, "o", others[2]) == "the game is over"
    with pytest.raises(IllegalAction):
        s.apply_actions({"o": others[2]})


def test_o_wins_too():
    s = play(0, 3, 1, 4, 8, 5)
    assert s.result().text == "winner: o" and s.result().winner == "o" and s.returns() == {"x": 0.0, "o": 1.0}


def test_two_lines_at_once():
    s = play(0, 1, 2, 3, 6, 5, 8, 7)
    t = s.apply_action("x", 4)
    assert t.events == [{"line": [[0, 0], [1, 1], [2, 2]]}, {"line": [[0, 2], [1, 1], [2, 0]]}]
    assert len(s.to_json()["lines"]) == 2


def test_full_grid_without_line_is_a_draw():
    s = play(0, 1, 2, 4, 3, 5, 7, 6)
    t = s.apply_action("x", 8)
    assert t.events == [] and s.is_terminal()
    assert s.result().text == "draw" and s.result().winner is None and s.returns() == {"x": 0.5, "o": 0.5}
    assert s.to_json()["result"] == {"text": "draw", "winners": [], "returns": {"x": 0.5, "o": 0.5}}


# --- forms ------------------------------------------------------------------------------------------------

def test_action_forms():
    for cell in range(9):
        assert GAME.action_to_json(cell) == cell and GAME.action_from_json(cell) == cell
        assert GAME.action_from_text(GAME.action_to_text(cell)) == cell
    assert GAME.action_from_text(" 7 ") == 7


@pytest.mark.parametrize("bad", [None, True, False, -1, 9, 10 ** 40, 4.0, "4", [4], {"cell": 4}])
def test_malformed_json_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_json(bad, "x")
    assert exc.value.rule.startswith("malformed action: ") and exc.value.player == "x"
    assert rule_of(GAME.new_initial_state(), "x", bad).startswith("malformed action: ")


@pytest.mark.parametrize("bad", ["", "9", "44", "a", "4.0", None, 4])
def test_malformed_text_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_text(bad)
    assert exc.value.rule.startswith("malformed action: ")


def test_state_json_round_trip_and_text():
    s = play(4, 0, 8)
    data = s.to_json()
    assert GAME.state_from_json(data).to_json() == data
    assert s.to_text() == "turn 3: o to move\nO . .\n. X .\n. . X"
    done = play(0, 3, 1, 4, 2)
    assert GAME.state_from_json(done.to_json()).result() == done.result()


def test_state_from_json_rejects_nonsense():
    good = play(4, 0).to_json()
    bad_states = [None, {}, {**good, "board": ["...", ".x.", ".."]}, {**good, "board": ["o..", ".X.", "..."]},
                  {**good, "turn": 3}, {**good, "turn": 2.0}, {**good, "to_move": "o"},
                  {**good, "board": ["oo.", ".x.", "..."]},  # O ahead of X
                  {**good, "lines": [[[0, 0], [0, 1], [0, 2]]]}, {**good, "extra": 1},
                  {"turn": 6, "to_move": None, "board": ["xxx", "ooo", "..."], "lines": [], "result": None},
                  # X has a line but O moved last:
                  {**play(0, 3, 1, 4, 2).to_json(), "board": ["xxx", "oo.", "..o"], "turn": 6}]
    for bad in bad_states:
        with pytest.raises(ValueError):
            GAME.state_from_json(bad)


# --- property tests ---------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_random_games_follow_the_rules(seed):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    for turn in range(10):
        data = s.to_json()
        board = data["board"]
        empty = [3 * r + c for r in range(3) for c in range(3) if board[r][c] == "."]
        restored = GAME.state_from_json(data)
        assert restored.to_json() == data
        if s.is_terminal():
            lines = brute_lines(board, "x") or brute_lines(board, "o")
            assert data["lines"] == lines
            assert (s.result().text == "draw") == (not lines and not empty)
            break
        assert not brute_lines(board, "x") and not brute_lines(board, "o") and empty
        seat = "xo"[turn % 2]
        assert data["to_move"] == seat and s.legal_actions(seat) == empty
        before = s.to_json()
        for bad in [c for c in range(9) if c not in empty] + [rng.choice([-1, 9, None, "x"])]:
            with pytest.raises(IllegalAction):
                s.apply_action(seat, bad)
            assert s.to_json() == before
        twin = s.clone()
        twin.apply_action(seat, rng.choice(empty))
        assert s.to_json() == before
        s.apply_action(seat, rng.choice(empty))
    else:
        pytest.fail("a game lasted more than 9 moves")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2, 10) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_action_from_json_is_total(data):
    try:
        action = GAME.action_from_json(data, "x")
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action: ")
        return
    assert action == data and type(action) is int and 0 <= action <= 8


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=6))
def test_action_from_text_is_total(text):
    try:
        GAME.action_from_text(text)
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action: ")


# --- bots -------------------------------------------------------------------------------------------------

def run(bot_x, bot_o):
    s = GAME.new_initial_state()
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        before = s.to_json()
        action = (bot_x if seat == "x" else bot_o).choose(s)
        assert s.to_json() == before and action in s.legal_actions(seat)
        s.apply_action(seat, action)
    return s.returns()


def test_solve_covers_every_position():
    assert bots.solve(0, 0) == 0  # a draw with perfect play
    assert len(bots._VALUES) == 5478
    assert bots.solve(0b11, 1 << 3 | 1 << 4) == 1 + 4  # X (0, 1) to move wins at 2, leaving 4 cells empty
    assert bots.solve(1 << 3 | 1 << 5, 0b10011) == -(1 + 2)  # O faces X's threats at 2, 7 and 8


def test_perfect_never_loses_to_random():
    for i in range(150):
        perfect = bots.BOTS["perfect"](GAME, "xo"[i % 2], seed=i)
        rand = RandomBot(GAME, "ox"[i % 2], seed=i)
        returns = run(perfect, rand) if i % 2 == 0 else run(rand, perfect)
        assert returns[perfect.seat] >= 0.5


def test_perfect_against_itself_always_draws():
    for i in range(20):
        assert run(bots.PerfectBot(GAME, "x", seed=i), bots.PerfectBot(GAME, "o", seed=100 + i)) == {"x": 0.5, "o": 0.5}


def test_perfect_takes_the_quickest_win():
    s = play(0, 3, 1, 4)  # X wins at 2 now (O threatens 5)
    assert bots.PerfectBot(GAME, "x", seed=1).choose(s) == 2


def test_strong_and_greedy_are_legal_and_strong_never_loses():
    for i in range(6):
        strong = AlphaBetaBot(GAME, "xo"[i % 2], evaluation=bots, seed=i, seconds=0.05)
        rand = RandomBot(GAME, "ox"[i % 2], seed=i)
        returns = run(strong, rand) if i % 2 == 0 else run(rand, strong)
        assert returns[strong.seat] >= 0.5
    run(GreedyBot(GAME, "x", evaluation=bots, seed=1), RandomBot(GAME, "o", seed=2))
    assert GreedyBot(GAME, "x", evaluation=bots, seed=1).choose(play(0, 3, 1, 4)) == 2  # wins
    assert GreedyBot(GAME, "x", evaluation=bots, seed=1).choose(play(0, 3, 8, 4)) == 5  # blocks


def test_evaluation():
    s = play(4)
    assert bots.evaluate(s, "x") == -bots.evaluate(s, "o") > 0
    assert bots.evaluate(play(0, 3, 1, 4, 2), "x") == bots.WIN
    assert bots.evaluate(play(0, 1, 2, 4, 3, 5, 7, 6, 8), "o") == 0.0
    assert bots.order_actions(play(0, 3, 1, 4), "x", [5, 8, 2])[:2] == [2, 5]
    assert bots.position_key(play(4)) != bots.position_key(play(0))


# --- the UI adapter -----------------------------------------------------------------------------------------

def test_ui_board_words_and_paths():
    ui = UI(GAME)
    s = play(4, 0)
    obs = s.observation("x")
    b = ui.board(obs, last={"number": 2, "actions": {"o": 0}, "events": []})
    assert b["turn"] == 2 and len(b["cells"]) == 9
    keys = {c["key"] for c in b["cells"]}
    for a in s.legal_actions("x"):
        path = ui.action_path("x", GAME.action_to_json(a))
        assert path and path[0]["key"] in keys
    assert "last" in b["cells"][0]["cls"] and "mark-o" in b["cells"][0]["cls"] and "mark-x" in b["cells"][4]["cls"]
    assert ui.action_path("x", 4) == [{"key": "cell:4", "label": "Centre"}]
    assert [ui.action_words("o", c) for c in range(9)] == [
        "Top left", "Top middle", "Top right", "Middle left", "Centre", "Middle right", "Bottom left",
        "Bottom middle", "Bottom right"]
    won = play(0, 3, 1, 4)
    t = won.apply_action("x", 2)
    wb = ui.board(won.to_json(), last={"number": t.number, "actions": {"x": 2}, "events": t.events})
    assert [c["index"] for c in wb["cells"] if "win" in c["cls"]] == [0, 1, 2] and len(wb["lines"]) == 1
    assert ui.event_words(t.events[0]) == "Three in a line: top left, top middle, top right"
    assert ui.result_reason(won.result().to_json(), won.to_json()) == "X has three in a line."
    assert ui.seat_stats(won.to_json(), "o") == [("Marks", 2)] and ui.seat_name("o") == "O"
    assert ui.board(None)["turn"] == 0


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine
    ui = UI(GAME)
    s = play(0, 3, 1, 4)
    t = s.apply_action("x", 2)
    engine = Engine(dirs=[str(BASE_DIR / "games/tic_tac_toe/templates")])
    html = engine.get_template(ui.board_template).render(Context({
        "board": ui.board(s.to_json(), last={"number": t.number, "actions": {"x": 2}, "events": t.events}),
        "board_label": "Position"}))
    svg = xml.dom.minidom.parseString(html.strip()).documentElement
    assert svg.getAttribute("id") == "board" and svg.getAttribute("class") == "board board-tic_tac_toe"
    assert svg.getAttribute("data-turn") == "5" and svg.getAttribute("aria-label") == "Position after turn 5"
    cells = [g for g in svg.getElementsByTagName("g") if g.getAttribute("data-pick")]
    assert {g.getAttribute("data-pick") for g in cells} == {f"cell:{i}" for i in range(9)}
    assert all(g.getElementsByTagName("title") and g.getAttribute("aria-label") for g in cells)
    assert (BASE_DIR / "games/tic_tac_toe/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.tic_tac_toe.rules, games.tic_tac_toe.bots, games.tic_tac_toe.ui, sys; "
            "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
            "sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0
