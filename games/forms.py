"""Forms of the lobby: creating a game and joining one."""
from __future__ import annotations

import secrets

from django import forms

from . import services

OPPONENTS = [
    ("human", "A person"),
    ("bot", "A bot"),
    ("botvbot", "Bot against bot"),
]
BOT_LEVEL_CHOICES = [
    ("random", "Random: any legal move"),
    ("greedy", "Greedy: best immediate outcome"),
    ("strong", "Strong: looks ahead"),
]
SIDE_CHOICES = [
    ("random", "Random"),
    ("upper", "Upper (starts at the top)"),
    ("lower", "Lower (starts at the bottom)"),
]
TIME_CHOICES = [
    ("", "No limit"),
    ("30", "30 seconds"),
    ("120", "2 minutes"),
]


class NewGameForm(forms.Form):
    opponent = forms.ChoiceField(label="Play against", choices=OPPONENTS, initial="human",
                                 widget=forms.RadioSelect)
    bot_level = forms.ChoiceField(label="Bot level", choices=BOT_LEVEL_CHOICES, initial="greedy",
                                  help_text="For a game against a bot; in bot against bot, the bot playing Upper.")
    second_bot_level = forms.ChoiceField(label="Second bot (Lower)", choices=BOT_LEVEL_CHOICES, initial="random",
                                         help_text="Only for bot against bot.")
    side = forms.ChoiceField(label="Your side", choices=SIDE_CHOICES, initial="random", widget=forms.RadioSelect)
    turn_seconds = forms.TypedChoiceField(label="Time per turn", choices=TIME_CHOICES, initial="", required=False,
                                          coerce=int, empty_value=None, widget=forms.RadioSelect)
    name = forms.CharField(label="Your name (optional)", max_length=60, required=False, strip=True,
                           widget=forms.TextInput(attrs={"autocomplete": "nickname",
                                                         "placeholder": "anonymous"}))

    def clean_turn_seconds(self):
        value = self.cleaned_data.get("turn_seconds")
        if value not in services.TURN_SECONDS_CHOICES:
            raise forms.ValidationError("Choose one of the offered time limits.")
        return value

    def creator_side(self) -> str | None:
        """The side the creator plays (a random side drawn now), or None when two bots play."""
        data = self.cleaned_data
        if data["opponent"] == "botvbot":
            return None
        side = data["side"]
        return secrets.choice(["upper", "lower"]) if side == "random" else side

    def players(self, creator_side: str | None) -> dict[str, str]:
        """``players`` for ``services.create_game``: ``"human"`` or ``"bot:LEVEL"`` per side."""
        data = self.cleaned_data
        if creator_side is None:
            return {"upper": f"bot:{data['bot_level']}", "lower": f"bot:{data['second_bot_level']}"}
        other = "lower" if creator_side == "upper" else "upper"
        opponent = "human" if data["opponent"] == "human" else f"bot:{data['bot_level']}"
        return {creator_side: "human", other: opponent}

