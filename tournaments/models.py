"""Tournaments: entrants (accounts or server bots), pairings per round, and the games each pairing plays.

An account enters only by accepting: listed by someone else it is ``INVITED`` until it accepts or declines; a
tournament with invitations unanswered is ``OPEN`` and is paired, with its accepted entrants only, once none
is left (``services.answer``, ``services.start_now``).

A ``Pairing`` is two entrants meeting in a round (``second`` empty: ``first`` has a bye or, in a round robin,
sits out). Each of its ``games_per_pairing`` games is a ``TournamentGame`` row made in the same transaction
as the ``games.Game`` it points to; the unique (pairing, number) constraint means a game is never created
twice. Scores and standings are computed from the games' outcomes (``services.table``), never stored.
"""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for entrants"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    name = models.CharField(max_length=100)
    kind = models.CharField("game", max_length=32, db_index=True)
    params = models.JSONField(default=dict, blank=True, help_text="The game's parameters (complete)")
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.ROUND_ROBIN)
    rounds = models.PositiveSmallIntegerField(help_text="Rounds in all (a round robin: one per opponent); "
                                              "0 while open: a Swiss's default, set when it starts")
    games_per_pairing = models.PositiveSmallIntegerField(default=1, help_text="Seats alternate game by game")
    turn_seconds = models.PositiveIntegerField(null=True, blank=True, help_text="Per-turn time limit")
    bot_seconds = models.FloatField(null=True, blank=True, help_text="Server bots' thinking time per move")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="tournaments_created")
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament", args=[self.pk])


class Entrant(models.Model):
    class Status(models.TextChoices):
        INVITED = "invited", "Invited"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        UNANSWERED = "unanswered", "Did not answer"  # the creator started without waiting

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    seed = models.PositiveSmallIntegerField(help_text="Entry order (1 first): the last resort between equals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="tournament_entries")
    bot_level = models.CharField(max_length=16, blank=True, help_text="A server bot's level (else an account)")
    name = models.CharField(max_length=60)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACCEPTED, db_index=True,
                              help_text="Server bots and the creator are accepted at once; other accounts accept")

    class Meta:
        ordering = ["tournament", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seed"], name="one_entrant_per_seed"),
            models.UniqueConstraint(fields=["tournament", "user"], condition=Q(user__isnull=False),
                                    name="one_entry_per_user"),
            models.UniqueConstraint(fields=["tournament", "bot_level"], condition=~Q(bot_level=""),
                                    name="one_entry_per_bot_level"),
        ]

    def __str__(self):
        return self.name

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def player_spec(self) -> str:
        """How ``games.play.services.create_game`` seats this entrant."""
        return f"bot:{self.bot_level}" if self.bot_level else "human"


class Pairing(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField(help_text="Order within the round")
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+",
                              help_text="Takes the first seat in odd-numbered games")
    second = models.ForeignKey(Entrant, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                               help_text="Empty: a bye (Swiss) or sitting out (round robin)")

    class Meta:
        ordering = ["tournament", "round", "board"]
        constraints = [models.UniqueConstraint(fields=["tournament", "round", "board"], name="one_pairing_per_board")]

    def __str__(self):
        return f"round {self.round}: {self.first} vs {self.second or '(bye)'}"


class TournamentGame(models.Model):
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(help_text="1 .. games per pairing")
    game = models.OneToOneField("games.Game", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="tournament_game", help_text="Empty once the game is deleted")
    first_side = models.CharField(max_length=16, help_text="The seat the pairing's first entrant plays")

    class Meta:
        ordering = ["pairing", "number"]
        constraints = [models.UniqueConstraint(fields=["pairing", "number"], name="one_game_per_number")]

    def __str__(self):
        return f"{self.pairing} game {self.number}"

    @property
    def is_over(self) -> bool:
        return self.game is None or self.game.is_over
