"""The C simplex of ``games/bots/nash.c`` against SciPy's HiGHS (its twin): the same game values, and its
strategies are equilibria (no pure reply does better against them), on random and degenerate games."""
import numpy as np
import pytest

from games.bots import nash

pytestmark = pytest.mark.skipif(nash._core() is None, reason="no C core (ROPASCI_NATIVE=0 or no compiler)")


def games(seed=1, count=1500):
    rng = np.random.default_rng(seed)
    for k in range(count):
        m, n = (int(v) for v in rng.integers(1, 40, size=2))
        kind = k % 4
        if kind == 0:
            yield np.tanh(rng.normal(size=(m, n)))
        elif kind == 1:  # small integers: ties and degenerate vertices everywhere
            yield rng.integers(-2, 3, size=(m, n)).astype(float)
        elif kind == 2:  # values on a coarse grid
            yield np.round(np.tanh(rng.normal(size=(m, n))), 2)
        else:  # repeated rows and columns
            yield np.tanh(rng.normal(size=(m, 1))) @ np.ones((1, n)) + 0.01 * rng.integers(0, 2, size=(m, n))


def test_same_value_as_highs_and_its_strategies_are_equilibria():
    solved = 0
    for M in games():
        if nash.saddle_point(M) is not None:
            continue
        fast = nash._core_solve(M)
        assert fast is not None
        x, y, v = fast
        _, v_highs, _ = nash._row_lp(M)
        assert abs(v - v_highs) < 1e-7
        assert abs(nash.value(M) - v_highs) < 1e-7
        assert x.min() >= 0 and y.min() >= 0 and abs(x.sum() - 1) < 1e-12 and abs(y.sum() - 1) < 1e-12
        assert (x @ M >= v - 1e-9).all() and (M @ y <= v + 1e-9).all()
        solved += 1
    assert solved > 500


def test_value_takes_a_saddle_point_and_falls_back_to_highs_without_the_core(monkeypatch):
    assert nash.value([[3, 1], [4, 2]]) == 2.0  # a pure saddle point
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    assert abs(nash.value(rps)) < 1e-12
    monkeypatch.setenv("ROPASCI_NATIVE", "0")
    assert nash._core() is None
    assert abs(nash.value([[1, -1], [-1, 1]])) < 1e-9 and abs(nash.value([[2, 0], [0, 1]]) - 2 / 3) < 1e-9
