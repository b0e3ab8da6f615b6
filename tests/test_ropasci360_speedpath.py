"""RoPaSci 360's fast paths against a plain model of the end conditions, computed from ``to_json`` alone.

The engine keeps its repetition history in a compact form (the turn a configuration was first seen, reset
whenever a throw or a defeat makes every earlier configuration unreachable) and resolves the usual turn
inline; these games check that the results are still exactly the referee's, turn by turn, including in
repetition-heavy play, after ``clone`` and after ``state_from_json``.
"""
import random
from collections import Counter

from games.engine import load_game

GAME = load_game("ropasci360")
BEATEN_BY = {"r": "p", "p": "s", "s": "r"}


def configuration(js):
    tokens = tuple(sorted((t["player"], t["symbol"], tuple(t["hex"]), t["count"]) for t in js["tokens"]))
    return tokens, js["throws_left"]["upper"], js["throws_left"]["lower"]


class Model:
    """The referee's end conditions, in its order, from the JSON view of each position."""

    def __init__(self, js):
        self.seen = Counter([configuration(js)])

    def after_turn(self, js):
        left = js["throws_left"]
        symbols = {side: Counter() for side in ("upper", "lower")}
        for t in js["tokens"]:
            symbols[t["player"]][t["symbol"]] += t["count"]
        n = {side: sum(symbols[side].values()) for side in symbols}
        out = {side: left[side] == 0 and n[side] == 0 for side in symbols}
        if out["upper"] and out["lower"]:
            return "draw: no remaining tokens or throws"
        if out["upper"]:
            return "winner: lower"
        if out["lower"]:
            return "winner: upper"
        other = {"upper": "lower", "lower": "upper"}
        invincible = {side: left[other[side]] == 0 and any(symbols[other[side]][BEATEN_BY[s]] == 0
                                                           for s in symbols[side])
                      for side in symbols}
        if invincible["upper"] and invincible["lower"]:
            return "draw: both players have an invincible token"
        for side in symbols:
            if invincible[side] and left[other[side]] == 0 and n[other[side]] == 1:
                return f"winner: {side}"
        config = configuration(js)
        self.seen[config] += 1
        if self.seen[config] >= 3:
            return "draw: same game state occurred for 3rd time"
        if js["turn"] >= 360:
            return "draw: maximum number of turns reached"
        return None


def choose(rng, state, player, last):
    """A random legal action, or (often, in repetition-heavy play) the way back of the previous move."""
    acts = state.legal_actions(player)
    a = last.get(player)
    if a and a[0] != "THROW" and rng.random() < 0.7:
        back = (a[0], a[2], a[1])
        if back in acts:
            return back
    return rng.choice(acts)


def play(seed, repeat_heavy):
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    model = Model(state.to_json())
    last = {}
    results = []
    while not state.is_terminal():
        if rng.random() < 0.02:  # continue from a copy, or from a reloaded position (history starts afresh)
            if rng.random() < 0.5:
                state = state.clone()
            else:
                js = state.to_json()
                if rng.random() < 0.3:
                    js["turn"] = max(js["turn"], rng.randint(330, 359))
                state = GAME.state_from_json(js)
                model = Model(state.to_json())
        joint = {p: choose(rng, state, p, last if repeat_heavy else {}) for p in ("upper", "lower")}
        state.apply_actions(joint)
        last = joint
        expected = model.after_turn(state.to_json())
        got = state.result().text if state.result() else None
        assert got == expected, (seed, state.turn, joint)
        results.append(got)
    return results[-1]


def test_end_conditions_match_a_plain_model_turn_by_turn():
    ends = Counter(play(seed, repeat_heavy=seed % 2 == 0) for seed in range(300))
    # The games reach every kind of end, repetition included.
    assert ends["draw: same game state occurred for 3rd time"] >= 20
    assert ends["draw: maximum number of turns reached"] >= 5
    assert ends["winner: upper"] + ends["winner: lower"] >= 20
    assert ends["draw: both players have an invincible token"] >= 20


def test_a_clone_plays_on_exactly_like_the_original():
    rng = random.Random(7)
    for _ in range(30):
        state = GAME.new_initial_state()
        for _ in range(rng.randint(0, 150)):
            if state.is_terminal():
                break
            state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in ("upper", "lower")})
        twin = state.clone()
        while not state.is_terminal():
            assert state.to_json() == twin.to_json()
            for p in ("upper", "lower"):
                assert state.legal_actions(p) == twin.legal_actions(p)
            joint = {p: rng.choice(state.legal_actions(p)) for p in ("upper", "lower")}
            t1, t2 = state.apply_actions(joint), twin.apply_actions(dict(joint))
            assert (t1.number, t1.actions, t1.events) == (t2.number, t2.actions, t2.events)
        assert twin.result() == state.result()
