"""Sign-up, password, API key and challenge forms."""
from __future__ import annotations

from django import forms
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm, UserCreationForm

from games.engine import load_game
from games.engine.registry import names_in_order

# Names that would shadow a page under /players/ (a profile lives at /players/<username>).
RESERVED_NAMES = {"leaderboard", "leaderboards", "challenges", "keys", "me", "signup", "admin", "api", "bot"}


def game_titles(min_players: int = 2, max_players: int | None = None) -> list[tuple[str, str]]:
    """(name, title) of the registered games whose default table has ``min_players``..``max_players`` seats."""
    out = []
    for name in names_in_order():
        info = load_game(name).info
        if len(info.players) >= min_players and (max_players is None or len(info.players) <= max_players):
            out.append((name, info.title))
    return out


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label="E-mail (optional)", required=False,
                             help_text="Only to reset your password if you forget it.",
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def validate_password_for_user(self, user, password_field_name="password1"):
        """The password's rules (too short, too common) speak of the password: their errors go under it, not
        under its confirmation as Django's form puts them."""
        super().validate_password_for_user(user, password_field_name=password_field_name)

    def clean_username(self):
        username = super().clean_username()
        if username and username.lower() in RESERVED_NAMES:
            raise forms.ValidationError("This name is reserved: choose another.")
        return username


class NewPasswordErrorsUnderIt:
    """A new password's rules (too short, too common) speak of the password: their errors go under it, not
    under its confirmation as Django's password forms put them (a mismatch stays the confirmation's)."""

    def validate_password_for_user(self, user, password_field_name="new_password2"):
        super().validate_password_for_user(user, "new_password1")


class PasswordChange(NewPasswordErrorsUnderIt, PasswordChangeForm):
    pass


class PasswordSet(NewPasswordErrorsUnderIt, SetPasswordForm):
    """The new password chosen through a reset link."""


class ApiKeyForm(forms.Form):
    name = forms.CharField(label="Name of the key (optional)", max_length=60, required=False, strip=True,
                           help_text="e.g. the program or machine that uses it")


SIDE_CHOICES = [("random", "Random"), ("first", "First seat"), ("second", "Second seat")]


class ChallengeForm(forms.Form):
    game = forms.ChoiceField(label="Game", choices=lambda: game_titles(2, 2))
    side = forms.ChoiceField(label="Your seat", choices=SIDE_CHOICES, initial="random",
                             help_text="The first seat moves first (in games with turns).")
    rated = forms.BooleanField(label="Rated", required=False,
                               help_text="The result changes both players' ratings for this game.")
    name = forms.CharField(label="Your name (optional)", max_length=60, required=False, strip=True,
                           widget=forms.TextInput(attrs={"autocomplete": "nickname", "placeholder": "anonymous"}))

    def side_name(self) -> str | None:
        """The chosen seat's name in the chosen game (None: random)."""
        choice = self.cleaned_data["side"]
        if choice == "random":
            return None
        seats = list(load_game(self.cleaned_data["game"]).info.players)
        return seats[0] if choice == "first" else seats[1]
