"""The site's adapter for poker: the table drawing (``templates/poker/_board.html``), words and click input.
Works from observations (``PokerState.observation``: the viewer's own hole cards and showdown reveals only) and
canonical JSON actions, so nothing secret reaches a page through it.

Click input: every action is one step with an off-board key (``{"key": "call", "label": "Call 20"}``), so the
page offers buttons. The labels carry the amounts when ``action_path`` is given the observation; the board
also spells them out for the seat to act.

``board(...)`` returns (for the template): ``turn``, ``view_box``, ``table`` (the oval: ``cx``, ``cy``,
``rx``, ``ry``), ``heading`` (two lines: hand and street, blinds; top left), ``seats`` (``name``, ``you`` (the viewer's: the name adds "(you)"), ``x``, ``y``
(plate top left), ``w``, ``h``, ``nx``, ``ny`` (the name), ``tx``, ``ty2``, ``ty3`` (chips and status, right
of the cards), ``cls``, ``label``, ``chips``, ``status``, ``cards`` (card dicts), ``bet`` (None or ``x``,
``y``, ``amount``)), ``cards`` (every card drawn: the board's, then the seats'), ``slots`` (the board's
empty places), ``pots`` (lines), ``button`` (the dealer button's ``x``, ``y``, ``label``: off the plate's
corner nearest the middle, never over a name), ``prompt`` (the call's cost for the viewer to act, or "": under the heading).

Sizes: the drawing is 760 units wide for up to six seats (wider for more), so that on a desktop's board of
about 550 px a seat's words are at least 13 px and its cards at least 40 px wide.
A card dict: ``x``, ``y``, ``w``, ``h``, ``face`` (False: a card back), ``rank``, ``suit`` (symbol),
``letter`` (suit letter), ``cls`` (``suit-s`` ...), ``label``.
"""
from __future__ import annotations

import math

from games.engine.ui import GameUI, Param

from . import DEFAULTS, LIMITS

W, H = 760, 680  # the drawing for up to six seats; more seats widen it
PLATE_W, PLATE_H = 226, 120
SMALL = (58, 80)  # hole cards
LARGE = (60, 84)  # board cards
TABLE_RX, TABLE_RY = 240, 170
SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAME = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_NAME = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "Ten"}
STATUS_WORDS = {"active": "in", "all_in": "all in", "folded": "folded", "out": "out"}


def status_words(d: dict) -> str:
    """A seat's status in words; a seat that resigned says so once it is out of the hand."""
    return "resigned" if d.get("resigned") and d["status"] in ("folded", "out") else STATUS_WORDS[d["status"]]
LABELS = {"fold": "Fold", "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise", "all_in": "All in"}


def card_words(card: str) -> str:
    return f"{RANK_NAME.get(card[0], card[0])} of {SUIT_NAME.get(card[1], card[1])}"


def card_text(card: str) -> str:
    """``A♠`` (rank and suit symbol) for event words."""
    return ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOL.get(card[1], card[1])


def _card(card: str | None, x: float, y: float, size) -> dict:
    w, h = size
    base = {"x": f"{x:.1f}", "y": f"{y:.1f}", "w": w, "h": h, "big": w == LARGE[0]}
    if card is None:
        return {**base, "face": False, "label": "a face-down card"}
    return {**base, "face": True, "rank": "10" if card[0] == "T" else card[0], "suit": SUIT_SYMBOL[card[1]],
            "letter": card[1], "cls": f"suit-{card[1]}", "label": card_words(card),
            "rx": f"{x + w / 2:.1f}", "ry": f"{y + h * 0.42:.1f}", "sy": f"{y + h * 0.8:.1f}",
            "lx": f"{x + 4:.1f}", "ly": f"{y + 11:.1f}"}


def amounts(observation: dict, seat: str) -> dict:
    """What each action costs ``seat`` now, from the observation: ``to_call``, ``raise_to``, ``stack``, ``bb``."""
    seats = observation["seats"]
    me = next(d for d in seats if d["seat"] == seat)
    high = max(d["bet"] for d in seats)
    return {"to_call": high - me["bet"], "high": high, "raise_to": high + observation["big_blind"],
            "stack": me["chips"], "bb": observation["big_blind"], "all_in_to": me["bet"] + me["chips"]}


def _action_label(action: str, observation, seat: str) -> str:
    if not observation or action in ("fold", "check"):
        return LABELS[action]
    a = amounts(observation, seat)
    return {"call": f"Call {a['to_call']}", "bet": f"Bet {a['bb']}", "raise": f"Raise to {a['raise_to']}",
            "all_in": f"All in ({a['stack']})"}[action]


class UI(GameUI):
    board_template = "poker/_board.html"
    tagline = "Texas hold'em with chips: bet, bluff and fold against bots or friends."
    stylesheet = "poker/board.css"
    legend = ("Four-colour deck: ♠ spades black, ♥ hearts red, ♦ diamonds blue, ♣ clubs green, each with its "
              "letter. You see your own cards; others stay face down unless shown at a showdown. D: the button.")
    hint = "Choose Fold, Check, Call, Bet, Raise or All in with the buttons."
    flippable = False
    chart_label = "Chips"

    # --- words -------------------------------------------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return f"Player {seat[1:]}" if seat[1:].isdigit() else seat

    def action_words(self, seat: str, action, observation=None) -> str:
        return _action_label(self.game.action_from_json(action, seat), observation, seat)

    def event_words(self, event) -> str:
        if not isinstance(event, dict):
            return ""
        name = self.seat_name
        if "hand_start" in event:
            blinds = ", ".join(f"{name(s)} {v}" for s, v in event.get("blinds", {}).items())
            return f"Hand {event['hand_start']}: {name(event['button'])} has the button; blinds {blinds}"
        if "board" in event:
            return f"{str(event.get('street', '')).title()}: {card_text(event['board'])}"
        if "resigned" in event:
            return f"{name(event['resigned'])} resigns and sits out the rest of the game"
        if "action" in event:
            verb = {"fold": "folds", "check": "checks", "call": f"calls {event['amount']}",
                    "bet": f"bets {event['amount']}", "raise": f"raises to {event['bet']}",
                    "all_in": f"goes all in ({event['amount']})"}.get(event["action"], event["action"])
            return f"{name(event['seat'])} {verb}" + (" and is all in" if event.get("all_in")
                                                       and event["action"] != "all_in" else "")
        if "showdown" in event:
            hands = event.get("hands", {})
            return "Showdown: " + "; ".join(
                f"{name(s)} shows {' '.join(map(card_text, cards))} ({hands.get(s, '')})"
                for s, cards in event["showdown"].items())
        if "pots" in event:
            parts = []
            for pot in event["pots"]:
                who = " and ".join(name(s) for s in pot["winners"])
                parts.append(f"{who} {'win' if len(pot['winners']) > 1 else 'wins'} {pot['amount']}")
            return "; ".join(parts)
        if "bust" in event:
            return f"{name(event['bust'])} has no chips left and is out"
        if "game_over" in event:
            return f"Game over: {event['game_over']}"
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        winners = (outcome or {}).get("winners") or []
        if not winners or not observation:
            return super().result_reason(outcome, observation)
        if sum(d["chips"] > 0 and not d.get("resigned") for d in observation["seats"]) == 1:
            return "Every other player has lost all their chips."
        most = max(d["chips"] for d in observation["seats"])
        return f"After {observation['hand']} hands, the most chips ({most})."

    # --- drawing -----------------------------------------------------------------------------------
    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or {}
        seats = obs.get("seats") or []
        names = [d["seat"] for d in seats]
        bottom = names.index(obs["viewer"]) if obs.get("viewer") in names else 0
        width = round(W * max(1.0, len(seats) / 6))
        cx, cy = width / 2, H / 2
        seat_rx, seat_ry = cx - PLATE_W / 2 - 4, cy - PLATE_H / 2 - 4
        drawn, button = [], None
        for k, d in enumerate(seats):
            angle = math.pi / 2 + 2 * math.pi * ((k - bottom) % len(seats)) / len(seats)
            sx, sy = cx + seat_rx * math.cos(angle), cy + seat_ry * math.sin(angle)
            x, y = sx - PLATE_W / 2, sy - PLATE_H / 2
            hole = list(d["cards"]) + [None] * d.get("hidden", 0)
            cards = [_card(c, x + 6 + j * (SMALL[0] + 4), y + PLATE_H - SMALL[1] - 6, SMALL)
                     for j, c in enumerate(hole)]
            you = d["seat"] == obs.get("viewer")
            to_act = d["seat"] == obs.get("to_move")
            cls = ["seat", f"status-{d['status']}"] + ["you"] * you + ["to-act"] * to_act
            label = (f"{self.seat_name(d['seat'])}{' (you)' if you else ''}: {d['chips']} chips, "
                     f"{status_words(d)}")
            if d["bet"]:
                label += f", bet {d['bet']}"
            if d["cards"]:
                label += ", cards " + " and ".join(map(card_words, d["cards"]))
            elif hole:
                label += f", {len(hole)} cards face down"
            if to_act:
                label += ", to act"
            bet = None
            if d["bet"]:  # just off the plate, towards the middle of the table
                ux, uy = cx - sx, cy - sy
                step = min(PLATE_W / 2 / abs(ux) if ux else math.inf, PLATE_H / 2 / abs(uy) if uy else math.inf)
                reach = step + 22 / math.hypot(ux, uy)
                bet = {"x": f"{sx + ux * reach:.1f}", "y": f"{sy + uy * reach:.1f}", "amount": d["bet"]}
            if d["seat"] == obs.get("button"):
                # Beside the plate, towards the middle of the table, never over a name: under (over) the left
                # of a plate at the top (bottom), off the inner corner of a plate at the side.
                vy = 1 if sy < cy else -1
                if abs(sx - cx) < PLATE_W / 2:
                    bx, by = x + 22, sy + vy * (PLATE_H / 2 + 19)
                else:
                    bx, by = sx + (1 if sx < cx else -1) * (PLATE_W / 2 + 17), sy + vy * (PLATE_H / 2 + 17)
                button = {"x": f"{bx:.1f}", "y": f"{by:.1f}", "label": f"Dealer button: {self.seat_name(d['seat'])}"}
            text_x = x + 6 + 2 * (SMALL[0] + 4) + 4
            drawn.append({"name": self.seat_name(d["seat"]), "you": you, "x": f"{x:.1f}",
                          "y": f"{y:.1f}", "w": PLATE_W, "h": PLATE_H, "nx": f"{x + 8:.1f}", "ny": f"{y + 19:.1f}",
                          "tx": f"{text_x:.1f}", "ty2": f"{y + 58:.1f}", "ty3": f"{y + 90:.1f}",
                          "cls": " ".join(cls), "label": label, "chips": d["chips"],
                          "status": "to act" if to_act else status_words(d), "cards": cards, "bet": bet})
        board = obs.get("board") or []
        left = cx - (5 * LARGE[0] + 4 * 6) / 2
        slots = [{"x": f"{left + j * (LARGE[0] + 6):.1f}", "y": f"{cy - 50:.1f}"} for j in range(5)]
        pots = obs.get("pots") or []
        pot_lines = [("Pot" if j == 0 else f"Side pot {j}") + f" {p['amount']}" for j, p in enumerate(pots)]
        return {
            "turn": obs.get("turn", 0),
            "view_box": f"0 0 {width} {H}",
            "table": {"cx": cx, "cy": cy, "rx": TABLE_RX + (width - W) / 2, "ry": TABLE_RY},
            "heading": [f"Hand {obs['hand']} · {obs['street']}", f"Blinds {obs['small_blind']}/{obs['big_blind']}"]
            if obs else [],
            "seats": drawn,
            "cards": [_card(c, float(slots[j]["x"]), float(slots[j]["y"]), LARGE) for j, c in enumerate(board)]
            + [c for s in drawn for c in s["cards"]],
            "slots": slots[len(board):],
            "card_w": LARGE[0],
            "card_h": LARGE[1],
            "pots": [{"text": t, "y": f"{cy + 52 + 22 * j:.1f}"} for j, t in enumerate(pot_lines)],
            "button": button,
            "prompt": self._prompt(obs),
            "result": obs.get("result"),
        }

    def _prompt(self, obs: dict) -> str:
        """What calling costs the viewer, when it is the viewer's turn (the buttons say what the rest cost)."""
        viewer = obs.get("viewer")
        if not viewer or viewer != obs.get("to_move"):
            return ""
        a = amounts(obs, viewer)
        if a["stack"] <= a["to_call"]:
            return "Your turn: all in to call"
        return f"Your turn: call {a['to_call']}" if a["to_call"] else "Your turn: check"

    def seat_stats(self, observation, seat: str) -> list:
        d = next((d for d in (observation or {}).get("seats", []) if d["seat"] == seat), None)
        if d is None:
            return []
        return [("Chips", d["chips"]), ("Bet", d["bet"]), ("Status", status_words(d))]

    def chance_words(self, outcome) -> str:
        """``"p3:??"`` (another seat's card, hidden) "Player 3 is dealt a card"; ``"flop:As"`` "Flop: As"."""
        where, _, card = str(outcome).partition(":")
        if where in self.game.info.players:
            return f"{self.seat_name(where)} is dealt {'a card' if card == '??' else card}"
        return f"{where.title()}: {card}"

    def chapter(self, observation) -> str:
        return f"Hand {observation['hand']}" if observation and observation.get("hand") else ""

    def material(self, observation, seat: str):
        d = next((d for d in (observation or {}).get("seats", []) if d["seat"] == seat), None)
        return None if d is None else float(d["chips"] + d["total"])

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        """One off-board step; its label has the amount when the observation is given."""
        return [{"key": action, "label": _action_label(action, observation, seat)}]

    def action_group(self, seat: str, action, observation=None) -> str:
        return "Give up" if action == "fold" else ("Stay in" if action in ("check", "call") else "Put in more")

    # --- the lobby ---------------------------------------------------------------------------------
    def params(self) -> list[Param]:
        (p_lo, p_hi), (c_lo, c_hi), (b_lo, b_hi) = (LIMITS[k] for k in ("players", "chips", "big_blind"))
        return [Param("players", "Players", DEFAULTS["players"], minimum=p_lo, maximum=p_hi,
                      help="Seats at the table"),
                Param("chips", "Starting chips", DEFAULTS["chips"], minimum=c_lo, maximum=c_hi,
                      help="Every player starts with this many chips"),
                Param("big_blind", "Big blind", DEFAULTS["big_blind"], minimum=b_lo, maximum=b_hi,
                      help="The first big blind, also the bet size (the small blind is half; blinds double "
                           "every 10 hands)")]
