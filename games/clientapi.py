"""The HTTP side of ``python -m games.client``: JSON requests to a ropasci server, sent again through passing
trouble (rate limits, a busy or restarting server, dropped connections) until ``patience`` runs out.
Standard library only."""
from __future__ import annotations

import http.client
import json
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from games.engine.registry import default_name

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

    def create_game(self, players: dict, game: str | None = None, turn_seconds=None, params=None) -> dict:
        """A new game of ``game`` (default: the registered default) with ``players`` (seat -> "human" or
        "bot:LEVEL"); its id, links and the human seats' tokens."""
        status, body = self.request("POST", "/api/games", {"game": game or default_name(), "params": params or {},
                                                           "players": players, "turn_seconds": turn_seconds})
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
