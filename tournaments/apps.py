from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        # A tournament game that finishes lets the tournament go on (next games, next Swiss round, the end).
        from games.play.signals import game_changed

        from . import services
        game_changed.connect(services.on_game_changed, dispatch_uid="tournaments")
        # A finished tournament game's page links back to its tournament.
        from games.read.aftergame import register

        from .aftergame import back_to_tournament
        register(back_to_tournament)
