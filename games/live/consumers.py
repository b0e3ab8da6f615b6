"""The game WebSocket: every open page of a game (players and spectators) joins the game's group and
gets the board and turn panel as htmx out-of-band fragments, at once on (re)connect and after each change.

Thin by design: authenticate (the seat in the signed session), check the message's shape, call one
service function, relay. Each connection gets the fragments for its viewer (a player sees their own pending
action and nobody else does), rendered once per game version and viewer kind (``presenters.live_fragments``).
A client (an IP address) may hold at most ``SOCKETS_PER_CLIENT`` sockets in a process; more are refused
(close code 4429), so one client cannot starve the others. A socket the channel layer could not subscribe to
its game's updates (Redis down or just restarted) gets the board, then close code 4503: reconnect.
"""
from __future__ import annotations

from collections import Counter
from urllib.parse import urlparse

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.security.websocket import AllowedHostsOriginValidator
from django.conf import settings
from django.db import OperationalError

try:  # Daphne's WebSocket protocol (Autobahn) raises it on a send to a socket that has closed meanwhile
    from autobahn.exception import Disconnected as ClientGone
except ImportError:  # another ASGI server: nothing to catch
    ClientGone = ()

from games.live import fanout, watching
from games.read import presenters
from games.guard import ratelimit, safejson
from games.play import seatsession, services
from games.play.announce import group_name
from games.guard.refusals import database_busy
from games.models import Game

UNSUBSCRIBED = 4503  # close code: the channel layer failed, this socket would get no updates (Autobahn refuses 1013)
MISSING = object()  # seat_of: the game does not exist
_open = Counter()  # client address -> open sockets in this process (the consumers share the server's loop)


def origin_allowed(scope) -> bool:
    """Whether the handshake's ``Origin``, if it has one, names a host of ALLOWED_HOSTS (Channels' own check: any
    scheme and port, ``.example.org`` with its subdomains, ``*`` anything). None is allowed: browsers always send
    one (the check keeps other sites' pages from using a visitor's session), and a program has no session."""
    origin = None
    for name, value in scope.get("headers") or []:
        if name == b"origin":
            origin = value
    if origin is None:
        return True
    return AllowedHostsOriginValidator(None).valid_origin(urlparse(origin.decode("latin-1")))


class GameConsumer(AsyncJsonWebsocketConsumer):
    client = None
    counted = False  # in ``watching`` (from the accept until the disconnect)
    turn_sent = 0  # the latest resolved turn this page was sent

    async def connect(self):
        if not origin_allowed(self.scope):
            await self.refuse(4403, "Origin not allowed: send this site's own, or none")
            return
        client = ratelimit.scope_address(self.scope)
        if _open[client] >= settings.SOCKETS_PER_CLIENT:
            await self.refuse(4429, f"too many open sockets from one client (at most {settings.SOCKETS_PER_CLIENT})")
            return
        self.client = client
        _open[client] += 1
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        if "\x00" in self.game_id:  # no id holds NUL, and PostgreSQL would refuse the query
            await self.refuse(4404, "no such game")
            return
        self.seat = await database_sync_to_async(self.seat_of)()
        if self.seat is MISSING:
            await self.refuse(4404, "no such game")
            return
        if self.seat is False:
            await self.refuse(4403, "wrong seat token for this game")
            return
        self.group = group_name(self.game_id)
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception:  # the channel layer is down, or its connection went stale with a Redis restart
            self.group = None
        await self.accept()
        self.counted = True
        watching.add(self.game_id, self.side)
        await self.send_view()
        if self.group is None:  # the board as it is, then "reconnect": updates come to the next socket
            await self.close(code=UNSUBSCRIBED)

    async def refuse(self, code: int, message: str):
        """Accept, say why (an error line), close with ``code``: a program can read both, where a refused
        handshake is a bare HTTP 403 (and Daphne drops a close frame's reason)."""
        await self.accept()
        await self.send_error(message)
        await self.close(code=code, reason=message)

    @property
    def side(self) -> str | None:
        return self.seat[0] if self.seat else None

    def seat_of(self):
        """(side, token) of the viewer: a program sends ``Authorization: Seat <token>`` with the handshake (never
        in the URL); a browser has its seat in the signed session. None: a spectator; False: a wrong token;
        MISSING: no such game."""
        header = dict(self.scope.get("headers") or []).get(b"authorization", b"").decode("latin-1")
        if header.startswith("Seat "):
            token = header[len("Seat "):].strip()
            try:
                seat = services.seat_for_token(services.get_game(self.game_id), token)
            except services.NotFound:
                return MISSING
            except services.ServiceError:
                return False
            return seat.side, token
        if not Game.objects.filter(pk=self.game_id).exists():
            return MISSING
        return seatsession.recall(self.scope.get("session"), self.game_id)

    async def disconnect(self, code):
        if self.client is not None:
            _open[self.client] -= 1
            if _open[self.client] <= 0:
                del _open[self.client]
            self.client = None
        if self.counted:
            self.counted = False
            watching.remove(self.game_id, self.side)
        if getattr(self, "group", None):
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            except Exception:
                pass

    async def receive_json(self, content, **kwargs):
        """Messages: {"type": "sync"}, {"type": "submit", "turn": N, "action": [...]}, {"type": "resign"}."""
        wait = await sync_to_async(ratelimit.hit, thread_sensitive=False)("ws", ratelimit.scope_address(self.scope))
        if wait:
            await self.send_error(f"too many messages: try again in {int(wait + 0.999)} s")
            return
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "sync":
            await self.send_view()
            return
        if kind not in ("submit", "resign"):
            await self.send_error('unknown message; expected {"type": "sync" | "submit" | "resign"}')
            return
        if self.seat is None:
            await self.send_error("you are watching: only a player can act")
            return
        token = self.seat[1]
        try:
            if kind == "submit":
                if "turn" not in content or "action" not in content:
                    raise services.BadRequest('expected {"type": "submit", "turn": N, "action": [...]}')
                await database_sync_to_async(services.submit_action)(self.game_id, token, content["turn"],
                                                                     content["action"])
            else:
                await database_sync_to_async(services.resign)(self.game_id, token)
        except services.ServiceError as exc:
            await self.send_error(exc.message)
            return
        except OperationalError as exc:
            if not database_busy(exc):
                raise
            await self.send_error("the server is busy: try again in a moment")  # rolled back: nothing changed
            return
        # A move or resignation accepted is not counted: legal play limits itself (games.guard.ratelimit).
        await sync_to_async(ratelimit.refund, thread_sensitive=False)("ws", ratelimit.scope_address(self.scope))
        await self.send_view()

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if not text_data:  # an empty text frame or a binary one (Channels would raise: a 1011 and a traceback)
            await self.send_error('expected a JSON text message, e.g. {"type": "sync"}')
            return
        try:
            await super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)
        except safejson.BadJSON as exc:
            await self.send_error(str(exc))

    @classmethod
    async def decode_json(cls, text_data):
        return safejson.loads(text_data or "", max_bytes=safejson.MAX_BYTES)

    async def dispatch(self, message):
        """As Channels' ``dispatch``, without its thread hop to close stale database connections before every
        message: this consumer reaches the database only through ``database_sync_to_async``, which closes
        them itself, and most updates go out from the render cache without touching it."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def game_changed(self, event):
        turn = event.get("turn", 0)
        if turn < self.turn_sent:  # a late announcement of a turn already shown
            return
        self.turn_sent = turn
        await self.send_view(event.get("version"))

    async def send_view(self, version: str | None = None):
        """The fragments of ``version`` (announced) or of the game as it is now; from this process's
        renders when another viewer of the same kind already had them, without a thread or a query."""
        html = presenters.cached_fragments(self.game_id, version, self.side)
        if html is None and version is not None:
            await fanout.render_once(self.game_id, version)
            html = presenters.cached_fragments(self.game_id, version, self.side)
        if html is None:
            turn, html = await database_sync_to_async(presenters.live_view)(self.game_id, self.side, version)
            self.turn_sent = max(self.turn_sent, turn)
        await self.send(text_data=html)

    async def send(self, text_data=None, bytes_data=None, close=False):
        """As Channels' ``send``, except that a socket its client has closed meanwhile gets nothing, quietly
        (its disconnect is on the way): under load, a traceback logged for each would cost more than the send."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except ClientGone:
            pass

    async def send_error(self, message: str):
        await self.send(text_data=presenters.error_fragment(message))
