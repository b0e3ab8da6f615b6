"""Forms of the lobby: creating a game and joining one."""
from __future__ import annotations

import secrets

from django import forms

from . import services
from .bots import levels_for
from .engine import load_game, registered_names

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
    ("first", "First seat (Upper, White: moves first)"),
    ("second", "Second seat (Lower, Black)"),
]


def game_choices() -> list[tuple[str, str]]:
    return [(name, load_game(name).info.title) for name in registered_names()]
TIME_CHOICES = [
    ("", "No limit"),
    ("30", "30 seconds"),
    ("120", "2 minutes"),
]


class NewGameForm(forms.Form):
    game = forms.ChoiceField(label="Game", choices=game_choices, initial="ropasci360", required=False)
    opponent = forms.ChoiceField(label="Play against", choices=OPPONENTS, initial="human",
                                 widget=forms.RadioSelect)
    bot_level = forms.ChoiceField(label="Bot level", choices=BOT_LEVEL_CHOICES, initial="greedy",
                                  help_text="For a game against a bot; in bot against bot, the bot in the first seat.")
    second_bot_level = forms.ChoiceField(label="Second bot", choices=BOT_LEVEL_CHOICES, initial="random",
                                         help_text="Only for bot against bot.")
    # "first"/"second" or a seat's own name ("upper", "white"): checked against the chosen game in clean().
    side = forms.CharField(label="Your side", initial="random", required=False,
                           widget=forms.RadioSelect(choices=SIDE_CHOICES))
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

    def clean_game(self):
        return self.cleaned_data.get("game") or "ropasci360"

    def clean(self):
        data = super().clean()
        side = data.get("side") or "random"
        if data.get("game") and side not in ("random", "first", "second") + tuple(self.seats()):
            self.add_error("side", "Choose one of the offered sides.")
        data["side"] = side
        if data.get("game") and len(self.seats()) != 2:
            raise forms.ValidationError("This game is not offered in the lobby yet: create it through the API.")
        levels = levels_for(load_game(data["game"])) if data.get("game") else ()
        for field in ("bot_level", "second_bot_level"):
            if data.get(field) and data[field] not in levels:
                self.add_error(field, f"This game has no {data[field]} bot yet.")
        return data

    def seats(self) -> tuple[str, ...]:
        return load_game(self.cleaned_data["game"]).info.players

    def creator_side(self) -> str | None:
        """The seat the creator plays (a random one drawn now), or None when two bots play."""
        data = self.cleaned_data
        if data["opponent"] == "botvbot":
            return None
        seats = self.seats()
        side = data["side"]
        if side == "random":
            return secrets.choice(list(seats))
        if side in seats:
            return side
        return seats[0] if side == "first" else seats[1]

    def players(self, creator_side: str | None) -> dict[str, str]:
        """``players`` for ``services.create_game``: ``"human"`` or ``"bot:LEVEL"`` per seat."""
        data = self.cleaned_data
        first, second = self.seats()
        if creator_side is None:
            return {first: f"bot:{data['bot_level']}", second: f"bot:{data['second_bot_level']}"}
        other = second if creator_side == first else first
        opponent = "human" if data["opponent"] == "human" else f"bot:{data['bot_level']}"
        return {creator_side: "human", other: opponent}
