"""The replay's read model: a game's turns and positions as a spectator sees them, in words and numbers
for the viewer (``games/web/replay.py``), its previews (``games/web/previews.py``), the animated GIF and the
analysis (``games/read/analysis.py``).

Every game through its UI adapter (``games.engine.ui``); viewers see positions as a spectator does
(``observation(None)``, ``redact_record(..., None, over)``): a live game's replay leaks nothing.
"""
from __future__ import annotations

from games.engine.api import CHANCE
from games.engine.history import apply_record
from games.engine.ui import ui_for
from games.models import Game
from games.play import services, turnlog
from games.read import gamelog, presenters


# --- reading a game -----------------------------------------------------------------------------------

def history(game: Game) -> tuple[list[dict], list]:
    """All resolved turns as a spectator sees them (number, actions, events), and the spectator's observation
    after 0..T turns, folded once (through the position cache)."""
    turns = gamelog.visible_records(game)
    states = [services.state_at(game, 0)]
    eg = services.engine_for(game)
    raw = turnlog.records(game)
    state = states[0].clone()
    observations = [state.observation(None)]
    for record in raw:
        apply_record(eg, state, record)
        observations.append(state.observation(None))
    return turns, observations


def seat_names(game: Game) -> dict[str, str]:
    """Each seat's name on the replay: its player's display name, a bot by its level ("Strong bot"), a player
    who gave no name as "Anonymous (Upper)", a seat nobody took (an imported log's) by the seat's own name."""
    ui = ui_for(services.engine_for(game))
    names = {side: ui.seat_name(side) for side in ui.game.info.players}
    for seat in game.seats.all():
        if seat.display_name:
            names[seat.side] = seat.display_name
        elif seat.kind == seat.Kind.BOT:
            names[seat.side] = f"{seat.bot_level.capitalize()} bot" if seat.bot_level else "Bot"
        elif seat.is_claimed:
            names[seat.side] = f"Anonymous ({ui.seat_name(seat.side)})"
    return names


# --- words ------------------------------------------------------------------------------------------

def outcome_line(game: Game) -> str:
    """How the game stands, in one sentence: the result and why ("Lower wins after 34 moves: every Upper token
    is defeated and Upper has no throws left."), why it stopped, or that it goes on. Moves as people count
    them: chance turns (deals, new tiles) are not moves."""
    n = gamelog.moves_made(game)
    moves = f"{n} move{'s' if n != 1 else ''}"
    if game.status == Game.Status.FINISHED:
        ui = ui_for(services.engine_for(game))
        result = presenters.result_info(game, ui)
        if len(ui.game.info.players) == 1:
            return f"{result['sentence'].rstrip('.')} ({moves})."
        return ui.result_sentence(f"{result['headline']} after {moves}", result["why"]).rstrip(".") + "."
    if game.status == Game.Status.ABORTED:
        return game.note or f"aborted after {moves}"
    if game.status == Game.Status.ACTIVE:
        return f"in play: {moves} so far"
    return "waiting for a player"


def who(ui, side: str, name: str) -> str:
    """``alice (Upper)``, or just ``Upper`` when the seat has no name of its own (a name that already says
    the seat, ``Anonymous (Upper)``, as it is)."""
    label = ui.seat_name(side)
    if name.strip().lower() in (side, label.lower()) or name.endswith(f"({label})"):
        return name
    return f"{name} ({label})"


def summary_line(game: Game, names: dict[str, str] | None = None) -> str:
    ui = ui_for(services.engine_for(game))
    names = names or seat_names(game)
    title = ui.game.info.title
    source = f"imported log ({title})" if game.source == Game.Source.IMPORTED else title
    players = " vs ".join(who(ui, s, names[s]) for s in ui.game.info.players)
    outcome = outcome_line(game).rstrip(".")
    return f"{players}, {source}. {outcome[:1].upper() + outcome[1:]}."


MOVES_PER_PAGE = 50  # the move list shows this many turns around the one viewed; the page script loads others


def move_window(ui, turns: list[dict], observations: list, n: int) -> dict:
    """The page of the move list that holds turn ``n`` (turn 0, the start, is on the first): its rows and the
    turns of the pages before and after, so that a long game's page stays small."""
    page = max(0, n - 1) // MOVES_PER_PAGE
    first, last = page * MOVES_PER_PAGE + 1, min(len(turns), (page + 1) * MOVES_PER_PAGE)
    before = sum(gamelog.is_move(t["actions"]) for t in turns[:first - 1])
    return {"rows": move_rows(ui, turns[first - 1:last], observations[first - 1:last], before), "start": page == 0,
            "earlier": (first - MOVES_PER_PAGE, first - 1) if page else None,
            "later": (last + 1, min(len(turns), last + MOVES_PER_PAGE)) if last < len(turns) else None}


def chapters(ui, observations: list) -> list[dict]:
    """Where each part of the game starts (poker's hands): ``{"label", "turn"}``, the first turn after which a
    position of that part is shown; [] for games without parts."""
    out, last = [], ""
    for n, observation in enumerate(observations):
        label = ui.chapter(observation)
        if label and label != last:
            out.append({"label": label, "turn": n})
        last = label or last
    return out


def move_rows(ui, turns: list[dict], observations: list, moves_before: int = 0) -> list[dict]:
    """The moves list: each turn in words, read against the position it was played in (``observations[n]``
    is the spectator's view after ``n`` turns). ``number``: the turn's (where the replay goes); ``move``: the
    count of moves up to it as people count them (``moves_before`` the first), None for a chance turn."""
    rows, moves = [], moves_before
    for i, t in enumerate(turns):
        before = observations[i] if i < len(observations) else None
        moved = gamelog.is_move(t["actions"])
        moves += moved
        said = [{"side": side, "label": ui.seat_name(side), "words": ui.action_words(side, action, before)}
                if side != CHANCE else {"side": side, "label": "Chance", "words": ui.chance_words(action)}
                for side, action in t["actions"].items() if side in ui.game.info.players or side == CHANCE]
        told = {m["words"].lower() for m in said}  # an event that says again what the move says is left out
        rows.append({
            "number": t["number"], "move": moves if moved else None, "moves": said,
            "battles": [w for w in (ui.event_words(e) for e in t["events"]) if w and w.lower() not in told],
        })
    return rows


# --- the position after turn N ----------------------------------------------------------------------

def side_info(ui, observation, side: str, names: dict[str, str]) -> dict:
    return {"side": side, "label": ui.seat_name(side), "name": names[side],
            "stats": [{"label": label, "value": value} for label, value in ui.seat_stats(observation, side)]}


def position(game: Game, n: int, observation, turn: dict | None, names: dict[str, str], *,
             flipped: bool = False, before=None) -> dict:
    """What the board fragment shows: the board after turn ``n`` with that turn's moves drawn, and words
    (read against ``before``, the observation after turn ``n - 1``, where given)."""
    ui = ui_for(services.engine_for(game))
    bd = ui.board(observation, flipped=flipped, last=turn)
    sides = [side_info(ui, observation, s, names) for s in ui.game.info.players]
    if flipped:
        sides.reverse()  # the side whose home row is on top is listed first
    final = n == game.turn and game.is_over
    return {
        "n": n, "move": gamelog.moves_made(game, n), "board": bd, "board_template": ui.board_template, "sides": sides,
        "top": sides[0], "bottom": sides[-1], "flipped": flipped,
        "row": move_rows(ui, [turn], [before], gamelog.moves_made(game, n - 1))[0] if turn else None,
        "outcome": outcome_line(game) if final else "",
        "outcome_kind": ("result" if game.status == Game.Status.FINISHED else "stopped") if final else "",
    }


def position_at(game: Game, n: int, flipped: bool = False) -> dict:
    """``position`` after turn ``n``, read through the position cache (one turn, not the whole history)."""
    observation = services.state_at(game, n).observation(None)
    turn = gamelog.visible_records(game, None, upto=n)[-1] if n else None
    before = services.state_at(game, n - 1).observation(None) if n else None
    return position(game, n, observation, turn, seat_names(game), flipped=flipped, before=before)


# --- the material chart -------------------------------------------------------------------------------

def material_chart(ui, observations: list, current: int) -> dict | None:
    """Geometry of a small inline SVG chart: the game's material figure per seat over the turns, a rect per
    turn to click. None for a game without one."""
    sides = list(ui.game.info.players)
    if ui.material(observations[0], sides[0]) is None:
        return None
    values = [{s: ui.material(o, s) for s in sides} for o in observations]
    top_value = max([getattr(ui, "chart_max", 0)] + [v for row in values for v in row.values()]) or 1
    width, height = 360, 150
    left, right, top, bottom = 10 + 7 * len(str(round(top_value))), 10, 10, 22  # room for the axis' numbers
    last = max(len(observations) - 1, 1)
    dx = (width - left - right) / last

    def x(n):
        return left + n * dx

    def y(v):
        return top + (top_value - v) * (height - top - bottom) / top_value

    lines = {side: " ".join(f"{x(n):.1f},{y(row[side]):.1f}" for n, row in enumerate(values)) for side in sides}
    if len(values) == 1:  # a single point: draw a short flat line so it shows
        lines = {side: f"{x(0):.1f},{y(values[0][side]):.1f} {x(0) + 6:.1f},{y(values[0][side]):.1f}"
                 for side in sides}
    hits = []
    for n, row in enumerate(values):
        x1, x2 = max(left, x(n) - dx / 2), min(width - right, x(n) + dx / 2)
        hits.append({"n": n, "x": f"{x1:.1f}", "w": f"{x2 - x1:.1f}",
                     "title": f"after turn {n}: " + ", ".join(f"{ui.seat_name(s)} {row[s]:g}" for s in sides)})
    step = next(k for k in (1, 2, 5, 10, 20, 25, 50, 100, 1000, 10000) if last / k <= 6)
    ticks = [{"n": n, "x": f"{x(n):.1f}"} for n in range(0, len(values), step)]
    grid = [{"v": round(top_value * k / 3), "y": f"{y(top_value * k / 3):.1f}"} for k in range(4)]
    final = {side: values[-1][side] for side in sides}
    return {"width": width, "height": height, "left": left, "right": width - right, "top": top,
            "base": height - bottom, "plot_h": height - bottom - top, "dx": f"{dx:.4f}", "x0": left,
            "lines": lines, "series": [{"side": s, "name": ui.seat_name(s), "points": lines[s], "final": final[s]}
                                       for s in sides],
            "hits": hits, "ticks": ticks, "grid": grid, "cursor_x": f"{x(current):.1f}",
            "label_y": height - 6, "final": final, "turns": len(values) - 1, "label": ui.chart_label}
