"""RoPaSci 360 (COMP30024, 2021): simultaneous Rock-Paper-Scissors on a 61-hex board.

Exact to the course's official referee (see ``shared/docs/ropasci360-referee-facts.md``): actions are the
referee's tuples, ``("THROW", "r", (r, q))``, ``("SLIDE", (r, q), (r, q))``, ``("SWING", (r, q), (r, q))``,
both are validated against the start-of-turn board and applied together, then mixed hexes battle, then the
end conditions are checked in the referee's order.

Speed matters (bots search with this, the server validates with it): hexes are integer indices into
precomputed tables, each side's occupancy is a bitmask, legal action lists are concatenations of prebuilt
tuples, validation is O(1) without listing actions, and the repetition key is updated incrementally.
"""
from __future__ import annotations

import re
from typing import Mapping

from .api import Game, GameInfo, IllegalAction, Result, State, Turn
from .hexgrid import HexGrid, bits

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
SWINGS = tuple(
    {y: tuple(("SWING", HEXES[a], HEXES[z]) for z in NEIGHBOURS[y] if z != a and z not in NEIGHBOURS[a])
     for y in NEIGHBOURS[a]}
    for a in range(N))


def throw_zone(side: int, thrown: int) -> tuple[int, ...]:
    """Hexes where a side that has thrown ``thrown`` tokens may throw next (rows counted from its end)."""
    if side == 0:
        return tuple(i for i in range(N) if ROWS[i] >= 4 - thrown)
    return tuple(i for i in range(N) if ROWS[i] <= thrown - 4)


THROW_ZONE_MASK = tuple(tuple(sum(1 << i for i in throw_zone(s, k)) for k in range(MAX_THROWS)) for s in (0, 1))
THROWS = tuple(
    tuple(tuple(("THROW", sym, HEXES[i]) for i in throw_zone(s, k) for sym in SYMBOLS) for k in range(MAX_THROWS))
    + ((),)
    for s in (0, 1))



class _MovesFrom(dict):
    """Slide and swing actions from hex ``a`` keyed by the mask of own tokens on its neighbours, built on demand."""

    def __init__(self, a: int):
        super().__init__()
        self.a = a

    def __missing__(self, pivots: int):
        a = self.a
        moves = dict.fromkeys(SLIDES[a])
        for y in bits(pivots):
            moves.update(dict.fromkeys(SWINGS[a][y]))
        self[pivots] = value = tuple(moves)
        return value


MOVES = tuple(_MovesFrom(a) for a in range(N))

# The exact configuration key is one integer: 4 bits per (hex, side, symbol) count, then both throw counts.
# UNIT[p][s][i] adds one token of side p and symbol s on hex i; THROW_UNIT[p] adds one throw used by p.
UNIT = tuple(tuple(tuple(1 << (24 * i + 12 * p + 4 * s) for i in range(N)) for s in range(3)) for p in (0, 1))
THROW_UNIT = (1 << (24 * N), 1 << (24 * N + 4))

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
        if not isinstance(data, (list, tuple)) or len(data) != 3 or data[0] not in ("SLIDE", "SWING", "THROW"):
            raise _malformed(player, data, 'expected ["SLIDE"|"SWING", [r, q], [r, q]] or ["THROW", "r"|"p"|"s", [r, q]]')
        kind = data[0]
        if kind == "THROW":
            if data[1] not in SYMBOL_INDEX:
                raise _malformed(player, data, "the symbol must be one of \"r\", \"p\", \"s\"")
            return ("THROW", data[1], self._hex_from_json(player, data, data[2]))
        return (kind, self._hex_from_json(player, data, data[1]), self._hex_from_json(player, data, data[2]))

    @staticmethod
    def _hex_from_json(player, data, h):
        if (not isinstance(h, (list, tuple)) or len(h) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in h)):
            raise _malformed(player, data, f"a hex must be a pair of integers [r, q], got {h!r}")
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
        st.history = {st.key: 1}
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


class RoPaSci360State(State):
    game = None  # set below to the registered game object
    __slots__ = ("turn", "thrown", "occ", "sym", "cnt", "symcount", "defeated", "key", "history", "_result")

    def __init__(self):
        self.turn = 0
        self.thrown = [0, 0]
        self.occ = [0, 0]  # bitmask of hexes holding the side's tokens
        self.sym = [[-1] * N, [-1] * N]  # symbol code of the side's tokens per hex (one symbol per side per hex)
        self.cnt = [[0] * N, [0] * N]  # number of the side's tokens per hex
        self.symcount = [[0, 0, 0], [0, 0, 0]]  # tokens on the board per side and symbol
        self.defeated = [[0, 0, 0], [0, 0, 0]]
        self.key = 0  # exact code of the configuration: tokens per hex, side and symbol, and throws (see UNIT)
        self.history = {0: 1}  # configuration key -> times seen, counting the empty start
        self._result: Result | None = None

    def clone(self) -> "RoPaSci360State":
        c = RoPaSci360State.__new__(RoPaSci360State)
        c.turn, c.key, c._result = self.turn, self.key, self._result
        c.thrown, c.occ = self.thrown[:], self.occ[:]
        c.sym = [self.sym[0][:], self.sym[1][:]]
        c.cnt = [self.cnt[0][:], self.cnt[1][:]]
        c.symcount = [self.symcount[0][:], self.symcount[1][:]]
        c.defeated = [self.defeated[0][:], self.defeated[1][:]]
        c.history = self.history.copy()
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
        if not occ:
            return THROWS[p][self.thrown[p]]
        acts = list(THROWS[p][self.thrown[p]])
        m = occ
        while m:
            low = m & -m
            a = low.bit_length() - 1
            m ^= low
            acts += MOVES[a][NMASK[a] & occ]
        return acts

    def check_action(self, player: str, action) -> None:
        if player not in SIDE_INDEX:
            raise IllegalAction(player, action, "unknown player (expected 'upper' or 'lower')")
        if self._result:
            raise IllegalAction(player, action, "the game is over")
        self._parse(SIDE_INDEX[player], action)

    def _parse(self, p: int, action):
        """Validate ``action`` for side ``p`` against this board; return (hex_from or -1, hex_to, symbol)."""
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

    def apply_actions(self, actions: Mapping[str, object]) -> Turn:
        """Resolve one turn: both actions validated on the start-of-turn board, applied, then battles."""
        if self._result:
            raise IllegalAction(None, actions, "the game is over")
        try:
            au, al = actions["upper"], actions["lower"]
        except (KeyError, TypeError):
            raise IllegalAction(None, actions, "a turn needs one action for each of upper and lower") from None
        if len(actions) != 2:
            raise IllegalAction(None, actions, "a turn takes exactly one action from each of upper and lower")
        mu = self._parse(0, au)
        ml = self._parse(1, al)
        events = self._resolve(mu, ml)
        self.turn += 1
        self._result = self._end_of_turn()
        return Turn(self.turn, {"upper": au, "lower": al}, events)

    def _resolve(self, mu, ml) -> list:
        cnt, sym, occ, symcount = self.cnt, self.sym, self.occ, self.symcount
        key = self.key
        # Take moving tokens off their hexes (throws come from the hand).
        for p, (f, t, s) in ((0, mu), (1, ml)):
            if f < 0:
                self.thrown[p] += 1
                key += THROW_UNIT[p]
            else:
                n = cnt[p][f] - 1
                cnt[p][f] = n
                symcount[p][s] -= 1
                key -= UNIT[p][s][f]
                if not n:
                    sym[p][f] = -1
                    occ[p] ^= 1 << f
        self.key = key
        # Land them; a landing hex is the only kind that can end up holding mixed symbols, so battle there.
        tu, su, tl, sl = mu[1], mu[2], ml[1], ml[2]
        if tu == tl:
            return self._land(tu, ((0, su), (1, sl)))
        events = []
        for p, t, s in ((0, tu, su), (1, tl, sl)):
            if (not cnt[0][t] or sym[0][t] == s) and (not cnt[1][t] or sym[1][t] == s):
                cnt[p][t] += 1
                sym[p][t] = s
                occ[p] |= 1 << t
                symcount[p][s] += 1
                self.key += UNIT[p][s][t]
            else:
                events += self._land(t, ((p, s),))
        return events

    def _land(self, i: int, arrivals) -> list:
        """Put arriving tokens on hex ``i`` and battle: all die if all three symbols meet, else the beaten."""
        cnt, sym, occ, symcount = self.cnt, self.sym, self.occ, self.symcount
        groups: dict[tuple[int, int], int] = {}
        for p in (0, 1):  # clear the hex, then put back what survives
            n = cnt[p][i]
            if n:
                s = sym[p][i]
                groups[(p, s)] = n
                symcount[p][s] -= n
                self.key -= n * UNIT[p][s][i]
                cnt[p][i], sym[p][i] = 0, -1
                occ[p] ^= 1 << i
        for p, s in arrivals:
            groups[(p, s)] = groups.get((p, s), 0) + 1
        present = {s for _, s in groups}
        if len(present) == 1:
            dead: set[int] = set()
        elif len(present) == 3:
            dead = present
        else:
            a, b = present
            dead = {b} if (a + 2) % 3 == b else {a}
        for (p, s), n in groups.items():
            if s in dead:
                self.defeated[p][s] += n
            else:
                symcount[p][s] += n
                self.key += n * UNIT[p][s][i]
                cnt[p][i], sym[p][i] = n, s
                occ[p] |= 1 << i
        if not dead:
            return []
        return [{"hex": list(HEXES[i]), "defeated": [
            {"player": SIDES[p], "symbol": SYMBOLS[s], "count": n}
            for (p, s), n in sorted(groups.items()) if s in dead]}]

    def _end_of_turn(self) -> Result | None:
        """The referee's end conditions, in its order; also records the configuration for repetitions."""
        tu, tl = self.thrown
        su, sl = self.symcount
        if tu == MAX_THROWS or tl == MAX_THROWS:
            nu, nl = su[0] + su[1] + su[2], sl[0] + sl[1] + sl[2]
            out_u = tu == MAX_THROWS and nu == 0
            out_l = tl == MAX_THROWS and nl == 0
            if out_u or out_l:
                return _RESULTS["none" if out_u and out_l else ("lower" if out_u else "upper")]
            # A token of symbol c is invincible when the opponent has no throws and no token of symbol (c+1)%3.
            inv_u = tl == MAX_THROWS and bool((su[0] and not sl[1]) or (su[1] and not sl[2]) or (su[2] and not sl[0]))
            inv_l = tu == MAX_THROWS and bool((sl[0] and not su[1]) or (sl[1] and not su[2]) or (sl[2] and not su[0]))
            if inv_u and inv_l:
                return _RESULTS["invincible"]
            if inv_u and nl == 1:
                return _RESULTS["upper"]
            if inv_l and nu == 1:
                return _RESULTS["lower"]
        history = self.history
        seen = history.get(self.key, 0) + 1
        history[self.key] = seen
        if seen >= 3:
            return _RESULTS["repeat"]
        if self.turn >= MAX_TURNS:
            return _RESULTS["turns"]
        return None

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


def _register():
    from . import register
    register(GAME)


_register()
