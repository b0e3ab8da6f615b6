"""Connect Four: one test per rule (docs/games/connect_four.md), the action and state forms, property tests over
random games against brute force from the rules' wording, the bots and the UI adapter."""
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

from games.bots.base import RandomBot
from games.bots.greedy import GreedyBot
from games.connect_four import bots, make_game
from games.connect_four.ui import UI
from games.engine import IllegalAction, InvalidParams

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = make_game()
EMPTY = ["......."] * 6
DRAWN = ["yyrryyr", "rryyrry"] * 3  # a full frame without four in a line


def play(*cols):
    """The state after discs dropped into these columns, Yellow first."""
    s = GAME.new_initial_state()
    for col in cols:
        s.apply_action(s.players_to_act()[0], col)
    return s


def position(*rows):
    """A state (no one has won) from its rows, top first."""
    n = sum(ch != "." for row in rows for ch in row)
    return GAME.state_from_json({"turn": n, "to_move": ("yellow", "red")[n % 2], "board": list(rows), "lines": [],
                                 "result": None})


def rule_of(state, seat, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        state.check_action(seat, action)
    return exc.value.rule


def windows_of(board: list[str], ch: str) -> set:
    """Every cell of every window of four cells in a line that all hold ``ch``."""
    cells = set()
    for r in range(6):
        for c in range(7):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                window = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= y < 6 and 0 <= x < 7 and board[y][x] == ch for y, x in window):
                    cells.update(window)
    return cells


# --- setup and turn order -------------------------------------------------------------------------------

def test_no_params():
    assert make_game() is GAME
    assert GAME.info.players == ("yellow", "red") and not GAME.info.simultaneous and GAME.params == {}
    with pytest.raises(InvalidParams):
        make_game(rows=7)


def test_initial_state():
    s = GAME.new_initial_state()
    assert s.to_json() == {"turn": 0, "to_move": "yellow", "board": EMPTY, "lines": [], "result": None}
    assert s.players_to_act() == ["yellow"] and s.legal_actions("yellow") == list(range(7))
    assert s.legal_actions("red") == [] and s.result() is None


def test_players_alternate_yellow_first():
    s = GAME.new_initial_state()
    assert rule_of(s, "red", 3) == "it is yellow's turn"
    t = s.apply_action("yellow", 3)
    assert t.number == 1 and t.actions == {"yellow": 3} and t.events == []
    assert s.players_to_act() == ["red"]
    with pytest.raises(IllegalAction):
        s.apply_actions({"yellow": 3})
    with pytest.raises(IllegalAction):
        s.apply_actions({"red": 3, "yellow": 2})
    s.apply_actions({"red": 3})
    assert s.players_to_act() == ["yellow"]


# --- moves ------------------------------------------------------------------------------------------------

def test_discs_fall_to_the_lowest_empty_cell():
    s = play(3, 3, 4)
    assert s.to_json()["board"] == EMPTY[:4] + ["...r...", "...yy.."]


def test_a_full_column_takes_no_disc():
    s = play(0, 0, 0, 0, 0, 0)
    assert s.to_json()["board"] == ["r......", "y......"] * 3
    assert 0 not in s.legal_actions("yellow") and s.legal_actions("yellow") == [1, 2, 3, 4, 5, 6]
    assert rule_of(s, "yellow", 0) == "column 0 is full: discs go into a column with room"
    assert rule_of(s, "nobody", 1).startswith("unknown player")


@pytest.mark.parametrize("setup,move,line", [
    (play(3, 3, 4, 4, 5, 5), 6, [[5, 3], [5, 4], [5, 5], [5, 6]]),  # across
    (play(0, 1, 0, 1, 0, 1), 0, [[2, 0], [3, 0], [4, 0], [5, 0]]),  # down a column
    (position(*EMPTY[:3], "ry.....", "yyy....", "rrry..r"), 0, [[2, 0], [3, 1], [4, 2], [5, 3]]),  # diagonal
    (position(*EMPTY[:3], ".....yr", "....yyy", "r..yrrr"), 6, [[2, 6], [3, 5], [4, 4], [5, 3]]),  # the other
])
def test_four_in_a_line_wins(setup, move, line):
    assert not setup.is_terminal()
    t = setup.apply_action("yellow", move)
    assert t.events == [{"line": line}]
    assert setup.is_terminal() and setup.players_to_act() == [] and setup.legal_actions("red") == []
    assert setup.result().text == "winner: yellow" and setup.returns() == {"yellow": 1.0, "red": 0.0}
    data = setup.to_json()
    assert data["lines"] == [line] and data["to_move"] is None
    assert data["result"] == {"text": "winner: yellow", "winners": ["yellow"], "returns": {"yellow": 1.0, "red": 0.0}}
    assert rule_of(setup, "red", 1) == "the game is over"
    with pytest.raises(IllegalAction):
        setup.apply_actions({"red": 1})


def test_red_wins_too():
    s = play(0, 1, 0, 1, 0, 1, 2, 1)
    assert s.result().text == "winner: red" and s.returns() == {"yellow": 0.0, "red": 1.0}


def test_longer_lines_and_several_lines_are_reported_whole():
    s = play(0, 0, 1, 1, 3, 3, 4, 4)
    t = s.apply_action("yellow", 2)
    assert t.events == [{"line": [[5, 0], [5, 1], [5, 2], [5, 3], [5, 4]]}]
    s = position(*EMPTY[:2], "yyy....", "rrry...", "yrry...", "ryry..r")
    t = s.apply_action("yellow", 3)
    assert t.events == [{"line": [[2, 0], [2, 1], [2, 2], [2, 3]]}, {"line": [[2, 3], [3, 3], [4, 3], [5, 3]]}]


def test_full_frame_without_four_is_a_draw():
    s = position(*(["yy.ryyr"] + DRAWN[1:]))
    assert s.players_to_act() == ["red"] and s.legal_actions("red") == [2]
    t = s.apply_action("red", 2)
    assert t.events == [] and s.is_terminal() and s.to_json()["board"] == DRAWN
    assert s.result().text == "draw" and s.result().winner is None and s.returns() == {"yellow": 0.5, "red": 0.5}


# --- forms ------------------------------------------------------------------------------------------------

def test_action_forms():
    for col in range(7):
        assert GAME.action_to_json(col) == col and GAME.action_from_json(col) == col
        assert GAME.action_from_text(GAME.action_to_text(col)) == col
    assert GAME.action_from_text(" 6\n") == 6


@pytest.mark.parametrize("bad", [None, True, -1, 7, 10 ** 40, 3.0, "3", [3], {"col": 3}])
def test_malformed_json_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_json(bad, "red")
    assert exc.value.rule.startswith("malformed action: ") and exc.value.player == "red"
    assert rule_of(GAME.new_initial_state(), "yellow", bad).startswith("malformed action: ")


@pytest.mark.parametrize("bad", ["", "7", "33", "c", None, 3])
def test_malformed_text_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_text(bad)
    assert exc.value.rule.startswith("malformed action: ")


def test_state_json_round_trip_and_text():
    s = play(3, 3, 2)
    assert GAME.state_from_json(s.to_json()).to_json() == s.to_json()
    assert s.to_text().splitlines() == ["turn 3: red to move"] + [". . . . . . ."] * 4 + [
        ". . . R . . .", ". . Y Y . . .", "0 1 2 3 4 5 6"]
    done = play(3, 3, 4, 4, 5, 5, 6)
    assert GAME.state_from_json(done.to_json()).to_json() == done.to_json()


def test_state_from_json_rejects_nonsense():
    good = play(3, 3).to_json()

    def data(*rows, **extra):
        return {**good, "board": list(rows), "turn": sum(ch != "." for row in rows for ch in row), **extra}

    bad_states = [None, {}, {**good, "turn": 3}, {**good, "turn": 2.0}, {**good, "to_move": "red"},
                  {**good, "extra": 1}, {**good, "board": EMPTY[:5]},
                  {**good, "board": EMPTY[:4] + ["...R...", "...y..."]},
                  data(*EMPTY[:4], "...y...", "......."),  # a floating disc
                  data(*EMPTY[:5], "yy.y..."),  # Yellow three ahead
                  data(*EMPTY[:4], "rrrr...", "yyyy..."),  # both have four
                  data(*EMPTY[:4], "rrr....", "yyyy..r", to_move=None),  # four for Yellow, Red moved last
                  # Yellow's four is covered: its last disc (5, 6) came after the four
                  data(".......", "r......", "y......", "y......", "yr.....", "yrr...y", to_move=None)]
    for bad in bad_states:
        with pytest.raises(ValueError):
            GAME.state_from_json(bad)


# --- property tests ---------------------------------------------------------------------------------------

@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_random_games_follow_the_rules(seed):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    for turn in range(43):
        data = s.to_json()
        board = data["board"]
        assert GAME.state_from_json(data).to_json() == data
        for c in range(7):  # gravity: no empty cell under a disc
            column = "".join(board[r][c] for r in range(6))
            assert "." not in column.lstrip(".")
        if s.is_terminal():
            winner = s.result().winner
            lines = {(r, c) for line in data["lines"] for r, c in line}
            assert lines == (windows_of(board, winner[0]) if winner else set())
            assert winner or "." not in "".join(board)
            break
        assert not windows_of(board, "y") and not windows_of(board, "r")
        seat = ("yellow", "red")[turn % 2]
        open_cols = [c for c in range(7) if board[0][c] == "."]
        assert data["to_move"] == seat and s.legal_actions(seat) == open_cols
        before = s.to_json()
        for bad in [c for c in range(7) if c not in open_cols] + [rng.choice([-1, 7, None, "x", [0]])]:
            with pytest.raises(IllegalAction):
                s.apply_action(seat, bad)
            assert s.to_json() == before
        twin = s.clone()
        twin.apply_action(seat, rng.choice(open_cols))
        assert s.to_json() == before
        col = rng.choice(open_cols)
        t = s.apply_action(seat, col)
        after = s.to_json()["board"]
        row = max(r for r in range(6) if board[r][col] == ".")
        assert after[row][col] == seat[0] and sum(a != b for x, y in zip(board, after) for a, b in zip(x, y)) == 1
        for event in t.events:
            assert [row, col] in event["line"] and len(event["line"]) >= 4
    else:
        pytest.fail("a game lasted more than 42 moves")


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_threats_match_brute_force(seed):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    for _ in range(rng.randrange(30)):
        if s.is_terminal():
            break
        seat = s.players_to_act()[0]
        s.apply_action(seat, rng.choice(s.legal_actions(seat)))
    board = s.to_json()["board"]
    mask = s.bits[0] | s.bits[1]
    for p, ch in ((0, "y"), (1, "r")):
        expected = set()
        for r in range(6):
            for c in range(7):
                if board[r][c] == ".":
                    filled = [row[:c] + ch + row[c + 1:] if i == r else row for i, row in enumerate(board)]
                    if (r, c) in windows_of(filled, ch):
                        expected.add((r, c))
        got = bots.threats(s.bits[p], mask)
        assert {(r, c) for r in range(6) for c in range(7) if got >> (c * 7 + 5 - r) & 1} == expected


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2, 9) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_action_from_json_is_total(data):
    try:
        action = GAME.action_from_json(data, "yellow")
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action: ")
        return
    assert action == data and type(action) is int and 0 <= action <= 6


# --- bots -------------------------------------------------------------------------------------------------

def run(first, second):
    s = GAME.new_initial_state()
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        before = s.to_json()
        action = (first if seat == "yellow" else second).choose(s)
        assert s.to_json() == before and action in s.legal_actions(seat)
        s.apply_action(seat, action)
    return s.returns()


def test_strong_beats_random():
    for i in range(4):
        strong = bots.BOTS["strong"](GAME, ("yellow", "red")[i % 2], seed=i, seconds=0.05)
        rand = RandomBot(GAME, ("red", "yellow")[i % 2], seed=i)
        returns = run(strong, rand) if i % 2 == 0 else run(rand, strong)
        assert returns[strong.seat] == 1.0


def test_strong_wins_at_once_blocks_and_respects_the_clock():
    strong = bots.StrongBot(GAME, "yellow", seconds=0.2)
    assert strong.choose(play(3, 3, 4, 4, 5, 5)) in (2, 6)  # four across either way
    s = play(0, 3, 0, 3, 6, 3)  # Red threatens (2, 3)
    assert strong.choose(s) == 3
    lost = position(*EMPTY[:4], "......y", ".rrr.yy")  # Red wins at 0 or 4 whatever Yellow does
    assert strong.choose(lost) in (0, 4)
    s = play(3)
    bot = bots.StrongBot(GAME, "red", seconds=0.1)
    bot.choose(s)
    assert bot.stats["seconds"] < 0.3 and bot.stats["depth"] >= 3


def test_greedy_and_strong_are_always_legal():
    rng = random.Random(7)
    greedy = GreedyBot(GAME, "yellow", evaluation=bots, seed=1)
    assert greedy.choose(play(3, 3, 4, 4, 5, 5)) in (2, 6)
    assert greedy.choose(play(0, 3, 0, 3, 6, 3)) == 3
    for _ in range(10):
        s = GAME.new_initial_state()
        for _ in range(rng.randrange(30)):
            seat = s.players_to_act()[0]
            s.apply_action(seat, rng.choice(s.legal_actions(seat)))
            if s.is_terminal():
                break
        if s.is_terminal():
            continue
        seat = s.players_to_act()[0]
        for bot in (GreedyBot(GAME, seat, evaluation=bots, seed=2), bots.StrongBot(GAME, seat, seconds=0.01)):
            assert bot.choose(s) in s.legal_actions(seat)


def test_evaluation():
    s = play(3)
    assert bots.evaluate(s, "yellow") == -bots.evaluate(s, "red") > 0
    won = play(3, 3, 4, 4, 5, 5, 6)
    assert bots.evaluate(won, "yellow") == bots.WIN and bots.evaluate(won, "red") == -bots.WIN
    assert bots.evaluate(play(3, 3, 4, 4, 5), "red") == -bots.WIN_NOW  # Yellow threatens both ends
    assert bots.evaluate(play(3, 3, 4, 4, 5, 5), "yellow") == bots.WIN_NOW


# --- the UI adapter -----------------------------------------------------------------------------------------

def test_ui_board_words_and_paths():
    ui = UI(GAME)
    s = play(3, 3)
    b = ui.board(s.observation("yellow"), last={"number": 2, "actions": {"red": 3}, "events": []})
    assert b["turn"] == 2 and len(b["holes"]) == 42 and len(b["columns"]) == 7
    keys = {c["key"] for c in b["columns"]}
    for a in s.legal_actions("yellow"):
        path = ui.action_path("yellow", GAME.action_to_json(a))
        assert path and path[0]["key"] in keys
    hole = {(h["row"], h["col"]): h for h in b["holes"]}
    assert hole[(4, 3)]["cls"] == "disc red last" and hole[(5, 3)]["cls"] == "disc yellow"
    assert hole[(5, 3)]["letter"] == "Y" and hole[(0, 0)]["cls"] == "empty"
    # Columns as players count them, 1-7 from the left (the engine's 0-6).
    assert b["columns"][3]["label"] == "Column 4 (bottom to top): Yellow, Red; room for 4; the last disc went here"
    assert ui.action_path("red", 5) == [{"key": "col:5", "label": "Column 6"}]
    assert ui.action_words("red", 5) == "Column 6" and ui.action_words("red", 0) == "Column 1"
    won = play(3, 3, 4, 4, 5, 5)
    t = won.apply_action("yellow", 6)
    wb = ui.board(won.to_json(), last={"number": t.number, "actions": t.actions, "events": t.events})
    assert sorted(h["col"] for h in wb["holes"] if "win" in h["cls"]) == [3, 4, 5, 6] and len(wb["lines"]) == 1
    assert ui.event_words(t.events[0]) == "Four in a line from column 4, row 1 to column 7, row 1"
    assert ui.result_reason(won.result().to_json(), won.to_json()) == "Yellow has four in a line."
    assert ui.seat_stats(won.to_json(), "red") == [("Discs", 3)] and ui.seat_name("red") == "Red"
    assert ui.board(None)["turn"] == 0


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine
    ui = UI(GAME)
    s = play(0, 0, 0, 0, 0, 0, 3)
    engine = Engine(dirs=[str(BASE_DIR / "games/connect_four/templates")])
    html = engine.get_template(ui.board_template).render(Context({
        "board": ui.board(s.to_json(), last={"number": 7, "actions": {"yellow": 3}, "events": []}),
        "board_label": "Position"}))
    svg = xml.dom.minidom.parseString(html.strip()).documentElement
    assert svg.getAttribute("id") == "board" and svg.getAttribute("class") == "board board-connect_four"
    assert svg.getAttribute("data-turn") == "7" and svg.getAttribute("aria-label") == "Position after turn 7"
    columns = [g for g in svg.getElementsByTagName("g") if g.getAttribute("data-pick")]
    assert [g.getAttribute("data-pick") for g in columns] == [f"col:{c}" for c in range(7)]
    for g in columns:
        assert g.getElementsByTagName("title") and g.getAttribute("aria-label")
        assert [r.getAttribute("height") for r in g.getElementsByTagName("rect")] == ["390"]  # the whole column
    assert "full" in columns[0].getAttribute("class").split()
    assert (BASE_DIR / "games/connect_four/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.connect_four.rules, games.connect_four.bots, games.connect_four.ui, sys; "
            "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
            "sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0
