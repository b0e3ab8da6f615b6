"""The battleground's TCP server on the running event loop (Daphne's, under ``python -m ropasci.server``; its
own, under ``manage.py battleground``): each connection sends ``PLAY``, then plays a server bot at once
(channel ``bot:LEVEL``) or waits in the lobby for its channel's next client."""
from __future__ import annotations

import asyncio
import logging
import math
from functools import partial

from games.guard import ratelimit
from games.live.serverloop import ensure_started
from games.play.errors import ServiceError

from .match import Entrant, Match
from .pairing import Lobby
from .protocol import MAX_LINE, Client, Disconnected, ProtocolError
from .served import bot_level, game_name, player_of
from .watch import db

log = logging.getLogger(__name__)

PLAY_SECONDS = 30.0  # for a new connection's PLAY


async def serve(host: str, port: int) -> asyncio.Server | None:
    """Listen on ``host``:``port`` (0: a free port) and start the server's own work on this loop (bot moves,
    turn clocks). None, logged, if the port cannot be had: the rest of the site runs on."""
    package = logging.getLogger(__package__)
    if package.getEffectiveLevel() > logging.INFO:
        package.setLevel(logging.INFO)  # each game's link is this server's output
    game_name()  # fail now, not at the first client, if no game is the battleground's
    ensure_started()
    try:
        server = await asyncio.start_server(partial(handle, Lobby()), host, port, limit=MAX_LINE)
    except OSError as exc:
        log.error("the battleground cannot listen on %s:%s: %s", host, port, exc)
        return None
    where = ", ".join(f"{s.getsockname()[0]}:{s.getsockname()[1]}" for s in server.sockets)
    log.info("battleground (the course's ROPASCI protocol) listening on %s", where)
    return server


async def handle(lobby: Lobby, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    client = Client(reader, writer)
    try:
        msg = await client.recv("PLAY", timeout=PLAY_SECONDS)
        wait = await db(ratelimit.hit, "create", client.host)  # a PLAY makes a game, as a lobby form does
        if wait:
            raise ProtocolError(f"too many games from your address: try again in {math.ceil(wait)} s")
        player = await db(player_of, msg)
        level = await db(bot_level, player.channel)  # the first call imports the game's bots: not on the loop
        await client.send("OKAY")
        entrant = Entrant(player, client)
        if level:
            await Match([entrant], level).run()
        else:
            await lobby.enter(entrant)
    except ProtocolError as exc:
        await client.refuse(str(exc))
    except ServiceError as exc:
        await client.refuse(exc.message)
    except Disconnected:
        pass
    except Exception:
        log.exception("battleground connection from %s failed", client.address)
    finally:
        await client.close()
