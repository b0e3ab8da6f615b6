"""The site's adapter for the puzzle: the full game's hex board (``games.ropasci360.ui.board_context``) with
blocks, Upper's tokens numbered in move order, words and click paths. Works from observations
(``PuzzleState.to_json``) and canonical JSON actions only.

Click input: an action moves every Upper token, so its path is, per token in order, the token
(``tok:r,q``, on the token) then its destination (``hex:r,q``, on the hex): click token 1, where it goes,
token 2, ... The tokens' keys differ from the hexes' so that "token 2 stands where token 1 goes" reads as two
different clicks (the page takes a second click on the same key back). A token is clickable only while it is
the next step (``board.css``), so a click on a hex under another token reaches the hex.
"""
from __future__ import annotations

import functools
import json
import time

from games.ropasci360.rules import INDEX
from games.ropasci360.ui import board_context, move_words
from games.engine.ui import EditorTool, GameUI, Param, Preset

from .position import EXAMPLE, MAX_LOWER, MAX_UPPER, SYMBOL_NAMES, PositionError, library, parse_position
from .solver import OutOfTime, solve

OPTIMUM_SECONDS = 2.0  # the page's budget to find the optimum of a position not in the library

TITLES = {"r": "Rock", "p": "Paper", "s": "Scissors"}


def _hex(h) -> str:
    return f"({h[0]}, {h[1]})"


def _tokens_json(observation) -> list[dict]:
    """The full game's token list ({player, symbol, hex, count}) for ``board_context``."""
    out: dict[tuple, dict] = {}
    for side in ("upper", "lower"):
        for sym, r, q in observation.get(side, []):
            t = out.setdefault((side, sym, r, q), {"player": side, "symbol": sym, "hex": [r, q], "count": 0})
            t["count"] += 1
    return list(out.values())


@functools.lru_cache(maxsize=1)
def _library() -> tuple:
    return tuple((entry, parse_position(entry["position"]).to_json()) for entry in library())


@functools.lru_cache(maxsize=512)
def _optimum(position: str) -> int | None | str:
    """The fewest turns that solve ``position`` (canonical JSON text): from the library, else by the solver
    within ``OPTIMUM_SECONDS`` (once per position: cached); None if it has no solution, "?" if not found
    in time."""
    value = json.loads(position)
    for entry, canonical in _library():
        if canonical == value:
            return entry["turns"]
    try:
        turns = solve(value, deadline=time.perf_counter() + OPTIMUM_SECONDS)
    except (OutOfTime, PositionError):
        return "?"
    return None if turns is None else len(turns)


def optimum(position: dict) -> int | None | str:
    return _optimum(json.dumps(position, sort_keys=True))


TOOLS = tuple(EditorTool(f"{side}-{sym}", f"{side.title()} {SYMBOL_NAMES[sym]}")
              for side in ("upper", "lower") for sym in "rps") + (
    EditorTool("block", "Block"), EditorTool("erase", "Erase"), EditorTool("clear", "Clear the board"))


class UI(GameUI):
    board_template = "ropasci_puzzle/_board.html"
    tagline = "RoPaSci 360 puzzles: defeat every Lower token in the fewest turns."
    stylesheet = "ropasci_puzzle/board.css"
    event_icon = "⚔"
    legend = ("Upper: solid, capital letters, numbered in move order · Lower: hatched, small letters · "
              "● rock ■ paper ▲ scissors · dark hexes are blocks")
    hint = ("Every Upper token moves each turn: tap token 1, then where it slides or swings, then token 2 "
            "and its hex, and so on (or choose each token's move in its list); then confirm.")
    flippable = False  # one player: the board keeps Upper's home row on top
    chart_label = "Lower tokens left"

    def seat_name(self, seat: str) -> str:
        return "Upper" if seat == "upper" else seat.title()

    def action_words(self, seat: str, action, observation=None) -> str:
        """E.g. ``Rock slides from (-3, 2) to (-2, 1); Scissors swings from (2, -1) to (1, -1)`` (the symbols
        given the position)."""
        return "; ".join(self.part_words(seat, i, move, observation) for i, move in enumerate(action))

    def part_words(self, seat: str, index: int, part, observation=None) -> str:
        """One token's move, e.g. ``Rock slides from (-3, 2) to (-2, 1)``."""
        kind, a, b = part
        upper = (observation or {}).get("upper", [])
        return move_words(kind, upper[index][0] if index < len(upper) else None, a, b)

    def part_label(self, seat: str, index: int, observation=None) -> str:
        """E.g. ``Token 1 (Rock on (-3, 2))``."""
        upper = (observation or {}).get("upper", [])
        if index >= len(upper):
            return f"Token {index + 1}"
        sym, r, q = upper[index]
        return f"Token {index + 1} ({TITLES.get(sym, sym)} on {_hex((r, q))})"

    def event_words(self, event) -> str:
        if not isinstance(event, dict) or "hex" not in event:
            return ""
        lost = ", ".join(f"{self.seat_name(d['player']) if d['player'] == 'upper' else 'Lower'} "
                         f"{SYMBOL_NAMES.get(d['symbol'], d['symbol'])}"
                         + (f" ×{d['count']}" if d.get("count", 1) > 1 else "") for d in event.get("defeated", []))
        return f"Battle on {_hex(event['hex'])}: {lost} defeated."

    def result_reason(self, outcome: dict, observation) -> str:
        text = (outcome or {}).get("text") or ""
        if text.startswith("solved in "):
            done = text[len('solved in '):]
            best = optimum(self.game.params["position"])
            if isinstance(best, int):
                turns = int(done.split()[0])
                compare = ("as few as possible!" if turns <= best else
                           f"the shortest solution takes {best} turn{'s' if best != 1 else ''} "
                           f"({turns - best} fewer).")
                return f"Solved: no Lower token is left after {done}: {compare}"
            return f"Solved: no Lower token is left after {done}."
        if text.startswith("unsolvable: "):
            reason = text[len("unsolvable: "):]
            return f"Cannot be solved any more: {reason}."
        if text.startswith("turn limit"):
            return f"Not solved within the turn limit ({text[len('turn limit: '):]})."
        return super().result_reason(outcome, observation)

    # --- drawing -----------------------------------------------------------------------------------
    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or {}
        moves, marks = [], {}
        if last:
            for action in (last.get("actions") or {}).values():
                for kind, a, b in action or ():
                    moves.append(("upper", str(kind).lower(), tuple(a), tuple(b)))
                    marks[tuple(b)] = "moved"
            for event in last.get("events") or ():
                if isinstance(event, dict) and "hex" in event:
                    marks[tuple(event["hex"])] = "battle"
        ctx = board_context({"tokens": _tokens_json(obs), "turn": obs.get("turn", 0)}, marks=marks, moves=moves)
        blocks = {tuple(b[1:]) for b in obs.get("block", [])}
        for cell in ctx["cells"]:
            here = (cell["r"], cell["q"])
            cell["block"] = here in blocks
            cell["label"] = f"{_hex(here)}: block" if cell["block"] else _hex(here)
            cell["key"] = f"hex:{cell['r']},{cell['q']}"
        # Upper's tokens in move order (the order of ``upper`` in the observation): numbers on each token.
        numbers: dict[tuple, list[str]] = {}
        for i, (sym, r, q) in enumerate(obs.get("upper", []), 1):
            numbers.setdefault((r, q), []).append(str(i))
        for t in ctx["tokens"]:
            if t["player"] == "upper":
                nums = numbers.get((t["r"], t["q"]), [])
                t["key"] = f"tok:{t['r']},{t['q']}"
                t["order"] = ",".join(nums)
                t["label"] = f"Upper token {' and '.join(nums)}: {t['label'][len('Upper '):]}"
                t["order_x"] = f"{float(t['x']) - 15:.1f}"
                t["order_y"] = f"{float(t['y']) + 15:.1f}"
        ctx.update(to_move=obs.get("to_move"), result=obs.get("result"),
                   lower_left=len(obs.get("lower", [])))
        return ctx

    def seat_stats(self, observation, seat: str) -> list:
        obs = observation or {}
        best = optimum(self.game.params["position"])
        return [("Upper tokens", len(obs.get("upper", []))), ("Lower tokens left", len(obs.get("lower", []))),
                ("Turn", obs.get("turn", 0)),
                ("Fewest turns", best if isinstance(best, int) else "none" if best is None else "not known")]

    def material(self, observation, seat: str):
        return None if observation is None else float(len(observation.get("lower", [])))

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        return [step for i, move in enumerate(action) for step in self.part_path(seat, i, move, observation)]

    def part_path(self, seat: str, index: int, part, observation=None) -> list[dict]:
        """The token (``tok:r,q``), then its destination (``hex:r,q``)."""
        kind, a, b = part
        return [{"key": f"tok:{a[0]},{a[1]}", "label": f"Token {index + 1} {_hex(a)}"},
                {"key": f"hex:{b[0]},{b[1]}", "label": f"{'slide' if kind == 'SLIDE' else 'swing'} to {_hex(b)}"}]

    def action_group(self, seat: str, action, observation=None) -> str:
        swings = sum(1 for kind, _, _ in action if kind == "SWING")
        return "Slides only" if not swings else f"With {swings} swing{'s' if swings > 1 else ''}"

    def params(self) -> list:
        return [Param("position", "Position (the course's JSON)", EXAMPLE, json=True,
                      help=f"Up to {MAX_UPPER} Upper and {MAX_LOWER} Lower tokens, [symbol, r, q] each, and blocks "
                           f"[\"\", r, q]; build it on the board below, paste it, or load a file.")]

    def presets(self) -> list:
        return [Preset(entry["name"], entry["title"], {"position": canonical},
                       f"{entry['turns']} turn{'s' if entry['turns'] != 1 else ''}")
                for entry, canonical in _library()]

    # --- the position editor -----------------------------------------------------------------------------
    editor_param = "position"
    editor_tools = TOOLS
    editor_hint = ("Choose what to place, then click hexes (or Tab to a hex and press Enter). A hex holds one token "
                   "or a block: placing replaces what is there; Erase clears a hex; Clear the board, then a click "
                   "on any hex, empties the board to start afresh.")

    def editor_board(self, value) -> dict:
        value = value if isinstance(value, dict) else {}
        obs = {"turn": 0}
        for key in ("upper", "lower", "block"):
            obs[key] = [e for e in value.get(key, []) if isinstance(e, list) and len(e) == 3
                        and isinstance(e[0], str) and tuple(e[1:]) in INDEX]
        board = self.board(obs)
        board["editor"] = True
        return board

    def edit(self, value, tool: str, place: str):
        """Place a token or a block on the hex ``place`` (its cell's key, ``hex:r,q``), replacing what is there
        (a hex holds one token or a block), erase it, or clear the whole board. Off-board hexes and malformed
        values are left as they are."""
        hex_ = _hex_of(place)
        if (not isinstance(value, dict) or hex_ not in INDEX
                or not all(isinstance(value.get(k, []), list) for k in ("upper", "lower", "block"))):
            return value
        if tool == "clear":
            return {"upper": [], "lower": [], "block": []}
        out = {}
        for key in ("upper", "lower", "block"):
            entries = value.get(key, [])
            out[key] = [e for e in entries if not (isinstance(e, list) and len(e) == 3 and tuple(e[1:]) == hex_)] \
                if isinstance(entries, list) else entries
        if tool == "block":
            out["block"].append(["", *hex_])
        elif tool != "erase":
            side, sym = tool.split("-")
            out[side].append([sym, *hex_])
        return out


def _hex_of(place: str) -> tuple[int, int] | None:
    """The hex of an editor cell's key ``hex:r,q``; None for anything else."""
    kind, _, rest = place.partition(":")
    try:
        r, q = (int(v) for v in rest.split(","))
    except ValueError:
        return None
    return (r, q) if kind == "hex" else None
