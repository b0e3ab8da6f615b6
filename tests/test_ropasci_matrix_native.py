"""The C core of the strong bot's RoPaSci 360 matrices (``games/ropasci360/matrix.c``) against its Python twin:
every entry of full payoff matrices, ``_leaf(_child(state, a, b))``, over positions from real games and
built ones (throws left and used up, three symbols battling on one hex, repetition, the turn limit, wins
next turn), for both seats and with contempt; the candidates' scores the same; the bot's moves legal."""
import random
import time
from collections import Counter

import numpy as np
import pytest

from games.bots.strong import REPEAT_FACTOR, StrongBot
from games.ropasci360 import bots as ev
from games.ropasci360 import make_game
from games.ropasci360 import matrix
from games.ropasci360.rules import INDEX

GAME = make_game()
SEATS = ("upper", "lower")

needs_core = pytest.mark.skipif(matrix.core(ev.core_constants()) is None, reason="no C core (ROPASCI_NATIVE=0 or no compiler)")


def full_matrices_agree(state, bot, width=None):
    """Compare the C and Python values of the matrix over the first ``width`` (None: all) legal actions."""
    A = list(state.legal_actions(bot.seat))[:width]
    B = list(state.legal_actions(bot.opp))[:width]
    fill = ev.matrix_values(state, bot.seat, A, B, bot.seen, contempt=bot.contempt,
                            repeat_contempt=bot.repeat_contempt, repeat_factor=REPEAT_FACTOR)
    assert fill is not None
    fast = np.full((len(A), len(B)), np.nan)
    half = len(A) // 2  # in two blocks, as the bot asks for them
    fill(fast, 0, half, 0, len(B))
    fill(fast, half, len(A), 0, len(B))
    slow = np.array([[bot._leaf(bot._child(state, a, b)) for b in B] for a in A])
    assert np.abs(fast - slow).max() <= 1e-9, state.to_text()
    return slow


def scores_agree(state):
    for p, seat in enumerate(SEATS):
        acts = list(state.legal_actions(seat))
        fast = ev.score_actions(state, seat, acts)
        slow = [ev._evaluate(ev.one_sided(state, p, a), p, True) for a in acts]
        assert np.allclose(fast, slow, rtol=0, atol=1e-9)


def game_positions(seed, strong_seat=None, turns=400):
    """States along a game of random moves (or a 0.02 s strong bot in ``strong_seat``, or both seats for
    "both"), each with a bot per seat that has observed the game so far."""
    rng = random.Random(seed)
    st = GAME.new_initial_state()
    bots = {s: StrongBot(GAME, s, seed=seed, seconds=0.02) for s in SEATS}
    while not st.is_terminal() and st.turn < turns:
        for b in bots.values():
            b.observe(st)
        yield st, bots
        acts = {s: rng.choice(list(st.legal_actions(s))) for s in SEATS}
        for seat in SEATS if strong_seat == "both" else [strong_seat] if strong_seat else []:
            acts[seat] = bots[seat].choose(st)
        st.apply_actions(acts)


@needs_core
@pytest.mark.parametrize("seed, strong_seat", [(1, None), (2, None), (3, "upper"), (4, "lower"), (5, "both")])
def test_full_matrices_along_games(seed, strong_seat):
    seen_throws_out = 0
    for k, (st, bots) in enumerate(game_positions(seed, strong_seat, turns=150 if strong_seat == "both" else 400)):
        seat = SEATS[k % 2]
        bots[seat].contempt = 0.05 if k % 3 == 0 else 0.0
        full_matrices_agree(st, bots[seat], width=None if k % 4 == 0 else 25)
        if k % 5 == 0:
            scores_agree(st)
        seen_throws_out += 9 in st.thrown
    assert seen_throws_out or strong_seat == "both"  # games with random moves used a side's throws up


def state(tokens, turn=10, throws_left=(5, 5)):
    """A state from ``(side, symbol, (r, q), count)`` tokens."""
    return GAME.state_from_json({
        "turn": turn, "throws_left": {"upper": throws_left[0], "lower": throws_left[1]},
        "tokens": [{"player": p, "symbol": s, "hex": list(h), "count": n} for p, s, h, n in tokens]})


@needs_core
def test_three_symbols_on_one_hex():
    st = state([("upper", "r", (0, 0), 2), ("upper", "p", (1, 0), 1), ("lower", "s", (0, 1), 3),
                ("lower", "r", (-1, 0), 1)], throws_left=(0, 1))
    bot = StrongBot(GAME, "upper")
    bot.observe(st)
    full_matrices_agree(st, bot)
    child = bot._child(st, ("SLIDE", (1, 0), (0, 0)), ("SLIDE", (0, 1), (0, 0)))
    assert not child.cnt[0][INDEX[(0, 0)]] and not child.cnt[1][INDEX[(0, 0)]]  # all three died on (0, 0)
    scores_agree(st)


@needs_core
@pytest.mark.parametrize("seat", SEATS)
def test_near_the_end(seat):
    bot = StrongBot(GAME, seat)
    # Last tokens, no throws: wins, losses and invincible tokens next turn.
    for throws in ((0, 0), (0, 1), (1, 0), (1, 1)):
        st = state([("upper", "r", (0, 0), 1), ("upper", "s", (2, -1), 1), ("lower", "s", (0, 1), 1),
                    ("lower", "p", (-2, 1), 1)], throws_left=throws)
        bot.seen = Counter()
        bot.observe(st)
        full_matrices_agree(st, bot)
        scores_agree(st)
    # The turn limit: every child is a draw, unless won.
    st = state([("upper", "r", (0, 0), 1), ("lower", "s", (0, 1), 1), ("lower", "p", (3, 1), 1)], turn=359,
               throws_left=(0, 2))
    M = full_matrices_agree(st, bot)
    assert (np.abs(M) < 1e-9).any()
    scores_agree(st)


@needs_core
@pytest.mark.parametrize("seat", SEATS)
def test_repetition(seat):
    """Both sides shuffle back and forth: the history holds positions seen twice (a third is a draw) and the
    bot's seen counts discount the positions it has seen."""
    st = state([("upper", "r", (0, 0), 1), ("upper", "p", (1, 0), 1), ("lower", "s", (-3, 0), 1),
                ("lower", "r", (-3, 1), 1)], throws_left=(0, 0))
    bot = StrongBot(GAME, seat)
    shuffle = [(("SLIDE", (0, 0), (0, 1)), ("SLIDE", (-3, 0), (-3, -1))),
               (("SLIDE", (0, 1), (0, 0)), ("SLIDE", (-3, -1), (-3, 0)))]
    for k in range(4):  # positions P0 P1 P0 P1: a move back to P0 is its third occurrence
        bot.observe(st)
        M = full_matrices_agree(st, bot)
        if k < 3:
            a, b = shuffle[k % 2]
            st.apply_actions({"upper": a, "lower": b})
    assert None in st.history.values()
    assert max(bot.seen.values()) >= 2
    assert (np.abs(M + bot.repeat_contempt) < 1e-12).any()  # a draw by repetition among the entries


@needs_core
@pytest.mark.parametrize("depth", [1, 2])
def test_the_bot_moves_legally_with_the_core(depth):
    for k, (st, bots) in enumerate(game_positions(7, "upper", turns=30)):
        bot = StrongBot(GAME, SEATS[k % 2], seed=k, seconds=0.05, depth=depth)
        bot.clock = time.process_time  # CPU time, as in the course adapter: a loaded machine still gets entries
        bot.observe(st)
        action = bot.choose(st)
        st.check_action(bot.seat, action)
        assert bot.stats["entries"] > 0


def test_without_the_core(monkeypatch):
    monkeypatch.setenv("ROPASCI_NATIVE", "0")
    st = GAME.new_initial_state()
    bot = StrongBot(GAME, "upper", seconds=0.05)
    assert bot._fast_matrix(st, ["x"], ["y"]) is None and matrix.scores(ev.core_constants(), st, 0, []) is None
    st.check_action("upper", bot.choose(st))


def orders_agree(state, rng_seed=None):
    """The core's candidate order is the Python loop's over the same scores, with and without random ties."""
    for p, seat in enumerate(SEATS):
        acts = list(state.legal_actions(seat))
        scores = ev.score_actions(state, seat, acts)
        rng = None if rng_seed is None else random.Random
        fast = ev.candidates(state, seat, acts, rng=rng and rng(rng_seed))
        slow = ev.candidates(state, seat, acts, scores, rng=rng and rng(rng_seed))
        assert fast == slow, state.to_text()
        assert sorted(map(repr, fast)) == sorted(map(repr, acts))


@needs_core
@pytest.mark.parametrize("seed, strong_seat", [(11, None), (12, "upper"), (13, "lower")])
def test_candidate_order_along_games(seed, strong_seat):
    for k, (st, _) in enumerate(game_positions(seed, strong_seat, turns=300)):
        if k % 3 == 0:
            orders_agree(st, rng_seed=k if k % 2 else None)


@needs_core
def test_candidate_order_puts_captures_escapes_and_one_throw_per_symbol_first():
    # Upper's rock on (0, 0) is attacked by Lower's paper next to it, which Upper's scissors can take.
    st = state([("upper", "r", (0, 0), 1), ("upper", "s", (2, -1), 1), ("lower", "p", (1, -1), 1),
                ("lower", "s", (-2, 1), 1)], throws_left=(3, 3))
    orders_agree(st)
    orders_agree(st, rng_seed=5)
    order = ev.candidates(st, "upper")
    first = order[:5]  # three captures, the rock's best escape, the best paper throw
    assert {("SLIDE", (2, -1), (1, -1)), ("THROW", "s", (1, -1)), ("THROW", "r", (-2, 1))} <= set(first)
    assert sum(a[0] != "THROW" and a[1] == (0, 0) for a in first) == 1
    assert sum(a[:2] == ("THROW", "p") for a in first) == 1
    assert not {("THROW", "s", (1, -1)), ("THROW", "r", (-2, 1))} & set(order[5:])
