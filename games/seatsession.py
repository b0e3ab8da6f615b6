"""Seat tokens of anonymous (and logged-in) browser players, kept in their signed Django session."""
from __future__ import annotations

KEY = "seats"


def remember(session, game_id: str, side: str, token: str) -> None:
    seats = dict(session.get(KEY, {}))
    seats[game_id] = {"side": side, "token": token}
    session[KEY] = seats


def recall(session, game_id: str) -> tuple[str, str] | None:
    """(side, token) of the seat this browser plays in ``game_id``, if any."""
    entry = (session.get(KEY) or {}).get(game_id) if session is not None else None
    if isinstance(entry, dict) and entry.get("side") and entry.get("token"):
        return entry["side"], entry["token"]
    return None


def game_ids(session) -> list[str]:
    return list((session.get(KEY) or {}).keys()) if session is not None else []
