"""Othello: one test per rule (docs/games/othello.md), property tests against a brute-force move generator
written from the rules' wording, the action forms, the bots and the UI adapter."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import xml.dom.minidom
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots.base import RandomBot
from games.bots.greedy import GreedyBot
from games.engine import IllegalAction, InvalidParams
from games.othello import bots, make_game
from games.othello.rules import OthelloState, flips, placements, squares_of

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = make_game()
DIRS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
EMPTY = ["........"] * 8


def position(rows, to_move="black", turn=10) -> OthelloState:
    """A state from 8 strings of B, W and '.' (row 0 first)."""
    discs = [0, 0]
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                discs["BW".index(ch)] |= 1 << (r * 8 + c)
    return OthelloState(discs[0], discs[1], 0 if to_move == "black" else 1, turn)


def put(rows=EMPTY, **cells) -> list[str]:
    """``rows`` with discs set: put(B=[(3, 3)], W=[(3, 4)])."""
    grid = [list(row) for row in rows]
    for letter, squares in cells.items():
        for r, c in squares:
            grid[r][c] = letter
    return ["".join(row) for row in grid]


def rule_of(state, seat, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        state.check_action(seat, action)
    return exc.value.rule


def snapshot(state):
    return (state.to_json(), list(state.discs), state.to_move, state.turn, state._moves)


# --- setup and turn order ------------------------------------------------------------------------------

def test_package_takes_no_params():
    assert GAME.info.name == "othello" and GAME.info.players == ("black", "white")
    assert not GAME.info.simultaneous and GAME.params == {}
    with pytest.raises(InvalidParams):
        make_game(size=8)


def test_initial_position_and_black_first():
    s = GAME.new_initial_state()
    assert s.to_json() == {"turn": 0, "to_move": "black", "result": None, "board": [
        "........", "........", "........", "...WB...", "...BW...", "........", "........", "........"]}
    assert s.players_to_act() == ["black"] and s.legal_actions("white") == []
    assert s.legal_actions("black") == [(2, 3), (3, 2), (4, 5), (5, 4)]
    assert rule_of(s, "white", (2, 4)) == "it is black's turn"
    t = s.apply_action("black", (2, 3))
    assert t.number == 1 and t.actions == {"black": (2, 3)} and t.events == [{"flips": [[3, 3]]}]
    assert s.players_to_act() == ["white"] and s.counts() == {"black": 4, "white": 1}


# --- placing and flipping ------------------------------------------------------------------------------

@pytest.mark.parametrize("d", DIRS)
def test_flips_in_each_direction(d):
    dr, dc = d
    centre = (3, 3)
    line = [(3 + dr, 3 + dc), (3 + 2 * dr, 3 + 2 * dc)]
    s = position(put(W=line + [(0, 7)], B=[(3 + 3 * dr, 3 + 3 * dc)]))  # (0, 7): on no line through (3, 3)
    assert centre in s.legal_actions("black")
    t = s.apply_action("black", centre)
    assert sorted(map(tuple, t.events[0]["flips"])) == sorted(line)
    assert s.counts() == {"black": 4, "white": 1}


def test_flips_several_directions_at_once():
    rows = put(W=[(3, 4), (4, 3), (4, 4), (2, 3), (2, 2)], B=[(3, 5), (5, 3), (5, 5), (1, 3), (1, 1)])
    s = position(rows)
    t = s.apply_action("black", (3, 3))
    assert sorted(map(tuple, t.events[0]["flips"])) == [(2, 2), (2, 3), (3, 4), (4, 3), (4, 4)]
    assert s.counts()["white"] == 0


def test_only_the_enclosed_run_flips():
    s = position(put(W=[(0, 1), (0, 2), (0, 4)], B=[(0, 3)]))
    t = s.apply_action("black", (0, 0))
    assert t.events[0]["flips"] == [[0, 1], [0, 2]]  # stops at the first own disc: (0, 4) stays White
    assert s.to_json()["board"][0] == "BBBBW..."


def test_no_flip_across_an_empty_square():
    s = position(put(W=[(0, 1), (0, 3)], B=[(0, 4), (7, 7)]))
    assert (0, 0) not in s.legal_actions("black")
    assert "enclose no opposing discs" in rule_of(s, "black", (0, 0))
    assert (0, 2) in s.legal_actions("black")  # (0, 2) encloses (0, 3)
    assert s.apply_action("black", (0, 2)).events[0]["flips"] == [[0, 3]]


def test_no_flip_off_the_edge_or_around_it():
    # A run that reaches the edge without an own disc behind it encloses nothing.
    s = position(put(W=[(3, 5), (3, 6), (3, 7)], B=[(0, 0)]))
    assert (3, 4) not in s.legal_actions("black") and flips(*s.discs, 3 * 8 + 4) == 0
    # Rows do not wrap round: (2, 7) and (3, 0) are neighbouring bits, not neighbouring squares.
    for white, black, square in [((2, 7), (3, 0), (2, 6)), ((3, 0), (2, 7), (3, 1)),  # east, west
                                 ((4, 7), (4, 0), (5, 6)), ((6, 0), (6, 7), (5, 1)),  # diagonals
                                 ((2, 0), (0, 7), (3, 1))]:
        s = position(put(W=[white], B=[black]))
        assert square not in s.legal_actions("black") and flips(*s.discs, square[0] * 8 + square[1]) == 0


def test_placement_must_flip_and_square_must_be_empty():
    s = GAME.new_initial_state()
    assert "enclose no opposing discs" in rule_of(s, "black", (0, 0))
    assert rule_of(s, "black", (3, 3)) == "(3, 3) is already taken"
    assert "not on the board" in rule_of(s, "black", (8, 0))
    assert "not on the board" in rule_of(s, "black", (-1, 3))


# --- passing and the end ---------------------------------------------------------------------------------

STUCK = put(W=[(7, 1)], B=[(7, c) for c in range(2, 8)])


def test_pass_only_when_no_placement():
    s = GAME.new_initial_state()
    assert "pass" not in s.legal_actions("black")
    assert rule_of(s, "black", "pass") == "a player may pass only when they have no placement"
    # White's only run of Black ends at the edge: White cannot place; Black can, at (7, 0).
    s = position(STUCK, to_move="white")
    assert not s.is_terminal() and s.legal_actions("white") == ["pass"]
    assert rule_of(s, "white", (6, 1)) == "white has no placement and must pass"
    t = s.apply_action("white", "pass")
    assert t.number == 11 and t.actions == {"white": "pass"} and t.events == []
    assert s.players_to_act() == ["black"] and s.legal_actions("black") == [(7, 0)]


def test_a_move_leaving_the_opponent_without_placement_says_so():
    s = position(put(W=[(7, 2), (5, 1)], B=[(7, c) for c in range(3, 8)] + [(5, c) for c in range(2, 8)]))
    t = s.apply_action("black", (7, 1))  # flips (7, 2); White (5, 1) then has no placement, Black has (5, 0)
    assert t.events == [{"flips": [[7, 2]]}, {"must_pass": "white"}]
    assert s.legal_actions("white") == ["pass"]
    s.apply_action("white", "pass")
    assert s.legal_actions("black") == [(5, 0)]


def test_game_ends_when_neither_can_place():
    s = position(put(W=[(0, 1)], B=[(0, 2)]))
    t = s.apply_action("black", (0, 0))  # White has no disc left: neither side can place
    assert t.events == [{"flips": [[0, 1]]}, {"end": {"black": 3, "white": 0}}]
    assert s.is_terminal() and s.players_to_act() == [] and s.legal_actions("black") == []
    assert s.result().text == "winner: black 3-0" and s.returns() == {"black": 1.0, "white": 0.0}
    assert s.to_json()["to_move"] is None
    assert rule_of(s, "black", (5, 5)) == "the game is over"


def test_the_game_can_end_before_the_board_is_full():
    rows = put(["BBBBBBBB"] * 8, **{".": [(0, 0), (7, 7)]})
    s = position(rows)
    assert s.is_terminal() and s.result().winner == "black" and s.result().text == "winner: black 62-0"


@pytest.mark.parametrize("black,white,text,returns", [
    (33, 31, "winner: black 33-31", {"black": 1.0, "white": 0.0}),
    (20, 44, "winner: white 44-20", {"black": 0.0, "white": 1.0}),
    (32, 32, "draw 32-32", {"black": 0.5, "white": 0.5}),
])
def test_more_discs_wins_equal_counts_draw(black, white, text, returns):
    letters = "B" * black + "W" * white
    s = position([letters[r * 8:(r + 1) * 8] for r in range(8)])
    assert s.is_terminal() and s.result().text == text and s.returns() == returns
    assert s.result().winner == (None if black == white else "black" if black > white else "white")


# --- action forms ------------------------------------------------------------------------------------------

def test_action_forms():
    assert GAME.action_to_json((2, 3)) == [2, 3] and GAME.action_to_json("pass") == "pass"
    assert GAME.action_from_json([2, 3]) == (2, 3) and GAME.action_from_json("pass") == "pass"
    assert GAME.action_to_text((2, 3)) == "2,3" and GAME.action_to_text("pass") == "pass"
    assert GAME.action_from_text(" (2, 3) ") == (2, 3) and GAME.action_from_text("Pass") == "pass"
    assert GAME.action_from_json([9, 9]) == (9, 9)  # well formed, refused by the rules
    for r in range(8):
        for c in range(8):
            a = GAME.action_from_json([r, c])
            assert GAME.action_from_text(GAME.action_to_text(a)) == a == (r, c)


@pytest.mark.parametrize("bad", [None, True, 3, 2.0, "PASS", "2,3", [], [2], [2, 3, 4], [2.0, 3], [True, 3],
                                 [2, "3"], {"row": 2}, [[2, 3]]])
def test_malformed_json_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_json(bad, "black")
    assert exc.value.rule.startswith("malformed action: ") and exc.value.player == "black"
    assert rule_of(GAME.new_initial_state(), "black", bad).startswith("malformed action: ")


@pytest.mark.parametrize("bad", ["", "2", "2,", "a,b", "2;3", "2,3,4", None, 5])
def test_malformed_text_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_text(bad)
    assert exc.value.rule.startswith("malformed action: ")


def test_state_from_json_rejects_nonsense():
    good = GAME.new_initial_state().to_json()
    for bad in [None, {}, {**good, "turn": -1}, {**good, "turn": True}, {**good, "to_move": "red"},
                {**good, "to_move": None}, {**good, "board": good["board"][:7]},
                {**good, "board": ["X" * 8] * 8}, {**good, "result": {"text": "draw"}}]:
        with pytest.raises(ValueError):
            GAME.state_from_json(bad)
    over = position(["B" * 8] * 8).to_json()
    assert GAME.state_from_json(over).to_json() == over
    with pytest.raises(ValueError):
        GAME.state_from_json({**over, "to_move": "black"})


def test_to_text():
    lines = GAME.new_initial_state().to_text().splitlines()
    assert lines[0] == "turn 0: black to move (black 2, white 2)"
    assert lines[4] == "2  . . . * . . . ."
    assert lines[5] == "3  . . * W B . . ."


# --- property tests ---------------------------------------------------------------------------------------

def brute_flips(grid, r, c, me) -> list:
    """The discs a placement at (r, c) flips, straight from the rules' wording."""
    other = "W" if me == "B" else "B"
    out = []
    for dr, dc in DIRS:
        run, rr, cc = [], r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and grid[rr][cc] == other:
            run.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if run and 0 <= rr < 8 and 0 <= cc < 8 and grid[rr][cc] == me:
            out += run
    return sorted(out)


def brute_legal(grid, me) -> list:
    return [(r, c) for r in range(8) for c in range(8) if grid[r][c] == "." and brute_flips(grid, r, c, me)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1))
def test_random_games_follow_the_rules(seed):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    while not s.is_terminal():
        grid = s.to_json()["board"]
        seat = s.players_to_act()[0]
        me = "B" if seat == "black" else "W"
        expected = brute_legal(grid, me)
        acts = s.legal_actions(seat)
        assert acts == (expected or ["pass"])
        assert expected or brute_legal(grid, "W" if me == "B" else "B")  # a pass only if the other can place
        before = snapshot(s)
        for bad in [(rng.randrange(-1, 9), rng.randrange(-1, 9)), "pass", [rng.randrange(8)]]:
            if bad in acts:
                continue
            with pytest.raises(IllegalAction):
                s.apply_action(seat, bad)
            assert snapshot(s) == before
        restored = GAME.state_from_json(s.to_json())
        assert restored.to_json() == s.to_json() and restored.legal_actions(seat) == acts
        twin = s.clone()
        a = rng.choice(acts)
        twin.apply_action(seat, a)
        assert snapshot(s) == before
        t = s.apply_action(seat, a)
        assert s.to_json() == twin.to_json()
        if a != "pass":
            assert sorted(map(tuple, t.events[0]["flips"])) == brute_flips(grid, *a, me)
    grid = s.to_json()["board"]
    assert not brute_legal(grid, "B") and not brute_legal(grid, "W")
    assert s.turn <= GAME.info.max_turns


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2 ** 64 - 1), st.integers(0, 2 ** 64 - 1))
def test_placements_match_flips(a, b):
    own, opp = a & ~b, b & ~a
    moves = placements(own, opp)
    assert not moves & (own | opp)
    assert {i for i in range(64) if not (own | opp) >> i & 1 and flips(own, opp, i)} == set(squares_of(moves))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2, 9) | st.floats(allow_nan=False) | st.text(max_size=5)
    | st.just("pass"),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=10)


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
    assert GAME.action_to_json(action) == data
    try:
        s.check_action("black", action)
    except IllegalAction:
        with pytest.raises(IllegalAction):
            s.apply_action("black", action)
        assert snapshot(s) == before


# --- the bots -----------------------------------------------------------------------------------------------

def test_evaluation_is_zero_sum_and_scores_results():
    s = GAME.new_initial_state()
    rng = random.Random(2)
    while not s.is_terminal():
        assert bots.evaluate(s, "black") == pytest.approx(-bots.evaluate(s, "white"))
        assert abs(bots.evaluate(s, "black")) < bots.WIN / 10
        seat = s.players_to_act()[0]
        s.apply_action(seat, rng.choice(s.legal_actions(seat)))
    won = s.result().winner
    if won:
        assert bots.evaluate(s, won) == bots.WIN
    centre = put(W=[(3, 3), (4, 4)], B=[(3, 4), (4, 3)])
    corner, x_square = position(put(centre, B=[(0, 0)])), position(put(centre, B=[(1, 1)]))
    assert bots.evaluate(corner, "black") > bots.evaluate(x_square, "black")


def test_solver_matches_brute_force():
    def brute(own, opp):
        m = placements(own, opp)
        if not m:
            return own.bit_count() - opp.bit_count() if not placements(opp, own) else -brute(opp, own)
        return max(-brute(opp ^ f, own | f | 1 << i) for i in squares_of(m) for f in [flips(own, opp, i)])

    rng = random.Random(11)
    for _ in range(3):
        s = GAME.new_initial_state()
        while not s.is_terminal() and 64 - sum(d.bit_count() for d in s.discs) > 7:
            seat = s.players_to_act()[0]
            s.apply_action(seat, rng.choice(s.legal_actions(seat)))
        if s.is_terminal():
            continue
        own, opp = s.discs[s.to_move], s.discs[1 - s.to_move]
        bot = bots.OthelloBot(GAME, "black")
        bot._deadline = float("inf")
        assert bot._solve(own, opp, -65, 65, 64 - (own | opp).bit_count()) == brute(own, opp)


def play(black, white, state=None):
    s = state or GAME.new_initial_state()
    players = {"black": black, "white": white}
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        before = s.to_json()
        a = players[seat].choose(s)
        assert s.to_json() == before  # bots never change the state they are given
        assert a in s.legal_actions(seat)
        s.apply_action(seat, a)
    return s


def test_bots_play_legally_and_strong_beats_random():
    s = play(bots.OthelloBot(GAME, "black", seed=1, seconds=0.02), RandomBot(GAME, "white", seed=2))
    assert s.result().winner == "black"
    s = play(GreedyBot(GAME, "black", seed=3, evaluation=bots), bots.OthelloBot(GAME, "white", seed=4, seconds=0.02))
    assert s.result().winner == "white"
    assert bots.BOTS["strong"] is bots.OthelloBot


def test_strong_bot_respects_its_budget_and_passes():
    import time
    bot = bots.OthelloBot(GAME, "black", seed=5, seconds=0.05)
    s = GAME.new_initial_state()
    t = time.perf_counter()
    bot.choose(s)
    assert time.perf_counter() - t < 0.5
    assert bots.OthelloBot(GAME, "white", seconds=0.05).choose(position(STUCK, to_move="white")) == "pass"


# --- the UI adapter -----------------------------------------------------------------------------------------

def test_ui_board_paths_and_words():
    from games.othello.ui import UI
    ui = UI(GAME)
    s = GAME.new_initial_state()
    t = s.apply_action("black", (2, 3))
    b = ui.board(s.observation("white"), last={"number": 1, "actions": {"black": [2, 3]}, "events": t.events})
    keys = {c["key"]: c for c in b["cells"]}
    assert b["turn"] == 1 and len(keys) == 64
    for a in s.legal_actions("white"):
        path = ui.action_path("white", GAME.action_to_json(a))
        assert path and path[0]["key"] in keys and keys[path[0]["key"]]["hint"]
    assert sum(c["hint"] for c in b["cells"]) == len(s.legal_actions("white"))
    assert keys["cell:2,3"]["last"] and keys["cell:3,3"]["flip"] and "last" in keys["cell:2,3"]["cls"]
    assert ui.action_path("white", "pass") == [{"key": "pass", "label": "Pass"}] and "pass" not in keys
    # Othello notation: a-h from the left, 1-8 from the top; Black's four first moves are d3, c4, f5, e6.
    assert [ui.action_words("black", list(a)) for a in GAME.new_initial_state().legal_actions("black")] == \
        ["d3", "c4", "f5", "e6"]
    assert ui.action_words("white", [0, 0]) == "a1" and ui.action_words("white", [7, 7]) == "h8"
    assert ui.action_words("white", "pass") == "Pass" and ui.action_path("white", [2, 3])[0]["label"] == "d3"
    assert [l["text"] for l in b["col_labels"]] == list("abcdefgh") and b["row_labels"][0]["text"] == 1
    assert ui.action_group("white", "pass") == "Pass" and ui.action_group("white", [2, 2]) == "Placements"
    assert ui.seat_stats(s.to_json(), "black") == [("Discs", 4)] and ui.material(s.to_json(), "white") == 1.0
    assert ui.event_words(t.events[0]) == "1 disc flipped: d4"
    assert ui.event_words({"must_pass": "white"}) == "White has no placement and must pass"
    assert ui.board(None)["turn"] == 0 and ui.params() == []
    over = position(["B" * 8] * 4 + ["W" * 8] * 4)
    assert ui.result_reason(over.result().to_json(), over.to_json()) == \
        "Neither player can place; Black has 32 discs, White 32."


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine
    from games.othello.ui import UI
    ui = UI(GAME)
    s = GAME.new_initial_state()
    t = s.apply_action("black", (2, 3))
    engine = Engine(dirs=[str(BASE_DIR / "games/othello/templates")])
    html = engine.get_template(ui.board_template).render(Context({
        "board": ui.board(s.to_json(), last={"number": 1, "actions": {"black": [2, 3]}, "events": t.events}),
        "board_label": "Position"}))
    svg = xml.dom.minidom.parseString(html.strip()).documentElement
    assert svg.getAttribute("id") == "board" and svg.getAttribute("data-turn") == "1"
    assert svg.getAttribute("class") == "board board-othello"
    picks = [g for g in svg.getElementsByTagName("g") if g.getAttribute("data-pick")]
    assert len(picks) == 64 and all(g.getElementsByTagName("title") and g.getAttribute("aria-label") for g in picks)
    assert len([c for c in svg.getElementsByTagName("circle") if "hint-dot" in c.getAttribute("class")]) == 3
    assert (BASE_DIR / "games/othello/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.othello.rules, games.othello.bots, games.othello.ui, sys; "
            "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
            "sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0
