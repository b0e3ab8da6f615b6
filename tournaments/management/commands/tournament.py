"""``manage.py tournament advance [ID ...]``: create the games that can start now in the given running
tournaments (all running ones by default). Idempotent; the site does this by itself when a game ends."""
from django.core.management.base import BaseCommand, CommandError

from tournaments import services
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Advance tournaments: create the games that can start now (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["advance"])
        parser.add_argument("ids", nargs="*", type=int, help="tournament ids (default: every running one)")

    def handle(self, *args, action, ids, **options):
        ids = ids or list(Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list("pk", flat=True))
        for pk in ids:
            try:
                made = services.advance(pk)
            except services.ServiceError as exc:
                raise CommandError(exc.message) from None
            status = Tournament.objects.values_list("status", flat=True).get(pk=pk)
            self.stdout.write(f"tournament {pk}: {len(made)} game(s) created, {status}")
