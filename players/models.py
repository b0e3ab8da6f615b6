"""Players: accounts' profiles, ratings per game kind (people, server bot levels and bot accounts), which
games are rated, each rated game's rating changes, API keys of bot accounts, and challenges to them.

Nothing here adds a field to the games app: a rated game is a ``RatedGame`` row keyed by the game, made when
the game is created (the lobby's "Rated" box, a rated challenge)."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from . import ratings


def new_challenge_id() -> str:
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))


class Profile(models.Model):
    """What the site knows of an account beyond Django's user: whether it is a bot account (a program plays
    it through the API with a key; people can challenge it)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="player_profile")
    is_bot = models.BooleanField("bot account", default=False,
                                 help_text="Played by a program with an API key; people can challenge it")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.user} ({'bot' if self.is_bot else 'person'})"


class RatedPlayer(models.Model):
    """One rated identity in one game kind: an account (a person or a bot account) or a server bot level."""

    kind = models.CharField("game", max_length=32, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="ratings")
    bot_level = models.CharField(max_length=16, blank=True, help_text="A server bot level (no account)")
    rating = models.FloatField(default=ratings.START_RATING)
    rd = models.FloatField("RD", default=ratings.START_RD)
    volatility = models.FloatField(default=ratings.START_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "user"], condition=Q(user__isnull=False),
                                    name="one_rating_per_user_and_kind"),
            models.UniqueConstraint(fields=["kind", "bot_level"], condition=Q(user__isnull=True),
                                    name="one_rating_per_bot_and_kind"),
            models.CheckConstraint(condition=(Q(user__isnull=False) & Q(bot_level="")) |
                                   (Q(user__isnull=True) & ~Q(bot_level="")), name="account_or_bot_level"),
        ]
        indexes = [models.Index(fields=["kind", "-rating"])]
        ordering = ["kind", "-rating"]

    def __str__(self):
        return f"{self.name} ({self.kind}): {self.rating:.0f}"

    @property
    def name(self) -> str:
        return self.user.get_username() if self.user_id else f"bot:{self.bot_level}"

    @property
    def current(self) -> ratings.Rating:
        return ratings.Rating(self.rating, self.rd, self.volatility)

    @property
    def provisional(self) -> bool:
        return self.current.provisional


class RatedGame(models.Model):
    """A game created as rated; rated once when it finishes (``state`` goes from pending to rated, or to
    skipped with the reason in ``note``)."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending (not finished)"
        RATED = "rated", "Rated"
        SKIPPED = "skipped", "Not rated"

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True,
                                related_name="rating_request")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING, db_index=True)
    note = models.CharField(max_length=200, blank=True, help_text="Why it was not rated")
    created = models.DateTimeField(auto_now_add=True)
    rated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.game_id}: {self.state}"


class RatingChange(models.Model):
    """One rated player's rating before and after one game: the rating history (the profile's chart). One
    row per (game, player): a game is never rated twice."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(RatedPlayer, on_delete=models.CASCADE, related_name="history")
    score = models.FloatField(help_text="Mean score against the other seats (1 win, 0.5 draw, 0 loss)")
    rating_before = models.FloatField()
    rd_before = models.FloatField()
    volatility_before = models.FloatField()
    rating = models.FloatField()
    rd = models.FloatField("RD")
    volatility = models.FloatField()
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="one_change_per_game_and_player")]
        ordering = ["player", "created", "id"]

    def __str__(self):
        return f"{self.player.name} {self.rating_before:.0f} -> {self.rating:.0f} ({self.game_id})"

    @property
    def delta(self) -> float:
        return self.rating - self.rating_before


class ApiKey(models.Model):
    """A bot account's key for the API (``Authorization: Key <key>``): shown once when made, stored hashed
    (SHA-256, like seat tokens); ``prefix`` (the key's first characters) tells keys apart."""

    PREFIX = "rpk_"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=60, blank=True)
    prefix = models.CharField(max_length=16, editable=False)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True, editable=False)
    revoked = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = "API key"

    def __str__(self):
        return f"{self.prefix}… ({self.user})"

    @property
    def active(self) -> bool:
        return self.revoked is None


class Challenge(models.Model):
    """A challenge to a bot account: its program lists it (``GET /api/challenges``) and accepts it (the game
    is made then, the bot account seated) or declines it. The challenger's seat token was handed out when
    the challenge was made; only its hash is kept here."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"

    id = models.CharField(primary_key=True, max_length=16, default=new_challenge_id, editable=False)
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="challenges_sent")
    challenger_name = models.CharField(max_length=60, blank=True)
    challenger_side = models.CharField(max_length=16)
    challenger_token_hash = models.CharField(max_length=64, editable=False)
    target = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received")
    kind = models.CharField("game", max_length=32)
    params = models.JSONField(default=dict, blank=True)
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"{self.challenger_label} → {self.target} ({self.kind}, {self.status})"

    @property
    def challenger_label(self) -> str:
        return self.challenger.get_username() if self.challenger_id else (self.challenger_name or "anonymous")
