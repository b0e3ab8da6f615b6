"""Play a course-style ``Player`` class (COMP30024's interface) on a ropasci server through its HTTP API.

    python -m games.client --server URL --player PACKAGE[:Class] --game ID --seat-token T [--seat SEAT]
    python -m games.client --server URL --player PACKAGE[:Class] --bot LEVEL [--kind GAME] [--seat SEAT]
    python -m games.client --server URL --player PACKAGE[:Class] --key KEY [--games N]

The first form takes a seat of an existing game (its seat token, and which seat it is: default the game's
first, upper in RoPaSci 360); the second creates a new game of ``--kind`` (default: the first game with a
course interface, RoPaSci 360) with the player in one seat against the server's ``bot:LEVEL``. The third plays
as a bot account (``KEY``: an API key made on the account's profile): it lists the challenges addressed to
the account, accepts those of games with a course interface (declines others) and plays each in the seat it
is given, one at a time, until N games are played (default: until stopped).
The player is a COMP30024-style class (``__init__(player)``, ``action()``, ``update(opponent_action,
player_action)``; the class is ``Player`` unless named after a colon), loaded as the course referee does; its
actions are converted by the game's ``course`` module (``games/<game>/course.py``).
The last two lines printed are ``result: <result line>`` and ``replay: <absolute replay URL>``.

The client never leaves a game it holds a seat in for a passing trouble: a rate limit (429, after its
``Retry-After``), a busy or restarting server (502, 503, 504), a dropped or refused connection. It sends the
request again (a move sent twice is answered 409, which it takes as done), reads the game where it is and
plays on; only after ``--patience`` seconds (default 600) without an answer does it give up, saying so and
printing the command that resumes the game.

Standard library and the pure-Python game kit only (no Django), so it runs anywhere the player runs. The API:

* ``POST /api/games`` ``{"game", "players": {"upper": P, "lower": P}, "turn_seconds"}`` -> 201
  ``{"id", "url", "replay_url", "seats": {seat: {"token"}}}`` (P is ``"human"`` or ``"bot:LEVEL"``)
* ``GET /api/games/<id>?wait_turn=N`` -> the game (``status``, ``turn`` = resolved turns, ``to_act``,
  ``result``, ``turns`` = [{"number", "actions": {seat: action}}]), held up to 30 s until N turns are resolved
* ``POST /api/games/<id>/actions`` (``Authorization: Seat <token>``) ``{"turn": N, "action": [...]}`` ->
  200 resolved, 202 waiting for the other seat, 400 illegal, 403 bad token, 409 stale/duplicate/finished
"""
from __future__ import annotations

import argparse
import http.client
import importlib
import json
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from games.engine import game_module
from games.engine.registry import course_games

FINISHED = {"finished", "over", "done", "ended", "aborted", "abandoned", "cancelled", "canceled"}
POLL_SECONDS = 30
PATIENCE = 600  # seconds without an answer before the client gives up (and says how to resume)
TRANSIENT = {429, 502, 503, 504}  # try again: a rate limit (with Retry-After), a busy or restarting server
MAX_BACKOFF = 5  # seconds: the longest pause between tries without a Retry-After


class ApiError(Exception):
    def __init__(self, status: int, body, retry_after: float | None = None):
        self.status, self.body, self.retry_after = status, body, retry_after
        msg = body.get("error") if isinstance(body, dict) else None
        super().__init__(f"HTTP {status}: {msg or body}")


class GaveUp(Exception):
    """The server gave no usable answer for ``PATIENCE`` seconds."""


def _retry_after(value) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


class Api:
    """A minimal JSON-over-HTTP client for the ropasci API. A request that meets a rate limit (429), a busy or
    restarting server (502, 503, 504), a dropped or refused connection or a cut-off answer is sent again,
    after ``Retry-After`` if the server gave one, else with a growing pause, until ``patience`` seconds have
    passed without an answer (then ``GaveUp``). Sending a move again is safe: the server answers a duplicate
    with 409."""

    def __init__(self, server: str, timeout: float = POLL_SECONDS + 15, patience: float = PATIENCE,
                 key: str | None = None, say=None):
        self.server = server.rstrip("/") + "/"
        self.key = key  # a bot account's API key, sent where no seat token is
        self.timeout = timeout
        self.patience = patience
        self.say = say or (lambda message: print(message, file=sys.stderr, flush=True))
        self.retried = 0  # requests sent again, all told

    def url(self, path: str) -> str:
        return urllib.parse.urljoin(self.server, path.lstrip("/"))

    def request(self, method: str, path: str, body=None, token: str | None = None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Seat {token}"
        elif self.key:
            headers["Authorization"] = f"Key {self.key}"
        url = self.url(path)
        failing_since, backoff = None, 0.5
        while True:
            try:
                return self._send(urllib.request.Request(url, data=data, headers=headers, method=method))
            except ApiError as exc:
                if exc.status not in TRANSIENT:
                    raise
                problem, pause = str(exc), exc.retry_after
            except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
                problem, pause = f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}", None
            now = time.monotonic()
            failing_since = failing_since or now
            if pause is None:
                pause, backoff = backoff * random.uniform(0.8, 1.2), min(MAX_BACKOFF, backoff * 2)
            if now + pause - failing_since > self.patience:
                raise GaveUp(f"no answer from {self.server} for {now - failing_since:.0f} s (last: {problem})")
            self.retried += 1
            self.say(f"{method} {path}: {problem}; trying again in {pause:.1f} s")
            time.sleep(pause)

    def _send(self, req):
        """One request: (status, JSON body); ApiError for an HTTP error or an answer that is not JSON; a
        cut-off answer raises http.client.IncompleteRead."""
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                raw = resp.read()
                if not raw:  # the server went away while holding a long-poll (its 200 was already sent)
                    raise http.client.IncompleteRead(raw)
                try:
                    return resp.status, json.loads(raw)
                except ValueError:
                    raise ApiError(resp.status, raw[:200].decode(errors="replace")) from None
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            try:
                payload = json.loads(raw) if raw else None
            except ValueError:
                payload = raw.decode(errors="replace")
            raise ApiError(exc.code, payload, _retry_after(exc.headers.get("Retry-After"))) from None

    def create_game(self, players: dict, game: str | None = None, turn_seconds=None) -> dict:
        game = game or course_games()[0]
        status, body = self.request("POST", "/api/games", {"game": game, "players": players,
                                                           "turn_seconds": turn_seconds})
        return body

    def get_game(self, game_id, wait_turn: int | None = None, token: str | None = None) -> dict:
        """The game; with ``token``, as that seat sees it (a seat's first read of each turn is never counted
        against the address's reads: programs sharing an address play at full speed)."""
        path = f"/api/games/{game_id}"
        if wait_turn is not None:
            path += f"?wait_turn={int(wait_turn)}"
        return self.request("GET", path, token=token)[1]

    def post_action(self, game_id, token: str, turn: int, action) -> tuple[int, dict]:
        return self.request("POST", f"/api/games/{game_id}/actions", {"turn": turn, "action": action}, token=token)

    def challenges(self) -> list[dict]:
        """The pending challenges addressed to the key's bot account."""
        return self.request("GET", "/api/challenges")[1]["challenges"]

    def answer_challenge(self, challenge_id: str, answer: str) -> dict:
        """``answer`` "accept" (the game's id, this account's seat and its token) or "decline"."""
        return self.request("POST", f"/api/challenges/{challenge_id}/{answer}", {})[1]


# --- the game's course interface ------------------------------------------------------------------------

def course_of(kind: str):
    """The ``course`` module of game ``kind`` (its seats and the course's action form); ValueError if the game
    has no course-style players."""
    if kind not in course_games():
        raise ValueError(f"{kind!r} has no course-style players (games that do: {', '.join(course_games())})")
    return game_module(kind, "course")


def load_player_class(spec: str):
    """The class named by ``package[:Class]`` (default ``Player``), as the course referee loads it."""
    module_name, _, class_name = spec.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, class_name or "Player")


def is_finished(game: dict) -> bool:
    return bool(game.get("result")) or str(game.get("status", "")).lower() in FINISHED


# --- the game loop ------------------------------------------------------------------------------------

def play(api: Api, game_id, seat: str, token: str, player, out=print) -> dict:
    """Play ``seat`` of game ``game_id`` with a course-style ``player`` until the game ends; return the game.

    Raises ApiError on a rejected action (400 illegal, 403 bad token) or another unexpected answer.
    """
    known = 0  # resolved turns the player has been told about
    submitted = None  # turn number we have an action in for
    game = api.get_game(game_id, token=token)
    course = course_of(game.get("game"))
    other = course.SEATS[1 - course.SEATS.index(seat)]
    while True:
        turns = sorted(game.get("turns") or [], key=lambda t: t.get("number", 0))
        for t in turns:
            number = t.get("number", 0)
            if number <= known:
                continue
            if number != known + 1:
                raise RuntimeError(f"turn {known + 1} is missing from the server's record")
            acts = t["actions"]
            player.update(course.from_json(acts[other]), course.from_json(acts[seat]))
            known = number
        if is_finished(game):
            return game
        resolved = int(game.get("turn", known))
        if seat in (game.get("to_act") or []) and resolved == known and submitted != known + 1:
            action = player.action()
            try:
                status, _ = api.post_action(game_id, token, known + 1, course.to_json(action))
            except ApiError as exc:
                if exc.status != 409:  # stale, duplicate or finished: refresh and carry on
                    raise
            submitted = known + 1
        game = api.get_game(game_id, wait_turn=known + 1, token=token)


def serve(api: Api, cls, player_spec: str, games: int = 0, poll: float = 5.0, out=print) -> int:
    """As a bot account (``api.key``): accept challenges of games with course-style players (decline others)
    and play each with a new ``cls(seat)``, until ``games`` are played (0: forever). Returns the number of games played."""
    played = 0
    while not games or played < games:
        waiting = api.challenges()
        for challenge in waiting:
            kind = challenge.get("game")
            if kind not in course_games() or challenge.get("side") not in game_module(kind, "course").SEATS:
                api.answer_challenge(challenge["id"], "decline")
                out(f"declined challenge {challenge['id']} ({kind}): this client plays {', '.join(course_games())}")
                continue
            try:
                accepted = api.answer_challenge(challenge["id"], "accept")
            except ApiError as exc:
                if exc.status in (403, 404, 409):  # withdrawn or taken meanwhile
                    continue
                raise
            game_id, seat = accepted["game_id"], accepted["seat"]
            out(f"game {game_id}: {player_spec} as {seat} against {challenge.get('challenger')}; watch: "
                f"{api.url(accepted.get('game_url') or '/games/' + game_id)}")
            game = play(api, game_id, seat, accepted["seat_token"], cls(seat))
            out(f"result: {game.get('result') or game.get('status')}")
            out(f"replay: {api.url(game.get('replay_url') or f'/games/{game_id}/replay')}")
            played += 1
            break  # look at the list again: some may have been withdrawn while this game went on
        else:
            time.sleep(poll)  # nothing to play yet
    return played


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.client",
        description="Play a course-style Player class on a ropasci server through its HTTP API.")
    parser.add_argument("--server", required=True, help="base URL of the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--player", required=True, metavar="PACKAGE[:Class]",
                        help="the Player class to play with (class 'Player' unless named after a colon)")
    parser.add_argument("--game", help="ID of an existing game to join (with --seat-token)")
    parser.add_argument("--seat-token", help="the seat token of that game")
    parser.add_argument("--seat", help="which seat you play (default: the game's first)")
    parser.add_argument("--kind", default=course_games()[0], choices=course_games(),
                        help=f"with --bot: the game to create (default {course_games()[0]})")
    parser.add_argument("--bot", metavar="LEVEL", help="create a new game against the server's bot of this level")
    parser.add_argument("--key", help="play the challenges to the bot account of this API key")
    parser.add_argument("--games", type=int, default=0, help="with --key: stop after this many games (default: never)")
    parser.add_argument("--patience", type=float, default=PATIENCE, metavar="SECONDS",
                        help=f"give up after this long without an answer from the server (default {PATIENCE})")
    args = parser.parse_args(argv)
    if sum(map(bool, (args.bot, args.game, args.key))) != 1:
        parser.error("give one of --bot LEVEL (new game), --game ID with --seat-token, or --key KEY (challenges)")
    if args.game and not args.seat_token:
        parser.error("--game needs --seat-token")
    if urllib.parse.urlsplit(args.server).scheme not in ("http", "https"):
        parser.error(f"--server must be an http:// or https:// URL, not {args.server!r}")

    seats = game_module(args.kind, "course").SEATS
    args.seat = args.seat or seats[0]
    if args.seat not in seats:
        parser.error(f"--seat must be one of {', '.join(seats)}")

    api = Api(args.server, key=args.key, patience=args.patience)
    try:
        cls = load_player_class(args.player)
    except (ImportError, AttributeError) as exc:
        print(f"cannot load player {args.player!r}: {exc}", file=sys.stderr)
        return 2
    game_id = token = None
    try:
        if args.key:
            played = serve(api, cls, args.player, games=max(0, args.games),
                           out=lambda *a, **k: print(*a, **{"flush": True, **k}))
            print(f"played {played} game{'s' if played != 1 else ''}")
            return 0
        if args.bot:
            other = seats[1 - seats.index(args.seat)]
            created = api.create_game({args.seat: "human", other: f"bot:{args.bot}"}, args.kind)
            game_id = created["id"]
            token = created["seats"][args.seat]["token"]
            if created.get("url"):
                print(f"game {game_id}: {args.player} as {args.seat} against bot:{args.bot}; watch: "
                      f"{api.url(created['url'])}", flush=True)
        else:
            game_id, token = args.game, args.seat_token
            print(f"game {game_id}: {args.player} as {args.seat}", flush=True)
        replay = created.get("replay_url") if args.bot else None
        player = cls(args.seat)
        game = play(api, game_id, args.seat, token, player)
    except ApiError as exc:
        if exc.status == 400:
            print(f"illegal action: {exc}", file=sys.stderr)
        elif exc.status == 403:
            print(f"the server refused the {'key' if args.key else 'seat token'}: {exc}", file=sys.stderr)
        else:
            print(f"server error: {exc}", file=sys.stderr)
        return 1
    except GaveUp as exc:
        print(f"gave up: {exc}", file=sys.stderr)
        if game_id is not None:
            print(f"game {game_id} goes on without this client (its seat is still {args.seat}); to play on, run: "
                  f"python -m games.client --server {args.server} --player {args.player} --game {game_id} "
                  f"--seat-token {token} --seat {args.seat}", file=sys.stderr)
        return 1
    result = game.get("result") or f"{game.get('status')}: {game.get('ending') or 'no result'}"
    print(f"result: {result}")
    replay = game.get("replay_url") or replay or f"/games/{game_id}/replay"
    print(f"replay: {api.url(replay)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
