"""The lobby's form: a game, its options and who plays each seat; built from the chosen game's adapter, so
it never names a game."""
from __future__ import annotations

import json
import random

from django import forms
from django.forms.fields import InvalidJSONInput, JSONString

from games.guard import safejson
from games.play import services
from games.bots import LEVEL_WORDS, levels_for
from games.engine import InvalidParams, load_game, registered_names
from games.engine.registry import default_name, names_in_order
from games.engine.ui import ui_for

MAX_JSON_TEXT = 20_000  # characters of an option typed as JSON (a position is a few hundred)
ME, INVITE = "me", "invite"
TIME_CHOICES = [
    ("", "No limit"),
    ("30", "30 seconds"),
    ("120", "2 minutes"),
]
BOT_SECONDS_CHOICES = [("0.5", "½ second"), ("1", "1 second"), ("2", "2 seconds"), ("5", "5 seconds")]


def game_choices() -> list[tuple[str, str]]:
    return [(name, load_game(name).info.title) for name in names_in_order()]


def chosen_game(data) -> str:
    name = (data or {}).get("game") or default_name()
    return name if name in registered_names() else default_name()


class NewGameForm(forms.Form):
    """Fields ``param_<name>`` (the game's options) and ``seat_<side>`` (``me``, ``invite`` or ``bot:LEVEL``)
    are added for the chosen game; the seats follow the options (a three-player Sim has three)."""

    game = forms.ChoiceField(label="Game", choices=game_choices, initial=default_name, required=False)
    shuffle = forms.BooleanField(label="Shuffle the seats", required=False,
                                 help_text="Deal the choices above to the seats at random (who moves first).")
    bot_seconds = forms.TypedChoiceField(label="Bots' time per move", choices=BOT_SECONDS_CHOICES, initial="1",
                                         coerce=float, required=False, empty_value=1.0, widget=forms.RadioSelect)
    turn_seconds = forms.TypedChoiceField(label="Time per turn", choices=TIME_CHOICES, initial="", required=False,
                                          coerce=int, empty_value=None, widget=forms.RadioSelect)
    rated = forms.BooleanField(label="Rated", required=False,
                               help_text="For logged-in players: the result changes the ratings (every seat an "
                                         "account or a bot).")
    name = forms.CharField(label="Your name (optional)", max_length=60, required=False, strip=True,
                           widget=forms.TextInput(attrs={"autocomplete": "nickname",
                                                         "placeholder": "anonymous"}))

    def __init__(self, data=None, **kwargs):
        super().__init__(data, **kwargs)
        source = data if data is not None else self.initial
        self.game_name = chosen_game(source)
        ui = ui_for(load_game(self.game_name))
        self.params = ui.params()
        for param in self.params:
            self.fields[f"param_{param.name}"] = _param_field(param)
        self.presets = {p.name: p for p in ui.presets()}
        if self.presets:
            self.fields["preset"] = forms.ChoiceField(
                label="Puzzle", required=False,
                choices=[("", "Your own (below)")] + [(p.name, f"{p.title} ({p.note})" if p.note else p.title)
                                                      for p in self.presets.values()])
        if data is None:
            self._prepare_initial(ui)
            source = self.initial
        self.engine_game = self._game_from(source)
        self.ui = ui_for(self.engine_game)
        levels = levels_for(self.engine_game)
        bots = [(f"bot:{level}", f"Bot · {LEVEL_WORDS.get(level, level)}") for level in levels]
        for i, side in enumerate(self.engine_game.info.players):  # by default: you against the computer
            choices = [(ME, "You"), (INVITE, "A person (invite link)")] + bots
            initial = ME if i == 0 else f"bot:{default_level(self.engine_game)}"
            self.fields[f"seat_{side}"] = forms.ChoiceField(label=self.ui.seat_name(side), choices=choices,
                                                            initial=initial)

    def _prepare_initial(self, ui) -> None:
        """An unbound form (the lobby from a link, or its options swapped in): JSON options parsed, a chosen
        preset's options filled in (unless given), and an editor click (``edit=KEY`` with ``tool``) applied."""
        initial = self.initial = dict(self.initial)
        for param in self.params:
            key = f"param_{param.name}"
            if param.json and isinstance(initial.get(key), str):
                try:
                    initial[key] = decode_option(initial[key], empty=InvalidJSONInput(""))
                except safejson.BadJSON:
                    initial[key] = InvalidJSONInput(initial[key])
        preset = self.presets.get(initial.get("preset") or "")
        if preset is not None:
            for name, value in preset.params.items():
                initial.setdefault(f"param_{name}", value)
        key = f"param_{ui.editor_param}"
        tools = {t.name for t in ui.editor_tools}
        place = str(initial.get("edit", ""))[:64]
        if ui.editor_param and initial.get("tool") in tools and key in initial and place:
            if not isinstance(initial[key], InvalidJSONInput):
                initial[key] = ui.edit(initial[key], initial["tool"], place)

    def _game_from(self, source):
        """The game with the given options where they are valid (else its defaults, and ``params_error``
        says why): its seats."""
        self.params_error = ""
        try:
            return load_game(self.game_name, **self._param_values(source))
        except (InvalidParams, ValueError, TypeError) as exc:
            self.params_error = str(exc) if not isinstance(exc, TypeError) else "Check the options."
            return load_game(self.game_name)

    def _param_values(self, data) -> dict:
        values = {}
        for param in self.params:
            raw = data.get(f"param_{param.name}")
            if isinstance(param.default, bool):
                values[param.name] = raw in ("on", "true", "1", True)
            elif param.json:
                if raw is None or (isinstance(raw, str) and not raw.strip()):
                    continue
                try:
                    values[param.name] = decode_option(raw) if isinstance(raw, str) else raw
                except safejson.BadJSON as exc:
                    raise ValueError(not_json(param.label, exc)) from None
            elif raw not in (None, ""):
                values[param.name] = int(raw) if isinstance(param.default, int) else str(raw)
        return values

    # --- for the template --------------------------------------------------------------------------------
    def turn_order(self) -> str:
        info = self.engine_game.info
        names = [self.ui.seat_name(side) for side in info.players]
        if info.simultaneous:
            return f"{' and '.join(names)} move at the same time."
        return f"Turn order: {', then '.join(names)}."

    def param_fields(self):
        return [self[f"param_{p.name}"] for p in self.params]

    def current_params(self) -> dict:
        """The options as shown (the defaults where they are not valid)."""
        return dict(self.engine_game.params)

    def current_preset(self) -> str:
        """The name of the preset whose options are the ones shown, or ""."""
        if self.params_error:
            return ""
        shown = self.current_params()
        return next((p.name for p in self.presets.values()
                     if all(shown.get(k) == v for k, v in p.params.items())), "")

    def share_query(self) -> str:
        """The lobby's query string that sets up this game and its options (a link to share)."""
        from urllib.parse import urlencode
        preset = self.current_preset()
        if preset:
            return urlencode({"game": self.game_name, "preset": preset})
        query = {"game": self.game_name}
        for param in self.params:
            value = self.current_params().get(param.name, param.default)
            if value != param.default:
                query[f"param_{param.name}"] = json.dumps(value, separators=(",", ":")) if param.json else (
                    ("on" if value else "") if isinstance(param.default, bool) else value)
        return urlencode(query)

    def editor(self) -> dict | None:
        """The position editor's context (tools, board, chosen tool), if the game has one."""
        if not self.ui.editor_param:
            return None
        current = self.current_params().get(self.ui.editor_param)
        try:  # the value as shown in its text box, which may not be a valid one yet
            value = decode_option(self[f"param_{self.ui.editor_param}"].value(), empty=current)
        except (TypeError, ValueError):
            value = current
        tools = list(self.ui.editor_tools)
        chosen = (self.data if self.is_bound else self.initial).get("tool")
        try:
            board = self.ui.editor_board(value)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            board = self.ui.editor_board(self.current_params().get(self.ui.editor_param))
        return {"tools": tools, "tool": chosen if chosen in {t.name for t in tools} else tools[0].name,
                "hint": self.ui.editor_hint,
                "board": board, "template": self.ui.board_template, "stylesheet": self.ui.stylesheet,
                "json": json.dumps(value, separators=(",", ":"))}

    def seat_fields(self):
        return [self[f"seat_{side}"] for side in self.engine_game.info.players]

    # --- validation --------------------------------------------------------------------------------------
    def clean_game(self):
        return self.game_name

    def clean_turn_seconds(self):
        value = self.cleaned_data.get("turn_seconds")
        if value not in services.TURN_SECONDS_CHOICES:
            raise forms.ValidationError("Choose one of the offered time limits.")
        return value

    def clean(self):
        data = super().clean()
        # A JSON option left out (or empty) takes the game's default.
        params = {p.name: data[f"param_{p.name}"] for p in self.params
                  if f"param_{p.name}" in data and not (p.json and data[f"param_{p.name}"] is None)}
        try:
            self.engine_game = load_game(self.game_name, **params)
        except InvalidParams as exc:
            raise forms.ValidationError(str(exc)) from None
        data["params"] = dict(self.engine_game.params)
        seats = {side: data.get(f"seat_{side}") for side in self.engine_game.info.players}
        if any(choice is None for choice in seats.values()):
            raise forms.ValidationError("Choose who plays each seat.")
        if list(seats.values()).count(ME) > 1:
            raise forms.ValidationError("You can play one seat; invite people or choose bots for the others.")
        if data.get("shuffle"):
            choices = list(seats.values())
            random.SystemRandom().shuffle(choices)
            seats = dict(zip(seats, choices))
        data["seats"] = seats
        return data

    def creator_side(self) -> str | None:
        """The seat the creator plays, or None when they only watch or invite."""
        return next((side for side, choice in self.cleaned_data["seats"].items() if choice == ME), None)

    def players(self) -> dict[str, str]:
        """``players`` for ``services.create_game``: ``"human"`` or ``"bot:LEVEL"`` per seat."""
        return {side: ("human" if choice in (ME, INVITE) else choice)
                for side, choice in self.cleaned_data["seats"].items()}


def default_level(game) -> str:
    """The computer's level a one-click start offers first: the strongest that looks ahead ("strong") where
    there is one, else the strongest (a perfect player leaves a newcomer no game to learn from)."""
    levels = levels_for(game)
    return "strong" if "strong" in levels else levels[-1]


def quick_data(name: str, how: str, level: str, *, rated: bool = False) -> dict:
    """The lobby form's data for a one-click start of game ``name`` with its default options: ``computer``
    (the first seat ``me``, bots of ``level`` the others), ``friend`` (the others invited) or ``watch`` (bots
    of ``level`` everywhere)."""
    ui = ui_for(load_game(name))
    data = {"game": name, "turn_seconds": "", "bot_seconds": "1"}
    for param in ui.params():
        if isinstance(param.default, bool):
            if param.default:
                data[f"param_{param.name}"] = "on"
        elif not param.json:
            data[f"param_{param.name}"] = str(param.default)
    others = {"computer": f"bot:{level}", "friend": INVITE, "watch": f"bot:{level}"}[how]
    for i, side in enumerate(ui.game.info.players):
        data[f"seat_{side}"] = ME if i == 0 and how != "watch" else others
    if rated:
        data["rated"] = "on"
    return data


def decode_option(text: str, empty=None):
    """An option's JSON text decoded within safejson's limits (size, nesting, digits, no NaN, no NUL)."""
    return safejson.loads(text, max_bytes=MAX_JSON_TEXT, empty=empty)


def not_json(label: str, exc: safejson.BadJSON) -> str:
    return f"{label}: not valid JSON ({str(exc).removeprefix('malformed JSON: ')})"


class JSONTextField(forms.JSONField):
    """A JSON value typed as text. Django's own JSONField decodes without limits (deep nesting raised
    RecursionError, 5,000 digits a ValueError it does not catch) and applies ``max_length`` to the decoded
    value (``1`` or ``true`` raised TypeError): any text is here a value or a form error saying why."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not isinstance(value, str) or isinstance(value, JSONString):
            return value  # already decoded (an initial value)
        try:
            decoded = decode_option(value)
        except safejson.BadJSON as exc:
            raise forms.ValidationError(not_json(self.label, exc) + ".", code="invalid") from None
        return JSONString(decoded) if isinstance(decoded, str) else decoded

    def bound_data(self, data, initial):
        if data is None:
            return None
        try:
            return decode_option(data, empty=InvalidJSONInput(data))
        except safejson.BadJSON:
            return InvalidJSONInput(data)


def _param_field(param) -> forms.Field:
    attrs = {"aria-describedby": f"id_param_{param.name}_help"} if param.help else {}
    if param.json:
        return JSONTextField(label=param.label, initial=param.default, help_text=param.help, required=False,
                             widget=forms.Textarea(attrs={**attrs, "rows": 4, "spellcheck": "false",
                                                          "class": "json-input"}))
    if param.choices:
        coerce = int if isinstance(param.default, int) and not isinstance(param.default, bool) else str
        return forms.TypedChoiceField(label=param.label, choices=[(str(v), label) for v, label in param.choices],
                                      coerce=coerce, initial=str(param.default), help_text=param.help,
                                      widget=forms.Select(attrs=attrs))
    if isinstance(param.default, bool):
        return forms.BooleanField(label=param.label, required=False, initial=param.default, help_text=param.help,
                                  widget=forms.CheckboxInput(attrs=attrs))
    return forms.IntegerField(label=param.label, min_value=param.minimum, max_value=param.maximum,
                              initial=param.default, help_text=param.help,
                              widget=forms.NumberInput(attrs={**attrs, "inputmode": "numeric"}))
