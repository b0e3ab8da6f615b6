"""The site's adapter for Nim (and, by subclassing, Nim3P): heaps drawn as rows of items, read and clicked.
Works from observations (``NimState.to_json``) and canonical JSON actions only.

Click input: each item left in a heap carries ``data-pick="take:H,C"``, ``C`` the items that clicking it takes
(it and every item to its right); every action is that one step. Taken items stay drawn as hollow ghosts to
the right, those of the last move marked.

``board(...)`` returns (for the template): ``turn``, ``name`` (the game, for the CSS class), ``view_box``,
``item_r``, ``heaps`` (dicts: ``index``, ``number`` (from 1, as shown), ``label``, ``y``, ``text_y``, ``label_x``, ``count``, ``count_x``,
``last`` (taken from by the last move), ``items`` (``key``, ``cx``, ``label``), ``ghosts`` (``cx``, ``last``)),
``caption`` (whose move it is, or the result), ``caption_y``, ``to_move`` and ``result``.
"""
from __future__ import annotations

from games.engine.ui import GameUI, Param

from . import LIMITS

STEP = 40  # distance between items
ITEM_R = 15
LEFT = 92  # room for the heap labels
ROW = 50
TOP = 10


class UI(GameUI):
    board_template = "nim/_board.html"
    tagline = "Take items from the heaps in turn: whoever takes the last one wins."
    stylesheet = "nim/board.css"
    flippable = False
    legend = "Each row is a heap; filled circles are the items left, hollow ones the items taken."
    hint = "Click an item to take it and every item to its right."

    # --- words -------------------------------------------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return seat.title()

    def action_words(self, seat: str, action, observation=None) -> str:
        h, c = self.game.action_from_json(action, seat)
        return f"Take {c} from heap {h + 1}"

    def event_words(self, event) -> str:
        if isinstance(event, dict) and "last_item" in event:
            return f"{self.seat_name(str(event['last_item']))} takes the last item and wins"
        return ""

    def last_taker(self, observation) -> str | None:
        """The seat that took the last item of a finished game (the seat of its final turn)."""
        obs = observation or {}
        turn = obs.get("turn") or 0
        seats = self.game.info.players
        return seats[(turn - 1) % len(seats)] if obs.get("result") and turn else None

    def result_reason(self, outcome: dict, observation) -> str:
        last = self.last_taker(observation)
        if last is None:
            return super().result_reason(outcome, observation)
        return f"{self.seat_name(last)} took the last item."

    def caption(self, observation) -> str:
        obs = observation or {}
        if obs.get("result"):
            winners = obs["result"].get("winners") or []
            return f"{' and '.join(self.seat_name(s) for s in winners)} won" if winners else "Game over"
        return f"{self.seat_name(obs['to_move'])} to move" if obs.get("to_move") else ""

    # --- drawing -----------------------------------------------------------------------------------
    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or {}
        size = self.game.size
        heaps = obs.get("heaps") or [size] * self.game.heaps
        taken: dict[int, int] = {}  # heap -> items the last move took
        for action in ((last or {}).get("actions") or {}).values():
            try:
                h, c = self.game.action_from_json(action)
            except ValueError:
                continue
            taken[h] = c
        rows = []
        for h, n in enumerate(heaps):
            y = TOP + ROW * h + ROW / 2
            items = [{"key": f"take:{h},{n - k}", "cx": LEFT + STEP * k + STEP / 2,
                      "label": f"Heap {h + 1}, item {k + 1} of {n}: take {n - k}"} for k in range(n)]
            ghosts = [{"cx": LEFT + STEP * k + STEP / 2, "last": n <= k < n + taken.get(h, 0)}
                      for k in range(n, size)]
            rows.append({"index": h, "number": h + 1, "label": f"Heap {h + 1}: {n} item{'s' if n != 1 else ''} left", "y": y,
                         "text_y": y, "label_x": 8, "count": n, "count_x": LEFT + STEP * size + 12,
                         "last": h in taken, "items": items, "ghosts": ghosts})
        width = LEFT + STEP * size + 48
        height = TOP + ROW * len(heaps) + 34
        return {"turn": obs.get("turn", 0), "name": self.game.info.name, "view_box": f"0 0 {width} {height}",
                "item_r": ITEM_R, "heaps": rows, "caption": self.caption(obs), "caption_y": height - 12,
                "to_move": obs.get("to_move"), "result": obs.get("result")}

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        h, c = self.game.action_from_json(action, seat)
        return [{"key": f"take:{h},{c}", "label": f"Take {c} from heap {h + 1}"}]

    def action_group(self, seat: str, action, observation=None) -> str:
        return f"Heap {self.game.action_from_json(action, seat)[0] + 1}"

    # --- the lobby ---------------------------------------------------------------------------------
    def params(self) -> list[Param]:
        (h_lo, h_hi), (s_lo, s_hi), (m_lo, m_hi) = LIMITS["heaps"], LIMITS["size"], LIMITS["max_take"]
        return [Param("heaps", "Heaps", 3, minimum=h_lo, maximum=h_hi, help="How many heaps"),
                Param("size", "Items per heap", 5, minimum=s_lo, maximum=s_hi,
                      help="Every heap starts with this many items"),
                Param("max_take", "Most items per move", 3, minimum=m_lo, maximum=m_hi,
                      help="A move takes 1 up to this many items from one heap")]
