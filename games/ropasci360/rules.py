"""RoPaSci 360 (COMP30024, 2021): simultaneous Rock-Paper-Scissors on a 61-hex board.

Exact to the course's official referee (see ``shared/docs/ropasci360-referee-facts.md``): actions are the
referee's tuples, ``("THROW", "r", (r, q))``, ``("SLIDE", (r, q), (r, q))``, ``("SWING", (r, q), (r, q))``,
both are validated against the start-of-turn board and applied together, then mixed hexes battle, then the
end conditions are checked in the referee's order.

Speed matters (bots search with this, the server validates with it): hexes are integer indices into
precomputed tables, each side's occupancy is a bitmask, legal action lists are concatenations of prebuilt
tuples, validation is O(1) without listing actions, and the repetition key is updated incrementally.
The costs are the interpreter's, so the hot paths are written for it (see ``docs/performance.md``): one
dict lookup validates an action, each state keeps its occupied hexes as a sorted list besides the
bitmasks, and the usual turn (both move, no battle) is resolved inline without helper calls.
"""
from __future__ import annotations

import dataclasses
import re
from bisect import insort
from typing import Mapping

from games.engine.api import Game, GameInfo, IllegalAction, Result, State, Turn, short_repr
from games.engine.hexgrid import HexGrid, bits

SIDES = ("upper", "lower")
SIDE_INDEX = {"upper": 0, "lower": 1}
SYMBOLS = ("r", "p", "s")  # code c beats code (c + 2) % 3 and is beaten by code (c + 1) % 3
SYMBOL_INDEX = {"r": 0, "p": 1, "s": 2}
SYMBOL_NAMES = ("rock", "paper", "scissors")
MAX_THROWS = 9
MAX_TURNS = 360

GRID = HexGrid(4)
HEXES = GRID.hexes
INDEX = GRID.index
NEIGHBOURS = GRID.neighbours
NMASK = GRID.neighbour_mask
ROWS = GRID.rows
N = len(HEXES)

# Common neighbours of two hexes at distance 2, as a bitmask: the possible swing pivots between them.
PIVOTS: dict[tuple[int, int], int] = {}
for _a in range(N):
    for _y in NEIGHBOURS[_a]:
        for _z in NEIGHBOURS[_y]:
            if _z != _a and _z not in NEIGHBOURS[_a]:
                PIVOTS[(_a, _z)] = PIVOTS.get((_a, _z), 0) | (1 << _y)

# Prebuilt action tuples (the canonical action objects, shared by every state).
SLIDES = tuple(tuple(("SLIDE", HEXES[a], HEXES[b]) for b in NEIGHBOURS[a]) for a in range(N))
# One object per distinct swing, even when two pivots lead to the same hex (identity makes lookups faster).
_SWING = {(a, z): ("SWING", HEXES[a], HEXES[z]) for a, z in PIVOTS}
SWINGS = tuple(
    {y: tuple(_SWING[(a, z)] for z in NEIGHBOURS[y] if z != a and z not in NEIGHBOURS[a])
     for y in NEIGHBOURS[a]}
    for a in range(N))
_THROW = tuple(tuple(("THROW", sym, HEXES[i]) for sym in SYMBOLS) for i in range(N))  # _THROW[i][s]


def throw_zone(side: int, thrown: int) -> tuple[int, ...]:
    """Hexes where a side that has thrown ``thrown`` tokens may throw next (rows counted from its end)."""
    if side == 0:
        return tuple(i for i in range(N) if ROWS[i] >= 4 - thrown)
    return tuple(i for i in range(N) if ROWS[i] <= thrown - 4)


THROW_ZONE_MASK = tuple(tuple(sum(1 << i for i in throw_zone(s, k)) for k in range(MAX_THROWS)) for s in (0, 1))
THROWS = tuple(
    tuple(tuple(_THROW[i][c] for i in throw_zone(s, k) for c in range(3)) for k in range(MAX_THROWS))
    + ((),)
    for s in (0, 1))



def _moves_from(a: int, pivots: int) -> tuple:
    """Slide and swing actions from hex ``a`` when ``pivots`` (a subset of its neighbours) hold own tokens."""
    moves = dict.fromkeys(SLIDES[a])  # a dict keeps the first occurrence: a swing reachable twice is listed once
    for y in bits(pivots):
        moves.update(dict.fromkeys(SWINGS[a][y]))
    return tuple(moves)


def _subsets(mask: int):
    sub = mask
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & mask


# MOVES[a][NMASK[a] & own occupancy]: every slide and swing from hex a. Prebuilt for all 2**6 neighbour
# patterns (2,704 tuples): plain dicts look up faster than a dict subclass filling itself on demand.
# Keys are inserted fewest own neighbours first: the keys of a hex share their low bits (0 for most hexes),
# so they collide in the dict, and a key inserted earlier is found in fewer probes; the usual patterns
# (no own neighbour, or one) come first.
MOVES = tuple({sub: _moves_from(a, sub) for sub in sorted(_subsets(NMASK[a]), key=lambda m: (m.bit_count(), m))}
              for a in range(N))

# The exact configuration key is one integer (862 bits): a 7-bit field per (hex, side), then both throw
# counts (4 bits each). A field holds count * weight of the symbol there, weights 1, 10, 11 for r, p, s:
# 1..9, 10..90 and 11..99 never meet, so the field, hence the key, determines every count and symbol.
# Being a sum over tokens, it is updated by adding and subtracting units; it is kept this small because
# adding to it and hashing it (for the repetition rule) cost in proportion to its length.
# UNIT[p][s][i] adds one token of side p and symbol s on hex i; THROW_UNIT[p] adds one throw used by p.
_WEIGHT = (1, 10, 11)
UNIT = tuple(tuple(tuple(_WEIGHT[s] << (14 * i + 7 * p) for i in range(N)) for s in range(3)) for p in (0, 1))
THROW_UNIT = (1 << (14 * N), 1 << (14 * N + 4))


def _action_table() -> dict:
    """Every well-formed action -> what validating and applying it needs, so that the usual case is one
    dict lookup (an identity hit for the prebuilt tuples) instead of parsing:

    - slide or swing: ``(from, to, from bit, pivot mask, to bit)``; legal iff the side occupies the from
      hex and, for a swing, a hex of the pivot mask (a slide's is 0);
    - throw: ``(-1, to, symbol, (fewest throws made before, for upper, for lower), to bit)``.

    Anything else, and any action failing these checks, goes through ``_parse``, which names the rule broken.
    Small on purpose, for the caches: the entries share their int objects (a table of per-action key
    changes was tried, and was slower for its size).
    """
    bit = tuple(1 << i for i in range(N))
    firsts = {}
    table = {}
    for a in range(N):
        for b, slide in zip(NEIGHBOURS[a], SLIDES[a]):
            table[slide] = (a, b, bit[a], 0, bit[b])
    for (a, b), pivots in PIVOTS.items():
        table[_SWING[(a, b)]] = (a, b, bit[a], pivots, bit[b])
    for i in range(N):
        first = tuple(next(k for k in range(MAX_THROWS) if (THROW_ZONE_MASK[p][k] >> i) & 1) for p in (0, 1))
        first = firsts.setdefault(first, first)
        for s in range(3):
            table[_THROW[i][s]] = (-1, i, s, first, bit[i])
    return table


_ACTION_INFO = _action_table()
_U0, _U1 = UNIT
# The symbols that die on a hex, as a bitmask, by the bitmask of the symbols there (code c beats (c+2)%3):
# rock and paper: rock; rock and scissors: scissors; paper and scissors: paper; all three: all.
_DEAD = (0, 0, 0, 0b001, 0, 0b100, 0b010, 0b111)
_BIT = (0b001, 0b010, 0b100, 0)  # _BIT[symbol]: its bit; _BIT[-1] (no symbol): none

# Turns are made without calling the dataclass __init__ (a Python-level call, a sizeable share of a turn):
# object.__new__, then each field set. Fails here, loudly, if Turn ever gets other fields.
_new_turn = object.__new__
assert [f.name for f in dataclasses.fields(Turn)] == ["number", "actions", "events"], "update the Turn builds"

_TEXT_HEX = r"(?:\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)|Hex\(\s*r\s*=\s*(-?\d+)\s*,\s*q\s*=\s*(-?\d+)\s*\))"
_TEXT_ACTION = re.compile(
    rf"^\s*(?:(SLIDE|SWING)\s+from\s+{_TEXT_HEX}\s+to\s+{_TEXT_HEX}|THROW\s+symbol\s+([rps])\s+to\s+{_TEXT_HEX})\s*$")


def hex_text(h: tuple[int, int]) -> str:
    return f"({h[0]}, {h[1]})"


def _malformed(player, action, why: str) -> IllegalAction:
    return IllegalAction(player, action, f"malformed action: {why}")


class RoPaSci360(Game):
    info = GameInfo(name="ropasci360", title="RoPaSci 360", players=SIDES, simultaneous=True,
                    max_turns=MAX_TURNS)

    def new_initial_state(self) -> "RoPaSci360State":
        return RoPaSci360State()

    # --- action forms -----------------------------------------------------------------------------
    def action_to_json(self, action):
        if action[0] == "THROW":
            return ["THROW", action[1], list(action[2])]
        return [action[0], list(action[1]), list(action[2])]

    def action_from_json(self, data, player=None):
        """``["SLIDE", [r, q], [r, q]]``, ``["SWING", ...]`` or ``["THROW", "p", [r, q]]`` to an action tuple."""
        if (not isinstance(data, (list, tuple)) or len(data) != 3 or not isinstance(data[0], str)
                or data[0] not in ("SLIDE", "SWING", "THROW")):
            raise _malformed(player, data, 'expected ["SLIDE"|"SWING", [r, q], [r, q]] or ["THROW", "r"|"p"|"s", [r, q]]')
        kind = data[0]
        if kind == "THROW":
            if not isinstance(data[1], str) or data[1] not in SYMBOL_INDEX:
                raise _malformed(player, data, "the symbol must be one of \"r\", \"p\", \"s\"")
            return ("THROW", data[1], self._hex_from_json(player, data, data[2]))
        return (kind, self._hex_from_json(player, data, data[1]), self._hex_from_json(player, data, data[2]))

    @staticmethod
    def _hex_from_json(player, data, h):
        if (not isinstance(h, (list, tuple)) or len(h) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in h)):
            raise _malformed(player, data, f"a hex must be a pair of integers [r, q], got {short_repr(h)}")
        return (h[0], h[1])

    def action_to_text(self, action) -> str:
        """The referee's log wording, e.g. ``SLIDE from (1, -1) to (0, -1)``."""
        if action[0] == "THROW":
            return f"THROW symbol {action[1]} to {hex_text(action[2])}"
        return f"{action[0]} from {hex_text(action[1])} to {hex_text(action[2])}"

    def action_from_text(self, text: str, player=None):
        """Parse the referee's wording; hexes may be written ``(r, q)`` or ``Hex(r=R, q=Q)``."""
        m = _TEXT_ACTION.match(text)
        if not m:
            raise _malformed(player, text, "expected 'SLIDE|SWING from (r, q) to (r, q)' or 'THROW symbol s to (r, q)'")
        g = m.groups()

        def hx(i):
            vals = g[i:i + 4]
            r, q = (vals[0], vals[1]) if vals[0] is not None else (vals[2], vals[3])
            return (int(r), int(q))

        if g[0]:
            return (g[0], hx(1), hx(5))
        return ("THROW", g[9], hx(10))

    def state_from_json(self, data) -> "RoPaSci360State":
        """Rebuild a state from ``to_json`` output (repetition history starts afresh at that position)."""
        st = RoPaSci360State()
        try:
            st.turn = int(data["turn"])
            for p, side in enumerate(SIDES):
                st.thrown[p] = MAX_THROWS - int(data["throws_left"][side])
                for s, sym in enumerate(SYMBOLS):
                    st.defeated[p][s] = int(data.get("defeated", {}).get(side, {}).get(sym, 0))
            for tok in data["tokens"]:
                p, s, i, n = SIDE_INDEX[tok["player"]], SYMBOL_INDEX[tok["symbol"]], INDEX[tuple(tok["hex"])], tok["count"]
                st.sym[p][i], st.cnt[p][i] = s, n
                st.occ[p] |= 1 << i
                st.symcount[p][s] += n
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a RoPaSci 360 state: {exc!r}") from None
        st.key = sum(n * UNIT[p][st.sym[p][i]][i] for p in (0, 1) for i, n in enumerate(st.cnt[p]) if n)
        st.key += st.thrown[0] * THROW_UNIT[0] + st.thrown[1] * THROW_UNIT[1]
        st.history = {st.key: st.turn}
        st._own = [_own_list(st.occ[0]), _own_list(st.occ[1])]
        if data.get("result"):
            st._result = _result_from_text(data["result"])
        return st


def _result_from_text(text: str) -> Result:
    if text.startswith("winner: "):
        w = text[len("winner: "):]
        return Result(text, w, {w: 1.0, SIDES[1 - SIDE_INDEX[w]]: 0.0})
    return Result(text, None, {"upper": 0.5, "lower": 0.5})


_RESULTS = {
    "upper": _result_from_text("winner: upper"),
    "lower": _result_from_text("winner: lower"),
    "none": _result_from_text("draw: no remaining tokens or throws"),
    "invincible": _result_from_text("draw: both players have an invincible token"),
    "repeat": _result_from_text("draw: same game state occurred for 3rd time"),
    "turns": _result_from_text("draw: maximum number of turns reached"),
}



def _own_list(occ: int) -> list:
    """The hexes in ``occ``, in increasing order, as a list (see ``RoPaSci360State._own``)."""
    return list(bits(occ))


class RoPaSci360State(State):
    game = None  # set below to the registered game object
    __slots__ = ("turn", "thrown", "occ", "sym", "cnt", "symcount", "defeated", "key", "history", "_result",
                 "_own", "_settled")

    def __init__(self):
        self.turn = 0
        self.thrown = [0, 0]
        self.occ = [0, 0]  # bitmask of hexes holding the side's tokens
        self.sym = [[-1] * N, [-1] * N]  # symbol code of the side's tokens per hex (one symbol per side per hex)
        self.cnt = [[0] * N, [0] * N]  # number of the side's tokens per hex
        self.symcount = [[0, 0, 0], [0, 0, 0]]  # tokens on the board per side and symbol
        self.defeated = [[0, 0, 0], [0, 0, 0]]
        self.key = 0  # exact code of the configuration: tokens per hex, side and symbol, and throws (see UNIT)
        # Configuration key -> the turn it was first seen, or None once seen twice; counting the empty start.
        self.history = {0: 0}
        self._result: Result | None = None
        # occ again, as the sorted list of the occupied hexes per side, so that legal_actions walks them
        # without bit twiddling on a 61-bit mask. Every change of occ updates it.
        self._own = [[], []]
        # End conditions 1-3 are known not to hold for the current throws used and tokens by symbol.
        self._settled = False

    def clone(self) -> "RoPaSci360State":
        c = RoPaSci360State.__new__(RoPaSci360State)
        c.turn, c.key, c._result, c._settled = self.turn, self.key, self._result, self._settled
        c.thrown, c.occ = self.thrown[:], self.occ[:]
        c.sym = [self.sym[0][:], self.sym[1][:]]
        c.cnt = [self.cnt[0][:], self.cnt[1][:]]
        c.symcount = [self.symcount[0][:], self.symcount[1][:]]
        c.defeated = [self.defeated[0][:], self.defeated[1][:]]
        c.history = self.history.copy()
        c._own = [self._own[0][:], self._own[1][:]]
        return c

    # --- status -------------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        return [] if self._result else ["upper", "lower"]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    def throws_left(self, side: str) -> int:
        return MAX_THROWS - self.thrown[SIDE_INDEX[side]]

    def tokens(self, side: str) -> list[tuple[str, tuple[int, int], int]]:
        """The side's tokens as (symbol, hex, count), in board order."""
        p = SIDE_INDEX[side]
        return [(SYMBOLS[self.sym[p][i]], HEXES[i], self.cnt[p][i]) for i in bits(self.occ[p])]

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str):
        """Every distinct legal action of ``player``: throws, then per own hex its slides and swings."""
        if self._result:
            return []
        p = 0 if player == "upper" else 1
        occ = self.occ[p]
        k = self.thrown[p]
        if not occ:
            return THROWS[p][k]
        acts = [*THROWS[p][k]] if k < MAX_THROWS else []
        for a in self._own[p]:
            acts += MOVES[a][NMASK[a] & occ]
        return acts

    def check_action(self, player: str, action) -> None:
        if player not in SIDE_INDEX:
            raise IllegalAction(player, action, "unknown player (expected 'upper' or 'lower')")
        if self._result:
            raise IllegalAction(player, action, "the game is over")
        self._parse(SIDE_INDEX[player], action)

    def _parse(self, p: int, action):
        """Validate ``action`` for side ``p`` against this board; return (hex_from or -1, hex_to, symbol).

        The reference validation, with a precise message for each broken rule; ``apply_actions`` checks the
        usual actions faster through ``_ACTION_INFO`` and falls back on this for everything else."""
        try:
            kind = action[0]
            if kind == "SLIDE" or kind == "SWING":
                if len(action) != 3:
                    raise _malformed(SIDES[p], action, "expected (kind, from_hex, to_hex)")
                a, b = INDEX.get(action[1]), INDEX.get(action[2])
                if a is None or b is None:
                    raise IllegalAction(SIDES[p], action, "a hex is not on the board (|r|, |q|, |r+q| <= 4)")
                if not (self.occ[p] >> a) & 1:
                    raise IllegalAction(SIDES[p], action, f"{SIDES[p]} has no token on {hex_text(HEXES[a])} to move")
                if kind == "SLIDE":
                    if not (NMASK[a] >> b) & 1:
                        raise IllegalAction(SIDES[p], action,
                                            f"a slide must move to an adjacent hex; {hex_text(HEXES[b])} is not adjacent to {hex_text(HEXES[a])}")
                else:
                    pivots = PIVOTS.get((a, b))
                    if pivots is None:
                        raise IllegalAction(SIDES[p], action,
                                            f"a swing must end on a hex opposite an adjacent swinging hex; {hex_text(HEXES[b])} is not two steps from {hex_text(HEXES[a])} around a neighbour")
                    if not pivots & self.occ[p]:
                        raise IllegalAction(SIDES[p], action,
                                            f"a swing needs a swinging hex holding one of {SIDES[p]}'s tokens adjacent to both {hex_text(HEXES[a])} and {hex_text(HEXES[b])}")
                return a, b, self.sym[p][a]
            if kind == "THROW":
                if len(action) != 3:
                    raise _malformed(SIDES[p], action, "expected ('THROW', symbol, hex)")
                s = SYMBOL_INDEX.get(action[1])
                if s is None:
                    raise IllegalAction(SIDES[p], action, "the symbol must be one of 'r', 'p', 's'")
                b = INDEX.get(action[2])
                if b is None:
                    raise IllegalAction(SIDES[p], action, "the hex is not on the board (|r|, |q|, |r+q| <= 4)")
                k = self.thrown[p]
                if k >= MAX_THROWS:
                    raise IllegalAction(SIDES[p], action, f"{SIDES[p]} has no throws left (all {MAX_THROWS} used)")
                if not (THROW_ZONE_MASK[p][k] >> b) & 1:
                    rows = f"r >= {4 - k}" if p == 0 else f"r <= {k - 4}"
                    raise IllegalAction(SIDES[p], action,
                                        f"throw number {k + 1} of {SIDES[p]} must land in its first {k + 1} row(s) ({rows})")
                return -1, b, s
        except TypeError:
            raise _malformed(SIDES[p], action, "hexes must be (r, q) tuples of integers") from None
        except IndexError:
            raise _malformed(SIDES[p], action, "too few parts") from None
        raise _malformed(SIDES[p], action, "the kind must be 'THROW', 'SLIDE' or 'SWING'")

    def _info(self, p: int, action) -> tuple:
        """The ``_ACTION_INFO`` entry of an action not found there as given (e.g. a list): ``_parse`` judges
        it (raising IllegalAction if it is not legal), then its canonical tuple is looked up."""
        f, t, s = self._parse(p, action)
        return _ACTION_INFO[_THROW[t][s] if f < 0 else (action[0], HEXES[f], HEXES[t])]

    def _reject(self, p: int, action):
        """Raise the IllegalAction that ``_parse`` gives for an action the fast check refused."""
        self._parse(p, action)
        raise AssertionError(f"the fast check refused {action!r}, which _parse accepts")

    def apply_actions(self, actions: Mapping[str, object]) -> Turn:
        """Resolve one turn: both actions validated on the start-of-turn board, applied, then battles.

        This is the engine's hottest path: the usual turn (both sides move a token, no battle) is written
        out here for both sides; throws go through ``_resolve`` and battles through ``_battle``."""
        if self._result:
            raise IllegalAction(None, actions, "the game is over")
        try:
            au, al = actions["upper"], actions["lower"]
        except (KeyError, TypeError):
            raise IllegalAction(None, actions, "a turn needs one action for each of upper and lower") from None
        if len(actions) != 2:
            raise IllegalAction(None, actions, "a turn takes exactly one action from each of upper and lower")
        occ = self.occ
        ou, ol = occ
        sym0, sym1 = self.sym

        # Validate both on the start-of-turn board before changing anything, Upper first. f: from hex (-1
        # for a throw), t: to hex, x: from bit (throw: symbol), y: pivot mask, 0 for a slide (throw: fewest
        # throws made before, per side), tb: to bit; see _action_table. s: the symbol that moves.
        try:
            iu = _ACTION_INFO[au]
        except (KeyError, TypeError):  # not a prebuilt action, or not hashable: _parse judges it
            iu = self._info(0, au)
        fu, tu, xu, yu, tbu = iu
        if fu >= 0:
            su = sym0[fu]
            if su < 0 or yu and not ou & yu:  # no own token to move, or a swing without an own pivot
                self._reject(0, au)
        elif yu[0] <= self.thrown[0] < MAX_THROWS:
            su = xu
        else:
            self._reject(0, au)
        try:
            il = _ACTION_INFO[al]
        except (KeyError, TypeError):
            il = self._info(1, al)
        fl, tl, xl, yl, tbl = il
        if fl >= 0:
            sl = sym1[fl]
            if sl < 0 or yl and not ol & yl:
                self._reject(1, al)
            if fu < 0:
                return self._resolve(au, al, iu, su, il, sl)
        elif yl[1] <= self.thrown[1] < MAX_THROWS:
            return self._resolve(au, al, iu, su, il, xl)
        else:
            self._reject(1, al)

        # Both move a token (the usual turn once the throws are used up). Lift them... (A bit known to be
        # set is subtracted, one known to be clear added: the interpreter's int add and subtract are
        # cheaper than its bitwise operators on these 61-bit masks.)
        cnt0, cnt1 = self.cnt
        own0, own1 = self._own
        if cnt0[fu] == 1:
            cnt0[fu] = 0
            sym0[fu] = -1
            ou -= xu
            own0.remove(fu)
        else:
            cnt0[fu] -= 1
        if cnt1[fl] == 1:
            cnt1[fl] = 0
            sym1[fl] = -1
            ol -= xl
            own1.remove(fl)
        else:
            cnt1[fl] -= 1
        # ...and land them: usually each on its own hex holding nothing or only its own symbol (no battle).
        xu = sym0[tu]
        xl = sym1[tl]
        if not (tu != tl and (xu < 0 or xu == su) and ((y := sym1[tu]) < 0 or y == su)
                and (xl < 0 or xl == sl) and ((y := sym0[tl]) < 0 or y == sl)):
            return self._battle(au, al, fu, tu, su, fl, tl, sl, ou, ol)
        if xu < 0:
            sym0[tu] = su
            cnt0[tu] = 1
            ou += tbu
            insort(own0, tu)
        else:
            cnt0[tu] += 1
        if xl < 0:
            sym1[tl] = sl
            cnt1[tl] = 1
            ol += tbl
            insort(own1, tl)
        else:
            cnt1[tl] += 1
        occ[0] = ou
        occ[1] = ol
        # (The short differences first: one addition to the whole key instead of four.)
        self.key = key = self.key + ((_U0[su][tu] - _U0[su][fu]) + (_U1[sl][tl] - _U1[sl][fl]))
        self.turn = turn = self.turn + 1
        if not self._settled:
            return self._end_turn(au, al, [], False)
        # No throw and no battle: the throws used and the tokens by symbol are as they were, so end
        # conditions 1-3 still do not hold; only repetition and the turn limit remain. setdefault hashes
        # the long key once; it returns this turn's number only for a configuration not seen before.
        if self.history.setdefault(key, turn) != turn and self._third(key):
            self._result = _RESULTS["repeat"]
        elif turn >= MAX_TURNS:
            self._result = _RESULTS["turns"]
        t = _new_turn(Turn)
        t.number = turn
        t.actions = {"upper": au, "lower": al}
        t.events = []
        return t

    def _third(self, key: int) -> bool:
        """The configuration ``key``, seen before, occurs again: True if this is its third time; else it is
        marked in ``history`` as seen twice (None)."""
        history = self.history
        if history[key] is None:
            return True
        history[key] = None
        return False

    def _resolve(self, au, al, iu: tuple, su: int, il: tuple, sl: int) -> Turn:
        """A validated turn in which at least one side throws (see apply_actions for the fields)."""
        fu, tu, xu, yu, tbu = iu
        fl, tl, xl, yl, tbl = il
        sym0, sym1 = self.sym
        cnt0, cnt1 = self.cnt
        own0, own1 = self._own
        ou, ol = self.occ
        thrown = self.thrown
        # Lift the moving tokens (a thrown one comes from the hand); key: the key if nothing battles.
        key = self.key
        if fu >= 0:
            key += _U0[su][tu] - _U0[su][fu]
            n = cnt0[fu] - 1
            cnt0[fu] = n
            if not n:
                sym0[fu] = -1
                ou ^= xu
                own0.remove(fu)
        else:
            key += THROW_UNIT[0] + _U0[su][tu]
            thrown[0] += 1
        if fl >= 0:
            key += _U1[sl][tl] - _U1[sl][fl]
            n = cnt1[fl] - 1
            cnt1[fl] = n
            if not n:
                sym1[fl] = -1
                ol ^= xl
                own1.remove(fl)
        else:
            key += THROW_UNIT[1] + _U1[sl][tl]
            thrown[1] += 1
        xu = sym0[tu]
        xl = sym1[tl]
        if not (tu != tl and (xu < 0 or xu == su) and ((y := sym1[tu]) < 0 or y == su)
                and (xl < 0 or xl == sl) and ((y := sym0[tl]) < 0 or y == sl)):
            return self._battle(au, al, fu, tu, su, fl, tl, sl, ou, ol)
        if xu < 0:
            sym0[tu] = su
            ou |= tbu
            insort(own0, tu)
        cnt0[tu] += 1
        if xl < 0:
            sym1[tl] = sl
            ol |= tbl
            insort(own1, tl)
        cnt1[tl] += 1
        sc0, sc1 = self.symcount
        if fu < 0:
            sc0[su] += 1
        if fl < 0:
            sc1[sl] += 1
        self.occ[0] = ou
        self.occ[1] = ol
        self.key = key
        self.turn += 1
        return self._end_turn(au, al, [], True)

    def _battle(self, au, al, fu: int, tu: int, su: int, fl: int, tl: int, sl: int, ou: int, ol: int) -> Turn:
        """Finish a validated turn whose tokens are lifted (``ou``, ``ol``: the occupancy after lifting) but
        not landed, when a hex battles or both land on one hex: the general path."""
        sc0, sc1 = self.symcount
        key = self.key
        # Count the lifted tokens off the board (a throw adds a throw used instead); _land puts them back.
        if fu >= 0:
            key -= _U0[su][fu]
            sc0[su] -= 1
        else:
            key += THROW_UNIT[0]
        if fl >= 0:
            key -= _U1[sl][fl]
            sc1[sl] -= 1
        else:
            key += THROW_UNIT[1]
        occ = self.occ
        occ[0] = ou
        occ[1] = ol
        self.key = key
        if tu == tl:
            events = self._land(tu, su, sl)
        else:
            events = self._land(tu, su, -1) + self._land(tl, -1, sl)
        self.turn += 1
        return self._end_turn(au, al, events, bool(events) or fu < 0 or fl < 0)

    def _end_turn(self, au, al, events: list, fresh: bool) -> Turn:
        """The referee's end conditions, in its order, after a turn; records the configuration.

        ``fresh``: a token was thrown or defeated this turn. The throws used never decrease, nor do the
        tokens on the board without a throw, so no configuration seen before can occur again: the history
        starts afresh (smaller to copy in ``clone``, and exact all the same)."""
        ku, kl = self.thrown
        result = None
        if ku == MAX_THROWS or kl == MAX_THROWS:
            result = self._out_or_invincible(ku, kl)
        if result is None:
            self._settled = True
            key, turn = self.key, self.turn
            if fresh:
                self.history = {key: turn}
            elif self.history.setdefault(key, turn) != turn and self._third(key):
                result = _RESULTS["repeat"]
            if result is None and turn >= MAX_TURNS:
                result = _RESULTS["turns"]
        self._result = result
        t = _new_turn(Turn)
        t.number = self.turn
        t.actions = {"upper": au, "lower": al}
        t.events = events
        return t

    def _out_or_invincible(self, ku: int, kl: int) -> Result | None:
        """End conditions 1 to 3 (no tokens and no throws; invincible tokens), given the throws used."""
        (r0, p0, s0), (r1, p1, s1) = self.symcount  # tokens on the board by symbol
        nu = r0 + p0 + s0
        nl = r1 + p1 + s1
        if ku == MAX_THROWS and not nu:
            return _RESULTS["none" if kl == MAX_THROWS and not nl else "lower"]
        if kl == MAX_THROWS and not nl:
            return _RESULTS["upper"]
        # A token of symbol c is invincible when the opponent has no throws and no token of symbol (c+1)%3.
        inv_u = kl == MAX_THROWS and (r0 and not p1 or p0 and not s1 or s0 and not r1)
        inv_l = ku == MAX_THROWS and (r1 and not p0 or p1 and not s0 or s1 and not r0)
        if inv_u and inv_l:
            return _RESULTS["invincible"]
        if inv_u and nl == 1:
            return _RESULTS["upper"]
        if inv_l and nu == 1:
            return _RESULTS["lower"]
        return None

    def _join(self, p: int, i: int, a: int) -> None:
        """Put a token of side ``p`` and symbol ``a`` (counted off the board) on hex ``i``, without a battle."""
        c = self.cnt[p]
        if c[i]:
            c[i] += 1
        else:
            c[i] = 1
            self.sym[p][i] = a
            self.occ[p] += 1 << i
            insort(self._own[p], i)
        self.symcount[p][a] += 1
        self.key += UNIT[p][a][i]

    def _land(self, i: int, au: int, al: int) -> list:
        """Put the arriving tokens (counted off the board) of symbols ``au`` and ``al`` (-1: none) on hex
        ``i``, and battle if symbols mix there: all three symbols present, all die; otherwise the beaten
        symbol dies, whoever owns it. Returns the battle's events (none without a battle)."""
        cnt, sym, occ, symcount, own = self.cnt, self.sym, self.occ, self.symcount, self._own
        dead = _DEAD[_BIT[sym[0][i]] | _BIT[sym[1][i]] | _BIT[au] | _BIT[al]]
        if not dead:  # no battle (the other hex of the turn, usually): the arrivals join
            if au >= 0:
                self._join(0, i, au)
            if al >= 0:
                self._join(1, i, al)
            return []
        key = self.key
        defeated = []
        for p, a in ((0, au), (1, al)):
            c, sy = cnt[p], sym[p]
            n, x = c[i], sy[i]
            # The side's n tokens of symbol x there, and its arrival of symbol a. Dead groups are taken
            # off and recorded, in symbol order; a surviving arrival joins the hex.
            if n and (dead >> x) & 1:
                dying = n
                if a == x:  # the arrival dies with them
                    dying += 1
                    a = -1
                elif 0 <= a < x and (dead >> a) & 1:  # so does the arrival, recorded first
                    self.defeated[p][a] += 1
                    defeated.append({"player": SIDES[p], "symbol": SYMBOLS[a], "count": 1})
                    a = -1
                self.defeated[p][x] += dying
                defeated.append({"player": SIDES[p], "symbol": SYMBOLS[x], "count": dying})
                key -= n * UNIT[p][x][i]
                symcount[p][x] -= n
                c[i], sy[i] = 0, -1
                occ[p] ^= 1 << i
                own[p].remove(i)
            if a >= 0:
                if (dead >> a) & 1:
                    self.defeated[p][a] += 1
                    defeated.append({"player": SIDES[p], "symbol": SYMBOLS[a], "count": 1})
                else:
                    if c[i]:
                        c[i] += 1
                    else:
                        c[i], sy[i] = 1, a
                        occ[p] |= 1 << i
                        insort(own[p], i)
                    symcount[p][a] += 1
                    key += UNIT[p][a][i]
        self.key = key
        return [{"hex": list(HEXES[i]), "defeated": defeated}] if defeated else []

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "game": "ropasci360",
            "turn": self.turn,
            "throws_left": {"upper": MAX_THROWS - self.thrown[0], "lower": MAX_THROWS - self.thrown[1]},
            "tokens": [{"player": side, "symbol": s, "hex": list(h), "count": n}
                       for side in SIDES for s, h, n in self.tokens(side)],
            "defeated": {side: dict(zip(SYMBOLS, self.defeated[p])) for p, side in enumerate(SIDES)},
            "to_act": self.players_to_act(),
            "result": self._result.text if self._result else None,
        }

    def to_text(self) -> str:
        """An ASCII board, Upper's home row on top: R/P/S are Upper's tokens, r/p/s Lower's."""
        lines = [f"turn {self.turn}; throws left: upper {MAX_THROWS - self.thrown[0]}, "
                 f"lower {MAX_THROWS - self.thrown[1]}"
                 + (f"; {self._result.text}" if self._result else "")]
        for r in range(4, -5, -1):
            cells = []
            for q in range(-4, 5):
                i = INDEX.get((r, q))
                if i is None:
                    continue
                cell = ""
                for p in (0, 1):
                    n = self.cnt[p][i]
                    if n:
                        letter = SYMBOLS[self.sym[p][i]]
                        cell += (letter.upper() if p == 0 else letter) + (str(n) if n > 1 else "")
                cells.append(f"{cell or '.':^4}")
            lines.append(f"{r:+d} " + " " * (2 * abs(r)) + "".join(cells))
        return "\n".join(lines)


GAME = RoPaSci360()
RoPaSci360State.game = GAME
