"""Every rule of RoPaSci 360, checked on small positions, plus property-based tests over random games."""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from games.engine import IllegalAction, load_game, registered_names
from games.ropasci360.rules import HEXES

GAME = load_game("ropasci360")
ON_BOARD = [(r, q) for r in range(-4, 5) for q in range(-4, 5) if abs(r + q) <= 4]
OFFSETS = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]


def position(tokens, throws_left=(9, 9), turn=0):
    """A state from a compact list of (player, symbol, (r, q), count)."""
    return GAME.state_from_json({
        "turn": turn,
        "throws_left": {"upper": throws_left[0], "lower": throws_left[1]},
        "tokens": [{"player": p, "symbol": s, "hex": list(h), "count": n} for p, s, h, n in tokens],
    })


def board(state):
    return sorted((t["player"], t["symbol"], tuple(t["hex"]), t["count"]) for t in state.to_json()["tokens"])


def adjacent(a, b):
    return (b[0] - a[0], b[1] - a[1]) in OFFSETS


def brute_force_actions(state, player):
    """The legal actions straight from the rules' wording, with coordinates only (no engine tables)."""
    js = state.to_json()
    mine = {tuple(t["hex"]) for t in js["tokens"] if t["player"] == player}
    thrown = 9 - js["throws_left"][player]
    acts = set()
    if thrown < 9:
        for h in ON_BOARD:
            if (player == "upper" and h[0] >= 4 - thrown) or (player == "lower" and h[0] <= thrown - 4):
                acts |= {("THROW", s, h) for s in "rps"}
    for a in mine:
        for b in ON_BOARD:
            if adjacent(a, b):
                acts.add(("SLIDE", a, b))
                if b in mine:
                    for c in ON_BOARD:
                        if adjacent(b, c) and c != a and not adjacent(a, c):
                            acts.add(("SWING", a, c))
    return acts


def test_registry_and_metadata():
    assert "ropasci360" in registered_names()
    assert GAME.info.players == ("upper", "lower") and GAME.info.simultaneous
    with pytest.raises(KeyError, match="unknown game"):
        load_game("chess")


def test_board_has_61_hexes_with_referee_neighbours():
    assert sorted(HEXES) == sorted(ON_BOARD) and len(HEXES) == 61
    st0 = position([("upper", "r", (0, 0), 1)])
    assert {a[2] for a in st0.legal_actions("upper") if a[0] == "SLIDE"} == {(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)}
    corner = position([("upper", "r", (4, -4), 1)])
    assert len([a for a in corner.legal_actions("upper") if a[0] == "SLIDE"]) == 3


def test_initial_state():
    s = GAME.new_initial_state()
    assert s.players_to_act() == ["upper", "lower"] and not s.is_terminal() and s.result() is None
    assert s.returns() == {"upper": 0.0, "lower": 0.0}
    # First throw: Upper only on row 4 (5 hexes), Lower only on row -4.
    assert {a[2][0] for a in s.legal_actions("upper")} == {4} and len(s.legal_actions("upper")) == 15
    assert {a[2][0] for a in s.legal_actions("lower")} == {-4} and len(s.legal_actions("lower")) == 15


@pytest.mark.parametrize("thrown,rows", [(0, {4}), (1, {4, 3}), (4, {4, 3, 2, 1, 0}), (8, set(range(-4, 5)))])
def test_throw_zone_grows_one_row_per_throw(thrown, rows):
    s = position([], throws_left=(9 - thrown, 9 - thrown))
    assert {a[2][0] for a in s.legal_actions("upper") if a[0] == "THROW"} == rows
    assert {a[2][0] for a in s.legal_actions("lower") if a[0] == "THROW"} == {-r for r in rows}


def test_throw_outside_zone_and_tenth_throw_are_illegal():
    s = position([], throws_left=(8, 9))
    with pytest.raises(IllegalAction, match=r"throw number 2 of upper must land in its first 2 row\(s\) \(r >= 3\)"):
        s.check_action("upper", ("THROW", "r", (2, 0)))
    s.check_action("upper", ("THROW", "r", (3, 0)))
    with pytest.raises(IllegalAction, match=r"r <= -4"):
        s.check_action("lower", ("THROW", "r", (-3, 0)))
    done = position([], throws_left=(0, 0))
    with pytest.raises(IllegalAction, match="no throws left"):
        done.check_action("upper", ("THROW", "r", (4, 0)))
    with pytest.raises(IllegalAction, match="symbol"):
        s.check_action("upper", ("THROW", "x", (4, 0)))


def test_throw_onto_occupied_hex_battles():
    s = position([("lower", "s", (4, 0), 1), ("upper", "r", (0, 0), 1)], throws_left=(8, 8))
    turn = s.apply_actions({"upper": ("THROW", "r", (4, 0)), "lower": ("SLIDE", (4, 0), (3, 0))})
    # Lower's scissors slid away in the same turn: no battle on (4, 0).
    assert turn.events == [] and ("lower", "s", (3, 0), 1) in board(s) and ("upper", "r", (4, 0), 1) in board(s)
    s2 = position([("lower", "s", (4, 0), 1), ("upper", "r", (0, 0), 1)], throws_left=(8, 8))
    turn = s2.apply_actions({"upper": ("THROW", "r", (4, 0)), "lower": ("THROW", "p", (-4, 0))})
    assert turn.events == [{"hex": [4, 0], "defeated": [{"player": "lower", "symbol": "s", "count": 1}]}]
    assert s2.throws_left("upper") == 7 and s2.throws_left("lower") == 7


def test_slide_rules():
    s = position([("upper", "r", (0, 0), 1), ("lower", "s", (-4, 0), 1)])
    s.check_action("upper", ("SLIDE", (0, 0), (1, 0)))
    with pytest.raises(IllegalAction, match="not adjacent"):
        s.check_action("upper", ("SLIDE", (0, 0), (2, 0)))
    with pytest.raises(IllegalAction, match="upper has no token on \\(1, 0\\)"):
        s.check_action("upper", ("SLIDE", (1, 0), (0, 0)))
    with pytest.raises(IllegalAction, match="not on the board"):
        s.check_action("upper", ("SLIDE", (0, 0), (5, 0)))
    with pytest.raises(IllegalAction, match="lower has no token"):
        s.check_action("lower", ("SLIDE", (0, 0), (1, 0)))  # Upper's token is not Lower's to move


def test_swing_needs_own_pivot_and_opposite_hex():
    s = position([("upper", "r", (0, 0), 1), ("upper", "p", (1, 0), 1), ("lower", "s", (0, 1), 1)])
    swings = {a[2] for a in s.legal_actions("upper") if a[0] == "SWING" and a[1] == (0, 0)}
    assert swings == {(2, -1), (2, 0), (1, 1)}  # around (1, 0): its neighbours not adjacent to (0, 0)
    with pytest.raises(IllegalAction, match="swinging hex"):
        s.check_action("upper", ("SWING", (0, 0), (0, 2)))  # around Lower's (0, 1): not allowed
    with pytest.raises(IllegalAction, match="opposite"):
        s.check_action("upper", ("SWING", (0, 0), (1, -1)))  # adjacent to the start: a slide, not a swing
    with pytest.raises(IllegalAction, match="opposite"):
        s.check_action("upper", ("SWING", (0, 0), (3, 0)))


def test_swing_destination_reachable_around_two_pivots_is_listed_once():
    s = position([("upper", "r", (0, 0), 1), ("upper", "p", (1, 0), 1), ("upper", "s", (0, 1), 1)])
    acts = s.legal_actions("upper")
    assert len(acts) == len(set(acts))
    assert ("SWING", (0, 0), (1, 1)) in acts


@pytest.mark.parametrize("a,b,winner", [("r", "s", "r"), ("s", "p", "s"), ("p", "r", "p")])
def test_battle_each_pair(a, b, winner):
    s = position([("upper", a, (0, 0), 1), ("lower", b, (0, 1), 1)])
    turn = s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("THROW", "r", (-4, 0))})
    left = [t for t in board(s) if t[2] == (0, 1)]
    assert left == [("upper", winner, (0, 1), 1)] if winner == a else left == [("lower", winner, (0, 1), 1)]
    assert turn.events[0]["hex"] == [0, 1]


def test_all_three_symbols_all_defeated_even_own():
    s = position([("upper", "r", (0, 0), 1), ("upper", "s", (0, 1), 1), ("lower", "p", (-1, 1), 1)])
    turn = s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (-1, 1), (0, 1))})
    assert board(s) == []
    assert sorted(d["symbol"] for d in turn.events[0]["defeated"]) == ["p", "r", "s"]
    assert s.to_json()["defeated"] == {"upper": {"r": 1, "p": 0, "s": 1}, "lower": {"r": 0, "p": 1, "s": 0}}


def test_own_tokens_battle_and_same_symbols_stack():
    s = position([("upper", "r", (0, 0), 1), ("upper", "s", (0, 1), 1)])
    s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("THROW", "r", (-4, 0))})
    assert ("upper", "r", (0, 1), 1) in board(s) and s.to_json()["defeated"]["upper"]["s"] == 1
    t = position([("upper", "r", (0, 0), 1), ("upper", "r", (0, 1), 1), ("lower", "r", (1, 0), 1)])
    t.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (1, 0), (0, 1))})
    assert sorted(x for x in board(t) if x[2] == (0, 1)) == [("lower", "r", (0, 1), 1), ("upper", "r", (0, 1), 2)]
    # A stack moves one token at a time.
    t.apply_actions({"upper": ("SLIDE", (0, 1), (0, 2)), "lower": ("THROW", "p", (-4, 0))})
    assert ("upper", "r", (0, 1), 1) in board(t) and ("upper", "r", (0, 2), 1) in board(t)


def test_tokens_that_swap_hexes_do_not_battle():
    s = position([("upper", "r", (0, 0), 1), ("lower", "p", (0, 1), 1)])
    turn = s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (0, 1), (0, 0))})
    assert turn.events == [] and board(s) == [("lower", "p", (0, 0), 1), ("upper", "r", (0, 1), 1)]


def test_actions_judged_on_start_of_turn_board():
    # Lower's token leaves the swing's destination in the same turn: both actions stand, no battle.
    s = position([("upper", "r", (0, 0), 1), ("upper", "r", (1, 0), 1), ("lower", "s", (2, 0), 1)])
    turn = s.apply_actions({"upper": ("SWING", (0, 0), (2, 0)), "lower": ("SLIDE", (2, 0), (3, 0))})
    assert turn.events == [] and ("upper", "r", (2, 0), 1) in board(s) and ("lower", "s", (3, 0), 1) in board(s)
    # A token moving onto a hex the opponent's token leaves does not battle it.
    s = position([("upper", "p", (0, 0), 1), ("lower", "s", (0, 1), 1)])
    s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (0, 1), (0, 2))})
    assert board(s) == [("lower", "s", (0, 2), 1), ("upper", "p", (0, 1), 1)] or \
        sorted(board(s)) == sorted([("lower", "s", (0, 2), 1), ("upper", "p", (0, 1), 1)])


def test_end_no_tokens_no_throws():
    s = position([("upper", "r", (0, 0), 1), ("lower", "s", (0, 1), 1)], throws_left=(1, 1))
    s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (0, 1), (0, 0))})
    assert not s.is_terminal()  # they swapped past each other
    s = position([("upper", "r", (0, 0), 1), ("lower", "s", (0, 2), 1), ("lower", "p", (-4, 0), 1)], throws_left=(1, 0))
    s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (0, 2), (0, 1))})
    assert not s.is_terminal()  # Lower still has a token
    s = position([("upper", "r", (0, 0), 1), ("lower", "s", (0, 2), 1)], throws_left=(0, 0))
    s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (0, 2), (0, 1))})
    assert s.result().text == "winner: upper" and s.returns() == {"upper": 1.0, "lower": 0.0}
    assert s.players_to_act() == [] and s.legal_actions("upper") == []
    s = position([("upper", "r", (0, 0), 1), ("lower", "s", (0, 2), 1)], throws_left=(1, 0))
    s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (0, 2), (0, 1))})
    assert s.result().text == "winner: upper"  # Lower is out even though Upper can still throw
    d = position([("upper", "r", (0, 0), 1), ("upper", "p", (1, 1), 1), ("lower", "s", (0, 2), 1)], throws_left=(0, 0))
    d.apply_actions({"upper": ("SLIDE", (1, 1), (0, 1)), "lower": ("SLIDE", (0, 2), (0, 1))})
    # Upper's paper meets Lower's scissors and loses; Upper's rock is invincible (Lower has no paper and no
    # throws) and Lower has exactly one token left: Upper wins by condition 3.
    assert d.result().text == "winner: upper"


def test_end_draw_when_both_run_out():
    s = position([("upper", "r", (0, 0), 1), ("upper", "s", (0, 1), 1), ("lower", "p", (-1, 1), 1)], throws_left=(0, 0))
    s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (-1, 1), (0, 1))})
    assert s.result().text == "draw: no remaining tokens or throws" and s.returns() == {"upper": 0.5, "lower": 0.5}


def test_end_both_invincible_draw_and_throws_prevent_it():
    toks = [("upper", "p", (0, 0), 1), ("lower", "p", (-3, 0), 1), ("lower", "r", (-4, 0), 1), ("upper", "r", (4, 0), 1)]
    s = position(toks, throws_left=(0, 0))
    s.apply_actions({"upper": ("SLIDE", (0, 0), (1, 0)), "lower": ("SLIDE", (-3, 0), (-2, 0))})
    assert s.result().text == "draw: both players have an invincible token"
    s = position(toks, throws_left=(1, 0))  # Upper could still throw scissors: Lower's paper is not invincible
    s.apply_actions({"upper": ("SLIDE", (0, 0), (1, 0)), "lower": ("SLIDE", (-3, 0), (-2, 0))})
    assert not s.is_terminal()


def test_end_invincible_against_single_token_wins():
    s = position([("upper", "s", (0, 0), 1), ("lower", "p", (-3, 0), 1)], throws_left=(3, 0))
    s.apply_actions({"upper": ("SLIDE", (0, 0), (1, 0)), "lower": ("SLIDE", (-3, 0), (-2, 0))})
    assert s.result().text == "winner: upper"
    s = position([("upper", "s", (0, 0), 1), ("lower", "p", (-3, 0), 2)], throws_left=(3, 0))
    s.apply_actions({"upper": ("SLIDE", (0, 0), (1, 0)), "lower": ("SLIDE", (-3, 0), (-2, 0))})
    assert not s.is_terminal()  # two tokens left, stacked
    s = position([("lower", "r", (0, 0), 1), ("upper", "s", (3, 0), 1)], throws_left=(0, 2))
    s.apply_actions({"upper": ("SLIDE", (3, 0), (2, 0)), "lower": ("SLIDE", (0, 0), (-1, 0))})
    assert s.result().text == "winner: lower"


def test_end_third_repetition_counts_the_start():
    s = GAME.new_initial_state()
    s.apply_actions({"upper": ("THROW", "r", (4, 0)), "lower": ("THROW", "s", (-4, 0))})
    for _ in range(2):
        s.apply_actions({"upper": ("SLIDE", (4, 0), (3, 0)), "lower": ("SLIDE", (-4, 0), (-3, 0))})
        assert not s.is_terminal()
        s.apply_actions({"upper": ("SLIDE", (3, 0), (4, 0)), "lower": ("SLIDE", (-3, 0), (-4, 0))})
    assert s.result().text == "draw: same game state occurred for 3rd time" and s.turn == 5


def test_end_maximum_turns():
    s = position([("upper", "r", (4, 0), 1), ("lower", "s", (-4, 0), 1)], turn=359)
    s.apply_actions({"upper": ("THROW", "p", (4, -1)), "lower": ("THROW", "p", (-4, 1))})
    assert s.turn == 360 and s.result().text == "draw: maximum number of turns reached"
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply_actions({"upper": ("SLIDE", (4, 0), (3, 0)), "lower": ("SLIDE", (-4, 0), (-3, 0))})


def test_end_condition_order_no_tokens_before_invincible():
    # Lower loses its last token and has no throws while Upper's token is also invincible: condition 1 wins.
    s = position([("upper", "r", (0, 0), 1), ("lower", "s", (0, 2), 1)], throws_left=(0, 0))
    s.apply_actions({"upper": ("SLIDE", (0, 0), (0, 1)), "lower": ("SLIDE", (0, 2), (0, 1))})
    assert s.result().text == "winner: upper"


def test_malformed_input_is_a_clear_error():
    s = GAME.new_initial_state()
    for bad in [None, (), ("JUMP", (4, 0), (3, 0)), ("SLIDE", [4, 0], [3, 0]), ("SLIDE", (4, 0)), "SLIDE", 7]:
        with pytest.raises(IllegalAction):
            s.check_action("upper", bad)
    for bad in [{"upper": ("THROW", "r", (4, 0))}, {}, None, {"upper": 1, "lower": 2, "x": 3}]:
        with pytest.raises(IllegalAction):
            s.apply_actions(bad)
    for bad in [None, [], ["THROW", "r"], ["THROW", "q", [4, 0]], ["SLIDE", [4, "0"], [3, 0]], ["SLIDE", [True, 0], [3, 0]],
                ["FLY", [0, 0], [1, 0]]]:
        with pytest.raises(IllegalAction, match="malformed"):
            GAME.action_from_json(bad)
    with pytest.raises(IllegalAction, match="malformed"):
        GAME.action_from_text("SLIDE from (1, 1)")


def test_action_forms_round_trip():
    for action in [("THROW", "p", (-3, 2)), ("SLIDE", (1, -1), (0, -1)), ("SWING", (0, 0), (2, -1))]:
        assert GAME.action_from_json(json.loads(json.dumps(GAME.action_to_json(action)))) == action
        assert GAME.action_from_text(GAME.action_to_text(action)) == action
    assert GAME.action_to_text(("SLIDE", (1, -1), (0, -1))) == "SLIDE from (1, -1) to (0, -1)"
    assert GAME.action_to_text(("THROW", "p", (-3, 2))) == "THROW symbol p to (-3, 2)"
    assert GAME.action_from_text("SLIDE from Hex(r=2, q=-2) to Hex(r=1, q=-1)") == ("SLIDE", (2, -2), (1, -1))
    assert GAME.action_from_text("SLIDE from Hex(r=-3, q=0) to (-2, 0)") == ("SLIDE", (-3, 0), (-2, 0))


def test_text_and_observation():
    s = position([("upper", "r", (4, 0), 2), ("lower", "s", (-4, 0), 1)])
    text = s.to_text()
    assert text.splitlines()[1].startswith("+4") and "R2" in text and "s" in text
    assert s.observation("upper") == s.observation(None) == s.to_json()


def random_game(seed, max_turns=400):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    turns = []
    while not s.is_terminal() and len(turns) < max_turns:
        joint = {p: rng.choice(s.legal_actions(p)) for p in s.players_to_act()}
        turns.append(joint)
        s.apply_actions(joint)
    return s, turns


def check_invariants(s):
    js = s.to_json()
    per_hex = {}
    for t in js["tokens"]:
        assert t["count"] >= 1
        per_hex.setdefault(tuple(t["hex"]), set()).add(t["symbol"])
    for symbols in per_hex.values():
        assert len(symbols) == 1  # after battles, one symbol per hex
    for side in ("upper", "lower"):
        thrown = 9 - js["throws_left"][side]
        assert 0 <= thrown <= 9
        on_board = sum(t["count"] for t in js["tokens"] if t["player"] == side)
        assert on_board + sum(js["defeated"][side].values()) == thrown


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_stay_legal_and_listed_actions_are_accepted(seed):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    while not s.is_terminal():
        check_invariants(s)
        joint = {}
        for p in s.players_to_act():
            acts = s.legal_actions(p)
            assert len(acts) == len(set(acts))
            assert set(acts) == brute_force_actions(s, p)
            for a in rng.sample(list(acts), min(5, len(acts))):
                s.check_action(p, a)
            joint[p] = rng.choice(acts)
        s.apply_actions(joint)
    check_invariants(s)
    assert s.result().text.startswith(("winner: ", "draw: "))


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.data())
def test_illegal_actions_never_mutate(seed, data):
    s, _ = random_game(seed, max_turns=data.draw(st.integers(0, 120)))
    if s.is_terminal():
        return
    before = json.dumps(s.to_json()), s.key, dict(s.history)
    hexes = st.tuples(st.integers(-5, 5), st.integers(-5, 5))
    action = data.draw(st.one_of(
        st.tuples(st.sampled_from(["SLIDE", "SWING"]), hexes, hexes),
        st.tuples(st.just("THROW"), st.sampled_from(["r", "p", "s", "x"]), hexes)))
    player = data.draw(st.sampled_from(["upper", "lower"]))
    legal = action in s.legal_actions(player)
    try:
        s.check_action(player, action)
        assert legal
    except IllegalAction:
        assert not legal
    other = "lower" if player == "upper" else "upper"
    if not legal:
        with pytest.raises(IllegalAction):
            s.apply_actions({player: action, other: s.legal_actions(other)[0]})
    assert (json.dumps(s.to_json()), s.key, dict(s.history)) == before


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_replaying_a_log_reproduces_the_final_state(seed):
    from games.engine.history import replay_checked
    from games.ropasci360 import logs as refereelog
    s, turns = random_game(seed)
    text = refereelog.write([{"upper": j["upper"], "lower": j["lower"]} for j in turns], s.result().text if s.result() else None)
    rep = replay_checked(refereelog.GAME, refereelog.parse(text).turns)
    assert rep.state.to_json() == s.to_json()
    assert rep.outcome == (s.result().text if s.result() else f"unfinished after {len(turns)} turns")


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(0, 200))
def test_json_state_round_trip(seed, turns):
    s, _ = random_game(seed, max_turns=turns)
    t = GAME.state_from_json(json.loads(json.dumps(s.to_json())))
    assert t.to_json() == s.to_json()
    if not s.is_terminal():
        for p in ("upper", "lower"):
            assert sorted(t.legal_actions(p)) == sorted(s.legal_actions(p))


def test_clone_is_independent():
    s, _ = random_game(3, max_turns=30)
    c = s.clone()
    if not c.is_terminal():
        c.apply_actions({p: c.legal_actions(p)[0] for p in c.players_to_act()})
        assert c.turn == s.turn + 1 and c.to_json() != s.to_json() or c.turn != s.turn
