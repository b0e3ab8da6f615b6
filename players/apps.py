from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
    verbose_name = "Players and ratings"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from games.battleground.served import account_named
        from games.play.signals import game_changed, game_created

        from . import receivers
        game_changed.connect(receivers.on_game_changed, dispatch_uid="players-ratings")
        game_created.connect(receivers.on_game_created, dispatch_uid="players-rated-games")
        account_named.connect(receivers.on_battleground_name, dispatch_uid="players-battleground")
        user_logged_in.connect(receivers.on_user_logged_in, dispatch_uid="players-claim-seats")
