"""``manage.py importlog FILE``: store a game log (a COMP30024 referee log of any game) as an imported game.

Prints what it noticed, then as its last line ``imported game ID: REPLAY_URL`` (REPLAY_URL is absolute,
on ``settings.SITE_URL``: the env ``SITE_URL``, default ``http://127.0.0.1:8000``). ``FILE`` may be ``-``
for standard input.
A file that cannot be read stores nothing and exits 1 with the reason (and the line at fault).
"""
import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from games.play import importer
from games.read import replay


class Command(BaseCommand):
    help = ("Import a COMP30024 referee log (both hex notations) as a game; prints "
            "'imported game ID: REPLAY_URL' as its last line.")

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="the referee log, or - for standard input")
        parser.add_argument("--upper", default="", help="the first seat's display name (Upper, White; default: from the "
                                                         "file name, e.g. alice-vs-bob.txt, else the seat's name)")
        parser.add_argument("--lower", default="", help="the second seat's display name (Lower, Black)")
        parser.add_argument("--site-url", default=None,
                            help="base URL of the site for the printed link (default: env SITE_URL)")

    def handle(self, *args, file, upper, lower, site_url, **options):
        name = file
        try:
            if file == "-":
                data = sys.stdin.buffer.read(importer.MAX_BYTES + 1)
                name = None
            else:
                path = Path(file)
                if path.is_file() and path.stat().st_size > importer.MAX_BYTES:
                    raise importer.LogImportError(f"the file is too large ({path.stat().st_size // 1024} KiB); "
                                                  f"the limit is {importer.MAX_BYTES // 1024} KiB")
                with open(path, "rb") as fh:
                    data = fh.read(importer.MAX_BYTES + 1)
            done = importer.import_bytes(data, filename=name, names=[upper, lower])
        except OSError as exc:
            raise CommandError(f"{file}: cannot read: {exc.strerror or exc}") from None
        except importer.LogImportError as exc:
            raise CommandError(f"{file}: cannot import: {exc.message}") from None
        game = done.game
        for message in done.messages:
            self.stdout.write(f"{file}: {message}")
        self.stdout.write(f"{file}: {game.turn} of {done.log_turns} turns imported; "
                          f"{replay.outcome_line(game)}")
        base = (site_url or settings.SITE_URL).rstrip("/")
        self.stdout.write(f"imported game {game.id}: {base}{reverse('replay', args=[game.id])}")
