"""What the API answers about a game: a viewer's view of it (``observation(seat)``, never more), and the seat
to act's legal actions."""
from __future__ import annotations

import itertools
import math

from games.api.http import absolute, replay_path
from games.models import Game
from games.play import services
from games.read import gamelog


def game_payload(game: Game, request=None, seat: str | None = None) -> dict:
    """A viewer's view of a game: ``seat`` (None: a spectator) sees ``observation(seat)``; the same for
    everyone with the same seat, whatever any seat has submitted but not resolved. The seat to act also
    gets its ``legal_actions``."""
    seats = {s.side: {"kind": s.kind, "bot": s.bot_level or None, "name": s.label, "claimed": s.is_claimed}
             for s in game.seats.all()}
    deadline = game.turn_deadline
    state = services.current_state(game)
    to_act = services.waiting_on(game)
    payload = {
        "id": game.id,
        "game": game.kind,
        "params": game.params,
        "status": game.status,
        "turn": game.turn,
        "to_act": to_act,
        "state": state.observation(seat),
        "result": game.result or None,
        "outcome": game.outcome,
        "ending": game.ending or None,
        "turns": gamelog.records_so_far(game, seat),
        "seats": seats,
        "turn_seconds": game.turn_seconds,
        "deadline": deadline.isoformat() if deadline else None,
        "url": absolute(request, game.get_absolute_url()),
        "replay_url": absolute(request, replay_path(game)),
        "created": game.created.isoformat(),
        "source": game.source,
    }
    if seat is not None:
        payload["seat"] = seat
        if seat in to_act:
            payload.update(legal_payload(services.engine_for(game), state, seat))
    return payload


LISTED_PRODUCT = 1000  # a product of parts with at most this many actions is also listed in "legal_actions"


def legal_payload(eg, state, seat: str) -> dict:
    """``legal_actions``; for a state whose legal actions are a product of parts, ``legal_action_parts`` (per
    part, its options' JSON) and ``legal_actions`` only when the product has at most ``LISTED_PRODUCT``."""
    parts = state.legal_action_parts(seat)
    if parts is None:
        return {"legal_actions": [eg.action_to_json(a) for a in state.legal_actions(seat)]}
    out = {"legal_action_parts": [[eg.part_to_json(p) for p in options] for options in parts]}
    if math.prod(len(options) for options in parts) <= LISTED_PRODUCT:
        out["legal_actions"] = [list(a) for a in itertools.product(*out["legal_action_parts"])]
    return out
