"""Every rule of Expendibots (shared/seeds/expendibots-rules.txt), checked on small positions; property tests
over random games; the 2020 referee's log format; the board adapter."""
import json
import random
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from games.engine import load_game, registered_names
from games.engine.api import IllegalAction, InvalidParams, LogFormatError
from games.engine.history import read_log, replay_checked
from games.expendibots import logs, make_game
from games.expendibots import bots as ev

ROOT = Path(__file__).resolve().parent.parent
GAME = load_game("expendibots")
ON_BOARD = [(x, y) for y in range(8) for x in range(8)]
WHITE_START = [(x, y) for y in (0, 1) for x in (0, 1, 3, 4, 6, 7)]
BLACK_START = [(x, y) for y in (6, 7) for x in (0, 1, 3, 4, 6, 7)]


def position(stacks, turn=0, **extra):
    """A state from a compact list of (player, (x, y), count); ``turn`` even: White to move."""
    return GAME.state_from_json({"turn": turn, "stacks": [{"square": list(sq), "player": p, "count": n}
                                                          for p, sq, n in stacks], **extra})


def stacks_of(state):
    return sorted((s["player"], tuple(s["square"]), s["count"]) for s in state.to_json()["stacks"])


def moves_from(state, sq):
    return {a for a in state.legal_actions(state.to_move) if a[0] == "MOVE" and a[2] == sq}


def brute_force_actions(state, player):
    """The legal actions straight from the rules' wording, from the JSON only (no engine tables)."""
    js = state.to_json()
    if js["result"] is not None or js["to_move"] != player:
        return set()
    owner = {tuple(s["square"]): (s["player"], s["count"]) for s in js["stacks"]}
    acts = set()
    for sq, (p, n) in owner.items():
        if p != player:
            continue
        acts.add(("BOOM", sq))  # any own stack may explode
        for dx, dy in ((0, 1), (0, -1), (-1, 0), (1, 0)):  # the four cardinal directions
            for d in range(1, n + 1):  # at least one square, at most n
                dest = (sq[0] + dx * d, sq[1] + dy * d)
                if dest not in ON_BOARD:  # not off the board
                    continue
                if dest in owner and owner[dest][0] != player:  # not onto the opponent (but over it)
                    continue
                for k in range(1, n + 1):  # some or all of the tokens
                    acts.add(("MOVE", k, sq, dest))
    return acts


def play(state, *actions):
    for a in actions:
        state.apply_action(state.to_move, a)
    return state


def illegal(state, player, action, match):
    before = (state.to_json(), dict(state.history))
    with pytest.raises(IllegalAction, match=match or None):
        state.check_action(player, action)
    with pytest.raises(IllegalAction, match=match or None):
        state.apply_action(player, action)
    assert (state.to_json(), dict(state.history)) == before


# --- setup and metadata ------------------------------------------------------------------------------

def test_registry_and_metadata():
    assert "expendibots" in registered_names()
    info = GAME.info
    assert (info.name, info.title, info.players, info.simultaneous, info.max_turns) == \
        ("expendibots", "Expendibots", ("white", "black"), False, 500)
    assert make_game() is GAME
    with pytest.raises(InvalidParams):
        make_game(size=9)


def test_initial_position_exactly():
    s = GAME.new_initial_state()
    assert stacks_of(s) == sorted([("white", sq, 1) for sq in WHITE_START] + [("black", sq, 1) for sq in BLACK_START])
    js = s.to_json()
    assert js["turn"] == 0 and js["to_move"] == "white" and js["to_act"] == ["white"]
    assert js["tokens"] == {"white": 12, "black": 12} and js["result"] is None and js["repetitions"] == 1
    assert s.players_to_act() == ["white"] and not s.is_terminal() and s.result() is None
    assert s.legal_actions("black") == []
    acts = s.legal_actions("white")
    # 12 booms; 38 single steps: row 0 has 2+3+3+3+3+2, row 1 has 3+4+4+4+4+3.
    assert len(acts) == len(set(acts)) == 50
    assert set(acts) == brute_force_actions(s, "white")
    assert s.returns() == {"white": 0.0, "black": 0.0}


def test_white_first_then_alternate():
    s = GAME.new_initial_state()
    illegal(s, "black", ("MOVE", 1, (0, 6), (0, 5)), "it is white's turn, not black's")
    play(s, ("MOVE", 1, (0, 1), (0, 2)))
    assert s.players_to_act() == ["black"] and s.legal_actions("white") == []
    illegal(s, "white", ("MOVE", 1, (0, 2), (0, 3)), "it is black's turn")
    illegal(s, "red", ("BOOM", (0, 6)), "unknown player")
    t = s.apply_action("black", ("MOVE", 1, (0, 6), (0, 5)))
    assert t.number == 2 and t.actions == {"black": ("MOVE", 1, (0, 6), (0, 5))} and t.events == []
    with pytest.raises(IllegalAction, match="a turn is exactly one action"):
        s.apply_actions({"white": ("MOVE", 1, (0, 2), (0, 3)), "black": ("BOOM", (0, 5))})
    with pytest.raises(IllegalAction, match="white is to move") as exc:
        s.apply_actions({"black": ("BOOM", (0, 5))})
    assert exc.value.player == "black"


# --- moves --------------------------------------------------------------------------------------------

def test_move_distance_up_to_stack_size_in_four_directions():
    s = position([("white", (3, 3), 3), ("black", (7, 7), 1)])
    dests = {a[3] for a in moves_from(s, (3, 3))}
    assert dests == {(3, 4), (3, 5), (3, 6), (3, 2), (3, 1), (3, 0), (2, 3), (1, 3), (0, 3), (4, 3), (5, 3), (6, 3)}
    assert len(moves_from(s, (3, 3))) == 12 * 3
    illegal(s, "white", ("MOVE", 1, (3, 3), (3, 7)), "a stack of 3 moves at most 3 squares")
    illegal(s, "white", ("MOVE", 1, (3, 3), (4, 4)), "never diagonally")
    illegal(s, "white", ("MOVE", 1, (3, 3), (3, 3)), "at least one square")


def test_a_stack_of_two_moves_at_most_two_squares():
    s = position([("white", (3, 3), 2), ("black", (7, 7), 1)])
    illegal(s, "white", ("MOVE", 1, (3, 3), (6, 3)), "a stack of 2 moves at most 2 squares")
    illegal(s, "white", ("MOVE", 3, (3, 3), (3, 4)), "a stack of 2 can move at most 2 tokens")
    illegal(s, "white", ("MOVE", 0, (3, 3), (3, 4)), "at least 1 token")
    illegal(s, "white", ("MOVE", -1, (3, 3), (3, 4)), "at least 1 token")


def test_some_or_all_tokens_move_and_split():
    s = position([("white", (3, 3), 3), ("black", (7, 7), 1)])
    play(s, ("MOVE", 2, (3, 3), (3, 5)))
    assert stacks_of(s) == [("black", (7, 7), 1), ("white", (3, 3), 1), ("white", (3, 5), 2)]
    s = position([("white", (3, 3), 3), ("black", (7, 7), 1)])
    play(s, ("MOVE", 3, (3, 3), (0, 3)))
    assert stacks_of(s) == [("black", (7, 7), 1), ("white", (0, 3), 3)]


def test_moving_onto_own_stack_joins_it():
    s = position([("white", (3, 3), 2), ("white", (3, 4), 4), ("black", (7, 7), 1)])
    play(s, ("MOVE", 2, (3, 3), (3, 4)))
    assert stacks_of(s) == [("black", (7, 7), 1), ("white", (3, 4), 6)]
    # No limit to the size of a stack: a 6-stack moves up to 6 squares.
    play(s, ("MOVE", 1, (7, 7), (7, 6)))
    assert ("MOVE", 6, (3, 4), (3, 0)) in s.legal_actions("white")


def test_moves_jump_over_enemies_but_not_onto_them():
    s = position([("white", (3, 3), 2), ("black", (3, 4), 1), ("black", (2, 3), 5)])
    assert ("MOVE", 1, (3, 3), (3, 5)) in s.legal_actions("white")  # over the black stack
    assert ("MOVE", 2, (3, 3), (1, 3)) in s.legal_actions("white")
    illegal(s, "white", ("MOVE", 1, (3, 3), (3, 4)), r"may not move onto \(3, 4\): it holds black's tokens")
    play(s, ("MOVE", 2, (3, 3), (3, 5)))
    assert stacks_of(s) == [("black", (2, 3), 5), ("black", (3, 4), 1), ("white", (3, 5), 2)]


def test_no_move_off_the_board():
    s = position([("white", (0, 0), 3), ("black", (7, 7), 1)])
    assert {a[3] for a in moves_from(s, (0, 0))} == {(0, 1), (0, 2), (0, 3), (1, 0), (2, 0), (3, 0)}
    illegal(s, "white", ("MOVE", 1, (0, 0), (-1, 0)), r"\(-1, 0\) is off the board")
    illegal(s, "white", ("MOVE", 1, (0, 0), (0, 8)), "off the board")
    illegal(s, "white", ("BOOM", (8, 8)), "off the board")


def test_only_own_stacks_act():
    s = position([("white", (0, 0), 1), ("black", (7, 7), 1)])
    illegal(s, "white", ("MOVE", 1, (7, 7), (7, 6)), r"no white stack at \(7, 7\)")
    illegal(s, "white", ("MOVE", 1, (4, 4), (4, 5)), r"no white stack at \(4, 4\)")
    illegal(s, "white", ("BOOM", (7, 7)), r"no white stack at \(7, 7\) to explode")
    for bad in [("MOVE", True, (0, 0), (0, 1)), ("MOVE", 1, [0, 0], (0, 1)), ("MOVE", 1.0, (0, 0), (0, 1)),
                ["BOOM", (0, 0)], ("BOOM",), ("BOOM", (0, 0), (0, 1)), ("JUMP", (0, 0)), (), "BOOM", None,
                ("MOVE", 1, (0, 0)), ("BOOM", (0, True))]:
        illegal(s, "white", bad, "malformed action")


def test_quiz_figure_2a_a_two_stack_has_twelve_moves():
    # The red 2-stack: 8 squares within 2 steps, 2 of them held by Black, 1 or 2 tokens to each of the 6 others.
    s = position([("white", (3, 3), 2), ("black", (3, 5), 1), ("black", (4, 3), 1), ("black", (7, 7), 1)])
    assert len(moves_from(s, (3, 3))) == 12
    assert {a[3] for a in moves_from(s, (3, 3))} == {(3, 4), (3, 2), (3, 1), (2, 3), (1, 3), (5, 3)}


def test_figure_2b_a_single_token_at_the_edge_has_two_moves():
    # On the left edge: Black to the right, own 2-stack above, empty below.
    s = position([("white", (0, 3), 1), ("white", (0, 4), 2), ("black", (1, 3), 1), ("black", (7, 7), 1)])
    assert moves_from(s, (0, 3)) == {("MOVE", 1, (0, 3), (0, 4)), ("MOVE", 1, (0, 3), (0, 2))}
    play(s, ("MOVE", 1, (0, 3), (0, 4)))
    assert ("white", (0, 4), 3) in stacks_of(s)


def test_quiz_figure_2b_green_stack_twenty_one_moves_reconstructed():
    # The figure is not in the text: a 3-stack with 7 reachable squares has 7 * 3 = 21 distinct moves.
    # Up: (6, 6) is Black, (6, 7) beyond it is free; down: (6, 4), then over Black (6, 3) to (6, 2); left:
    # onto its own 2-stack at (5, 5), then (4, 5), (3, 5); right: (7, 5), then the edge.
    s = position([("white", (6, 5), 3), ("black", (6, 6), 1), ("black", (6, 3), 1), ("white", (5, 5), 2),
                  ("black", (0, 0), 1)])
    dests = {a[3] for a in moves_from(s, (6, 5))}
    assert dests == {(6, 7), (6, 4), (6, 2), (5, 5), (4, 5), (3, 5), (7, 5)}
    assert len(moves_from(s, (6, 5))) == 21


# --- booms ------------------------------------------------------------------------------------------

def test_boom_removes_the_stack_and_every_stack_in_its_3x3_area():
    s = position([("white", (3, 3), 2), ("black", (4, 4), 3), ("white", (2, 2), 1), ("black", (3, 5), 1),
                  ("white", (0, 0), 1), ("black", (7, 7), 1)])
    t = s.apply_action("white", ("BOOM", (3, 3)))
    # (4, 4) and (2, 2) are in the 3x3 area (diagonals count); (3, 5) is 2 away from (3, 3) but next to (4, 4).
    assert stacks_of(s) == [("black", (7, 7), 1), ("white", (0, 0), 1)]
    assert t.events[0]["boom"] == [3, 3]
    assert sorted(map(tuple, t.events[0]["exploded"])) == sorted([(3, 3, "white", 2), (4, 4, "black", 3),
                                                                 (2, 2, "white", 1), (3, 5, "black", 1)])
    assert t.events[0]["exploded"][0] == [3, 3, "white", 2]
    assert s.to_json()["tokens"] == {"white": 1, "black": 1}


def test_boom_does_not_jump_a_gap():
    s = position([("white", (3, 3), 1), ("black", (5, 3), 4), ("black", (3, 5), 1)])
    play(s, ("BOOM", (3, 3)))
    assert stacks_of(s) == [("black", (3, 5), 1), ("black", (5, 3), 4)]
    assert s.result().text == "winner: black" and s.result().returns == {"white": 0.0, "black": 1.0}


def test_friendly_fire():
    s = position([("white", (0, 0), 1), ("white", (1, 1), 4), ("white", (2, 2), 2), ("white", (5, 5), 1),
                  ("black", (7, 7), 1)])
    play(s, ("BOOM", (0, 0)))
    assert stacks_of(s) == [("black", (7, 7), 1), ("white", (5, 5), 1)]


def test_figure_3a_everything_in_the_area_explodes_draw():
    s = position([("white", (3, 3), 1), ("white", (2, 2), 2), ("black", (4, 4), 1), ("black", (2, 4), 3),
                  ("black", (4, 3), 1), ("white", (3, 2), 1)])
    t = s.apply_action("white", ("BOOM", (3, 3)))
    assert stacks_of(s) == [] and len(t.events[0]["exploded"]) == 6
    assert s.is_terminal() and s.result().text == "draw detected: no tokens remaining"
    assert s.result().returns == {"white": 0.5, "black": 0.5} and s.players_to_act() == []


def test_figure_3b_chain_reaction():
    red = ("white", (1, 1), 1)
    s = position([red, ("black", (2, 2), 3), ("black", (3, 3), 2), ("black", (4, 4), 1), ("black", (4, 2), 1),
                  ("white", (5, 5), 5), ("white", (7, 1), 2), ("black", (4, 0), 1)])
    t = s.apply_action("white", ("BOOM", (1, 1)))
    # Red, the Black 3-stack, then the 2-stack, the Black 1-stacks next to it, and the White 5-stack go;
    # the White 2-stack and the lowermost Black 1-stack are out of range.
    assert stacks_of(s) == [("black", (4, 0), 1), ("white", (7, 1), 2)]
    gone = [tuple(e[:2]) for e in t.events[0]["exploded"]]
    assert gone[:3] == [(1, 1), (2, 2), (3, 3)] and set(gone[3:5]) == {(4, 4), (4, 2)} and gone[5] == (5, 5)
    assert not s.is_terminal()


# --- the end ------------------------------------------------------------------------------------------

def test_wipe_out_wins():
    s = position([("white", (0, 0), 2), ("black", (1, 1), 3), ("black", (2, 2), 1), ("white", (6, 6), 1)])
    t = s.apply_action("white", ("BOOM", (0, 0)))
    assert s.result().text == "winner: white" and s.result().winner == "white"
    assert s.returns() == {"white": 1.0, "black": 0.0}
    assert s.legal_actions("black") == [] and s.players_to_act() == [] and s.to_json()["to_move"] is None
    assert t.number == 1
    illegal(s, "black", ("BOOM", (6, 6)), "the game is over")


def test_fourth_occurrence_is_a_draw_initial_position_counts():
    s = GAME.new_initial_state()
    shuffle = [("MOVE", 1, (0, 1), (0, 2)), ("MOVE", 1, (0, 6), (0, 5)),
               ("MOVE", 1, (0, 2), (0, 1)), ("MOVE", 1, (0, 5), (0, 6))]
    for n in (2, 3):
        play(s, *shuffle)
        assert s.repetitions() == n and not s.is_terminal()
    play(s, *shuffle[:3])
    assert not s.is_terminal()
    play(s, shuffle[3])
    assert s.turn == 12 and s.result().text == "draw detected: game state occurred 4 times."
    assert s.returns() == {"white": 0.5, "black": 0.5}


def test_repetition_needs_the_same_side_to_move():
    s = GAME.new_initial_state()
    # White's 2-stack goes up 1, up 1, down 2 while Black goes out and back: the same stacks after 5 actions,
    # but with Black to move.
    play(s, ("MOVE", 1, (0, 0), (0, 1)), ("MOVE", 1, (0, 6), (0, 5)))
    start = stacks_of(s)
    key = ev.position_key(s)
    play(s, ("MOVE", 2, (0, 1), (0, 2)), ("MOVE", 1, (0, 5), (0, 4)), ("MOVE", 2, (0, 2), (0, 3)),
         ("MOVE", 1, (0, 4), (0, 5)), ("MOVE", 2, (0, 3), (0, 1)))
    assert stacks_of(s) == start and s.to_move == "black"
    assert ev.position_key(s) != key and s.repetitions() == 1


def test_after_each_players_250th_turn_a_draw():
    s = position([("white", (0, 0), 1), ("black", (7, 7), 1)], turn=498)
    play(s, ("MOVE", 1, (0, 0), (0, 1)))
    assert not s.is_terminal() and s.to_move == "black"
    play(s, ("MOVE", 1, (7, 7), (7, 6)))
    assert s.turn == 500 and s.result().text == "draw detected: maximum number of turns reached."


def test_a_win_counts_before_the_turn_limit():
    s = position([("white", (0, 0), 1), ("black", (1, 1), 2), ("black", (7, 7), 1)], turn=499)
    play(s, ("BOOM", (1, 1)))  # Black's 250th turn
    assert s.turn == 500 and s.result().text == "winner: black"


def test_repetition_counts_before_the_turn_limit():
    s = position([("white", (0, 0), 1), ("black", (7, 7), 1)], turn=488)
    cycle = [("MOVE", 1, (0, 0), (0, 1)), ("MOVE", 1, (7, 7), (7, 6)),
             ("MOVE", 1, (0, 1), (0, 0)), ("MOVE", 1, (7, 6), (7, 7))]
    play(s, *cycle, *cycle, *cycle[:3])
    assert not s.is_terminal()
    play(s, cycle[3])
    assert s.turn == 500 and s.result().text == "draw detected: game state occurred 4 times."


def test_a_win_counts_before_repetition():
    # A state given as seen 4 times but in which Black has no tokens: the wipe-out decides.
    s = position([("white", (0, 0), 1)], turn=20, repetitions=4)
    assert s.result().text == "winner: white"
    s = position([("white", (0, 0), 1), ("black", (3, 3), 1)], turn=20, repetitions=4)
    assert s.result().text == "draw detected: game state occurred 4 times."


# --- forms --------------------------------------------------------------------------------------------

def test_action_forms():
    move, boom = ("MOVE", 2, (3, 1), (3, 3)), ("BOOM", (4, 6))
    assert GAME.action_to_json(move) == ["MOVE", 2, [3, 1], [3, 3]]
    assert GAME.action_to_json(boom) == ["BOOM", [4, 6]]
    assert GAME.action_from_json(["MOVE", 2, [3, 1], [3, 3]]) == move
    assert GAME.action_from_json(["BOOM", [4, 6]]) == boom
    assert GAME.action_to_text(move) == "MOVE 2 from (3, 1) to (3, 3)."
    assert GAME.action_to_text(boom) == "BOOM at (4, 6)."
    assert GAME.action_from_text("MOVE 2 from (3, 1) to (3, 3).") == move
    assert GAME.action_from_text("  BOOM at ( 4 ,6 )  ") == boom
    for bad in ["MOVE from (3, 1) to (3, 3).", "BOOM (4, 6).", "boom at (4, 6).", "", "MOVE 2 from (3, 1)"]:
        with pytest.raises(IllegalAction, match="malformed action"):
            GAME.action_from_text(bad, "white")
    with pytest.raises(IllegalAction, match="malformed action"):
        GAME.action_from_text(None)
    # Off-board squares are well formed: the rules reject them.
    assert GAME.action_from_json(["BOOM", [10**30, -1]]) == ("BOOM", (10**30, -1))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-10**40, max_value=10**40)
    | st.floats(allow_nan=False) | st.text(max_size=8) | st.sampled_from(["MOVE", "BOOM", "move"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20)
NEAR_ACTIONS = st.one_of(
    st.tuples(st.just("MOVE"), JSON_VALUES, JSON_VALUES, JSON_VALUES).map(list),
    st.tuples(st.just("MOVE"), st.integers(), st.lists(st.integers(), max_size=3),
              st.lists(st.integers(), max_size=3)).map(list),
    st.tuples(st.just("BOOM"), st.lists(JSON_VALUES | st.integers(), max_size=3)).map(list),
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON_VALUES, NEAR_ACTIONS))
def test_action_from_json_is_total(data):
    s = GAME.new_initial_state()
    try:
        action = GAME.action_from_json(data, "white")
    except IllegalAction as exc:
        assert exc.rule.startswith("malformed action: ")
        return
    assert GAME.action_to_json(action) == data  # only the exact shapes are accepted
    json.dumps(GAME.action_to_json(action))
    try:  # and the rules judge it without any other exception
        s.check_action("white", action)
    except IllegalAction:
        pass


def test_action_from_json_survives_huge_and_deep_values():
    s = GAME.new_initial_state()
    deep = []
    for _ in range(50000):
        deep = [deep]
    for data in [10**5000, deep, ["MOVE", deep, [0, 0], [0, 1]], {"a": deep}]:
        with pytest.raises(IllegalAction, match="malformed action"):
            GAME.action_from_json(data, "white")
    for data in [["MOVE", 10**5000, [0, 1], [0, 2]], ["BOOM", [10**5000, 1]], ["MOVE", 1, [0, -10**5000], [0, 1]]]:
        action = GAME.action_from_json(data, "white")
        with pytest.raises(IllegalAction):
            s.check_action("white", action)
        GAME.action_to_text(action)
    with pytest.raises(LogFormatError):
        logs.parse("[white] - MOVE " + "9" * 5000 + " from (0, 1) to (0, 2).\n")


def random_game(rng, plies):
    """The states (independent clones, from the start) and the records of a random game of at most ``plies``."""
    s = GAME.new_initial_state()
    seen = [s.clone()]
    turns = []
    for _ in range(plies):
        if s.is_terminal():
            break
        acts = s.legal_actions(s.to_move)
        # Booms end random games fast: prefer moves most of the time.
        moves = [a for a in acts if a[0] == "MOVE"]
        a = rng.choice(moves if moves and rng.random() < 0.85 else acts)
        turns.append({s.to_move: a})
        s.apply_action(s.to_move, a)
        seen.append(s.clone())
    return seen, turns


ILLEGAL_PROBES = [("MOVE", 1, (0, 0), (0, 7)), ("MOVE", 13, (3, 3), (3, 4)), ("BOOM", (5, 5)), ("BOOM", (9, 0)),
                  ("MOVE", 1, (2, 2), (3, 3)), ("MOVE", 2, (0, 1), (0, 2)), ("BOOM", (0, 6)), ("BOOM", (0, 0))]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(10, 120))
def test_random_games_keep_invariants(seed, plies):
    rng = random.Random(seed)
    states, _ = random_game(rng, plies)
    prev = None
    for s in states:
        js = s.to_json()
        total = {"white": 0, "black": 0}
        for stack in js["stacks"]:
            assert stack["count"] >= 1
            total[stack["player"]] += stack["count"]
        assert total == js["tokens"] == {"white": s.tokens[0], "black": s.tokens[1]}
        if prev is not None:  # token counts never grow
            assert total["white"] <= prev["white"] and total["black"] <= prev["black"]
        prev = total
        for seat in ("white", "black"):
            acts = s.legal_actions(seat)
            assert len(acts) == len(set(acts))
            assert set(acts) == brute_force_actions(s, seat)
        # to_json / state_from_json round trip
        again = GAME.state_from_json(json.loads(json.dumps(js)))
        assert again.to_json() == js
        if not s.is_terminal():
            assert set(again.legal_actions(s.to_move)) == set(s.legal_actions(s.to_move))
            # Illegal actions raise and change nothing.
            legal = set(s.legal_actions(s.to_move))
            for probe in ILLEGAL_PROBES:
                if probe not in legal:
                    illegal(s, s.to_move, probe, "")
            # Clones are independent both ways.
            c = s.clone()
            before = (s.to_json(), dict(s.history))
            c.apply_action(c.to_move, rng.choice(c.legal_actions(c.to_move)))
            assert (s.to_json(), dict(s.history)) == before
            c2 = s.clone()
            s2 = s.clone()
            s2.apply_action(s2.to_move, s2.legal_actions(s2.to_move)[0])
            assert c2.to_json() == before[0] and dict(c2.history) == before[1]
            # The evaluation is zero-sum.
            assert ev.evaluate(s, "white") == -ev.evaluate(s, "black")
            assert sorted(ev.order_actions(s, s.to_move, list(legal)), key=repr) == sorted(legal, key=repr)
    last = states[-1]
    if last.is_terminal():
        res = last.result()
        assert ev.evaluate(last, "white") in (0.0, ev.WIN, -ev.WIN)
        assert sum(res.returns.values()) == 1.0


def test_state_from_json_rejects_nonsense():
    for bad in [None, [], {"turn": -1}, {"turn": 1, "to_move": "white"}, {"turn": True},
                {"stacks": [{"square": [0, 0], "player": "white", "count": 0}]},
                {"stacks": [{"square": [0, 9], "player": "white", "count": 1}]},
                {"stacks": [{"square": [0, 0], "player": "red", "count": 1}]},
                {"stacks": [{"square": [0, 0], "player": "white", "count": 1}] * 2},
                {"stacks": [], "result": "winner: nobody"}]:
        with pytest.raises(ValueError):
            GAME.state_from_json(bad)


def test_text_board():
    text = GAME.new_initial_state().to_text()
    assert text.splitlines()[0] == "turn 0; tokens: white 12, black 12; white to move"
    assert " 7 |[1]|[1]|   |[1]|[1]|   |[1]|[1]|" in text and " 0 |(1)|(1)|   |(1)|(1)|   |(1)|(1)|" in text


def test_pure_modules_do_not_import_django():
    code = ("import games.expendibots.rules, games.expendibots.bots, games.expendibots.logs, sys; "
            "assert not any(m.startswith('django') for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# --- bots' evaluation ----------------------------------------------------------------------------------

def test_evaluation_prefers_material_and_sees_booms():
    s = position([("white", (0, 0), 3), ("black", (7, 7), 1)], turn=2)
    assert ev.evaluate(s, "white") > 100
    # White to move, a boom wins 3 tokens for 1: ordered first, and the position is good for White.
    stacks = [("white", (3, 3), 1), ("black", (4, 4), 3), ("black", (7, 7), 2), ("white", (0, 0), 1)]
    s = position(stacks)
    assert ev.order_actions(s, "white", s.legal_actions("white"))[0] == ("BOOM", (3, 3))
    # The same stacks with Black to move (the boom may be dodged): worse for White.
    assert ev.evaluate(s, "white") > ev.evaluate(position(stacks, turn=1), "white") + 50
    assert ev.position_key(s) == ev.position_key(s.clone())
    done = play(position([("white", (3, 3), 1), ("black", (4, 4), 3), ("white", (0, 0), 1)]), ("BOOM", (3, 3)))
    assert ev.evaluate(done, "white") == ev.WIN and ev.evaluate(done, "black") == -ev.WIN


# --- logs ---------------------------------------------------------------------------------------------

REAL_STYLE_LOG = """\
[game ] - Start game log at Wed Apr 29 10:15:42 2020
[white] - MOVE 1 from (3, 1) to (3, 2).
[black] - BOOM at (0, 7).
[white] - MOVE 1 from (4, 1) to (4, 2).
[black] - BOOM at (3, 7).

[white] - MOVE 1 from (3, 2) to (3, 3).
[black] - BOOM at (6, 7).
[over ] - winner: white
"""


def test_real_style_log_replays():
    log = logs.parse(REAL_STYLE_LOG)
    assert log.result == "winner: white" and len(log.turns) == 6
    assert log.turns[0] == {"white": ("MOVE", 1, (3, 1), (3, 2))} and log.turns[1] == {"black": ("BOOM", (0, 7))}
    rep = replay_checked(GAME, log.turns)
    assert rep.outcome == "winner: white" and rep.applied == 6 and rep.illegal is None
    assert rep.records[1] == {"black": ["BOOM", [0, 7]]}
    assert read_log(REAL_STYLE_LOG, "expendibots")[0] == "expendibots"
    assert logs.write(log.turns, log.result) == "\n".join(
        line for line in REAL_STYLE_LOG.splitlines() if line.strip() and not line.startswith("[game")) + "\n"


def test_replay_outcomes_unfinished_and_illegal():
    log = logs.parse(REAL_STYLE_LOG)
    assert replay_checked(GAME, log.turns[:4]).outcome == "unfinished after 4 turns"
    bad = logs.parse("[white] - MOVE 1 from (3, 1) to (3, 2).\n[black] - BOOM at (0, 7).\n"
                     "[white] - MOVE 1 from (3, 2) to (3, 4).\n")
    rep = replay_checked(GAME, bad.turns)
    assert rep.outcome == "illegal action at turn 3 by white" and rep.applied == 2
    assert "a stack of 1 moves at most 1 square" in rep.illegal.rule
    # The referee's own record of an illegal action ends the log and replays as one.
    err = logs.parse("[white] - MOVE 1 from (3, 1) to (3, 2).\n"
                     "[error] - illegal action detected (black): ('MOVE', 1, (0, 7), (0, 5)).\n")
    assert err.turns[-1] == {"black": ("MOVE", 1, (0, 7), (0, 5))} and err.result is None
    assert replay_checked(GAME, err.turns).outcome == "illegal action at turn 2 by black"
    assert logs.parse(logs.write(err.turns)).turns == err.turns
    odd = logs.parse("[error] - illegal action detected (white): <object object at 0x7f>.\n")
    assert replay_checked(GAME, odd.turns).outcome == "illegal action at turn 1 by white"
    assert logs.parse(logs.write(odd.turns)).turns == odd.turns
    extra = logs.parse(REAL_STYLE_LOG.replace("[over ] - winner: white", "[white] - MOVE 1 from (3, 3) to (3, 4)."))
    rep = replay_checked(GAME, extra.turns)
    assert rep.outcome == "winner: white" and rep.extra_turns == 1


@pytest.mark.parametrize("text,line,message", [
    ("turn 1: upper: THROW symbol r to (4, 0)\n", 1, "not a referee log line"),
    ("[black] - MOVE 1 from (0, 6) to (0, 5).\n", 1, "expected white's action"),
    ("[white] - MOVE 1 from (0, 1) to (0, 2).\n\n[white] - MOVE 1 from (0, 2) to (0, 3).\n", 3, "expected black's"),
    ("[white] - MOVE one from (0, 1) to (0, 2).\n", 1, "cannot read the action"),
    ("[white] - JUMP to (0, 2).\n", 1, "cannot read the action"),
    ("[white] - BOOM at (0, 1).\n[over ] - winner: black\n[black] - BOOM at (0, 6).\n", 3, "text after the result"),
    ("[white] - BOOM at (0, 1).\n[over ] - who knows\n", 2, "cannot read the result"),
    ("[white] - BOOM at (0, 1).\n[game ] - Start game log at Wed Apr 29 10:15:42 2020\n", 2, "unexpected game line"),
    ("[white] - BOOM at (0, 1).\n* black's turn\n", 2, "not a referee log line"),
    ("[error] - illegal action detected (white): None.\n[black] - BOOM at (0, 6).\n", 2, "text after the illegal"),
    ("", 1, "empty"),
])
def test_parse_errors_name_the_line(text, line, message):
    with pytest.raises(LogFormatError, match=message) as exc:
        logs.parse(text)
    assert exc.value.line == line


def test_log_formats_do_not_overlap():
    from games.ropasci360 import logs as rps_logs
    text = logs.write([{"white": ("MOVE", 1, (0, 1), (0, 2))}], None)
    with pytest.raises(LogFormatError) as exc:
        rps_logs.parse(text)
    assert exc.value.line == 1
    with pytest.raises(LogFormatError) as exc:
        logs.parse(rps_logs.EXAMPLE + "\n")
    assert exc.value.line == 1
    assert logs.parse(logs.EXAMPLE).turns == [{"white": GAME.action_from_text(logs.EXAMPLE[10:])}]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_write_parse_round_trip(seed):
    states, turns = random_game(random.Random(seed), 200)
    s = states[-1]
    result = s.result().text if s.is_terminal() else None
    text = logs.write(turns, result)
    log = logs.parse(text)
    assert log.turns == turns and log.result == result
    rep = replay_checked(GAME, log.turns)
    assert rep.outcome == (result or f"unfinished after {len(turns)} turns") and rep.applied == len(turns)
    assert rep.state.to_json() == s.to_json()


# --- the board adapter --------------------------------------------------------------------------------

def test_ui_words_and_paths():
    from games.expendibots.ui import UI
    ui = UI(GAME)
    assert ui.seat_name("white") == "White"
    assert ui.action_words("white", ["MOVE", 2, [3, 1], [3, 3]]) == "Move 2 tokens from (3, 1) to (3, 3)"
    assert ui.action_words("white", ["MOVE", 1, [3, 1], [3, 2]]) == "Move 1 token from (3, 1) to (3, 2)"
    assert ui.action_words("black", ["BOOM", [4, 6]]) == "Boom at (4, 6)"
    assert ui.action_path("white", ["MOVE", 2, [3, 1], [3, 3]]) == [
        {"key": "sq:3,1"}, {"key": "n:2", "label": "move 2 tokens"}, {"key": "sq:3,3"}]
    assert ui.action_path("white", ["MOVE", 1, [3, 1], [3, 2]])[1]["label"] == "move 1 token"
    assert ui.action_path("black", ["BOOM", [4, 6]]) == [{"key": "sq:4,6"}, {"key": "boom", "label": "Boom!"}]
    assert ui.action_group("white", ["BOOM", [4, 6]]) == "Booms"
    assert ui.action_group("white", ["MOVE", 1, [3, 1], [3, 2]]) == "Moves"
    assert ui.event_words({"boom": [4, 6], "exploded": [[4, 6, "black", 2], [3, 5, "white", 3], [5, 5, "black", 3]]}) \
        == "Boom at (4, 6): 3 white and 5 black tokens exploded"
    assert ui.event_words({"boom": [4, 6], "exploded": [[4, 6, "black", 1]]}) == \
        "Boom at (4, 6): 1 black token exploded"
    obs = GAME.new_initial_state().to_json()
    assert ui.seat_stats(obs, "white") == [("Tokens", 12), ("Stacks", 12)] and ui.material(obs, "black") == 12
    assert ui.chart_label == "Tokens"
    assert ui.result_reason({"text": "winner: white"}, obs) == "Black has no tokens left."
    assert ui.result_reason({"text": "draw detected: game state occurred 4 times."}, obs) == \
        "The same position occurred a fourth time."


def test_ui_board_renders_as_svg():
    from django.template import Context, Engine
    from games.expendibots.ui import UI
    ui = UI(GAME)
    s = GAME.new_initial_state()
    play(s, ("MOVE", 1, (3, 1), (3, 2)), ("MOVE", 1, (3, 6), (3, 5)), ("MOVE", 1, (3, 2), (3, 3)),
         ("MOVE", 1, (3, 5), (3, 4)))
    t = s.apply_action("white", ("BOOM", (3, 3)))
    last = {"number": t.number, "actions": {k: GAME.action_to_json(v) for k, v in t.actions.items()},
            "events": t.events}
    engine = Engine(dirs=[str(ROOT / "games" / "expendibots" / "templates")])
    template = engine.get_template(ui.board_template)
    for flipped in (False, True):
        ctx = ui.board(s.to_json(), flipped=flipped, last=last)
        svg = template.render(Context({"board": ctx, "board_label": "Position"}))
        root = ElementTree.fromstring(svg)
        assert root.get("id") == "board" and root.get("data-turn") == "5"
        assert root.get("class") == "board board-expendibots" + (" flipped" if flipped else "")
        assert root.get("aria-label") == "Position after turn 5"
        ns = "{http://www.w3.org/2000/svg}"
        squares = [g for g in root.iter(ns + "g") if "square" in (g.get("class") or "").split()]
        assert len(squares) == 64 and all(g.find(ns + "rect").get("class") == "hit" for g in squares)
        by_pick = {g.get("data-pick"): g for g in squares}
        assert "boom" in by_pick["sq:3,3"].get("class") and "exploded" in by_pick["sq:3,4"].get("class")
        stacks = [g for g in root.iter(ns + "g") if "stack" in (g.get("class") or "").split()]
        assert len(stacks) == 22 and {g.get("data-player") for g in stacks} == {"white", "black"}
        # Row 0 at the bottom unless flipped.
        y0 = float(by_pick["sq:0,0"].find(ns + "rect").get("y"))
        y7 = float(by_pick["sq:0,7"].find(ns + "rect").get("y"))
        assert (y0 > y7) != flipped
    ctx = ui.board(None)
    assert ctx["turn"] == 0 and not ctx["flipped"] and len(ctx["squares"]) == 64
