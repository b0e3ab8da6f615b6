"""The conformance suite, run over every registered game (as OpenSpiel's ``api_test``): a game added to
``games.engine.registry.PACKAGES`` gets all of this for free.

Engine: ``action_from_json`` is total over arbitrary JSON; random playouts reach the end; every position
round-trips through its JSON form; clones are independent; illegal and malformed actions never change a
state; action JSON and text forms round-trip; results are well formed; the one fold of the log rebuilds the
game; observations are JSON and, in a perfect-information game, the whole state.

Site: through the services, a game is created, played to the end by random bots (each move submitted as a
seat would), its page and live fragments render for every seat and a spectator with a click path for every
legal action, every turn replays, it exports, and its admin page opens.
"""
from __future__ import annotations

import itertools
import json
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import make_bot
from games.engine import IllegalAction, load_game, registered_names
from games.engine.history import fold, replay_checked

GAMES = registered_names()
# Besides each game's defaults, parameters that change its shape (seats, board size, rules).
VARIANTS = [("hex", {"size": 5}), ("sim", {"players": 3, "coalition": "1-2"}), ("sim", {"players": 3}),
            ("nim", {"heaps": 4, "size": 7, "max_take": 2}), ("nim3p", {"extra_rule": True})]
CASES = [pytest.param(name, {}, id=name) for name in GAMES] + [
    pytest.param(name, params, id=name + "-" + "-".join(f"{k}={v}" for k, v in params.items()))
    for name, params in VARIANTS if name in GAMES]
MAX_TURNS = 2000  # a random playout longer than this is a bug (every game here has a turn limit)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=10**4400, max_value=10**4500)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


def playout(game, seed: int, turns: int = MAX_TURNS):
    """(states before each turn, joint actions, final state) of a seeded random game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    before, joints = [], []
    for _ in range(turns):
        if state.is_terminal():
            break
        before.append(state.clone())
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            outcome = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            joints.append({"chance": outcome})
            state.apply_chance(outcome)
            continue
        joint = {}
        for seat in state.players_to_act():
            actions = state.legal_actions(seat)
            assert actions, f"{seat} is to act but has no legal action"
            joint[seat] = actions[rng.randrange(len(actions))]
        joints.append(joint)
        state.apply_actions(joint)
    return before, joints, state


def sample(items, k, seed=0):
    return items if len(items) <= k else random.Random(seed).sample(items, k)


# --- the engine -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,params", CASES)
def test_declared_metadata(name, params):
    game = load_game(name, **params)
    info = game.info
    assert info.name == name and info.title
    assert 1 <= len(info.players) <= 10 and len(set(info.players)) == len(info.players)
    assert all(isinstance(p, str) and p and p != "chance" for p in info.players)
    assert isinstance(dict(game.params), dict)
    json.dumps(dict(game.params))
    assert load_game(name, **dict(game.params)).params == game.params
    assert all(game.params[k] == v for k, v in params.items())


@pytest.mark.parametrize("name,params", CASES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=json_values)
def test_action_from_json_is_total(name, params, data):
    game = load_game(name, **params)
    for seat in (*game.info.players, None):
        try:
            action = game.action_from_json(data, seat)
        except IllegalAction as exc:
            assert str(exc)
            continue
        hash(action)
        assert game.action_from_json(game.action_to_json(action), seat) == action


@pytest.mark.parametrize("name,params", CASES)
def test_random_playouts_end_with_a_well_formed_result(name, params):
    game = load_game(name, **params)
    for seed in range(3):
        _, joints, state = playout(game, seed)
        assert state.is_terminal(), f"seed {seed}: no end after {len(joints)} turns"
        assert state.players_to_act() == []
        result = state.result()
        assert result is not None and result.text
        assert set(result.returns) == set(game.info.players)
        if len(game.info.players) > 1:  # a one-player game may return its score
            assert all(0.0 <= v <= 1.0 for v in result.returns.values())
        assert all(math.isfinite(v) for v in result.returns.values())
        assert state.returns() == dict(result.returns)
        json.dumps(result.to_json())
        assert set(result.winners) <= set(game.info.players)


@pytest.mark.parametrize("name,params", CASES)
def test_positions_round_trip_and_clones_are_independent(name, params):
    game = load_game(name, **params)
    before, joints, final = playout(game, seed=7)
    for state, joint in sample(list(zip(before, joints)), 40):
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data
        again = game.state_from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data
        assert again.players_to_act() == state.players_to_act()
        for seat in state.players_to_act():
            assert list(again.legal_actions(seat)) == list(state.legal_actions(seat))
        twin = state.clone()
        if "chance" in joint:
            twin.apply_chance(joint["chance"])
        else:
            twin.apply_actions(joint)
        assert state.to_json() == data, "applying to a clone changed the original"
        assert twin.to_json() != data or twin.is_terminal()
        state.to_text()
    assert game.state_from_json(final.to_json()).to_json() == final.to_json()


@pytest.mark.parametrize("name,params", CASES)
def test_illegal_and_malformed_actions_change_nothing(name, params):
    game = load_game(name, **params)
    before, joints, _ = playout(game, seed=3)
    others = [a for j in joints for s, a in j.items() if s != "chance"]
    for state in sample(before, 25, seed=1):
        if state.is_chance_node():
            continue
        data = state.to_json()
        to_act = state.players_to_act()
        for seat in game.info.players:
            legal = set(state.legal_actions(seat))
            if seat not in to_act:
                assert not legal
            for action in sample(others, 15, seed=2):
                if action in legal:
                    continue
                with pytest.raises(IllegalAction):
                    state.check_action(seat, action)
                with pytest.raises(IllegalAction):
                    state.apply_actions({**{s: next(iter(state.legal_actions(s))) for s in to_act}, seat: action})
                assert state.to_json() == data
        with pytest.raises(IllegalAction):
            state.apply_actions({})
        assert state.to_json() == data


@pytest.mark.parametrize("name,params", CASES)
def test_actions_round_trip_through_json_and_text(name, params):
    game = load_game(name, **params)
    before, _, _ = playout(game, seed=5)
    for state in sample(before, 20):
        for seat in state.players_to_act():
            for action in sample(list(state.legal_actions(seat)), 30):
                as_json = game.action_to_json(action)
                assert json.loads(json.dumps(as_json)) == as_json
                assert game.action_from_json(json.loads(json.dumps(as_json)), seat) == action
                assert game.action_from_text(game.action_to_text(action), seat) == action


@pytest.mark.parametrize("name,params", CASES)
def test_legal_action_parts_are_exactly_the_legal_actions_in_order(name, params):
    """Where a state gives ``legal_action_parts``, their product is ``legal_actions`` and an action's JSON is
    the list of its parts' JSON; a seat not to act gets None."""
    game = load_game(name, **params)
    before, _, _ = playout(game, seed=5)
    for state in sample(before, 20):
        for seat in game.info.players:
            parts = state.legal_action_parts(seat)
            if seat not in state.players_to_act():
                assert parts is None
            if parts is None:
                continue
            assert list(itertools.product(*parts)) == list(state.legal_actions(seat))
            for action in sample(list(state.legal_actions(seat)), 10):
                assert game.action_to_json(action) == [game.part_to_json(p) for p in action]


@pytest.mark.parametrize("name,params", CASES)
def test_the_fold_of_the_log_rebuilds_the_game(name, params):
    game = load_game(name, **params)
    _, joints, final = playout(game, seed=11)
    records = [{k: (v if k == "chance" else game.action_to_json(v)) for k, v in j.items()} for j in joints]
    replay = replay_checked(game, joints)
    assert replay.illegal is None and replay.applied == len(records)
    assert replay.state.to_json() == final.to_json() and replay.outcome == final.result().text
    assert replay.records == records
    assert fold(game, records).to_json() == final.to_json()


@pytest.mark.parametrize("name,params", CASES)
def test_observations_are_json_and_whole_in_perfect_information_games(name, params):
    game = load_game(name, **params)
    before, _, final = playout(game, seed=13)
    for state in sample(before, 10) + [final]:
        for seat in (*game.info.players, None):
            observation = state.observation(seat)
            assert json.loads(json.dumps(observation)) == observation
            if game.info.perfect_information:
                assert observation == state.to_json()


def json_strings(value) -> set[str]:
    """Every string in a JSON value (keys included)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*(json_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(json_strings(v) for v in value)) if value else set()
    return set()


def hidden_cases():
    """Games with hidden information whose rules module says what each viewer must not see
    (``secrets(state, seat) -> set of strings``)."""
    from games.engine import game_module
    out = []
    for case in CASES:
        name, params = case.values
        if not load_game(name, **params).info.perfect_information:
            rules = game_module(name, "rules")
            assert hasattr(rules, "secrets"), f"{name} hides information but its rules have no secrets()"
            out.append(case)
    return out


@pytest.mark.parametrize("name,params", hidden_cases())
def test_no_observation_or_logged_turn_holds_another_seats_secret(name, params):
    from games.engine import game_module
    secrets = game_module(name, "rules").secrets
    game = load_game(name, **params)
    for seed in range(3):
        before, joints, final = playout(game, seed)
        records = [{k: (v if k == "chance" else game.action_to_json(v)) for k, v in j.items()} for j in joints]
        for i, state in enumerate(before + [final]):
            over = state.is_terminal()
            for seat in (*game.info.players, None):
                hidden = secrets(state, seat)
                seen = json_strings(state.observation(seat))
                seen |= set().union(*(json_strings(game.redact_record(r, seat, over)) for r in records[:i])) if i else set()
                assert not hidden & seen, (seed, i, seat, hidden & seen)


@pytest.mark.parametrize("name,params", CASES)
def test_random_bot_plays_every_seat_to_the_end(name, params):
    game = load_game(name, **params)
    state = game.new_initial_state()
    bots = {seat: make_bot("random", game, seat, seed=i) for i, seat in enumerate(game.info.players)}
    rng = random.Random(1)
    for _ in range(MAX_TURNS):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        state.apply_actions({seat: bots[seat].choose(state) for seat in state.players_to_act()})
    assert state.is_terminal()


# --- through the site -------------------------------------------------------------------------------------

def seat_client(game_id: str, side: str, token: str):
    from django.test import Client

    from games.play import seatsession
    client = Client()
    session = client.session
    seatsession.remember(session, game_id, side, token)
    session.save()
    return client


def check_click_paths(ui, state, side, html: str) -> None:
    """Every legal action of ``side`` can be chosen by clicks: each step of its path is on the board
    (``data-pick``) or has a label for its button."""
    from games.read import presenters
    info = presenters.legal_actions_info(ui, state, side)
    assert info["count"] == len(state.legal_actions(side)) > 0
    # A product of parts: each part's options are chosen by clicks as a whole action is, and no option's
    # path begins another's (once an option's path is clicked, the next part starts).
    for entries in info["script"]["parts"] if "parts" in info else [info["entries"]]:
        for entry in entries:
            assert entry["path"] and entry["text"]
            for step in entry["path"]:
                assert f'data-pick="{step["key"]}"' in html or step.get("label"), (entry, step)
        paths = [tuple(s["key"] for s in e["path"]) for e in entries]
        assert len(set(paths)) == len(paths), "two legal actions share one click path"
        if "parts" in info:
            assert not any(a != b and a == b[:len(a)] for a in paths for b in paths), "a path begins another"


def check_board_needs_only_its_inputs(ui, game_id: str, side) -> None:
    """The board is drawn from ``board`` and ``board_label`` alone, whatever else the page's context holds:
    viewers whose boards have the same inputs share one drawing (``presenters.board_html``)."""
    from django.template.loader import render_to_string

    from games.read import presenters
    from games.play import services
    game = services.get_game(game_id)
    observation = services.current_state(game).observation(side)
    last = presenters.last_record(presenters.read(game), side)
    inputs = {"board": ui.board(observation, flipped=False, last=last), "board_label": f"Board of game {game.id}"}
    alone = render_to_string(ui.board_template, inputs)
    amid = render_to_string(ui.board_template, {**presenters.game_context(game, side), **inputs})
    assert alone == amid == presenters.board_html(ui, game, observation, last, False, shared=True)


@pytest.mark.django_db
@pytest.mark.parametrize("name,params", CASES)
def test_through_the_site_a_game_is_played_rendered_replayed_exported_and_inspected(name, params, admin_client):
    from django.test import Client
    from django.urls import reverse

    from games.read import presenters
    from games.play import services
    from games.models import Game
    from games.engine.ui import ui_for

    eg = load_game(name, **params)
    ui = ui_for(eg)
    created = services.create_game(name, {seat: "human" for seat in eg.info.players}, params=params)
    game_id, tokens = created.game.id, created.tokens
    clients = {side: seat_client(game_id, side, token) for side, token in tokens.items()}
    bots = {seat: make_bot("random", eg, seat, seed=i) for i, seat in enumerate(eg.info.players)}
    spectator = Client()
    for _ in range(MAX_TURNS):
        game = Game.objects.get(pk=game_id)
        if game.is_over:
            break
        state = services.current_state(game)
        by_page = game.turn < 2  # the first turns through the page (htmx), the rest through the services
        for side in list(game.to_act):
            if by_page:
                html = clients[side].get(reverse("game", args=[game_id])).content.decode()
                assert 'id="board"' in html
                check_click_paths(ui, state, side, html)
            action = eg.action_to_json(bots[side].choose(state))
            if by_page:
                response = clients[side].post(reverse("act", args=[game_id]),
                                              {"turn": str(game.turn + 1), "action": json.dumps(action)},
                                              HTTP_HX_REQUEST="true")
                assert response.status_code == 200 and 'id="board-wrap"' in response.content.decode()
            else:
                services.submit_action(game_id, tokens[side], game.turn + 1, action)
        if game.turn % 25 == 3:
            for side in (*eg.info.players, None):
                assert 'id="board-wrap"' in presenters.live_fragments(game_id, side)
                check_board_needs_only_its_inputs(ui, game_id, side)
    game = Game.objects.get(pk=game_id)
    assert game.is_over and game.outcome and game.outcome["text"] == game.result
    assert {s.side: s.score for s in game.seats.all()} == game.outcome["returns"]
    for viewer in (spectator, *clients.values()):
        response = viewer.get(reverse("game", args=[game_id]))
        assert response.status_code == 200 and 'id="board"' in response.content.decode()
    # Replay: every turn's position renders (the page for a few, the board fragment for all).
    seen_by_spectator = []  # everything a spectator was shown, checked below for secrets
    for n in range(game.turn + 1):
        response = spectator.get(reverse("replay_board", args=[game_id]), {"turn": n}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and f'data-turn="{n}"' in response.content.decode(), n
        seen_by_spectator.append(response.content.decode())
    for n in sorted({0, 1, game.turn // 2, game.turn}):
        response = spectator.get(reverse("replay", args=[game_id]), {"turn": n})
        assert response.status_code == 200 and 'id="board"' in response.content.decode()
    # Export: the JSON log replays to the same end; the text log downloads.
    exported = json.loads(spectator.get(reverse("export_json", args=[game_id])).content)
    assert exported["game"] == name and len(exported["turns"]) == game.turn
    assert exported["turns"][-1]["state"] == services.current_state(game).observation(None)
    if eg.info.perfect_information:  # a spectator's log of a hidden game is redacted: it cannot be replayed
        records = [t["actions"] for t in exported["turns"]]
        assert fold(eg, records).to_json() == game.state == exported["turns"][-1]["state"]
    response = spectator.get(reverse("log_txt", args=[game_id]))
    assert response.status_code == 200 and response.content
    # Share previews: the SVG always, the PNG where CairoSVG can run.
    response = spectator.get(reverse("preview_svg", args=[game_id]), {"turn": game.turn})
    assert response.status_code == 200 and b'id="board"' in response.content
    from games.web.previews import preview_available
    if preview_available():
        response = spectator.get(reverse("preview_png", args=[game_id]), {"turn": max(0, game.turn - 1)})
        assert response.status_code == 200 and response.content.startswith(b"\x89PNG")
    # The admin: the list and the game's page.
    assert admin_client.get("/admin/games/game/", {"kind": name}).status_code == 200
    response = admin_client.get(reverse("admin:games_game_change", args=[game_id]))
    assert response.status_code == 200 and game_id in response.content.decode()
    if not eg.info.perfect_information:
        check_nothing_leaks(name, game_id, tokens, clients, spectator, seen_by_spectator)


def check_nothing_leaks(name, game_id, tokens, clients, spectator, seen_by_spectator):
    """Every path a spectator or a seat can read, checked for what ``secrets`` says it must not see (at the
    end of the game: what is still hidden then was hidden all along)."""
    import re

    from django.urls import reverse

    from games.play import services
    from games.engine import game_module
    secrets = game_module(name, "rules").secrets
    final = services.current_state(services.get_game(game_id))

    def leaked(texts, hidden):
        return {h for h in hidden for t in texts if re.search(rf"(?<![A-Za-z0-9]){re.escape(h)}(?![A-Za-z0-9])", t)}

    api = f"/api/games/{game_id}"
    spectator_texts = seen_by_spectator + [spectator.get(path).content.decode() for path in (
        api, reverse("game", args=[game_id]), reverse("replay", args=[game_id]), reverse("log_txt", args=[game_id]),
        reverse("export_json", args=[game_id]), reverse("preview_svg", args=[game_id]))]
    assert not leaked(spectator_texts, secrets(final, None))
    for side, token in tokens.items():
        texts = [spectator.get(api, HTTP_AUTHORIZATION=f"Seat {token}").content.decode(),
                 clients[side].get(reverse("game", args=[game_id])).content.decode()]
        assert not leaked(texts, secrets(final, side)), side


@pytest.mark.django_db
@pytest.mark.parametrize("name,params", CASES)
def test_a_turn_is_shown_from_the_committed_game_as_from_the_game_read_back(name, params,
                                                                             django_capture_on_commit_callbacks):
    """After a turn's change, the viewers watching in the process get fragments rendered from the game as the
    transaction saved it (``fanout.as_stored``): they must be what a fresh read of it renders, for every
    seat and a spectator: in the first turns, and in the turn that ends the game (the result, the scores)."""
    from games.live import watching
    from games.read import presenters
    from games.play import services

    eg = load_game(name, **params)
    created = services.create_game(name, {seat: "human" for seat in eg.info.players}, params=params)
    game_id, tokens = created.game.id, created.tokens
    bots = {seat: make_bot("random", eg, seat, seed=i) for i, seat in enumerate(eg.info.players)}
    viewers = (*eg.info.players, None)
    checked = 0
    for step in range(MAX_TURNS):
        game = services.get_game(game_id)
        if game.is_over:
            break
        state = services.current_state(game)
        joint = {side: bots[side].choose(state) for side in game.to_act}
        after = state.clone()
        after.apply_actions(joint)
        watched = step < 3 or after.is_terminal()
        for side in viewers if watched else ():
            watching.add(game_id, side)
        try:
            for side, action in joint.items():
                with django_capture_on_commit_callbacks(execute=True):
                    services.submit_action(game_id, tokens[side], game.turn + 1, eg.action_to_json(action))
                saved = services.get_game(game_id)
                for viewer in viewers if watched else ():
                    shown = presenters.cached_fragments(game_id, saved.version, viewer)
                    fresh = presenters.render_fragments(presenters.game_context(saved, viewer))
                    assert shown == fresh, (viewer, saved.turn)
                    checked += 1
        finally:
            for side in viewers if watched else ():
                watching.remove(game_id, side)
    assert services.get_game(game_id).is_over and checked
