"""One battleground game: made through the write side like any game of the site (seats claimed with the names
given, a turn clock, rated when every seat is an account or a bot), then played turn by turn between the
clients and the game's log. A client that goes away, breaks the protocol or plays an illegal action resigns
(the course's referee stopped a game at an illegal action; the site ends it as a resignation, so the other
side wins), so no game is left hanging; one that neither moves nor goes away loses on the turn clock."""
from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction

from games.models import Game
from games.play import services, turnlog
from games.play.signals import game_created

from .protocol import TYPES, Client, Disconnected, ProtocolError
from .served import Player, game_name, seats
from .watch import Watch, db

log = logging.getLogger(__name__)

TURN_SECONDS = 120  # the site's longer turn clock (the lobby offers 30 s and 120 s)
ANSWER_SECONDS = TURN_SECONDS  # for the OKAY after INIT and UPD8 (the client's Player works meanwhile)


@dataclass
class Entrant:
    player: Player
    client: Client
    side: str = ""
    token: str = ""
    done: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())


def create(entrants: list[Entrant], level: str | None) -> tuple[Game, dict]:
    """The game, its seats taken at once (one transaction: no open seat is ever seen), sides drawn at random;
    marked rated (``game_created``, as the lobby does) when every seat is an account or a server bot. Returns
    the game and each seat's name, in the game's order of seats."""
    sides = list(seats())
    secrets.SystemRandom().shuffle(sides)
    players = {side: "human" for side in sides}
    if level:
        players[sides[len(entrants)]] = f"bot:{level}"
    with transaction.atomic():
        created = services.create_game(game_name(), players, TURN_SECONDS, claim=None)
        for entrant, side in zip(entrants, sides):
            entrant.side = side
            _, _, entrant.token = services.claim_seat(created.game.id, side, user=entrant.player.user,
                                                      name=entrant.player.name)
    game = services.get_game(created.game.id)
    names = {seat.side: seat.label for seat in game.seats.order_by("id")}
    accounts = [e.player.user for e in entrants if e.player.user is not None]
    if len(accounts) == len(entrants):
        game_created.send(sender=Game, game_id=game.id, user=accounts[0], options={"rated": True})
    return game, names


def link(game: Game) -> str:
    return settings.SITE_URL + game.get_absolute_url()


class Match:
    """Plays one game for its clients (one, against a bot, or two)."""

    def __init__(self, entrants: list[Entrant], level: str | None = None):
        self.entrants, self.level = entrants, level
        self.game: Game | None = None

    async def run(self) -> None:
        try:
            self.game, names = await db(create, self.entrants, self.level)
            channel = self.entrants[0].player.channel
            log.info("battleground game %s (%s%s): %s", self.game.id, " vs ".join(names.values()),
                     f", channel {channel!r}" if channel else "", link(self.game))
            await self.play(names)
        except Exception:
            log.exception("battleground game %s failed", self.game.id if self.game else "(not made)")
            if self.game is not None:
                await db(services.abort, self.game.id, "the battleground server failed")
        finally:
            for entrant in self.entrants:
                await entrant.client.close()
                if not entrant.done.done():
                    entrant.done.set_result(True)  # played

    async def play(self, names: dict) -> None:
        async with Watch(self.game.id) as watch:
            await self.each(lambda e: e.client.send("GAME", **names))
            await self.each(self.init)
            game = await watch.until(lambda g: True)
            while not game.is_over:
                turn = game.turn + 1
                await self.each(lambda e: e.client.send("TURN"))
                tasks = []
                for entrant in self.live():
                    moving = asyncio.ensure_future(self.guarded(entrant, self.move(entrant, turn)))
                    tasks += [moving, asyncio.ensure_future(self.waits(entrant, moving))]
                game = await watch.until(lambda g: g.turn >= turn)
                for task in tasks:
                    task.cancel()  # a seat that has not moved by now lost on its clock, or resigned
                if game.turn >= turn:
                    record = (await db(turnlog.records, game, turn - 1, turn))[0]
                    await self.each(lambda e: self.update(e, record))
                game = await watch.until(lambda g: True)
        result = game.result or f"game {game.status}: {game.note or game.ending}"
        await self.each(lambda e: e.client.send("OVER", result=result))
        log.info("battleground game %s over: %s", game.id, result)

    def live(self) -> list[Entrant]:
        return [e for e in self.entrants if not e.client.writer.is_closing()]

    async def each(self, step) -> None:
        """``step(entrant)`` for every client still here, at once."""
        await asyncio.gather(*(self.guarded(e, step(e)) for e in self.live()))

    async def guarded(self, entrant: Entrant, coro) -> None:
        """Run a client's step; a client that fails it resigns (told why if it broke the protocol)."""
        try:
            await coro
        except (Disconnected, ProtocolError, services.BadRequest) as exc:
            reason = exc.message if isinstance(exc, services.ServiceError) else str(exc)
            if isinstance(exc, Disconnected):
                await entrant.client.close()
            else:
                await entrant.client.refuse(reason)
            try:
                await db(services.resign, self.game.id, entrant.token)
            except services.Conflict:  # over already
                return
            log.info("battleground game %s: %s (%s) resigns: %s", self.game.id, entrant.player.name,
                     entrant.side, reason)

    async def init(self, entrant: Entrant) -> None:
        await entrant.client.send("INIT", colour=entrant.side)
        await entrant.client.recv("OKAY", timeout=ANSWER_SECONDS)

    async def move(self, entrant: Entrant, turn: int) -> None:
        msg = await entrant.client.recv("ACTN")
        try:
            await db(services.submit_action, self.game.id, entrant.token, turn, msg.get("action"))
        except services.Conflict:  # the game ended meanwhile (the other side resigned, a clock ran out)
            pass

    async def waits(self, entrant: Entrant, moving: asyncio.Future) -> None:
        """Once its action is in, a client waits for ``UPD8``: one that leaves meanwhile resigns at once (not a
        turn later), as does one that sends anything."""
        await moving
        await self.guarded(entrant, self.nothing_more(entrant))

    async def nothing_more(self, entrant: Entrant) -> None:
        msg = await entrant.client.recv(*TYPES)
        raise ProtocolError(f"{msg['mtype']} out of turn: the turn is not over yet")

    async def update(self, entrant: Entrant, record: dict) -> None:
        other = next(side for side in record if side != entrant.side)
        await entrant.client.send("UPD8", player_action=record.get(entrant.side), opponent_action=record[other])
        await entrant.client.recv("OKAY", timeout=ANSWER_SECONDS)
