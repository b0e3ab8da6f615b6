"""Context for the game page and its live fragments.

Secrecy: every fragment depends only on the resolved turns (the turn log and ``Game.state``), the public
status, ``services.waiting_on`` (whether, never what, a seat submitted) and the VIEWER's own pending
action. Nothing here reads another seat's ``PendingAction``.

Rules: the legal actions come from the engine (``legal_actions``), converted with ``action_to_json`` and
``action_to_text``; the page's script only filters that list, it never computes a move.
"""
from __future__ import annotations

import json

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape

from . import board, services
from .models import Game, PendingAction

SYMBOL_ORDER = ("r", "p", "s")
KIND_GROUPS = (("THROW", "Throws"), ("SLIDE", "Slides"), ("SWING", "Swings"))
ENDING_WORDS = {
    Game.Ending.RULES: "by the rules",
    Game.Ending.RESIGNATION: "by resignation",
    Game.Ending.TIMEOUT: "on time",
    Game.Ending.ABORTED: "aborted",
}


def side_name(side: str | None) -> str:
    return board.PLAYER_NAMES.get(side, (side or "").title())


def other_side(side: str) -> str:
    return "lower" if side == "upper" else "upper"


def action_json_value(action_json) -> str:
    """The compact JSON string used as an option value (equal to the page script's JSON.stringify)."""
    return json.dumps(action_json, separators=(",", ":"))


def action_text(game: Game, side: str, action_json) -> str:
    eg = services.engine_for(game)
    return eg.action_to_text(eg.action_from_json(action_json, side))


def result_info(game: Game) -> dict | None:
    """How the game ended, in words: a headline, the reason and the referee's result line."""
    if not game.is_over:
        return None
    if game.status == Game.Status.ABORTED:
        return {"headline": "Game aborted", "reason": game.note or "The game was stopped before it ended.",
                "winner": None, "ending": "aborted", "ending_words": "aborted", "text": ""}
    text = game.result or ""
    winner = text[len("winner: "):] if text.startswith("winner: ") else None
    ending = game.ending or Game.Ending.RULES
    if winner:
        loser = other_side(winner)
        headline = f"{side_name(winner)} wins"
        if ending == Game.Ending.RESIGNATION:
            reason = f"{side_name(loser)} resigned."
        elif ending == Game.Ending.TIMEOUT:
            reason = f"{side_name(loser)} ran out of time."
        else:
            state = game.state or {}
            left = (state.get("throws_left") or {}).get(loser)
            on_board = sum(t["count"] for t in state.get("tokens", []) if t["player"] == loser)
            if left == 0 and on_board == 0:
                reason = f"{side_name(loser)} has no tokens and no throws left."
            else:
                reason = (f"{side_name(winner)} has a token that {side_name(loser)} can no longer beat, "
                          f"and {side_name(loser)} has one token left.")
    else:
        headline = "Draw"
        detail = text[len("draw: "):] if text.startswith("draw: ") else text
        if ending == Game.Ending.TIMEOUT:
            reason = "Both players ran out of time."
        else:
            reason = (detail[:1].upper() + detail[1:] + ".") if detail else "The game ended in a draw."
    return {"headline": headline, "reason": reason, "winner": winner, "ending": ending,
            "ending_words": ENDING_WORDS.get(ending, ending), "text": text}


def seats_info(game: Game, waiting: list[str], viewer_side: str | None) -> list[dict]:
    state = game.state or {}
    sides = list(services.engine_for(game).info.players)
    seats = {s.side: s for s in game.seats.all()}
    rows = []
    for side in sides:
        seat = seats.get(side)
        on_board = {sym: 0 for sym in SYMBOL_ORDER}
        for t in state.get("tokens", []):
            if t["player"] == side:
                on_board[t["symbol"]] += t["count"]
        defeated = (state.get("defeated") or {}).get(side) or {}
        if game.status == Game.Status.ACTIVE:
            status, status_text = ("choosing", "choosing…") if side in waiting else ("ready", "has chosen")
        elif game.status == Game.Status.WAITING:
            status, status_text = ("open", "open seat") if seat and not seat.is_claimed else ("joined", "joined")
        else:
            status, status_text = ("over", "")
        rows.append({
            "side": side,
            "name": side_name(side),
            "label": seat.label if seat else "",
            "is_bot": bool(seat and seat.kind == seat.Kind.BOT),
            "is_you": side == viewer_side,
            "status": status,
            "status_text": status_text,
            "throws_left": (state.get("throws_left") or {}).get(side, 0),
            "on_board": sum(on_board.values()),
            "on_board_by_symbol": [(board.SYMBOL_NAMES[s], on_board[s]) for s in SYMBOL_ORDER],
            "defeated": sum(int(defeated.get(s, 0)) for s in SYMBOL_ORDER),
            "defeated_by_symbol": [(board.SYMBOL_NAMES[s], int(defeated.get(s, 0))) for s in SYMBOL_ORDER],
        })
    return rows


def last_turn_info(game: Game, turn) -> dict | None:
    if turn is None:
        return None
    moves = []
    sides = list(services.engine_for(game).info.players)
    for side in sides:
        if side in turn.actions:
            moves.append({"side": side, "name": side_name(side), "text": action_text(game, side, turn.actions[side])})
    battles = []
    for e in turn.events or []:
        lost = ", ".join(f"{side_name(d['player'])}'s {board.SYMBOL_NAMES[d['symbol']]}"
                         + (f" ×{d['count']}" if d["count"] > 1 else "") for d in e.get("defeated", []))
        battles.append(f"Battle on ({e['hex'][0]}, {e['hex'][1]}): {lost} defeated.")
    return {"number": turn.number, "moves": moves, "battles": battles}


def legal_actions_info(game: Game, side: str) -> dict:
    """The viewer's legal actions from the engine: the list for the page script and the <select> groups."""
    eg = services.engine_for(game)
    state = services.replay_state(game)
    entries = []
    groups = {kind: [] for kind, _ in KIND_GROUPS}
    for action in state.legal_actions(side):
        as_json = eg.action_to_json(action)
        text = eg.action_to_text(action)
        entries.append([as_json, text])
        groups.setdefault(as_json[0], []).append({"value": action_json_value(as_json), "text": text})
    throw_symbols = [s for s in SYMBOL_ORDER if any(a[0] == "THROW" and a[1] == s for a, _ in entries)]
    return {
        "entries": entries,
        "groups": [{"label": label, "options": groups[kind]} for kind, label in KIND_GROUPS if groups.get(kind)],
        "count": len(entries),
        "throw_symbols": [{"symbol": s, "name": board.SYMBOL_NAMES[s]} for s in throw_symbols],
        "has_moves": any(a[0] != "THROW" for a, _ in entries),
    }


def game_context(game: Game, viewer_side: str | None = None, *, flipped: bool = False, request=None) -> dict:
    """Everything the game page and its fragments show, for one viewer (None: a spectator)."""
    waiting = services.waiting_on(game)
    last = game.turns.order_by("-number").first()
    marks = board.turn_marks(last.actions, last.events) if last else None
    moves = board.turn_moves(last.actions) if last else None
    seats = seats_info(game, waiting, viewer_side)
    viewer_seat = next((s for s in seats if s["is_you"]), None) if viewer_side else None
    pending = None
    if viewer_side and game.status == Game.Status.ACTIVE:
        own = PendingAction.objects.filter(game=game, side=viewer_side, turn=game.turn + 1).first()
        if own is not None:
            pending = {"text": action_text(game, viewer_side, own.action)}
    legal = None
    if viewer_side and game.status == Game.Status.ACTIVE and viewer_side in waiting and pending is None:
        legal = legal_actions_info(game, viewer_side)
    open_sides = [s["side"] for s in seats if s["status"] == "open"]
    path = game.get_absolute_url()
    deadline = game.turn_deadline
    return {
        "game": game,
        "viewer_side": viewer_side,
        "viewer_name": side_name(viewer_side) if viewer_side else "",
        "viewer_seat": viewer_seat,
        "opponent_name": side_name(other_side(viewer_side)) if viewer_side else "",
        "board": board.board_context(game.state, flipped=flipped, marks=marks, moves=moves),
        "board_label": f"Board of game {game.id}",
        "seats": seats,
        "waiting": waiting,
        "waiting_names": [side_name(s) for s in waiting],
        "turn_in_play": game.turn + 1 if game.status == Game.Status.ACTIVE else None,
        "pending": pending,
        "legal": legal,
        "result": result_info(game),
        "last_turn": last_turn_info(game, last),
        "open_sides": [{"side": s, "name": side_name(s)} for s in open_sides],
        "invite_url": request.build_absolute_uri(path) if request is not None else path,
        "deadline": deadline.isoformat() if deadline else "",
        "turn_seconds": game.turn_seconds,
        "is_active": game.status == Game.Status.ACTIVE,
        "is_waiting": game.status == Game.Status.WAITING,
        "is_over": game.is_over,
        "act_url": reverse("act", args=[game.id]),
        "join_url": reverse("join", args=[game.id]),
        "resign_url": reverse("resign", args=[game.id]),
        "replay_url": reverse("replay", args=[game.id]),
    }


FRAGMENTS = ("games/_game_head.html", "games/_board_wrap.html", "games/_turn_panel.html", "games/_controls.html")


def render_fragments(ctx: dict, request=None, *, oob: bool = True) -> str:
    ctx = dict(ctx, oob=oob)
    return "".join(render_to_string(name, ctx, request=request) for name in FRAGMENTS)


def live_fragments(game_id: str, viewer_side=None, *, request=None) -> str:
    """The live part of the game page as top-level out-of-band elements (``hx-swap-oob="true"``), each
    with its id: ``game-head``, ``board-wrap``, ``turn-panel`` and ``controls``."""
    game = services.get_game(game_id)
    return render_fragments(game_context(game, viewer_side, request=request), request=request)


def error_fragment(message: str) -> str:
    """The error line of the game page, out of band; an empty message clears it."""
    if not message:
        return '<div id="game-error" class="game-error" hx-swap-oob="true" role="alert"></div>'
    return (f'<div id="game-error" class="game-error" hx-swap-oob="true" role="alert">'
            f'<strong>Not accepted:</strong> {escape(message)}</div>')
