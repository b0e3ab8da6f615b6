"""Play your program on a ropasci server through its HTTP API, in any registered game.

    python -m games.client --server URL --player MODULE[:Class] --bot LEVEL [--game NAME] [--params JSON] [--seat SEAT]
    python -m games.client --server URL --player MODULE[:Class] --game NAME [--params JSON]   (a one-player game)
    python -m games.client --server URL --player MODULE[:Class] --game ID --seat-token T [--seat SEAT]
    python -m games.client --server URL --player MODULE[:Class] --key KEY [--games N]

The first creates a game of ``NAME`` (a registered game, default the site's default; ``--params`` its
parameters as JSON, e.g. ``'{"players": 3}'`` for poker) with the player in ``--seat`` (default the game's
first) and the server's ``bot:LEVEL`` in every other seat; a one-player game (2048, the cube, a puzzle) has no
other seat and needs no ``--bot``. The second takes a seat of an existing game: with
``--seat-token``, ``--game`` is the game's ID (as before), never a name (ids are 10 characters without ``l``,
``o``, ``0``, ``1``, so no registered name is one); the seat is the one the token holds (the server says which).
The third plays as a bot account (``KEY``: an API key made on the account's profile): it accepts the challenges
addressed to the account that the player can play (a generic agent: any game; a course player: games with a
course interface; it declines the others) and plays each, one at a time, until N games are played (default:
until stopped).

The player is a class built as ``Class(seat)`` (``Player`` unless named after a colon): a generic agent
(``choose(observation, legal_actions)``, see :mod:`games.clientagents`), or a COMP30024-style course player
(``Class(seat)``, ``action()``, ``update(...)``, no ``choose``) of the game's course year, played through the
game's ``course`` module (``games/<game>/course.py``: its seats, its action forms, and how that year's referee
tells the player each turn). The client acts when its seat is in ``to_act``,
simultaneous or alternating, long-polling ``?wait_turn=N`` between turns.
The last two lines printed are ``result: <result line>`` and ``replay: <absolute replay URL>``.

The client never leaves a game it holds a seat in for a passing trouble: a rate limit (429, after its
``Retry-After``), a busy or restarting server (502, 503, 504), a dropped or refused connection. It sends the
request again (a move sent twice is answered 409, which it takes as done), reads the game where it is and
plays on; only after ``--patience`` seconds (default 600) without an answer does it give up, saying so and
printing the command that resumes the game. Standard library and the pure game kit only (no Django), so it
runs anywhere the player runs. The API it uses: ``docs/api.md``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.parse

from games.clientagents import game_name, is_finished, load_player_class, play, plays, seat_of, seats_of
from games.clientapi import PATIENCE, Api, ApiError, GaveUp
from games.engine.registry import default_name, registered_names

__all__ = ["Api", "ApiError", "GaveUp", "is_finished", "main", "play", "serve"]


def serve(api: Api, cls, player_spec: str, games: int = 0, poll: float = 5.0, out=print) -> int:
    """As a bot account (``api.key``): accept the challenges ``cls`` can play (decline others) and play each
    with a new ``cls(seat)``, until ``games`` are played (0: forever). Returns the number of games played."""
    played = 0
    while not games or played < games:
        for challenge in api.challenges():
            kind, side = challenge.get("game"), challenge.get("side")
            why_not = plays(cls, kind, side) if kind in registered_names() else f"{kind!r} is unknown to this client"
            if why_not:
                api.answer_challenge(challenge["id"], "decline")
                out(f"declined challenge {challenge['id']} ({kind}): {why_not}")
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


def parse(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m games.client",
        description="Play a program (a generic agent or a course-style Player class) on a ropasci server.")
    parser.add_argument("--server", required=True, help="base URL of the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--player", required=True, metavar="MODULE[:Class]",
                        help="the class to play with (class 'Player' unless named after a colon)")
    parser.add_argument("--game", metavar="NAME|ID",
                        help=f"a new game: the game to create (default {default_name()}; one of "
                             f"{', '.join(registered_names())}); with --seat-token: the ID of the game to join")
    parser.add_argument("--params", type=json.loads, default=None, metavar="JSON",
                        help="a new game: its parameters, e.g. '{\"players\": 3}'")
    parser.add_argument("--seat-token", help="join game --game ID with this seat token")
    parser.add_argument("--seat", help="a new game: which seat you play (default: the game's first)")
    parser.add_argument("--bot", metavar="LEVEL",
                        help="a new game against the server's bot of this level (a one-player game needs none)")
    parser.add_argument("--key", help="play the challenges to the bot account of this API key")
    parser.add_argument("--games", type=int, default=0, help="with --key: stop after this many games (default: never)")
    parser.add_argument("--patience", type=float, default=PATIENCE, metavar="SECONDS",
                        help=f"give up after this long without an answer from the server (default {PATIENCE})")
    args = parser.parse_args(argv)
    if sum(map(bool, (args.bot, args.seat_token, args.key))) > 1:
        parser.error("give one of --bot LEVEL (new game), --game ID with --seat-token, or --key KEY (challenges)")
    if args.seat_token and not args.game:
        parser.error("--seat-token needs --game ID")
    if args.seat_token and args.game in registered_names():
        parser.error(f"with --seat-token, --game is the ID of the game to join, not a game's name ({args.game!r})")
    args.new = not (args.seat_token or args.key)
    if args.new:
        args.game = game_name(args.game or default_name())
        if args.game not in registered_names():
            parser.error(f"--game must name a game for a new game: one of {', '.join(registered_names())}")
        try:
            seats = seats_of(args.game, args.params)
        except (ValueError, TypeError) as exc:  # InvalidParams is a ValueError
            parser.error(f"--params: {exc}")
        if len(seats) > 1 and not args.bot:
            parser.error(f"give --bot LEVEL for the other seats of {args.game} ({len(seats)} seats; only a "
                         "one-player game needs no --bot), or --game ID with --seat-token, or --key KEY (challenges)")
        args.seat = args.seat or seats[0]
        if args.seat not in seats:
            parser.error(f"--seat must be one of {', '.join(seats)}")
    if urllib.parse.urlsplit(args.server).scheme not in ("http", "https"):
        parser.error(f"--server must be an http:// or https:// URL, not {args.server!r}")
    return args


def main(argv=None) -> int:
    args = parse(argv)
    api = Api(args.server, key=args.key, patience=args.patience)
    try:
        cls = load_player_class(args.player)
    except (ImportError, AttributeError) as exc:
        print(f"cannot load player {args.player!r}: {exc}", file=sys.stderr)
        return 2
    if args.new and (why_not := plays(cls, args.game, args.seat)):
        print(f"{args.player} cannot play: {why_not}", file=sys.stderr)
        return 2
    game_id = token = replay = None
    seat = args.seat
    try:
        if args.key:
            played = serve(api, cls, args.player, games=max(0, args.games),
                           out=lambda *a, **k: print(*a, **{"flush": True, **k}))
            print(f"played {played} game{'s' if played != 1 else ''}")
            return 0
        first = None
        if args.new:
            bots = {s: f"bot:{args.bot}" for s in seats_of(args.game, args.params) if s != seat}
            created = api.create_game({seat: "human", **bots}, args.game, params=args.params)
            game_id, token, replay = created["id"], created["seats"][seat]["token"], created.get("replay_url")
            print(f"game {game_id}: {args.player} as {seat}{f' against bot:{args.bot}' if bots else ''}; watch: "
                  f"{api.url(created.get('url') or '/games/' + game_id)}", flush=True)
        else:
            game_id, token = args.game, args.seat_token
            first = api.get_game(game_id, token=token)
            seat = seat_of(first, seat)
            if (why_not := plays(cls, first.get("game"), seat)):
                print(f"{args.player} cannot play: {why_not}", file=sys.stderr)
                return 2
            print(f"game {game_id}: {args.player} as {seat}", flush=True)
        game = play(api, game_id, seat, token, cls(seat), first=first)
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
            print(f"game {game_id} goes on without this client (its seat is still {seat or 'held'}); to play on, "
                  f"run: python -m games.client --server {args.server} --player {args.player} --game {game_id} "
                  f"--seat-token {token}" + (f" --seat {seat}" if seat else ""), file=sys.stderr)
        return 1
    result = game.get("result") or f"{game.get('status')}: {game.get('ending') or 'no result'}"
    print(f"result: {result}")
    print(f"replay: {api.url(game.get('replay_url') or replay or f'/games/{game_id}/replay')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
