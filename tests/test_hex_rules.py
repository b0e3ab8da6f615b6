"""Hex: one test per rule (docs/games/hex.md), property tests (random games, JSON forms, no draws), the bots
and the UI adapter."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import xml.dom.minidom
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.base import RandomBot
from games.bots.greedy import GreedyBot
from games.engine import IllegalAction, InvalidParams
from games.hex import bots, make_game

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = make_game(size=7)


def position(game, black=(), white=()):
    """A state with the given stones (as many Black as White, or one more), loaded through the JSON form."""
    n = game.size
    grid = [["."] * n for _ in range(n)]
    for letter, cells in (("B", black), ("W", white)):
        for r, c in cells:
            grid[r][c] = letter
    s = game.new_initial_state()
    data = {**s.to_json(), "board": ["".join(row) for row in grid], "turn": len(black) + len(white),
            "to_move": "black" if len(black) == len(white) else "white"}
    return game.state_from_json(data)


def play(game, moves):
    """Alternate ``moves`` from the start, Black first; the state and the last turn."""
    s = game.new_initial_state()
    t = None
    for cell in moves:
        t = s.apply_action(s.players_to_act()[0], cell)
    return s, t


def rule_of(state, seat, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        state.check_action(seat, action)
    return exc.value.rule


def snapshot(state):
    return (state.to_json(), state.board[:], state.turn, state.result())


# --- parameters ---------------------------------------------------------------------------------------------

def test_default_size_and_range():
    assert make_game().params == {"size": 11} and make_game().size == 11
    for n in (2, 7, 19):
        g = make_game(size=n)
        assert g.params == {"size": n} and len(g.new_initial_state().legal_actions("black")) == n * n
        assert g.info.max_turns == n * n and g.info.players == ("black", "white") and not g.info.simultaneous


@pytest.mark.parametrize("params", [{"size": 1}, {"size": 20}, {"size": 0}, {"size": -5}, {"size": "7"},
                                    {"size": 7.0}, {"size": True}, {"size": None}, {"colour": "red"},
                                    {"size": 7, "swap": True}])
def test_invalid_params_rejected(params):
    with pytest.raises(InvalidParams):
        make_game(**params)


# --- the board -----------------------------------------------------------------------------------------------

def test_six_neighbours_exactly_as_the_table_says():
    idx = GAME.index
    assert {GAME.cells[j] for j in GAME.neighbours[idx[(3, 3)]]} == {(2, 3), (2, 4), (3, 2), (3, 4), (4, 2), (4, 3)}
    assert {GAME.cells[j] for j in GAME.neighbours[idx[(0, 0)]]} == {(0, 1), (1, 0)}
    assert {GAME.cells[j] for j in GAME.neighbours[idx[(0, 6)]]} == {(0, 5), (1, 5), (1, 6)}
    assert {GAME.cells[j] for j in GAME.neighbours[idx[(6, 0)]]} == {(5, 0), (5, 1), (6, 1)}
    for i, nbrs in enumerate(GAME.neighbours):
        assert all(i in GAME.neighbours[j] for j in nbrs)  # touching is symmetric


def test_the_other_diagonal_does_not_connect():
    g = make_game(size=3)
    s = position(g, black=[(0, 0), (1, 1)], white=[(0, 1)])
    s.apply_action("white", (1, 0))
    assert s.apply_action("black", (2, 2)).events == []  # (0, 0) (1, 1) (2, 2) do not touch
    assert not s.is_terminal()
    s2 = position(g, black=[(0, 2), (1, 1)], white=[(0, 0)])
    s2.apply_action("white", (1, 0))
    t = s2.apply_action("black", (2, 0))  # (0, 2) (1, 1) (2, 0) do: (r+1, c-1) is a neighbour
    assert s2.result().winner == "black" and t.events == [{"winner": "black", "chain": [[0, 2], [1, 1], [2, 0]]}]


# --- winning -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("c", range(7))
def test_black_joins_top_and_bottom_along_any_column(c):
    other = (c + 3) % 7
    moves = []
    for r in range(7):
        moves += [(r, c), (r, other)]
    s, t = play(GAME, moves[:-1])  # Black's seventh stone completes the column
    assert s.result().text == "winner: black" and s.returns() == {"black": 1.0, "white": 0.0}
    assert t.events == [{"winner": "black", "chain": [[r, c] for r in range(7)]}]
    assert s.players_to_act() == [] and s.to_json()["to_move"] is None


@pytest.mark.parametrize("r", range(7))
def test_white_joins_left_and_right_along_any_row(r):
    other = (r + 3) % 7
    moves = [(other, 0)]
    for c in range(7):
        moves += [(r, c), (other, (c + 1) % 7)]
    s, t = play(GAME, moves[:-1])  # ... White's seventh stone completes the row
    assert s.result().text == "winner: white" and s.returns() == {"black": 0.0, "white": 1.0}
    assert t.events == [{"winner": "white", "chain": [[r, c] for c in range(7)]}]


def test_own_rims_only():
    # A black row from left to right and a white column from top to bottom win nothing.
    g = make_game(size=4)
    s = position(g, black=[(1, 0), (1, 1), (1, 2), (1, 3)], white=[(0, 2), (2, 2), (3, 2)])
    assert not s.is_terminal() and not s.chain(0)
    s = position(g, black=[(1, 0), (2, 0), (3, 0), (1, 1)], white=[(0, 3), (1, 3), (2, 3), (3, 3)])
    assert not s.is_terminal() and not s.chain(1)


def test_a_chain_along_the_table_diagonal_wins():
    g = make_game(size=4)
    black = [(0, 3), (1, 2), (2, 1), (2, 2), (3, 0)]
    white = [(0, 0), (0, 1), (1, 0), (1, 3)]
    s = position(g, black=black[:-1], white=white)
    t = s.apply_action("black", (3, 0))
    assert s.result().winner == "black" and [tuple(x) for x in t.events[0]["chain"]] == [(0, 3), (1, 2), (2, 1),
                                                                                           (3, 0)]


def test_no_draws_a_full_board_has_exactly_one_winner():
    rng = random.Random(0)
    for n in (2, 3, 4, 7, 11):
        g = make_game(size=n)
        for _ in range(30):
            cells = list(range(n * n))
            rng.shuffle(cells)
            s = g.new_initial_state()
            s.board = [0] * (n * n)
            for i in cells[: n * n // 2]:
                s.board[i] = 1
            assert bool(s.chain(0)) != bool(s.chain(1))


def test_size_two():
    g = make_game(size=2)
    s, t = play(g, [(0, 1), (0, 0), (1, 0)])  # (0, 1) touches (1, 0)
    assert s.result().winner == "black" and t.events[0]["chain"] == [[0, 1], [1, 0]]
    s, _ = play(g, [(0, 0), (0, 1), (1, 1), (1, 0)])
    assert s.result().winner == "white"


# --- legality ------------------------------------------------------------------------------------------------

def test_turns_and_illegal_actions():
    s = GAME.new_initial_state()
    assert s.players_to_act() == ["black"] and s.legal_actions("white") == []
    assert rule_of(s, "white", (3, 3)) == "it is black's turn"
    assert rule_of(s, "nobody", (3, 3)).startswith("unknown player")
    assert rule_of(s, "black", (7, 0)) == "(7, 0) is not on the board (rows and columns 0 to 6)"
    assert rule_of(s, "black", (0, -1)).endswith("is not on the board (rows and columns 0 to 6)")
    t = s.apply_action("black", [3, 3])
    assert t.number == 1 and t.actions == {"black": (3, 3)} and t.events == []
    assert rule_of(s, "white", (3, 3)) == "(3, 3) is already taken"
    assert (3, 3) not in s.legal_actions("white") and len(s.legal_actions("white")) == 48
    with pytest.raises(IllegalAction):
        s.apply_actions({"black": (1, 1)})
    with pytest.raises(IllegalAction):
        s.apply_actions({"white": (1, 1), "black": (1, 2)})


def test_action_forms():
    assert GAME.action_to_json((2, 3)) == [2, 3] and GAME.action_from_json([2, 3]) == (2, 3)
    assert GAME.action_to_text((2, 3)) == "2,3" and GAME.action_from_text(" (2, 3) ") == (2, 3)
    assert GAME.action_from_json([10 ** 30, 1]) == (10 ** 30, 1)  # well formed, refused by the rules
    for cell in GAME.cells:
        assert GAME.action_from_text(GAME.action_to_text(cell)) is cell
        assert GAME.action_from_json(GAME.action_to_json(cell)) is cell


@pytest.mark.parametrize("bad", [None, True, 3, "2,3", [], [2], [2, 3, 4], [2.0, 3], [True, 3], [2, "3"],
                                 {"row": 2}, [[2, 3]], "pass"])
def test_malformed_json_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_json(bad, "black")
    assert exc.value.rule.startswith("malformed action: ") and exc.value.player == "black"
    assert rule_of(GAME.new_initial_state(), "black", bad).startswith("malformed action: ")


@pytest.mark.parametrize("bad", ["", "2", "a,b", "2;3", "2,3,4", None, 5])
def test_malformed_text_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_text(bad)
    assert exc.value.rule.startswith("malformed action: ")


def test_state_json_and_text():
    s, _ = play(GAME, [(3, 3), (0, 0)])
    data = s.to_json()
    assert data == {"turn": 2, "to_move": "black", "size": 7, "result": None,
                    "board": ["W......", ".......", ".......", "...B...", ".......", ".......", "......."]}
    assert s.to_text().splitlines()[:3] == ["turn 2: black to move", "    0 1 2 3 4 5 6", " 0  W . . . . . ."]
    assert s.to_text().splitlines()[5] == " 3     . . . B . . ."


def test_state_from_json_rejects_nonsense():
    good = GAME.new_initial_state().to_json()
    one = play(GAME, [(3, 3)])[0].to_json()
    bad = [None, {}, {**good, "size": 9}, {**good, "size": True}, {**good, "board": good["board"][:6]},
           {**good, "board": ["X" * 7] * 7}, {**good, "turn": 1}, {**good, "to_move": "white"},
           {**good, "to_move": None}, {**good, "result": {"text": "winner: black"}},
           {**good, "board": ["WW....."] + good["board"][1:], "turn": 2},  # White cannot lead
           {**one, "turn": True}]
    for data in bad:
        with pytest.raises(ValueError):
            GAME.state_from_json(data)
    # A winning chain of the side that did not move last cannot happen.
    g = make_game(size=2)
    with pytest.raises(ValueError):
        g.state_from_json({"turn": 4, "to_move": None, "size": 2, "board": ["BW", "BW"],
                           "result": {"text": "winner: black", "winners": ["black"],
                                      "returns": {"black": 1.0, "white": 0.0}}})
    won, _ = play(g, [(0, 1), (0, 0), (1, 0)])
    assert g.state_from_json(won.to_json()).to_json() == won.to_json()


# --- property tests ----------------------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(2, 9))
def test_random_games(seed, n):
    rng = random.Random(seed)
    g = make_game(size=n)
    s = g.new_initial_state()
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        acts = s.legal_actions(seat)
        assert len(acts) == n * n - s.turn and len(set(acts)) == len(acts)
        before = snapshot(s)
        for bad in [(rng.randrange(-1, n + 1), rng.randrange(-1, n + 1)), [rng.randrange(n)]]:
            if bad in acts:
                continue
            with pytest.raises(IllegalAction):
                s.apply_action(seat, bad)
            assert snapshot(s) == before
        restored = g.state_from_json(s.to_json())
        assert restored.to_json() == s.to_json() and restored.legal_actions(seat) == acts
        twin = s.clone()
        a = rng.choice(acts)
        twin.apply_action(seat, a)
        assert snapshot(s) == before
        s.apply_action(seat, a)
        assert s.to_json() == twin.to_json()
    assert s.turn <= n * n and s.result().winner in ("black", "white")
    winner = 0 if s.result().winner == "black" else 1
    assert s.chain(winner) and not s.chain(1 - winner)
    assert g.state_from_json(s.to_json()).to_json() == s.to_json()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2, 9) | st.floats(allow_nan=False) | st.text(max_size=5),
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


# --- the bots ----------------------------------------------------------------------------------------------------

def test_evaluation_and_distance():
    s = GAME.new_initial_state()
    t = bots.tables(GAME)
    assert bots.distance(t, s.board, 0) == bots.distance(t, s.board, 1) == 7
    s.apply_action("black", (3, 3))
    assert bots.distance(t, s.board, 0) == 6 and bots.evaluate(s, "black") == 1.0 == -bots.evaluate(s, "white")
    won, _ = play(make_game(size=2), [(0, 1), (0, 0), (1, 0)])
    assert bots.evaluate(won, "black") == bots.WIN and bots.evaluate(won, "white") == -bots.WIN


def test_flood_win_check_matches_the_rules():
    rng = random.Random(3)
    for n in (2, 5, 8):
        g = make_game(size=n)
        t = bots.tables(g)
        for _ in range(40):
            s = g.new_initial_state()
            s.board = [rng.choice((-1, 0, 1)) for _ in range(n * n)]
            black = sum(1 << i for i, v in enumerate(s.board) if v == 0)
            assert t.black_connects(black) == bool(s.chain(0))


def games_between(game, black, white):
    s = game.new_initial_state()
    players = {"black": black, "white": white}
    while not s.is_terminal():
        seat = s.players_to_act()[0]
        before = s.to_json()
        a = players[seat].choose(s)
        assert s.to_json() == before and a in s.legal_actions(seat)
        s.apply_action(seat, a)
    return s.result().winner


def test_bots_legal_and_strong_beats_random():
    g = make_game(size=5)
    assert games_between(g, bots.HexBot(g, "black", seed=1, seconds=0.05), RandomBot(g, "white", seed=2)) == "black"
    assert games_between(g, RandomBot(g, "black", seed=3), bots.HexBot(g, "white", seed=4, seconds=0.05)) == "white"
    games_between(g, GreedyBot(g, "black", seed=5, evaluation=bots), GreedyBot(g, "white", seed=6, evaluation=bots))
    assert bots.BOTS["strong"] is bots.HexBot


def test_strong_takes_a_win_and_blocks_a_loss():
    g = make_game(size=5)
    s = position(g, black=[(0, 2), (1, 2), (2, 2), (3, 2)], white=[(0, 0), (1, 0), (2, 0), (3, 0)])
    assert bots.HexBot(g, "black", seed=1, seconds=0.05).choose(s) in {(4, 1), (4, 2)}
    s = position(g, black=[(1, 4), (0, 0), (4, 4), (4, 0)], white=[(2, 0), (2, 1), (2, 2), (2, 3)])
    assert bots.HexBot(g, "black", seed=1, seconds=0.05).choose(s) == (2, 4)


@pytest.mark.parametrize("n", [2, 19])
def test_strong_respects_its_budget_at_every_size(n):
    g = make_game(size=n)
    s = g.new_initial_state()
    bot = bots.HexBot(g, "black", seed=1, seconds=0.05)
    start = time.perf_counter()
    assert bot.choose(s) in s.legal_actions("black")
    assert time.perf_counter() - start < 0.5


# --- the UI adapter ----------------------------------------------------------------------------------------------

def test_ui_board_paths_params_and_words():
    from games.hex.ui import EDGE_STEP, UI
    from games.hex.rules import STEPS
    from games.engine.ui import Param
    assert set(EDGE_STEP) == set(STEPS)
    ui = UI(GAME)
    assert ui.params() == [Param("size", "Board size", 11, minimum=2, maximum=19)]
    s, t = play(GAME, [(3, 3)])
    b = ui.board(s.observation("white"), last={"number": 1, "actions": {"black": [3, 3]}, "events": t.events})
    keys = {c["key"]: c for c in b["cells"]}
    assert b["turn"] == 1 and len(keys) == 49 and keys["cell:3,3"]["last"] and keys["cell:3,3"]["stone"] == "black"
    for a in s.legal_actions("white"):
        path = ui.action_path("white", GAME.action_to_json(a))
        assert path and path[0]["key"] in keys
    rims = [e["side"] for e in b["rims"]]
    assert rims.count("black") == rims.count("white") == 4 * 7 - 2
    # Hex notation: a letter for the column, a number for the row, a1 at the top left.
    assert ui.action_words("white", [0, 0]) == "a1" and ui.action_words("black", [3, 1]) == "b4"
    coords = [c["text"] for c in b["coords"]]  # the board names columns and rows as the moves do
    assert coords[:7] == list("abcdefg") and coords[7:] == [str(r) for r in range(1, 8)]
    assert ui.action_words("white", [0, 6]) == "g1" and ui.seat_stats(s.to_json(), "black") == \
        [("Stones", 1)]
    assert ui.board(None)["turn"] == 0 and b["chain"] == "" and b["winner"] is None
    won, t = play(make_game(size=2), [(0, 1), (0, 0), (1, 0)])
    ui2 = UI(won.game)
    b = ui2.board(won.to_json())
    assert b["winner"] == "black" and [c["key"] for c in b["cells"] if "chain" in c["cls"]] == ["cell:0,1", "cell:1,0"]
    assert ui2.event_words(t.events[0]) == "Black joins top and bottom with a chain of 2 stones"
    assert ui2.result_reason(won.result().to_json(), won.to_json()) == \
        "Black joined the top and bottom rows with an unbroken chain."


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine
    from games.hex.ui import UI
    g = make_game(size=3)
    ui = UI(g)
    s, t = play(g, [(0, 1), (0, 0), (1, 1), (1, 0), (2, 0)])
    engine = Engine(dirs=[str(BASE_DIR / "games/hex/templates")])
    html = engine.get_template(ui.board_template).render(Context({
        "board": ui.board(s.to_json(), last={"number": 5, "actions": {"black": [2, 0]}, "events": t.events}),
        "board_label": "Position"}))
    svg = xml.dom.minidom.parseString(html.strip()).documentElement
    assert svg.getAttribute("id") == "board" and svg.getAttribute("data-turn") == "5"
    assert svg.getAttribute("class") == "board board-hex"
    picks = [e for e in svg.getElementsByTagName("g") if e.getAttribute("data-pick")]
    assert len(picks) == 9 and all(e.getElementsByTagName("title") and e.getAttribute("aria-label") for e in picks)
    assert svg.getElementsByTagName("polyline")[0].getAttribute("class") == "chain-line black"
    assert (BASE_DIR / "games/hex/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.hex.rules, games.hex.bots, games.hex.ui, sys; "
            "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
            "sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0
