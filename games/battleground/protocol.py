"""One client's connection: JSON lines in and out, read by a task of its own from the moment it connects, so
that a client that goes away is known at once (``closed``), even while it waits for an opponent."""
from __future__ import annotations

import asyncio
import json

MAX_LINE = 64 * 1024  # far above any message of the protocol (an action is a few dozen bytes)
TYPES = ("OKAY", "ERRO", "PLAY", "GAME", "INIT", "TURN", "ACTN", "UPD8", "OVER")


class ProtocolError(Exception):
    """The client sent what the protocol does not allow here: answered with ``ERRO`` and the reason."""


class Disconnected(Exception):
    """The client went away (or did not answer in time)."""


def decode(line: bytes) -> dict:
    """A message from one line; ProtocolError saying what is wrong with it."""
    try:
        msg = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ProtocolError(f"not a JSON line: {line[:60]!r}") from None
    if not isinstance(msg, dict) or msg.get("mtype") not in TYPES:
        raise ProtocolError(f"not a message of the protocol (no known \"mtype\"): {line[:60]!r}")
    return msg


class Client:
    """A connected client: ``send`` a message, ``recv`` the next one of the expected types."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.host = str(peer[0]) if isinstance(peer, tuple) else str(peer)  # the client's address
        self.address = f"{self.host}:{peer[1]}" if isinstance(peer, tuple) else self.host
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.closed = asyncio.Event()
        self._reading = asyncio.get_running_loop().create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                try:
                    line = await reader.readuntil(b"\n")
                except asyncio.LimitOverrunError:
                    self.inbox.put_nowait(ProtocolError(f"a line longer than {MAX_LINE} bytes"))
                    return
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                if line.strip():
                    try:
                        self.inbox.put_nowait(decode(line))
                    except ProtocolError as exc:
                        self.inbox.put_nowait(exc)
                        return
        finally:
            self.closed.set()
            self.inbox.put_nowait(Disconnected("the client went away"))

    async def send(self, mtype: str, **fields) -> None:
        if self.writer.is_closing():
            raise Disconnected("the connection is closed")
        line = json.dumps({"mtype": mtype, **fields}, separators=(",", ":")) + "\n"
        try:
            self.writer.write(line.encode())
            await self.writer.drain()
        except ConnectionError as exc:
            raise Disconnected(f"the client went away ({exc})") from None

    async def recv(self, *expected: str, timeout: float | None = None) -> dict:
        """The next message, which must be of one of the ``expected`` types (ProtocolError otherwise);
        Disconnected if the client goes away or sends nothing within ``timeout`` seconds."""
        try:
            msg = await asyncio.wait_for(self.inbox.get(), timeout)
        except asyncio.TimeoutError:
            raise Disconnected(f"no answer within {timeout:g} s") from None
        if isinstance(msg, Exception):
            self.inbox.put_nowait(msg)  # every later read sees it too
            raise msg
        if msg["mtype"] not in expected:
            raise ProtocolError(f"expected {' or '.join(expected)}, got {msg['mtype']}")
        return msg

    async def refuse(self, reason: str) -> None:
        """Tell the client what it did wrong (``ERRO``) and hang up."""
        try:
            await self.send("ERRO", reason=reason)
        except Disconnected:
            pass
        await self.close()

    async def close(self) -> None:
        self._reading.cancel()
        if not self.writer.is_closing():
            self.writer.close()
        try:
            await self.writer.wait_closed()
        except ConnectionError:
            pass
