"""Ready-made looks (:mod:`games.bots.review`) for the common kinds of game, so that a game's ``analyse`` is a
few lines: alpha-beta on the game's evaluation (two seats taking turns), a playout of the best bot (one seat:
the moves it needs to finish), and the fallback for a game whose bots module has no ``analyse``."""
from __future__ import annotations

from .review import Look, result_values, review, searched, zero_sum

SEED = 0  # the analysis' bots are seeded alike, so the same position gets the same answer (up to the clock)
DISTANCE_SCALE = 15.0  # one seat: the value 1 - moves/this (solved now 1, this many moves to go 0 .. -1)
PLAYOUT_CAP = 200  # moves a playout may take before it counts as not finishing


def alphabeta_look(game, seconds: float, scale: float, evaluation=None):
    """Alpha-beta (``games.bots.alphabeta``, the generic strong bot) on the game's ``evaluate`` for the seat
    to act: its choice, and its score as a value (wins ±1, the rest ``tanh(score / scale)``). What a move
    gave away compares the positions after the best move and after the move played, each searched the same
    way (the root's own score, from a search one ply deeper, would swing with the depth's parity)."""
    from .alphabeta import WIN, AlphaBetaBot
    from .evaluation import get_evaluation

    to_value = searched(float(getattr(evaluation or get_evaluation(game.info.name), "WIN", WIN)), scale)

    def look(state, best: bool) -> Look:
        mover = state.players_to_act()[0]
        bot = AlphaBetaBot(game, mover, seed=SEED, seconds=seconds, evaluation=evaluation)
        action = bot.choose(state)
        score = bot.stats.get("value")
        if score is None:  # one legal action: the value is the position's after it
            child = state.clone()
            child.apply_action(mover, action)
            v = result_values(game, child)[mover] if child.is_terminal() else look(child, False).values[mover]
        else:
            v = to_value(score)
        return Look(zero_sum(game, mover, v), action)  # the best move's value: its position searched alike
    return look


def distance_value(moves: int | None) -> float:
    """One seat's value from the moves it needs to finish (None: it cannot, or not within the cap)."""
    return -1.0 if moves is None else max(-1.0, 1.0 - moves / DISTANCE_SCALE)


def playout_look(game, seconds: float, level: str):
    """One seat, no chance after the start: the best bot (``level``) plays the game out from here; the value
    is the number of moves it took (:func:`distance_value`), its first move the best one."""
    from . import make_bot

    seat = game.info.players[0]

    def look(state, best: bool) -> Look:
        if state.is_chance_node():
            return Look({})
        bot = make_bot(level, game, seat, seed=SEED, seconds=seconds)
        sim, first, moves = state.clone(), None, 0
        while not sim.is_terminal() and not sim.is_chance_node() and moves < PLAYOUT_CAP:
            action = bot.choose(sim)
            first = action if first is None else first
            sim.apply_actions({seat: action})
            moves += 1
        won = sim.is_terminal() and sim.result().returns.get(seat, 0.0) > 0.5
        d = moves if won else None
        v = distance_value(d)
        note = f"{d} move{'s' if d != 1 else ''} to finish" if won else "the best bot cannot finish from here"
        return Look({seat: v}, first, after=distance_value(d - 1) if won and d else None, note=note)
    return look


def fallback(game, state, seconds: float, actual=None) -> dict:
    """The analysis of a game whose bots module has no ``analyse``: two seats with an ``evaluate``, alpha-beta
    on it; one seat, a playout of its best level; else the best level's move with no value. A game with hidden
    information gets none (only its own ``analyse`` can know what each seat saw), nor does a simultaneous one
    (its moves are valued together: RoPaSci 360's equilibrium)."""
    from . import get_evaluation, levels_for, make_bot

    if not game.info.perfect_information or game.info.simultaneous:
        return {"value": None, "values": {}, "strategies": {}, "candidates": {}, "legal": {}, "width": None}

    levels = levels_for(game)
    level = next(lv for lv in ("perfect", "strong", "greedy", "random") if lv in levels)
    players = game.info.players
    try:
        ev = get_evaluation(game.info.name)
    except KeyError:
        ev = None
    if len(players) == 2 and not game.info.simultaneous and ev is not None and hasattr(ev, "evaluate"):
        return review(game, state, alphabeta_look(game, seconds, getattr(ev, "ANALYSIS_SCALE", 100.0)), actual)
    if len(players) == 1:
        return review(game, state, playout_look(game, seconds, level), actual)

    def look(s, best: bool) -> Look:
        if not best:
            return Look({})
        mover = s.players_to_act()[0]
        return Look({}, make_bot(level, game, mover, seed=SEED, seconds=seconds).choose(s))
    return review(game, state, look, actual)
