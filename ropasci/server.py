"""Daphne with request bodies bounded: ``python -m ropasci.server -b 127.0.0.1 -p 8000 ropasci.asgi:application``
(Daphne's own options, e.g. ``--proxy-headers``).

Twisted reads a whole request body before Daphne hands it to the application, which then gets it all at once in
its queue: a 200 MB upload took 200 MB of the server's memory, for good, before any view could refuse it.
Here a body over ``MAX_BODY`` (a declared ``Content-Length`` at once, a chunked one as it passes the limit) gets
413 with a JSON error and nothing of it is kept: the rest of it is read and dropped for up to ``LINGER_SECONDS``
(so that a client still sending reads the answer), then the connection is closed.

With ``BATTLEGROUND_PORT`` set (default 12360; 0: off) the same process serves the course's battleground
(``games.battleground``) on that port, on the address given with ``-b``.
"""
from __future__ import annotations

import json
import sys

from daphne.cli import CommandLineInterface
from daphne.http_protocol import HTTPFactory, WebRequest
from daphne.server import Server

# Above every body a view takes (a log import: 2 x 256 KiB and the form around it); the views check their own.
MAX_BODY = 1024 * 1024
LINGER_SECONDS = 10.0


class BoundedRequest(WebRequest):
    """Daphne's request, refused with 413 as soon as its body is known to be over ``MAX_BODY``."""

    received = 0
    refused = False

    def gotLength(self, length):
        super().gotLength(length)
        if length is not None and length > MAX_BODY:
            self.requestHeaders.removeHeader(b"Expect")  # no "100 Continue" after the refusal
            self.refuse()

    def handleContentChunk(self, data):
        if self.refused:
            return
        self.received += len(data)
        if self.received > MAX_BODY:
            self.refuse()
            return
        super().handleContentChunk(data)

    def requestReceived(self, command, path, version):
        if not self.refused:  # a refused body that arrived whole: answered already, nothing to run
            super().requestReceived(command, path, version)

    def refuse(self):
        """Answer 413 on the connection itself (the request never reaches the application), drop what was
        buffered, stop writing, and close once the client is done sending or after ``LINGER_SECONDS``."""
        from twisted.internet import reactor

        self.refused = True
        self.content.close()
        body = json.dumps({"error": f"request body too large (the limit is {MAX_BODY} bytes)"}).encode()
        transport = self.channel.transport
        transport.write(b"HTTP/1.1 413 Request Entity Too Large\r\nContent-Type: application/json\r\n"
                        b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
        getattr(transport, "loseWriteConnection", transport.loseConnection)()  # TLS transports have no half-close
        reactor.callLater(LINGER_SECONDS, transport.abortConnection)  # a no-op once closed


class BoundedHTTPFactory(HTTPFactory):
    def buildProtocol(self, addr):
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = BoundedRequest
        return protocol


class BoundedServer(Server):
    """Daphne's server with ``BoundedHTTPFactory``: ``Server.run`` makes its HTTP factory itself, so the
    assignment is caught here. It also starts the battleground on ``BATTLEGROUND_PORT`` (0: off), on the
    address the site listens on."""

    battleground_host = "127.0.0.1"

    def run(self):
        from twisted.internet import reactor

        reactor.callWhenRunning(start_battleground, self.battleground_host)
        super().run()

    @property
    def http_factory(self):
        return self._http_factory

    @http_factory.setter
    def http_factory(self, factory):
        self._http_factory = BoundedHTTPFactory(self) if type(factory) is HTTPFactory else factory


class BoundedCommandLine(CommandLineInterface):
    server_class = BoundedServer

    def run(self, args):
        host = self.parser.parse_args(args).host
        if host:
            BoundedServer.battleground_host = host
        super().run(args)


def start_battleground(host: str) -> None:
    """On the reactor's asyncio loop, once it runs (Django is set up by then: the application is loaded)."""
    import asyncio

    from django.conf import settings

    if settings.BATTLEGROUND_PORT:
        from games.battleground.server import serve
        asyncio.ensure_future(serve(host, settings.BATTLEGROUND_PORT))


if __name__ == "__main__":
    BoundedCommandLine().run(sys.argv[1:])
