"""``manage.py replaylog FILE [FILE ...]``: replay game logs through the engine, one outcome line per file."""
import sys

from django.core.management.base import BaseCommand, CommandError

from games.engine import LogFormatError, load_game, registered_names
from games.engine.history import read_log, replay_checked


class Command(BaseCommand):
    help = ("Replay game logs (COMP30024 referee logs of any game with a log format) and print 'FILE: OUTCOME' "
            "per file: the game's result words, 'unfinished after N turns' or 'illegal action at turn N by SEAT'.")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--game", default=None, help="the game of the logs (default: recognised from each file)")

    def handle(self, *args, files, game, **options):
        if game is not None and game not in registered_names():
            raise CommandError(f"unknown game {game!r}; known: {', '.join(registered_names())}")
        failed = False
        for name in files:
            try:
                with open(name, encoding="utf-8") as fh:
                    kind, log = read_log(fh.read(), game)
            except (OSError, UnicodeDecodeError, LogFormatError) as exc:
                self.stderr.write(f"{name}: cannot read log: {exc}")
                failed = True
                continue
            rep = replay_checked(load_game(kind), log.turns)
            self.stdout.write(f"{name}: {rep.outcome}")
            if rep.illegal is not None:
                self.stderr.write(f"{name}: {rep.illegal}")
            if log.result is not None and rep.illegal is None and log.result != rep.outcome:
                self.stderr.write(f"{name}: note: the log's own result line says {log.result!r}")
        if failed:
            sys.exit(1)
