"""``manage.py battleground [--host H] [--port P]``: the course's battleground on its own, for a site whose web
servers run with ``BATTLEGROUND_PORT=0`` (scaled out: one battleground process holds the waiting room)."""
import asyncio

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.battleground.server import serve


class Command(BaseCommand):
    help = ("Serve the course's battleground (the COMP30024 2021 client's ROPASCI protocol over TCP) until "
            "stopped; each game's link is logged.")

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1",
                            help="address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)")
        parser.add_argument("--port", type=int, default=None,
                            help="port (default: BATTLEGROUND_PORT, 12360; 0 picks a free port)")

    def handle(self, *args, host, port, **options):
        if port is None:
            port = settings.BATTLEGROUND_PORT
            if not port:
                raise CommandError("BATTLEGROUND_PORT is 0 (off): give --port")
        asyncio.run(self.run(host, port))

    async def run(self, host: str, port: int) -> None:
        server = await serve(host, port)
        if server is None:
            raise CommandError(f"cannot listen on {host}:{port}")
        async with server:
            await server.serve_forever()
