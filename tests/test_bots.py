"""The bots: legality at every level, greedy's tactics, the Nash solver, time budgets, the course adapter,
rebuilding states from turn logs, the worker pool, and the arena."""
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from games.bots import levels_for, make_bot, nash, pool
from games.ropasci360 import bots as ev
from games.bots.arena import ArenaResult, GameRecord, play_game, run_arena, wilson_interval
from games.bots.play import choose_action, replay
from games.engine import load_game

BASE_DIR = Path(__file__).resolve().parent.parent
GAME = load_game("ropasci360")
SEATS = ("upper", "lower")
FAST = 0.03  # seconds per strong move in these tests


def position(tokens, throws_left=(9, 9), turn=0):
    return GAME.state_from_json({
        "turn": turn,
        "throws_left": {"upper": throws_left[0], "lower": throws_left[1]},
        "tokens": [{"player": p, "symbol": s, "hex": list(h), "count": n} for p, s, h, n in tokens],
    })


def random_playout(seed: int, turns: int):
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    log = []
    for _ in range(turns):
        if state.is_terminal():
            break
        acts = {p: rng.choice(state.legal_actions(p)) for p in SEATS}
        state.apply_actions(acts)
        log.append({p: GAME.action_to_json(a) for p, a in acts.items()})
    return state, log


def live_positions(n: int, seed: int = 0):
    out = []
    rng = random.Random(seed)
    while len(out) < n:
        state, _ = random_playout(rng.randrange(10**9), rng.randrange(0, 80))
        if not state.is_terminal():
            out.append(state)
    return out


# --- legality --------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", levels_for(GAME))
def test_every_level_plays_legal_actions_over_random_positions(level):
    for k, state in enumerate(live_positions(8 if level == "strong" else 25, seed=11)):
        for seat in SEATS:
            bot = make_bot(level, GAME, seat, seed=k, seconds=FAST)
            state.check_action(seat, bot.choose(state))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), turns=st.integers(0, 120), level=st.sampled_from(levels_for(GAME)),
       seat=st.sampled_from(SEATS))
def test_bot_actions_are_legal_in_playout_positions(seed, turns, level, seat):
    state, _ = random_playout(seed, turns)
    if state.is_terminal():
        return
    action = make_bot(level, GAME, seat, seed=seed, seconds=FAST).choose(state)
    state.check_action(seat, action)


def test_random_bot_covers_the_action_set():
    state = position([("upper", "r", (4, 0), 1), ("lower", "s", (-4, 0), 1)], throws_left=(0, 0))
    actions = set(state.legal_actions("upper"))
    bot = make_bot("random", GAME, "upper", seed=5)
    seen = Counter(bot.choose(state) for _ in range(60 * len(actions)))
    assert set(seen) == actions
    assert min(seen.values()) > 20  # roughly uniform


def test_random_bot_is_generic():
    class TinyGame:
        class info:
            name = "tiny"
            players = ("a", "b")

    from games.engine.api import State

    class TinyState(State):
        def legal_actions(self, seat):
            return ["x", "y"]

    class PartsState(State):  # the legal actions as a product: chosen part by part, never listed
        def legal_action_parts(self, seat):
            return (("x", "y"), (1, 2, 3))

        def legal_actions(self, seat):
            raise AssertionError("the product is not listed")

    bot = make_bot("random", TinyGame, "a", seed=1)
    assert {bot.choose(TinyState()) for _ in range(50)} == {"x", "y"}
    assert {bot.choose(PartsState()) for _ in range(200)} == {(a, b) for a in "xy" for b in (1, 2, 3)}


def test_unknown_level_and_seat():
    with pytest.raises(ValueError):
        make_bot("grandmaster", GAME, "upper")
    with pytest.raises(ValueError):
        make_bot("random", GAME, "middle")


# --- greedy tactics --------------------------------------------------------------------------------

def test_greedy_takes_a_free_capture():
    # Upper's rock next to Lower's scissors; nothing of Lower's can hit back.
    state = position([("upper", "r", (0, 0), 1), ("upper", "p", (3, 0), 1),
                      ("lower", "s", (0, 1), 1), ("lower", "s", (-4, 2), 1)], throws_left=(5, 0))
    for seed in range(5):
        action = make_bot("greedy", GAME, "upper", seed=seed).choose(state)
        assert action[2] == (0, 1), action


def test_greedy_does_not_step_onto_a_hex_where_it_is_beaten():
    # Upper's scissors can slide onto Lower's rock (which beats it) or elsewhere.
    state = position([("upper", "s", (0, 0), 1), ("lower", "r", (0, 1), 1), ("lower", "p", (-4, 0), 1)],
                     throws_left=(1, 0), turn=30)
    for seed in range(10):
        action = make_bot("greedy", GAME, "upper", seed=seed).choose(state)
        assert not (action[0] in ("SLIDE", "SWING") and action[2] == (0, 1)), action
        after = ev.one_sided(state, 0, action)
        assert after.symcount[0][2] == 1  # the scissors survive


def test_one_sided_moves_agree_with_the_engine_when_they_do_not_interact():
    rng = random.Random(3)
    checked = 0
    for state in live_positions(40, seed=4):
        a = rng.choice(state.legal_actions("upper"))
        b = rng.choice(state.legal_actions("lower"))
        hexes_a = {a[2]} | ({a[1]} if a[0] != "THROW" else set())
        hexes_b = {b[2]} | ({b[1]} if b[0] != "THROW" else set())
        if hexes_a & hexes_b:
            continue
        engine = state.clone()
        engine.apply_actions({"upper": a, "lower": b})
        mine = ev.one_sided(ev.one_sided(state, 0, a), 1, b)
        assert mine.occ == engine.occ and mine.symcount == engine.symcount and mine.thrown == engine.thrown
        assert mine.sym == engine.sym and mine.cnt == engine.cnt
        checked += 1
    assert checked > 20


def test_evaluation_is_zero_sum_and_scores_terminals():
    for state in live_positions(10, seed=8):
        assert ev.evaluate(state, "upper") == pytest.approx(-ev.evaluate(state, "lower"))
        assert ev.greedy_evaluate(state, "upper") == pytest.approx(-ev.greedy_evaluate(state, "lower"))
    # Lower's last token, no throws left: taking it wins.
    won = position([("upper", "r", (0, 0), 1), ("lower", "s", (0, 1), 1)], throws_left=(3, 0))
    after = ev.one_sided(won, 0, ("SLIDE", (0, 0), (0, 1)))
    assert after.is_terminal() and after.result().winner == "upper"
    assert ev.evaluate(after, "upper") > 10000 and ev.evaluate(after, "lower") < -10000


# --- the matrix-game solver ------------------------------------------------------------------------

def test_lp_solves_rock_paper_scissors_to_the_uniform_mix():
    x, y, v = nash.solve([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert x == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert y == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert v == pytest.approx(0.0, abs=1e-9)


def test_lp_finds_the_pure_strategy_of_a_dominated_matrix():
    x, y, v = nash.solve([[3, 2, 4], [1, 0, 2], [2, 1, 0]])
    assert x == pytest.approx([1, 0, 0])
    assert y == pytest.approx([0, 1, 0])
    assert v == pytest.approx(2.0)


def test_lp_mixed_equilibrium_guarantees_its_value():
    M = np.random.default_rng(7).normal(size=(6, 9))
    assert nash.saddle_point(M) is None
    x, y, v = nash.solve(M)
    assert (x @ M).min() == pytest.approx(v, abs=1e-6)
    assert (M @ y).max() == pytest.approx(v, abs=1e-6)


# --- the strong bot ------------------------------------------------------------------------------

def test_strong_bot_respects_its_time_budget():
    states = live_positions(4, seed=21)
    for budget in (0.1, 0.3):
        for state in states:
            bot = make_bot("strong", GAME, "lower", seed=1, seconds=budget)
            start = time.perf_counter()
            action = bot.choose(state)
            took = time.perf_counter() - start
            state.check_action("lower", action)
            assert took <= budget * 1.1 + 0.03, (budget, took, bot.stats)


def test_strong_bot_mixes_in_a_guessing_game():
    # Upper's paper can take Lower's rock or Lower's rock can flee; Lower's scissors hunt the paper.
    # The bot should not always play the same action here: it samples from a mixed equilibrium.
    state = position([("upper", "p", (0, 0), 1), ("upper", "r", (3, 0), 1),
                      ("lower", "r", (0, 1), 1), ("lower", "s", (-1, 0), 1)], throws_left=(2, 0), turn=40)
    bot = make_bot("strong", GAME, "upper", seed=2, seconds=0.15)
    picks = Counter(bot.choose(state) for _ in range(12))
    assert len(picks) >= 2, picks


def test_strong_bot_takes_a_winning_capture():
    # Lower has no throws and two scissors, one cornered by stacks of Upper's rocks (invincible: Lower has
    # no paper). Taking the cornered one leaves Lower one token, a win whatever Lower does; nothing else is.
    state = position([("upper", "r", (-3, 3), 2), ("upper", "r", (-3, 4), 2), ("upper", "r", (-4, 3), 2),
                      ("lower", "s", (-4, 4), 1), ("lower", "s", (3, -2), 1)], throws_left=(2, 0), turn=40)
    bot = make_bot("strong", GAME, "upper", seed=3, seconds=0.1)
    for _ in range(3):
        assert bot.choose(state)[2] == (-4, 4)


def test_strong_bot_values_seen_positions_closer_to_a_draw():
    bot = make_bot("strong", GAME, "upper", seed=4, seconds=0.05)
    state = position([("upper", "r", (2, 0), 1), ("upper", "p", (2, 1), 1), ("lower", "s", (-4, 0), 1)],
                     throws_left=(4, 0), turn=50)
    fresh = bot._leaf(state)
    bot.observe(state)
    assert bot.seen[ev.position_key(state)] == 1
    assert 0 < bot._leaf(state) < fresh



def test_an_opponent_down_to_its_last_life_is_nearly_a_win_while_a_throw_is_kept():
    # Lower has one throw and no token: it must throw it next turn, and Upper, holding a throw, then throws
    # the beater of that last token. Without Upper's throw, Lower's forced throw can pick an invincible symbol.
    keep = position([("upper", "p", (0, 0), 1), ("upper", "s", (1, 0), 1)], throws_left=(1, 1), turn=120)
    spent = position([("upper", "p", (0, 0), 1), ("upper", "s", (1, 0), 1), ("upper", "p", (-2, 0), 1)],
                     throws_left=(0, 1), turn=120)
    assert ev.value(keep, "upper") > 0.95
    assert ev.value(spent, "upper") < 0.9
    assert ev.evaluate(keep, "lower") == -ev.evaluate(keep, "upper")


def test_the_last_throws_in_hand_are_worth_more_than_the_first(monkeypatch):
    # The same tokens, Upper holding one throw more: the second throw in hand is worth KEPT more than the
    # seventh (the opponent's token in Upper's zone in both of the first pair, in neither of the second; the
    # share of lives, SIMPLIFY, aside).
    monkeypatch.setattr(ev, "SIMPLIFY", 0.0)

    def upper(throws_left):
        return ev.evaluate(position([("upper", "r", (2, 0), 1), ("lower", "s", (-2, 0), 1)],
                                    throws_left=(throws_left, 5), turn=60), "upper")
    assert ev.KEPT > 0 and ev.KEPT_THROWS >= 2
    assert (upper(2) - upper(1)) - (upper(7) - upper(6)) == pytest.approx(ev.KEPT)
    assert upper(2) - upper(1) == pytest.approx(ev.THROW_FULL + ev.KEPT)


def test_an_even_trade_gains_for_the_side_ahead_in_lives(monkeypatch):
    # Upper: four tokens and a throw (five lives), Lower: one token and three throws (four). Trading a rock for
    # Lower's rock leaves four against three: a bigger share of what is left, so a better position for Upper.
    before = position([("upper", "r", (0, 0), 1), ("upper", "p", (1, 0), 1), ("upper", "s", (2, 0), 1),
                       ("upper", "s", (2, -1), 1), ("lower", "r", (0, 1), 1)], throws_left=(1, 3), turn=200)
    after = position([("upper", "p", (1, 0), 1), ("upper", "s", (2, 0), 1), ("upper", "s", (2, -1), 1)],
                     throws_left=(1, 3), turn=200)

    def simplify_term(state):
        with_it = ev.evaluate(state, "upper")
        monkeypatch.setattr(ev, "SIMPLIFY", 0.0)
        without = ev.evaluate(state, "upper")
        monkeypatch.undo()
        return with_it - without
    assert ev.SIMPLIFY > 0
    assert simplify_term(before) == pytest.approx(ev.SIMPLIFY * 1 / 9)
    assert simplify_term(after) == pytest.approx(ev.SIMPLIFY * 1 / 7)
    assert ev.evaluate(before, "lower") == -ev.evaluate(before, "upper")


def test_a_stack_only_a_throw_can_reach_counts_less_than_one_a_predator_can_reach(monkeypatch):
    # Upper's rock stands in Lower's throw zone (Lower has thrown four: rows up to 0). A throw must guess the hex
    # the rock moves to, so that threat counts ZONE_THREAT of a predator's; a Lower paper next to it counts in full.
    def upper(*lower):
        return ev.evaluate(position([("upper", "r", (0, 0), 1), ("lower", "s", (-3, 0), 1), *lower],
                                    throws_left=(9, 5), turn=40), "upper")

    def threat_term(*lower):
        value = upper(*lower)
        monkeypatch.setattr(ev, "ZONE_THREAT", 1.0)
        full = upper(*lower)
        monkeypatch.undo()
        return value - full
    assert 0 <= ev.ZONE_THREAT < 1
    assert threat_term() == pytest.approx(ev.THREAT_WEIGHTS[0] * ev.TOKEN * (1 - ev.ZONE_THREAT))
    assert threat_term(("lower", "p", (-1, 1), 1)) == 0


def test_strong_bot_keeps_its_last_throw_when_the_opponent_is_nearly_out():
    # Lower's last token (a rock, one throw behind it) flees Upper's paper. Guessing with Upper's last throw
    # would let Lower's forced last throw end in a draw by invincible tokens; keeping it wins.
    state = position([("upper", "p", (0, 0), 1), ("upper", "s", (1, 0), 1), ("lower", "r", (-1, 0), 1)],
                     throws_left=(1, 1), turn=120)
    bot = make_bot("strong", GAME, "upper", seed=5, seconds=0.1)
    for _ in range(5):
        assert bot.choose(state)[0] != "THROW"


def test_course_player_values_its_best_joint_actions_a_turn_deeper():
    # The course adapter's strong bot replaces the entries of a sub-game of its one-turn matrix game by the value
    # of the matrix game one turn on, over each side's first INNER_WIDTH candidates there.
    from games.bots.comp30024 import Player
    state = position([("upper", "r", (1, 0), 1), ("upper", "p", (2, -1), 1), ("upper", "s", (0, 2), 1),
                      ("lower", "s", (-1, 1), 1), ("lower", "r", (-2, 0), 1), ("lower", "p", (0, -1), 1)],
                     throws_left=(4, 4), turn=40)
    bot = Player("upper").bot
    bot.seconds = 0.5
    state.check_action("upper", bot.choose(state))
    assert bot.depth == 2 and bot.inner_width >= 10
    assert bot.stats["inner"] >= 9 and bot.stats["deep_width"] >= 3


def test_course_player_searches_on_its_cpu_clock():
    from games.bots.comp30024 import Player
    assert Player("lower").bot.clock is time.process_time
    assert make_bot("strong", GAME, "lower").clock is time.perf_counter

# --- the course adapter ----------------------------------------------------------------------------

REFEREE = r"""
import sys
import games.bots.comp30024 as course
from games.bots.comp30024 import player as course_player
from games.engine import load_game

course_player._CoursePlayer.cpu_plan = float(sys.argv[3])  # short games for the test
game = load_game("ropasci360")

def play(upper_cls, lower_cls):
    players = {"upper": upper_cls("upper"), "lower": lower_cls("lower")}
    state = game.new_initial_state()
    while not state.is_terminal():
        acts = {side: p.action() for side, p in players.items()}
        for side, a in acts.items():
            assert isinstance(a, tuple), a
            state.check_action(side, a)
        state.apply_actions(acts)
        # as the referee does: tuples; the adapter accepts lists as well
        players["upper"].update(acts["lower"], acts["upper"])
        players["lower"].update([acts["upper"][0], list(acts["upper"][1]), list(acts["upper"][2])]
                                if acts["upper"][0] != "THROW" else acts["upper"], acts["lower"])
    return state

a = getattr(course, sys.argv[1])
b = getattr(course, sys.argv[2])
final = play(a, b)
assert course_player.Player is course.Player
bad = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
print("RESULT", final.result().text, final.turn, "DJANGO", bad)
"""


@pytest.mark.parametrize("upper,lower", [("Player", "GreedyPlayer"), ("RandomPlayer", "Player")])
def test_course_players_play_complete_games_without_django(upper, lower):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run([sys.executable, "-c", REFEREE, upper, lower, "2.0"], cwd=BASE_DIR, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("RESULT")][-1]
    assert line.endswith("DJANGO []"), line
    assert re.match(r"RESULT (winner: (upper|lower)|draw: .+) \d+ DJANGO", line)


def test_course_player_clock_spreads_the_budget():
    from games.bots.comp30024 import Player
    p = Player("upper")
    first = p.move_budget()
    assert 0.05 < first <= 1.0
    p.cpu_used = 47.0
    assert p.move_budget() <= 1.0 / 20 + 1e-9
    p.cpu_used = 60.0
    assert p.move_budget() <= 0.01


# --- choose_action from a turn log, and the pool -------------------------------------------------------

def test_choose_action_rebuilds_the_state_from_the_turn_log():
    state, log = random_playout(99, 30)
    assert not state.is_terminal()
    rebuilt = replay("ropasci360", log)
    assert rebuilt.to_json() == state.to_json()
    # API-style turn records work too.
    records = [{"number": i + 1, "actions": t} for i, t in enumerate(log)]
    assert replay("ropasci360", records).to_json() == state.to_json()
    for level in levels_for(GAME):
        for seat in SEATS:
            js = choose_action("ropasci360", log, seat, level, seconds=FAST, seed=1)
            state.check_action(seat, GAME.action_from_json(js, seat))


def test_choose_action_keeps_the_repetition_history_exact():
    # Shuffle back and forth: the starting configuration of the shuffle occurs a 3rd time -> draw.
    log = [{"upper": ["THROW", "r", [4, 0]], "lower": ["THROW", "s", [-4, 0]]}]
    there = {"upper": ["SLIDE", [4, 0], [3, 0]], "lower": ["SLIDE", [-4, 0], [-3, 0]]}
    back = {"upper": ["SLIDE", [3, 0], [4, 0]], "lower": ["SLIDE", [-3, 0], [-4, 0]]}
    log += [there, back, there]
    state = replay("ropasci360", log)
    assert not state.is_terminal()
    js = choose_action("ropasci360", log, "upper", "greedy", seed=1)
    state.check_action("upper", GAME.action_from_json(js, "upper"))
    with pytest.raises(ValueError, match="over"):
        choose_action("ropasci360", log + [back], "upper", "random")


def test_pool_runs_choose_action_in_another_process():
    _, log = random_playout(5, 12)
    try:
        fut = pool.submit("ropasci360", log, "lower", "strong", seconds=0.05, seed=3)
        js = fut.result(timeout=60)
        replay("ropasci360", log).check_action("lower", GAME.action_from_json(js, "lower"))
        assert pool.get_pool().submit(os.getpid).result(timeout=30) != os.getpid()
    finally:
        pool.shutdown()


# --- the arena ------------------------------------------------------------------------------------

def test_wilson_interval():
    lo, hi = wilson_interval(0.5, 10)
    assert (round(lo, 3), round(hi, 3)) == (0.237, 0.763)
    lo, hi = wilson_interval(1.0, 20)
    assert hi == 1.0 and round(lo, 3) == 0.839
    assert wilson_interval(0.0, 0) == (0.0, 1.0)


def test_arena_counts_and_formats():
    res = ArenaResult("x", "y", [GameRecord(i, "upper", "r", None, 10, s) for i, s in enumerate([1, 1, 0.5, 0])])
    assert (res.wins, res.draws, res.losses) == (2, 1, 1)
    assert res.score == pytest.approx(0.625)
    lo, hi = wilson_interval(0.625, 4)
    assert res.summary() == f"x vs y: 2-1-1 score=0.625 (95% CI {lo:.3f}-{hi:.3f})"


def test_arena_plays_games_alternating_sides():
    res = run_arena("greedy", "random", 4, seed=2, workers=1)
    assert res.games == 4 and res.wins + res.draws + res.losses == 4
    assert [r.a_seat for r in res.records] == ["upper", "lower", "upper", "lower"]
    for r in res.records:
        assert r.a_score == (0.5 if r.winner is None else float(r.winner == r.a_seat))
    # seeded games are reproducible
    again = play_game("greedy", "random", 1, seed=2 * 100003 + 1)
    assert again.result == res.records[1].result and again.turns == res.records[1].turns


def test_arena_accepts_course_style_players():
    rec = play_game("games.bots.comp30024:RandomPlayer", "random", 0, seed=1)
    assert rec.turns > 0 and rec.a_seat == "upper"


def test_arena_command_prints_the_summary_last():
    out = subprocess.run([sys.executable, "manage.py", "arena", "random", "random", "--games", "2", "--seed", "1"],
                         cwd=BASE_DIR, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    last = out.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"random vs random: (\d+)-(\d+)-(\d+) score=(\d\.\d{3}) \(95% CI (\d\.\d{3})-(\d\.\d{3})\)", last)
    assert m, last
    w, d, l = map(int, m.groups()[:3])
    assert w + d + l == 2
    assert float(m.group(4)) == pytest.approx((w + d / 2) / 2, abs=1e-3)


def test_pool_workers_exit_when_the_server_process_is_killed(tmp_path):
    """A SIGKILLed server never shuts its pool down: its workers notice and exit by themselves."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    script = (
        "import sys\n"
        "from games.bots import pool\n"
        "pool.submit('tic_tac_toe', [], 'x', 'random').result(timeout=120)\n"
        "print(' '.join(str(pid) for pid in pool.get_pool()._processes), flush=True)\n"
        "sys.stdin.read()\n"
    )
    root = Path(__file__).resolve().parent.parent
    server = subprocess.Popen([sys.executable, "-c", script], cwd=root, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "BOT_WORKERS": "2"})
    try:
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert workers  # started on demand: at least the one that played
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()

    def alive(pid):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        try:  # a zombie (exited, not yet reaped by init) counts as gone
            return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)  # polling for an outcome with a deadline, not timing the outcome
    assert not any(alive(pid) for pid in workers), workers


def test_refine_keeps_the_guarantee_and_does_best_against_the_given_mix():
    # Rows 0 and 1 both guarantee 0 (the value); row 1 does better if the opponent favours column 0.
    M = np.array([[0.0, 0.0], [0.5, 0.0], [-1.0, -1.0]])
    x, _, v = nash.solve(M)
    assert v == 0.0
    assert np.allclose(nash.refine(M, [0.9, 0.1], v), [0.0, 1.0, 0.0])
    rng = np.random.default_rng(3)
    for _ in range(200):
        m, n = (int(k) for k in rng.integers(2, 30, size=2))
        M = rng.integers(-2, 3, size=(m, n)).astype(float)
        x, _, v = nash.solve(M)
        q = rng.dirichlet(np.ones(n))
        r = nash.refine(M, q, v)
        assert (r @ M).min() >= v - 1e-6 and r @ M @ q >= x @ M @ q - 1e-9


def test_the_course_player_gives_up_little_of_the_value_to_exploit_what_it_learns():
    from games.bots import strong
    from games.bots.comp30024 import Player
    game = load_game("ropasci360")
    me = Player("upper")
    me.cpu_plan = 3.0  # a short budget: the test is about which strategy is played, not its strength
    assert me.bot.exploit
    rng = random.Random(5)
    state = game.new_initial_state()
    refined = 0
    for turn in range(12):
        ours = me.action()
        B = me.bot.last[1]
        theirs = B[0] if turn % 2 else rng.choice(list(state.legal_actions("lower")))  # half the time its first
        rows, x, _, M, _ = me.bot.last[2]
        _, _, v = nash.solve(M)
        assert (x @ M).min() >= v - strong.EXPLOIT_TOL - 1e-6  # the strategy played keeps most of the guarantee
        refined += not np.allclose(x, nash.solve(M)[0])
        state.apply_actions({"upper": ours, "lower": theirs})
        me.update(theirs, ours)
    assert refined  # and it is not always the equilibrium HiGHS finds first
    assert me.bot.opp_ranks[0] >= 6  # the opponent's first candidate, six times, was seen as such
    counted = sum(me.bot.opp_ranks.values())
    me.bot.saw_opponent(state.turn - 5, B[0])  # not the turn of the last search: nothing is learnt
    me.bot.saw_opponent(state.turn - 1, B[0])  # that turn's action is counted already
    assert sum(me.bot.opp_ranks.values()) == counted == 12


def test_the_course_player_values_a_draw_by_repetition_below_the_servers_bot():
    # Both sides shuffle a token back and forth: one more "back" repeats the position a third time, a draw.
    from games.bots.comp30024 import Player
    me = Player("upper")
    me.cpu_plan = 120.0  # a second for the move: the matrix is complete even on a loaded machine
    throw = (("THROW", "r", (4, 0)), ("THROW", "s", (-4, 0)))
    there = (("SLIDE", (4, 0), (3, 0)), ("SLIDE", (-4, 0), (-3, 0)))
    back = (("SLIDE", (3, 0), (4, 0)), ("SLIDE", (-3, 0), (-4, 0)))
    for ours, theirs in (throw, there, back, there):
        me.update(theirs, ours)
    me.action()
    A, B, (rows, _, _, M, cols) = me.bot.last
    i, j = rows.index(A.index(back[0])), cols.index(B.index(back[1]))
    assert M[i, j] == pytest.approx(-0.1)  # that draw is worth 0.1 less than an even game to the course Player
    assert make_bot("strong", load_game("ropasci360"), "upper").repeat_contempt == pytest.approx(0.02)
