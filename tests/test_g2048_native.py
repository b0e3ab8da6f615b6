"""2048's C expectimax (``games/g2048/expectimax.c``) against its Python twin: at a fixed depth both value every
move alike on many random boards (and search as many chance nodes), the bot's move is always legal, and the
strong bot plays with either (``ROPASCI_NATIVE=0`` runs the Python one)."""
from __future__ import annotations

import math
import random

import pytest

from games.g2048 import bots, make_game

GAME = make_game()
LIB = bots.core()
needs_c = pytest.mark.skipif(LIB is None, reason="no C core (ROPASCI_NATIVE=0 or no compiler)")


def random_board(rng: random.Random) -> list[int]:
    """Exponents from empty to 8192, some boards crowded, some sparse."""
    empty = rng.choice((0.1, 0.3, 0.6))
    return [0 if rng.random() < empty else rng.choice(range(1, 14)) for _ in range(16)]


@needs_c
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_c_and_python_value_every_move_alike(depth):
    rng = random.Random(depth)
    compared = 0
    for _ in range(150 if depth < 3 else 40):
        b = bots.bitboard(random_board(rng))
        py, c = bots.Expectimax(bots.tables()), bots.NativeExpectimax(LIB)
        want, got = py.search(b, depth, math.inf), c.search(b, depth, math.inf)
        assert [k for _, k in got] == [k for _, k in want]
        for (v, _), (w, _) in zip(got, want):
            assert v == pytest.approx(w, rel=1e-12)
        assert (c.nodes, c.depth_cut) == (py.nodes, py.depth_cut)
        compared += len(want)
    assert compared > 100


@needs_c
def test_c_heuristic_is_the_tables():
    rng = random.Random(7)
    t = bots.tables()
    for _ in range(200):
        b = bots.bitboard(random_board(rng))
        tb = bots.transpose(b)
        want = sum(t.value[(b >> 16 * r) & 0xFFFF] + t.value[(tb >> 16 * r) & 0xFFFF] for r in range(4))
        assert LIB.g2048_value(b) == pytest.approx(want, rel=1e-12)


@needs_c
def test_c_search_stops_at_its_deadline():
    b = bots.bitboard([1, 2, 0, 0, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2])
    search = bots.NativeExpectimax(LIB)
    with pytest.raises(bots._Timeout):
        search.search(b, 12, 0.0)


def test_search_depth_follows_the_distinct_tiles():
    assert bots.search_depth([0] * 14 + [1, 1]) == bots.MIN_DEPTH
    assert bots.search_depth(list(range(1, 10)) + [0] * 7) == 4  # 9 distinct tiles
    assert bots.search_depth(list(range(1, 17))) == bots.MAX_DEPTH


def test_the_bot_always_moves_legally():
    """Random boards (crowded ones too, with a single legal move) get one of their legal moves, deepened by
    the depth rule within a short budget."""
    rng = random.Random(11)
    bot = bots.StrongBot(GAME, "player", seconds=0.02)
    checked = 0
    while checked < 80:
        cells = random_board(rng)
        b = bots.bitboard(cells)
        if not bots.after_moves(bots.tables(), b, bots.transpose(b)):
            continue  # no move: a lost board
        board = [[(1 << e) if e else 0 for e in cells[4 * r:4 * r + 4]] for r in range(4)]
        state = GAME.state_from_json({"turn": 10, "to_move": "player", "board": board, "score": 0,
                                      "tiles_to_add": 0, "last_move": None, "new_tiles": [], "result": None})
        assert bot.choose(state) in state.legal_actions("player")
        checked += 1
