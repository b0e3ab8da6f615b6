"""Players: Glicko-2 ratings (Glickman's worked example, rated and casual games, once per game), accounts
(sign up, seats claimed from the browser, password reset by e-mail), profiles and leaderboards, API keys and
challenges to bot accounts, and a bot account playing through ``python -m games.client --key`` against the
live server."""
from __future__ import annotations

import asyncio
import hashlib
import io
import json
import re
import subprocess
import sys
import threading

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import AsyncClient, Client
from django.urls import reverse

from games import client as game_client
from games.play import seatsession, services as games
from games.models import Game, Seat
from games.play.signals import game_changed
from players import ratings, services
from players.models import ApiKey, Challenge, Profile, RatedGame, RatedPlayer, RatingChange
from tests.liveserver import BASE_DIR
from tests.test_views_play import LOWER_SCRIPT, NEW_GAME, UPPER_SCRIPT

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "a-long-enough-secret-42"


@pytest.fixture(autouse=True)
def _test_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, for tests only
    settings.RATE_LIMITS = 0  # these tests are not about rate limits (games.guard.ratelimit)


def make_user(name: str, *, bot: bool = False, email: str = ""):
    user = User.objects.create_user(name, email=email, password=PASSWORD)
    if bot:
        Profile.objects.create(user=user, is_bot=True)
    return user


def logged_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def api(c: Client, method: str, path: str, body=None, key: str | None = None, **extra):
    headers = {"HTTP_AUTHORIZATION": f"Key {key}"} if key else {}
    if method == "GET":
        return c.get(path, **headers, **extra)
    return c.post(path, json.dumps(body if body is not None else {}), content_type="application/json",
                  **headers, **extra)


def two_player_game(a, b, kind="ropasci360", rated=True, capture=None):
    """A game with account ``a`` upper and ``b`` lower (``b`` may be "bot:LEVEL" or None: anonymous);
    returns (game, tokens)."""
    lower = b if isinstance(b, str) else "human"
    created = games.create_game(kind, {"upper": "human", "lower": lower}, claim="upper", user=a)
    tokens = dict(created.tokens)
    if lower == "human":
        _, _, tokens["lower"] = games.claim_seat(created.game.id, "lower", user=b)
    if rated:
        assert services.mark_rated(created.game.id, a)
    return created.game, tokens


def finish_by_resignation(game, token, capture):
    with capture(execute=True):
        games.resign(game.id, token)
    game.refresh_from_db()
    return game


# --- the rating math -------------------------------------------------------------------------------------

def test_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won), 1550/100 (lost),
    1700/300 (lost) gives about 1464.06 / 151.52 / 0.05999 (the paper rounds its intermediate values)."""
    new = ratings.rate(ratings.Rating(1500, 200, 0.06), [(ratings.Rating(1400, 30), 1), (ratings.Rating(1550, 100), 0),
                                                         (ratings.Rating(1700, 300), 0)])
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_two_seat_game_is_one_match_each_way():
    even = ratings.Rating()
    after = ratings.rate_game({"a": even, "b": even}, {"a": 1.0, "b": 0.0})
    (a, sa), (b, sb) = after["a"], after["b"]
    assert (sa, sb) == (1.0, 0.0)
    assert a.rating > 1500 > b.rating and a.rating - 1500 == pytest.approx(1500 - b.rating)
    assert a.rd < 350 and b.rd < 350
    draw = ratings.rate_game({"a": even, "b": even}, {"a": 0.5, "b": 0.5})
    assert draw["a"][0].rating == pytest.approx(1500) and draw["a"][1] == 0.5
    # Any returns: only their order counts.
    assert ratings.rate_game({"a": even, "b": even}, {"a": 40.0, "b": -40.0})["a"][0] == a


def test_an_n_seat_game_rates_each_pair_by_result_order():
    even = ratings.Rating()
    after = ratings.rate_game({"p0": even, "p1": even, "p2": even}, {"p0": 1.0, "p1": 0.0, "p2": 0.0})
    assert after["p0"][1] == 1.0 and after["p1"][1] == after["p2"][1] == 0.25  # lost to p0, drew with each other
    assert after["p0"][0].rating > 1500 and after["p1"][0].rating == pytest.approx(after["p2"][0].rating)
    assert after["p1"][0].rating < 1500


# --- rated games -----------------------------------------------------------------------------------------

def test_a_rated_game_is_rated_once_when_it_finishes(django_capture_on_commit_callbacks):
    alice, bob = make_user("alice"), make_user("bob")
    game, tokens = two_player_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        games.submit_action(game.id, tokens["upper"], 1, UPPER_SCRIPT[0])
        games.submit_action(game.id, tokens["lower"], 1, LOWER_SCRIPT[0])
    assert RatedGame.objects.get(game=game).state == "pending" and not RatingChange.objects.exists()
    finish_by_resignation(game, tokens["lower"], django_capture_on_commit_callbacks)

    assert RatedGame.objects.get(game=game).state == "rated"
    a = RatedPlayer.objects.get(kind="ropasci360", user=alice)
    b = RatedPlayer.objects.get(kind="ropasci360", user=bob)
    assert a.rating > 1500 > b.rating and (a.wins, a.losses, b.wins, b.losses, a.games) == (1, 0, 0, 1, 1)
    assert RatingChange.objects.filter(game=game).count() == 2
    change = RatingChange.objects.get(game=game, player=a)
    assert (change.rating_before, change.rd_before, change.score) == (1500, 350, 1.0)
    expected = ratings.rate(ratings.Rating(), [(ratings.Rating(), 1.0)])
    assert a.rating == pytest.approx(expected.rating) and a.rd == pytest.approx(expected.rd)

    # A re-sent signal, a retry: nothing more.
    rating = a.rating
    game_changed.send(sender=Game, game_id=game.id, turn=game.turn)
    services.rate_game(game.id)
    assert RatingChange.objects.count() == 2
    a.refresh_from_db()
    assert a.rating == rating and a.games == 1


def test_a_lost_signal_is_made_good_by_ratepending():
    from django.core.management import call_command
    alice, bob = make_user("alice"), make_user("bob")
    game, tokens = two_player_game(alice, bob)
    games.resign(game.id, tokens["upper"])  # its after-commit signal never runs inside this test's transaction
    assert RatedGame.objects.get(game=game).state == "pending"
    out = io.StringIO()
    call_command("ratepending", stdout=out)
    assert out.getvalue().strip() == "looked at 1 pending rated game"
    assert RatedGame.objects.get(game=game).state == "rated" and RatedPlayer.objects.get(user=bob).wins == 1


def test_server_bot_levels_are_rated_players(django_capture_on_commit_callbacks):
    alice = make_user("alice")
    game, tokens = two_player_game(alice, "bot:greedy")
    finish_by_resignation(game, tokens["upper"], django_capture_on_commit_callbacks)
    bot = RatedPlayer.objects.get(kind="ropasci360", bot_level="greedy", user=None)
    assert bot.rating > 1500 and bot.wins == 1 and bot.name == "bot:greedy"
    assert RatedPlayer.objects.get(user=alice).losses == 1


def test_casual_anonymous_one_player_and_aborted_games_are_not_rated(django_capture_on_commit_callbacks):
    alice, bob = make_user("alice"), make_user("bob")
    casual, tokens = two_player_game(alice, bob, rated=False)
    finish_by_resignation(casual, tokens["upper"], django_capture_on_commit_callbacks)
    assert not RatedGame.objects.filter(game=casual).exists()

    anonymous, tokens = two_player_game(alice, None)
    finish_by_resignation(anonymous, tokens["upper"], django_capture_on_commit_callbacks)
    request = RatedGame.objects.get(game=anonymous)
    assert request.state == "skipped" and "without an account" in request.note

    solo = games.create_game("2048", {"player": "human"}, claim="player", user=alice)
    assert services.mark_rated(solo.game.id, alice) is False
    assert not services.mark_rated(casual.id, make_user("carol"))  # not seated in it

    aborted, _ = two_player_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        games.abort(aborted.id)
    assert RatedGame.objects.get(game=aborted).state == "skipped"
    assert not RatingChange.objects.exists() and not RatedPlayer.objects.filter(games__gt=0).exists()


def test_the_lobby_makes_a_rated_game_for_a_logged_in_player():
    alice = make_user("alice")
    c = logged_in(alice)
    assert re.search(r'name="rated"[^>]* checked', c.get("/play/ropasci360").content.decode())  # ticked for an account
    assert 'name="rated"' not in Client().get("/play/ropasci360").content.decode()
    response = c.post(reverse("new_game"), {**NEW_GAME, "seat_lower": "bot:random", "rated": "on"})
    game = Game.objects.get(pk=response["Location"].rsplit("/", 1)[-1])
    assert RatedGame.objects.get(game=game).requested_by == alice
    assert game.seats.get(side="upper").user == alice
    response = Client().post(reverse("new_game"), {**NEW_GAME, "seat_lower": "bot:random", "rated": "on"})
    assert not RatedGame.objects.filter(game_id=response["Location"].rsplit("/", 1)[-1]).exists()
    # One click on a game's start page: rated too, as the form's default is.
    response = c.post(reverse("quick_start", args=["ropasci360"]), {"how": "computer", "level": "random"})
    assert RatedGame.objects.get(game_id=response["Location"].rsplit("/", 1)[-1]).requested_by == alice


# --- accounts ----------------------------------------------------------------------------------------------

def test_a_weak_password_is_named_under_the_password_not_its_confirmation():
    html = Client().post("/accounts/signup/", {"username": "erin", "password1": "abc", "password2": "abc"}
                         ).content.decode()
    assert re.search(r'id="id_password1_error">[^<]*too short', html)
    assert 'id="id_password2_error"' not in html
    html = Client().post("/accounts/signup/", {"username": "erin", "password1": PASSWORD, "password2": "other"}
                         ).content.decode()
    assert re.search(r'id="id_password2_error">[^<]*didn.t match', html)  # a mismatch is the confirmation's


def test_a_weak_new_password_is_named_under_it_when_changed():
    user = make_user("fred")
    c = Client()
    c.force_login(user)
    html = c.post(reverse("password_change"), {"old_password": PASSWORD, "new_password1": "abc",
                                               "new_password2": "abc"}).content.decode()
    assert re.search(r'id="id_new_password1_error">[^<]*too short', html)
    assert 'id="id_new_password2_error"' not in html and 'id="id_old_password_error"' not in html
    html = c.post(reverse("password_change"), {"old_password": "wrong", "new_password1": PASSWORD + "x",
                                               "new_password2": PASSWORD + "y"}).content.decode()
    assert re.search(r'id="id_old_password_error">[^<]*incorrectly', html)
    assert re.search(r'id="id_new_password2_error">[^<]*didn.t match', html)
    user.refresh_from_db()
    assert user.check_password(PASSWORD)  # nothing changed


def test_sign_up_claims_this_browsers_anonymous_games():
    from games.read import presenters
    c = Client()
    response = c.post(reverse("new_game"), {**NEW_GAME, "seat_lower": "bot:random"})
    game_id = response["Location"].rsplit("/", 1)[-1]
    assert "dana" not in presenters.live_fragments(game_id, None)  # shown to watchers (and cached) before
    other = Client()
    other_game = other.post(reverse("new_game"), {**NEW_GAME, "seat_lower": "bot:random"})["Location"].rsplit("/", 1)[-1]

    page = c.get("/accounts/signup/")
    assert page.status_code == 200 and 'name="password1"' in page.content.decode()
    bad = c.post("/accounts/signup/", {"username": "leaderboard", "password1": PASSWORD, "password2": PASSWORD})
    assert bad.status_code == 400 and "reserved" in bad.content.decode()
    assert not User.objects.filter(username="leaderboard").exists()
    response = c.post("/accounts/signup/", {"username": "dana", "email": "dana@example.com",
                                            "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/players/dana"
    dana = User.objects.get(username="dana")
    seat = Seat.objects.get(game_id=game_id, side="upper")
    assert seat.user == dana and seat.display_name == "dana"
    assert "dana" in presenters.live_fragments(game_id, None)  # a new version of the game: read again
    assert Seat.objects.get(game_id=other_game, side="upper").user is None  # another browser's game
    html = c.get(response["Location"]).content.decode()
    assert "Welcome, dana!" in html and f"/games/{game_id}/replay" in html


def test_logging_in_claims_seats_but_never_anothers():
    erin = make_user("erin")
    c = Client()
    game_id = c.post(reverse("new_game"), {**NEW_GAME, "seat_lower": "bot:random"})["Location"].rsplit("/", 1)[-1]
    # A forged session entry for a seat this browser does not hold claims nothing.
    victim = games.create_game("ropasci360", {"upper": "human", "lower": "bot:random"}, claim="upper")
    session = c.session
    session[seatsession.KEY] = {**session[seatsession.KEY], victim.game.id: {"side": "upper", "hash": "0" * 64}}
    session.save()
    response = c.post(reverse("login"), {"username": "erin", "password": PASSWORD})
    assert response.status_code == 302
    assert Seat.objects.get(game_id=game_id, side="upper").user == erin
    assert Seat.objects.get(game=victim.game, side="upper").user is None
    assert Client().get(reverse("login")).content.decode().count(reverse("signup")) >= 1


def test_password_reset_by_email():
    make_user("fay", email="fay@example.com")
    c = Client()
    assert "Reset your password" in c.get(reverse("password_reset")).content.decode()
    response = c.post(reverse("password_reset"), {"email": "fay@example.com"})
    assert response.status_code == 302 and "Check your e-mail" in c.get(response["Location"]).content.decode()
    (message,) = mail.outbox
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)
    response = c.get(link, follow=True)
    assert "Choose a new password" in response.content.decode()
    weak = c.post(response.redirect_chain[-1][0], {"new_password1": "abc", "new_password2": "abc"})
    assert re.search(r'id="id_new_password1_error">[^<]*too short', weak.content.decode())
    response = c.post(response.redirect_chain[-1][0], {"new_password1": "another-secret-77",
                                                       "new_password2": "another-secret-77"}, follow=True)
    assert "Your new password is set" in response.content.decode()
    assert Client().login(username="fay", password="another-secret-77")


def test_the_default_email_backend_is_the_console():
    from ropasci import settings as project_settings
    assert project_settings.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"


# --- profiles and leaderboards ------------------------------------------------------------------------

def test_profile_shows_games_by_kind_results_rating_chart_and_replays(django_capture_on_commit_callbacks):
    alice, bob = make_user("alice"), make_user("bob")
    first, tokens = two_player_game(alice, bob)
    finish_by_resignation(first, tokens["lower"], django_capture_on_commit_callbacks)
    second, tokens = two_player_game(alice, "bot:random")
    finish_by_resignation(second, tokens["upper"], django_capture_on_commit_callbacks)
    casual = games.create_game("tic_tac_toe", {"x": "human", "o": "bot:random"}, claim="x", user=alice).game

    html = Client().get("/players/alice").content.decode()
    assert 'id="games-ropasci360">RoPaSci 360' in html and 'id="games-tic_tac_toe">Tic-tac-toe' in html
    assert f"/games/{first.id}/replay" in html and f"/games/{second.id}/replay" in html
    assert f"/games/{casual.id}/replay" in html
    assert "Won" in html and "Lost" in html and "In play" in html and "casual" in html
    assert '<svg viewBox="0 0 640 220" role="img"' in html and "rating over 2 rated games" in html
    assert html.count('class="rc-point') == 3  # the start and after each game
    assert 'href="/players/bob"' in html
    assert "API keys" not in html  # only on one's own profile
    assert "API keys" in logged_in(alice).get("/players/alice").content.decode()
    assert Client().get("/players/nobody").status_code == 404


def test_leaderboards(django_capture_on_commit_callbacks):
    alice, bob = make_user("alice"), make_user("bob", bot=True)
    game, tokens = two_player_game(alice, bob)
    finish_by_resignation(game, tokens["lower"], django_capture_on_commit_callbacks)
    index = Client().get("/players/leaderboard/").content.decode()
    assert "RoPaSci 360" in index and "alice" in index and 'href="/players/leaderboard/ropasci360"' in index
    assert "Bot accounts to challenge" in index
    board = Client().get("/players/leaderboard/ropasci360").content.decode()
    assert board.index("alice") < board.index("bob") and ">BOT<" in board
    assert Client().get("/players/").status_code == 302
    assert Client().get("/players/leaderboard/nonsense").status_code == 404
    assert 'href="/players/leaderboard/"' in Client().get("/").content.decode()  # the nav


# --- keys ---------------------------------------------------------------------------------------------

def test_api_keys_are_shown_once_stored_hashed_and_revocable():
    gus = make_user("gus")
    c = logged_in(gus)
    assert Client().post(reverse("key_create"), {"name": "x"}).status_code == 302  # to log in; nothing made
    response = c.post(reverse("key_create"), {"name": "laptop"})
    html = response.content.decode()
    secret = re.search(r'value="(rpk_[\w-]+)"', html).group(1)
    assert "shown only this once" in html and response["Cache-Control"].startswith("max-age=0")
    key = ApiKey.objects.get(user=gus)
    assert key.key_hash == hashlib.sha256(secret.encode()).hexdigest() and secret.startswith(key.prefix)
    assert secret not in json.dumps(list(ApiKey.objects.values()), default=str)
    assert services.is_bot_account(gus)
    profile = c.get("/players/gus").content.decode()
    assert key.prefix in profile and secret not in profile

    assert api(Client(), "GET", "/api/challenges", key=secret).json() == {"challenges": []}
    assert ApiKey.objects.get(pk=key.pk).last_used is not None
    assert logged_in(make_user("hal")).post(reverse("key_revoke", args=[key.id])).status_code == 302
    assert ApiKey.objects.get(pk=key.pk).revoked is None  # not theirs
    c.post(reverse("key_revoke", args=[key.id]))
    response = api(Client(), "GET", "/api/challenges", key=secret)
    assert response.status_code == 403 and response.json() == {"error": "this key was revoked"}
    assert api(Client(), "GET", "/api/challenges", key="rpk_nonsense").status_code == 403
    assert api(Client(), "GET", "/api/challenges").json()["error"].startswith("missing key")


# --- challenges -------------------------------------------------------------------------------------------

@pytest.fixture
def bot_with_key():
    bot = make_user("robo")
    return bot, services.create_api_key(bot, "test").secret


def test_a_challenge_accepted_through_the_api_seats_both_players(bot_with_key, django_capture_on_commit_callbacks):
    bot, key = bot_with_key
    ivy = make_user("ivy")
    ivy_key = services.create_api_key(ivy).secret
    response = api(Client(), "POST", "/api/challenges", {"target": "robo", "game": "ropasci360", "side": "upper",
                                                         "rated": True}, key=ivy_key)
    assert response.status_code == 201, response.content
    made = response.json()
    assert (made["status"], made["challenger"], made["seat"], made["side"]) == ("pending", "ivy", "upper", "lower")
    challenger_token = made["seat_token"]
    challenge = Challenge.objects.get(pk=made["id"])
    assert challenge.challenger_token_hash == hashlib.sha256(challenger_token.encode()).hexdigest()

    listed = api(Client(), "GET", "/api/challenges", key=key).json()["challenges"]
    assert [c["id"] for c in listed] == [made["id"]]
    assert api(Client(), "GET", "/api/challenges", key=ivy_key).json()["challenges"] == []
    assert api(Client(), "POST", f"/api/challenges/{made['id']}/accept", key=ivy_key).status_code == 403

    with django_capture_on_commit_callbacks(execute=True):
        response = api(Client(), "POST", f"/api/challenges/{made['id']}/accept", key=key)
    assert response.status_code == 200
    accepted = response.json()
    assert accepted["status"] == "accepted" and accepted["seat"] == "lower"
    game = Game.objects.get(pk=accepted["game_id"])
    assert game.status == Game.Status.ACTIVE and RatedGame.objects.filter(game=game).exists()
    seats = {s.side: s for s in game.seats.all()}
    assert (seats["upper"].user, seats["lower"].user) == (ivy, bot)
    assert seats["upper"].token_matches(challenger_token) and seats["lower"].token_matches(accepted["seat_token"])
    assert api(Client(), "POST", f"/api/challenges/{made['id']}/accept", key=key).status_code == 409

    # Both play through the games API with their seat tokens.
    for side, token, action in (("upper", challenger_token, UPPER_SCRIPT[0]), ("lower", accepted["seat_token"],
                                                                               LOWER_SCRIPT[0])):
        r = Client().post(f"/api/games/{game.id}/actions", json.dumps({"turn": 1, "action": action}),
                          content_type="application/json", HTTP_AUTHORIZATION=f"Seat {token}")
        assert r.status_code in (200, 202), r.content
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(f"/api/games/{game.id}/resign", HTTP_AUTHORIZATION=f"Seat {challenger_token}")
    assert RatedPlayer.objects.get(user=bot).wins == 1 and RatedPlayer.objects.get(user=ivy).losses == 1
    detail = Client().get(f"/api/challenges/{made['id']}").json()
    assert detail["game_id"] == game.id and detail["replay_url"].endswith(f"/games/{game.id}/replay")


def test_challenge_errors_change_nothing(bot_with_key):
    bot, key = bot_with_key
    make_user("plain")
    cases = [
        ({"target": "nobody"}, 404, "no account"),
        ({"target": "plain"}, 400, "not a bot account"),
        ({"target": "robo", "game": "chess"}, 400, "unknown game"),
        ({"target": "robo", "game": "2048"}, 400, "two-player games"),
        ({"target": "robo", "side": "middle"}, 400, "'side' must be"),
        ({"target": "robo", "rated": True}, 400, "needs an account"),
        ({"target": "robo", "rated": "yes"}, 400, "true or false"),
        ({"target": "robo", "turn_seconds": 1}, 400, "turn_seconds"),
        ({"target": "robo", "params": [1]}, 400, "params"),
        ({"target": ["robo"]}, 400, "'target'"),
    ]
    for body, status, words in cases:
        response = api(Client(), "POST", "/api/challenges", body)
        assert response.status_code == status and words in response.json()["error"], (body, response.content)
    assert api(Client(), "POST", "/api/challenges", {"target": "robo"}, key=key).json()["error"] == \
        "you cannot challenge yourself"
    bad = Client().post("/api/challenges", b"{nope", content_type="application/json")
    assert bad.status_code == 400
    assert Client().put("/api/challenges").status_code == 405
    assert not Challenge.objects.exists()
    # A logged-in browser without its CSRF token is refused (the API is CSRF-exempt only for keys).
    c = Client(enforce_csrf_checks=True)
    c.force_login(make_user("jo"))
    assert api(c, "POST", "/api/challenges", {"target": "robo"}).status_code == 403
    assert api(Client(), "POST", "/api/challenges/nothing/accept", key=key).status_code == 404
    assert Client().get("/api/challenges/nothing").status_code == 404
    assert Client().get("/api/challenges/x?wait=soon").status_code == 400


def test_decline_and_cancel(bot_with_key):
    bot, key = bot_with_key
    first = api(Client(), "POST", "/api/challenges", {"target": "robo"}).json()
    assert api(Client(), "POST", f"/api/challenges/{first['id']}/decline", key=key).json()["status"] == "declined"
    assert api(Client(), "POST", f"/api/challenges/{first['id']}/accept", key=key).status_code == 409
    kim = make_user("kim")
    kim_key = services.create_api_key(kim).secret
    second = api(Client(), "POST", "/api/challenges", {"target": "robo"}, key=kim_key).json()
    assert api(Client(), "POST", f"/api/challenges/{second['id']}/cancel", key=key).status_code == 403
    assert api(Client(), "POST", f"/api/challenges/{second['id']}/cancel", key=kim_key).json()["status"] == "cancelled"
    assert api(Client(), "GET", "/api/challenges", key=key).json()["challenges"] == []


def test_a_browser_challenges_a_bot_account_and_plays_its_seat(bot_with_key):
    bot, key = bot_with_key
    c = Client()
    html = c.get("/players/robo").content.decode()
    assert "Challenge robo" in html and 'name="rated"' not in html  # anonymous: casual only
    response = c.post("/players/robo/challenge", {"game": "tic_tac_toe", "side": "first", "name": "lee"})
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert response["Location"] == f"/players/challenges/{challenge.id}"
    assert (challenge.challenger, challenge.challenger_name, challenge.challenger_side) == (None, "lee", "x")
    page = c.get(response["Location"]).content.decode()
    assert "Waiting for robo" in page and 'http-equiv="refresh"' in page and "Cancel the challenge" in page
    assert "Cancel the challenge" not in Client().get(response["Location"]).content.decode()

    accepted = api(Client(), "POST", f"/api/challenges/{challenge.id}/accept", key=key).json()
    game_id = accepted["game_id"]
    assert Client().get(f"/players/challenges/{challenge.id}").status_code == 200  # a stranger only watches
    response = c.get(f"/players/challenges/{challenge.id}")
    assert response.status_code == 302 and response["Location"] == f"/games/{game_id}"
    assert seatsession.recall(c.session, game_id)[0] == "x"
    # The browser now plays X like any seat it holds.
    response = c.post(reverse("act", args=[game_id]), {"turn": "1", "action": "4"})
    assert response.status_code == 302
    assert Game.objects.get(pk=game_id).turn == 1

    bad = c.post("/players/robo/challenge", {"game": "2048", "side": "first"})
    assert bad.status_code == 400 and "Select a valid choice" in bad.content.decode()
    assert c.post("/players/nobody/challenge", {"game": "hex", "side": "random"}).status_code == 404


@pytest.mark.django_db(transaction=True)
async def test_a_challengers_program_waits_for_the_answer():
    def setup():
        bot = make_user("robo")
        services.create_api_key(bot)
        return bot, services.create_challenge(None, "robo", "ropasci360").challenge
    bot, challenge = await sync_to_async(setup)()
    waiter = asyncio.ensure_future(AsyncClient().get(f"/api/challenges/{challenge.id}?wait=20"))
    await asyncio.sleep(0)  # let the request start; correctness does not depend on it
    assert not waiter.done()
    await sync_to_async(services.accept_challenge)(bot, challenge.id)
    response = await asyncio.wait_for(waiter, 10)
    assert response.status_code == 200 and response.json()["status"] == "accepted" and response.json()["game_id"]


# --- a bot account's program, through python -m games.client --key, on the live server ------------

SETUP = """
from django.contrib.auth import get_user_model
from players import services
User = get_user_model()
bot = User.objects.create_user("greedy-bot", password="x-{n}-long-password")
me = User.objects.create_user("challenger-{n}", password="x-{n}-long-password")
print(services.create_api_key(bot, "client").secret, services.create_api_key(me, "client").secret)
"""


def test_a_bot_account_plays_a_challenge_with_the_client(server):
    out = server.manage("shell", "-c", SETUP.format(n=1)).stdout.split()
    bot_key, challenger_key = out[-2], out[-1]
    status, made = _api(server, "/api/challenges", {"target": "greedy-bot", "game": "ropasci360", "side": "upper",
                                                    "rated": True}, key=challenger_key)
    assert status == 201, made
    proc = subprocess.Popen(
        [sys.executable, "-m", "games.client", "--server", server.url, "--key", bot_key,
         "--player", "games.bots.comp30024:GreedyPlayer", "--games", "1"],
        cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(90, proc.kill)  # never hang the suite on a stuck client
    watchdog.start()
    try:
        first = proc.stdout.readline()  # "game <id>: ... as lower ...", once it has accepted
        assert first.startswith("game "), first + proc.stderr.read()
        game_id = first.split()[1].rstrip(":")
        assert " as lower " in first
        from games.bots.comp30024 import RandomPlayer
        api = game_client.Api(server.url)
        game = game_client.play(api, game_id, "upper", made["seat_token"], RandomPlayer("upper"))
        rest, err = proc.communicate(timeout=60)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert game["status"] == "finished"
    lines = rest.strip().splitlines()
    assert lines[-3].startswith("result: ") and lines[-2].endswith(f"/games/{game_id}/replay")
    assert lines[-1] == "played 1 game"
    status, detail = _api(server, f"/api/challenges/{made['id']}")
    assert detail["status"] == "accepted" and detail["game_id"] == game_id
    assert game["seats"]["lower"]["name"] == "greedy-bot" and game["seats"]["upper"]["name"] == "challenger-1"
    # Rated: both accounts are on the leaderboard, and on each other's profiles.
    status, board = server.get("/players/leaderboard/ropasci360")
    assert status == 200 and "greedy-bot" in board and "challenger-1" in board
    status, profile = server.get("/players/greedy-bot")
    assert f"/games/{game_id}/replay" in profile and "rc-line" in profile


def _api(server, path, body=None, key=None):
    import urllib.error
    import urllib.request
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(server.url + path, data=data, method="POST" if data is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    if key:
        req.add_header("Authorization", f"Key {key}")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
