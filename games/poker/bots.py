"""Poker bots (``BOTS``): both decide from ``state.observation(seat)`` only (their own hole cards, the board,
the bets, and for ``strong`` the observations it was shown earlier in the hand), never from the full state, so
they cannot see another seat's cards.

* ``greedy``: Monte Carlo equity (``GREEDY_TRIALS`` deals) of its hand against a random hand for each player
  still in; it calls when the equity beats the pot odds, bets or raises when the equity is well above a fair
  share (``1 / players in``), and folds otherwise.
* ``strong``: equity against ranges, each action valued by playing out the rest of the betting round.
  Each opponent is modelled as a straightforward player: it knows its equity against random hands
  (``strength``: ``PREFLOP_EQUITY`` before the flop, after it a function of the hand's strength on the board
  and its flush and straight draws fitted to Monte Carlo equities), folds below its pot odds, and bets or
  raises above ``MODEL_BET`` / ``MODEL_RAISE`` fair shares (share = equity * players in). Its range (a weight
  on each of the 1326 two-card hands) is narrowed by the likelihood of each action it took this hand under
  that model, with the board as it was then; the bot rebuilds the hand's actions from the observations
  ``observe`` shows it (if it missed some, it reads the raise counts and bets of the current observation).
  With a small prior (``RANDOM_PRIOR``, raised by shoves and free folds seen in earlier hands) an opponent
  plays at random instead, which its own actions make more or less likely. The bot draws the opponents' hands
  from their ranges and the board to come (as many deals as its time budget allows by ``SAMPLE_RATE``). For
  each option (fold; check or call; bet or raise; all in, when stacks are short or a raise costs a third of
  the stack) followed by calling or folding a later raise, it plays the round out on every deal with the
  opponents' modelled replies and scores the hand at the end of the round: the showdown, plus ``FUTURE_BETS``
  bets a street to come won by the better hand.
  It takes the option worth the most chips; a raise when bets have already gone in this round must beat the
  rest by ``RAISE_MARGIN`` big blinds per bet, so an even raise war stops at a call. Position, stacks, fold
  equity (greedy folds a lot before the flop), thin value bets and semi-bluffs all come out of that.
  Its random draws come from its seed, so a seat, a seed and the observations give the same action (unless
  the machine is so slow that the safety stop at ``SAFETY`` times the budget cuts the deals short).
"""
from __future__ import annotations

import itertools
import json
import math
import time
import zlib
from functools import lru_cache

import numpy as np
from phevaluator import evaluate_cards

from games.bots import DEFAULT_SECONDS
from games.bots.base import Bot

from .rules import CARD_ID, STREETS

GREEDY_TRIALS = 200


def equity(hole, board, opponents: int, trials: int, rng) -> float:
    """Share of the pot ``hole`` wins on average against ``opponents`` random hands, the board completed at
    random (card ids as phevaluator numbers them)."""
    known = set(hole) | set(board)
    deck = [c for c in range(52) if c not in known]
    missing = 5 - len(board)
    won = 0.0
    for _ in range(trials):
        avail = deck[:]
        fill = rng.sample(avail, missing)
        for c in fill:
            avail.remove(c)
        hands = []
        for _ in range(opponents):
            hand = rng.sample(avail, 2)
            avail.remove(hand[0])
            avail.remove(hand[1])
            hands.append(hand)
        full = board + fill
        mine = evaluate_cards(*hole, *full)
        best = min(evaluate_cards(*h, *full) for h in hands) if hands else 7463
        if mine < best:
            won += 1
        elif mine == best:
            won += 1 / (1 + sum(evaluate_cards(*h, *full) == mine for h in hands))
    return won / trials


class _View:
    """What the greedy bot reads from its observation."""

    def __init__(self, obs: dict, seat: str):
        seats = obs["seats"]
        me = next(d for d in seats if d["seat"] == seat)
        self.hole = [CARD_ID[c] for c in me["cards"]]
        self.board = [CARD_ID[c] for c in obs["board"]]
        self.to_call = max(d["bet"] for d in seats) - me["bet"]
        self.pot = sum(d["total"] for d in seats)
        self.opponents = [d for d in seats if d["seat"] != seat and d["status"] in ("active", "all_in")]


def _pick(legal, *wanted):
    return next((a for a in wanted if a in legal), None)


class GreedyBot(Bot):
    level = "greedy"

    def choose(self, state):
        legal = state.legal_actions(self.seat)
        v = _View(state.observation(self.seat), self.seat)
        e = equity(v.hole, v.board, len(v.opponents), GREEDY_TRIALS, self.rng)
        share = e * (len(v.opponents) + 1)  # 1: a fair share of the pot
        if v.to_call:
            odds = v.to_call / (v.pot + v.to_call)
            if share > 1.6:
                return _pick(legal, "raise", "call", "all_in")
            return _pick(legal, "call", "all_in") if e >= odds else "fold"
        if share > 1.3:
            return _pick(legal, "bet", "raise", "check")
        return "check"


# --- strong ----------------------------------------------------------------------------------------------

# Equity (percent) of each of the 169 starting hands against 1..9 random hands, by 3000 Monte Carlo deals
# each. Hands in the order of ``_CLASSES``: for each higher rank 2..A, each lower rank 2..that rank: the pair,
# or suited then offsuit.
PREFLOP_EQUITY = (
    ("5136335437343735563834393741386038364035413942406337354037413845404443674136413942394441464447457042404239454147"
     "4349454845504871464247434542484449465146514954517548444946504449495046525054525553585577504850485150544954515452"
     "5654585461596058805452535255535453555457575855595861606360646183575658566058605959586158646063616361666566636665"
     "86"),  # 1 opponent
    ("3124193324222823382521282429254026212623302529264423202622282530283228462522262328243026322934314927212825292530"
     "2731293331363355292429273126302733303331373339365829253026332833303430363137354037423961312933313530343135333733"
     "3835403742414442653531363237343634363438354236413845444644464369383538364138413940394140454043414744504549485148"
     "74"),  # 2 opponents
    ("2220142418152116262016201721202920152117211823193218132015231823202520352014191621162319252227233820172116211723"
     "1925212724292440211621192218231924212723282530274523192419242026222522292329263229353149251925212522252126232725"
     "3027322733323632552623282330242924292531253028323135313734393659302531283226322832263228343135313736383540374340"
     "63"),  # 3 opponents
    ("1615112018111713191613181419142116121712171419172415101712171520152017251512151318141915201622182816121513171318"
     "1521172320232030171317141715171521172318242028223618131914201619162116221824192523292441201520162117221622172218"
     "2520262330242926442018221723192219232025202522272431272927323050261923212521252125222624282427263028323035303532"
     "57"),  # 4 opponents
    ("1613091715101611171510151116141713101511161317132014081411161218141613221409130915101612171520162515101510151015"
     "1317131914211727151115111612161118131915201723182916111612171317131813181520172318252235161218131713171319151915"
     "2016231825202522381814191420151914191621162117232126222823272543211620172117221821172218231822212723292429253127"
     "48"),  # 5 opponents
    ("1412081512081309151308130915111511081309151014131611071108131015121513171208130813091411161216132012081309120914"
     "1016121613181523140814091409141016101712201521162614091309141014111511161319152015231828151015101511161216121612"
     "1815211623192220331712161117121814181218151914201624202522262239181420141915191520151916211621162420242125232725"
     "45"),  # 6 opponents
    ("1311061411081209141108130814101511071208130913111610061107120914091412171106110611071309141115101710071108110812"
     "0913101611161219120813091107120913091512151318152213081309130913091410141215111813201624140914091410151014101309"
     "1611181421172016291509151014111612161115121612171420162117221834161215131713171317131912181319152017221824212522"
     "38"),  # 7 opponents
    ("1410071312071207131107120913091309061207110913091410061007110812081309151006100610071208130915101611061106110511"
     "0713091310141118110711071106110712081309151117141912071208110812071208131015101713181420130712071207120913091309"
     "1409161319152015261408140813091510140915101409171317152016221630141016101511161115101512181117131915201621182320"
     "35"),  # 8 opponents
    ("1209051311071007120906100912081210061006100812081209041006110611081308140805080510071107130814091308050905100610"
     "0711081208131117100609061005110612071307131014121709061006110711071207120813081510151319110711071007110812081308"
     "1309151117141814241108120813071208140813081309151116131715191426140914091509141013091510141115121714181420152017"
     "30"),  # 9 opponents
)
# After the flop: the equity against k random hands (k = 1, 2, 3, 5) of a hand whose strength on the board
# is hs (the share of two-card hands it beats now), fitted on 2800 random boards and hands per street:
# piecewise linear in hs at _HS_KNOTS, plus a flush draw, a gutshot and an open-ended straight draw. On the
# river the equity is hs ** k.
_HS_KNOTS = (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)
POSTFLOP_EQUITY = {
    3: {1: (0.187, 0.232, 0.290, 0.341, 0.394, 0.447, 0.504, 0.587, 0.675, 0.782, 0.841, 0.935, 0.162, 0.079, 0.153),
        2: (0.103, 0.116, 0.143, 0.166, 0.204, 0.236, 0.290, 0.370, 0.471, 0.620, 0.718, 0.887, 0.194, 0.093, 0.171),
        3: (0.069, 0.077, 0.096, 0.108, 0.129, 0.152, 0.186, 0.255, 0.337, 0.504, 0.619, 0.833, 0.192, 0.086, 0.161),
        5: (0.042, 0.041, 0.056, 0.060, 0.073, 0.082, 0.108, 0.145, 0.191, 0.341, 0.463, 0.770, 0.182, 0.080, 0.143)},
    4: {1: (0.115, 0.166, 0.226, 0.305, 0.372, 0.451, 0.529, 0.623, 0.722, 0.836, 0.890, 0.987, 0.102, 0.038, 0.083),
        2: (0.053, 0.063, 0.078, 0.124, 0.157, 0.220, 0.297, 0.394, 0.532, 0.710, 0.803, 0.971, 0.111, 0.045, 0.095),
        3: (0.033, 0.034, 0.042, 0.064, 0.083, 0.123, 0.178, 0.257, 0.388, 0.603, 0.730, 0.951, 0.112, 0.041, 0.094),
        5: (0.012, 0.012, 0.018, 0.029, 0.036, 0.050, 0.082, 0.124, 0.214, 0.438, 0.614, 0.916, 0.102, 0.037, 0.087)},
}
MODEL_BET = 1.3  # an opponent bets with more than this many fair shares of equity (share = equity * players in)
MODEL_RAISE = 1.6  # and raises (a bet) with more than this many
MODEL_SOFT = 0.06  # how sharp the model's thresholds are when reading a range from actions
MODEL_FLOOR = 0.03  # any action has at least this likelihood under the model (a bluff, a mistake)
MODEL_NOISE = 0.05  # the spread of an opponent's own estimate of its equity, when predicting its replies
ALL_IN_BLINDS = 15  # all in is an option with at most this many big blinds behind (or a third of them to call)
RAISE_MARGIN = 0.25  # big blinds asked of a raise per bet beyond the first already made this round
RANDOM_PRIOR = 0.05  # the chance that an opponent plays at random (any legal action, any hand) ...
ODD_ACTION = 4.0  # ... times this in the odds for each shove or free fold it made in earlier hands
FUTURE_BETS = 0.25  # bets a later street is worth, won by the better hand
ROUND_RAISES = 3  # raises the round simulation allows after the bot's action
SAMPLE_RATE = 250_000  # (opponents + 1) * deals per second of budget
MIN_SAMPLES, MAX_SAMPLES = 120, 3000
SAFETY = 2.0  # stop drawing deals at this many times the budget

_CARD_A, _CARD_B = (np.array(x) for x in zip(*itertools.combinations(range(52), 2)))  # the 1326 hands
_PAIRS = list(zip(_CARD_A.tolist(), _CARD_B.tolist()))
_CLASSES = {}
for _hi in range(13):
    for _lo in range(_hi + 1):
        for _suited in ((False,) if _hi == _lo else (True, False)):
            _CLASSES[_hi, _lo, _suited] = len(_CLASSES)
_CLASS = np.array([_CLASSES[max(a, b) >> 2, min(a, b) >> 2, a & 3 == b & 3] for a, b in _PAIRS])
_PREFLOP = np.array([[int(row[k:k + 2]) for k in range(0, 2 * len(_CLASSES), 2)]
                     for row in PREFLOP_EQUITY]) / 100
_BIG = 1 << 20  # a rank worse than any hand


@lru_cache(maxsize=1)
def _straight_tables():
    """For each set of ranks (13-bit mask): whether it holds a straight, and how many ranks would make one
    (0, 1: a gutshot, 2: open-ended)."""
    masks = np.arange(1 << 13)

    def straight(x):
        ext = (x << 1) | ((x >> 12) & 1)  # bit 0: the ace low
        out = np.zeros(len(x), bool)
        for lo in range(10):
            out |= (ext & (31 << lo)) == (31 << lo)
        return out

    made = straight(masks)
    outs = np.zeros(len(masks), int)
    for r in range(13):
        outs += ~made & ((masks >> r) & 1 == 0) & straight(masks | (1 << r))
    return made, np.minimum(outs, 2)


@lru_cache(maxsize=256)
def _board_tables(board: tuple):
    """For every two-card hand on ``board`` (3 to 5 cards): whether it avoids the board's cards, its rank
    (phevaluator: lower is better), its strength hs and its draws (flush draw, straight outs)."""
    valid = ~(np.isin(_CARD_A, board) | np.isin(_CARD_B, board))
    idx = np.flatnonzero(valid)
    ranks = np.full(len(_PAIRS), _BIG)
    ranks[idx] = [evaluate_cards(_PAIRS[i][0], _PAIRS[i][1], *board) for i in idx.tolist()]
    ordered = np.sort(ranks[idx])
    hs = np.zeros(len(_PAIRS))
    hs[idx] = 1 - (np.searchsorted(ordered, ranks[idx], "left") + np.searchsorted(ordered, ranks[idx], "right")) \
        / (2 * len(idx))
    suits = np.bincount([c & 3 for c in board], minlength=4)
    fd = np.zeros(len(_PAIRS), bool)
    for s in range(4):
        a, b = (_CARD_A & 3) == s, (_CARD_B & 3) == s
        fd |= (a | b) & (suits[s] + a + b == 4)
    mask = sum(1 << r for r in {c >> 2 for c in board})
    _, outs = _straight_tables()
    return valid, ranks, hs, fd, outs[mask | (1 << (_CARD_A >> 2)) | (1 << (_CARD_B >> 2))]


def _postflop(board: tuple, k: int) -> np.ndarray:
    if k == 4:
        return (_postflop(board, 3) + _postflop(board, 5)) / 2
    if k > 5:
        e5, e3 = _postflop(board, 5), _postflop(board, 3)
        return e5 * (e5 / np.maximum(e3, 1e-3)) ** ((k - 5) / 2)
    _, _, hs, fd, outs = _board_tables(board)
    if len(board) == 5:
        return hs ** k
    c = POSTFLOP_EQUITY[len(board)][k]
    return np.interp(hs, _HS_KNOTS, c[:12]) + c[12] * fd + c[13] * (outs == 1) + c[14] * (outs == 2)


def strength(board: tuple, k: int) -> np.ndarray:
    """Each two-card hand's equity against ``k`` random hands on ``board`` (0, 3, 4 or 5 cards) as the
    opponent model sees it."""
    k = max(k, 1)
    e = _PREFLOP[min(k, 9) - 1][_CLASS] if not board else _postflop(board, k)
    return np.clip(e, 0.001, 0.999)


def _sigmoid(x):
    return 1 / (1 + np.exp(-np.clip(x, -30, 30)))


def _likelihood(kind: str, s, live: int, price: int, pot: int):
    """How likely the model opponent with equity ``s`` (an array over hands) takes action ``kind``."""
    share = s * live
    if kind == "check":
        p = 1 - _sigmoid((share - MODEL_BET) / MODEL_SOFT)
    elif kind == "bet":
        p = _sigmoid((share - MODEL_BET) / MODEL_SOFT)
    elif kind == "raise":
        p = _sigmoid((share - MODEL_RAISE) / MODEL_SOFT)
    elif kind == "call":
        odds = price / (pot + price) if price else 0.0
        p = _sigmoid((s - odds) / MODEL_SOFT) * (1 - _sigmoid((share - MODEL_RAISE) / MODEL_SOFT))
    else:  # a shove (all in for more than a raise) or a fold with nothing to call: not its style
        p = 0.0
    return MODEL_FLOOR + (1 - MODEL_FLOOR) * p


def _options(price: int, chips: int, bb: int) -> int:
    """How many actions ``legal_actions`` offers a seat with ``chips`` behind and ``price`` to call."""
    return 2 + (price == 0 or chips > price) + (chips > price + bb)


def _event(last: dict, obs: dict) -> tuple:
    """The action between two consecutive observations of a hand: (street, seat index, kind, price to call,
    pot, players in, legal actions it had)."""
    before = last["seats"]
    j = next(k for k, d in enumerate(before) if d["seat"] == last["to_move"])
    old, new = before[j], obs["seats"][j]
    price = max(d["bet"] for d in before) - old["bet"]
    pot = sum(d["total"] for d in before)
    live = sum(d["status"] in ("active", "all_in") for d in before)
    put = new["total"] - old["total"]
    if new["status"] == "folded":
        kind = "fold"
    elif new["chips"] == 0 and put > price + last["big_blind"]:
        kind = "shove"
    elif new["raises"] > old["raises"]:
        kind = "raise" if price else "bet"
    elif put == 0:
        kind = "check"
    else:
        kind = "call"
    return STREETS.index(last["street"]), j, kind, price, pot, live, _options(price, old["chips"], last["big_blind"])


def _odd(event) -> bool:
    """An action a straightforward player never takes: a shove, or a fold when it could check."""
    return event[2] == "shove" or (event[2] == "fold" and event[3] == 0)


class StrongBot(Bot):
    level = "strong"

    def __init__(self, game, seat, **kwargs):
        super().__init__(game, seat, **kwargs)
        self._last = None  # the last observation seen
        self._events = None  # this hand's actions so far; None if some were missed
        self._odd = {}  # seat index -> odd actions seen in earlier hands of the game
        self.last_values = {}  # the last choice's options and their values in chips (for tests and tuning)

    def observe(self, state):
        self._see(state.observation(self.seat))

    def _see(self, obs: dict) -> None:
        last = self._last
        if last is not None and obs["hand"] == last["hand"] and obs["turn"] == last["turn"]:
            return
        if last is None or obs["hand"] != last["hand"]:
            for event in self._events or ():
                if _odd(event):
                    self._odd[event[1]] = self._odd.get(event[1], 0) + 1
            fresh = obs["street"] == "preflop" and not any(d["acted"] or d["status"] == "folded"
                                                           for d in obs["seats"])
            self._events = [] if fresh else None
        elif obs["turn"] != last["turn"] + 1 or obs["result"] is not None:
            self._events = None
        elif self._events is not None and last["to_move"] is not None:
            self._events.append(_event(last, obs))
        self._last = obs

    # --- ranges ------------------------------------------------------------------------------------------
    def _ranges(self, obs, board, opps, valid) -> list[tuple[np.ndarray, float]]:
        """Each opponent's range if it plays as the model says (weights over the 1326 hands, summing to 1),
        and the chance that it plays at random instead (then any hand is as likely)."""
        cache = {}

        def s_at(street, k):
            key = (street, k)
            if key not in cache:
                cache[key] = strength(tuple(board[:(0, 3, 4, 5)[street]]), k)
            return cache[key]

        seats = obs["seats"]
        out = []
        for j in opps:
            w = valid.astype(float)
            log_random = 0.0  # the log likelihood of its actions if it plays at random
            if self._events is not None:
                raised = set()
                for street, who, kind, price, pot, live, options in self._events:
                    if who != j or kind == "fold":
                        continue
                    log_random -= math.log(options)
                    if kind in ("bet", "raise"):
                        if street in raised:  # a raise war tells no more than the first raise
                            continue
                        raised.add(street)
                    w *= _likelihood(kind, s_at(street, live - 1), live, price, pot)
            else:  # only what this observation shows
                street = STREETS.index(obs["street"])
                live = sum(d["status"] in ("active", "all_in") for d in seats)
                high = max(d["bet"] for d in seats)
                pot = sum(d["total"] for d in seats)
                if seats[j]["raises"]:
                    w *= _likelihood("raise", s_at(street, live - 1), live, 0, pot)
                elif seats[j]["acted"] and high and seats[j]["bet"] == high:
                    w *= _likelihood("call", s_at(street, live - 1), live, high, pot - high)
            total = w.sum()
            odds = RANDOM_PRIOR / (1 - RANDOM_PRIOR) * ODD_ACTION ** self._odd.get(j, 0)
            model = total / valid.sum()  # the likelihood of its actions under the model, any hand
            random = min(1.0, odds * math.exp(log_random) / (odds * math.exp(log_random) + model))
            out.append((w / total if total > 0 else valid / valid.sum(), random))
        return out

    # --- the choice --------------------------------------------------------------------------------------
    def choose(self, state):
        started = time.perf_counter()
        obs = state.observation(self.seat)
        self._see(obs)
        legal = state.legal_actions(self.seat)
        self.last_values = {}
        if len(legal) == 1:
            return legal[0]
        budget = DEFAULT_SECONDS["strong"] if self.seconds is None else self.seconds
        seats = obs["seats"]
        n = len(seats)
        i = next(k for k, d in enumerate(seats) if d["seat"] == self.seat)
        hole = [CARD_ID[c] for c in seats[i]["cards"]]
        board = [CARD_ID[c] for c in obs["board"]]
        live = [k for k, d in enumerate(seats) if d["status"] in ("active", "all_in")]
        opps = [(i + d) % n for d in range(1, n) if (i + d) % n in live]
        if not opps:
            return _pick(legal, "check", "call", "all_in")
        valid = ~(np.isin(_CARD_A, hole + board) | np.isin(_CARD_B, hole + board))
        ranges = self._ranges(obs, board, opps, valid)
        gen = np.random.default_rng(self.rng.getrandbits(64))
        m = len(opps)
        want = min(MAX_SAMPLES, max(MIN_SAMPLES, int(budget * SAMPLE_RATE / (m + 1))))
        # the opponents' hands (and whether each plays at random), without repeated cards
        draws = int(want * 1.3) + 16
        anyone = np.flatnonzero(valid)
        picks, randoms = [], []
        for weights, random in ranges:
            at_random = gen.random(draws) < random
            picks.append(np.where(at_random, gen.choice(anyone, size=draws),
                                  gen.choice(len(_PAIRS), size=draws, p=weights)))
            randoms.append(at_random)
        picks, randoms = np.stack(picks, axis=1), np.stack(randoms, axis=1)
        if m > 1:
            cards = np.sort(np.concatenate([_CARD_A[picks], _CARD_B[picks]], axis=1), axis=1)
            keep = (np.diff(cards, axis=1) != 0).all(axis=1)
            picks, randoms = picks[keep], randoms[keep]
        picks, randoms = picks[:want], randoms[:want]
        count = len(picks)
        # the board to come
        missing = 5 - len(board)
        rows = np.arange(count)
        if missing:
            keys = gen.random((count, 52))
            keys[:, hole + board] = 2.0
            for c in range(m):
                keys[rows, _CARD_A[picks[:, c]]] = 2.0
                keys[rows, _CARD_B[picks[:, c]]] = 2.0
            fills = np.argpartition(keys, missing - 1, axis=1)[:, :missing].tolist()
        else:
            fills = [()] * count
        # showdown ranks, in chunks until done or the safety stop
        mine, theirs = [], [[] for _ in opps]
        b = tuple(board)
        h0, h1 = hole
        cols = [(_CARD_A[picks[:, c]].tolist(), _CARD_B[picks[:, c]].tolist()) for c in range(m)]
        river = _board_tables(b)[1] if not missing else None
        done = 0
        while done < count:
            end = min(count, done + 256)
            part = fills[done:end]
            mine += [evaluate_cards(h0, h1, *b, *f) for f in part]
            for c in range(m):
                if river is not None:
                    theirs[c] += river[picks[done:end, c]].tolist()
                else:
                    xs, ys = cols[c]
                    theirs[c] += [evaluate_cards(x, y, *b, *f) for x, y, f in zip(xs[done:end], ys[done:end], part)]
            done = end
            if time.perf_counter() > started + SAFETY * budget:
                break
        picks, randoms = picks[:done], randoms[:done]
        deals = {
            "mine": np.array(mine, float), "theirs": np.array(theirs, float).T,
            "s": strength(b, len(live) - 1)[picks] + gen.normal(0.0, MODEL_NOISE, picks.shape),
            "random": randoms, "dice": gen.random((3,) + picks.shape),
        }
        return self._decide(obs, legal, i, opps, deals)

    def _decide(self, obs, legal, i, opps, deals):
        """The legal action whose simulated round is worth the most chips."""
        seats = obs["seats"]
        order = [i] + opps
        table = {
            "pot": sum(d["total"] for d in seats), "bb": obs["big_blind"],
            "bets": np.array([seats[k]["bet"] for k in order], float),
            "chips": np.array([seats[k]["chips"] for k in order], float),
            "acted": np.array([seats[k]["acted"] for k in order]),
            "streets_left": 3 - STREETS.index(obs["street"]),
        }
        price = max(d["bet"] for d in seats) - seats[i]["bet"]
        passive = _pick(legal, "check", "call") or "all_in"
        aggressive = _pick(legal, "bet", "raise")
        values = {}
        if price > 0:
            values["fold"] = 0.0
        values[passive] = max(_play_round("call" if passive != "all_in" else "all_in", follow, table, deals)
                              for follow in ("call", "fold"))
        if aggressive:
            # bets already made this round (preflop the big blind counts as one): each asks for a margin before
            # raising again, so that an even raise war (all variance, no edge) stops at a call
            level = max(d["bet"] for d in seats) // table["bb"] - (1 if obs["street"] == "preflop" else 0)
            values[aggressive] = max(_play_round("raise", follow, table, deals) for follow in ("call", "fold")) \
                - RAISE_MARGIN * table["bb"] * max(0, level - 1)
        stack = seats[i]["chips"]
        deep = min(stack, max(seats[k]["chips"] + seats[k]["bet"] for k in opps) - seats[i]["bet"])
        if "all_in" in legal and passive != "all_in" and (deep <= ALL_IN_BLINDS * table["bb"]
                                                          or 3 * (price + table["bb"]) >= stack):
            values["all_in"] = _play_round("all_in", "call", table, deals)
        self.last_values = values
        return max(values, key=values.get)


def _play_round(first: str, follow: str, table: dict, deals: dict) -> float:
    """The mean chips won (minus chips put in from now) over the deals if the bot opens with ``first``
    ("call": check or call, "raise": bet or raise, "all_in") and answers any later bet with ``follow``
    ("call" or "fold"), the opponents replying as the model says (or at random, those drawn as random
    players), the hand scored at the end of the round as if it went to showdown, plus ``FUTURE_BETS`` a
    street to come. Column 0 of the arrays is the bot, then the opponents in acting order."""
    my_rank, opp_rank, s, at_random, dice = deals["mine"], deals["theirs"], deals["s"], deals["random"], deals["dice"]
    count, m = s.shape
    bb, pot = table["bb"], table["pot"]
    bet = np.tile(table["bets"], (count, 1))
    left = np.tile(table["chips"], (count, 1))
    acted = np.tile(table["acted"], (count, 1))
    folded = np.zeros((count, m + 1), bool)
    put = np.zeros((count, m + 1))
    high = bet.max(axis=1)
    raises = np.zeros(count)
    share = s * (m + 1)

    def pay(p, mask, amount):
        amount = np.where(mask, np.minimum(amount, left[:, p]), 0.0)
        bet[:, p] += amount
        put[:, p] += amount
        left[:, p] -= amount
        up = bet[:, p] > high
        if up.any():
            np.maximum(high, bet[:, p], out=high)
            acted[up] = False
            raises[up] += 1
        acted[mask, p] = True

    everyone = np.ones(count, bool)
    pay(0, everyone, left[:, 0] if first == "all_in" else high - bet[:, 0] + (bb if first == "raise" else 0))
    raises[:] = 0
    for lap in range(3):
        for p in range(1, m + 1):
            need = ~folded[:, p] & (left[:, p] > 0) & ((bet[:, p] < high) | ~acted[:, p])
            if not need.any():
                continue
            cost = high - bet[:, p]
            odds = cost / (pot + put.sum(axis=1) + cost)
            can_raise = (raises < ROUND_RAISES) & (left[:, p] > cost + bb)
            # the model player
            fold = (cost > 0) & (s[:, p - 1] < odds)
            agg = ~fold & can_raise & (share[:, p - 1] > np.where(cost > 0, MODEL_RAISE, MODEL_BET))
            shove = np.zeros(count, bool)
            # the random player: fold, check or call, bet or raise, all in, whichever are legal
            rnd = at_random[:, p - 1]
            can_pass = (cost == 0) | (left[:, p] > cost)
            options = 2 + can_pass + (left[:, p] > cost + bb)
            pick = np.floor(dice[lap, :, p - 1] * options)
            fold = np.where(rnd, pick == 0, fold)
            agg = np.where(rnd, can_raise & (pick == 1 + can_pass) & (pick < options - 1), agg)
            shove = rnd & (pick == options - 1)
            fold &= need
            agg &= need
            shove &= need
            folded[fold, p] = True
            acted[fold, p] = True
            pay(p, agg, cost + bb)
            pay(p, shove, left[:, p])
            pay(p, need & ~fold & ~agg & ~shove, cost)
        need = ~folded[:, 0] & (left[:, 0] > 0) & (bet[:, 0] < high)
        if need.any():
            if follow == "call":
                pay(0, need, high - bet[:, 0])
            else:
                folded[need, 0] = True
    alive = ~folded[:, 1:]
    ranks = np.where(alive, opp_rank, np.inf)
    best = ranks.min(axis=1)
    ties = (ranks == my_rank[:, None]).sum(axis=1)
    win = np.where(my_rank < best, 1.0, np.where(my_rank == best, 1 / (1 + ties), 0.0))
    # chips of ours that no one still in could match come back
    refund = np.where(alive.any(axis=1), np.maximum(0.0, bet[:, 0] - np.where(alive, bet[:, 1:], 0).max(axis=1)), 0)
    value = np.where(folded[:, 0], 0.0, win * (pot + put.sum(axis=1) - refund)) - (put[:, 0] - refund)
    if table["streets_left"] and FUTURE_BETS:
        # later streets: about FUTURE_BETS bets a street, won by the better hand
        callers = alive.sum(axis=1)
        future = FUTURE_BETS * table["streets_left"] * bb * (win * (callers + 1) - 1)
        value += np.where(folded[:, 0] | (callers == 0) | (left[:, 0] <= 0), 0.0, future)
    return float(value.mean())


BOTS = {"greedy": GreedyBot, "strong": StrongBot}


ANALYSIS_SCALE = 10.0  # big blinds of expected gain that make a value of about 0.76
EXACT_SECONDS = 1e6  # the analysis' bot budget: the most deals (MAX_SAMPLES) and no clock, so it is repeatable


class _SeatView:
    """A state as one seat sees it: its observation and its legal actions, nothing else, so that an analysis
    of its decision cannot read a card it did not see."""

    def __init__(self, state, seat: str):
        self.seat, self._obs, self._legal = seat, state.observation(seat), state.legal_actions(seat)

    def observation(self, seat):
        if seat != self.seat:
            raise PermissionError(f"the analysis of {self.seat}'s decision may not look through {seat}'s eyes")
        return self._obs

    def legal_actions(self, seat):
        self.observation(seat)
        return self._legal


def shown_later(seat: str, later: list) -> bool:
    """Whether the hand in play ends in a showdown that shows ``seat``'s cards (``later``: the public events
    of each turn after this position)."""
    for events in later:
        for event in events:
            if "showdown" in event:
                return seat in event["showdown"]
            if "hand_start" in event:
                return False
    return False


def analyse(state, seconds: float | None = None, *, seen=None, actual=None, later=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the acting seat's options (fold, check or call, bet or raise,
    all in) valued in chips by the strong bot's simulation from that seat's observation only (its own cards
    and the public ones: ``_SeatView``), seeded by that observation. Given only for a decision whose cards
    the hand's showdown showed (``later``), so that nothing a spectator never saw is told; a position
    waiting for a card, or a decision kept secret, has no value (``withheld``: the seat). The bot draws its
    most deals (``MAX_SAMPLES``) whatever ``seconds`` says, with no clock, so the answer is repeatable."""
    from games.bots.review import Look, review, squash

    game = state.game
    empty = {"value": None, "values": {}, "strategies": {}, "candidates": {}, "legal": {}, "width": None}
    if not state.is_terminal() and not state.is_chance_node():
        mover = state.players_to_act()[0]
        if not shown_later(mover, later or []):
            return {**empty, "withheld": mover}

    def look(s, best: bool) -> Look:
        if not best:
            return Look({})
        mover = s.players_to_act()[0]
        view = _SeatView(s, mover)
        bb = view.observation(mover)["big_blind"]
        seed = zlib.crc32(json.dumps(view.observation(mover), sort_keys=True).encode())
        bot = StrongBot(game, mover, seed=seed, seconds=EXACT_SECONDS)
        move = bot.choose(view)
        chips = bot.last_values or {move: 0.0}
        note = " · ".join(f"{a.replace('_', ' ')} {v / bb:+.1f} bb"
                          for a, v in sorted(chips.items(), key=lambda t: -t[1]))
        options = [(a, squash(v / bb, ANALYSIS_SCALE)) for a, v in chips.items()]
        top = squash(chips[move] / bb, ANALYSIS_SCALE)
        return Look({mover: top}, move, options=options, after=top, note=note)
    if state.is_terminal():
        return empty
    return review(game, state, look, actual)
