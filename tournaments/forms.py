"""The form that creates a tournament: parsing only; ``services.create_tournament`` checks the rest (bot
levels of the chosen game, accounts, sizes) and says what is wrong."""
from __future__ import annotations

import re

from django import forms

from games.bots import LEVEL_WORDS, LEVELS
from games.web.forms import BOT_SECONDS_CHOICES, TIME_CHOICES
from games.play.services import TURN_SECONDS_CHOICES

from . import services
from .models import Tournament


def _kinds():
    return services.two_seat_kinds()


class TournamentForm(forms.Form):
    name = forms.CharField(label="Name", max_length=100, strip=True,
                           widget=forms.TextInput(attrs={"placeholder": "e.g. Class tournament, week 5"}))
    game = forms.ChoiceField(label="Game", choices=_kinds, help_text="Two-seat games only.")
    format = forms.ChoiceField(label="Format", choices=Tournament.Format.choices,
                               initial=Tournament.Format.ROUND_ROBIN, widget=forms.RadioSelect)
    rounds = forms.IntegerField(label="Rounds (Swiss)", required=False, min_value=1,
                                max_value=services.MAX_ENTRANTS - 1,
                                help_text="Empty: enough rounds to find a winner. A round robin has one round per opponent.")
    games_per_pairing = forms.IntegerField(label="Games per pairing", min_value=1,
                                           max_value=services.MAX_GAMES_PER_PAIRING, initial=2,
                                           help_text="The seats alternate game by game.")
    turn_seconds = forms.TypedChoiceField(label="Time per turn", choices=TIME_CHOICES, initial="", required=False,
                                          coerce=int, empty_value=None, widget=forms.RadioSelect)
    bot_seconds = forms.TypedChoiceField(label="Bots' time per move", choices=BOT_SECONDS_CHOICES, initial="1",
                                         coerce=float, required=False, empty_value=1.0, widget=forms.RadioSelect)
    bots = forms.MultipleChoiceField(label="Server bots", required=False, widget=forms.CheckboxSelectMultiple,
                                     choices=[(level, LEVEL_WORDS.get(level, level)) for level in LEVELS],
                                     help_text="Not every game has every level (perfect: solved games only).")
    usernames = forms.CharField(label="Accounts", required=False, max_length=2000, strip=True,
                                widget=forms.Textarea(attrs={"rows": 3, "placeholder": "ann, bob, course-bot"}),
                                help_text="Usernames of people or bot accounts, separated by commas, spaces or new lines.")

    def clean_turn_seconds(self):
        value = self.cleaned_data.get("turn_seconds")
        if value not in TURN_SECONDS_CHOICES:
            raise forms.ValidationError("Choose one of the offered time limits.")
        return value

    def clean_usernames(self):
        return [u for u in re.split(r"[\s,;]+", self.cleaned_data.get("usernames") or "") if u]

    def create(self, user) -> Tournament:
        """The tournament (``services.ServiceError`` says why not)."""
        data = self.cleaned_data
        return services.create_tournament(
            name=data["name"], kind=data["game"], format=data["format"], bots=data["bots"],
            usernames=data["usernames"], games_per_pairing=data["games_per_pairing"],
            rounds=data["rounds"] if data["format"] == Tournament.Format.SWISS else None,
            turn_seconds=data["turn_seconds"], bot_seconds=data["bot_seconds"], user=user)
