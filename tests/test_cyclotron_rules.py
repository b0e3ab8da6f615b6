"""Cyclotron: one test per rule (docs/games/cyclotron.md), property tests against a brute-force move generator
written from the rules' wording, the action forms, the bot evaluation and the UI adapter."""
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

from games.cyclotron import bots
from games.cyclotron.rules import GAME, PATH2, PATH3
from games.engine import IllegalAction, InvalidParams, load_game, registered_names

BASE_DIR = Path(__file__).resolve().parent.parent
KIND = {"r": "rock", "p": "paper", "s": "scissors"}
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
GOAL = {"white": (0, 0), "black": (5, 5)}
OTHER = {"white": "black", "black": "white"}
DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def position(to_move: str, *pieces: str, turn: int = 0):
    """A state from pieces like "P 3,3" (upper case: White's) and "r 0,0" (lower case: Black's)."""
    data = []
    for spec in pieces:
        letter, sq = spec.split()
        r, c = (int(v) for v in sq.split(","))
        data.append({"square": [r, c], "player": "white" if letter.isupper() else "black",
                     "piece": KIND[letter.lower()]})
    return GAME.state_from_json({"turn": turn, "to_move": to_move, "pieces": data, "result": None})


def snapshot(state):
    return (state.to_json(), state.key, frozenset(state.history), tuple(state.legal_actions("white")),
            tuple(state.legal_actions("black")), state.board[:], state.pos[:])


def rule_of(state, seat, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        state.check_action(seat, action)
    return exc.value.rule


def legal(state, *paths) -> bool:
    acts = set(state.legal_actions(state.players_to_act()[0]))
    return all(tuple(map(tuple, p)) in acts for p in paths)


# --- setup and turn order -------------------------------------------------------------------------------

def test_registered_and_no_params():
    assert "cyclotron" in registered_names()
    game = load_game("cyclotron")
    assert game is GAME
    assert game.info.players == ("white", "black") and not game.info.simultaneous
    with pytest.raises(InvalidParams):
        load_game("cyclotron", size=7)


def test_initial_layout():
    s = GAME.new_initial_state()
    assert s.to_json() == {"turn": 0, "to_move": "white", "result": None, "seen": [s.key], "pieces": [
        {"square": [5, 5], "player": "white", "piece": "rock"},
        {"square": [5, 4], "player": "white", "piece": "paper"},
        {"square": [4, 5], "player": "white", "piece": "scissors"},
        {"square": [0, 0], "player": "black", "piece": "rock"},
        {"square": [0, 1], "player": "black", "piece": "paper"},
        {"square": [1, 0], "player": "black", "piece": "scissors"}]}
    assert s.players_to_act() == ["white"]
    assert s.legal_actions("black") == ()


def test_white_first_moves_are_paper_and_scissors_up_or_left():
    s = GAME.new_initial_state()
    assert set(s.legal_actions("white")) == {((5, 4), (4, 4)), ((5, 4), (5, 3)), ((4, 5), (3, 5)), ((4, 5), (4, 4))}
    assert "no square may hold two pieces" in rule_of(s, "white", ((5, 5), (5, 4)))


def test_players_alternate_white_first():
    s = GAME.new_initial_state()
    assert rule_of(s, "black", ((0, 1), (1, 1))) == "it is white's turn"
    t = s.apply_action("white", ((5, 4), (4, 4)))
    assert t.number == 1 and t.actions == {"white": ((5, 4), (4, 4))} and t.events == []
    assert s.players_to_act() == ["black"] and s.to_json()["turn"] == 1
    with pytest.raises(IllegalAction):
        s.apply_action("white", ((4, 4), (3, 4)))
    with pytest.raises(IllegalAction):
        s.apply_actions({"white": ((4, 4), (3, 4))})
    with pytest.raises(IllegalAction):
        s.apply_actions({"black": ((0, 1), (1, 1)), "white": ((4, 4), (3, 4))})
    s.apply_actions({"black": ((0, 1), (1, 1))})
    assert s.players_to_act() == ["white"]


# --- movement -------------------------------------------------------------------------------------------

def test_moves_are_single_orthogonal_steps():
    s = position("white", "P 3,3", "r 0,5")
    assert set(s.legal_actions("white")) == {((3, 3), (2, 3)), ((3, 3), (4, 3)), ((3, 3), (3, 2)), ((3, 3), (3, 4))}
    assert "one square up, down, left or right" in rule_of(s, "white", ((3, 3), (2, 2)))  # diagonal
    assert "one square up, down, left or right" in rule_of(s, "white", ((3, 3), (1, 3)))  # two squares
    assert "one square up, down, left or right" in rule_of(s, "white", ((3, 3), (3, 3)))  # no move
    assert "not on the board" in rule_of(s, "white", ((5, 5), (6, 5)))
    assert "white has no piece on (2, 2)" in rule_of(s, "white", ((2, 2), (2, 3)))
    assert "white has no piece on (0, 5)" in rule_of(s, "white", ((0, 5), (1, 5)))  # the opponent's


def test_corner_piece_has_two_steps():
    s = position("white", "S 0,5", "r 3,0")
    assert set(s.legal_actions("white")) == {((0, 5), (0, 4)), ((0, 5), (1, 5))}


def test_no_stacking_on_own_piece():
    s = position("white", "P 3,3", "R 3,4", "r 0,5")
    assert ((3, 3), (3, 4)) not in s.legal_actions("white")
    assert "no square may hold two pieces: (3, 4) holds White's Rock" in rule_of(s, "white", ((3, 3), (3, 4)))


# --- captures -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("attacker,defender,owner", [
    (a, d, o) for a in KIND.values() for d in KIND.values() for o in ("white", "black")
    if not (o == "white" and a == d)])  # (one piece of each kind per side)
def test_capture_relation(attacker, defender, owner):
    letter = {"rock": "R", "paper": "P", "scissors": "S"}
    att = letter[attacker] + " 3,3"
    dfn = (letter[defender] if owner == "white" else letter[defender].lower()) + " 3,4"
    extra = ["r 0,5"] if not (owner == "black" and defender == "rock") else ["p 0,5"]
    s = position("white", att, dfn, *extra)
    action = ((3, 3), (3, 4))
    if owner == "black" and BEATS[attacker] == defender:
        assert action in s.legal_actions("white")
        before = len(s.pieces())
        t = s.apply_action("white", action)
        assert t.events[0] == {"capture": [3, 4], "piece": f"black {defender}", "by": f"white {attacker}"}
        assert len(s.pieces()) == before - 1
        assert {"square": [3, 4], "player": "white", "piece": attacker} in s.to_json()["pieces"]
    else:
        assert action not in s.legal_actions("white")
        rule = rule_of(s, "white", action)
        if owner == "white":
            assert rule.startswith("no square may hold two pieces")
        else:
            assert (" captures only " in rule or " capture only " in rule) and "only the opponent's" in rule


def test_rock_scissors_paper_cycle():
    # Rock takes Scissors, Scissors take Paper, Paper takes Rock; Black captures the same way.
    s = position("black", "R 2,2", "s 2,3", "p 4,4", "S 4,5", "r 0,0")
    assert ((4, 5), (4, 4)) not in s.legal_actions("black")  # not Black's piece
    assert ((4, 4), (4, 5)) not in s.legal_actions("black")  # paper cannot take scissors
    assert ((2, 3), (2, 2)) not in s.legal_actions("black")  # scissors cannot take rock
    s2 = position("black", "P 2,2", "s 2,3", "r 0,0")
    assert ((2, 3), (2, 2)) in s2.legal_actions("black")


# --- the double step ------------------------------------------------------------------------------------

def test_double_step_captures_via_an_empty_square():
    s = position("white", "P 3,3", "r 2,4", "s 0,5")
    assert legal(s, [[3, 3], [2, 3], [2, 4]], [[3, 3], [3, 4], [2, 4]])
    t = s.apply_action("white", ((3, 3), (2, 3), (2, 4)))
    assert t.events == [{"capture": [2, 4], "piece": "black rock", "by": "white paper"}]
    assert s.to_json()["pieces"][0] == {"square": [2, 4], "player": "white", "piece": "paper"}


def test_double_step_straight_line():
    s = position("white", "R 3,3", "s 1,3", "p 0,5")
    assert legal(s, [[3, 3], [2, 3], [1, 3]])


def test_double_step_only_to_capture():
    s = position("white", "P 3,3", "r 0,5")
    assert all(len(a) == 2 for a in s.legal_actions("white"))
    assert "only to capture; (1, 3) is empty" in rule_of(s, "white", ((3, 3), (2, 3), (1, 3)))
    assert "it would step back" in rule_of(s, "white", ((3, 3), (2, 3), (3, 3)))
    s2 = position("white", "P 3,3", "R 1,3", "s 3,5", "r 0,5")
    rule = rule_of(s2, "white", ((3, 3), (2, 3), (1, 3)))
    assert "only to capture an opposing piece; (1, 3) holds White's Rock" in rule
    assert "Paper captures only a Rock" in rule_of(s2, "white", ((3, 3), (3, 4), (3, 5)))


def test_double_step_only_after_a_step_to_an_empty_square():
    # Blocked first step: by an opposing piece it cannot take, or by its own piece.
    s = position("white", "P 3,3", "S 2,3", "r 2,4", "s 3,4")
    assert not legal(s, [[3, 3], [2, 3], [2, 4]])
    assert not legal(s, [[3, 3], [3, 4], [2, 4]])
    assert "only after a first step to an empty square" in rule_of(s, "white", ((3, 3), (2, 3), (2, 4)))
    assert "only after a first step to an empty square" in rule_of(s, "white", ((3, 3), (3, 4), (2, 4)))
    # A capture on the first step ends the move.
    s2 = position("white", "R 3,3", "s 2,3", "p 1,3", "r 0,5")
    assert legal(s2, [[3, 3], [2, 3]])
    assert not legal(s2, [[3, 3], [2, 3], [1, 3]])
    assert "only after a first step to an empty square" in rule_of(s2, "white", ((3, 3), (2, 3), (1, 3)))


# --- the goal ------------------------------------------------------------------------------------------

def test_reaching_the_opposing_rock_square_wins_at_once():
    s = position("white", "S 0,1", "r 3,3", "p 4,4")
    t = s.apply_action("white", ((0, 1), (0, 0)))
    assert t.events == [{"goal": [0, 0], "piece": "white scissors"}]
    assert s.is_terminal() and s.players_to_act() == [] and s.legal_actions("black") == ()
    assert s.result().text == "winner: white" and s.returns() == {"white": 1.0, "black": 0.0}
    assert rule_of(s, "black", ((3, 3), (3, 4))) == "the game is over"
    with pytest.raises(IllegalAction):
        s.apply_action("black", ((3, 3), (3, 4)))


def test_black_wins_on_whites_rock_square():
    s = position("black", "P 0,3", "s 4,5")
    s.apply_action("black", ((4, 5), (5, 5)))
    assert s.result().text == "winner: black" and s.result().winner == "black"


def test_own_rock_square_is_no_goal():
    s = position("white", "R 4,5", "r 2,2")
    s.apply_action("white", ((4, 5), (5, 5)))
    assert not s.is_terminal()


def test_a_path_stops_at_the_goal():
    s = position("white", "S 0,1", "p 1,0", "r 3,3")
    assert not legal(s, [[0, 1], [0, 0], [1, 0]])
    assert "a path stops there" in rule_of(s, "white", ((0, 1), (0, 0), (1, 0)))
    assert legal(s, [[0, 1], [1, 1], [1, 0]], [[0, 1], [0, 0]])


def test_occupied_goal_needs_a_capture():
    s = position("white", "S 0,1", "r 0,0")
    assert not legal(s, [[0, 1], [0, 0]])
    assert "Scissors capture only a Paper" in rule_of(s, "white", ((0, 1), (0, 0)))
    s2 = position("white", "P 0,1", "r 0,0")
    t = s2.apply_action("white", ((0, 1), (0, 0)))
    assert t.events == [{"capture": [0, 0], "piece": "black rock", "by": "white paper"},
                        {"goal": [0, 0], "piece": "white paper"}]
    assert s2.result().text == "winner: white"


def test_double_step_capture_onto_the_goal_wins():
    s = position("white", "R 1,1", "s 0,0", "p 3,3")
    assert legal(s, [[1, 1], [0, 1], [0, 0]], [[1, 1], [1, 0], [0, 0]])
    s.apply_action("white", ((1, 1), (1, 0), (0, 0)))
    assert s.result().text == "winner: white"


# --- no repeated position ---------------------------------------------------------------------------------

def test_the_initial_position_may_not_recur():
    s = GAME.new_initial_state()
    for seat, a in [("white", ((5, 4), (4, 4))), ("black", ((0, 1), (1, 1))), ("white", ((4, 4), (5, 4)))]:
        s.apply_action(seat, a)
    assert ((1, 1), (0, 1)) not in s.legal_actions("black")
    assert rule_of(s, "black", ((1, 1), (0, 1))) == "that position has occurred before (no position may repeat)"
    before = snapshot(s)
    with pytest.raises(IllegalAction):
        s.apply_action("black", ((1, 1), (0, 1)))
    assert snapshot(s) == before


def test_no_position_may_recur():
    s = GAME.new_initial_state()
    for seat, a in [("white", ((5, 4), (4, 4))), ("black", ((0, 1), (1, 1))), ("white", ((4, 4), (4, 3))),
                    ("black", ((1, 1), (0, 1)))]:
        s.apply_action(seat, a)
    # Back to (4, 4) would repeat the position after White's first move (Black to move).
    assert ((4, 3), (4, 4)) not in s.legal_actions("white")
    assert "occurred before" in rule_of(s, "white", ((4, 3), (4, 4)))
    # The same squares with the other side to move are another position.
    assert ((4, 3), (5, 3)) in s.legal_actions("white")


# --- no legal move loses ------------------------------------------------------------------------------------

def test_a_side_with_no_legal_move_loses():
    s = position("white", "R 0,4", "P 2,5", "S 5,0", "r 0,5")
    t = s.apply_action("white", ((2, 5), (1, 5)))
    assert t.events == [{"no_legal_move": "black"}]
    assert s.is_terminal() and s.result().text == "winner: white" and s.to_json()["to_move"] == "black"


def test_losing_every_piece_loses():
    s = position("white", "P 3,2", "r 2,2")
    t = s.apply_action("white", ((3, 2), (2, 2)))
    assert t.events[-1] == {"no_legal_move": "black"} and s.result().text == "winner: white"


def test_moves_barred_by_repetition_can_leave_no_legal_move():
    s = position("white", "R 2,5", "P 1,4", "S 5,0", "r 0,5")
    for seat, a in [("white", ((5, 0), (4, 0))), ("black", ((0, 5), (1, 5))), ("white", ((4, 0), (5, 0)))]:
        s.apply_action(seat, a)
    assert s.result().text == "winner: white"


def test_a_loaded_position_without_moves_is_over():
    s = position("black", "R 0,4", "P 1,5", "r 0,5")
    assert s.is_terminal() and s.result().text == "winner: white" and s.players_to_act() == []


# --- action forms ---------------------------------------------------------------------------------------------

def test_action_json_and_text_round_trip():
    for a in list(PATH2.values()) + list(PATH3.values()):
        assert GAME.action_from_json(GAME.action_to_json(a)) is a
        assert GAME.action_from_text(GAME.action_to_text(a)) is a
    assert GAME.action_to_text(((5, 4), (4, 4), (4, 3))) == "5,4-4,4-4,3"
    assert GAME.action_to_json(((5, 4), (4, 4))) == [[5, 4], [4, 4]]
    assert GAME.action_from_text(" (5, 4) → (4, 4) ") == ((5, 4), (4, 4))
    assert GAME.action_from_text("5,4 -> 4,4 -> 4,3") == ((5, 4), (4, 4), (4, 3))
    assert GAME.action_from_json([[9, 9], [9, 10]]) == ((9, 9), (9, 10))  # well formed, checked by the rules


@pytest.mark.parametrize("bad", [None, 1, "5,4-4,4", {}, [], [[5, 4]], [[5, 4], [4, 4], [3, 4], [2, 4]],
                                 [[5, 4], [4]], [[5, 4], [4, 4.0]], [[5, 4], [True, 4]], [[5, 4], "4,4"],
                                 [[5, 4], {"r": 4}], [[5, 4], None]])
def test_malformed_json_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_json(bad, "white")
    assert exc.value.rule.startswith("malformed action: ") and exc.value.player == "white"


@pytest.mark.parametrize("bad", ["", "5,4", "5,4-", "5,4-4,4-3,4-2,4", "a,b-c,d", "5;4-4;4", None, 3])
def test_malformed_text_actions(bad):
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_text(bad)
    assert exc.value.rule.startswith("malformed action: ")


def test_check_action_on_odd_values():
    s = GAME.new_initial_state()
    for bad in [None, "x", 3, ((5, 4),), (("a", 1), (2, 3)), {"a": 1}, [[5, 4], [4, 4], [3, 4], [2, 4]]]:
        assert rule_of(s, "white", bad).startswith("malformed action: ")
    s.check_action("white", [[5, 4], [4, 4]])  # a path given as lists is judged like the tuple
    s.check_action("white", ([5, 4], [4, 4]))
    assert rule_of(s, "nobody", ((5, 4), (4, 4))).startswith("unknown player")
    s.apply_action("white", [[5, 4], [4, 4]])
    assert s.to_json()["pieces"][1]["square"] == [4, 4]


def test_to_text():
    text = GAME.new_initial_state().to_text()
    assert text.splitlines()[0] == "turn 0: white to move"
    assert text.splitlines()[2] == "0  r p . . . ."
    assert text.splitlines()[7] == "5  . . . . P R"


# --- property tests: random games against a brute-force generator from the rules' wording ---------------------

def brute_legal(pieces: dict, side: str, seen: set) -> set:
    """Every legal path, straight from the rules: one orthogonal step onto an empty square or a capture of the
    prey of the moving piece's kind; or a step onto an empty square that is not the goal, then a capture; never
    into a position (pieces and side to move) seen before."""
    def on(sq):
        return 0 <= sq[0] < 6 and 0 <= sq[1] < 6

    def after(src, dst):
        new = dict(pieces)
        new[dst] = new.pop(src)
        return (frozenset(new.items()), OTHER[side])

    out = set()
    for sq, (owner, kind) in pieces.items():
        if owner != side:
            continue
        for d in DIRS:
            a = (sq[0] + d[0], sq[1] + d[1])
            if not on(a):
                continue
            there = pieces.get(a)
            if there is None:
                if after(sq, a) not in seen:
                    out.add((sq, a))
                if a == GOAL[side]:
                    continue
                for e in DIRS:
                    b = (a[0] + e[0], a[1] + e[1])
                    if not on(b) or b == sq:
                        continue
                    prey = pieces.get(b)
                    if prey and prey[0] != side and BEATS[kind] == prey[1] and after(sq, b) not in seen:
                        out.add((sq, a, b))
            elif there[0] != side and BEATS[kind] == there[1] and after(sq, a) not in seen:
                out.add((sq, a))
    return out


def pieces_of(state) -> dict:
    return {tuple(p["square"]): (p["player"], p["piece"]) for p in state.to_json()["pieces"]}


def random_path(rng: random.Random):
    sq = (rng.randrange(-1, 7), rng.randrange(-1, 7))
    path = [sq]
    for _ in range(rng.choice((1, 2))):
        d = rng.choice(DIRS + ((1, 1), (0, 0), (2, 0)))
        sq = (sq[0] + d[0], sq[1] + d[1])
        path.append(sq)
    return tuple(path)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1))
def test_random_games_follow_the_rules(seed):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    seen = {(frozenset(pieces_of(s).items()), "white")}
    last_mover = None
    for _ in range(200):
        pieces = pieces_of(s)
        # Invariants: one piece per square and per (side, kind), the board tables agree with the JSON.
        assert len(pieces) == len(s.to_json()["pieces"])
        assert sorted((p, k) for p, k in pieces.values()) == sorted(set(pieces.values()))
        assert s.key in s.history
        if last_mover and any(sq == GOAL[last_mover] and pl == last_mover for sq, (pl, _) in pieces.items()):
            assert s.is_terminal() and s.result().winner == last_mover
            break
        side = s.to_json()["to_move"]
        expected = brute_legal(pieces, side, seen)
        if not expected:
            assert s.is_terminal() and s.result().winner == OTHER[side]
            break
        assert not s.is_terminal() and s.players_to_act() == [side]
        acts = s.legal_actions(side)
        assert len(acts) == len(set(acts)) and set(acts) == expected
        assert s.legal_actions(OTHER[side]) == ()
        # Illegal actions are refused and change nothing.
        before = snapshot(s)
        for _ in range(3):
            bad = random_path(rng)
            if bad in expected:
                continue
            with pytest.raises(IllegalAction):
                s.check_action(side, bad)
            with pytest.raises(IllegalAction):
                s.apply_action(side, bad)
            assert snapshot(s) == before
        # The JSON form round-trips exactly, the positions seen since the last capture included.
        restored = GAME.state_from_json(s.to_json())
        assert restored.to_json() == s.to_json()
        assert list(restored.legal_actions(side)) == list(acts)
        # Clones are independent both ways.
        twin = s.clone()
        twin.apply_action(side, rng.choice(acts))
        assert snapshot(s) == before
        a = rng.choice(acts)
        s.check_action(side, a)
        s.apply_action(side, a)
        assert twin.to_json() != s.to_json() or twin.turn == s.turn
        pieces = pieces_of(s)
        seen.add((frozenset(pieces.items()), OTHER[side]))
        last_mover = side
        if s.is_terminal():
            winner = s.result().winner
            assert winner == side  # only the mover can win: by reaching the goal or leaving no legal move
            if not any(sq == GOAL[side] and pl == side for sq, (pl, _) in pieces.items()):
                assert brute_legal(pieces, OTHER[side], seen) == set()
            break


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2, 7) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_action_from_json_is_total(data):
    s = GAME.new_initial_state()
    try:
        action = GAME.action_from_json(data, "white")
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action: ")
        return
    assert isinstance(action, tuple) and 2 <= len(action) <= 3
    assert GAME.action_to_json(action) == [list(sq) for sq in data]
    before = snapshot(s)
    try:
        s.check_action("white", action)
    except IllegalAction:
        with pytest.raises(IllegalAction):
            s.apply_action("white", action)
        assert snapshot(s) == before


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(-1, 7) | st.just(10 ** 30) | st.booleans(), min_size=1, max_size=3),
                min_size=1, max_size=4))
def test_near_miss_paths_never_crash(data):
    s = GAME.new_initial_state()
    before = snapshot(s)
    try:
        action = GAME.action_from_json(data, "white")
        s.check_action("white", action)
    except IllegalAction:
        pass
    try:
        s.check_action("white", data)
    except IllegalAction:
        pass
    assert snapshot(s) == before


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20))
def test_action_from_text_is_total(text):
    try:
        GAME.action_from_text(text)
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action: ")


def test_state_from_json_rejects_nonsense():
    for bad in [None, {}, {"turn": 0, "to_move": "red", "pieces": [], "result": None},
                {"turn": 0, "to_move": "white", "pieces": [{"square": [9, 9], "player": "white", "piece": "rock"}]},
                {"turn": 0, "to_move": "white", "pieces": [{"square": [1, 1], "player": "white", "piece": "rock"}] * 2},
                {"turn": -1, "to_move": "white", "pieces": []}]:
        with pytest.raises(ValueError):
            GAME.state_from_json(bad)


# --- the bots' evaluation ----------------------------------------------------------------------------------

def test_evaluation_is_zero_sum_and_scores_results():
    s = GAME.new_initial_state()
    rng = random.Random(3)
    for _ in range(60):
        if s.is_terminal():
            break
        assert bots.evaluate(s, "white") == -bots.evaluate(s, "black")
        assert abs(bots.evaluate(s, "white")) < bots.WIN - 1000
        seat = s.players_to_act()[0]
        s.apply_action(seat, rng.choice(s.legal_actions(seat)))
    won = position("white", "S 0,1", "r 3,3", "p 4,4")
    won.apply_action("white", ((0, 1), (0, 0)))
    assert bots.evaluate(won, "white") == bots.WIN and bots.evaluate(won, "black") == -bots.WIN


def test_safe_piece_is_worth_more():
    # White has traded its Rock for Black's Scissors: White's Paper cannot be captured any more.
    traded = position("white", "P 3,3", "S 4,4", "r 1,1", "p 1,2")
    even = position("white", "R 3,3", "S 4,4", "r 1,1", "p 1,2")
    assert bots.evaluate(traded, "white") > 0
    assert bots.evaluate(traded, "white") > bots.evaluate(even, "white")


def test_order_actions_and_position_key():
    s = position("white", "P 0,1", "S 2,2", "r 0,3", "p 2,3", "s 4,4")
    acts = list(s.legal_actions("white"))
    ordered = bots.order_actions(s, "white", acts)
    assert sorted(ordered) == sorted(acts)
    assert ordered[0] == ((0, 1), (0, 0))  # the goal move
    assert set(ordered[1:3]) == {((2, 2), (2, 3)), ((0, 1), (0, 2), (0, 3))}  # the captures
    black = GAME.state_from_json({**s.to_json(), "to_move": "black"})
    assert bots.position_key(s) != bots.position_key(black)
    assert bots.position_key(s) == bots.position_key(s.clone())
    scores = bots.score_actions(s, "white", acts)
    assert max(scores) == scores[acts.index(((0, 1), (0, 0)))] == bots.WIN


# --- the UI adapter ----------------------------------------------------------------------------------------

def test_ui_board_and_words():
    from games.engine.ui import ui_for
    ui = ui_for(GAME)
    s = GAME.new_initial_state()
    before = s.to_json()
    t = s.apply_action("white", ((5, 4), (4, 4)))
    last = {"number": t.number, "actions": {"white": [[5, 4], [4, 4]]}, "events": t.events}
    b = ui.board(s.observation("black"), last=last)
    assert b["turn"] == 1 and b["flipped"] is False and len(b["squares"]) == 36
    by_key = {sq["key"]: sq for sq in b["squares"]}
    assert "last-from" in by_key["sq:5,4"]["cls"] and "last-to" in by_key["sq:4,4"]["cls"]
    assert "goal-white" in by_key["sq:0,0"]["cls"] and "goal-black" in by_key["sq:5,5"]["cls"]
    assert by_key["sq:0,0"]["y"] == 0 and by_key["sq:4,4"]["piece"]["kind"] == "paper"
    flipped = {sq["key"]: sq for sq in ui.board(s.observation(None), flipped=True)["squares"]}
    assert flipped["sq:5,5"]["x"] == 0 and flipped["sq:5,5"]["y"] == 0
    assert ui.board(None)["turn"] == 0
    assert ui.action_path("white", [[5, 4], [4, 4], [4, 3]]) == [
        {"key": "sq:5,4", "label": "(5, 4)"}, {"key": "sq:4,4", "label": "(4, 4)"},
        {"key": "sq:4,3", "label": "(4, 3)"}]
    assert ui.action_words("white", [[5, 4], [4, 4]], observation=before) == "Paper (5, 4) → (4, 4)"
    assert ui.action_words("white", [[5, 4], [4, 4], [4, 3]]) == "(5, 4) → (4, 4) × (4, 3)"
    assert ui.action_group("white", [[5, 4], [4, 4], [4, 3]]) == "Captures"
    assert ui.action_group("white", [[5, 4], [4, 4]]) == "Moves"
    assert ui.seat_stats(before, "white") == [("Pieces left", "Rock, Paper, Scissors")]
    assert ui.material(before, "black") == 3.0 and ui.chart_label == "Pieces"
    assert ui.seat_name("black") == "Black"
    cap = position("white", "P 3,3", "r 2,4", "s 0,5")
    obs = cap.to_json()
    assert ui.action_words("white", [[3, 3], [2, 3], [2, 4]], observation=obs) == "Paper (3, 3) → (2, 3) × Rock (2, 4)"
    assert ui.action_group("white", [[3, 3], [2, 3]], observation=obs) == "Moves"
    ev = cap.apply_action("white", ((3, 3), (2, 3), (2, 4))).events
    assert ui.event_words(ev[0]) == "White's Paper captures Black's Rock on (2, 4)"
    won = position("white", "S 0,1", "r 3,3", "p 4,4")
    ev = won.apply_action("white", ((0, 1), (0, 0))).events
    assert "wins" in ui.event_words(ev[0])
    assert ui.result_reason(won.result().to_json(), won.to_json()) == "White reached Black's Rock square."
    stuck = position("white", "R 0,4", "P 2,5", "S 5,0", "r 0,5")
    stuck.apply_action("white", ((2, 5), (1, 5)))
    assert ui.result_reason(stuck.result().to_json(), stuck.to_json()) == "Black has no legal move."
    assert ui.event_words({"no_legal_move": "black"}) == "Black has no legal move and loses"


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine
    from games.engine.ui import ui_for
    ui = ui_for(GAME)
    s = position("white", "P 3,3", "r 2,4", "s 0,5")
    t = s.apply_action("white", ((3, 3), (2, 3), (2, 4)))
    last = {"number": 1, "actions": {"white": [[3, 3], [2, 3], [2, 4]]}, "events": t.events}
    engine = Engine(dirs=[str(BASE_DIR / "games/cyclotron/templates")])
    for flipped in (False, True):
        html = engine.get_template(ui.board_template).render(
            Context({"board": ui.board(s.to_json(), flipped=flipped, last=last), "board_label": "Position"}))
        svg = xml.dom.minidom.parseString(html.strip()).documentElement
        assert svg.getAttribute("id") == "board"
        assert svg.getAttribute("class") == "board board-cyclotron" + (" flipped" if flipped else "")
        assert svg.getAttribute("aria-label") == "Position after turn 1"
        squares = [g for g in svg.getElementsByTagName("g") if g.getAttribute("data-pick")]
        assert len(squares) == 36 and {g.getAttribute("data-pick") for g in squares} == {
            f"sq:{r},{c}" for r in range(6) for c in range(6)}
        for g in squares:
            assert "square" in g.getAttribute("class").split()
            assert g.getElementsByTagName("title") and g.getAttribute("aria-label")
            assert any(r.getAttribute("class") == "hit" for r in g.getElementsByTagName("rect"))
        pieces = [g for g in svg.getElementsByTagName("g") if "piece" in g.getAttribute("class").split()]
        assert sorted(g.getAttribute("class") for g in pieces) == ["piece black scissors", "piece white paper"]
        assert (BASE_DIR / "games/cyclotron/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.cyclotron.rules, games.cyclotron.bots, games.cyclotron.ui, sys; "
            "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
            "sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0
