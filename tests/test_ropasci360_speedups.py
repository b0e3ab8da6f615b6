"""RoPaSci 360's optional C speedups (games/ropasci360/_speedups.c) against the pure-Python engine.

Differential: the same turns go through a state using the C methods and through an identical state using
rules.py's Python methods (``rules.PURE_LEGAL_ACTIONS``, ``rules.PURE_APPLY_ACTIONS``), and after every
turn everything must be equal: each field of the state, both sides' legal actions (same list, same order,
same tuple objects), the Turn returned, the exception raised and its message, the result. Played over
seeded random games (repetition-heavy ones too, continued from clones and from JSON), hypothesis-drawn
action sequences with illegal and malformed actions, and states with odd fields that the C code must hand
to Python. Skipped when the extension is not built (``make setup`` or ``make test`` builds it).
"""
import collections
import json
import os
import random
import subprocess
import sys
import tracemalloc
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from games.engine.api import Turn
from games.ropasci360 import rules

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = rules.GAME
State = rules.RoPaSci360State
PY_LEGAL, PY_APPLY = rules.PURE_LEGAL_ACTIONS, rules.PURE_APPLY_ACTIONS
SIDES = ("upper", "lower")
FIELDS = ("turn", "thrown", "occ", "sym", "cnt", "symcount", "defeated", "key", "history", "_own", "_settled",
          "_result")
PREBUILT = list(rules._ACTION_INFO)  # every slide, swing and throw tuple of the tables

needs_c = pytest.mark.skipif(
    rules.SPEEDUPS != "on",
    reason=f"RoPaSci 360's C speedups are not in use ({rules.SPEEDUPS})"
           + ("" if "ROPASCI_PURE_PYTHON" in rules.SPEEDUPS
              else "; build them with `.venv/bin/python scripts/build_speedups.py` (make setup does)"))


# --- comparing the two engines --------------------------------------------------------------------------

def fields(state):
    return {f: getattr(state, f, "<unset>") for f in FIELDS}


def exact_types(value):
    """The value with its types spelled out, so that 1 and True, or 1 and 1.0, do not compare equal."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [exact_types(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(exact_types(k), exact_types(v)) for k, v in value.items()])
    return (type(value).__name__, value)


def assert_same_state(c, py):
    fc, fp = fields(c), fields(py)
    for f in FIELDS:
        assert exact_types(fc[f]) == exact_types(fp[f]), f"field {f}: C {fc[f]!r} != Python {fp[f]!r}"
    if any(py._result is r for r in rules._RESULTS.values()):
        assert c._result is py._result  # the _RESULTS objects themselves (state_from_json makes its own)


def outcome(call):
    """What a call did: ("ok", value) or ("raised", type, message, and IllegalAction's fields)."""
    try:
        return ("ok", call())
    except Exception as exc:  # noqa: BLE001 - any exception must be the same in both engines
        return ("raised", type(exc), str(exc), getattr(exc, "player", None), getattr(exc, "rule", None))


def assert_same_outcome(oc, op):
    if oc[0] == "raised" or op[0] == "raised":
        assert oc == op
        return
    tc, tp = oc[1], op[1]
    assert type(tc) is Turn and type(tp) is Turn
    assert (tc.number, tc.actions, tc.events) == (tp.number, tp.actions, tp.events)
    assert exact_types(tc.number) == exact_types(tp.number) and exact_types(tc.events) == exact_types(tp.events)
    assert list(tc.actions) == list(tp.actions) == ["upper", "lower"]
    for side in SIDES:
        assert tc.actions[side] is tp.actions[side]  # the objects given, in both


def assert_same_legal_actions(c, py):
    for player in SIDES:
        oc, op = outcome(lambda: c.legal_actions(player)), outcome(lambda: PY_LEGAL(py, player))
        if oc[0] == "raised" or op[0] == "raised":
            assert oc == op
            continue
        lc, lp = oc[1], op[1]
        assert type(lc) is type(lp) and lc == lp
        assert all(a is b for a, b in zip(lc, lp)), "not the same prebuilt tuples"
        if isinstance(lp, tuple):  # no token on the board: the prebuilt tuple of throws itself
            assert lc is lp


def step(c, py, actions_c, actions_py=None):
    """One turn through both engines (the same actions; a separate but equal mapping each), compared."""
    oc = outcome(lambda: c.apply_actions(actions_c))
    op = outcome(lambda: PY_APPLY(py, actions_c if actions_py is None else actions_py))
    assert_same_outcome(oc, op)
    assert_same_state(c, py)
    assert c.result() is py.result()
    assert_same_legal_actions(c, py)
    return oc


def twins(build):
    """Two equal states from the same recipe."""
    c, py = build(), build()
    assert_same_state(c, py)
    return c, py


# --- seeded random games --------------------------------------------------------------------------------

def choose(rng, acts, last, repeat_heavy):
    """A random action, or (in repetition-heavy play) often the way back of the previous move."""
    if repeat_heavy and last and last[0] != "THROW" and rng.random() < 0.7:
        back = (last[0], last[2], last[1])
        for a in acts:
            if a == back:
                return a
    return acts[int(rng.random() * len(acts))]


@needs_c
def test_seeded_random_games_match_turn_by_turn():
    ends = collections.Counter()
    turns = 0
    for seed in range(400):
        rng = random.Random(seed)
        repeat_heavy = seed % 3 == 0
        c, py = twins(GAME.new_initial_state)
        last = {}
        while not py.is_terminal():
            if rng.random() < 0.01:  # continue from clones, or from positions reloaded from JSON
                if rng.random() < 0.5:
                    c, py = c.clone(), py.clone()
                else:
                    js = json.loads(json.dumps(py.to_json()))
                    c, py = GAME.state_from_json(js), GAME.state_from_json(js)
                assert_same_state(c, py)
            joint = {p: choose(rng, PY_LEGAL(py, p), last.get(p), repeat_heavy) for p in SIDES}
            step(c, py, joint, dict(joint))
            last = joint
            turns += 1
        ends[py.result().text] += 1
    assert turns > 30_000
    # Every way a game ends, through both engines.
    assert ends["draw: same game state occurred for 3rd time"] >= 50
    assert ends["draw: maximum number of turns reached"] >= 1
    assert ends["draw: both players have an invincible token"] >= 50
    assert ends["winner: upper"] >= 20 and ends["winner: lower"] >= 20


@needs_c
def test_positions_from_json_and_their_round_trips():
    rng = random.Random(11)
    for _ in range(300):
        tokens, used = [], set()
        for _ in range(rng.randint(0, 8)):
            h = rng.choice(rules.HEXES)
            if h in used:
                continue
            used.add(h)
            tokens.append({"player": rng.choice(SIDES), "symbol": rng.choice("rps"), "hex": list(h),
                           "count": rng.randint(1, 3)})
        js = {"turn": rng.randint(0, 358), "tokens": tokens,
              "throws_left": {"upper": rng.randint(0, 9), "lower": rng.randint(0, 9)},
              "defeated": {"upper": {"r": rng.randint(0, 3)}, "lower": {"s": rng.randint(0, 3)}}}
        c, py = twins(lambda: GAME.state_from_json(js))
        assert_same_legal_actions(c, py)
        for _ in range(rng.randint(1, 40)):
            legal = {p: PY_LEGAL(py, p) for p in SIDES}
            if py.is_terminal() or not all(legal.values()):  # (a side out of tokens and throws, unjudged)
                break
            step(c, py, {p: rng.choice(legal[p]) for p in SIDES})
        back = json.loads(json.dumps(c.to_json()))
        assert back == py.to_json()
        c2, py2 = twins(lambda: GAME.state_from_json(back))
        assert c2.to_json() == c.to_json()
        if not py2.is_terminal() and all(PY_LEGAL(py2, p) for p in SIDES):
            step(c2, py2, {p: rng.choice(PY_LEGAL(py2, p)) for p in SIDES})


# --- hypothesis: action sequences with illegal and malformed actions --------------------------------------

hexes = st.tuples(st.integers(-5, 5), st.integers(-5, 5))
garbage = st.one_of(
    st.none(), st.integers(), st.text(max_size=6), st.just("SLIDE"), st.just(()), st.just(("SLIDE",)),
    st.just(("SLIDE", (0, 0))), st.tuples(st.sampled_from(["SLIDE", "SWING", "JUMP", "THROW"]), hexes, hexes),
    st.tuples(st.just("THROW"), st.sampled_from(["r", "p", "s", "x", None]), hexes),
    st.tuples(st.just("THROW"), st.just("r"), hexes, st.just(1)), st.just(("SLIDE", (0, 0), "ab")),
    st.just(("SLIDE", [0, 0], [1, 0])), st.just({"kind": "SLIDE"}), st.just([["SLIDE"]]))


def action_for(draw, py, player):
    """One of: a legal action (the prebuilt tuple), any prebuilt tuple (often illegal), an equal tuple
    that is not the prebuilt one, the list form, or garbage."""
    legal = PY_LEGAL(py, player) if not py.is_terminal() else []
    kind = draw(st.sampled_from(["legal"] * 6 + ["prebuilt", "copy", "list", "garbage"]))
    if kind == "legal" and legal:
        return draw(st.sampled_from(list(legal)))
    if kind == "garbage":
        return draw(garbage)
    a = draw(st.sampled_from(list(legal) if legal and draw(st.booleans()) else PREBUILT))
    if kind == "copy":
        copy = (a[0], a[1] if a[0] == "THROW" else tuple(list(a[1])), tuple(list(a[2])))
        assert copy == a and copy is not a
        return copy
    if kind == "list":
        return [a[0], a[1] if a[0] == "THROW" else list(a[1]), list(a[2])]
    return a


def joint_for(draw, au, al):
    """The actions as apply_actions is given them: usually a dict, sometimes odd."""
    form = draw(st.sampled_from(["dict"] * 8 + ["extra", "missing", "proxy", "subclass", "list", "reversed"]))
    if form == "extra":
        return {"upper": au, "lower": al, "third": au}
    if form == "missing":
        return {"upper": au}
    if form == "proxy":
        return types.MappingProxyType({"upper": au, "lower": al})
    if form == "subclass":
        return collections.OrderedDict(upper=au, lower=al)
    if form == "list":
        return [au, al]
    if form == "reversed":
        return {"lower": al, "upper": au}
    return {"upper": au, "lower": al}


@needs_c
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 150), st.data())
def test_action_sequences_with_illegal_and_malformed_actions(seed, warmup, data):
    rng = random.Random(seed)
    c, py = twins(GAME.new_initial_state)
    for _ in range(warmup):  # somewhere in a random game
        if py.is_terminal():
            break
        step(c, py, {p: rng.choice(PY_LEGAL(py, p)) for p in SIDES})
    for _ in range(data.draw(st.integers(1, 30))):
        au, al = action_for(data.draw, py, "upper"), action_for(data.draw, py, "lower")
        joint = joint_for(data.draw, au, al)
        step(c, py, joint, joint if not isinstance(joint, dict) else type(joint)(joint))


# --- states the C code must hand to Python, and other unusual calls --------------------------------------

def played(seed, turns):
    rng = random.Random(seed)
    s = GAME.new_initial_state()
    for _ in range(turns):
        if s.is_terminal():
            break
        PY_APPLY(s, {p: rng.choice(PY_LEGAL(s, p)) for p in SIDES})
    return s


def corrupt_own_unsorted(s):
    s._own[0].reverse()


def corrupt_own_missing(s):
    s._own[0].pop()


def corrupt_count(s):
    i = s._own[0][0]
    s.cnt[0][i] = 0


def corrupt_count_big(s):
    s.cnt[0][s._own[0][0]] = 1000


def corrupt_symbol(s):
    s.sym[0][s._own[0][0]] = 7


def corrupt_bool_symbol(s):
    s.sym[0][s._own[0][0]] = True


def corrupt_key(s):
    s.key = -s.key


def corrupt_key_float(s):
    s.key = float(s.key % 1000)


def corrupt_history(s):
    s.history = collections.OrderedDict(s.history)


def corrupt_settled(s):
    s._settled = 1


def corrupt_thrown(s):
    s.thrown = tuple(s.thrown)


def corrupt_occ(s):
    s.occ.append(0)


def corrupt_alias(s):
    s.cnt[1] = s.cnt[0]


def corrupt_alias_own(s):
    s._own[1] = s._own[0]


def corrupt_alias_counts(s):
    s.defeated[1] = s.symcount[1]


def corrupt_alias_symcount(s):
    s.symcount[1] = s.symcount[0]


def corrupt_alias_symcount_own(s):
    while len(s._own[0]) < 3:  # an _own list of three hexes, which is also symcount[0]
        i = next(i for i in range(rules.N) if not s.occ[0] >> i & 1 and not s.occ[1] >> i & 1)
        s.occ[0] += 1 << i
        s.sym[0][i], s.cnt[0][i] = 0, 1
        s._own[0].append(i)
        s._own[0].sort()
    s.symcount[0] = s._own[0]


def corrupt_occ_bit(s):
    i = s._own[0].pop()
    s.occ[0] -= 1 << i


class FloatList(list):
    """A list that stores what it is given as floats: Python's code writes through __setitem__."""

    def __setitem__(self, i, v):
        super().__setitem__(i, float(v))


def corrupt_list_subclass(s):
    s.cnt[0] = FloatList(s.cnt[0])


def corrupt_settled_lie(s):
    s._settled = True


def corrupt_turn(s):
    s.turn = 400


def corrupt_turn_limit(s):
    s.turn = 359


def corrupt_symcount(s):
    s.symcount[0] = [0, 0]


def corrupt_defeated(s):
    s.defeated[1][2] = -3


def corrupt_unset(s):
    del s.history


CORRUPTIONS = [corrupt_own_unsorted, corrupt_own_missing, corrupt_count, corrupt_count_big, corrupt_symbol,
               corrupt_bool_symbol, corrupt_key, corrupt_key_float, corrupt_history, corrupt_settled,
               corrupt_thrown, corrupt_occ, corrupt_alias, corrupt_alias_own, corrupt_alias_counts,
               corrupt_alias_symcount, corrupt_alias_symcount_own, corrupt_occ_bit, corrupt_list_subclass,
               corrupt_settled_lie,
               corrupt_turn, corrupt_turn_limit, corrupt_symcount, corrupt_defeated, corrupt_unset]


@needs_c
@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__[len("corrupt_"):])
def test_odd_states_behave_as_in_python(corrupt):
    """Fields set by hand to what rules.py never makes: the C methods must do what Python does (raise the
    same error, or play the same turn), which they do by handing such states to Python. The actions are
    the legal ones of the state before it was changed (so they also move the tokens the change hid)."""
    for seed in range(40):
        def build():
            s = played(seed, 10 + seed * 3)
            if not s.is_terminal() and s._own[0]:
                corrupt(s)
            return s
        clean = played(seed, 10 + seed * 3)
        c, py = twins(build)
        rng = random.Random(seed)
        for _ in range(5):
            if clean.is_terminal():
                break
            joint = {p: rng.choice(PY_LEGAL(clean, p)) for p in SIDES}
            PY_APPLY(clean, joint)
            if step(c, py, joint)[0] == "raised":
                break


@needs_c
def test_the_settled_flag_is_trusted_as_in_python():
    """rules.py's usual turn skips end conditions 1-3 once _settled is set: so must the C code, in each of
    its paths (here Lower's last token leaves the hex Upper slides to, which is not a battle)."""
    js = {"turn": 10, "throws_left": {"upper": 0, "lower": 0},
          "tokens": [{"player": "upper", "symbol": "r", "hex": [0, 0], "count": 1},
                     {"player": "lower", "symbol": "s", "hex": [0, 1], "count": 1}]}
    for settled in (False, True):
        def build():
            s = GAME.state_from_json(js)
            s._settled = settled
            return s
        c, py = twins(build)
        up = next(a for a in PY_LEGAL(py, "upper") if a == ("SLIDE", (0, 0), (0, 1)))
        low = next(a for a in PY_LEGAL(py, "lower") if a == ("SLIDE", (0, 1), (1, 1)))
        step(c, py, {"upper": up, "lower": low})
        assert (py.result() is None) == settled  # (upper's invincible rock wins unless the flag hides it)


@needs_c
@pytest.mark.parametrize("lower_count,defeated,symcount", [(100, 100, None), (100, 0, 0), (60, 0, None), (3, 250, None)])
def test_large_counts_as_in_python(lower_count, defeated, symcount):
    """Groups of a hundred tokens (only a hand-built state has them), counts by symbol that do not add up:
    the counts the turn leaves may pass 256 (the ints CPython caches) or go negative; same as Python."""
    js = {"turn": 5, "throws_left": {"upper": 0, "lower": 0},
          "tokens": [{"player": "upper", "symbol": "r", "hex": [0, 0], "count": 1},
                     {"player": "upper", "symbol": "r", "hex": [2, 0], "count": 1},
                     {"player": "lower", "symbol": "s", "hex": [0, 1], "count": lower_count},
                     {"player": "lower", "symbol": "s", "hex": [2, -1], "count": 1},
                     {"player": "lower", "symbol": "s", "hex": [2, 0], "count": lower_count}]}

    def build():
        s = GAME.state_from_json(js)
        s.defeated[1][2] = defeated
        if symcount is not None:
            s.symcount[1][2] = symcount
        return s
    c, py = twins(build)
    # Upper's rock slides onto a group of Lower's scissors; Lower's scissors slides onto a hex holding
    # Upper's rock and a group of its own scissors (together: only by hand): two battles.
    up = next(a for a in PY_LEGAL(py, "upper") if a == ("SLIDE", (0, 0), (0, 1)))
    low = next(a for a in PY_LEGAL(py, "lower") if a == ("SLIDE", (2, -1), (2, 0)))
    step(c, py, {"upper": up, "lower": low})
    assert py.defeated[1][2] == defeated + 2 * lower_count + 1


@needs_c
def test_unusual_calls_go_to_python():
    s = played(3, 30)
    c, py = twins(lambda: played(3, 30))
    joint = {p: PY_LEGAL(py, p)[0] for p in SIDES}
    # Keyword arguments, missing or extra arguments: the Python method's answers.
    assert_same_outcome(outcome(lambda: c.apply_actions(actions=dict(joint))),
                        outcome(lambda: PY_APPLY(py, actions=dict(joint))))
    assert_same_state(c, py)
    assert outcome(lambda: c.apply_actions()) == outcome(lambda: PY_APPLY(py))
    assert outcome(lambda: c.legal_actions()) == outcome(lambda: PY_LEGAL(py))
    assert outcome(lambda: c.legal_actions("upper", 1)) == outcome(lambda: PY_LEGAL(py, "upper", 1))
    assert c.legal_actions(player="upper") == PY_LEGAL(py, player="upper")
    for player in ("upper", "lower", "nobody", None, 0, "".join(["up", "per"])):
        assert outcome(lambda: c.legal_actions(player)) == outcome(lambda: PY_LEGAL(py, player))

    # A subclass (which may override helpers) gets the Python methods' behaviour.
    class Sub(State):
        __slots__ = ()
    sub_c, sub_py = Sub(), Sub()
    step(sub_c, sub_py, {p: PY_LEGAL(sub_py, p)[0] for p in SIDES})

    # A finished game.
    while not py.is_terminal():
        step(c, py, {p: PY_LEGAL(py, p)[-1] for p in SIDES})
    step(c, py, {"upper": s.legal_actions("upper")[0], "lower": s.legal_actions("lower")[0]})
    assert c.legal_actions("upper") == [] == PY_LEGAL(py, "upper")


@needs_c
def test_the_methods_are_the_c_functions_and_introspectable():
    assert type(State.__dict__["legal_actions"]).__name__ == "method_descriptor"
    assert type(State.__dict__["apply_actions"]).__name__ == "method_descriptor"
    assert str(__import__("inspect").signature(State.legal_actions)) == "(self, player, /)"
    from games.ropasci360 import _speedups
    with pytest.raises(RuntimeError, match="already installed"):
        _speedups.install(vars(rules))


# --- no leaks, and the switches --------------------------------------------------------------------------

@needs_c
def test_no_reference_or_memory_leaks():
    """Many turns of every kind leave the shared objects' reference counts as they were, and do not grow
    the memory in use."""
    shared = [*PREBUILT[::7], *rules._RESULTS.values(), rules.UNIT[0][1][30], rules.THROW_UNIT[1],
              rules.HEXES[30], *rules.SIDES, *rules.SYMBOLS, rules.THROWS[0][3]]

    def play(games):
        for seed in range(games):
            rng = random.Random(seed)
            s = GAME.new_initial_state()
            while not s.is_terminal():
                s.apply_actions({p: rng.choice(s.legal_actions(p)) for p in SIDES})

    play(50)
    before = [sys.getrefcount(o) for o in shared]
    tracemalloc.start()
    play(100)
    first = tracemalloc.get_traced_memory()[0]
    play(300)
    grown = tracemalloc.get_traced_memory()[0] - first
    tracemalloc.stop()
    assert [sys.getrefcount(o) for o in shared] == before
    assert grown < 100_000, f"{grown} bytes more after 300 more games"


def run_python(code, **env):
    result = subprocess.run([sys.executable, "-W", "always", "-c", code], cwd=BASE_DIR, capture_output=True,
                            text=True, timeout=120, env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    return result


def test_ropasci_pure_python_forces_the_python_methods():
    out = run_python("from games.ropasci360 import rules as r; S = r.RoPaSci360State\n"
                     "print(r.SPEEDUPS); print(S.apply_actions is r.PURE_APPLY_ACTIONS, "
                     "S.legal_actions is r.PURE_LEGAL_ACTIONS)", ROPASCI_PURE_PYTHON="1")
    assert out.stdout.splitlines() == ["off: ROPASCI_PURE_PYTHON is set", "True True"]


@needs_c
def test_a_build_of_another_version_is_not_used():
    out = run_python("import games.ropasci360._speedups as m; m.VERSION += 1\n"
                     "from games.ropasci360 import rules as r\n"
                     "print(r.SPEEDUPS); print(r.RoPaSci360State.apply_actions is r.PURE_APPLY_ACTIONS)")
    assert out.stdout.splitlines()[0].startswith("off: stale build")
    assert out.stdout.splitlines()[1] == "True"
    assert "RuntimeWarning" in out.stderr and "stale build" in out.stderr
