"""Stored rows in staff's words: actions in the game's notation, events, seats and times. Shared by the
inlines and the games admin, so a row reads the same on every admin page."""
from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format

from games.engine import load_game
from games.engine.ui import ui_for
from games.models import Seat


def engine_or_none(kind: str, params):
    """The game's engine, or None for a kind no longer registered or parameters it no longer takes (the
    admin then shows raw JSON rather than fail)."""
    try:
        return load_game(kind, **(params or {}))
    except Exception:
        return None


def action_text(kind: str, side: str, action, params=None) -> str:
    """A stored (JSON) action in the game's notation, e.g. ``SLIDE from (1, -1) to (0, -1)``; staff see every
    record whole (no redaction)."""
    if action is None:
        return "—"
    eg = engine_or_none(kind, params)
    if eg is None:
        return str(action)
    if side == "chance":
        return f"chance: {action}"
    try:
        return eg.action_to_text(eg.action_from_json(action, side))
    except Exception:  # an engine that no longer reads an old row: show the raw JSON rather than fail
        return str(action)


def events_text(kind: str, events, params=None) -> str:
    """A turn's events in the game's words, e.g. battles or explosions."""
    eg = engine_or_none(kind, params)
    if eg is None:
        return str(events or "")
    ui = ui_for(eg)
    return "; ".join(w for w in (ui.event_words(e) for e in events or []) if w)


def seat_label(seat: Seat) -> str:
    if seat.kind == Seat.Kind.BOT:
        name = seat.display_name or "bot"
        return f"{name} (bot: {seat.bot_level or '?'})"
    if not seat.token_hash and seat.user_id is None:
        return "(open seat)"
    return f"{seat.display_name or 'anonymous'} (human)"


def short_time(value) -> str:
    return date_format(timezone.localtime(value), "Y-m-d H:i") if value else "—"
