"""The alpha-beta bot (and the generic greedy bot) on small alternating games defined here through the engine
interface: Nim, a Nim where emptying a heap earns another move, and tic-tac-toe. Exact minimax solvers check
that the bot finds forced wins, never loses a won position, and never returns an illegal action."""
import functools
import itertools
import random
import time
from types import SimpleNamespace

import pytest

from games.bots import make_bot
from games.bots.alphabeta import AlphaBetaBot
from games.bots.greedy import GreedyBot
from games.engine import Game, GameInfo, IllegalAction, Result, State, Turn

WIN = 100000.0


# --- Nim (normal play: who takes the last object wins) ------------------------------------------------

class Nim(Game):
    """Heaps of objects; a move takes any number from one heap. With ``bonus``, a move that empties a heap
    (and leaves objects elsewhere) is followed by another move of the same seat."""

    def __init__(self, heaps=(3, 4, 5), bonus=False):
        self.heaps, self.bonus = tuple(heaps), bonus
        self.info = GameInfo("test-nim", "Nim", ("first", "second"), simultaneous=False)

    def new_initial_state(self):
        return NimState(self, self.heaps, 0)

    def action_to_json(self, action):
        return list(action)

    def action_from_json(self, data, player=None):
        if not (isinstance(data, list) and len(data) == 2 and all(type(x) is int for x in data)):
            raise IllegalAction(player, data, "malformed: [heap, count]")
        return tuple(data)

    def action_to_text(self, action):
        return f"take {action[1]} from heap {action[0]}"


class NimState(State):
    def __init__(self, game, heaps, mover, history=()):
        self.game, self.heaps, self.mover, self.history = game, tuple(heaps), mover, list(history)

    def players_to_act(self):
        return [] if self.is_terminal() else [self.game.info.players[self.mover]]

    def is_terminal(self):
        return not any(self.heaps)

    def result(self):
        if not self.is_terminal():
            return None
        winner = self.game.info.players[self.history[-1][0]] if self.history else None
        return Result.shared(self.game.info.players, [winner] if winner else [], f"winner: {winner}")

    def legal_actions(self, player):
        if self.players_to_act() != [player]:
            return []
        return [(i, k) for i, h in enumerate(self.heaps) for k in range(1, h + 1)]

    def check_action(self, player, action):
        if self.players_to_act() != [player]:
            raise IllegalAction(player, action, "not to act")
        if action not in self.legal_actions(player):
            raise IllegalAction(player, action, "no such move")

    def apply_actions(self, actions):
        if list(actions) != self.players_to_act():
            raise IllegalAction(None, actions, "wrong seats")
        (player, action), = actions.items()
        self.check_action(player, action)
        i, k = action
        heaps = list(self.heaps)
        heaps[i] -= k
        self.heaps = tuple(heaps)
        self.history.append((self.mover, action))
        again = self.game.bonus and heaps[i] == 0 and any(heaps)
        if not again:
            self.mover = 1 - self.mover
        return Turn(len(self.history), {player: action})

    def clone(self):
        return NimState(self.game, self.heaps, self.mover, self.history)

    def to_json(self):
        return {"heaps": list(self.heaps), "mover": self.mover}

    def to_text(self):
        return f"{self.heaps} {self.game.info.players[self.mover]} to move"


nim_eval = SimpleNamespace(
    WIN=WIN,
    evaluate=lambda state, seat: _terminal_value(state, seat),
    position_key=lambda state: (state.heaps, state.mover),
    order_actions=lambda state, seat, actions: sorted(actions, key=lambda a: -a[1]),  # big takes first
)


def _terminal_value(state, seat):
    res = state.result()
    if res is None or not res.winners:
        return 0.0
    return WIN if seat in res.winners else -WIN


@functools.lru_cache(maxsize=None)
def nim_solve(heaps, mover_is_first, bonus):
    """+1 if the seat to move wins with best play, else -1 (tracked for the given rules)."""
    game = Nim(heaps, bonus)
    state = NimState(game, heaps, 0 if mover_is_first else 1)
    best = -1
    for action in state.legal_actions(state.players_to_act()[0]):
        child = state.clone()
        child.apply_action(child.players_to_act()[0], action)
        if child.is_terminal():
            return 1
        same = child.mover == state.mover
        v = nim_solve(child.heaps, child.mover == 0, bonus)
        best = max(best, v if same else -v)
    return best


def winning_moves(state, bonus):
    out = []
    for action in state.legal_actions(state.players_to_act()[0]):
        child = state.clone()
        child.apply_action(child.players_to_act()[0], action)
        if child.is_terminal():
            out.append(action)
            continue
        v = nim_solve(child.heaps, child.mover == 0, bonus)
        if (v if child.mover == state.mover else -v) == 1:
            out.append(action)
    return out


def nim_position(heaps, mover=0, bonus=False):
    game = Nim(heaps, bonus)
    return game, NimState(game, heaps, mover)


def ab(game, seat, evaluation=nim_eval, seed=0, seconds=5.0, **kw):
    return AlphaBetaBot(game, seat, seed=seed, seconds=seconds, evaluation=evaluation, **kw)


# --- tic-tac-toe ----------------------------------------------------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe(Game):
    info = GameInfo("test-ttt", "Tic-tac-toe", ("x", "o"), simultaneous=False, max_turns=9)

    def new_initial_state(self):
        return TTTState(self, (None,) * 9)

    def action_to_json(self, action):
        return action

    def action_from_json(self, data, player=None):
        if type(data) is not int:
            raise IllegalAction(player, data, "malformed: a cell 0-8")
        return data

    def action_to_text(self, action):
        return str(action)


class TTTState(State):
    def __init__(self, game, board):
        self.game, self.board = game, tuple(board)

    def winner(self):
        for a, b, c in LINES:
            if self.board[a] and self.board[a] == self.board[b] == self.board[c]:
                return self.board[a]
        return None

    def is_terminal(self):
        return self.winner() is not None or all(self.board)

    def players_to_act(self):
        if self.is_terminal():
            return []
        return ["x" if sum(1 for c in self.board if c) % 2 == 0 else "o"]

    def result(self):
        if not self.is_terminal():
            return None
        w = self.winner()
        return Result.shared(("x", "o"), [w] if w else [], f"winner: {w}" if w else "draw")

    def legal_actions(self, player):
        if self.players_to_act() != [player]:
            return []
        return [i for i in range(9) if not self.board[i]]

    def check_action(self, player, action):
        if action not in self.legal_actions(player):
            raise IllegalAction(player, action, "not a free cell or not to act")

    def apply_actions(self, actions):
        if list(actions) != self.players_to_act():
            raise IllegalAction(None, actions, "wrong seats")
        (player, action), = actions.items()
        self.check_action(player, action)
        board = list(self.board)
        board[action] = player
        self.board = tuple(board)
        return Turn(sum(1 for c in board if c), {player: action})

    def clone(self):
        return TTTState(self.game, self.board)

    def to_json(self):
        return list(self.board)

    def to_text(self):
        return "".join(c or "." for c in self.board)


def ttt_evaluate(state, seat):
    if state.is_terminal():
        return _terminal_value(state, seat)
    other = "o" if seat == "x" else "x"
    score = 0.0
    for line in LINES:  # open lines
        cells = [state.board[i] for i in line]
        if other not in cells:
            score += cells.count(seat)
        if seat not in cells:
            score -= cells.count(other)
    return score


ttt_eval = SimpleNamespace(
    evaluate=ttt_evaluate,
    position_key=lambda state: (state.board, tuple(state.players_to_act())),
    order_actions=lambda state, seat, actions: sorted(actions, key=lambda a: (a != 4, a % 2)),
)


@functools.lru_cache(maxsize=None)
def ttt_value(board):
    """+1/0/-1 for the seat to move with best play."""
    state = TTTState(TTT, board)
    if state.is_terminal():
        w = state.winner()
        return 0 if w is None else -1  # the previous mover made the line
    seat = state.players_to_act()[0]
    best = -2
    for a in state.legal_actions(seat):
        child = state.clone()
        child.apply_action(seat, a)
        best = max(best, -ttt_value(child.board))
    return best


TTT = TicTacToe()


# --- forced wins ------------------------------------------------------------------------------------

def test_wins_in_one_ply():
    # (0, 0, 3): only taking all three wins at once (taking fewer loses).
    game, state = nim_position((0, 0, 3))
    for seed in range(5):
        bot = ab(game, "first", seed=seed)
        assert bot.choose(state) == (2, 3)
        assert bot.stats["value"] == WIN - 1


def test_prefers_the_quickest_win():
    # x: 4, 6; o: 7, 8; x to move. 2 wins at once; 0, 3 and 5 win too, but later.
    board = (None, None, None, None, "x", None, "x", "o", "o")
    for seed in range(6):
        bot = ab(TTT, "x", evaluation=ttt_eval, seed=seed)
        assert bot.choose(TTTState(TTT, board)) == 2
        assert bot.stats["value"] == WIN - 1
    # with the bonus rule, (1, 3) is won at ply 2 (empty a heap, move again, take the rest)
    game, state = nim_position((1, 3), bonus=True)
    bot = ab(game, "first")
    assert bot.choose(state) in [(0, 1), (1, 3)]
    assert bot.stats["value"] == WIN - 2


def test_wins_in_three_plies_with_the_unique_move():
    # (1, 2): only (1, 1) -> (1, 1) wins (xor 0); the opponent takes one, the bot the last.
    game, state = nim_position((1, 2))
    assert winning_moves(state, False) == [(1, 1)]
    for seed in range(5):
        bot = ab(game, "first", seed=seed)
        assert bot.choose(state) == (1, 1)
        assert bot.stats["value"] == WIN - 3
    # the same from the second seat's point of view
    game, state = nim_position((2, 0, 1), mover=1)
    assert winning_moves(state, False) == [(0, 1)]
    assert ab(game, "second").choose(state) == (0, 1)


def test_a_lost_position_is_lost_as_late_as_possible():
    # (1, 1): every move loses at ply 2; (2, 2): every move loses, the longest line takes 4 plies.
    game, state = nim_position((2, 2))
    bot = ab(game, "first")
    move = bot.choose(state)
    assert move in [(0, 1), (1, 1)]  # taking 2 loses at once (the opponent takes the other heap)
    assert bot.stats["value"] == -(WIN - 4)


@pytest.mark.parametrize("bonus", [False, True])
def test_finds_a_winning_move_whenever_there_is_one(bonus):
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        heaps = tuple(rng.randrange(0, 5) for _ in range(3))
        if not any(heaps):
            continue
        mover = rng.randrange(2)
        game, state = nim_position(heaps, mover, bonus)
        seat = game.info.players[mover]
        good = winning_moves(state, bonus)
        move = ab(game, seat, seed=rng.randrange(100)).choose(state)
        assert move in state.legal_actions(seat)
        if good:
            checked += 1
            assert move in good, (heaps, mover, move, good)
    assert checked > 20


def test_a_seat_moving_twice_in_a_row_is_searched_from_its_own_side():
    # (1, 1) with the bonus rule: emptying a heap with another left means moving again, so the mover takes
    # both and wins at ply 2; without it, the opponent takes the last one.
    game, state = nim_position((1, 1), bonus=True)
    bot = ab(game, "first")
    assert bot.choose(state) in [(0, 1), (1, 1)]
    assert bot.stats["value"] == WIN - 2
    game, state = nim_position((1, 1), bonus=False)
    bot = ab(game, "first")
    bot.choose(state)
    assert bot.stats["value"] == -(WIN - 2)


# --- legality, time, determinism -------------------------------------------------------------------

def test_never_returns_an_illegal_action_even_with_almost_no_time():
    rng = random.Random(1)
    for seconds in (0.0, 0.001, 0.05):
        for _ in range(10):
            heaps = tuple(rng.randrange(1, 9) for _ in range(4))
            game, state = nim_position(heaps, rng.randrange(2), bonus=rng.random() < 0.5)
            seat = state.players_to_act()[0]
            move = ab(game, seat, seconds=seconds, seed=rng.randrange(99)).choose(state)
            state.check_action(seat, move)
    state = TTT.new_initial_state()
    while not state.is_terminal():
        seat = state.players_to_act()[0]
        move = ab(TTT, seat, evaluation=ttt_eval, seconds=0.0).choose(state)
        state.apply_action(seat, move)


def test_respects_the_time_budget():
    game, state = nim_position((9, 10, 11, 12, 13, 14))  # far too big to solve: the clock stops the search
    bot = ab(game, "first", seconds=0.2)
    started = time.perf_counter()
    move = bot.choose(state)
    elapsed = time.perf_counter() - started
    assert move in state.legal_actions("first")
    assert elapsed < 1.0
    assert bot.stats["depth"] >= 1 and bot.stats["nodes"] > 0
    assert bot.stats["seconds"] <= elapsed


def test_stops_early_when_the_game_is_solved():
    bot = ab(TTT, "x", evaluation=ttt_eval, seconds=30.0)
    started = time.perf_counter()
    bot.choose(TTT.new_initial_state())
    assert time.perf_counter() - started < 10.0
    assert bot.stats["value"] == 0.0 and not bot.stats["partial"]


def test_deterministic_with_a_seed():
    def moves(seed):
        state = TTT.new_initial_state()
        bots = {s: ab(TTT, s, evaluation=ttt_eval, seed=seed) for s in ("x", "o")}
        out = []
        while not state.is_terminal():
            seat = state.players_to_act()[0]
            out.append(bots[seat].choose(state))
            state.apply_action(seat, out[-1])
        return out

    assert moves(3) == moves(3)
    game, state = nim_position((2, 3, 4))
    picks = {ab(game, "first", seed=7).choose(state) for _ in range(3)}
    assert len(picks) == 1


def test_one_legal_action_is_returned_at_once():
    game, state = nim_position((0, 1))
    bot = ab(game, "first")
    assert bot.choose(state) == (1, 1)


def test_refuses_a_seat_that_is_not_to_act():
    game, state = nim_position((1, 2))
    with pytest.raises(ValueError):
        ab(game, "second").choose(state)


# --- perfect play against random -----------------------------------------------------------------------

def test_perfect_nim_against_random():
    rng = random.Random(2)
    for n in range(8):
        heaps = (3, 4, 5) if n % 2 == 0 else (2, 5, 6)  # xor != 0: the first seat wins
        game = Nim(heaps)
        state = game.new_initial_state()
        bot = ab(game, "first", seed=n, seconds=2.0)
        while not state.is_terminal():
            seat = state.players_to_act()[0]
            if seat == "first":
                move = bot.choose(state)
            else:
                move = rng.choice(state.legal_actions(seat))
            state.apply_action(seat, move)
        assert state.result().winners == ["first"]


def test_perfect_tic_tac_toe_against_random():
    rng = random.Random(3)
    for n in range(6):
        seat_of_bot = ("x", "o")[n % 2]
        bot = ab(TTT, seat_of_bot, evaluation=ttt_eval, seed=n)
        state = TTT.new_initial_state()
        while not state.is_terminal():
            seat = state.players_to_act()[0]
            if seat == seat_of_bot:
                before = ttt_value(state.board)
                move = bot.choose(state)
                state.apply_action(seat, move)
                after = 0 if state.is_terminal() and state.winner() is None else (
                    1 if state.winner() == seat else -ttt_value(state.board))
                assert after == before, (state.to_text(), move)  # never gives away value
            else:
                state.apply_action(seat, rng.choice(state.legal_actions(seat)))
        assert state.winner() != ("o" if seat_of_bot == "x" else "x")


def test_tic_tac_toe_self_play_is_a_draw():
    state = TTT.new_initial_state()
    bots = {s: ab(TTT, s, evaluation=ttt_eval, seed=11) for s in ("x", "o")}
    while not state.is_terminal():
        seat = state.players_to_act()[0]
        state.apply_action(seat, bots[seat].choose(state))
    assert state.winner() is None


def test_takes_a_win_and_blocks_a_loss_in_tic_tac_toe():
    # x: 0, 1; o: 3, 4; x to move: 2 wins now.
    board = ("x", "x", None, "o", "o", None, None, None, None)
    assert ab(TTT, "x", evaluation=ttt_eval).choose(TTTState(TTT, board)) == 2
    # x: 0, 8; o: 4, 3 ... o threatens 5: x must block there (x has no win of its own).
    board = ("x", None, None, "o", "o", None, None, None, "x")
    assert ab(TTT, "x", evaluation=ttt_eval).choose(TTTState(TTT, board)) == 5


# --- greedy, generic ----------------------------------------------------------------------------------

def test_greedy_scores_children_with_evaluate():
    game, state = nim_position((0, 0, 3))
    for seed in range(5):
        assert GreedyBot(game, "first", seed=seed, evaluation=nim_eval).choose(state) == (2, 3)
    board = ("x", "x", None, "o", "o", None, None, None, None)
    assert GreedyBot(TTT, "o", seed=1, evaluation=ttt_eval).choose(TTTState(TTT, (
        "x", "x", None, "o", "o", None, "x", None, None))) == 5
    picks = {GreedyBot(TTT, "x", seed=s, evaluation=ttt_eval).choose(TTTState(TTT, board)) for s in range(3)}
    assert picks == {2}


def test_greedy_breaks_ties_with_its_seed():
    state = TTT.new_initial_state()
    flat = SimpleNamespace(evaluate=lambda s, seat: 0.0)
    picks = [GreedyBot(TTT, "x", seed=s, evaluation=flat).choose(state) for s in range(12)]
    assert len(set(picks)) > 1
    assert picks == [GreedyBot(TTT, "x", seed=s, evaluation=flat).choose(state) for s in range(12)]


# --- the registered alternating games, if any ----------------------------------------------------------

def _alternating_games():
    from games.engine import load_game, registered_names
    out = []
    for name in registered_names():
        try:
            game = load_game(name)
        except Exception:  # pragma: no cover - a package being written
            continue
        if not game.info.simultaneous and len(game.info.players) == 2:
            out.append(name)
    return out


@pytest.mark.parametrize("name", _alternating_games())
@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_registered_games_play_legally(name, level):
    from games.bots import get_evaluation
    from games.engine import load_game
    try:
        get_evaluation(name)
    except KeyError:
        pytest.skip(f"{name} has no evaluation (bots module) yet")
    game = load_game(name)
    state = game.new_initial_state()
    bots = {seat: make_bot(level, game, seat, seed=i, seconds=0.1) for i, seat in enumerate(game.info.players)}
    for _ in range(6):
        if state.is_terminal():
            break
        seat = state.players_to_act()[0]
        move = bots[seat].choose(state)
        assert move in list(state.legal_actions(seat))
        state.apply_action(seat, move)
