"""Context for the game page and its live fragments, for any game, through its UI adapter (``games.engine.ui``).

Secrecy: every fragment depends only on the resolved turns seen through ``observation(viewer)`` and
``redact_record``, the public status, ``services.waiting_on`` (whether, never what, a seat submitted) and
the VIEWER's own pending action. Nothing here reads another seat's ``PendingAction``.

Rules: the legal actions come from the engine (``legal_actions``, or ``legal_action_parts`` where they are a
product of parts, which is then never listed), with their words and click paths from the game's adapter; the
page's script only matches clicks against those, it never computes a move.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache

from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape

from games.read import gamelog
from games.read.aftergame import after_game
from games.play import services
from games.play.lru import LRU
from games.models import Game, PendingAction
from games.engine.ui import ui_for

ENDING_WORDS = {
    Game.Ending.RULES: "by the rules",
    Game.Ending.RESIGNATION: "by resignation",
    Game.Ending.TIMEOUT: "on time",
    Game.Ending.ABORTED: "aborted",
}


_compact = json.JSONEncoder(separators=(",", ":")).encode  # one encoder: json.dumps makes one per call


def action_json_value(action_json) -> str:
    """The compact JSON string used as an option value (equal to the page script's JSON.stringify)."""
    return _compact(action_json)


def names_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result_info(game: Game, ui=None, observation=None) -> dict | None:
    """How the game ended, in words: a headline ("Lower wins"), the reason (``why``: the game's own, maybe ""),
    both in one ``sentence`` ("Lower wins: Upper has no tokens and no throws left."), and the game's result
    text (for logs, not for people); from the stored outcome (winners and returns), never its text."""
    if not game.is_over:
        return None
    if game.status == Game.Status.ABORTED:
        return {"headline": "Game aborted", "reason": game.note or "The game was stopped before it ended.",
                "why": "", "sentence": "Game aborted.", "winner": None, "winners": [], "ending": "aborted",
                "ending_words": "aborted", "text": ""}
    ui = ui or ui_for(services.engine_for(game))
    outcome = game.outcome or {}
    winners = list(outcome.get("winners") or []) if len(ui.game.info.players) > 1 else []  # 1: none to beat
    returns = outcome.get("returns") or {}
    ending = game.ending or Game.Ending.RULES
    losers = [ui.seat_name(s) for s, v in returns.items() if not v] if winners else []
    headline = ui.result_headline(dict(outcome, text=outcome.get("text") or game.result))
    if ending == Game.Ending.RESIGNATION and len(ui.game.info.players) == 1:
        reason = "The game was given up before its end."
    elif ending == Game.Ending.RESIGNATION:
        reason = f"{names_list(losers)} resigned." if losers else "A player resigned."
    elif ending == Game.Ending.TIMEOUT:
        reason = (f"{names_list(losers)} ran out of time." if losers
                  else "Both players ran out of time." if len(returns) == 2 else "Every player ran out of time.")
    else:
        if observation is None:
            observation = services.current_state(game).observation(None)
        reason = ui.result_reason(outcome, observation)
    return {"headline": headline, "reason": reason or ("The game ended in a draw." if not winners else ""),
            "why": reason, "sentence": ui.result_sentence(headline, reason), "winners": winners,
            "winner": winners[0] if len(winners) == 1 else None, "ending": ending,
            "ending_words": ENDING_WORDS.get(ending, ending), "text": game.result or ""}


def seats_info(game: Game, ui, observation, waiting: list[str], viewer_side: str | None) -> list[dict]:
    seats = {s.side: s for s in game.seats.all()}
    rows = []
    for side in ui.game.info.players:
        seat = seats.get(side)
        if game.status == Game.Status.ACTIVE:
            if side in waiting:
                status, status_text = "choosing", "to move" if len(game.to_act) == 1 else "choosing…"
            elif side in game.to_act:
                status, status_text = "ready", "has chosen"
            else:
                status, status_text = "idle", ""
        elif game.status == Game.Status.WAITING:
            status, status_text = ("open", "open seat") if seat and not seat.is_claimed else ("joined", "joined")
        else:
            status, status_text = ("over", "")
        rows.append({
            "side": side, "name": ui.seat_name(side), "label": seat.label if seat else "",
            "is_bot": bool(seat and seat.kind == seat.Kind.BOT), "is_you": side == viewer_side,
            "status": status, "status_text": status_text,
            "stats": [{"label": label, "value": value} for label, value in ui.seat_stats(observation, side)],
        })
    return rows


def turn_words(ui, record: dict, before=None) -> dict:
    """A resolved turn (``number``, ``actions``, ``events``: as the viewer may see it) in words; ``before``:
    the viewer's observation of the position the turn was played in, where known."""
    moves = [{"side": side, "name": ui.seat_name(side), "text": ui.action_words(side, action, before)}
             for side, action in record["actions"].items() if side in ui.game.info.players]
    events = [w for w in (ui.event_words(e) for e in record.get("events") or []) if w]
    return {"number": record["number"], "moves": moves, "battles": events, "events": events}


def legal_actions_info(ui, state, side: str) -> dict:
    """The viewer's legal actions from the engine: for the page script (JSON, words, click path) and the
    <select> fallback grouped by the adapter's headings. A state that gives ``legal_action_parts`` gets its
    parts instead (``legal_parts_info``): the product is never listed."""
    eg = ui.game
    observation = state.observation(side)
    parts = state.legal_action_parts(side)
    if parts is not None:
        return legal_parts_info(ui, parts, side, observation)
    entries, groups = [], {}
    for action in state.legal_actions(side):
        as_json = eg.action_to_json(action)
        text = ui.action_words(side, as_json, observation)
        entries.append({"action": as_json, "text": text, "path": ui.action_path(side, as_json, observation)})
        groups.setdefault(ui.action_group(side, as_json, observation), []).append({"value": action_json_value(as_json),
                                                                       "text": text})
    return {
        "entries": entries,
        "script": entries,
        "groups": [{"label": label, "options": options} for label, options in groups.items()],
        "count": len(entries),
    }


def legal_parts_info(ui, parts, side: str, observation) -> dict:
    """Legal actions given as a product of parts: per part its label, the name of its <select>
    (``action_part_I``) and its options (JSON, words, click path). The page script gets ``{"parts": [[entry,
    ...], ...]}`` and picks part after part; the action is the list of the chosen parts' JSON."""
    eg = ui.game
    out, script = [], []
    for i, options in enumerate(parts):
        entries = []
        for part in options:
            as_json = eg.part_to_json(part)
            entries.append({"action": as_json, "text": ui.part_words(side, i, as_json, observation),
                            "path": ui.part_path(side, i, as_json, observation)})
        script.append(entries)
        out.append({"index": i, "name": f"action_part_{i}", "label": ui.part_label(side, i, observation),
                    "options": [{"value": action_json_value(e["action"]), "text": e["text"]} for e in entries]})
    count = math.prod(len(options) for options in parts)
    return {"parts": out, "script": {"parts": script}, "count": count, "count_text": f"{count:,}"}


@dataclass(frozen=True)
class Reads:
    """What every viewer's context reads from the database for one version of a game: the game with its
    seats, the last resolved turn as stored, and the seats still to choose. Read once per version and
    shared by all its viewers (read-only)."""
    game: Game
    last_row: dict | None
    waiting: list


def read(game: Game) -> Reads:
    prefetch_related_objects([game], "seats")
    rows = gamelog.stored_rows(game)
    return Reads(game, rows[-1] if rows else None, services.waiting_on(game))


def last_record(reads: Reads, viewer_side: str | None) -> dict | None:
    row = reads.last_row
    if row is None:
        return None
    game = reads.game
    return dict(row, actions=services.engine_for(game).redact_record(row["actions"], viewer_side, game.is_over))


def board_html(ui, game: Game, observation, last: dict | None, flipped: bool, *, shared: bool = False) -> str:
    """The board as the viewer sees it: the game's ``board_template`` drawing ``ui.board(...)``, which
    depends on nothing else (a conformance test checks it). ``shared``: viewers whose boards have the same
    inputs share one drawing in this process (players and spectators of a game without hidden parts; and a
    change within a turn, such as a seat having chosen, leaves the board as it was)."""
    key = None
    if shared:
        inputs = json.dumps([observation, last, flipped], sort_keys=True, separators=(",", ":"), default=str)
        key = (game.id, game.turn, inputs)
        html = _boards.get(key)
        if html is not None:
            return html
    html = render_to_string(ui.board_template, {"board": ui.board(observation, flipped=flipped, last=last),
                                                "board_label": f"Board of game {game.id}"})
    if key is not None:
        _boards.put(key, html)
    return html


@lru_cache(maxsize=1024)
def game_urls(game_id: str) -> tuple[str, ...]:
    """The game's page and its act, hint, join, resign and replay URLs: the same for every render of it."""
    return tuple(reverse(name, args=[game_id]) for name in ("game", "act", "hint", "join", "resign", "replay"))


def game_context(game: Game, viewer_side: str | None = None, *, flipped: bool = False, request=None,
                 reads: Reads | None = None, shared: bool = False) -> dict:
    """Everything the game page and its fragments show, for one viewer (None: a spectator); ``reads``:
    the game's shared reads (``read``), when they are known. ``shared``: the board (see ``board_html``) and
    the viewer's legal actions, which depend only on the resolved turns, are shared within this process
    (read-only) with other viewers and with the other versions of the same turn."""
    reads = reads or read(game)
    eg = services.engine_for(game)
    ui = ui_for(eg)
    state = services.current_state(game)
    observation = state.observation(viewer_side)
    waiting = reads.waiting
    last = last_record(reads, viewer_side)
    seats = seats_info(game, ui, observation, waiting, viewer_side)
    viewer_seat = next((s for s in seats if s["is_you"]), None) if viewer_side else None
    pending = None
    # A pending choice is kept only in a simultaneous turn, and only by a seat that is no longer waited on.
    if viewer_side and game.status == Game.Status.ACTIVE and len(game.to_act) > 1 and viewer_side in game.to_act and viewer_side not in waiting:
        own = PendingAction.objects.filter(game=game, side=viewer_side, turn=game.turn + 1).first()
        if own is not None:
            pending = {"text": ui.action_words(viewer_side, own.action, observation)}
    legal = None
    if viewer_side and game.status == Game.Status.ACTIVE and viewer_side in waiting and pending is None:
        key = (game.id, game.turn, viewer_side)
        legal = _legal.get(key) if shared else None
        if legal is None:
            legal = legal_actions_info(ui, state, viewer_side)
            if shared:
                _legal.put(key, legal)
    open_sides = [s for s in seats if s["status"] == "open"]
    others = [ui.seat_name(s) for s in eg.info.players if s != viewer_side]
    path, act_url, hint_url, join_url, resign_url, replay_url = game_urls(game.id)
    deadline = game.turn_deadline
    # A seat that dropped out of a game of three or more seats watches the others play on.
    viewer_out = bool(viewer_side) and len(eg.info.players) > 2 and viewer_side in gamelog.resigned(game)
    return {
        "game": game,
        "ui": ui,
        "title": eg.info.title,
        "simultaneous": eg.info.simultaneous,
        "viewer_side": viewer_side,
        "viewer_name": ui.seat_name(viewer_side) if viewer_side else "",
        "viewer_seat": viewer_seat,
        "opponent_name": names_list(others) if others else "",
        "board_html": board_html(ui, game, observation, last, flipped, shared=shared),
        "seats": seats,
        "stat_labels": [s["label"] for s in seats[0]["stats"]] if seats else [],
        "waiting": waiting,
        "waiting_names": [ui.seat_name(s) for s in waiting],
        "turn_in_play": game.turn + 1 if game.status == Game.Status.ACTIVE else None,
        "moves_made": gamelog.moves_made(game),  # what people count: the turn number counts chance turns too
        "pending": pending,
        "legal": legal,
        "result": result_info(game, ui, observation),
        "last_turn": turn_words(ui, last, services.state_at(game, last["number"] - 1).observation(viewer_side))
        if last else None,
        "open_sides": [{"side": s["side"], "name": s["name"]} for s in open_sides],
        "invite_url": request.build_absolute_uri(path) if request is not None else path,
        "deadline": deadline.isoformat() if deadline else "",
        "turn_seconds": game.turn_seconds,
        "is_active": game.status == Game.Status.ACTIVE,
        "viewer_out": viewer_out,
        "can_resign": bool(viewer_side) and game.status == Game.Status.ACTIVE and not viewer_out,
        "is_waiting": game.status == Game.Status.WAITING,
        "is_over": game.is_over,
        "act_url": act_url,
        "hint_url": hint_url if len(eg.info.players) == 1 else "",
        "score": ui.score(observation) if viewer_side else None,
        "join_url": join_url,
        "resign_url": resign_url,
        "replay_url": replay_url,
        **after_game(game, ui, viewer_side),
    }


FRAGMENTS = ("games/_game_head.html", "games/_board_wrap.html", "games/_turn_panel.html", "games/_controls.html")


def render_fragments(ctx: dict, request=None, *, oob: bool = True) -> str:
    ctx = dict(ctx, oob=oob)
    return "".join(render_to_string(name, ctx, request=request) for name in FRAGMENTS)


# Per process: (game id, version) -> Reads; (game id, version, viewer) -> the live fragments' HTML;
# (game id, turn, the board's inputs) -> the board's HTML; (game id, turn, seat) -> its legal actions.
_reads = LRU(256)
_html = LRU(768)
_boards = LRU(512)
_legal = LRU(256)


def cached_fragments(game_id: str, version: str | None, viewer_side=None) -> str | None:
    """The live fragments of a version already rendered for this viewer in this process, else None (no
    database, no thread: the WebSocket consumer asks this on the event loop first)."""
    return _html.get((game_id, version, viewer_side or "-")) if version else None


def live_fragments(game_id: str, viewer_side=None, *, request=None) -> str:
    """The live part of the game page as top-level out-of-band elements (``hx-swap-oob="true"``), each
    with its id: ``game-head``, ``board-wrap``, ``turn-panel`` and ``controls``."""
    if request is not None:
        game = services.get_game(game_id)
        return render_fragments(game_context(game, viewer_side, request=request), request=request)
    return live_view(game_id, viewer_side)[1]


def keep_reads(game_id: str, version: str, saved) -> None:
    """Keep ``read(saved())`` as the shared reads of ``version`` unless kept already (``saved``: gives that
    version as just saved, in the form a read gives it)."""
    if _reads.get((game_id, version)) is None:
        _reads.put((game_id, version), read(saved()))


def live_view(game_id: str, viewer_side=None, version: str | None = None) -> tuple[int, str]:
    """(resolved turns, live fragments) of the game for a viewer without a request (the WebSocket).

    The HTML depends only on the game's saved version and the viewer's seat, so it is rendered once per
    (game version, seat or spectator) and the same bytes go to every such viewer: forty spectators cost one
    render, not forty. The database is read once per version for all viewers; ``version`` (from the change's
    announcement) saves even that read when it is known."""
    reads = _reads.get((game_id, version)) if version else None
    if reads is None:
        game = services.get_game(game_id)
        version = game.version
        reads = _reads.get((game.id, version))
        if reads is None:
            reads = read(game)
            _reads.put((game.id, version), reads)
    key = (reads.game.id, version, viewer_side or "-")
    html = _html.get(key)
    if html is None:
        html = render_fragments(game_context(reads.game, viewer_side, reads=reads, shared=True))
        _html.put(key, html)
    return reads.game.turn, html


def error_fragment(message: str) -> str:
    """The error line of the game page, out of band; an empty message clears it."""
    if not message:
        return '<div id="game-error" class="game-error" hx-swap-oob="true" role="alert"></div>'
    return (f'<div id="game-error" class="game-error" hx-swap-oob="true" role="alert">'
            f'<strong>Not accepted:</strong> {escape(message)}</div>')
