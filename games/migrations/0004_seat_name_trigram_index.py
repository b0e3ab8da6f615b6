"""On PostgreSQL, a trigram index for the admin's search by a player's name (``display_name__icontains``,
which PostgreSQL runs as ``UPPER(display_name::text) LIKE UPPER('%term%')``): without it every search scans
all seats. Other databases keep the plain index of 0001."""
from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations

INDEX = "games_seat_name_trgm"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {INDEX} ON games_seat "
                              f"USING gin ((UPPER(display_name::text)) gin_trgm_ops)")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("games", "0003_seat_bot_seconds")]
    operations = [TrigramExtension(), migrations.RunPython(create, drop)]
