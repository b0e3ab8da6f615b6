from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games.bots import pool
        pool.configure(settings.BOT_WORKERS)  # the bots never read Django's settings themselves
        # What follows a committed change to a game: each listener lives apart from the services.
        from games.live import botrunner, broadcast, clocks
        from games.play.signals import game_changed
        game_changed.connect(broadcast.on_game_changed, dispatch_uid="broadcast")
        game_changed.connect(botrunner.on_game_changed, dispatch_uid="bots")
        game_changed.connect(clocks.on_game_changed, dispatch_uid="clocks")
