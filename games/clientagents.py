"""The players ``python -m games.client`` plays, and its game loops: a generic agent for any game, or a course
``Player`` through the game's ``course`` module. Standard library and the pure game kit only.

A generic agent is a class built as ``Class(seat)`` with ``choose(observation, legal_actions)`` returning one
of ``legal_actions`` (the JSON the API lists; ``observation`` is the game's ``state`` as the seat sees it). A
turn whose legal actions are a product of parts (the API's ``legal_action_parts``) goes to
``choose_parts(observation, legal_action_parts)`` when the agent has it (it returns one option per part, as
a list); otherwise to ``choose`` with the listed combinations when the API lists them (at most 1,000), else
to ``choose`` once per part, with that part's options. ``end(observation, outcome)``, if defined, is
called once the game is over with the API's ``outcome`` (``{"text", "winners", "returns"}``, or None).
A class with ``action()`` and no ``choose`` is a course player (COMP30024's interface of the game's year): it is
asked ``action()`` when its seat is to act and told each resolved turn by the game's ``course.tell``, as that
year's referee tells it (2021, RoPaSci 360: ``update(opponent_action, player_action)``; 2020, Expendibots:
``update(colour, action)`` for every action, its own included).
"""
from __future__ import annotations

import importlib

from games.clientapi import Api, ApiError
from games.engine import load_game
from games.engine.registry import course_games, game_module, registered_names

FINISHED = {"finished", "over", "done", "ended", "aborted", "abandoned", "cancelled", "canceled"}


def load_player_class(spec: str):
    """The class named by ``package[:Class]`` (default ``Player``), as the course referee loads it."""
    module_name, _, class_name = spec.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, class_name or "Player")


def is_course_class(cls) -> bool:
    """A course player: ``action()`` and no ``choose``."""
    return callable(getattr(cls, "action", None)) and not callable(getattr(cls, "choose", None))


def plays(cls, kind: str, seat: str) -> str | None:
    """Why ``cls`` cannot play ``seat`` of game ``kind`` (None: it can). A generic agent plays every game; a
    course player only games with a ``course`` module, in its seats."""
    if callable(getattr(cls, "choose", None)):
        return None
    if not is_course_class(cls):
        return "the class has neither choose(observation, legal_actions) nor action()"
    if kind not in course_games():
        return f"{kind!r} has no course-style players (games that do: {', '.join(course_games())})"
    if seat not in game_module(kind, "course").SEATS:
        return f"{kind!r} course players play {', '.join(game_module(kind, 'course').SEATS)}, not {seat!r}"
    return None


def game_name(text: str) -> str:
    """A registered game's name, also when given as its package's name (``g2048`` for the game ``2048``)."""
    names = registered_names()
    by_package = {game_module(name).__name__.rpartition(".")[2]: name for name in names}
    return text if text in names else by_package.get(text, text)


def seats_of(kind: str, params: dict | None = None) -> tuple[str, ...]:
    """The seats of game ``kind`` with ``params``, in the game's order."""
    return tuple(load_game(kind, **(params or {})).info.players)


def is_finished(game: dict) -> bool:
    return bool(game.get("result")) or str(game.get("status", "")).lower() in FINISHED


def seat_of(game: dict, seat: str | None) -> str:
    """The seat a token holds: the server's word (``seat``, sent with a token), else ``seat``, else the game's
    first seat."""
    return game.get("seat") or seat or seats_of(game.get("game"), game.get("params"))[0]


def play(api: Api, game_id, seat: str | None, token: str, player, first: dict | None = None) -> dict:
    """Play the seat of ``token`` in game ``game_id`` with ``player`` (a generic agent or a course player)
    until the game ends; return the game. ``first``: the game as already read with the token.

    Raises ApiError on a rejected action (400 illegal, 403 bad token) or another unexpected answer.
    """
    game = first or api.get_game(game_id, token=token)
    seat = seat_of(game, seat)
    if callable(getattr(player, "choose", None)):
        return _play_agent(api, game_id, seat, token, player, game)
    return _play_course(api, game_id, seat, token, player, game)


def choose(agent, game: dict):
    """The agent's action for the legal actions in ``game`` (the seat's view, when it is to act)."""
    observation, parts = game.get("state"), game.get("legal_action_parts")
    if parts is not None and callable(getattr(agent, "choose_parts", None)):
        return agent.choose_parts(observation, parts)
    if game.get("legal_actions") is not None:
        return agent.choose(observation, game["legal_actions"])
    return [agent.choose(observation, options) for options in parts]


def _post(api: Api, game_id, token: str, turn: int, action) -> None:
    try:
        api.post_action(game_id, token, turn, action)
    except ApiError as exc:
        if exc.status != 409:  # stale, duplicate or finished: the next read says where the game is
            raise


def _play_agent(api: Api, game_id, seat: str, token: str, agent, game: dict) -> dict:
    submitted = None  # the turn we have an action in for
    while not is_finished(game):
        turn = int(game.get("turn", 0)) + 1
        if seat in (game.get("to_act") or []) and submitted != turn:
            _post(api, game_id, token, turn, choose(agent, game))
            submitted = turn
        game = api.get_game(game_id, wait_turn=turn, token=token)
    if callable(getattr(agent, "end", None)):
        agent.end(game.get("state"), game.get("outcome"))
    return game


def _play_course(api: Api, game_id, seat: str, token: str, player, game: dict) -> dict:
    course = game_module(game.get("game"), "course")
    if course is None:
        raise ValueError(plays(type(player), game.get("game"), seat))
    known = 0  # resolved turns the player has been told about
    submitted = None
    while True:
        for t in sorted(game.get("turns") or [], key=lambda t: t.get("number", 0)):
            number = t.get("number", 0)
            if number <= known:
                continue
            if number != known + 1:
                raise RuntimeError(f"turn {known + 1} is missing from the server's record")
            course.tell(player, seat, {s: course.from_json(a) for s, a in t["actions"].items()})
            known = number
        if is_finished(game):
            return game
        resolved = int(game.get("turn", known))
        if seat in (game.get("to_act") or []) and resolved == known and submitted != known + 1:
            _post(api, game_id, token, known + 1, course.to_json(player.action()))
            submitted = known + 1
        game = api.get_game(game_id, wait_turn=known + 1, token=token)
