"""The C core of the strong bot's payoff matrices (``matrix.c``): glue and encodings.

Why: an entry of the depth-1 matrix game (clone, resolve the joint action, evaluate) costs about 100 us in
Python and a few in C, so the same CPU budget searches much wider, or a turn deeper. :func:`values` gives
the strong bot (through ``bots.matrix_values``) a function filling blocks of the matrix, so its clock is still
checked between blocks; None without the core (``ROPASCI_NATIVE=0`` or no compiler), and the bot's own
Python entries, the twin, play instead. :func:`scores` and :func:`order` do the same for the candidates'
scores and their search order (``bots.candidates``), which the second stage asks for at every node. The core
gets every table and weight from ``rules`` and from the evaluation (``bots.core_constants()``, passed in by
``bots``, which imports this module).
"""
from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np

from games.engine import native

from .rules import _ACTION_INFO, MAX_THROWS, N, NMASK, SIDE_INDEX, THROW_UNIT, UNIT

WORDS = 14  # 64-bit words of a configuration key (the rules' 862-bit key)
KEY_BYTES = 8 * WORDS
# Action -> the core's code: a slide or swing from * N + to, a throw N * N + symbol * N + to.
CODES = {a: (f * N + t if f >= 0 else N * N + x * N + t) for a, (f, t, x, _, _) in _ACTION_INFO.items()}
_P = ctypes.c_void_p
_I = ctypes.c_int
_SOURCE = Path(__file__).with_name("matrix.c")
_ready: list = []  # the initialised library


def core(constants) -> ctypes.CDLL | None:
    """The loaded core, initialised with the evaluation's ``constants`` (``bots.core_constants()``: its weights
    in the order of the core's ``W_*`` indices, then its SWING, ZONE, DIST and CENTRE_BONUS tables), or None."""
    if not native.enabled():
        return None
    if _ready:
        return _ready[0]
    lib = native.load(_SOURCE)
    if lib is None:
        return None
    weights, swing_of, zone, dist, centre_bonus = constants
    weights = np.array(weights, dtype=np.float64)
    lib.rps_weights.restype = _I
    if lib.rps_weights() != len(weights):
        raise RuntimeError("matrix.c and the evaluation's weights disagree")
    swing = np.zeros((N, N), dtype=np.uint64)
    for a in range(N):
        for y, mask in swing_of[a].items():
            swing[a, y] = mask
    tables = (np.array(NMASK, dtype=np.uint64), swing, np.array(zone, dtype=np.uint64),
              np.array(dist, dtype=np.uint8), np.array(centre_bonus, dtype=np.float64), weights)
    lib.rps_init.argtypes = [_P] * 6
    lib.rps_init(*(t.ctypes.data for t in tables))
    lib.rps_fill.argtypes = [_P, _P, _P, _I, _P, _P, _I, _P, _P, _I, _P, _I, _I, _I, _I, _P, _I]
    lib.rps_fill.restype = _I
    lib.rps_score.argtypes = [_P, _P, _I, _I, _P]
    lib.rps_score.restype = None
    lib.rps_order.argtypes = [_P, _P, _I, _I, _P, _P]
    lib.rps_order.restype = _I
    _ready.append(lib)
    return lib


class _Table:
    """Configuration keys (as the core's words), each with an int."""

    __slots__ = ("keys", "vals", "n")

    def __init__(self, items):
        keys, vals = [], []
        for key, val in items:
            keys.append(key.to_bytes(KEY_BYTES, "little"))
            vals.append(val)
        self.n = len(keys)
        self.keys = np.frombuffer(b"".join(keys) or bytes(KEY_BYTES), dtype=np.uint64)
        self.vals = np.array(vals or [0], dtype=np.int32)


def key_of(position_key) -> int:
    """The rules' configuration key of a ``bots.position_key``."""
    thrown, upper, lower = position_key
    key = thrown[0] * THROW_UNIT[0] + thrown[1] * THROW_UNIT[1]
    for p, tokens in enumerate((upper, lower)):
        for i, s, n in tokens:
            key += n * UNIT[p][s][i]
    return key


_seen_cache: list = [None, None, None]  # [the bot's seen Counter, its total, its table]


def _seen_table(seen) -> _Table:
    """The bot's seen positions as a table, reused while the Counter has not changed (it only grows)."""
    total = sum(seen.values())
    if _seen_cache[0] is not seen or _seen_cache[1] != total:
        _seen_cache[:] = [seen, total, _Table((key_of(k), n) for k, n in seen.items() if n)]
    return _seen_cache[2]


def _position(state) -> np.ndarray:
    """The position as the core's ``decode`` reads it."""
    return np.array(state.cnt[0] + state.cnt[1] + state.sym[0] + state.sym[1] + state.thrown + [state.turn],
                    dtype=np.int32)


def _codes(actions) -> np.ndarray | None:
    """The core's codes of ``actions``, or None if one is not an action it can code."""
    try:
        return np.array([CODES[a] for a in actions], dtype=np.int32)
    except (KeyError, TypeError):
        return None


def scores(constants, state, p: int, actions) -> list[float] | None:
    """``bots.score_actions(state, p, actions)`` (the full evaluation) from the core, or None."""
    lib = core(constants)
    acts = None if lib is None else _codes(actions)
    if acts is None:
        return None
    out = np.empty(len(acts))
    lib.rps_score(_position(state).ctypes.data, acts.ctypes.data, len(acts), p, out.ctypes.data)
    return out.tolist()


def order(constants, state, p: int, actions, ties) -> list[int] | None:
    """``bots.candidates``' order of ``actions`` for side ``p`` (indices, tactical ones first) from the core, or
    None; ``ties``: a key per action breaking equal scores (None: the legal order)."""
    lib = core(constants)
    acts = None if lib is None else _codes(actions)
    if acts is None:
        return None
    pos = _position(state)
    keys = None if ties is None else np.array(ties, dtype=np.float64)
    out = np.empty(len(acts), dtype=np.int32)
    if lib.rps_order(pos.ctypes.data, acts.ctypes.data, len(acts), p, None if keys is None else keys.ctypes.data,
                     out.ctypes.data):
        raise MemoryError("matrix.c: no memory to order the candidates")
    return out.tolist()


def values(constants, state, seat, rows, cols, seen, *, contempt: float, repeat_contempt: float, repeat_factor: float):
    """``fill(out, i0, i1, j0, j1)``, writing to ``out[i, j]`` (a C-contiguous float64 matrix) the strong bot's
    ``_leaf(_child(state, rows[i], cols[j]))`` for ``seat`` (``seen``: its Counter of ``position_key``), for
    rows ``i0..i1-1`` and columns ``j0..j1-1``; or None (no core, the game over, an action it cannot code)."""
    lib = core(constants)
    if lib is None or state.is_terminal():
        return None
    acts_a, acts_b = _codes(rows), _codes(cols)
    if acts_a is None or acts_b is None:
        return None
    pos = _position(state)
    hist = _Table((k, 1 if t is None else 0) for k, t in state.history.items())
    seen_t = _seen_table(seen)
    params = np.array([contempt, repeat_contempt, repeat_factor], dtype=np.float64)
    fixed = (pos.ctypes.data, hist.keys.ctypes.data, hist.vals.ctypes.data, hist.n,
             seen_t.keys.ctypes.data, seen_t.vals.ctypes.data, seen_t.n,
             acts_a.ctypes.data, acts_b.ctypes.data, SIDE_INDEX[seat], params.ctypes.data)
    keep = (pos, hist, seen_t, acts_a, acts_b, params)  # the arrays the pointers point into, kept alive

    def fill(out: np.ndarray, i0: int, i1: int, j0: int, j1: int) -> None:
        if not (keep and out.dtype == np.float64 and out.flags.c_contiguous
                and 0 <= i0 <= i1 <= min(len(rows), out.shape[0]) and 0 <= j0 <= j1 <= min(len(cols), out.shape[1])):
            raise ValueError("fill: out must be a C-contiguous float64 matrix holding the block asked for")
        if lib.rps_fill(*fixed, i0, i1, j0, j1, out.ctypes.data, out.shape[1]):
            raise MemoryError("matrix.c: no memory for the fingerprints")

    return fill


if MAX_THROWS != 9 or N != 61:
    raise ImportError("matrix.c is written for 61 hexes and 9 throws")
