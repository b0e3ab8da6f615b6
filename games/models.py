"""Games, their seats, the append-only turn log, and pending (submitted, unresolved) actions.

The turn log is the source of truth (chance outcomes included): ``Game.state`` caches the engine's JSON
after the last resolved turn, for staff only (it may hold hidden information); the exact state is folded
from the log (``services.current_state``). How a game ended is data: ``Game.outcome`` (winners, returns,
text) and each ``Seat.score``, never parsed from text. Pending actions live in their own table and are only
ever shown to the seat that submitted them. ``Game.seed`` draws chance events and never leaves the server.
"""
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import models


def new_game_id() -> str:
    """Short, unguessable, URL-safe game id (spectating needs the link, playing needs a seat token)."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


def new_seed() -> str:
    return secrets.token_hex(16)


def new_token() -> str:
    """A secret for a seat or a challenge: URL-safe, and never starting with "-", so that a program's command line
    (``--seat-token TOKEN``) does not read it as an option."""
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith("-"):
            return token


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class TokenHash:
    """A browser's proof of its seat: the hash of the seat's token, which its session keeps instead of the
    token itself (a leaked session table then cannot play through the API, which wants the token)."""

    value: str


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for a player"
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    class Ending(models.TextChoices):
        RULES = "rules", "By the rules"
        RESIGNATION = "resignation", "Resignation"
        TIMEOUT = "timeout", "Timeout"
        ABORTED = "aborted", "Aborted"

    class Source(models.TextChoices):
        PLAYED = "played", "Played here"
        IMPORTED = "imported", "Imported log"

    id = models.CharField(primary_key=True, max_length=16, default=new_game_id, editable=False)
    kind = models.CharField("game", max_length=32, db_index=True)
    params = models.JSONField(default=dict, blank=True, help_text="The game's parameters (complete)")
    turn_seconds = models.PositiveIntegerField(null=True, blank=True, help_text="Per-turn time limit")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    result = models.CharField(max_length=200, blank=True, db_index=True, help_text="The outcome in words")
    outcome = models.JSONField(null=True, blank=True, help_text="winners, returns per seat, text")
    ending = models.CharField(max_length=12, choices=Ending.choices, blank=True)
    turn = models.PositiveIntegerField("turns", default=0, db_index=True,  # the admin sorts by it
                                       help_text="Number of resolved turns")
    state = models.JSONField(null=True, blank=True, help_text="Cached engine state after the last turn")
    to_act = models.JSONField(default=list, blank=True, help_text="Seats to act in the turn in play")
    seed = models.CharField(max_length=64, default=new_seed, editable=False, help_text="Secret: draws chance")
    turn_started = models.DateTimeField(null=True, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.PLAYED, db_index=True)
    note = models.CharField(max_length=300, blank=True, help_text="e.g. why an imported log stops")
    move_seconds = models.FloatField(null=True, blank=True, editable=False,
                                     help_text="Least time between two bot moves: a game of bots made to be watched")
    rematch = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL, editable=False,
                                   related_name="rematch_of",
                                   help_text="The game one of its players asked to play next, the seats swapped")
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    updated = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "-updated"])]

    def __str__(self):
        return f"{self.kind} {self.id}"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def version(self) -> str:
        """Names the saved game as it is now: every save changes ``updated`` (so a pending choice does too),
        and the turn and status are written out for a reader (caches of what viewers see are keyed by it)."""
        stamp = self.updated.timestamp() if self.updated else 0.0
        return f"{self.turn}:{self.status}:{stamp:.6f}"

    @property
    def turn_deadline(self):
        if self.turn_seconds and self.turn_started and self.status == self.Status.ACTIVE:
            from datetime import timedelta
            return self.turn_started + timedelta(seconds=self.turn_seconds)
        return None

    def get_absolute_url(self):
        from django.urls import reverse
        return reverse("game", args=[self.id])


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", "Human"
        BOT = "bot", "Bot"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    side = models.CharField(max_length=16)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    bot_level = models.CharField(max_length=16, blank=True, db_index=True)
    bot_seconds = models.FloatField(null=True, blank=True,
                                    help_text="A bot's thinking time per move (empty: its level's default)")
    display_name = models.CharField(max_length=60, blank=True, db_index=True)
    token_hash = models.CharField(max_length=64, blank=True, editable=False)
    score = models.FloatField(null=True, blank=True, help_text="The seat's return once the game is over")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="seats")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "side"], name="one_seat_per_side")]
        ordering = ["game", "id"]

    def __str__(self):
        return f"{self.side}: {self.label}"

    @property
    def label(self) -> str:
        if self.kind == self.Kind.BOT:
            return self.display_name or f"bot ({self.bot_level})"
        return self.display_name or ("open seat" if not self.is_claimed else "anonymous")

    @property
    def is_claimed(self) -> bool:
        return self.kind == self.Kind.BOT or bool(self.token_hash)

    def issue_token(self) -> str:
        token = new_token()
        self.token_hash = hash_token(token)
        return token

    def token_matches(self, token: "str | TokenHash") -> bool:
        digest = token.value if isinstance(token, TokenHash) else hash_token(token)
        return bool(self.token_hash) and hmac.compare_digest(self.token_hash, digest)


class Turn(models.Model):
    """One resolved turn: every seat's action in canonical JSON, and what followed (battles)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    actions = models.JSONField()
    events = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="one_row_per_turn")]
        ordering = ["game", "number"]

    def __str__(self):
        return f"turn {self.number}"


class PendingAction(models.Model):
    """A seat's submitted action for the turn in play, secret until the turn resolves."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pending")
    side = models.CharField(max_length=16)
    turn = models.PositiveIntegerField()
    action = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "side"], name="one_pending_per_seat")]

    def __str__(self):
        return f"{self.side} (turn {self.turn})"


class ServerBeat(models.Model):
    """One row: when a server process (any of them) last showed it was running. Turn clocks stop while no
    server runs: a server starting after a longer gap moves every clock on by the gap (``clocks.resume``)."""

    beat = models.DateTimeField()

    def __str__(self):
        return f"server alive at {self.beat:%Y-%m-%d %H:%M:%S}"
