"""2048: one test per rule (docs/games/2048.md, after GBG's seed), chance events, the JSON and action forms,
random playouts, the bots (the bitboard tables against the rules, legal and quick moves) and the UI adapter."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import xml.dom.minidom
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots.base import RandomBot
from games.bots.greedy import GreedyBot
from games.engine import CHANCE, IllegalAction, InvalidParams
from games.g2048 import NAME, bots, make_game
from games.g2048.rules import ACTIONS, GAME, slide

BASE_DIR = Path(__file__).resolve().parent.parent


def position(rows, *, score=0, turn=10):
    """The player to move on a board given as 4 strings of tile values ("8 8 8 2"; "." empty)."""
    board = [[0 if v == "." else int(v) for v in row.split()] for row in rows]
    return GAME.state_from_json({"turn": turn, "to_move": "player", "board": board, "score": score,
                                 "tiles_to_add": 0, "last_move": None, "new_tiles": [], "result": None})


def board(state):
    return [" ".join(str(v) if v else "." for v in row) for row in state.to_json()["board"]]


def rule_of(state, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        state.check_action("player", action)
    return exc.value.rule


def finished():
    """A lost game: the last tile filled the board and nothing can merge."""
    s = position(["2 4 2 4", "4 2 4 2", "2 4 2 4", "8 16 8 ."], score=300)
    s.apply_action("player", "right")
    s.apply_chance([3, 0, 4])
    return s


def play_out(state, rng, chooser=None, limit=5000):
    """Plays ``state`` to its end: chance by its probabilities, the player by ``chooser`` (random moves)."""
    for _ in range(limit):
        if state.is_terminal():
            return state
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            acts = state.legal_actions("player")
            state.apply_action("player", chooser(state) if chooser else rng.choice(acts))
    raise AssertionError("no end")


# --- setup ----------------------------------------------------------------------------------------------

def test_name_seat_and_no_params():
    assert NAME == "2048" and GAME.info.name == "2048" and make_game() is GAME
    assert GAME.info.players == ("player",) and GAME.info.chance and not GAME.info.simultaneous
    with pytest.raises(InvalidParams):
        make_game(size=5)


def test_the_start_is_two_chance_tiles():
    s = GAME.new_initial_state()
    assert s.is_chance_node() and s.players_to_act() == [] and not s.is_terminal()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 32 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert ([0, 0, 2], 0.9 / 16) in outcomes and ([3, 3, 4], pytest.approx(0.1 / 16)) in outcomes
    t = s.apply_chance([1, 2, 2])
    assert t.number == 1 and t.actions == {CHANCE: [1, 2, 2]} and t.events == [{"new_tile": [1, 2, 2]}]
    assert s.is_chance_node() and len(s.chance_outcomes()) == 30  # on one of the 15 cells left
    with pytest.raises(IllegalAction, match="not empty"):
        s.apply_chance([1, 2, 4])
    s.apply_chance((3, 0, 4))
    assert not s.is_chance_node() and s.players_to_act() == ["player"] and s.chance_outcomes() == []
    assert board(s) == [". . . .", ". . 2 .", ". . . .", "4 . . ."] and s.score == 0
    with pytest.raises(IllegalAction, match="no tile is due"):
        s.apply_chance([0, 0, 2])


@pytest.mark.parametrize("bad", [None, [0, 0], [0, 0, 8], [0, 0, 3], [4, 0, 2], [0, -1, 2], [True, 0, 2],
                                 [0.0, 0, 2], "0,0,2", {"row": 0}, [0, 0, 2, 0], [10 ** 30, 0, 2]])
def test_malformed_chance_outcomes_are_refused(bad):
    s = GAME.new_initial_state()
    with pytest.raises(IllegalAction):
        s.apply_chance(bad)
    assert s.to_json() == GAME.new_initial_state().to_json()


def test_a_move_is_followed_by_one_new_tile_on_an_empty_cell():
    s = position([". . . 2", ". . . .", ". . . .", ". . . 2"])
    t = s.apply_action("player", "left")
    assert t.actions == {"player": "left"} and t.number == 11
    assert s.is_chance_node() and s.players_to_act() == [] and s.to_json()["to_move"] is None
    assert rule_of(s, "up") == "a new tile is due first (a chance event)"
    outcomes = dict((tuple(o), p) for o, p in s.chance_outcomes())
    assert len(outcomes) == 28 and outcomes[(0, 1, 2)] == pytest.approx(0.9 / 14)
    assert outcomes[(0, 1, 4)] == pytest.approx(0.1 / 14) and (0, 0, 2) not in outcomes
    with pytest.raises(IllegalAction):
        s.apply_actions({"player": "up"})
    s.apply_chance([2, 2, 4])
    assert board(s) == ["2 . . .", ". . . .", ". . 4 .", "2 . . ."] and s.players_to_act() == ["player"]
    assert s.to_json()["new_tiles"] == [[2, 2, 4]]


# --- moves and merges -----------------------------------------------------------------------------------

def test_the_seed_figure():
    s = position(["8 8 8 2", "2 2 4 8", "4 . 2 4", ". . . ."])
    assert set(s.legal_actions("player")) == {"left", "right", "down"}
    assert rule_of(s, "up") == "moving up moves no tile"
    t = s.apply_action("player", "left")
    # The leftmost pair of 8s merges; the two 2s merge into a 4 that does not merge again with the 4.
    assert board(s) == ["16 8 2 .", "4 4 8 .", "4 2 4 .", ". . . ."]
    assert s.score == 16 + 4
    assert t.events == [{"merged": [[0, 0, 16], [1, 0, 4]], "points": 20}]


@pytest.mark.parametrize("line,action,after,points", [
    ("2 2 2 2", "left", "4 4 . .", 8),
    ("2 2 2 2", "right", ". . 4 4", 8),
    ("2 2 2 .", "left", "4 2 . .", 4),  # the pair nearest the edge moved towards merges
    ("2 2 2 .", "right", ". . 2 4", 4),
    ("4 2 2 .", "left", "4 4 . .", 4),  # a merged tile does not merge again in the same move
    ("2 . . 2", "left", "4 . . .", 4),
    ("4 . 4 4", "right", ". . 4 8", 8),
    ("2 4 8 16", "right", "2 4 8 16", 0),
    ("1024 1024 . .", "left", "2048 . . .", 2048),
])
def test_rows_slide_and_merge(line, action, after, points):
    cells, score, _, _ = slide(position([line, ". . . .", ". . . .", ". . . ."]).cells, action)
    assert [" ".join(str(1 << e if e else ".") for e in cells[:4])] == [after] and score == points


def test_columns_move_up_and_down_like_rows():
    s = position(["2 . . .", "2 . . .", "2 . . .", "4 . . ."])
    assert set(s.legal_actions("player")) == {"up", "down", "right"}
    s.apply_action("player", "up")
    assert board(s) == ["4 . . .", "2 . . .", "4 . . .", ". . . ."] and s.score == 4
    last = s.to_json()["last_move"]
    assert last == {"action": "up", "slides": [[1, 0, 0, 0], [2, 0, 1, 0], [3, 0, 2, 0]], "merged": [[0, 0]]}
    d = position(["2 . . .", "2 . . .", "2 . . .", "4 . . ."])
    d.apply_action("player", "down")
    assert board(d) == [". . . .", "2 . . .", "4 . . .", "4 . . ."] and d.score == 4


def test_the_game_ends_when_no_move_is_left():
    s = finished()
    assert s.is_terminal() and s.players_to_act() == [] and s.legal_actions("player") == ()
    assert s.result().text == "game over: score 300, best tile 16" and s.returns() == {"player": 300.0}
    assert rule_of(s, "left") == "the game is over"
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply_chance([0, 0, 2])
    assert GAME.state_from_json(s.to_json()).to_json() == s.to_json()


def test_the_last_tile_can_end_the_game():
    s = position(["2 4 2 4", "4 2 4 2", "2 4 2 4", "8 16 8 ."], score=300)
    s.apply_action("player", "right")
    assert board(s)[3] == ". 8 16 8" and s.is_chance_node()
    t = s.apply_chance([3, 0, 4])
    assert t.events[-1] == {"game_over": {"score": 300, "best_tile": 16}} and s.is_terminal()
    s2 = position(["2 4 2 4", "4 2 4 2", "2 4 2 4", "8 16 8 ."], score=300)
    s2.apply_action("player", "right")
    s2.apply_chance([3, 0, 2])  # a 2 under the 2 above: that column can still merge
    assert not s2.is_terminal() and set(s2.legal_actions("player")) == {"up", "down"}


def test_a_full_board_with_a_merge_goes_on():
    s = position(["2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 8 8"])
    assert set(s.legal_actions("player")) == {"left", "right"}


def test_the_game_goes_on_past_2048():
    s = position([". . 1024 1024", ". . . .", ". . . .", ". . . ."])
    t = s.apply_action("player", "left")
    assert {"reached": 2048} in t.events and s.score == 2048
    s.apply_chance([3, 3, 2])
    assert not s.is_terminal() and s.players_to_act() == ["player"]
    big = position(["2048 2048 . .", ". . . .", ". . . .", ". . . ."], score=30000)
    t = big.apply_action("player", "left")
    assert big.best_tile() == 4096 and big.score == 34096 and not any("reached" in e for e in t.events)


# --- forms ----------------------------------------------------------------------------------------------

def test_action_forms():
    for a in ACTIONS:
        assert GAME.action_from_json(GAME.action_to_json(a)) == a
        assert GAME.action_from_text(GAME.action_to_text(a)) == a
    assert GAME.action_from_text(" LEFT ") == "left" and GAME.action_from_text("↓") == "down"
    assert GAME.action_from_text("u") == "up"
    for bad in ("Left", "west", "", ["left"], None, 0):
        with pytest.raises(IllegalAction, match="malformed action"):
            GAME.action_from_json(bad, "player")
    with pytest.raises(IllegalAction, match="malformed action"):
        GAME.action_from_text("sideways")
    s = position(["2 . . .", ". . . .", ". . . .", ". . . ."])
    assert rule_of(s, "west").startswith("malformed action")
    with pytest.raises(IllegalAction, match="unknown seat"):
        s.check_action("white", "right")
    for bad in ({}, {"player": "right", "x": "up"}, {"white": "right"}, None):
        with pytest.raises(IllegalAction):
            s.apply_actions(bad)
    assert board(s)[0] == "2 . . ."


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=6)
    | st.sampled_from(ACTIONS + ("Left", "UP")),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_action_from_json_is_total(data):
    try:
        action = GAME.action_from_json(data, "player")
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action")
        return
    assert action == data and action in ACTIONS


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_apply_chance_is_total(data):
    s = GAME.new_initial_state()
    try:
        s.apply_chance(data)
    except IllegalAction:
        assert s.to_json() == GAME.new_initial_state().to_json()
        return
    assert data in [o for o, _ in GAME.new_initial_state().chance_outcomes()]


def test_state_from_json_rejects_nonsense():
    good = position(["2 . . .", ". . . .", ". . . .", ". . . ."]).to_json()
    for change in [{"board": [[3, 0, 0, 0]] + good["board"][1:]}, {"board": good["board"][:3]},
                   {"tiles_to_add": 3}, {"score": -1}, {"turn": True}, {"to_move": None},
                   {"result": {"text": "game over"}}, {"new_tiles": [[0, 1, 2]]},
                   {"last_move": {"action": "west", "slides": [], "merged": []}},
                   {"last_move": {"action": "left", "slides": [[0, 0, 0]], "merged": []}},
                   {"board": [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 0]], "tiles_to_add": 2}]:
        with pytest.raises(ValueError):
            GAME.state_from_json({**good, **change})
    for bad in (None, [], {}, "x"):
        with pytest.raises(ValueError):
            GAME.state_from_json(bad)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1))
def test_random_games_round_trip_and_end(seed):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    while not s.is_terminal():
        data = s.to_json()
        assert json.loads(json.dumps(data)) == data
        again = GAME.state_from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data and again.is_chance_node() == s.is_chance_node()
        assert list(again.legal_actions("player")) == list(s.legal_actions("player"))
        twin = s.clone()
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            twin.apply_chance(rng.choice(outcomes)[0])
            assert s.to_json() == data
            s.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        acts = s.legal_actions("player")
        assert acts and all(slide(s.cells, a)[0] != s.cells for a in acts)
        for a in set(ACTIONS) - set(acts):
            with pytest.raises(IllegalAction):
                s.apply_action("player", a)
        twin.apply_action("player", acts[0])
        assert s.to_json() == data
        s.apply_action("player", rng.choice(acts))
    assert s.to_json()["result"]["returns"] == {"player": float(s.score)}
    assert all(slide(s.cells, a)[0] == s.cells for a in ACTIONS) and 0 not in s.cells


# --- the bots -------------------------------------------------------------------------------------------

def test_bitboard_moves_and_transpose_agree_with_the_rules():
    rng = random.Random(4)
    t = bots.tables()
    for _ in range(300):
        cells = [rng.choice((0, 0, 0, 1, 1, 2, 3, 4, 5, 11, 15)) for _ in range(16)]
        b = bots.bitboard(cells)
        tb = bots.transpose(b)
        assert all((tb >> (16 * c + 4 * r)) & 15 == cells[4 * r + c] for r in range(4) for c in range(4))
        got = {k: (nb, ntb) for k, nb, ntb in bots.after_moves(t, b, tb)}
        for k, a in enumerate(ACTIONS):
            after = slide(cells, a)[0]
            if after == cells:
                assert k not in got
            elif max(after) <= 15:  # (two 32768s never merge on the bitboard)
                assert got[k] == (bots.bitboard(after), bots.transpose(bots.bitboard(after)))


def test_strong_bot_plays_legal_moves_quickly_and_well():
    rng = random.Random(2)
    bot = bots.BOTS["strong"](GAME, "player", seed=1, seconds=0.01)
    s = GAME.new_initial_state()
    while not s.is_terminal() and s.best_tile() < 256:
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        before = s.to_json()
        started = time.perf_counter()
        a = bot.choose(s)
        assert time.perf_counter() - started < 0.5
        assert s.to_json() == before and a in s.legal_actions("player")
        s.apply_action("player", a)
    assert s.best_tile() >= 256  # random play seldom gets there (it ends near 64 or 128)


def test_strong_bot_moves_are_legal_in_tight_spots():
    for rows in (["2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 4 ."], ["2 4 8 16", "2 4 8 16", "4 8 16 32", "8 16 32 64"],
                 ["32768 16384 8192 4096", "65536 2 . .", ". . . .", ". . . 2"]):
        s = position(rows)
        bot = bots.StrongBot(GAME, "player", seconds=0.05)
        assert bot.choose(s) in s.legal_actions("player")


def test_greedy_bot_prefers_points():
    s = position([". . . .", ". . . .", ". . 2 4", "8 8 . 4"])
    greedy = GreedyBot(GAME, "player", seed=1, evaluation=bots)
    assert greedy.choose(s) in ("left", "right")  # 8 + 8 (16 points) beats 4 + 4 (8)
    assert bots.evaluate(s, "player") == 11 * bots.EMPTY_BONUS


def test_random_bot_games_end():
    rng = random.Random(9)
    bot = RandomBot(GAME, "player", seed=3)
    s = play_out(GAME.new_initial_state(), rng, bot.choose)
    assert s.result().text.startswith(f"game over: score {s.score}, best tile ")


# --- the UI adapter -------------------------------------------------------------------------------------

def test_ui_board_words_and_paths():
    from games.g2048.ui import UI
    ui = UI(GAME)
    s = position(["2 2 4 .", ". . . .", ". . . 8", ". . . ."], score=12)
    s.apply_action("player", "left")
    s.apply_chance([3, 3, 2])
    b = ui.board(s.observation("player"))
    assert b["turn"] == 12 and b["score"] == 12 + 4 and b["best"] == 8 and not b["over"]
    tiles = {(t["row"], t["col"]): t for t in b["tiles"]}
    assert set(tiles) == {(0, 0), (0, 1), (2, 0), (3, 3)}
    assert tiles[(0, 0)]["face"] == "merged" and tiles[(3, 3)]["face"] == "new"
    assert tiles[(0, 1)]["slide"] == "--dx: 112px; --dy: 0px"  # the 4 slid one cell left
    assert tiles[(2, 0)]["slide"] == "--dx: 336px; --dy: 0px" and tiles[(2, 0)]["cls"] == "v8 d1"
    assert sorted(g["slide"] for g in b["ghosts"]) == ["", "--dx: 112px; --dy: 0px"]
    assert ui.board(None)["turn"] == 0 and ui.board(None)["tiles"] == []
    for a in s.legal_actions("player") or ACTIONS:
        path = ui.action_path("player", GAME.action_to_json(a))
        assert len(path) == 1 and path[0]["key"] == a and path[0]["label"]
    assert ui.action_path("player", "left") == [{"key": "left", "label": "← Left"}]
    assert ui.action_words("player", "down") == "↓ Down" and not ui.flippable
    assert ui.seat_stats(s.to_json(), "player") == [("Score", 16), ("Best tile", 8)]
    assert ui.material(s.to_json(), "player") == 16.0
    assert ui.event_words({"new_tile": [3, 3, 2]}) == "A 2 appears at row 4, column 4"
    assert ui.event_words({"merged": [[0, 0, 4]], "points": 4}) == "Merged into 4: +4 points"
    assert ui.event_words({"reached": 2048}) == "Reached the 2048 tile!"
    over = finished()
    assert ui.board(over.to_json())["over"]
    assert ui.result_reason(over.result().to_json(), over.to_json()) == (
        "No tile can move any more: final score 300, best tile 16.")


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine

    from games.g2048.ui import UI
    ui = UI(GAME)
    engine = Engine(dirs=[str(BASE_DIR / "games/g2048/templates")])
    s = position(["2 2 4 .", ". . . .", ". . . 2048", ". . 65536 ."])
    s.apply_action("player", "left")
    s.apply_chance([3, 3, 2])
    for state in (s, finished(), GAME.new_initial_state()):
        html = engine.get_template(ui.board_template).render(Context({"board": ui.board(state.to_json())}))
        svg = xml.dom.minidom.parseString(html.strip()).documentElement
        assert svg.getAttribute("id") == "board" and svg.getAttribute("data-turn") == str(state.turn)
        assert "board-2048" in svg.getAttribute("class").split()
        rects = [r for r in svg.getElementsByTagName("rect") if r.getAttribute("data-value")]
        tiles = sum(1 for row in state.to_json()["board"] for v in row if v)
        assert len(rects) == tiles + len(ui.board(state.to_json())["ghosts"])
        texts = [t.firstChild.data for t in svg.getElementsByTagName("text") if "num" in t.getAttribute("class")]
        assert texts == [r.getAttribute("data-value") for r in rects]  # every tile prints its number
    assert (BASE_DIR / "games/g2048/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.g2048.rules, games.g2048.bots, games.g2048.ui, sys; "
            "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
            "sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0
