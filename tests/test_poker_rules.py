"""Poker: a test per rule (docs/games/poker.md), hand ranking through the evaluator wrapper, side pots, the
secrecy of hole cards (observations and redacted turn records), property tests over random games, the bots
and the UI adapter."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import xml.dom.minidom
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import CHANCE, RESIGN, IllegalAction, InvalidParams
from games.engine.history import fold
from games.poker import make_game
from games.poker.bots import BOTS
from games.poker.rules import ACTIONS, MAX_HANDS, big_blind_at, hand_name, hand_value, secrets, side_pots
from tests.test_poker_bots import ObservationOnly

BASE_DIR = Path(__file__).resolve().parent.parent


def deal(state, *cards):
    """Deal ``cards`` in order to whoever chance deals to next."""
    for card in cards:
        where = state.chance_outcomes()[0][0].partition(":")[0]
        state.apply_chance(f"{where}:{card}")


def act(state, *actions):
    for action in actions:
        state.apply_action(state.players_to_act()[0], action)


def random_game(game, seed, *, keep=False):
    """Play a seeded random game to the end; with ``keep`` also the states before each turn and the records."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    before, records = [], []
    while not state.is_terminal():
        if keep:
            before.append(state.clone())
        if state.is_chance_node():
            outcome = rng.choice(state.chance_outcomes())[0]
            records.append({CHANCE: outcome})
            state.apply_chance(outcome)
        else:
            seat = state.players_to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            records.append({seat: game.action_to_json(action)})
            state.apply_action(seat, action)
    return state, before, records


def strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*map(strings, value.values()))
    if isinstance(value, list):
        return set().union(*map(strings, value))
    return set()


# --- parameters and setup ----------------------------------------------------------------------------

def test_parameters():
    game = make_game()
    assert game.params == {"players": 6, "chips": 1000, "big_blind": 20}
    assert game.info.players == ("p0", "p1", "p2", "p3", "p4", "p5")
    assert game.info.chance and not game.info.perfect_information
    assert make_game(players=10).info.players[-1] == "p9"
    for bad in ({"players": 1}, {"players": 11}, {"big_blind": 15}, {"chips": 10, "big_blind": 20},
                {"players": True}, {"ante": 5}):
        with pytest.raises(InvalidParams):
            make_game(**bad)


def test_first_hand_button_blinds_and_deal_order():
    s = make_game().new_initial_state()
    obs = s.to_json()
    assert (obs["hand"], obs["button"], obs["big_blind"], obs["small_blind"]) == (1, "p0", 20, 10)
    assert [d["bet"] for d in obs["seats"]] == [0, 10, 20, 0, 0, 0]
    assert s.is_chance_node() and s.players_to_act() == []
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 52 and all(p == pytest.approx(1 / 52) for _, p in outcomes)
    order = []
    for _ in range(12):
        order.append(s.chance_outcomes()[0][0].partition(":")[0])
        deal(s, s.chance_outcomes()[0][0].partition(":")[2])
    assert order == ["p1", "p2", "p3", "p4", "p5", "p0"] * 2  # one card at a time from the button's left
    assert len(s.chance_outcomes()) == 0 and s.players_to_act() == ["p3"]  # after the big blind


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after():
    s = make_game(players=2).new_initial_state()
    assert [d["bet"] for d in s.to_json()["seats"]] == [10, 20]
    deal(s, "As", "Ks", "Ad", "Kd")
    assert s.players_to_act() == ["p0"]
    assert s.legal_actions("p0") == ["fold", "call", "raise", "all_in"]
    act(s, "call")
    assert s.legal_actions("p1") == ["fold", "check", "raise", "all_in"]  # the big blind's option
    act(s, "check")
    deal(s, "2c", "7d", "9h")
    assert s.players_to_act() == ["p1"]


def test_bet_and_raise_sizes_are_the_big_blind():
    s = make_game(players=3).new_initial_state()
    deal(s, *"As Ks Qs Ad Kd Qd".split())
    assert s.players_to_act() == ["p0"]
    act(s, "raise")  # to 40
    assert s.bet == [40, 10, 20]
    act(s, "call", "raise")  # p1 calls 40, p2 raises to 60
    assert s.bet == [40, 40, 60]
    act(s, "call", "call")
    deal(s, "2c", "3d", "4h")
    assert s.legal_actions("p1") == ["fold", "check", "bet", "all_in"]
    act(s, "bet")
    assert s.bet == [0, 20, 0] and s.legal_actions("p2") == ["fold", "call", "raise", "all_in"]
    with pytest.raises(IllegalAction, match="there is a bet to call"):
        s.check_action("p2", "check")
    with pytest.raises(IllegalAction, match="not your turn"):
        s.check_action("p0", "fold")


def test_short_stack_must_go_all_in():
    s = make_game(players=2, chips=30).new_initial_state()
    deal(s, "As", "Ks", "Ad", "Kd")
    assert s.legal_actions("p0") == ["fold", "call", "all_in"]  # 20 behind: a raise to 40 costs 30
    act(s, "call")
    assert s.legal_actions("p1") == ["fold", "check", "all_in"]
    with pytest.raises(IllegalAction, match="go all in"):
        s.check_action("p1", "raise")


def test_no_raise_when_nobody_could_call_it():
    """Heads-up against an all in, or with everyone else all in or folded, only fold, check and call are
    offered (an all in only for no more than the call): a raise nobody can answer is pointless."""
    game = make_game(players=2)
    data = game.new_initial_state().to_json()
    data["seats"][0]["chips"], data["seats"][1]["chips"] = 490, 1480  # 500 and 1500 with the blinds
    s = game.state_from_json(data)
    deal(s, "As", "Ks", "Ad", "Kd")
    act(s, "all_in")  # p0 all in for 500
    assert s.legal_actions("p1") == ["fold", "call"]
    for action in ("raise", "all_in"):
        with pytest.raises(IllegalAction, match="nobody could call it"):
            s.check_action("p1", action)
    # Three seats (p0 the button, 500 chips; p1 1000 and p2 1510 with the blinds): p0 all in, p1 folds, p2
    # may only call or fold.
    three = make_game(players=3)
    data = three.new_initial_state().to_json()
    for seat, chips in zip(data["seats"], (490, 990, 1490)):
        seat["chips"] = chips
    s = three.state_from_json(data)
    deal(s, *"As Ks Qs Ad Kd Qd".split())
    act(s, "all_in", "fold")
    assert s.legal_actions("p2") == ["fold", "call"]
    # While another seat could answer, raises stay; once p0 and p1 are all in, p2 may not raise.
    s = three.state_from_json(data)
    deal(s, *"As Ks Qs Ad Kd Qd".split())
    act(s, "all_in")
    assert s.legal_actions("p1") == ["fold", "call", "raise", "all_in"]
    act(s, "all_in")
    assert s.legal_actions("p2") == ["fold", "call"]
    # Short of the call: the all in is the call for less, and stays.
    game = make_game(players=2)
    data = game.new_initial_state().to_json()
    data["seats"][0]["chips"], data["seats"][1]["chips"] = 1590, 380  # 1600 and 400 with the blinds
    s = game.state_from_json(data)
    deal(s, "As", "Ks", "Ad", "Kd")
    act(s, "all_in")
    assert s.legal_actions("p1") == ["fold", "all_in"]


def test_random_games_never_offer_an_unanswerable_raise():
    game = make_game(players=4, chips=200)
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(rng.choice(state.chance_outcomes())[0])
                continue
            seat = state.players_to_act()[0]
            i = game.index[seat]
            legal = state.legal_actions(seat)
            others = [j for j in range(4) if j != i and state.in_hand[j] and not state.folded[j]]
            if all(state.chips[j] == 0 for j in others):
                assert not {"bet", "raise"} & set(legal)
                assert "all_in" not in legal or state.chips[i] <= max(state.bet) - state.bet[i]
            state.apply_action(seat, rng.choice(legal))


def test_fold_to_the_big_blind_wins_without_showdown():
    s = make_game(players=3).new_initial_state()
    deal(s, *"As Ks Qs Ad Kd Qd".split())
    turn = s.apply_action("p0", "fold")
    assert turn.events == [{"seat": "p0", "action": "fold", "amount": 0, "bet": 0}]
    turn = s.apply_action("p1", "fold")
    assert {"pots": [{"amount": 30, "winners": ["p2"]}], "winners": ["p2"], "won": {"p2": 30}} in turn.events
    assert not any("showdown" in e for e in turn.events) and "Qd" not in strings(turn.events)
    # Hand 2: the button moves one seat left to p1, the blinds follow (p2 small, p0 big).
    obs = s.to_json()
    assert (obs["hand"], obs["button"]) == (2, "p1")
    assert [(d["chips"], d["bet"]) for d in obs["seats"]] == [(980, 20), (990, 0), (1000, 10)]
    assert secrets(s, "p0") == set() and obs["board"] == []  # nothing of hand 2 dealt yet


# --- hand ranking (the seed's table, through the evaluator wrapper) ----------------------------------

RANKING = [  # best first; each line beats the next
    ("royal flush", "As Ks Qs Js Ts 2d 3c"),
    ("straight flush", "Kh Qh Jh Th 9h 2d 3c"),
    ("straight flush", "6d 5d 4d 3d 2d Kc Qh"),
    ("straight flush", "5c 4c 3c 2c Ac Kd Qh"),  # the wheel: five high
    ("four of a kind", "Ac Ad Ah As Kd 2c 3h"),
    ("four of a kind", "Ac Ad Ah As Qd 2c 3h"),  # the fifth card breaks the tie
    ("four of a kind", "Kc Kd Kh Ks Ad 2c 3h"),
    ("full house", "Ac Ad Ah 2s 2d 7c 9h"),
    ("full house", "Kc Kd Kh As Ad 7c 9h"),  # trips first
    ("full house", "Kc Kd Kh Qs Qd 7c 9h"),  # then the pair
    ("flush", "Ah Jh 9h 7h 5h 2c 3d"),
    ("flush", "Ah Jh 9h 7h 4h 2c 3d"),  # down to the last card
    ("flush", "Kh Qh Jh Th 8h 2c 3d"),
    ("straight", "Ac Kd Qh Js Tc 2d 3h"),
    ("straight", "6c 5d 4h 3s 2c Kd Kh"),
    ("straight", "5c 4d 3h 2s Ac Kd 9h"),
    ("three of a kind", "Ac Ad Ah Ks Qd 7c 2h"),
    ("three of a kind", "Ac Ad Ah Ks Jd 7c 2h"),
    ("three of a kind", "Kc Kd Kh As Qd 7c 2h"),
    ("two pair", "Ac Ad Ks Kd Qh 7c 2h"),
    ("two pair", "Ac Ad Ks Kd Jh 7c 2h"),  # the kicker
    ("two pair", "Ac Ad Qs Qd Kh 7c 2h"),  # the second pair before the kicker
    ("two pair", "Kc Kd Qs Qd Ah 7c 2h"),
    ("one pair", "Ac Ad Ks Qd Jh 7c 2h"),
    ("one pair", "Ac Ad Ks Qd Th 7c 2h"),
    ("one pair", "Kc Kd As Qd Jh 7c 2h"),
    ("high card", "Ac Kd Qh Js 9c 7d 2h"),
    ("high card", "Ac Kd Qh Js 8c 7d 2h"),
    ("high card", "Kc Qd Jh 9s 8c 6d 2h"),
]


def test_every_category_and_tie_break_of_the_seed():
    values = [hand_value(cards.split()) for _, cards in RANKING]
    assert [hand_name(v) for v in values] == [name for name, _ in RANKING]
    assert all(a > b for a, b in zip(values, values[1:]))


def test_best_five_of_seven_ties_share():
    board = "As Ks Qd Jc 9h".split()
    assert hand_value(board + ["2c", "3d"]) == hand_value(board + ["4c", "5d"])  # the board plays
    assert hand_value(board + ["Th", "2c"]) == hand_value(board + ["Tc", "3d"])  # the same straight


# --- pots ----------------------------------------------------------------------------------------

def test_side_pots_of_the_seeds_example():
    # A and B bet 100 each, C goes all in with 50: a main pot of 150 for all three, 100 for A and B.
    assert side_pots([100, 100, 50], [True, True, True]) == [(150, [0, 1, 2]), (100, [0, 1])]
    # Folded chips stay in the pots; several all-ins make several side pots.
    assert side_pots([30, 100, 250, 250, 60], [True, True, True, True, False]) == [
        (150, [0, 1, 2, 3]), (240, [1, 2, 3]), (300, [2, 3])]


def test_several_all_ins_the_short_stack_wins_the_main_pot():
    game = make_game(players=3)
    data = game.new_initial_state().to_json()
    for seat, chips in zip(data["seats"], (300, 590, 2080)):
        seat["chips"] = chips
    s = game.state_from_json(data)  # stacks 300, 600 and 2100 (blinds included)
    deal(s, "Ah", "Qc", "Kh", "Ad", "Jc", "Kd")  # p1 A-A, p2 Q-J, p0 K-K
    act(s, "all_in", "all_in", "call")
    deal(s, "Kc", "9s", "8h", "4d")
    turn = s.apply_chance("river:2h")
    assert {"pots": [{"amount": 900, "winners": ["p0"]}, {"amount": 600, "winners": ["p1"]}],
            "winners": ["p0", "p1"], "won": {"p0": 900, "p1": 600}} in turn.events
    assert sum(s.chips) + sum(s.total) == 3000


def test_odd_chips_go_to_the_first_winner_left_of_the_button():
    s = make_game(players=3, chips=1001).new_initial_state()
    deal(s, "Kd", "2d", "Kh", "3h", "5d", "4s")  # p1 K-3, p2 2-5, p0 K-4
    act(s, "all_in", "all_in", "all_in")
    deal(s, "9c", "Td", "Jh", "Qs")
    turn = s.apply_chance("river:2c")  # p0 and p1 share the king-high straight
    assert {"pots": [{"amount": 3003, "winners": ["p0", "p1"]}], "winners": ["p0", "p1"],
            "won": {"p0": 1501, "p1": 1502}} in turn.events
    assert {"bust": "p2"} in turn.events


# --- bust-outs, the moving button, the end ----------------------------------------------------------

def test_bust_out_button_skips_and_heads_up_blinds():
    s = make_game(players=3).new_initial_state()
    deal(s, "Ah", "2c", "7d", "Ad", "3c", "8d")  # p1 A-A, p2 2-3, p0 7-8
    act(s, "fold", "all_in", "all_in")
    deal(s, "Kc", "Ks", "9h", "Jd")
    turn = s.apply_chance("river:Qh")
    assert {"bust": "p2"} in turn.events
    # Two left: the button moves from p0 to p1, which heads-up posts the small blind.
    assert {"hand_start": 2, "button": "p1", "big_blind": 20, "blinds": {"p1": 10, "p0": 20}} in turn.events
    obs = s.to_json()
    assert [d["status"] for d in obs["seats"]] == ["active", "active", "out"]
    deal(s, "2s", "3s", "4s", "5s")  # two cards each, p0 first (the button's left)
    assert s.hole == [["2s", "4s"], ["3s", "5s"], []] and s.players_to_act() == ["p1"]
    buttons = []
    for _ in range(3):  # the button moves one seat left each hand, skipping p2
        act(s, "fold")
        deal(s, "2s", "3s", "4s", "5s")
        buttons.append(s.to_json()["button"])
    assert buttons == ["p0", "p1", "p0"] and s.to_json()["hand"] == 5


def test_last_player_with_chips_wins():
    s = make_game(players=2).new_initial_state()
    deal(s, "2c", "Ah", "3c", "Ad")  # p1 2-3, p0 A-A
    act(s, "all_in", "all_in")
    deal(s, "Kc", "Ks", "9h", "Jd", "7h")
    assert s.is_terminal() and s.players_to_act() == [] and not s.is_chance_node()
    assert s.result().returns == {"p0": 1.0, "p1": 0.0}
    assert s.result().text == "p0 wins: the last player with chips"
    assert s.to_json()["seats"][1]["status"] == "out"


def test_blinds_double_and_the_hand_limit_ends_the_game():
    assert [big_blind_at(20, h) for h in (1, 10, 11, 21, 31)] == [20, 20, 40, 80, 160]
    game = make_game(players=3)
    data = game.new_initial_state().to_json()
    data["hand"] = MAX_HANDS
    data["big_blind"], data["small_blind"] = big_blind_at(20, MAX_HANDS), big_blind_at(20, MAX_HANDS) // 2
    s = game.state_from_json(data)
    deal(s, *"As Ks Qs Ad Kd Qd".split())
    act(s, "fold", "fold")
    assert s.is_terminal()
    assert s.result().winners == ["p2"] and s.result().text.startswith(f"after {MAX_HANDS} hands")


# --- secrecy -------------------------------------------------------------------------------------

def test_observations_hide_other_hole_cards():
    s = make_game(players=3).new_initial_state()
    deal(s, "Ah", "2c", "7d", "Ad", "3c", "8d")
    assert secrets(s, "p0") == {"Ah", "Ad", "2c", "3c", "p1:Ah", "p1:Ad", "p2:2c", "p2:3c"}
    assert secrets(s, None) == secrets(s, "p0") | {"7d", "8d", "p0:7d", "p0:8d"}
    obs = s.observation("p1")
    assert obs["viewer"] == "p1"
    assert [(d["cards"], d["hidden"]) for d in obs["seats"]] == [([], 2), (["Ah", "Ad"], 0), ([], 2)]
    assert all(d["cards"] == [] for d in s.observation(None)["seats"])
    assert "7d" in strings(s.to_json()) and "7d" not in strings(s.observation("p2"))
    act(s, "fold", "call", "check")
    deal(s, "Kc", "Ks", "9h")
    assert "7d" not in strings(s.observation("p1")) and "Kc" in strings(s.observation(None))


def test_showdown_reveals_only_the_hands_still_in():
    s = make_game(players=3).new_initial_state()
    deal(s, "Ah", "2c", "7d", "Ad", "3c", "8d")
    act(s, "fold", "all_in", "all_in")
    deal(s, "Kc", "Ks", "9h", "Jd")
    turn = s.apply_chance("river:Qh")
    show = next(e for e in turn.events if "showdown" in e)
    assert show["showdown"] == {"p1": ["Ah", "Ad"], "p2": ["2c", "3c"]}
    assert show["hands"] == {"p1": "two pair", "p2": "one pair"}
    assert "7d" not in strings(turn.events)  # p0 folded: its cards stay hidden


def test_redact_record():
    game = make_game(players=3)
    assert game.redact_record({CHANCE: "p1:As"}, "p1", False) == {CHANCE: "p1:As"}
    assert game.redact_record({CHANCE: "p1:As"}, "p0", False) == {CHANCE: "p1:??"}
    assert game.redact_record({CHANCE: "p1:As"}, None, True) == {CHANCE: "p1:??"}
    assert game.redact_record({CHANCE: "flop:As"}, None, False) == {CHANCE: "flop:As"}
    assert game.redact_record({"p2": "call"}, None, False) == {"p2": "call"}


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (6, 3), (10, 4)])
def test_no_observation_or_redacted_record_holds_a_secret(players, seed):
    game = make_game(players=players)
    final, before, records = random_game(game, seed, keep=True)
    hidden_somewhere = False
    for i, state in enumerate(before + [final]):
        over = state.is_terminal()
        for seat in (*game.info.players, None):
            hidden = secrets(state, seat)
            hidden_somewhere |= bool(hidden)
            seen = strings(state.observation(seat))
            for record in records[:i]:
                seen |= strings(game.redact_record(record, seat, over))
            assert not hidden & seen, (i, seat, hidden & seen)
    assert hidden_somewhere


# --- properties over random games ----------------------------------------------------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 7), seed=st.integers(0, 10**6))
def test_chips_are_conserved_and_json_round_trips(players, seed):
    game = make_game(players=players)
    rng = random.Random(seed)
    s = game.new_initial_state()
    total = players * 1000
    while not s.is_terminal():
        data = s.to_json()
        assert json.loads(json.dumps(data)) == data
        again = game.state_from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data and again.players_to_act() == s.players_to_act()
        assert again.chance_outcomes() == s.chance_outcomes()
        dealt = len(data["board"]) + sum(len(d["cards"]) for d in data["seats"])
        assert len(s.chance_outcomes()) in (0, 52 - dealt)  # the deck is not in the state
        if s.is_chance_node():
            s.apply_chance(rng.choice(s.chance_outcomes())[0])
        else:
            seat = s.players_to_act()[0]
            s.apply_action(seat, rng.choice(s.legal_actions(seat)))
        assert sum(s.chips) + sum(s.total) == total and min(s.chips) >= 0
    assert sum(s.chips) == total
    assert sorted(s.result().returns.values())[-1] == 1.0


@pytest.mark.parametrize("players", [2, 3, 10])
def test_random_playouts_end(players):
    for seed in range(5):
        state, _, records = random_game(make_game(players=players), seed)
        assert state.is_terminal() and len(records) < 5000


def test_clones_are_independent_and_illegal_actions_change_nothing():
    game = make_game(players=4)
    _, before, _ = random_game(game, 11, keep=True)
    for s in before[::5]:
        data = s.to_json()
        twin = s.clone()
        if s.is_chance_node():
            twin.apply_chance(twin.chance_outcomes()[-1][0])
            dealt = (s.board + [c for h in s.hole for c in h] or ["Zz"])[0]
            where = s.chance_outcomes()[0][0].partition(":")[0]
            for bad in (f"{where}:{dealt}", "xx:As", "As", None, [1]):
                with pytest.raises(IllegalAction):
                    s.apply_chance(bad)
        else:
            seat = s.players_to_act()[0]
            twin.apply_action(seat, twin.legal_actions(seat)[0])
            for a in set(ACTIONS) - set(s.legal_actions(seat)):
                with pytest.raises(IllegalAction):
                    s.apply_action(seat, a)
            other = next(p for p in game.info.players if p != seat)
            with pytest.raises(IllegalAction):
                s.apply_actions({other: "fold"})
            with pytest.raises(IllegalAction):
                s.apply_actions({seat: "fold", other: "fold"})
        assert s.to_json() == data and twin.to_json() != data


def test_chance_outcomes_are_checked():
    s = make_game(players=2).new_initial_state()
    for bad in ("As", "p0:As", "p1:Zz", "p1:", 3, None, ["p1", "As"]):
        with pytest.raises(IllegalAction):
            s.apply_chance(bad)
    deal(s, "As")
    with pytest.raises(IllegalAction, match="not a card left"):
        s.apply_chance("p0:As")
    with pytest.raises(IllegalAction, match="card is being dealt"):
        s.check_action("p0", "fold")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8)
    | st.sampled_from(ACTIONS + ("Fold", "all in")),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_action_from_json_is_total(data):
    game = make_game()
    try:
        action = game.action_from_json(data, "p0")
    except IllegalAction as exc:
        assert "malformed" in exc.rule
        return
    assert action in ACTIONS and game.action_from_json(game.action_to_json(action)) == action


def test_action_text_forms():
    game = make_game()
    assert [game.action_from_text(t) for t in ("Fold", " CALL ", "all in", "All-In", "allin", "all_in")] == [
        "fold", "call", "all_in", "all_in", "all_in", "all_in"]
    assert all(game.action_from_text(game.action_to_text(a)) == a for a in ACTIONS)
    with pytest.raises(IllegalAction):
        game.action_from_text("shove")


def test_state_from_json_rejects_bad_input():
    game = make_game(players=3)
    good = game.new_initial_state().to_json()
    for change in (lambda d: d.update(hand=0), lambda d: d["seats"][0].update(chips=5),
                   lambda d: d["seats"][0].update(cards=["As", "As"]), lambda d: d.update(board=["As"]),
                   lambda d: d.update(to_move="p9"), lambda d: d.update(pots=[{"amount": 30, "eligible": ["p1"]}]),
                   lambda d: d.update(to_move="p0"), lambda d: d.pop("turn"),
                   lambda d: d["seats"].reverse(), lambda d: d.update(street="showdown")):
        data = json.loads(json.dumps(good))
        change(data)
        with pytest.raises(ValueError):
            game.state_from_json(data)
    for bad in (None, [], "x", {"turn": 0}):
        with pytest.raises(ValueError):
            game.state_from_json(bad)


# --- bots ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 5])
def test_bots_play_legal_moves_from_their_observation_only(players):
    game = make_game(players=players)
    rng = random.Random(players)
    bots = {seat: BOTS[("greedy", "strong")[i % 2]](game, seat, seed=i, seconds=0.01)
            for i, seat in enumerate(game.info.players)}
    s = game.new_initial_state()
    moves = 0
    while not s.is_terminal() and moves < 60:
        if s.is_chance_node():
            s.apply_chance(rng.choice(s.chance_outcomes())[0])
            continue
        seat = s.players_to_act()[0]
        before = s.to_json()
        action = bots[seat].choose(ObservationOnly(s, seat))
        assert s.to_json() == before and action in s.legal_actions(seat)
        s.apply_action(seat, action)
        moves += 1
    assert moves


def test_bots_are_reproducible():
    game = make_game(players=3)
    s = game.new_initial_state()
    deal(s, *"Ks Qs As Kd 7c Ad".split())  # p0 A-A
    picks = {BOTS["greedy"](game, "p0", seed=5).choose(s) for _ in range(3)}
    assert picks == {"raise"}  # A-A: well above a fair share


# --- the UI adapter ------------------------------------------------------------------------------

def test_ui_paths_words_and_stats():
    from games.poker.ui import UI
    game = make_game(players=3)
    ui = UI(game)
    s = game.new_initial_state()
    deal(s, *"Ks Qs As Kd 7c Ad".split())  # p0 A-A
    obs = s.observation("p0")
    for action in s.legal_actions("p0"):
        path = ui.action_path("p0", action)
        assert len(path) == 1 and path[0]["key"] == action and path[0]["label"]
    assert [ui.action_path("p0", a, obs)[0]["label"] for a in s.legal_actions("p0")] == [
        "Fold", "Call 20", "Raise to 40", "All in (1000)"]
    assert ui.action_words("p0", "call", obs) == "Call 20"
    assert ui.seat_stats(obs, "p1") == [("Chips", 990), ("Bet", 10), ("Status", "in")]
    assert ui.event_words({"bust": "p2"}) == "Player 2 has no chips left and is out"
    assert [p.name for p in ui.params()] == ["players", "chips", "big_blind"]
    board = ui.board(obs)
    faces = [c for c in board["cards"] if c["face"]]
    assert {c["label"] for c in faces} == {"Ace of spades", "Ace of diamonds"} and len(board["cards"]) == 6
    assert board["prompt"].startswith("Your turn: call 20")


def test_board_template_renders_valid_svg():
    from django.template import Context, Engine

    from games.poker.ui import UI, card_words
    game = make_game(players=6)
    ui = UI(game)
    engine = Engine(dirs=[str(BASE_DIR / "games/poker/templates")])
    final, before, _ = random_game(game, 3, keep=True)
    for state in before[::15] + [final]:
        for seat in ("p0", "p4", None):
            obs = state.observation(seat)
            html = engine.get_template(ui.board_template).render(Context({"board": ui.board(obs)}))
            svg = xml.dom.minidom.parseString(html.strip()).documentElement
            assert svg.getAttribute("id") == "board" and svg.getAttribute("data-turn") == str(state.turn)
            assert not any(card_words(c) in html for c in secrets(state, seat) if ":" not in c)
    assert (BASE_DIR / "games/poker/static" / ui.stylesheet).exists()


def test_rules_and_bots_do_not_import_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import games.poker.rules, games.poker.bots, games.poker.ui, sys; "
            "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
            "sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, timeout=60).returncode == 0


# --- resigning (three or more seats: fold at once, sit out the rest of the game) ---------------------------

def test_a_seat_that_resigns_folds_at_once_and_sits_out_while_the_others_play_on():
    s = make_game(players=3).new_initial_state()
    deal(s, "Ah", "2c", "7d", "Ad", "3c", "8d")  # p1 A-A, p2 2-3, p0 7-8
    assert s.players_to_act() == ["p0"] and s.can_drop_out("p1")
    turn = s.resign("p1")  # not its turn: it folds out of turn, p0 still to act
    assert turn.actions == {RESIGN: "p1"} and {"resigned": "p1"} in turn.events
    assert s.players_to_act() == ["p0"] and s.to_json()["seats"][1]["status"] == "folded"
    assert s.to_json()["seats"][1]["resigned"] and not s.can_drop_out("p1")
    with pytest.raises(IllegalAction):
        s.resign("p1")
    act(s, "call", "check")
    deal(s, "Kc", "Ks", "9h")
    act(s, "check", "check")  # p2 first after the flop (p1 folded), then p0
    deal(s, "Jd")
    act(s, "check", "check")
    turn = s.apply_chance("river:Qh")
    act(s, "check", "check")
    obs = s.to_json()
    # Hand 2: p1 is not dealt in; heads-up between p2 (button, small blind) and p0.
    assert obs["hand"] == 2 and [d["status"] for d in obs["seats"]] == ["active", "out", "active"]
    assert obs["button"] == "p2" and obs["seats"][1]["chips"] == 990  # its chips stay, out of play
    rng = random.Random(3)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance(rng.choice(s.chance_outcomes())[0])
        else:
            seat = s.players_to_act()[0]
            assert seat != "p1"
            s.apply_action(seat, rng.choice(s.legal_actions(seat)))
    result = s.result()
    assert result.returns["p1"] == 0.0 and result.winners and "p1" not in result.winners


def test_the_seat_to_act_resigning_passes_the_turn_and_the_last_seat_in_wins():
    s = make_game(players=3).new_initial_state()
    deal(s, "Ah", "2c", "7d", "Ad", "3c", "8d")
    s.resign("p0")  # to act: p1 (small blind) is next
    assert s.players_to_act() == ["p1"]
    turn = s.resign("p1")  # p2, the big blind, is the last seat in the hand and in the game
    assert s.is_terminal() and s.result().winners == ["p2"]
    assert s.result().text == "p2 wins: the last player with chips"
    assert any("game_over" in e for e in turn.events)
    assert not s.can_drop_out("p2")


def test_the_most_chips_of_the_seats_still_in_win_at_the_hand_limit():
    s = make_game(players=3).new_initial_state()
    s.hand, s.chips = MAX_HANDS - 1, [1500, 1000, 490]  # p0 leads, then resigns
    deal(s, "Ah", "2c", "7d", "Ad", "3c", "8d")
    s.resign("p0")
    act(s, "fold")  # p1 folds: p2 takes the blinds; the next hand is the last
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance(s.chance_outcomes()[0][0])
        else:
            act(s, "fold")
    assert "p0" not in s.result().winners and s.result().returns["p0"] == 0.0


def test_two_seats_cannot_drop_out_and_a_log_with_resignations_replays():
    two = make_game(players=2).new_initial_state()
    assert not two.can_drop_out("p0")
    with pytest.raises(IllegalAction):
        two.resign("p0")
    game = make_game(players=4)
    for seed in range(6):
        rng = random.Random(seed)
        s, records = game.new_initial_state(), []
        while not s.is_terminal():
            seats = [p for p in game.info.players if s.can_drop_out(p)]
            if len(seats) > 1 and rng.random() < 0.02:
                records.append(s.resign(rng.choice(seats)).actions)
            elif s.is_chance_node():
                outcome = rng.choice(s.chance_outcomes())[0]
                records.append({CHANCE: outcome})
                s.apply_chance(outcome)
            else:
                seat = s.players_to_act()[0]
                action = rng.choice(s.legal_actions(seat))
                records.append({seat: action})
                s.apply_action(seat, action)
            data = s.to_json()
            assert sum(d["chips"] + d["total"] for d in data["seats"]) == 4 * 1000
            assert game.state_from_json(json.loads(json.dumps(data))).to_json() == data
        assert fold(game, records).to_json() == s.to_json()
        gave_up = [r[RESIGN] for r in records if RESIGN in r]
        assert all(s.result().returns[p] == 0.0 for p in gave_up)
