"""Zero-sum matrix games: mixed Nash equilibria by linear programming (SciPy's HiGHS).

:func:`value` is for searches that solve many small games and need only their values (the strong bot's second
stage): it takes the simplex of the C core ``nash.c`` when it is built (microseconds for a 16 x 16 game, where
``linprog`` costs about 1.3 ms a call, mostly its wrapper), and HiGHS, its twin, otherwise or when the core gives
up. :func:`solve`, for the strategy actually played, stays with HiGHS."""
from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
from scipy.optimize import linprog

from games.engine import native

_SOURCE = Path(__file__).with_name("nash.c")
_P = ctypes.c_void_p
_loaded: list = []  # the core, or None, once loaded


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


def refine(M, q, v: float, tol: float = 1e-7):
    """Among the row strategies that still guarantee ``v``, the value of ``M`` (less ``tol``), one that does best
    against the column mix ``q``: an equilibrium that also takes what an opponent playing like ``q`` gives away.
    None when the LP fails (keep the equilibrium found)."""
    M = np.asarray(M, dtype=float)
    m, n = M.shape
    res = linprog(-(M @ np.asarray(q, dtype=float)), A_ub=-M.T, b_ub=np.full(n, tol - v), A_eq=np.ones((1, m)),
                  b_eq=[1.0], bounds=[(0.0, None)] * m, method="highs")
    if res.status != 0 or res.x is None:
        return None
    x = np.clip(res.x, 0.0, None)
    return x / x.sum()


def value(M) -> float:
    """The value of the zero-sum game ``M`` (rows maximise): a pure saddle point's, else the C core's simplex,
    else HiGHS's (see :func:`solve`)."""
    M = np.asarray(M, dtype=float)
    sp = saddle_point(M)
    if sp is not None:
        return float(M[sp])
    fast = _core_solve(M)
    if fast is not None:
        return fast[2]
    return _row_lp(M)[1]


def _core():
    """The loaded core, or None (``ROPASCI_NATIVE=0``, or no compiler)."""
    if not native.enabled():
        return None
    if not _loaded:
        lib = native.load(_SOURCE)
        if lib is not None:
            lib.zs_solve.argtypes = [_P, ctypes.c_int, ctypes.c_int, _P, _P, _P]
            lib.zs_solve.restype = ctypes.c_int
        _loaded.append(lib)
    return _loaded[0]


def _core_solve(M: np.ndarray):
    """``(x, y, value)`` by the C core's simplex, or None (no core, or it gave up)."""
    lib = _core()
    if lib is None:
        return None
    M = np.ascontiguousarray(M, dtype=np.float64)
    m, n = M.shape
    x, y, v = np.empty(m), np.empty(n), np.empty(1)
    if lib.zs_solve(M.ctypes.data, m, n, x.ctypes.data, y.ctypes.data, v.ctypes.data) != 0:
        return None
    return x, y, float(v[0])


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
