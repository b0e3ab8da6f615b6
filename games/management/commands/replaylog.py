"""``manage.py replaylog FILE [FILE ...]``: replay referee logs through the engine, one outcome line per file."""
import sys

from django.core.management.base import BaseCommand

from games.engine import refereelog


class Command(BaseCommand):
    help = ("Replay COMP30024 referee logs and print 'FILE: OUTCOME' per file: the result line, "
            "'unfinished after N turns' or 'illegal action at turn N by SIDE'.")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args, files, **options):
        failed = False
        for name in files:
            try:
                with open(name, encoding="utf-8") as fh:
                    log = refereelog.parse(fh.read())
            except (OSError, UnicodeDecodeError, refereelog.LogFormatError) as exc:
                self.stderr.write(f"{name}: cannot read log: {exc}")
                failed = True
                continue
            rep = refereelog.replay(log)
            self.stdout.write(f"{name}: {rep.outcome}")
            if rep.illegal is not None:
                self.stderr.write(f"{name}: {rep.illegal}")
            if log.result is not None and rep.illegal is None and log.result != rep.outcome:
                self.stderr.write(f"{name}: note: the log's own result line says {log.result!r}")
        if failed:
            sys.exit(1)
