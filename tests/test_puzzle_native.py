"""The puzzle solver's C core (``games/ropasci_puzzle/solver.c``) against its Python twin (``Search``, ``escorts.py``
and ``carried.py``): the same search step for step, so the same turn count, nodes, relaxations, thresholds and
bounds, with the search of workers with escorts (the default) and without it (``ROPASCI_ESCORTS=0``, joint moves
only), which finds plans as short, as does the search with one of three workers carried (``ROPASCI_CARRY=0``: not);
its solutions replay through the game's engine; its deadline fires. ``ROPASCI_NATIVE=0`` makes ``solve`` use the
twin."""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from games.ropasci360.rules import HEXES
from games.ropasci_puzzle import oracle, solver
from games.ropasci_puzzle.position import EXAMPLE, library
from games.ropasci_puzzle.solver import OutOfTime, native_core, solve
from tests.test_ropasci_puzzle import replay, run_solve

needs_c = pytest.mark.skipif(native_core() is None, reason="no C compiler (or ROPASCI_NATIVE=0)")

COMPARED = ("nodes", "relaxations", "thresholds", "bounds", "oracle")
SLOW_IN_PYTHON = {"busy-board", "full-house"}  # about 1 and 2 s for the twin: the others take well under 0.5 s
PREY = {"r": "s", "p": "r", "s": "p"}


def both(position, monkeypatch, escorts="1", **kwargs):
    """(turns, stats) of the C core, then of the Python twin (``escorts`` "0": joint moves only)."""
    out = []
    monkeypatch.setenv("ROPASCI_ESCORTS", escorts)
    for flag in ("1", "0"):
        monkeypatch.setenv("ROPASCI_NATIVE", flag)
        stats: dict = {}
        turns = solve(position, stats=stats, **kwargs)
        out.append((turns, stats))
    monkeypatch.setenv("ROPASCI_NATIVE", "1")
    monkeypatch.delenv("ROPASCI_ESCORTS")
    return out


def assert_solved(position, turns, length):
    assert turns is not None and len(turns) == length
    assert replay(position, turns).result().text.startswith(f"solved in {length} turn")


def assert_twins(position, monkeypatch, **kwargs):
    """The twins search alike, with the workers' search and without it, and both searches find plans as short."""
    found = []
    for escorts in ("1", "0"):
        (c_turns, c_stats), (py_turns, py_stats) = both(position, monkeypatch, escorts, **kwargs)
        assert {k: c_stats[k] for k in COMPARED} == {k: py_stats[k] for k in COMPARED}
        assert (c_turns is None) == (py_turns is None)
        if c_turns is not None:
            assert len(c_turns) == len(py_turns) == c_stats["bounds"]["proved"]
            assert_solved(position, c_turns, len(c_turns))
            assert_solved(position, py_turns, len(c_turns))
        found.append(c_turns)
    assert (found[0] is None) == (found[1] is None)
    if found[0] is not None:
        assert len(found[0]) == len(found[1])
    return found[0]


@needs_c
@pytest.mark.parametrize("entry", [e for e in library() if e["name"] not in SLOW_IN_PYTHON], ids=lambda e: e["name"])
def test_the_c_core_searches_the_library_exactly_as_the_python_twin(entry, monkeypatch):
    turns = assert_twins(entry["position"], monkeypatch)
    assert len(turns) == entry["turns"]


@needs_c
def test_the_c_core_solves_the_whole_library_optimally_and_fast():
    for entry in library():
        stats: dict = {}
        turns = solve(entry["position"], stats=stats)
        assert len(turns) == entry["turns"] == stats["bounds"]["proved"], entry["name"]
        assert replay(entry["position"], turns).result().text == f"solved in {entry['turns']} turns"
        assert stats["seconds"] < 1, entry["name"]


def laid_out(cells: list, ups: list, lows: list, blocks: int) -> dict:
    """A position: the Upper tokens ``ups`` (symbols) on the first of ``cells``, then the Lower ones, then blocks."""
    return {"upper": [[s, *cells[i]] for i, s in enumerate(ups)],
            "lower": [[s, *cells[len(ups) + i]] for i, s in enumerate(lows)],
            "block": [["", *cells[len(ups) + len(lows) + i]] for i in range(blocks)]}


def random_position(rng: random.Random, n_upper: int) -> dict:
    """Within 3 of the centre: n_upper Upper tokens of any symbols, 1-3 Lower tokens, 0-4 blocks."""
    cells = [h for h in HEXES if max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) <= 3]
    rng.shuffle(cells)
    ups = [rng.choice("rps") for _ in range(n_upper)]
    lows = [PREY[rng.choice(ups)] if rng.random() < 0.8 else rng.choice("rps") for _ in range(rng.randint(1, 3))]
    blocks = rng.randint(0, 4)
    return laid_out(cells, ups, lows, blocks)


@needs_c
@pytest.mark.parametrize("n_upper", [1, 2, 3, 4])
def test_the_c_core_agrees_with_the_python_twin_on_random_positions(n_upper, monkeypatch):
    rng = random.Random(f"native-{n_upper}")
    for _ in range(10):
        assert_twins(random_position(rng, n_upper), monkeypatch, max_turns=8)


@needs_c
def test_the_c_core_agrees_on_stacked_tokens_and_positions_without_a_solution(monkeypatch):
    stacked = {"upper": [["r", 0, 0]] * 4 + [["p", 0, 1]], "lower": [["s", 2, -1], ["s", -2, 2], ["r", 1, 1]]}
    assert_twins(stacked, monkeypatch)
    assert_twins({"upper": [["r", 0, -4]], "lower": [["s", 0, 4]]}, monkeypatch, max_turns=3)
    assert_twins({"upper": [["r", 0, 0], ["s", 0, 1]], "lower": [["p", 2, 0]]}, monkeypatch)  # rock cannot win
    for max_turns in (-1, 0, 2):  # the example needs 3: no turn count to try, or every one refuted
        assert_twins(EXAMPLE, monkeypatch, max_turns=max_turns)


TOUR = {"upper": [["r", -1, -3], ["p", -2, 0], ["s", -2, 1]],
        "lower": [["s", 4, -3], ["s", 0, 0], ["s", -1, 0], ["s", 0, -1], ["s", -1, -2], ["s", -4, 0], ["s", 0, -4],
                  ["s", 1, 0], ["s", 3, -3]],
        "block": [["", 1, -2]]}  # benchmarks/puzzles.py's tour-3x9-19


def positions_searched(position, turns, monkeypatch, flag="ROPASCI_ESCORTS") -> tuple[int, int]:
    """The positions the C core searches with the workers' search (or, ``flag`` ROPASCI_CARRY, with a worker
    carried) and by joint moves only, each solving the position in ``turns`` turns with a plan that replays (the
    escorts' or the carried worker's moves written out)."""
    searched = []
    for on in ("1", "0"):
        monkeypatch.setenv(flag, on)
        stats: dict = {}
        assert_solved(position, solve(position, stats=stats), turns)
        assert stats["bounds"]["proved"] == turns
        searched.append(stats["nodes"])
    monkeypatch.delenv(flag)
    return searched[0], searched[1]


@needs_c
def test_a_worker_with_escorts_is_searched_over_its_own_moves(monkeypatch):
    """A rock touring nine scissors, a paper and a scissors as its pivots: over joint moves the search tries the
    escorts' placements one by one (6,790 positions); over the rock's moves with the set of placements its
    swings leave possible, 76. The same 13 turns."""
    own, joint = positions_searched(TOUR, 13, monkeypatch)
    assert own * 20 < joint


DUO = {"upper": [["s", -2, 4], ["r", -2, 0], ["p", -2, 3]],
       "lower": [["p", -4, 3], ["p", -1, 1], ["p", 1, -1], ["p", 0, 4], ["p", -2, -2], ["s", -1, -2], ["s", -2, 1],
                 ["s", 1, -4], ["s", -3, 4]],
       "block": [["", -1, 4], ["", -3, -1], ["", -1, 2]]}  # benchmarks/puzzles.py's duo-3x9-127


@needs_c
def test_two_workers_with_an_escort_are_searched_over_their_own_moves(monkeypatch):
    """The scissors removes five papers and the rock four scissors; the paper can only be a pivot. Over the two
    workers' joint moves with the paper's placements as a set: 471 positions instead of 3,217, the same 11 turns."""
    own, joint = positions_searched(DUO, 11, monkeypatch)
    assert own * 5 < joint


FAR = {"upper": [["p", 4, -1], ["s", 4, 0], ["r", 3, 0]],
       "lower": [["s", -2, -1], ["s", 0, -2], ["r", -1, -3], ["p", -1, -1], ["s", -3, 0], ["r", -4, 2], ["r", 0, -4],
                 ["p", -4, 3], ["p", -3, -1]],
       "block": [["", 1, 3]]}  # benchmarks/puzzles.py's far-3x9-210


@needs_c
def test_three_workers_are_searched_with_one_carried_as_a_set(monkeypatch):
    """A paper, a scissors and a rock in one corner, each with three targets on the far side: by joint moves the
    search enters 3,734 positions; over the scissors' and the rock's moves with the paper's placements as a set, 122.
    The same 11 turns, and the twins search alike."""
    own, joint = positions_searched(FAR, 11, monkeypatch, "ROPASCI_CARRY")
    assert own * 10 < joint
    assert len(assert_twins(FAR, monkeypatch)) == 11


# walls-3x9-463 of benchmarks/puzzles.py: the root's relaxation allows 12 turns, the optimum is 15, and the rock alone
# (the paper and the scissors as its escorts, every other Lower token gone) needs 15.
WALLS = {"upper": [["s", 3, 0], ["p", -2, 2], ["r", 3, 1]],
         "lower": [["p", 3, -2], ["p", 2, 0], ["p", 0, -4], ["r", -2, -1], ["r", -3, 3], ["r", 1, -2], ["s", 3, -4],
                   ["s", -4, 2], ["s", -1, 4]],
         "block": [["", 1, -1], ["", -2, 4], ["", -1, 3], ["", -1, 2], ["", 0, 2], ["", 4, -2], ["", -1, 0],
                   ["", 0, -3]]}


@needs_c
def test_a_worker_that_could_not_finish_alone_refutes_the_position(monkeypatch):
    """With the oracle the search enters 2,600 positions instead of 69,180, proves the same 15 and finds a plan that
    replays."""
    with_oracle, without = positions_searched(WALLS, 15, monkeypatch, "ROPASCI_ORACLE")
    assert with_oracle * 5 < without
    stats: dict = {}
    solve(WALLS, stats=stats)
    queries, nodes, relaxations, refuted = stats["oracle"]
    assert 0 < queries <= nodes and relaxations > 0 and refuted > 0


def three_workers(rng: random.Random) -> dict:
    """A rock, a paper and a scissors anywhere, each with one or two targets (and sometimes a Lower token of any
    symbol more), up to 12 blocks: three workers of three classes, the positions where one is carried."""
    cells = list(HEXES)
    rng.shuffle(cells)
    ups = list("rps")
    rng.shuffle(ups)
    lows = [PREY[ups[i % 3]] for i in range(rng.randint(3, 6))]
    if rng.random() < 0.3:
        lows.append(rng.choice("rps"))
    blocks = rng.randint(0, 12)
    return laid_out(cells, ups, lows, blocks)


def assert_as_short_as_joint(positions, flag: str, max_turns: int, monkeypatch) -> None:
    """The C core with its own search for such positions (``flag`` unset) finds a plan whenever the joint search
    (``flag`` 0) does, as short, and it replays."""
    for position in positions:
        monkeypatch.setenv(flag, "0")
        joint = solve(position, max_turns=max_turns)
        monkeypatch.delenv(flag)
        own = solve(position, max_turns=max_turns)
        assert (own is None) == (joint is None), position
        if own is not None:
            assert_solved(position, own, len(joint))


@needs_c
def test_the_carried_search_finds_plans_as_short_as_the_joint_search(monkeypatch):
    rng = random.Random("carried")
    assert_as_short_as_joint([three_workers(rng) for _ in range(120)], "ROPASCI_CARRY", 10, monkeypatch)


@needs_c
def test_the_c_core_carries_a_worker_exactly_as_the_python_twin(monkeypatch):
    rng = random.Random("carried-twins")
    for _ in range(25):
        assert_twins(three_workers(rng), monkeypatch, max_turns=7)


# A paper with three rocks to remove beside three scissors with nothing to do (the course's public tests have three
# papers and a scissors): one worker and three escorts of one class.
FOUR = {"upper": [["s", -1, -1], ["p", 4, -1], ["s", 1, -2], ["s", -2, 1]],
        "lower": [["r", 3, -1], ["r", -1, -3], ["r", 0, 3]], "block": [["", 2, -2], ["", -2, 3]]}


@needs_c
def test_one_worker_with_three_escorts_of_one_class_tracks_one_of_them(monkeypatch):
    """The escort nearest the paper is tracked as a worker without work, the other two carried as the set of
    placements: 8 positions instead of 460 by joint moves, the same 8 turns, and the twins search alike."""
    own, joint = positions_searched(FOUR, 8, monkeypatch)
    assert own * 20 < joint
    assert len(assert_twins(FOUR, monkeypatch)) == 8


def kin(rng: random.Random, cells: list, count: int, mine: int, theirs: int, odd: float, blocks: int) -> dict:
    """``count`` Upper tokens of one symbol and one of another on ``cells`` (shuffled here): the lone one with 1 to
    ``theirs`` targets, the others with up to ``mine`` (at least one if ``mine``), with probability ``odd`` a Lower
    token of any symbol more, up to ``blocks`` blocks."""
    rng.shuffle(cells)
    a, b = rng.sample("rps", 2)
    ups = [a] * count + [b]
    rng.shuffle(ups)
    lows = [PREY[a]] * (rng.randint(1, mine) if mine else 0) + [PREY[b]] * rng.randint(1, theirs)
    if rng.random() < odd:
        lows.append(rng.choice("rps"))
    return laid_out(cells, ups, lows, rng.randint(0, blocks))


def one_with_three(rng: random.Random) -> dict:
    """Three Upper tokens of one symbol with nothing to do (but where a Lower token more is theirs) and one of another
    with one to three targets, anywhere, up to 10 blocks."""
    return kin(rng, list(HEXES), 3, 0, 3, 0.3, 10)


def four_tokens(rng: random.Random) -> dict:
    """Three Upper tokens of one symbol and one of another within 3 of the centre, each class with one or two
    targets, up to 6 blocks: the joint search of four tokens, which asks about the lone one (``F_*``)."""
    return kin(rng, [h for h in HEXES if max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) <= 3], 3, 2, 2, 0, 6)


@needs_c
def test_the_c_core_asks_about_a_worker_beside_three_exactly_as_the_python_twin(monkeypatch):
    """From the first position on (``oracle.WAKE`` 0, every worker asked about: ``F_SLACK`` 9): the same nodes,
    relaxations, thresholds, bounds and questions in C and Python, the plans as short as without the oracle."""
    monkeypatch.setattr(oracle, "WAKE", 0)
    monkeypatch.setattr(oracle, "F_SLACK", 9)
    rng = random.Random("oracle-four")
    assert oracle_twins([four_tokens(rng) for _ in range(12)], monkeypatch, 6) > 0


@needs_c
def test_the_c_core_takes_children_in_rounds_exactly_as_the_python_twin(monkeypatch):
    """Rounds of 1 position (``solver.ROUND_FIRST``) leave most children at depth 1 and take them up again: the
    twins search alike, four tokens and three, and find plans as short as one child at a time to the end (0)."""
    rng = random.Random("rounds")
    positions = [four_tokens(rng) for _ in range(8)] + [random_position(rng, 3) for _ in range(8)]
    monkeypatch.setattr(solver, "ROUND_FIRST", 0)
    plain = []
    for position in positions:
        stats: dict = {}
        plan = solve(position, max_turns=7, stats=stats)
        plain.append((plan and len(plan), stats["nodes"]))
    monkeypatch.setattr(solver, "ROUND_FIRST", 1)
    searched = []
    for position, (length, _) in zip(positions, plain):
        plan = assert_twins(position, monkeypatch, max_turns=7)
        assert (plan and len(plan)) == length
        stats = {}
        solve(position, max_turns=7, stats=stats)
        searched.append(stats["nodes"])
    assert searched != [nodes for _, nodes in plain]  # the rounds changed the search somewhere


@needs_c
def test_a_worker_beside_three_that_could_not_finish_alone_refutes_the_position():
    """``four-11`` (``benchmarks/puzzle-positions/``: three papers with three rocks, a rock with two scissors): the
    rock alone needs all 11 turns, so asking about it refutes most of the search (120,909 positions without)."""
    four11 = json.loads((Path(__file__).parents[1] / "benchmarks/puzzle-positions/four-11.json").read_text())
    stats: dict = {}
    turns = solve(four11, stats=stats)
    assert_solved(four11, turns, 11)
    assert stats["bounds"]["proved"] == 11
    assert stats["nodes"] < 20_000 and stats["oracle"][3] > 0


# benchmarks/puzzles.py's pair-3x9-49: two rocks share five scissors, the scissors has four papers.
TWINS = {"upper": [["r", 1, 3], ["s", -3, -1], ["r", 2, 2]],
         "lower": [["s", 3, -2], ["s", 3, -1], ["p", -2, 2], ["s", 3, -3], ["p", 4, -2], ["p", 2, -4], ["p", -3, 0],
                   ["s", 2, 1], ["s", 0, 3]],
         "block": [["", 1, -1]]}


@needs_c
def test_two_workers_of_one_class_are_tracked_with_the_third_carried(monkeypatch):
    """The two rocks tracked and the scissors carried as a set: 40 positions instead of 936 by joint moves, the same
    10 turns, and the twins search alike."""
    own, joint = positions_searched(TWINS, 10, monkeypatch, "ROPASCI_CARRY")
    assert own * 10 < joint
    assert len(assert_twins(TWINS, monkeypatch)) == 10


def two_of_a_class(rng: random.Random) -> dict:
    """Two tokens of one class and one of another anywhere, each class with one to four targets (and sometimes a
    Lower token of any symbol more), up to 12 blocks: the lone one is carried, the two of a class tracked."""
    return kin(rng, list(HEXES), 2, 4, 4, 0.3, 12)


@needs_c
@pytest.mark.parametrize("make, flag, count, max_turns", [(one_with_three, "ROPASCI_ESCORTS", 80, 8),
                                                          (two_of_a_class, "ROPASCI_CARRY", 120, 10)],
                         ids=["one-with-three", "two-of-a-class"])
def test_kin_positions_find_plans_as_short_as_the_joint_search(make, flag, count, max_turns, monkeypatch):
    """One worker beside three escorts of a class (the workers' search tracks one) and two workers of a class beside
    a third (the carried search carries the third): as short as the joint search (``flag`` 0)."""
    rng = random.Random(make.__name__)
    assert_as_short_as_joint([make(rng) for _ in range(count)], flag, max_turns, monkeypatch)


@needs_c
@pytest.mark.parametrize("make, count, max_turns", [(one_with_three, 15, 6), (two_of_a_class, 25, 7)],
                         ids=["one-with-three", "two-of-a-class"])
def test_the_c_core_searches_kin_positions_exactly_as_the_python_twin(make, count, max_turns, monkeypatch):
    rng = random.Random(f"{make.__name__}-twins")
    for _ in range(count):
        assert_twins(make(rng), monkeypatch, max_turns=max_turns)


@needs_c
def test_solve_stats_count_the_oracles_questions(tmp_path):
    path = tmp_path / "walls.json"
    path.write_text(json.dumps(WALLS))
    out, err = run_solve(path, "--stats")
    assert out == run_solve(path)[0] and len(out.splitlines()) == 15 * 3
    figures = dict(part.split("=") for part in err.splitlines()[-1].split())
    assert list(figures) == ["nodes", "relaxations", "oracle_questions", "oracle_nodes", "seconds"]
    assert int(figures["oracle_questions"]) > 0 and int(figures["oracle_nodes"]) >= int(figures["oracle_questions"])


def two_workers(rng: random.Random) -> dict:
    """A rock, a paper and a scissors anywhere, two of them with two or three targets and the third an escort, up to
    12 blocks: the positions of the escorts' search with two workers."""
    cells = list(HEXES)
    rng.shuffle(cells)
    ups = list("rps")
    rng.shuffle(ups)
    lows = [PREY[ups[0]]] * rng.randint(2, 3) + [PREY[ups[1]]] * rng.randint(2, 3)
    return laid_out(cells, ups, lows, rng.randint(0, 12))


def oracle_twins(positions, monkeypatch, max_turns: int) -> int:
    """The twins search each position alike, questions to the oracle included, and as short as without the oracle
    (their plans replay): the positions the oracle refuted in all."""
    refuted = 0
    for position in positions:
        (c_turns, c_stats), (py_turns, py_stats) = both(position, monkeypatch, max_turns=max_turns)
        assert {k: c_stats[k] for k in COMPARED} == {k: py_stats[k] for k in COMPARED}
        monkeypatch.setenv("ROPASCI_ORACLE", "0")
        plain = solve(position, max_turns=max_turns)
        monkeypatch.delenv("ROPASCI_ORACLE")
        assert (c_turns is None) == (py_turns is None) == (plain is None)
        if c_turns is not None:
            assert len(c_turns) == len(py_turns) == len(plain)
            assert_solved(position, c_turns, len(plain))
            assert_solved(position, py_turns, len(plain))
        refuted += c_stats["oracle"][3]
    return refuted


@needs_c
def test_the_c_core_asks_the_oracle_exactly_as_the_python_twin(monkeypatch):
    """From the first position on (``oracle.WAKE`` 0): the same nodes, relaxations, thresholds, bounds and questions
    to the oracle in C and Python, on random positions of three workers and of two workers with an escort; the
    plans as short as without the oracle, and they replay."""
    monkeypatch.setattr(oracle, "WAKE", 0)
    rng = random.Random("oracle-twins")
    refuted = oracle_twins([make(rng) for make in [three_workers] * 10 + [two_workers] * 10], monkeypatch, 8)
    assert refuted > 0


@needs_c
def test_the_twins_stop_asking_alike_where_the_oracle_refutes_little(monkeypatch):
    """The carried search stops asking once the oracle has refuted fewer positions than ``C_YIELD`` per 100 questions
    after ``C_YIELD_AFTER`` of them: with a low threshold it asks fewer questions on some position, and C and Python
    still agree on everything, the questions included."""
    monkeypatch.setattr(oracle, "WAKE", 0)
    rng = random.Random("oracle-yield")
    fewer = 0
    for _ in range(8):
        position = three_workers(rng)
        monkeypatch.setattr(oracle, "C_YIELD_AFTER", 0)
        (_, eager), _ = both(position, monkeypatch, max_turns=8)
        monkeypatch.setattr(oracle, "C_YIELD_AFTER", 2)
        monkeypatch.setattr(oracle, "C_YIELD", 100)
        (c_turns, c_stats), (py_turns, py_stats) = both(position, monkeypatch, max_turns=8)
        assert {k: c_stats[k] for k in COMPARED} == {k: py_stats[k] for k in COMPARED}
        assert (c_turns is None) == (py_turns is None)
        fewer += c_stats["oracle"][0] < eager["oracle"][0]
    assert fewer > 0


SPLIT = {"upper": [["s", 1, 2], ["p", -2, 3], ["r", 0, 4]],
         "lower": [["p", -4, 2], ["p", 0, 3], ["p", -2, 2], ["p", -3, 1], ["p", -4, 4], ["r", 4, -2], ["r", 2, -4],
                   ["r", 1, -1], ["s", 1, -4]],
         "block": [["", 1, -2], ["", 3, -2], ["", 2, -1]]}  # benchmarks/puzzles.py's split-3x9-4078


@needs_c
def test_the_carried_worker_never_has_more_than_three_targets(monkeypatch):
    """The carried search keeps W as a row per subset of its targets, eight in C. Here the scissors (five targets)
    is the one worker the oracle need not ask about with ``C_SLACK`` 3; carried, it overran the C core's rows and
    the C core found a plan it could not write out. W is now one with at most three targets first: the twins agree
    and the plan of 10 replays."""
    monkeypatch.setattr(oracle, "C_SLACK", 3)
    (c_turns, c_stats), (py_turns, py_stats) = both(SPLIT, monkeypatch)
    assert {k: c_stats[k] for k in COMPARED} == {k: py_stats[k] for k in COMPARED}
    assert_solved(SPLIT, c_turns, 10)
    assert_solved(SPLIT, py_turns, 10)


ORDERED = {"upper": [["p", -4, 1], ["s", 2, 0], ["r", -2, -1]],
           "lower": [["p", -4, 0], ["r", 1, 1], ["r", 3, -4], ["r", 2, -1], ["s", 0, 0], ["p", -1, -2]],
           "block": [["", 0, 1]]}  # benchmarks/puzzles.py's mixed-3x6-5


@needs_c
def test_the_child_hardest_to_refute_is_tried_first(monkeypatch):
    """Refuting 7 turns takes 46 positions; the plan of 8 lies below a child whose refutation was among the hardest,
    so tried first the search enters 8 more positions, 54 in all (617 with the children in the order of their
    estimates alone). The twins order alike. (The order is the joint search's: with one of the three workers carried
    the search is another one.)"""
    monkeypatch.setenv("ROPASCI_CARRY", "0")
    turns = assert_twins(ORDERED, monkeypatch)
    assert len(turns) == 8
    stats: dict = {}
    solve(ORDERED, stats=stats)
    assert stats["nodes"] < 100


def escorts_position(rng: random.Random) -> dict:
    """Two or three Upper tokens (two of them on one hex, sometimes), the Lower tokens mostly the first one's prey:
    positions that are, or become, one worker with escorts that battle it, each other and the Lower tokens."""
    cells = list(HEXES)
    rng.shuffle(cells)
    ups = [rng.choice("rps") for _ in range(rng.randint(2, 3))]
    if rng.random() < 0.3:
        cells[1], ups[1] = cells[0], ups[0]
    lows = [PREY[ups[0] if rng.random() < 0.6 else rng.choice(ups)] for _ in range(rng.randint(1, 5))]
    blocks = rng.randint(0, 10)
    return laid_out(cells, ups, lows, blocks)


@needs_c
def test_the_escorts_search_finds_plans_as_short_as_the_joint_search(monkeypatch):
    rng = random.Random("escorts")
    assert_as_short_as_joint([escorts_position(rng) for _ in range(150)], "ROPASCI_ESCORTS", 12, monkeypatch)


@needs_c
def test_nine_stacked_rocks_are_solved_in_c():
    nine = {"upper": [["r", 0, 0]] * 9, "lower": [["s", 3, -1], ["s", -3, 2]]}
    turns = solve(nine)
    assert replay(nine, turns).result().text.startswith(f"solved in {len(turns)} turn")


@needs_c
def test_the_c_core_stops_at_its_deadline():
    hard = next(e for e in library() if e["name"] == "full-house")["position"]
    stats: dict = {}
    with pytest.raises(OutOfTime):
        solve(hard, stats=stats, deadline=time.perf_counter())
    assert stats["nodes"] == 1 and stats["bounds"]["estimate"] == 7
    tour17 = json.loads((Path(__file__).parents[1] / "benchmarks/puzzle-positions/tour-17.json").read_text())
    with pytest.raises(OutOfTime):  # in the search of a worker with escorts too (it takes 0.06 s)
        solve(tour17, deadline=time.perf_counter() + 0.005)
    start = time.perf_counter()
    with pytest.raises(OutOfTime):  # nine spread tokens: billions of joint moves, the clock checked between them
        solve({"upper": [["r", -4, 2], ["r", -4, 3], ["r", -4, 4], ["p", -3, 1], ["p", -3, 2], ["p", -3, 3],
                         ["s", -2, 0], ["s", -2, 1], ["s", -2, 2]],
               "lower": [["s", 4, 0], ["r", 4, -1], ["p", 3, 1], ["s", 1, 3]], "block": [["", 0, 0]]},
              deadline=time.perf_counter() + 0.2)
    assert time.perf_counter() - start < 1


def test_without_the_c_core_the_python_twin_solves(monkeypatch):
    monkeypatch.setenv("ROPASCI_NATIVE", "0")
    assert native_core() is None
    entry = next(e for e in library() if e["name"] == "escort")
    stats: dict = {}
    assert len(solve(entry["position"], stats=stats)) == 10 and stats["nodes"] == 110  # 264 by joint moves


@needs_c
def test_solves_may_run_at_once_in_several_threads():
    """ctypes lets go of the interpreter during a call (a site may solve for two games at once): each solve keeps
    its own tables."""
    from concurrent.futures import ThreadPoolExecutor
    entries = [e for e in library() if e["name"] in ("escort", "trio", "rock-band", "busy-board", "full-house")] * 2
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = list(pool.map(lambda e: solve(e["position"]), entries))
    assert [len(turns) for turns in found] == [e["turns"] for e in entries]


@needs_c
def test_the_hardest_position_found_is_solved_in_20_turns_and_proven():
    """``walls-20`` (``benchmarks/puzzle-positions/``, found among 15,000 positions of the course's kinds: 17.5 s
    before the carried search asked the oracle about workers with turns to spare) is solved in 20 turns, every plan of
    19 refuted, and the plan replays through the game's engine."""
    walls20 = json.loads((Path(__file__).parents[1] / "benchmarks/puzzle-positions/walls-20.json").read_text())
    stats: dict = {}
    turns = solve(walls20, stats=stats)
    assert_solved(walls20, turns, 20)
    assert stats["bounds"]["proved"] == 20 and stats["bounds"]["relaxation"] == 15
    assert stats["oracle"][3] > 0  # the oracle refuted positions


@needs_c
def test_the_hardest_position_found_with_two_of_a_class_is_solved_in_15_turns_and_proven():
    """``pair-15`` (two rocks with five targets and a paper with four, the slowest of 1,500 random positions with two
    of a class: 7.2 s by joint moves, 2 s carried) is solved in 15 turns, every plan of 14 refuted, the oracle asking
    about the paper."""
    pair15 = json.loads((Path(__file__).parents[1] / "benchmarks/puzzle-positions/pair-15.json").read_text())
    stats: dict = {}
    turns = solve(pair15, stats=stats)
    assert_solved(pair15, turns, 15)
    assert stats["bounds"]["proved"] == 15 and stats["bounds"]["relaxation"] == 12
    assert stats["oracle"][3] > 0
