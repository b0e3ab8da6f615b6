"""The site's adapter for one game: how it is drawn, read and played by clicks. Game-agnostic code asks
``ui_for(game)``; each game package has a ``ui`` module whose ``UI`` subclasses :class:`GameUI`.

Everything here works from observations (``state.observation(seat)``: the JSON a viewer may see) and
canonical JSON actions, never from engine states, so nothing secret can reach a page through it.

Input by clicks is generic (``static/js/game.js``): every legal action has a *path*, a list of steps
``{"key": ..., "label": ...}``. The board template marks clickable things with ``data-pick="KEY"``; a step
whose key is not on the board is offered as a button with its label. The page highlights the next steps of
the legal actions that match what was clicked so far; an action whose whole path was clicked is chosen. Where
the engine gives the legal actions as a product of parts (``State.legal_action_parts``), each part has its own
path (``part_path``) and the page picks part after part, never listing the product.
"""
from __future__ import annotations


import json
from dataclasses import dataclass
from typing import Any

from games.engine import game_module

JSON = Any


@dataclass(frozen=True)
class Param:
    """A game parameter the lobby offers: an integer range, a choice, a yes/no, or (``json``) a JSON value
    edited as text (a puzzle's position)."""

    name: str
    label: str
    default: Any
    choices: tuple = ()  # (value, label) pairs; empty: an integer from minimum to maximum, or a bool
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    json: bool = False


@dataclass(frozen=True)
class Preset:
    """A ready-made set of parameters (a puzzle of the game's library): ``name`` (in links), ``title``, a
    ``note`` (e.g. its optimum) and the ``params`` it sets."""

    name: str
    title: str
    params: dict
    note: str = ""


@dataclass(frozen=True)
class EditorTool:
    """One tool of a game's position editor (a token kind to place, a block, the eraser)."""

    name: str
    label: str


class GameUI:
    """Defaults that suit most games; a game overrides what it draws and says differently."""

    board_template = ""  # draws self.board(...) as <svg id="board" class="board" data-turn="N" ...>
    stylesheet = ""  # static path of the game's CSS (board colours, pieces), or ""
    legend = ""  # one line under the board saying how to read it
    tagline = ""  # one line on what the game is, for the lobby's catalogue
    hint = "Click a piece, then where it goes, then confirm."
    flippable = True  # a "Flip board" button (the board drawn from the other side)
    chart_label = ""  # what ``material`` measures, for the replay chart ("" and material None: no chart)
    event_icon = "•"  # shown before each event's words (RoPaSci 360's battles: ⚔)
    # Shortcuts that play an action at once: a KeyboardEvent.key ("ArrowLeft", "u") or a swipe on the board
    # ("swipe-left", "swipe-up", ...) -> the key of a one-step action's path (2048's "left").
    shortcuts: dict = {}

    def __init__(self, game):
        self.game = game

    # --- words -------------------------------------------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return seat.replace("_", " ").title()

    def action_words(self, seat: str, action: JSON, observation: JSON = None) -> str:
        """A canonical JSON action in words (by default the engine's text form). ``observation`` is the
        position the action was taken in, as the reader may see it, where known (to name the moved piece)."""
        return self.game.action_to_text(self.game.action_from_json(action, seat))

    def chance_words(self, outcome: JSON) -> str:
        """A chance outcome (a deal, a new tile, a scramble move) as the reader may see it, in words."""
        return outcome if isinstance(outcome, str) else json.dumps(outcome)

    def event_words(self, event: JSON) -> str:
        """One event of a resolved turn (a battle, an explosion) in words; "" to leave it out."""
        return ""

    def result_reason(self, outcome: dict, observation: JSON) -> str:
        """Why a game that ended by the rules ended, in a sentence that does not repeat who won (the headline
        says it): "Upper has no tokens and no throws left." (default: the game's result text, unless it only
        names the winner or a draw)."""
        text = (outcome or {}).get("text") or ""
        if not text or text.split(":")[0].strip() in ("winner", "draw"):
            return ""
        return text[:1].upper() + text[1:] + "."

    def result_headline(self, outcome: dict) -> str:
        """Who won, from the stored outcome (never by parsing its text): "Lower wins", "Black and White win",
        "Draw"; a one-player game, with nobody to beat, says its own result text ("Solved in 20 moves")."""
        outcome = outcome or {}
        if len(self.game.info.players) == 1:
            text = outcome.get("text") or "game over"
            return text[:1].upper() + text[1:]
        names = [self.seat_name(s) for s in outcome.get("winners") or []]
        if not names:
            return "Draw"
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"{listed} win{'s' if len(names) == 1 else ''}"

    def result_sentence(self, headline: str, reason: str) -> str:
        """The result in one sentence: "Lower wins: every Upper token is defeated." (a reason that does not
        open with a name is lowered after the colon); a one-player game's reason alone says it."""
        if not reason:
            return headline + "."
        if len(self.game.info.players) == 1:
            return reason
        names = [self.seat_name(s) for s in self.game.info.players]
        named = any(reason == n or reason.startswith(n + " ") or reason.startswith(n + "'") for n in names)
        return f"{headline}: {reason if named else reason[:1].lower() + reason[1:]}"

    # --- drawing -----------------------------------------------------------------------------------
    def board(self, observation: JSON, *, flipped: bool = False, last: dict | None = None) -> dict:
        """Context for ``board_template``: the position ``observation`` (None before the game is set up),
        with ``last`` (``{"number", "actions", "events"}``: the turn that led to it) marked."""
        raise NotImplementedError

    def seat_stats(self, observation: JSON, seat: str) -> list[tuple[str, Any]]:
        """(label, value) pairs shown for each seat beside the board and in the replay."""
        return []

    def chapter(self, observation: JSON) -> str:
        """The part of the game a position belongs to (poker: "Hand 3"), for the replay's jump list; "" if the
        game has no parts."""
        return ""

    def score(self, observation: JSON) -> float | None:
        """A one-player game's running score (2048's), for the player's best in this browser; None: none."""
        return None

    def material(self, observation: JSON, seat: str) -> float | None:
        """A number per seat to chart over a replay (e.g. pieces left); None: the game has no chart."""
        return None

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action: JSON, observation: JSON = None) -> list[dict]:
        """The clicks that choose ``action``: steps ``{"key": str, "label": str}`` (label for off-board steps)."""
        raise NotImplementedError

    # A game whose states give ``legal_action_parts`` is played part by part: the page offers each part's
    # options (one <select> per part, and clicks part after part); a whole action's path is its parts' paths
    # in order, and its JSON the list of its parts' JSON.
    def part_label(self, seat: str, index: int, observation: JSON = None) -> str:
        """What part ``index`` (from 0) chooses, as the label of its <select>."""
        return f"Part {index + 1}"

    def part_words(self, seat: str, index: int, part: JSON, observation: JSON = None) -> str:
        """Part ``index`` of an action (its JSON) in words."""
        return json.dumps(part)

    def part_path(self, seat: str, index: int, part: JSON, observation: JSON = None) -> list[dict]:
        """The clicks that choose part ``index`` once the parts before it are chosen (steps as in
        ``action_path``)."""
        raise NotImplementedError

    def action_group(self, seat: str, action: JSON, observation: JSON = None) -> str:
        """The heading of ``action`` in the list of legal actions (an <optgroup>); "" for none. ``observation``:
        the position it would be taken in, as the seat sees it."""
        return ""

    # --- the lobby ---------------------------------------------------------------------------------
    def params(self) -> list[Param]:
        """The game's parameters the lobby offers (none by default)."""
        return []

    def presets(self) -> list[Preset]:
        """Ready-made parameter sets, easiest first: the game's library (none by default)."""
        return []

    # A position editor in the lobby (none by default): the board of ``editor_board`` drawn with
    # ``board_template``; a click on a cell (an element with class ``cell`` and ``data-pick="KEY"``) with a
    # tool applies ``edit``.
    editor_param = ""  # the JSON parameter the editor changes
    editor_tools: tuple = ()  # EditorTool, the first chosen by default
    editor_hint = ""  # how to build a position, in the game's words (shown under the editor's board)

    def editor_board(self, value: JSON) -> dict:
        """Board context for the edited parameter's value (which may not be a valid one yet)."""
        raise NotImplementedError

    def edit(self, value: JSON, tool: str, place: str) -> JSON:
        """The value after using ``tool`` on the cell whose ``data-pick`` key is ``place`` (any string a
        request sent: the value as it was if it names no cell)."""
        raise NotImplementedError


_cache: dict[int, GameUI] = {}


def ui_for(game) -> GameUI:
    """The adapter of an engine game object (one per loaded game)."""
    ui = _cache.get(id(game))
    if ui is None or ui.game is not game:
        module = game_module(game.info.name, "ui")
        if module is None:
            raise LookupError(f"game {game.info.name!r} has no ui module")
        ui = _cache[id(game)] = module.UI(game)
    return ui
