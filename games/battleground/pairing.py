"""Pairing clients by channel, first come first served: the first client of a channel waits (kept alive with
``OKAY``), the next one with the same channel plays it. The open channel ("" or none) pairs only with itself.
One process holds the waiting room: run one battleground per site."""
from __future__ import annotations

import asyncio

from django.conf import settings

from .match import Entrant, Match

ANSWER_SECONDS = 30.0  # for the OKAY back to a keep-alive (settings.BATTLEGROUND_KEEPALIVE_SECONDS apart)


class Lobby:
    def __init__(self):
        self.waiting: dict[str, tuple[Entrant, asyncio.Future]] = {}  # channel -> first comer, its opponent

    async def enter(self, entrant: Entrant) -> None:
        """Play the channel's first comer, or wait for the next one; return when the game is over (or the
        client went away while it waited)."""
        channel = entrant.player.channel
        while True:
            first = self.waiting.pop(channel, None)
            if first is None or first[0].client.closed.is_set():
                break
            first[1].set_result(entrant)  # the first comer's handler plays the game
            if await entrant.done:
                return
            entrant.done = asyncio.get_running_loop().create_future()  # it went away first: look again
        opponent = asyncio.get_running_loop().create_future()
        self.waiting[channel] = (entrant, opponent)
        try:
            await self.wait(entrant, opponent)
        except BaseException:
            if opponent.done():
                opponent.result().done.set_result(False)
            raise
        finally:
            if self.waiting.get(channel, (None,))[0] is entrant:
                del self.waiting[channel]
        await Match([entrant, opponent.result()]).run()

    async def wait(self, entrant: Entrant, opponent: asyncio.Future) -> None:
        """Until an opponent comes, ask the client every ``BATTLEGROUND_KEEPALIVE_SECONDS`` whether it is still there;
        raises what the client did wrong (it has left the waiting room by then)."""
        client = entrant.client
        closed = asyncio.ensure_future(client.closed.wait())
        try:
            while not opponent.done():
                await asyncio.wait({opponent, closed}, timeout=settings.BATTLEGROUND_KEEPALIVE_SECONDS,
                                   return_when=asyncio.FIRST_COMPLETED)
                if opponent.done():
                    return
                if closed.done():
                    await client.recv("OKAY")  # raises why: a protocol error, or the client went away
                await client.send("OKAY")
                await client.recv("OKAY", timeout=ANSWER_SECONDS)
        finally:
            closed.cancel()
