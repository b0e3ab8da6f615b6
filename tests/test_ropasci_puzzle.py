"""RoPaSci 360 single-player puzzle: one test per rule (docs/games/ropasci_puzzle.md), the solver (optimal
against a plain breadth-first search, solutions that replay through the engine, the library's optimal turn
counts), ``manage.py solve``, the bots and the UI adapter."""
from __future__ import annotations

import io
import itertools
import json
import math
import random
import time

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, InvalidParams
from games.ropasci360.rules import HEXES
from games.ropasci_puzzle import DEFAULTS, make_game
from games.bots import make_bot
from games.ropasci_puzzle.bots import BOTS
from games.ropasci_puzzle.position import EXAMPLE, PositionError, library, parse_position
from games.ropasci_puzzle.rules import TURN_LIMIT
from games.ropasci_puzzle.solver import encode, solve
from games.ropasci_puzzle.ui import UI

GAME = make_game()


def state(upper, lower, block=(), turn=0):
    """A state from compact specs: "R 0,0" (Upper rock on (0, 0)), "s 1,-1" (Lower scissors), "1,2" (a block)."""
    def entry(spec):
        sym, h = spec.split()
        r, q = map(int, h.split(","))
        return [sym.lower(), r, q]
    data = {"upper": [entry(s) for s in upper], "lower": [entry(s) for s in lower],
            "block": [["", *map(int, b.split(","))] for b in block], "turn": turn, "to_move": "upper", "result": None}
    return GAME.state_from_json(data)


def rule_of(s, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        s.check_action("upper", action)
    return exc.value.rule


def move(kind, a, b):
    return (kind, a, b)


def play(s, *moves):
    """Apply one turn given the moves in token order; returns the Turn."""
    return s.apply_actions({"upper": tuple(moves)})


def bfs_turns(position, limit):
    """Fewest turns by a plain breadth-first search over joint positions (no bounds), or None."""
    board, ups, lower = encode(parse_position(position))
    seen, frontier = {(ups, lower)}, [(ups, lower)]
    for depth in range(1, limit + 1):
        nxt = []
        for u, low in frontier:
            occupied = {x & 63 for x in u}
            for dests in itertools.product(*(board.moves(x & 63, occupied) for x in u)):
                nu, nl = board.resolve(u, low, dests)
                if not nl:
                    return depth
                if nu and (nu, nl) not in seen:
                    seen.add((nu, nl))
                    nxt.append((nu, nl))
        frontier = nxt
    return None


# --- the position and the parameter -----------------------------------------------------------------------

def test_default_is_the_course_example():
    assert GAME.params == {"position": parse_position(EXAMPLE).to_json()}
    assert DEFAULTS == {"position": EXAMPLE}
    assert GAME.info.players == ("upper",) and not GAME.info.simultaneous and GAME.info.max_turns == TURN_LIMIT
    assert make_game(**GAME.params).params == GAME.params
    s = GAME.new_initial_state()
    assert s.to_json() == {"upper": [["r", -3, 2], ["s", 2, -1]], "lower": [["p", -1, 1], ["s", 1, -1]],
                           "block": [["", 0, 0]], "turn": 0, "to_move": "upper", "result": None}
    assert s.players_to_act() == ["upper"] and len(s.legal_actions("upper")) == 6 * 6


@pytest.mark.parametrize("position,words", [
    ({"upper": [["x", 0, 0]], "lower": [["s", 1, 0]]}, "symbol must be"),
    ({"upper": [["r", 5, 0]], "lower": [["s", 1, 0]]}, "off the board"),
    ({"upper": [["r", 4, 1]], "lower": [["s", 1, 0]]}, "off the board"),
    ({"upper": [["r", 0, 0]], "lower": [["s", 1, 0]], "block": [["", 2, 0], ["", 2, 0]]}, "two blocks"),
    ({"upper": [["r", 0, 0]], "lower": [["s", 1, 0]], "block": [["", 1, 0]]}, "shares the hex of a block"),
    ({"upper": [["r", 0, 0]], "lower": [["s", 0, 0]]}, "share a hex only if they have the same symbol"),
    ({"upper": [["r", 0, 0], ["p", 0, 0]], "lower": [["s", 1, 0]]}, "same symbol"),
    ({"upper": [["r", 0, 0]] * 10, "lower": [["s", 1, 0]]}, "1 to 9 tokens"),
    ({"upper": [], "lower": [["s", 1, 0]]}, "1 to 9 tokens"),
    ({"upper": [["r", 0, 0]], "lower": []}, "1 to 9 tokens"),
    ({"upper": [["r", 0, 0]], "lower": [["s", 1, 0]], "block": [["x", 2, 0]]}, "block's symbol"),
    ({"upper": [["r", 0, True]], "lower": [["s", 1, 0]]}, "integer r and q"),
    ({"upper": [["r", 0]], "lower": [["s", 1, 0]]}, "[symbol, r, q]"),
    ({"upper": [["r", 0, 0]]}, "needs 'lower'"),
    ({"upper": [["r", 0, 0]], "lower": [["s", 1, 0]], "extra": 1}, "unknown key"),
])
def test_invalid_positions_are_refused_with_a_reason(position, words):
    with pytest.raises(InvalidParams) as exc:
        make_game(position=position)
    assert words in str(exc.value)
    with pytest.raises(PositionError):
        parse_position(position)


def test_the_game_takes_as_many_upper_tokens_as_the_solver_and_gives_them_as_parts():
    four = {"upper": [["r", 0, 0]] * 4, "lower": [["s", 1, 0]]}
    state = make_game(position=four).new_initial_state()
    assert len(state.legal_actions("upper")) == 6 ** 4
    assert list(itertools.product(*state.legal_action_parts("upper"))) == list(state.legal_actions("upper"))
    five = {"upper": [["r", 0, 0]] * 5, "lower": [["s", 2, 0]]}
    assert len(solve(five)) == 2
    nine = {"upper": [["r", 0, 0]] * 9, "lower": [["s", 2, 0], ["s", -2, 0]]}  # 6^9 joint moves a turn
    game = make_game(position=nine)
    parts = game.new_initial_state().legal_action_parts("upper")
    assert [len(p) for p in parts] == [6] * 9
    assert game.action_to_json(tuple(p[0] for p in parts)) == [game.part_to_json(p[0]) for p in parts]
    assert len(solve(nine, deadline=time.perf_counter() + 10)) == 2
    with pytest.raises(InvalidParams, match="Upper must have 1 to 9 tokens"):
        make_game(position={"upper": [["r", 0, 0]] * 10, "lower": [["s", 2, 0]]})


def test_a_state_not_to_act_gives_no_parts():
    game = make_game(position={"upper": [["r", 0, 0]], "lower": [["s", 1, 0]]})
    state = game.new_initial_state()
    state.apply_action("upper", (("SLIDE", (0, 0), (1, 0)),))
    assert state.is_terminal() and state.legal_action_parts("upper") is None and not state.legal_actions("upper")
    assert game.new_initial_state().legal_action_parts("lower") is None


def test_parameter_type_is_checked():
    with pytest.raises(InvalidParams):
        make_game(position="not a dict")
    with pytest.raises(InvalidParams):
        make_game(board=3)


def test_tokens_of_one_symbol_may_share_a_hex_and_order_is_symbol_r_q():
    g = make_game(position={"upper": [["s", 0, 0], ["r", 1, 0], ["r", -1, 0]],
                            "lower": [["s", 1, -1], ["s", 1, -1], ["p", 2, 2]], "block": []})
    assert g.new_initial_state().to_json()["upper"] == [["r", -1, 0], ["r", 1, 0], ["s", 0, 0]]
    g2 = make_game(position={"upper": [["r", 0, 0], ["r", 0, 0]], "lower": [["r", 0, 0], ["s", 3, 0]]})
    assert g2.new_initial_state().to_json()["upper"] == [["r", 0, 0], ["r", 0, 0]]


# --- moving ------------------------------------------------------------------------------------------------

def test_every_upper_token_moves_every_turn_in_order():
    s = state(["R 0,0", "S 4,0"], ["s 0,3"])
    assert "give 2 move(s)" in rule_of(s, (move("SLIDE", (0, 0), (0, 1)),))
    assert "must move token 1, the rock on (0, 0)" in rule_of(
        s, (move("SLIDE", (4, 0), (3, 0)), move("SLIDE", (0, 0), (0, 1))))
    for action in s.legal_actions("upper"):
        assert [m[1] for m in action] == [(0, 0), (4, 0)]
    assert len(s.legal_actions("upper")) == 6 * 3  # (4, 0) is a corner: 3 neighbours
    t = play(s, move("SLIDE", (0, 0), (0, 1)), move("SLIDE", (4, 0), (3, 0)))
    assert t.number == 1 and t.actions == {"upper": (("SLIDE", (0, 0), (0, 1)), ("SLIDE", (4, 0), (3, 0)))}
    assert t.events == [] and s.to_json()["upper"] == [["r", 0, 1], ["s", 3, 0]] and s.to_json()["turn"] == 1


def test_slides_go_to_adjacent_hexes_only():
    s = state(["R 0,0"], ["s 4,0"])
    assert {a[0][2] for a in s.legal_actions("upper")} == {(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)}
    assert "not next to" in rule_of(s, (move("SLIDE", (0, 0), (2, 0)),))
    assert "not on the board" in rule_of(s, (move("SLIDE", (0, 0), (9, 9)),))


def test_blocks_cannot_be_entered_by_slide_or_swing():
    s = state(["R 0,0", "P 0,1"], ["s 4,0"], block=["1,0", "0,2"])  # token 1 the paper, 2 the rock
    rock = {a[1][2] for a in s.legal_actions("upper")}
    assert (1, 0) not in rock and (0, 2) not in rock and (1, 1) in rock  # (1, 1): a swing around the paper
    paper_stays = move("SLIDE", (0, 1), (-1, 1))
    assert "move 2: (1, 0) holds a block" in rule_of(s, (paper_stays, move("SLIDE", (0, 0), (1, 0))))
    assert "move 2: (0, 2) holds a block" in rule_of(s, (paper_stays, move("SWING", (0, 0), (0, 2))))


def test_swings_need_an_adjacent_upper_pivot_and_land_opposite():
    s = state(["R 0,0", "P 0,1"], ["s 4,-4", "r -1,2"])
    swings = {a[1][2] for a in s.legal_actions("upper") if a[1][0] == "SWING"}
    assert swings == {(0, 2), (1, 1), (-1, 2)}  # the three hexes beyond (0, 1), seen from (0, 0)
    alone = state(["R 0,0"], ["s 4,-4", "s 0,1"])
    assert all(a[0][0] == "SLIDE" for a in alone.legal_actions("upper"))  # a Lower token is no pivot
    assert "needs one of Upper's tokens" in rule_of(alone, (move("SWING", (0, 0), (0, 2)),))
    assert "not two steps" in rule_of(s, (move("SLIDE", (0, 1), (1, 1)), move("SWING", (0, 0), (0, 3))))


def test_the_pivot_may_move_in_the_same_turn():
    s = state(["R 0,0", "P 0,1"], ["s 0,2", "r 4,-4"])
    t = play(s, move("SLIDE", (0, 1), (-1, 1)), move("SWING", (0, 0), (0, 2)))
    assert t.events == [{"hex": [0, 2], "defeated": [{"player": "lower", "symbol": "s", "count": 1}]}]
    assert s.to_json()["upper"] == [["p", -1, 1], ["r", 0, 2]]


# --- battles -----------------------------------------------------------------------------------------------

def test_upper_kills_its_prey_and_falls_to_its_predator():
    s = state(["P -4,4", "R 0,0", "S 2,0"], ["s 0,1", "r 2,1", "p 4,-4"])
    t = play(s, move("SLIDE", (-4, 4), (-3, 4)), move("SLIDE", (0, 0), (0, 1)), move("SLIDE", (2, 0), (2, 1)))
    assert t.events == [{"hex": [0, 1], "defeated": [{"player": "lower", "symbol": "s", "count": 1}]},
                        {"hex": [2, 1], "defeated": [{"player": "upper", "symbol": "s", "count": 1}]}]
    assert s.to_json()["upper"] == [["p", -3, 4], ["r", 0, 1]] and s.to_json()["lower"] == [["p", 4, -4], ["r", 2, 1]]


def test_upper_tokens_battle_each_other():
    s = state(["R 0,0", "S 0,2"], ["s 4,-4", "p 3,-3"])
    t = play(s, move("SLIDE", (0, 0), (0, 1)), move("SLIDE", (0, 2), (0, 1)))
    assert t.events == [{"hex": [0, 1], "defeated": [{"player": "upper", "symbol": "s", "count": 1}]}]
    assert s.to_json()["upper"] == [["r", 0, 1]]


def test_same_symbol_tokens_stack_and_share_a_hex():
    s = state(["P -4,4", "R 0,0", "R 0,2"], ["r 0,1", "s 4,-4"])
    t = play(s, move("SLIDE", (-4, 4), (-3, 4)), move("SLIDE", (0, 0), (0, 1)), move("SLIDE", (0, 2), (0, 1)))
    assert t.events == []
    assert s.to_json()["upper"] == [["p", -3, 4], ["r", 0, 1], ["r", 0, 1]] and ["r", 0, 1] in s.to_json()["lower"]
    # Stacked tokens move one by one, each with its own move.
    play(s, move("SLIDE", (-3, 4), (-4, 4)), move("SLIDE", (0, 1), (1, 1)), move("SLIDE", (0, 1), (0, 0)))
    assert s.to_json()["upper"] == [["p", -4, 4], ["r", 0, 0], ["r", 1, 1]]


def test_three_symbols_on_one_hex_all_fall():
    s = state(["R 0,0", "P 0,2"], ["s 0,1", "s 4,-4"])
    t = play(s, move("SLIDE", (0, 2), (0, 1)), move("SLIDE", (0, 0), (0, 1)))
    assert t.events == [{"hex": [0, 1], "defeated": [{"player": "upper", "symbol": "p", "count": 1},
                                                     {"player": "upper", "symbol": "r", "count": 1},
                                                     {"player": "lower", "symbol": "s", "count": 1}]}]
    assert s.to_json()["upper"] == [] and s.is_terminal()
    assert s.result().text == "unsolvable: no Upper tokens left" and s.returns() == {"upper": 0.0}


# --- the end -----------------------------------------------------------------------------------------------

def test_solved_when_no_lower_token_is_left():
    s = state(["R 0,0"], ["s 0,1"])
    play(s, move("SLIDE", (0, 0), (0, 1)))
    assert s.is_terminal() and s.players_to_act() == [] and s.legal_actions("upper") == ()
    assert s.result().text == "solved in 1 turn" and s.returns() == {"upper": 1.0}
    assert s.to_json()["result"] == "solved in 1 turn" and s.to_json()["to_move"] is None
    assert "the game is over" in rule_of(s, (move("SLIDE", (0, 1), (0, 0)),))


def test_solved_even_when_upper_s_last_token_falls_in_the_same_turn():
    s = state(["R 0,0", "P 0,2"], ["s 0,1"])
    t = play(s, move("SLIDE", (0, 2), (0, 1)), move("SLIDE", (0, 0), (0, 1)))
    assert {d["player"] for d in t.events[0]["defeated"]} == {"upper", "lower"}
    assert s.to_json()["upper"] == [] and s.result().text == "solved in 1 turn" and s.returns() == {"upper": 1.0}
    assert solve({"upper": [["p", 0, 2]], "lower": [["r", 0, 1]]}) == [(("SLIDE", (0, 2), (0, 1)),)]


@pytest.mark.parametrize("upper,lower,block,why", [
    (["S 0,0"], ["s 1,0"], [], "nothing left can beat Lower's scissors on (1, 0)"),
    (["R 0,0"], ["s 2,2"], ["3,1", "1,3", "1,2", "2,1"], "no rock can reach Lower's scissors on (2, 2)"),
    (["R 4,-4"], ["s 0,0"], ["3,-4", "3,-3", "4,-3"], "Upper's token on (4, -4) cannot move"),
])
def test_no_solution_is_detected_at_once(upper, lower, block, why):
    s = state(upper, lower, block)
    assert s.is_terminal() and s.result().text == f"unsolvable: {why}" and s.returns() == {"upper": 0.0}
    position = {k: s.to_json()[k] for k in ("upper", "lower", "block")}
    assert solve(position) is None


def test_no_solution_found_by_search():
    # A corridor: rock and scissors an even number of hexes apart can never pass each other (they would
    # have to land on one hex, and the scissors would fall), so neither target can be reached.
    corridor = [["", 1, q] for q in range(-4, 4)] + [["", -1, q] for q in range(-3, 5)]
    position = {"upper": [["r", 0, -2], ["s", 0, 2]], "lower": [["s", 0, 4], ["p", 0, -4]], "block": corridor}
    assert not make_game(position=position).new_initial_state().is_terminal()
    assert solve(position, max_turns=12) is None and bfs_turns(position, 12) is None
    position["upper"][1] = ["s", 0, 1]  # an odd gap: they swap hexes in one turn
    assert len(solve(position)) == bfs_turns(position, 8) == 5


def test_losing_the_last_predator_ends_the_game():
    s = state(["R 0,0", "S 2,0"], ["s 4,-4", "p 2,1"])  # Upper's scissors is needed for the paper
    play(s, move("SLIDE", (0, 0), (0, 1)), move("SLIDE", (2, 0), (1, 0)))
    assert not s.is_terminal()
    play(s, move("SLIDE", (0, 1), (1, 1)), move("SLIDE", (1, 0), (1, 1)))  # both land on (1, 1): scissors fall
    assert s.result().text.startswith("unsolvable: nothing left can beat Lower's paper")


def test_turn_limit():
    s = state(["R 0,0"], ["s 4,0"], turn=TURN_LIMIT - 1)
    play(s, move("SLIDE", (0, 0), (0, 1)))
    assert s.result().text == f"turn limit: {TURN_LIMIT} turns played" and s.returns() == {"upper": 0.0}
    with pytest.raises(ValueError):
        GAME.state_from_json({**s.to_json(), "turn": TURN_LIMIT + 1})


# --- forms and engine contract ---------------------------------------------------------------------------

def test_action_forms_round_trip():
    s = GAME.new_initial_state()
    for action in s.legal_actions("upper")[::7]:
        as_json = GAME.action_to_json(action)
        assert json.loads(json.dumps(as_json)) == as_json
        assert GAME.action_from_json(as_json) == action
        assert GAME.action_from_text(GAME.action_to_text(action)) == action
    action = (("SLIDE", (-3, 2), (-2, 1)), ("SWING", (2, -1), (0, 0)))
    assert GAME.action_to_text(action) == "SLIDE from (-3, 2) to (-2, 1); SWING from (2, -1) to (0, 0)"
    with pytest.raises(IllegalAction):
        GAME.action_from_text("JUMP from (0, 0) to (1, 1)")
    s.check_action("upper", [["SLIDE", [-3, 2], [-2, 1]], ["SLIDE", [2, -1], [1, -1]]])  # lists are fine too


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=10**4400, max_value=10**4500)
    | st.floats(allow_nan=True) | st.text(max_size=8) | st.sampled_from(["SLIDE", "SWING", "THROW"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=16)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=json_values)
def test_action_from_json_is_total(data):
    s = GAME.new_initial_state()
    try:
        action = GAME.action_from_json(data, "upper")
    except IllegalAction as exc:
        assert "malformed" in exc.rule
        return
    hash(action)
    assert GAME.action_from_json(GAME.action_to_json(action)) == action
    before = s.to_json()
    try:
        s.check_action("upper", action)
    except IllegalAction:
        with pytest.raises(IllegalAction):
            s.apply_actions({"upper": action})
        assert s.to_json() == before


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_random_playouts_round_trip_clone_and_refuse_illegal_moves(seed):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    while not s.is_terminal():
        data = s.to_json()
        assert GAME.state_from_json(json.loads(json.dumps(data))).to_json() == data
        assert s.observation("upper") == data and s.observation(None) == data
        actions = s.legal_actions("upper")
        assert actions and len(set(actions)) == len(actions)
        twin = s.clone()
        twin.apply_actions({"upper": actions[0]})
        assert s.to_json() == data
        bad = ((("SLIDE", (0, 0), (4, 4)),) * len(actions[0]))
        with pytest.raises(IllegalAction):
            s.apply_actions({"upper": bad})
        with pytest.raises(IllegalAction):
            s.apply_actions({})
        assert s.to_json() == data
        s.apply_actions({"upper": actions[rng.randrange(len(actions))]})
    assert s.result() is not None and s.turn <= TURN_LIMIT


# --- the solver --------------------------------------------------------------------------------------------

def replay(position, turns):
    """Play ``turns`` through the engine from ``position``; returns the final state (every move is checked)."""
    s = make_game(position=position).new_initial_state()
    for action in turns:
        s.check_action("upper", action)
        s.apply_actions({"upper": action})
    return s


def test_the_course_example_takes_three_turns():
    stats = {}
    turns = solve(EXAMPLE, stats=stats)
    assert len(turns) == 3 and stats["nodes"] >= 1
    assert replay(EXAMPLE, turns).result().text == "solved in 3 turns"
    assert bfs_turns(EXAMPLE, 3) == 3


@pytest.mark.parametrize("position,turns", [
    ({"upper": [["r", 0, -2]], "lower": [["s", 0, 2]]}, 4),  # alone: one hex a turn
    ({"upper": [["r", 0, 0]], "lower": [["s", 0, 1]]}, 1),
    ({"upper": [["r", 0, 0], ["p", 0, 1]], "lower": [["s", 0, 2]]}, 1),  # a swing around the paper
    ({"upper": [["r", 0, 0], ["r", 0, 1]], "lower": [["s", 0, 3]]}, 2),  # leapfrog: swing, then slide
    ({"upper": [["r", 0, 0]], "lower": [["s", 0, 1], ["s", 0, -1]]}, 3),  # there and back
    ({"upper": [["r", 0, 0], ["r", 0, 0]], "lower": [["s", 0, 1], ["s", 0, -1]]}, 1),  # twins split
    ({"upper": [["r", 0, 0]], "lower": [["s", 0, 2]], "block": [["", 0, 1]]}, 3),  # around a block
])
def test_hand_checked_optima(position, turns):
    found = solve(position)
    assert len(found) == turns
    assert replay(position, found).result().text.startswith("solved")


# A Lower rock between the scissors and its paper, the Upper paper that can remove it far away: the relaxation keeps
# the scissors off the rock's hex until the paper may have stood there, and proves 5 turns at the root (4 without).
ROCK_IN_THE_WAY = {"upper": [["s", -3, 0], ["p", 4, -4]], "lower": [["p", 0, 1], ["r", -1, 0]], "block": [["", 0, -4]]}


def test_no_token_stands_where_a_lower_token_beats_it_before_that_one_may_be_removed():
    stats = {}
    found = solve(ROCK_IN_THE_WAY, stats=stats)
    assert len(found) == bfs_turns(ROCK_IN_THE_WAY, 5) == 5
    assert stats["bounds"]["relaxation"] == 5
    assert replay(ROCK_IN_THE_WAY, found).result().text == "solved in 5 turns"


# A scissors with nothing to do in a corridor before a paper: its one move that does not kill the paper is onto the
# Lower rock that the paper must remove (3 turns). The relaxation keeps tokens off such hexes, so the searches add
# the moves that fall there on purpose themselves (the joint search: without the workers' search).
CORRIDOR = {"upper": [["p", 0, -2], ["s", 0, 0]], "lower": [["r", 0, 1]],
            "block": [["", *h] for h in [(0, -3), (1, -2), (-1, -2), (1, -3), (-1, -1), (1, -1), (-1, 0), (1, 0),
                                          (-1, 1)]]}


@pytest.mark.parametrize("escorts", ["1", "0"])
def test_a_token_falls_on_purpose_onto_a_lower_token_that_another_will_remove(monkeypatch, escorts):
    monkeypatch.setenv("ROPASCI_ESCORTS", escorts)
    found = solve(CORRIDOR)
    assert len(found) == bfs_turns(CORRIDOR, 3) == 3
    assert found[0][1] == ("SLIDE", (0, 0), (0, 1))
    assert replay(CORRIDOR, found).result().text == "solved in 3 turns"


def small_positions():
    """Positions on the hexes within 2 of the centre: 1-2 Upper tokens, 1-2 Lower, a few blocks."""
    small = [h for h in HEXES if max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) <= 2]
    syms = st.sampled_from("rps")
    return st.tuples(st.permutations(small), st.lists(syms, min_size=1, max_size=2),
                     st.lists(syms, min_size=1, max_size=2), st.integers(0, 3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=small_positions())
def test_solver_length_equals_breadth_first_search(spec):
    cells, ups, lows, blocks = spec
    position = {"upper": [[s, *cells[i]] for i, s in enumerate(ups)],
                "lower": [[s, *cells[len(ups) + i]] for i, s in enumerate(lows)],
                "block": [["", *cells[len(ups) + len(lows) + i]] for i in range(blocks)]}
    found = solve(position, max_turns=4)
    assert (None if found is None else len(found)) == bfs_turns(position, 4)
    if found is not None:
        assert replay(position, found).result().text.startswith("solved")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.tuples(st.permutations([h for h in HEXES if max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) <= 2]),
                      st.lists(st.sampled_from("rps"), min_size=3, max_size=3),
                      st.lists(st.sampled_from("rps"), min_size=1, max_size=3), st.integers(0, 3)))
def test_solver_length_equals_breadth_first_search_with_three_upper_tokens(spec):
    """Three tokens exercise the joint moves that skip the battle resolution (classes landing apart) and those that
    need it (classes meeting, landing on a Lower token that beats them); the plain search allows two turns."""
    cells, ups, lows, blocks = spec
    position = {"upper": [[s, *cells[i]] for i, s in enumerate(ups)],
                "lower": [[s, *cells[3 + i]] for i, s in enumerate(lows)],
                "block": [["", *cells[3 + len(lows) + i]] for i in range(blocks)]}
    found = solve(position, max_turns=2)
    assert (None if found is None else len(found)) == bfs_turns(position, 2)
    if found is not None:
        assert replay(position, found).result().text.startswith("solved")


# Like the course's public test with four Upper tokens (three papers and a scissors).
FOUR_TOKENS = {"upper": [["p", 3, -2], ["p", 3, 0], ["p", 2, 1], ["s", 4, -3]],
               "lower": [["r", -1, 0], ["r", 0, 2], ["p", 1, -2]], "block": [["", 1, 0]]}
# Four papers against four rocks: each paper's share depends on all three others (2 turns; a solver that
# counted only two of a token's class-mates proved 2 impossible and answered 3).
FOUR_PAPERS = {"upper": [["p", 0, -3], ["p", -2, 4], ["p", -3, 0], ["p", -4, 4]],
               "lower": [["r", -1, 0], ["r", -1, -2], ["r", -2, -1], ["r", -2, 0]]}


def test_the_workers_search_takes_its_first_positions_children_from_two_orders_in_turn():
    """escorts.interleaved (and solver.c's bkid_interleave, which the twins' tests hold to it): the first child not
    yet taken by bound, then by effort (most first), and so on; each child once."""
    from games.ropasci_puzzle.escorts import interleaved
    # children as the workers' search keys them: (bound, -effort, sum of tours, -seq)
    a, b, c, d = (9, -5, 16, 0), (9, -1, 16, -1), (10, -9, 17, -3), (10, -7, 16, -2)
    assert sorted([d, c, b, a]) == [a, b, c, d]  # by bound: a, b, c, d; by effort: c, d, a, b
    assert interleaved([a, b, c, d]) == [a, c, b, d]
    assert interleaved([a]) == [a] and interleaved([]) == []


def test_four_upper_tokens_are_solved_optimally_and_legally():
    turns = solve(FOUR_TOKENS)
    assert len(turns) == 4
    assert replay(FOUR_TOKENS, turns).result().text == "solved in 4 turns"
    found = solve(FOUR_PAPERS)
    assert len(found) == bfs_turns(FOUR_PAPERS, 3) == 2
    assert replay(FOUR_PAPERS, found).result().text == "solved in 2 turns"


def test_library_puzzles_have_their_optimal_turn_counts_and_replay():
    entries = library()
    assert 10 <= len(entries) <= 20 and len({e["name"] for e in entries}) == len(entries)
    for entry in entries:
        turns = solve(entry["position"])
        assert turns is not None and len(turns) == entry["turns"], entry["name"]
        assert replay(entry["position"], turns).result().text == f"solved in {entry['turns']} turns"


# --- manage.py solve ---------------------------------------------------------------------------------------

def run_solve(path, *args):
    out, err = io.StringIO(), io.StringIO()
    call_command("solve", str(path), *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_solve_command_prints_the_course_format(tmp_path):
    path = tmp_path / "example.json"
    path.write_text(json.dumps({"upper": [["s", 2, -1], ["r", -3, 2]], "lower": [["s", 1, -1], ["p", -1, 1]],
                                "block": [["", 0, 0]]}))
    out, _ = run_solve(path)
    lines = out.splitlines()
    assert len(lines) == 6 and lines[0] == "Turn 1: SLIDE from (-3, 2) to (-2, 1)"
    assert [line.split(":")[0] for line in lines] == ["Turn 1"] * 2 + ["Turn 2"] * 2 + ["Turn 3"] * 2
    turns = [GAME.action_from_text("; ".join(line.split(": ", 1)[1] for line in lines[i:i + 2]))
             for i in range(0, 6, 2)]
    assert replay(EXAMPLE, turns).result().text == "solved in 3 turns"


def test_solve_command_verbose_proves_the_length_optimal_and_keeps_the_solution_lines(tmp_path):
    path = tmp_path / "example.json"
    path.write_text(json.dumps(EXAMPLE))
    plain, _ = run_solve(path)
    out, err = run_solve(path, "--verbose")
    assert out == plain
    lines = err.splitlines()
    assert lines[0] == "lower bound at the root: 2 turns (tours and front lemma)"
    assert lines[-1] == "optimal: lower bound 3 = solution length 3"
    far = tmp_path / "far.json"
    far.write_text(json.dumps({"upper": [["r", 0, -4]], "lower": [["s", 0, 4]]}))
    err = io.StringIO()
    with pytest.raises(CommandError, match="no solution within 3 turns"):
        call_command("solve", str(far), "--max-turns", "3", "--verbose", stdout=io.StringIO(), stderr=err)
    assert err.getvalue().splitlines()[-1] == "lower bound proved by the search: 8 turns (no plan of fewer)"


def test_solve_command_solves_four_upper_tokens(tmp_path):
    path = tmp_path / "four.json"
    path.write_text(json.dumps(FOUR_TOKENS))
    out, _ = run_solve(path)
    lines = out.splitlines()
    assert len(lines) == 4 * 4 and lines[-1].startswith("Turn 4: ")
    turns = [GAME.action_from_text("; ".join(line.split(": ", 1)[1] for line in lines[i:i + 4]))
             for i in range(0, 16, 4)]
    assert replay(FOUR_TOKENS, turns).result().text == "solved in 4 turns"


@pytest.mark.parametrize("content,words", [
    ("{not json", "is not JSON"),
    (json.dumps({"upper": [["r", 9, 9]], "lower": [["s", 0, 0]]}), "not a valid puzzle"),
    (json.dumps({"upper": [["s", 0, 0]], "lower": [["s", 1, 0]]}), "no solution: nothing left can beat"),
    (json.dumps({"upper": [["r", 0, -4]], "lower": [["s", 0, 4]]}), "no solution within 3 turns"),
])
def test_solve_command_errors(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content)
    args = ["--max-turns", "3"] if "within" in words else []
    with pytest.raises(CommandError) as exc:
        run_solve(path, *args)
    assert words in str(exc.value)


def test_solve_command_missing_file(tmp_path):
    with pytest.raises(CommandError) as exc:
        run_solve(tmp_path / "missing.json")
    assert "cannot read" in str(exc.value)


# --- bots and the UI ---------------------------------------------------------------------------------------

def test_perfect_and_strong_bots_solve_optimally():
    for level in ("perfect", "strong"):
        bot = BOTS[level](GAME, "upper", seed=1, seconds=5.0)
        assert bot.level == level
        s = GAME.new_initial_state()
        while not s.is_terminal():
            before = s.to_json()
            action = bot.choose(s)
            assert s.to_json() == before and action in s.legal_actions("upper")
            s.apply_actions({"upper": action})
        assert s.result().text == "solved in 3 turns"


def test_out_of_time_bot_still_plays_legal_moves():
    hard = next(e for e in library() if e["name"] == "busy-board")["position"]
    g = make_game(position=hard)
    bot = BOTS["perfect"](g, "upper", seed=0, seconds=0.01)
    s = g.new_initial_state()
    for _ in range(2):
        action = bot.choose(s)
        assert action in s.legal_actions("upper")
        s.apply_actions({"upper": action})


def test_bots_play_nine_tokens_without_listing_every_joint_move():
    """Nine spread tokens make billions of joint moves a turn: the random bot and the perfect bot out of time
    choose token by token (listing them would take minutes and gigabytes)."""
    nine = {"upper": [["r", -4, 2], ["r", -4, 3], ["r", -4, 4], ["p", -3, 1], ["p", -3, 2], ["p", -3, 3],
                      ["s", -2, 0], ["s", -2, 1], ["s", -2, 2]], "lower": [["s", 2, 0], ["r", 3, -1], ["p", 1, 1]],
            "block": [["", 0, 0]]}
    g = make_game(position=nine)
    s = g.new_initial_state()
    assert math.prod(len(p) for p in s.legal_action_parts("upper")) > 10 ** 9
    start = time.perf_counter()
    for bot in (make_bot("random", g, "upper", seed=3), BOTS["perfect"](g, "upper", seed=0, seconds=0.2)):
        action = bot.choose(s)
        s.check_action("upper", action)
    assert time.perf_counter() - start < 5


def test_ui_paths_and_board():
    g = make_game(position={"upper": [["r", 0, 0], ["r", 0, 0], ["s", 0, 1]], "lower": [["p", 0, 2], ["s", 2, 0]],
                            "block": [["", 1, 0]]})
    ui = UI(g)
    s = g.new_initial_state()
    obs = s.observation("upper")
    board = ui.board(obs)
    assert board["turn"] == 0
    keys = {c["key"] for c in board["cells"]} | {t["key"] for t in board["tokens"] if t.get("key")}
    assert any(c["block"] and c["label"] == "(1, 0): block" for c in board["cells"])
    paths = set()
    for action in s.legal_actions("upper"):
        as_json = g.action_to_json(action)
        path = ui.action_path("upper", as_json)
        assert len(path) == 2 * len(action) and all(step["key"] in keys for step in path)
        assert [step["key"].split(":")[0] for step in path] == ["tok", "hex"] * len(action)
        paths.add(tuple(step["key"] for step in path))
        assert ui.action_words("upper", as_json, obs)
    assert len(paths) == len(s.legal_actions("upper"))
    upper = [t for t in board["tokens"] if t["player"] == "upper"]
    assert {t["order"] for t in upper} == {"1,2", "3"}
    t = s.clone().apply_actions({"upper": s.legal_actions("upper")[0]})
    after = ui.board(s.observation("upper"), last={"actions": {"upper": g.action_to_json(t.actions["upper"])},
                                                   "events": t.events})
    assert after["arrows"] and ui.event_words({"hex": [0, 1], "defeated": [
        {"player": "lower", "symbol": "s", "count": 1}]}) == "Battle on (0, 1): Lower scissors defeated."
    assert ui.result_reason({"text": "solved in 3 turns"}, obs).startswith("Solved")
