"""The site's adapter for Rubik's Cube: the unfolded net (``templates/rubiks_cube/_board.html``), words and
input. Works from observations (``CubeState.to_json``) and canonical JSON actions only.

Input: each move is one step keyed by its notation (``{"key": "U'", "label": "U' (counter-clockwise)"}``).
Each face of the net carries ``data-pick`` of its clockwise turn (``"U"``), so a click on a face turns it
clockwise; the other twelve turns have keys that are not on the board and are offered as buttons.

``board(...)`` returns (for the template): ``turn``, ``width``, ``height``, ``sticker`` (size),
``faces`` (six dicts: ``face``, ``key`` (its clockwise move), ``name``, ``x``, ``y``, ``size``, ``cls``
(``face`` plus ``last`` if the last move turned it), ``label``, ``stickers`` (nine dicts: ``x``, ``y``,
``tx``, ``ty`` (the letter's centre), ``colour`` (the face letter of its colour))), ``status`` and ``last``
(lines of text for the empty corner below Left, centred on ``sx``, ``sy``) and ``solved``.
"""
from __future__ import annotations

from games.engine.ui import GameUI, Param

from . import DEFAULTS, MAX_SCRAMBLE, MIN_SCRAMBLE
from .rules import FACES, MOVE_LIMIT, SOLVED, move_words

PITCH = 40  # sticker pitch in SVG units
STICKER = 36
FACE = 3 * PITCH
FACE_GAP = 10
MARGIN = 8
# Where each face sits on the net, in face units (column, row): U above F; L F R B in a row; D below F.
NET = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}
FACE_NAMES = {"U": "Up", "R": "Right", "F": "Front", "D": "Down", "L": "Left", "B": "Back"}


def _origin(face: str) -> tuple[int, int]:
    col, row = NET[face]
    return MARGIN + col * (FACE + FACE_GAP), MARGIN + row * (FACE + FACE_GAP)


def _last_move(obs) -> str | None:
    moves = obs.get("moves") or obs.get("scramble") or []
    return moves[-1] if moves else None


class UI(GameUI):
    board_template = "rubiks_cube/_board.html"
    tagline = "Solve the scrambled cube one face turn at a time."
    stylesheet = "rubiks_cube/board.css"
    legend = ("The cube unfolded: Up above Front; Left, Front, Right and Back in a row; Down below Front. "
              "Every sticker shows the letter of the face its colour belongs to (U white, F green, R red, "
              "B blue, L orange, D yellow).")
    hint = ("Click a face to turn it clockwise (as seen looking at that face); the buttons give every turn: "
            "' is counter-clockwise, 2 a half turn. Keys: u d l r f b turn a face clockwise, with Shift "
            "counter-clockwise.")
    flippable = False
    chart_label = "Stickers in place"
    shortcuts = {**{face.lower(): face for face in "UDLRFB"}, **{face: face + "'" for face in "UDLRFB"}}

    # --- words -------------------------------------------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return "Player"

    def action_words(self, seat: str, action, observation=None) -> str:
        return move_words(self.game.action_from_json(action, seat))

    def event_words(self, event) -> str:
        if not isinstance(event, dict):
            return ""
        if "scramble" in event:
            return f"Scramble move {event.get('number')} of {event.get('of')}: {event['scramble']}"
        if "solved" in event:
            n = event["solved"]
            return "Solved!" if n else "The scramble left the cube solved"
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        returns = (outcome or {}).get("returns") or {}
        if observation is None or not returns:
            return super().result_reason(outcome, observation)
        if returns.get("player"):
            n = len(observation.get("moves", []))
            return f"Every face is one colour: solved in {n} move{'' if n == 1 else 's'}."
        return f"The limit of {MOVE_LIMIT} moves was reached before the cube was solved."

    # --- drawing -----------------------------------------------------------------------------------
    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or {}
        facelets = obs.get("facelets") or SOLVED
        last_face = (_last_move(obs) or " ")[0]
        faces = []
        for f, face in enumerate(FACES):
            x0, y0 = _origin(face)
            colours = facelets[9 * f:9 * f + 9]
            stickers = []
            for k, colour in enumerate(colours):
                x = x0 + (k % 3) * PITCH + (PITCH - STICKER) // 2
                y = y0 + (k // 3) * PITCH + (PITCH - STICKER) // 2
                stickers.append({"x": x, "y": y, "tx": x + STICKER // 2, "ty": y + STICKER // 2, "colour": colour})
            rows = ", ".join(" ".join(colours[3 * i:3 * i + 3]) for i in range(3))
            faces.append({"face": face, "key": face, "name": FACE_NAMES[face], "x": x0, "y": y0, "size": FACE,
                          "cls": "face" + (" last" if face == last_face else ""), "stickers": stickers,
                          "label": f"{FACE_NAMES[face]} face ({face}), stickers by row: {rows}"})
        moves = obs.get("moves") or []
        scramble = obs.get("scramble") or []
        if obs.get("to_move") is None and obs.get("result") is None:
            status = f"Scrambling: {len(scramble)} of {self.game.scramble_moves}"
        else:
            status = f"Moves: {len(moves)} of {MOVE_LIMIT}"
        last_move = _last_move(obs)
        _, bottom = _origin("D")
        return {
            "turn": obs.get("turn", 0),
            "width": 2 * MARGIN + 4 * FACE + 3 * FACE_GAP,
            "height": 2 * MARGIN + 3 * FACE + 2 * FACE_GAP,
            "sticker": STICKER,
            "faces": faces,
            "status": status,
            "last": f"Last: {last_move}" if last_move else "",
            "sx": MARGIN + FACE // 2,
            "sy": bottom + FACE // 2,
            "solved": facelets == SOLVED,
        }

    def seat_stats(self, observation, seat: str) -> list:
        if not observation:
            return []
        return [("Moves", f"{len(observation['moves'])} of {MOVE_LIMIT}"),
                ("Scramble", " ".join(observation["scramble"]) or "none")]

    def material(self, observation, seat: str):
        if observation is None:
            return None
        f = observation["facelets"]
        return float(sum(1 for k in range(54) if f[k] == f[9 * (k // 9) + 4]))

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        return [{"key": action, "label": move_words(action)}]

    def action_group(self, seat: str, action, observation=None) -> str:
        return f"{FACE_NAMES[action[0]]} face ({action[0]})"

    # --- the lobby ---------------------------------------------------------------------------------
    def params(self) -> list[Param]:
        return [Param("scramble_moves", "Scramble moves", DEFAULTS["scramble_moves"], minimum=MIN_SCRAMBLE,
                      maximum=MAX_SCRAMBLE, help="Random face turns made before you play")]
