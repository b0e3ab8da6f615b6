"""The seats of anonymous (and logged-in) browser players, kept in their Django session: the side and the
hash of the seat's token, never the token itself (``models.TokenHash``)."""
from __future__ import annotations

from games.models import TokenHash, hash_token

KEY = "seats"


def remember(session, game_id: str, side: str, token: str) -> None:
    seats = dict(session.get(KEY, {}))
    seats[game_id] = {"side": side, "hash": hash_token(token)}
    session[KEY] = seats


def recall(session, game_id: str) -> tuple[str, TokenHash] | None:
    """(side, proof) of the seat this browser plays in ``game_id``, if any. Sessions from before hashes were
    kept hold the token: it is hashed here and the session rewritten."""
    entry = (session.get(KEY) or {}).get(game_id) if session is not None else None
    if not isinstance(entry, dict) or not entry.get("side"):
        return None
    if isinstance(entry.get("token"), str) and entry["token"]:
        remember(session, game_id, entry["side"], entry["token"])
        entry = session[KEY][game_id]
    if isinstance(entry.get("hash"), str) and entry["hash"]:
        return entry["side"], TokenHash(entry["hash"])
    return None


def game_ids(session) -> list[str]:
    return list((session.get(KEY) or {}).keys()) if session is not None else []
