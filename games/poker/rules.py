"""Texas hold'em sit-and-go as GBG plays it (rules: ``docs/games/poker.md``).

Seats ``p0`` .. ``pN-1``, each starting with ``chips``. The button starts at ``p0`` and moves to the next
seat still in the game each hand; the small and big blind follow it (heads-up the button posts the small
blind). Betting is fixed-limit with the seed's sizes: a bet is one big blind, a raise adds one big blind to
the highest bet, a player short of chips goes all in. Blinds double every ``BLIND_LEVEL_HANDS`` hands so that
every game ends; after ``MAX_HANDS`` hands the most chips win.

Chance deals one card per chance node: an outcome is ``"<where>:<card>"``, where is the seat that gets a
hole card (``"p3:As"``) or the street of a board card (``"flop:Td"``, ``"turn:2c"``, ``"river:Kh"``), so that
``Game.redact_record`` can hide another seat's hole cards from the record alone. The deck is never part of the
state: the cards not dealt are unknown until chance draws them. Hands are ranked by phevaluator.

With three or more seats a seat may resign (``resign``): it folds at once and sits out the rest of the game,
its chips staying where they are but no longer counting; the others play on, and it ranks with the busted.
"""
from __future__ import annotations

from typing import Mapping

from phevaluator import evaluate_cards

from games.engine.api import CHANCE, RESIGN, Game, GameInfo, IllegalAction, Result, State, Turn, short_repr

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = tuple(r + s for r in RANKS for s in SUITS)  # index = phevaluator's card id
CARD_ID = {card: i for i, card in enumerate(DECK)}
STREETS = ("preflop", "flop", "turn", "river")
BOARD_SIZE = (0, 3, 4, 5)  # board cards out during each street's betting
ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")
BLIND_LEVEL_HANDS = 10  # the blinds (and so the bet size) double every this many hands
MAX_HANDS = 200  # after this many hands the most chips win
HIDDEN = "??"  # a redacted hole card in a turn record
# phevaluator ranks the 7462 distinct hands 1 (royal flush) .. 7462 (7-5-4-3-2 high); the last rank of each
# category, best first.
CATEGORIES = ((1, "royal flush"), (10, "straight flush"), (166, "four of a kind"), (322, "full house"),
              (1599, "flush"), (1609, "straight"), (2467, "three of a kind"), (3325, "two pair"),
              (6185, "one pair"), (7462, "high card"))
STATUSES = ("active", "all_in", "folded", "out")
_MALFORMED = 'malformed action: expected one of "fold", "check", "call", "bet", "raise", "all_in"'
TEXT_ALIASES = {"all in": "all_in", "allin": "all_in", "all-in": "all_in"}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def hand_value(cards) -> int:
    """The value of the best five of ``cards`` (5 to 7 card strings): higher is better, equal is a tie."""
    return 7463 - evaluate_cards(*(CARD_ID[c] for c in cards))


def hand_name(value: int) -> str:
    """The category of a ``hand_value`` ("flush", "two pair", ...)."""
    rank = 7463 - value
    return next(name for last, name in CATEGORIES if rank <= last)


def big_blind_at(base: int, hand: int) -> int:
    return base << ((hand - 1) // BLIND_LEVEL_HANDS)


def side_pots(total, live) -> list[tuple[int, list[int]]]:
    """The pots ``(amount, eligible seat indices)`` from each seat's chips put in this hand (``total``) and
    whether it is still in (``live``): the main pot first, then each side pot that fewer players can win
    because someone all in put in less; layers with the same eligible players make one pot."""
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for level in sorted({t for t in total if t > 0}):
        amount = sum(min(t, level) - min(t, prev) for t in total)
        eligible = [i for i, t in enumerate(total) if live[i] and t >= level]
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
        prev = level
    return pots


def secrets(state: "PokerState", seat: str | None) -> set[str]:
    """The strings ``seat`` (None: a spectator) must not see now: every other seat's hole cards of the hand
    in play that no showdown revealed, as cards (``"As"``) and as deal outcomes (``"p3:As"``)."""
    out = set()
    for i, cards in enumerate(state.hole):
        name = state.game.seats[i]
        if name != seat and not state.shown[i]:
            out.update(cards)
            out.update(f"{name}:{c}" for c in cards)
    return out


class Poker(Game):
    def __init__(self, players: int = 6, chips: int = 1000, big_blind: int = 20):
        self.params = {"players": players, "chips": chips, "big_blind": big_blind}
        self.seats = tuple(f"p{i}" for i in range(players))
        self.index = {s: i for i, s in enumerate(self.seats)}
        self.info = GameInfo(name="poker", title="Poker (Texas hold'em)", players=self.seats, simultaneous=False,
                             chance=True, perfect_information=False)

    def new_initial_state(self) -> "PokerState":
        state = PokerState(self)
        state.start_hand([])
        return state

    def action_to_json(self, action):
        return action

    def action_from_json(self, data, player=None):
        if isinstance(data, str) and data in ACTIONS:
            return data
        raise IllegalAction(player, data, _MALFORMED)

    def action_to_text(self, action) -> str:
        return action

    def action_from_text(self, text, player=None):
        """The JSON words in any case; ``all in``, ``allin`` and ``all-in`` for ``all_in``."""
        word = " ".join(text.lower().split()) if isinstance(text, str) else None
        word = TEXT_ALIASES.get(word, word)
        if word in ACTIONS:
            return word
        raise IllegalAction(player, text, _MALFORMED)

    def redact_record(self, record, seat, over) -> dict:
        """Another seat's hole card deal ``{"chance": "p3:As"}`` becomes ``{"chance": "p3:??"}``, for good (a
        showdown reveals cards in its event and the observation); board deals and actions show as they are."""
        out = dict(record)
        outcome = out.get(CHANCE)
        if isinstance(outcome, str):
            where = outcome.partition(":")[0]
            if where in self.index and where != seat:
                out[CHANCE] = f"{where}:{HIDDEN}"
        return out

    def state_from_json(self, data) -> "PokerState":
        """A state from ``to_json`` output; ValueError if anything is malformed or inconsistent."""
        try:
            state = _state_from_json(self, data)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a poker state: {short_repr(exc)}") from None
        if state.to_json() != data:
            raise ValueError("not a poker state: derived fields (pots, to_move, result) do not fit")
        return state


def _state_from_json(game: Poker, data) -> "PokerState":
    s = PokerState(game)
    n = len(game.seats)
    for key in ("turn", "hand"):
        if not _is_int(data[key]) or data[key] < 0:
            raise ValueError(f"{key} must be a non-negative integer")
    s.turn, s.hand = data["turn"], data["hand"]
    if not 1 <= s.hand <= MAX_HANDS:
        raise ValueError("hand out of range")
    s.button = game.index[data["button"]]
    s.street = STREETS.index(data["street"])
    s.board = [c for c in data["board"] if c in CARD_ID]
    seats = data["seats"]
    if [d["seat"] for d in seats] != list(game.seats):
        raise ValueError("seats must be p0 .. pN-1 in order")
    for i, d in enumerate(seats):
        for key in ("chips", "bet", "total", "raises"):
            if not _is_int(d[key]) or d[key] < 0:
                raise ValueError(f"{key} of {d['seat']} must be a non-negative integer")
        if (not isinstance(d["acted"], bool) or not isinstance(d["shown"], bool) or d["status"] not in STATUSES
                or not isinstance(d["resigned"], bool)):
            raise ValueError(f"bad flags of {d['seat']}")
        s.chips[i], s.bet[i], s.total[i], s.raises[i] = d["chips"], d["bet"], d["total"], d["raises"]
        s.acted[i], s.shown[i], s.resigned[i] = d["acted"], d["shown"], d["resigned"]
        s.in_hand[i] = d["status"] != "out"
        s.folded[i] = d["status"] == "folded"
        s.hole[i] = [c for c in d["cards"] if c in CARD_ID]
        if len(s.hole[i]) != len(d["cards"]) or len(s.hole[i]) > 2:
            raise ValueError(f"bad cards of {d['seat']}")
    dealt = s.board + [c for cards in s.hole for c in cards]
    if len(s.board) != len(data["board"]) or len(set(dealt)) != len(dealt) or len(s.board) > BOARD_SIZE[s.street]:
        raise ValueError("bad or repeated cards")
    if sum(s.chips) + sum(s.total) != n * game.params["chips"]:
        raise ValueError("the chips do not add up")
    if data["to_move"] is not None:
        s.to_act = game.index[data["to_move"]]
        if not s._active(s.to_act):
            raise ValueError("the seat to move cannot act")
    s.over = data["result"] is not None
    if (s.to_act is None) == (not s.over and s._deal_target() is None):
        raise ValueError("to_move must name a seat exactly when no card is due and the game goes on")
    return s


class PokerState(State):
    __slots__ = ("game", "turn", "hand", "button", "street", "board", "chips", "bet", "total", "raises", "acted",
                 "shown", "in_hand", "folded", "resigned", "hole", "to_act", "over")

    def __init__(self, game: Poker):
        n = len(game.seats)
        self.game = game
        self.turn = 0
        self.hand = 0  # the hand in play, from 1
        self.button = 0
        self.street = 0  # index into STREETS
        self.board: list[str] = []
        self.chips = [game.params["chips"]] * n  # chips behind, not yet put in
        self.bet = [0] * n  # put in during this betting round
        self.total = [0] * n  # put in during this hand (the pots)
        self.raises = [0] * n  # bets and raises this hand (public; the bots read aggression from it)
        self.acted = [False] * n  # acted since the highest bet last went up
        self.shown = [False] * n  # hole cards revealed at this hand's showdown
        self.in_hand = [True] * n  # dealt into this hand (False: out of the game)
        self.folded = [False] * n
        self.resigned = [False] * n  # resigned: folded at once, out of every later hand, ranked with the busted
        self.hole: list[list[str]] = [[] for _ in range(n)]
        self.to_act: int | None = None
        self.over = False

    def clone(self) -> "PokerState":
        c = PokerState.__new__(PokerState)
        c.game, c.turn, c.hand, c.button, c.street = self.game, self.turn, self.hand, self.button, self.street
        c.to_act, c.over = self.to_act, self.over
        c.board = self.board[:]
        for name in ("chips", "bet", "total", "raises", "acted", "shown", "in_hand", "folded", "resigned"):
            setattr(c, name, getattr(self, name)[:])
        c.hole = [cards[:] for cards in self.hole]
        return c

    # --- helpers ------------------------------------------------------------------------------------
    @property
    def big_blind(self) -> int:
        return big_blind_at(self.game.params["big_blind"], self.hand)

    def _next(self, i: int, test) -> int | None:
        """The first seat after ``i`` (going round the table, ``i`` itself last) for which ``test`` holds."""
        n = len(self.chips)
        return next((j % n for j in range(i + 1, i + n + 1) if test(j % n)), None)

    def _active(self, i: int) -> bool:
        """In the hand, not folded, with chips left to bet."""
        return self.in_hand[i] and not self.folded[i] and self.chips[i] > 0

    def _live(self) -> list[int]:
        return [i for i in range(len(self.chips)) if self.in_hand[i] and not self.folded[i]]

    def blind_seats(self) -> tuple[int, int]:
        """(small blind, big blind) of this hand: heads-up the button is the small blind."""
        dealt = sum(self.in_hand)
        sb = self.button if dealt == 2 else self._next(self.button, self.in_hand.__getitem__)
        return sb, self._next(sb, self.in_hand.__getitem__)

    def _needs_action(self, i: int) -> bool:
        if not self._active(i):
            return False
        if self.bet[i] < max(self.bet):
            return True
        return not self.acted[i] and sum(map(self._active, range(len(self.chips)))) >= 2

    def _deal_target(self) -> str | None:
        """Where the next card goes (a seat name or a street), or None if no card is due."""
        dealt = [i for i in range(len(self.chips)) if self.in_hand[i]]
        holes = sum(len(c) for c in self.hole)
        if holes < 2 * len(dealt):
            first = self._next(self.button, self.in_hand.__getitem__)
            order = dealt[dealt.index(first):] + dealt[:dealt.index(first)]
            return self.game.seats[order[holes % len(order)]]
        if len(self.board) < BOARD_SIZE[self.street]:
            return STREETS[self.street]
        return None

    def _put(self, i: int, amount: int) -> None:
        amount = min(amount, self.chips[i])
        self.chips[i] -= amount
        self.bet[i] += amount
        self.total[i] += amount

    # --- the flow of a hand ---------------------------------------------------------------------------
    def start_hand(self, events: list) -> None:
        """Move the button (to ``p0`` for the first hand), post the blinds; the deal comes next (chance)."""
        n = len(self.chips)
        self.in_hand = [c > 0 and not r for c, r in zip(self.chips, self.resigned)]
        self.button = 0 if self.hand == 0 else self._next(self.button, self.in_hand.__getitem__)
        self.hand += 1
        self.street, self.board, self.to_act = 0, [], None
        self.bet, self.total, self.raises = [0] * n, [0] * n, [0] * n
        self.acted, self.shown, self.folded = [False] * n, [False] * n, [False] * n
        self.hole = [[] for _ in range(n)]
        sb, bb = self.blind_seats()
        self._put(sb, self.big_blind // 2)
        self._put(bb, self.big_blind)
        seats = self.game.seats
        events.append({"hand_start": self.hand, "button": seats[self.button], "big_blind": self.big_blind,
                       "blinds": {seats[sb]: self.bet[sb], seats[bb]: self.bet[bb]}})

    def _advance(self, events: list) -> None:
        """After an action or a deal: end the hand if it is decided, else find whose turn it is (None while a
        card is due), ending betting rounds and moving to the next street as needed."""
        while not self.over:
            live = self._live()
            if len(live) == 1:
                self._end_hand([(sum(self.total), live)], events)
                continue
            if self._deal_target() is not None:
                self.to_act = None
                return
            start = self.to_act
            if start is None:
                start = self.blind_seats()[1] if self.street == 0 else self.button
            self.to_act = self._next(start, self._needs_action)
            if self.to_act is not None:
                return
            self.bet = [0] * len(self.chips)
            self.acted = [False] * len(self.chips)
            if self.street == 3:
                self._showdown(events)
            else:
                self.street += 1

    def _showdown(self, events: list) -> None:
        live = self._live()
        seats = self.game.seats
        values = {i: hand_value(self.hole[i] + self.board) for i in live}
        for i in live:
            self.shown[i] = True
        events.append({"showdown": {seats[i]: self.hole[i] for i in live},
                       "hands": {seats[i]: hand_name(values[i]) for i in live}})
        pots = []
        for amount, eligible in side_pots(self.total, [i in values for i in range(len(self.chips))]):
            best = max(values[i] for i in eligible)
            pots.append((amount, [i for i in eligible if values[i] == best]))
        self._end_hand(pots, events)

    def _end_hand(self, pots, events: list) -> None:
        """Pay ``pots`` ((amount, winners) pairs), split evenly; odd chips one each to the winners nearest the
        button's left. Then busts, and the next hand or the end of the game."""
        seats, n = self.game.seats, len(self.chips)
        won = [0] * n
        shown = []
        for amount, winners in pots:
            order = sorted(winners, key=lambda i: (i - self.button - 1) % n)
            share, odd = divmod(amount, len(order))
            for k, i in enumerate(order):
                won[i] += share + (k < odd)
            shown.append({"amount": amount, "winners": [seats[i] for i in winners]})
        for i in range(n):
            self.chips[i] += won[i]
        self.total = [0] * n
        self.to_act = None
        events.append({"pots": shown, "winners": [seats[i] for i in range(n) if won[i]],
                       "won": {seats[i]: won[i] for i in range(n) if won[i]}})
        for i in range(n):
            if self.in_hand[i] and not self.chips[i]:
                self.in_hand[i] = False
                events.append({"bust": seats[i]})
        if len(self._playing()) == 1 or self.hand >= MAX_HANDS:
            self.over = True
            events.append({"game_over": self._result().text})
        else:
            self.start_hand(events)

    def _playing(self) -> list[int]:
        """The seats still in the game: chips left and not resigned."""
        return [i for i, c in enumerate(self.chips) if c > 0 and not self.resigned[i]]

    def _result(self) -> Result:
        seats = self.game.seats
        playing = self._playing()
        most = max(self.chips[i] for i in playing)
        winners = [seats[i] for i in playing if self.chips[i] == most]
        if len(playing) == 1:
            return Result.shared(seats, winners, f"{winners[0]} wins: the last player with chips")
        return Result.shared(seats, winners, f"after {self.hand} hands the most chips ({most}) win: "
                             + ", ".join(winners))

    # --- status -------------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        return [self.game.seats[self.to_act]] if self.to_act is not None else []

    def is_terminal(self) -> bool:
        return self.over

    def result(self) -> Result | None:
        return self._result() if self.over else None

    # --- chance -------------------------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        return not self.over and self.to_act is None and self._deal_target() is not None

    def chance_outcomes(self) -> list:
        """``("<where>:<card>", 1 / k)`` for each of the k cards not dealt yet in this hand."""
        if not self.is_chance_node():
            return []
        where = self._deal_target()
        dealt = set(self.board).union(*self.hole)
        left = [c for c in DECK if c not in dealt]
        return [(f"{where}:{c}", 1 / len(left)) for c in left]

    def apply_chance(self, outcome) -> Turn:
        """Deal the card of ``outcome`` (one of ``chance_outcomes``)."""
        if not self.is_chance_node():
            raise IllegalAction(CHANCE, outcome, "no card is due")
        where = self._deal_target()
        if not isinstance(outcome, str) or outcome.partition(":")[0] != where:
            raise IllegalAction(CHANCE, outcome, f"malformed outcome: expected \"{where}:<card>\"")
        card = outcome.partition(":")[2]
        if card not in CARD_ID or card in self.board or any(card in h for h in self.hole):
            raise IllegalAction(CHANCE, outcome, f"{short_repr(card)} is not a card left in the deck")
        events: list = []
        if where in self.game.index:
            self.hole[self.game.index[where]].append(card)
        else:
            self.board.append(card)
            events.append({"board": card, "street": where})
        self.turn += 1
        self._advance(events)
        return Turn(self.turn, {CHANCE: outcome}, events)

    # --- actions ------------------------------------------------------------------------------------
    def _can_be_called(self, i: int) -> bool:
        """Whether another seat could answer a bet or raise of seat ``i``: one still in the hand with chips.
        When every other seat still in is all in, nobody can: only fold, check and call (an all in for no more
        than the call) are offered, since a bet then is pointless and would read as aggression to the bots."""
        return any(self._active(j) for j in range(len(self.chips)) if j != i)

    def legal_actions(self, player: str):
        i = self.game.index.get(player)
        if i is None or i != self.to_act:
            return []
        stack, bb = self.chips[i], self.big_blind
        high = max(self.bet)
        to_call = high - self.bet[i]
        acts = ["fold"]
        if to_call == 0:
            acts.append("check")
        elif stack > to_call:
            acts.append("call")
        callable_ = self._can_be_called(i)
        if callable_ and high == 0:
            if stack > bb:
                acts.append("bet")
        elif callable_ and stack > to_call + bb:
            acts.append("raise")
        if callable_ or stack <= to_call:
            acts.append("all_in")
        return acts

    def check_action(self, player: str, action) -> None:
        if player not in self.game.index:
            raise IllegalAction(player, action, "unknown seat")
        if not (isinstance(action, str) and action in ACTIONS):
            raise IllegalAction(player, action, _MALFORMED)
        if self.over:
            raise IllegalAction(player, action, "the game is over")
        if self.to_act is None:
            raise IllegalAction(player, action, "a card is being dealt (a chance event)")
        if self.game.seats[self.to_act] != player:
            raise IllegalAction(player, action, f"not your turn ({self.game.seats[self.to_act]} is to act)")
        if action not in self.legal_actions(player):
            raise IllegalAction(player, action, self._why_not(action))

    def _why_not(self, action: str) -> str:
        i = self.to_act
        to_call = max(self.bet) - self.bet[i]
        if action in ("bet", "raise", "all_in") and not self._can_be_called(i):
            return "nobody could call it: every other player still in the hand is all in; call, check or fold"
        if action == "check":
            return f"there is a bet to call ({to_call})"
        if action == "bet":
            return ("there is already a bet: call or raise" if max(self.bet)
                    else f"a bet is {self.big_blind} and you have {self.chips[i]}: go all in")
        if action == "call":
            return ("there is no bet to call" if to_call == 0
                    else f"{to_call} to call and you have {self.chips[i]}: go all in")
        return ("there is no bet to raise: bet" if not max(self.bet)
                else f"a raise costs {to_call + self.big_blind} and you have {self.chips[i]}: go all in")

    def apply_actions(self, actions: Mapping[str, object]) -> Turn:
        """One action of the seat to act: ``{"p3": "call"}``."""
        if not isinstance(actions, Mapping) or len(actions) != 1:
            raise IllegalAction(None, actions, "a turn takes exactly one action, from the seat to act")
        (player, action), = actions.items()
        self.check_action(player, action)
        i = self.to_act
        high = max(self.bet)
        before = self.chips[i]
        if action == "fold":
            self.folded[i] = True
        elif action == "call":
            self._put(i, high - self.bet[i])
        elif action == "bet":
            self._put(i, self.big_blind)
        elif action == "raise":
            self._put(i, high - self.bet[i] + self.big_blind)
        elif action == "all_in":
            self._put(i, self.chips[i])
        self.acted[i] = True
        if self.bet[i] > high:
            self.raises[i] += 1
            self.acted = [j == i for j in range(len(self.chips))]
        self.turn += 1
        event = {"seat": player, "action": action, "amount": before - self.chips[i], "bet": self.bet[i]}
        if action != "fold" and not self.chips[i]:
            event["all_in"] = True
        events = [event]
        self._advance(events)
        return Turn(self.turn, {player: action}, events)

    # --- resigning ----------------------------------------------------------------------------------
    def can_drop_out(self, player: str) -> bool:
        """With three or more seats any seat may resign once while the game goes on (a busted seat too: it
        changes nothing then)."""
        i = self.game.index.get(player)
        return len(self.chips) >= 3 and i is not None and not self.over and not self.resigned[i]

    def resign(self, player: str) -> Turn:
        """``player`` folds at once (whoever is to act) and sits out the rest of the game; the hand goes on
        without it (or ends, if one seat is left in it), and so does the game while two seats have chips."""
        if not (isinstance(player, str) and self.can_drop_out(player)):
            raise IllegalAction(player, RESIGN, "only a seat still in a game of three or more seats can resign")
        i = self.game.index[player]
        self.resigned[i] = True
        self.turn += 1
        events: list = [{"resigned": player}]
        if self.in_hand[i] and not self.folded[i]:
            self.folded[i] = True
            events.append({"seat": player, "action": "fold", "amount": 0, "bet": self.bet[i]})
        if self.to_act is not None and self.to_act != i:
            self.to_act = (self.to_act - 1) % len(self.chips)  # _advance looks from the seat after: this one
        self._advance(events)
        return Turn(self.turn, {RESIGN: player}, events)

    # --- views ----------------------------------------------------------------------------------------
    def status(self, i: int) -> str:
        if not self.in_hand[i]:
            return "out"
        if self.folded[i]:
            return "folded"
        return "all_in" if not self.chips[i] else "active"

    def to_json(self) -> dict:
        """The whole state (every dealt card): ``{"turn", "to_move", "result", "hand", "button", "big_blind",
        "small_blind", "street", "board", "seats": [{"seat", "chips", "bet", "total", "status", "cards",
        "hidden", "shown", "acted", "raises", "resigned"}], "pots": [{"amount", "eligible"}]}``; the pots hold the
        chips of the betting rounds before this one (this round's are each seat's ``bet``)."""
        seats = self.game.seats
        live = [self.in_hand[i] and not self.folded[i] for i in range(len(seats))]
        result = self.result()
        return {
            "turn": self.turn,
            "to_move": seats[self.to_act] if self.to_act is not None else None,
            "result": result.to_json() if result else None,
            "hand": self.hand,
            "button": seats[self.button],
            "big_blind": self.big_blind,
            "small_blind": self.big_blind // 2,
            "street": STREETS[self.street],
            "board": self.board[:],
            "seats": [{"seat": s, "chips": self.chips[i], "bet": self.bet[i], "total": self.total[i],
                       "status": self.status(i), "cards": self.hole[i][:], "hidden": 0, "shown": self.shown[i],
                       "acted": self.acted[i], "raises": self.raises[i], "resigned": self.resigned[i]}
                      for i, s in enumerate(seats)],
            "pots": [{"amount": a, "eligible": [seats[i] for i in e]}
                     for a, e in side_pots([t - b for t, b in zip(self.total, self.bet)], live)],
        }

    def observation(self, player: str | None) -> dict:
        """``to_json`` with every other seat's hole cards face down (``cards`` empty, ``hidden`` their count)
        unless a showdown revealed them, plus ``viewer`` (the seat, or None for a spectator)."""
        data = self.to_json()
        data["viewer"] = player
        for d in data["seats"]:
            if d["seat"] != player and not d["shown"]:
                d["hidden"], d["cards"] = len(d["cards"]), []
        return data

    def to_text(self) -> str:
        """The whole state (all hole cards) in a few lines."""
        seats = self.game.seats
        head = (f"hand {self.hand}, {STREETS[self.street]}, button {seats[self.button]}, blinds "
                f"{self.big_blind // 2}/{self.big_blind}, turn {self.turn}")
        lines = [head, "board: " + (" ".join(self.board) or "-")]
        for i, s in enumerate(seats):
            mark = " <- to act" if i == self.to_act else ""
            lines.append(f"{s:>3} {self.chips[i]:>8} bet {self.bet[i]:>6} [{' '.join(self.hole[i]):5}] "
                         f"{self.status(i)}{mark}")
        if self.over:
            lines.append(self._result().text)
        return "\n".join(lines)
