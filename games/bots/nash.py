"""Zero-sum matrix games: mixed Nash equilibria by linear programming (SciPy's HiGHS)."""
from __future__ import annotations

import numpy as np
from scipy.optimize import linprog


def saddle_point(M: np.ndarray):
    """A pure equilibrium ``(i, j)`` of the row-maximising game ``M`` if one exists, else None."""
    row_min = M.min(axis=1)
    col_max = M.max(axis=0)
    i = int(row_min.argmax())
    j = int(col_max.argmin())
    if row_min[i] >= col_max[j] - 1e-9:
        return i, j
    return None


def _pure(k: int, i: int) -> np.ndarray:
    v = np.zeros(k)
    v[i] = 1.0
    return v


def solve(M) -> tuple[np.ndarray, np.ndarray, float]:
    """Equilibrium ``(x, y, value)`` of the zero-sum game where the row player picks ``x`` to maximise
    ``x @ M @ y`` and the column player picks ``y`` to minimise it.

    A pure saddle point is returned directly; otherwise the row strategy comes from the LP
    ``max v  s.t.  M^T x >= v, sum(x) = 1, x >= 0`` solved with ``linprog(method="highs")``, and the column
    strategy from its dual (re-solved as its own LP if the duals are unavailable).
    """
    M = np.asarray(M, dtype=float)
    m, n = M.shape
    sp = saddle_point(M)
    if sp is not None:
        i, j = sp
        return _pure(m, i), _pure(n, j), float(M[i, j])
    x, v, duals = _row_lp(M)
    y = None
    if duals is not None:
        y = np.clip(-np.asarray(duals, dtype=float), 0.0, None)
        total = y.sum()
        y = y / total if abs(total - 1.0) < 1e-6 else None
    if y is None:
        y, _, _ = _row_lp(-M.T)
    return x, y, v


def _row_lp(M: np.ndarray):
    m, n = M.shape
    scale = float(np.abs(M).max()) or 1.0
    A = M / scale
    c = np.zeros(m + 1)
    c[-1] = -1.0
    A_ub = np.hstack([-A.T, np.ones((n, 1))])
    b_ub = np.zeros(n)
    A_eq = np.ones((1, m + 1))
    A_eq[0, -1] = 0.0
    bounds = [(0.0, None)] * m + [(None, None)]
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if res.status != 0 or res.x is None:
        # Numerical trouble: fall back to the maximin pure strategy.
        i = int(M.min(axis=1).argmax())
        return _pure(m, i), float(M[i].min()), None
    x = np.clip(res.x[:m], 0.0, None)
    x /= x.sum()
    duals = getattr(getattr(res, "ineqlin", None), "marginals", None)
    return x, float(res.x[-1]) * scale, duals
