"""Rate the finished rated games still pending (a signal lost to a crash between a game's end and its
rating): ``manage.py ratepending``."""
from django.core.management.base import BaseCommand

from players import services


class Command(BaseCommand):
    help = "Rate finished rated games whose rating is still pending."

    def handle(self, *args, **options):
        count = services.rate_pending()
        self.stdout.write(f"looked at {count} pending rated game{'s' if count != 1 else ''}")
