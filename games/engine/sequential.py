"""The base of a game whose seats take turns: the check that only the seat to move acts, written once.

A state of such a game subclasses :class:`SequentialState` and gives ``_apply_move(seat, action)``: validate
the action of the seat to move (IllegalAction before changing anything) and apply it. ``players_to_act`` must
be ``[]`` exactly when the game is over and one seat otherwise: the base knows no chance nodes, so games with
them (2048, the cube, poker) keep their own ``apply_actions``.
"""
from __future__ import annotations

from collections.abc import Mapping

from .api import Action, IllegalAction, State, Turn


class SequentialState(State):
    """A state of a game where one seat moves at a time, one action per move."""

    __slots__ = ()  # the games' states declare theirs

    def apply_actions(self, actions: Mapping[str, Action]) -> Turn:
        """One move: ``{seat to move: action}``. Anything else raises IllegalAction: from the seat that spoke
        out of turn if the first key other than the seat to move names a seat, else from nobody."""
        to_act = self.players_to_act()
        if not to_act:
            raise IllegalAction(None, actions, "the game is over")
        seat = to_act[0]
        if type(actions) is dict or isinstance(actions, Mapping):  # the ABC check costs ten times more
            if len(actions) == 1 and seat in actions:
                return self._apply_move(seat, actions[seat])
            others = [k for k in actions if k != seat]
            if others and others[0] in self.game.info.players:
                raise IllegalAction(others[0], actions[others[0]], f"it is {seat}'s turn")
        raise IllegalAction(None, actions, f"a move takes exactly one action, from {seat} (to move)")

    def apply_action(self, player: str, action: Action) -> Turn:
        """As ``State.apply_action``, without the mapping that ``apply_actions`` would take apart again: the
        bots' search moves through here."""
        to_act = self.players_to_act()
        if to_act != [player]:
            raise IllegalAction(player, action, f"not the only seat to act (to act: {', '.join(to_act) or 'none'})")
        return self._apply_move(to_act[0], action)

    def _apply_move(self, seat: str, action: Action) -> Turn:
        """Validate and apply ``action`` of ``seat``, the seat to move in a game still going on."""
        raise NotImplementedError
