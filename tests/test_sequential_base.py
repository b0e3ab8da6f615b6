"""The one check of whose move it is (``games.engine.sequential``), in every registered game built on it: a
move must be a mapping with the seat to move alone, and nothing moves once the game is over. Each refusal
leaves the state as it was."""
import random

import pytest

from games.engine import IllegalAction, SequentialState, load_game, registered_names

SEQUENTIAL = [name for name in registered_names() if isinstance(load_game(name).new_initial_state(), SequentialState)]


def refusal(state, actions) -> IllegalAction:
    before = state.to_json()
    with pytest.raises(IllegalAction) as exc:
        state.apply_actions(actions)
    assert state.to_json() == before
    return exc.value


def opening(name):
    """The initial state, the seat to move, another seat and a legal action of the seat to move."""
    state = load_game(name).new_initial_state()
    seat = state.players_to_act()[0]
    other = next(s for s in state.game.info.players if s != seat)
    return state, seat, other, state.legal_actions(seat)[0]


def test_the_turn_taking_games_are_built_on_the_base():
    assert {"connect_four", "cyclotron", "hex", "nim", "nim3p", "othello", "sim", "tic_tac_toe"} <= set(SEQUENTIAL)


@pytest.mark.parametrize("name", SEQUENTIAL)
def test_only_the_seat_to_move_acts(name):
    state, seat, other, action = opening(name)
    for actions in ({other: action}, {other: action, seat: action}, {seat: action, other: action}):
        exc = refusal(state, actions)
        assert (exc.player, exc.action, exc.rule) == (other, action, f"it is {seat}'s turn")
    with pytest.raises(IllegalAction) as exc:
        state.apply_action(other, action)
    assert (exc.value.player, exc.value.rule) == (other, f"not the only seat to act (to act: {seat})")


@pytest.mark.parametrize("name", SEQUENTIAL)
@pytest.mark.parametrize("actions", [None, [], "x", {}, {"nobody": 0}], ids=repr)
def test_a_move_is_a_mapping_from_the_seat_to_move_alone(name, actions):
    state, seat, _, _ = opening(name)
    exc = refusal(state, actions)
    assert (exc.player, exc.action) == (None, actions)
    assert exc.rule == f"a move takes exactly one action, from {seat} (to move)"


@pytest.mark.parametrize("name", SEQUENTIAL)
def test_the_seat_to_move_moves_and_nothing_moves_after_the_end(name):
    state, seat, _, action = opening(name)
    rnd = random.Random(1)
    turn = state.apply_actions({seat: action})
    assert turn.number == 1 and list(turn.actions) == [seat]
    while not state.is_terminal():
        mover = state.players_to_act()[0]
        state.apply_action(mover, rnd.choice(list(state.legal_actions(mover))))
    for anyone in state.game.info.players:
        exc = refusal(state, {anyone: action})
        assert (exc.player, exc.action, exc.rule) == (None, {anyone: action}, "the game is over")
