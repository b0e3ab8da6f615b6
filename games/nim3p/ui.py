"""The site's adapter for Nim3P: Nim's (``games.nim.ui``) with three seats, the win rule in words and the
extra rule's reward. The board is Nim's drawing (``nim3p/_board.html`` includes ``nim/_board.html``)."""
from __future__ import annotations

from games.nim.ui import UI as NimUI
from games.engine.ui import Param

from . import LIMITS
from .rules import EXTRA, SEATS


class UI(NimUI):
    board_template = "nim3p/_board.html"
    tagline = "Nim for three: the player after the one who takes the last item wins."
    stylesheet = "nim/board.css"  # the same heaps
    legend = ("Each row is a heap; filled circles are the items left, hollow ones the items taken. "
              "P0, P1, P2 move in turn; the player after the one who takes the last item wins.")

    def seat_name(self, seat: str) -> str:
        return seat.upper()

    def _before(self, seat: str, out=()) -> str:
        """The seat still in before ``seat``: its taking the last item makes ``seat`` win."""
        i = SEATS.index(seat)
        return next(SEATS[(i - k) % 3] for k in (1, 2) if SEATS[(i - k) % 3] not in out)

    def event_words(self, event) -> str:
        if not isinstance(event, dict):
            return ""
        if "last_item" in event and "winner" in event:
            return (f"{self.seat_name(str(event['last_item']))} takes the last item: "
                    f"{self.seat_name(str(event['winner']))}, who follows, wins")
        if "resigned" in event:
            return f"{self.seat_name(str(event['resigned']))} resigns and is skipped from now on"
        if "winner" in event:
            return f"{self.seat_name(str(event['winner']))} is the last seat in and wins"
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        out = (observation or {}).get("out")
        if out:
            winners = ", ".join(self.seat_name(s) for s in (outcome or {}).get("winners") or [])
            gone = " and ".join(self.seat_name(s) for s in out)
            return f"{gone} resigned; {winners} won."
        last = self.last_taker(observation)
        if last not in SEATS:
            return super().result_reason(outcome, observation)
        winner, third = SEATS[(SEATS.index(last) + 1) % 3], SEATS[(SEATS.index(last) + 2) % 3]
        reason = f"{self.seat_name(last)} took the last item, and {self.seat_name(winner)} follows {self.seat_name(last)}."
        if self.game.extra_rule:
            reason += f" {self.seat_name(third)}, next after the winner, gets {EXTRA} (extra rule)."
        return reason

    def seat_stats(self, observation, seat: str) -> list:
        """While playing: whose last item makes this seat win; once over: its return."""
        result = (observation or {}).get("result")
        if result:
            return [("Return", f"{result['returns'].get(seat, 0):g}")]
        out = (observation or {}).get("out") or []
        if seat in out:
            return [("Out", "resigned")]
        return [("Wins if", f"{self.seat_name(self._before(seat, out))} takes the last item")]

    def params(self) -> list[Param]:
        (h_lo, h_hi), (s_lo, s_hi) = LIMITS["heaps"], LIMITS["size"]
        return [Param("heaps", "Heaps", 3, minimum=h_lo, maximum=h_hi, help="How many heaps"),
                Param("size", "Items per heap", 5, minimum=s_lo, maximum=s_hi,
                      help="Every heap starts with this many items"),
                Param("extra_rule", "Extra rule", False,
                      help=f"The player after the winner gets {EXTRA} instead of 0")]
