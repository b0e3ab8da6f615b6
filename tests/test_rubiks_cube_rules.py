"""Rubik's Cube: one test per rule (docs/games/rubiks_cube.md), the move algebra against known identities and
positions, the scramble as chance, the JSON and action forms, random playouts, the solver bot and the UI."""
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

from games.engine import CHANCE, IllegalAction, InvalidParams
from games.rubiks_cube import NAME, bots, make_game
from games.rubiks_cube.rules import FACES, MOVE_LIMIT, MOVES, SOLVED, turn

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = make_game()
SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"  # Reid's 20-move superflip


def apply(facelets: str, moves: str) -> str:
    for m in moves.split():
        facelets = turn(facelets, m)
    return facelets


def face(facelets: str, f: str) -> str:
    k = FACES.index(f) * 9
    return facelets[k:k + 9]


def scrambled(moves: str, game=None):
    """A game whose scramble was ``moves`` (its scramble_moves is their number), the player to move."""
    game = game or make_game(scramble_moves=len(moves.split()))
    s = game.new_initial_state()
    for m in moves.split():
        s.apply_chance(m)
    return s


# --- parameters and setup -------------------------------------------------------------------------------

def test_name_params_and_seat():
    assert NAME == "rubiks_cube" and GAME.info.name == NAME and GAME.params == {"scramble_moves": 25}
    assert GAME.info.players == ("player",) and GAME.info.chance and GAME.info.max_turns == 25 + MOVE_LIMIT
    assert make_game(scramble_moves=0).params == {"scramble_moves": 0} and make_game(scramble_moves=100)
    for bad in ({"scramble_moves": -1}, {"scramble_moves": 101}, {"scramble_moves": "25"},
                {"scramble_moves": True}, {"moves": 3}):
        with pytest.raises(InvalidParams):
            make_game(**bad)


def test_the_scramble_is_one_chance_move_per_turn():
    s = GAME.new_initial_state()
    for n in range(25):
        assert s.is_chance_node() and s.players_to_act() == [] and s.legal_actions("player") == ()
        outcomes = s.chance_outcomes()
        assert [o for o, _ in outcomes] == list(MOVES) and len(MOVES) == 18
        assert all(p == 1 / 18 for _, p in outcomes) and abs(sum(p for _, p in outcomes) - 1) < 1e-12
        with pytest.raises(IllegalAction, match="still being scrambled"):
            s.check_action("player", "U")
        t = s.apply_chance(MOVES[n % 18])
        assert t.number == n + 1 and t.actions == {CHANCE: MOVES[n % 18]}
        assert t.events == [{"scramble": MOVES[n % 18], "number": n + 1, "of": 25}]
    assert not s.is_chance_node() and s.players_to_act() == ["player"] and s.chance_outcomes() == []
    assert list(s.legal_actions("player")) == list(MOVES)
    assert s.to_json()["scramble"] == [MOVES[n % 18] for n in range(25)]
    with pytest.raises(IllegalAction, match="already scrambled"):
        s.apply_chance("U")


@pytest.mark.parametrize("bad", [None, "u", "U3", "X", ["U"], 1, "U'2", " U", True])
def test_malformed_scramble_moves_are_refused(bad):
    s = GAME.new_initial_state()
    with pytest.raises(IllegalAction):
        s.apply_chance(bad)
    assert s.to_json() == GAME.new_initial_state().to_json()


def test_no_scramble_starts_solved():
    s = make_game(scramble_moves=0).new_initial_state()
    assert s.is_terminal() and s.result().text == "solved in 0 moves" and s.returns() == {"player": 1.0}


def test_a_scramble_that_cancels_out_ends_the_game():
    s = make_game(scramble_moves=2).new_initial_state()
    s.apply_chance("F")
    t = s.apply_chance("F'")
    assert s.is_terminal() and s.result().text == "solved in 0 moves" and {"solved": 0} in t.events
    mid = make_game(scramble_moves=3).new_initial_state()
    mid.apply_chance("F")
    mid.apply_chance("F'")  # solved in the middle of the scramble: it goes on
    assert not mid.is_terminal() and mid.is_chance_node()


# --- the moves ------------------------------------------------------------------------------------------

def test_four_quarter_turns_and_inverses_are_the_identity():
    rng = random.Random(1)
    cube = apply(SOLVED, " ".join(rng.choice(MOVES) for _ in range(30)))
    for f in FACES:
        assert apply(cube, f"{f} {f} {f} {f}") == cube and apply(cube, f"{f}2 {f}2") == cube
        assert apply(cube, f"{f} {f}'") == cube == apply(cube, f"{f}' {f}")
        assert apply(cube, f"{f}2") == apply(cube, f"{f} {f}") and apply(cube, f"{f}'") == apply(cube, f"{f} {f} {f}")
        assert apply(cube, f) != cube


def test_quarter_turns_move_the_right_stickers():
    u = apply(SOLVED, "U")  # the front's top row goes to the left, the right's to the front
    assert face(u, "F")[:3] == "RRR" and face(u, "L")[:3] == "FFF" and face(u, "B")[:3] == "LLL"
    assert face(u, "R")[:3] == "BBB" and face(u, "U") == "U" * 9 and face(u, "D") == "D" * 9
    r = apply(SOLVED, "R")  # the front's right column goes up
    assert face(r, "U")[2::3] == "FFF" and face(r, "B")[0::3] == "UUU" and face(r, "F")[2::3] == "DDD"
    f = apply(SOLVED, "F")  # the up face's bottom row goes to the right
    assert face(f, "R")[0::3] == "UUU" and face(f, "U")[6:] == "LLL" and face(f, "D")[:3] == "RRR"


def test_known_identities_and_positions():
    assert apply(SOLVED, " ".join(["R U R' U'"] * 6)) == SOLVED  # the "sexy move" has order 6
    assert apply(SOLVED, "U D") == apply(SOLVED, "D U") and apply(SOLVED, "R L'") == apply(SOLVED, "L' R")
    checker = apply(SOLVED, "U2 D2 F2 B2 L2 R2")
    assert face(checker, "U") == "UDUDUDUDU" and face(checker, "F") == "FBFBFBFBF"
    flip = apply(SOLVED, SUPERFLIP)
    for f in FACES:  # every edge flipped in place: corners and centres solved, no edge sticker at home
        assert all(face(flip, f)[k] == f for k in (0, 2, 4, 6, 8))
        assert all(face(flip, f)[k] != f for k in (1, 3, 5, 7))
    assert apply(flip, SUPERFLIP) == SOLVED


def test_a_scramble_and_its_inverse_solve():
    scramble = "D2 R' D' F2 B D R2 D2 R' F2 D' F2 U' B2 L2 U2 D R2 U"
    inverse = " ".join(m if m.endswith("2") else (m[0] if m.endswith("'") else m + "'")
                       for m in reversed(scramble.split()))
    s = scrambled(scramble)
    for n, m in enumerate(inverse.split(), start=1):
        assert not s.is_terminal()
        t = s.apply_action("player", m)
    assert s.is_terminal() and s.facelets == SOLVED and t.events == [{"solved": n}]
    assert s.result().text == f"solved in {n} moves" and s.result().winner == "player"
    assert s.returns() == {"player": 1.0}
    with pytest.raises(IllegalAction, match="the game is over"):
        s.check_action("player", "U")


def test_solved_in_one_move():
    s = scrambled("B'")
    s.apply_action("player", "B")
    assert s.result().text == "solved in 1 move"


def test_the_move_limit():
    s = scrambled("R")
    for _ in range(MOVE_LIMIT - 1):
        s.apply_action("player", "U")
    assert not s.is_terminal()
    s.apply_action("player", "U")
    assert s.is_terminal() and s.result().text == f"not solved in {MOVE_LIMIT} moves"
    assert s.returns() == {"player": 0.0} and s.players_to_act() == []
    assert make_game(scramble_moves=1).state_from_json(s.to_json()).to_json() == s.to_json()


# --- forms ----------------------------------------------------------------------------------------------

def test_action_forms():
    for m in MOVES:
        assert GAME.action_from_json(GAME.action_to_json(m)) == m == GAME.action_from_text(GAME.action_to_text(m))
    assert GAME.action_from_text(" R’ ") == "R'" and GAME.action_from_text("F′") == "F'"
    for bad in ("r", "R3", "M", "", None, ["R"], 2):
        with pytest.raises(IllegalAction, match="malformed action"):
            GAME.action_from_json(bad, "player")
        with pytest.raises(IllegalAction, match="malformed action"):
            GAME.action_from_text(bad)
    s = scrambled("R")
    with pytest.raises(IllegalAction, match="unknown seat"):
        s.check_action("white", "R")
    for bad in ({}, {"player": "R'", "x": "U"}, {"player": "x"}, None):
        with pytest.raises(IllegalAction):
            s.apply_actions(bad)
    assert s.to_json()["moves"] == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=3)
    | st.sampled_from(MOVES),
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
    assert action == data and action in MOVES


def test_state_from_json_rejects_nonsense():
    s = scrambled("R U")
    s.apply_action("player", "F")
    good = s.to_json()
    game = make_game(scramble_moves=2)
    assert game.state_from_json(good).to_json() == good
    for change in [{"facelets": SOLVED}, {"turn": 2}, {"to_move": None}, {"moves": ["F", "X"]},
                   {"scramble": ["R"]}, {"scramble": ["R", "U", "F"]}, {"result": None, "moves": ["U'", "R'", "F"]},
                   {"extra": 1}]:
        with pytest.raises(ValueError):
            game.state_from_json({**good, **change})
    for bad in (None, [], {}, "x", {"scramble": "RU", "moves": []}):
        with pytest.raises(ValueError):
            game.state_from_json(bad)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.integers(0, 6))
def test_random_games_round_trip_and_end(seed, scramble_moves):
    rng = random.Random(seed)
    game = make_game(scramble_moves=scramble_moves)
    s = game.new_initial_state()
    while not s.is_terminal():
        data = s.to_json()
        assert json.loads(json.dumps(data)) == data
        again = game.state_from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data and again.is_chance_node() == s.is_chance_node()
        assert again.players_to_act() == s.players_to_act()
        twin = s.clone()
        if s.is_chance_node():
            twin.apply_chance(rng.choice(MOVES))
            assert s.to_json() == data
            s.apply_chance(rng.choice(s.chance_outcomes())[0])
            continue
        twin.apply_action("player", "U")
        assert s.to_json() == data and twin.to_json() != data
        if rng.random() < 0.05:
            with pytest.raises(IllegalAction):
                s.apply_action("player", rng.choice(["u", "U4", None]))
            assert s.to_json() == data
        s.apply_action("player", rng.choice(s.legal_actions("player")))
    assert s.turn <= scramble_moves + MOVE_LIMIT
    assert s.result().text in ("not solved in 200 moves", f"solved in {len(s.moves)} moves", "solved in 1 move")


# --- the bot --------------------------------------------------------------------------------------------

def test_solver_bot_solves_scrambles_move_by_move():
    rng = random.Random(5)
    lengths = []
    for _ in range(5):
        s = scrambled(" ".join(rng.choice(MOVES) for _ in range(25)), GAME)
        bot = bots.BOTS["strong"](GAME, "player", seed=1)
        started = time.perf_counter()
        while not s.is_terminal():
            before = s.to_json()
            move = bot.choose(s)
            assert s.to_json() == before and move in s.legal_actions("player")
            s.apply_action("player", move)
        assert time.perf_counter() - started < 5
        assert s.facelets == SOLVED and s.returns() == {"player": 1.0}
        lengths.append(len(s.moves))
    assert max(lengths) <= bots.MAX_SOLUTION


def test_solver_bot_replans_when_the_cube_is_not_as_planned():
    s = scrambled("R U F' L2 D B R'")
    bot = bots.SolverBot(GAME, "player")
    s.apply_action("player", bot.choose(s))
    s.apply_action("player", "D2")  # not the plan
    while not s.is_terminal():
        s.apply_action("player", bots.SolverBot(GAME, "player").choose(s))  # a new bot per move, as the server
    assert s.facelets == SOLVED and len(s.moves) <= 2 + bots.MAX_SOLUTION


# --- the UI adapter -------------------------------------------------------------------------------------

def test_ui_board_words_and_paths():
    from games.rubiks_cube.ui import UI
    ui = UI(GAME)
    s = scrambled("R U")
    s.apply_action("player", "F'")
    obs = s.observation("player")
    b = ui.board(obs)
    assert b["turn"] == 3 and len(b["faces"]) == 6 and not b["solved"]
    faces = {f["face"]: f for f in b["faces"]}
    assert {f["key"] for f in b["faces"]} == set(FACES) and "last" in faces["F"]["cls"].split()
    assert "".join(st["colour"] for f in b["faces"] for st in f["stickers"]) == s.facelets
    assert b["status"] == f"Moves: 1 of {MOVE_LIMIT}" and b["last"] == "Last: F'"
    keys = {f["key"] for f in b["faces"]}
    paths = [ui.action_path("player", GAME.action_to_json(m)) for m in s.legal_actions("player")]
    assert len({p[0]["key"] for p in paths}) == 18 and all(len(p) == 1 and p[0]["label"] for p in paths)
    assert {p[0]["key"] for p in paths} & keys == set(FACES)  # a click on a face turns it clockwise
    assert ui.action_path("player", "U'") == [{"key": "U'", "label": "U' (counter-clockwise)"}]
    assert ui.action_words("player", "R2") == "R2 (half turn)" and ui.action_group("player", "B'") == "Back face (B)"
    assert ui.event_words({"scramble": "U", "number": 3, "of": 25}) == "Scramble move 3 of 25: U"
    assert ui.event_words({"solved": 4}) == "Solved!"
    assert ui.material(obs, "player") < 54 and ui.material(scrambled("").to_json(), "player") == 54.0
    assert ui.seat_stats(obs, "player") == [("Moves", f"1 of {MOVE_LIMIT}"), ("Scramble", "R U")]
    assert [p.name for p in ui.params()] == ["scramble_moves"] and not ui.flippable
    s.apply_action("player", "F")
    s.apply_action("player", "U'")
    s.apply_action("player", "R'")
    assert ui.result_reason(s.result().to_json(), s.to_json()) == "Every face is one colour: solved in 4 moves."
    assert ui.board(None)["solved"] and ui.board(None)["turn"] == 0
    start = GAME.new_initial_state()
    start.apply_chance("U")
    assert ui.board(start.to_json())["status"] == "Scrambling: 1 of 25"


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine

    from games.rubiks_cube.ui import UI
    ui = UI(GAME)
    engine = Engine(dirs=[str(BASE_DIR / "games/rubiks_cube/templates")])
    for s in (scrambled("R U F"), GAME.new_initial_state()):
        html = engine.get_template(ui.board_template).render(Context({"board": ui.board(s.to_json())}))
        svg = xml.dom.minidom.parseString(html.strip()).documentElement
        assert svg.getAttribute("id") == "board" and svg.getAttribute("data-turn") == str(s.turn)
        groups = [g for g in svg.getElementsByTagName("g") if g.getAttribute("data-pick")]
        assert [g.getAttribute("data-pick") for g in groups] == list(FACES)
        for g in groups:
            assert g.getElementsByTagName("title") and g.getAttribute("aria-label")
            letters = [t.firstChild.data for t in g.getElementsByTagName("text")]
            stickers = [r.getAttribute("data-colour") for r in g.getElementsByTagName("rect")
                        if r.getAttribute("data-colour")]
            assert len(letters) == 9 and letters == stickers  # every sticker prints its colour's letter
    assert (BASE_DIR / "games/rubiks_cube/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.rubiks_cube.rules, games.rubiks_cube.bots, games.rubiks_cube.ui, sys; "
            "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
            "sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0
