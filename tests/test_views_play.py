"""The lobby and the game page through Django's test client: creating, joining, acting, resigning, and
the secrecy of pending actions in everything the page and its live fragments show."""
import json
import re

import pytest

from games.engine import Result
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.read import presenters
from games.play import seatsession, services
from games.engine import load_game
from games.models import Game, PendingAction, Seat, Turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NEW_GAME = {"game": "ropasci360", "seat_upper": "me", "seat_lower": "invite", "turn_seconds": "",
            "bot_seconds": "1", "name": ""}

# A short game to a win (see tests/test_browser_play.py): Lower keeps throwing onto (-4, 0), each symbol
# beating the one before; Upper stacks rocks on (4, 0), throws a paper to (-3, 0) and slides it onto (-4, 0)
# in turn 9, where Lower's rock, Lower's last scissors and Upper's paper meet: all three die.
LOWER_SYMBOLS = "srpsrpsrs"
UPPER_SCRIPT = [["THROW", "r", [4, 0]]] * 7 + [["THROW", "p", [-3, 0]], ["SLIDE", [-3, 0], [-4, 0]]]
LOWER_SCRIPT = [["THROW", s, [-4, 0]] for s in LOWER_SYMBOLS]


def new_game(client, **fields):
    response = client.post(reverse("new_game"), {**NEW_GAME, **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    game_id = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    return Game.objects.get(pk=game_id)


def person_game():
    """Upper created by client ``a``, Lower joined by client ``b``; returns (game, a, b)."""
    a, b = Client(), Client()
    game = new_game(a)
    response = b.post(reverse("join", args=[game.id]), {"side": "lower"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    page(b, game)  # shows (and so uses up) the "You play Lower" message
    return game, a, b


def act(client, game, turn, action, htmx=True):
    extra = HTMX if htmx else {}
    return client.post(reverse("act", args=[game.id]), {"turn": str(turn), "action": json.dumps(action)}, **extra)


def page(client, game):
    response = client.get(reverse("game", args=[game.id]))
    assert response.status_code == 200
    return response.content.decode()


def normalise(html, game):
    """Comparable HTML: without the game's id, the per-request CSRF tokens and the version's save stamp."""
    html = html.replace(game.id, "GAME")
    html = re.sub(r'data-version="[^"]*"', "data-version", html)
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken"', html)
    html = re.sub(r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken"', html)
    html = re.sub(r'data-server-now="[^"]*"', "", html)
    return html


def without_awaited(html):
    """The HTML less what ``services.waiting_on`` decides (who is still choosing)."""
    html = re.sub(r'<p class="turn-status">.*?</p>', "", html, flags=re.S)
    html = re.sub(r'<span class="seat-status [^"]*">[^<]*</span>', "", html)
    return re.sub(r'data-status="(choosing|ready)"', "", html)


# --- lobby ----------------------------------------------------------------------------------------------

def test_lobby_lists_open_and_live_games():
    waiting = services.create_game("ropasci360", {"upper": "human", "lower": "human"}, claim="upper").game
    live = services.create_game("ropasci360", {"upper": "bot:random", "lower": "bot:greedy"}, claim=None).game
    done = services.create_game("ropasci360", {"upper": "human", "lower": "human"})
    services.resign(done.game.id, done.tokens["upper"])
    html = Client().get(reverse("home")).content.decode()
    open_section = html.split('id="open-games"')[1].split("</section>")[0]
    live_section = html.split('id="live-games"')[1].split("</section>")[0]
    assert waiting.id in open_section and "Join as Lower" in open_section
    assert live.id in live_section and "Watch" in live_section and live.id not in open_section
    assert waiting.id not in live_section
    assert done.game.id not in open_section and done.game.id not in live_section
    assert "bot (random)" in live_section and "bot (greedy)" in live_section


def test_the_lists_name_each_game_and_leave_out_abandoned_ones():
    from datetime import timedelta

    from django.utils import timezone
    live = services.create_game("hex", {"black": "bot:random", "white": "bot:random"}, claim=None).game
    gone = services.create_game("othello", {"black": "human", "white": "human"}, claim="black").game
    services.claim_seat(gone.id, "white")
    waiting = services.create_game("connect_four", {"yellow": "human", "red": "human"}, claim="yellow").game
    old = services.create_game("nim", {"black": "human", "white": "human"}, claim="black").game
    now = timezone.now()
    Game.objects.filter(pk=gone.id).update(updated=now - timedelta(minutes=11))  # no move for 11 minutes
    Game.objects.filter(pk=old.id).update(updated=now - timedelta(minutes=61))  # nobody came within the hour
    html = Client().get(reverse("home")).content.decode()
    open_section = html.split('id="open-games"')[1].split("</section>")[0]
    live_section = html.split('id="live-games"')[1].split("</section>")[0]
    assert live.id in live_section and "Hex" in live_section and gone.id not in live_section
    assert waiting.id in open_section and "Connect Four" in open_section and old.id not in open_section


def test_the_live_list_counts_moves_not_chance_turns():
    """2048's new tiles are chance turns: after one slide the list says "move 2", not the turn number."""
    created = services.create_game("2048", {"player": "human"}, claim="player")
    game = Game.objects.get(pk=created.game.id)
    state = services.current_state(game)
    action = state.legal_actions("player")[0]
    game, _ = services.submit_action(game.id, created.tokens["player"], game.turn + 1, action)
    assert game.turn > 2  # the first tiles, the slide, a new tile
    live_section = Client().get(reverse("home")).content.decode().split('id="live-games"')[1].split("</section>")[0]
    assert game.id in live_section and "move 2" in live_section and f"turn {game.turn + 1}" not in live_section


def test_only_a_game_of_bots_made_in_the_lobby_is_paced_for_its_watchers():
    from datetime import timedelta

    from games.play import botmoves
    from games.web.lobby import WATCH_PACE
    watch = Client().post(reverse("quick_start", args=["tic_tac_toe"]), {"how": "watch", "level": "random"})
    watched = Game.objects.get(pk=watch["Location"].rsplit("/", 1)[-1])
    play = Client().post(reverse("quick_start", args=["tic_tac_toe"]), {"how": "computer", "level": "random"})
    played = Game.objects.get(pk=play["Location"].rsplit("/", 1)[-1])
    api = services.create_game("tic_tac_toe", {"x": "bot:random", "o": "bot:random"}).game
    assert watched.move_seconds == WATCH_PACE and played.move_seconds is None and api.move_seconds is None
    # A bot's move waits until a move-time after the turn began; elsewhere it is played at once.
    began = watched.turn_started
    assert botmoves.wait_before(watched, began + timedelta(seconds=0.25)) == pytest.approx(WATCH_PACE - 0.25)
    assert botmoves.wait_before(watched, began + timedelta(seconds=WATCH_PACE + 1)) == 0
    assert botmoves.wait_before(api, api.turn_started) == 0
    # Its rematch keeps the pace.
    from games.play.rematch import rematch
    services.abort(watched.id)
    again, _ = rematch(watched.id, None)
    assert again.game.move_seconds == WATCH_PACE


def test_the_catalogue_links_every_game_to_its_start_page():
    from xml.etree import ElementTree

    from games.engine.registry import names_in_order
    html = Client().get(reverse("home")).content.decode()
    for name in names_in_order():
        assert f'data-game="{name}" href="/play/{name}"' in html
        response = Client().get(reverse("board_picture", args=[name]))
        assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
        assert response.content.startswith(b"<svg") and b'id="board"' in response.content
        ElementTree.fromstring(response.content)  # an image: well-formed XML, or the browser shows nothing
        # Drawn in the page's theme: the dark one's rules (the game's own values) in their own block.
        light, dark = response.content.decode().split("@media (prefers-color-scheme: dark)")
        assert "var(" not in dark and dark.count("{") > 3
    assert Client().get("/play/no-such-game/board.svg").status_code == 404


@pytest.mark.parametrize("name,how,kinds,claimed", [
    ("connect_four", "computer", {"yellow": "human", "red": "bot"}, "yellow"),
    ("nim3p", "computer", {"p0": "human", "p1": "bot", "p2": "bot"}, "p0"),
    ("hex", "friend", {"black": "human", "white": "human"}, "black"),
    ("tic_tac_toe", "watch", {"x": "bot", "o": "bot"}, None),
    ("2048", "computer", {"player": "human"}, "player"),
])
def test_one_click_starts_a_game_with_the_defaults(name, how, kinds, claimed):
    client = Client()
    response = client.post(reverse("quick_start", args=[name]), {"how": how})
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(pk=response["Location"].rsplit("/", 1)[-1])
    assert game.kind == name and game.turn_seconds is None
    seats = {s.side: s for s in game.seats.all()}
    assert {side: s.kind for side, s in seats.items()} == kinds
    assert all(s.bot_level == "strong" for s in seats.values() if s.kind == "bot")  # the default level
    recalled = seatsession.recall(client.session, game.id)
    assert (recalled[0] if recalled else None) == claimed
    if len(kinds) > 1:  # a level the game's bots do not have: said on the start page, no game made
        response = client.post(reverse("quick_start", args=[name]), {"how": "computer", "level": "alien"})
        assert response.status_code == 400 and b"Select a valid choice" in response.content


def test_lobby_shows_a_creators_own_games_and_a_users_games():
    client = Client()
    game = new_game(client)
    html = client.get(reverse("home")).content.decode()
    assert "Your games" in html
    open_section = html.split('id="open-games"')[1].split("</section>")[0]
    assert game.id in open_section and "Join as Lower" not in open_section  # own game: Open, not Join

    user = get_user_model().objects.create_user("ada", password="pw-for-tests-1")
    client = Client()
    client.force_login(user)
    game = new_game(client, name="")
    assert Seat.objects.get(game=game, side="upper").user == user
    assert Seat.objects.get(game=game, side="upper").display_name == "ada"
    other = Client()
    other.force_login(user)  # another browser of the same account: no seat token, still listed
    html = other.get(reverse("home")).content.decode()
    mine = html.split('id="user-games-title"')[1].split("</section>")[0]
    assert game.id in mine


# --- creating -------------------------------------------------------------------------------------------

def test_create_a_game_against_a_person_gives_an_invite():
    client = Client()
    game = new_game(client, seat_upper="invite", seat_lower="me", turn_seconds="120", name="Grace")
    assert game.status == Game.Status.WAITING and game.turn_seconds == 120
    seats = {s.side: s for s in game.seats.all()}
    assert seats["lower"].is_claimed and seats["lower"].display_name == "Grace"
    assert seats["upper"].kind == Seat.Kind.HUMAN and not seats["upper"].is_claimed
    assert seatsession.recall(client.session, game.id)[0] == "lower"
    html = page(client, game)
    assert "Invite your opponent" in html and f"http://testserver/games/{game.id}" in html
    assert "Copy link" in html and "Join as" not in html


@pytest.mark.parametrize("level", ["random", "greedy", "strong"])
def test_create_a_game_against_a_bot(level):
    client = Client()
    game = new_game(client, seat_lower=f"bot:{level}", turn_seconds="30", bot_seconds="0.5")
    assert game.status == Game.Status.ACTIVE and game.turn_seconds == 30
    seats = {s.side: s for s in game.seats.all()}
    assert seats["upper"].kind == Seat.Kind.HUMAN and seats["lower"].kind == Seat.Kind.BOT
    assert seats["lower"].bot_level == level and seats["lower"].bot_seconds == 0.5
    assert seats["upper"].bot_seconds is None
    html = page(client, game)
    assert 'id="legal-actions"' in html and "Your move" in html
    assert 'data-deadline="' in html


def test_create_bot_against_bot_to_watch():
    client = Client()
    game = new_game(client, seat_upper="bot:strong", seat_lower="bot:random")
    assert game.status == Game.Status.ACTIVE
    assert {s.side: s.bot_level for s in game.seats.all()} == {"upper": "strong", "lower": "random"}
    assert seatsession.recall(client.session, game.id) is None
    html = page(client, game)
    assert "You are watching" in html and 'id="legal-actions"' not in html


def test_shuffled_seats_deal_the_choices_at_random():
    sides = set()
    for _ in range(12):
        client = Client()
        game = new_game(client, seat_lower="bot:random", shuffle="on")
        side = seatsession.recall(client.session, game.id)[0]
        sides.add(side)
        kinds = {s.side: s.kind for s in game.seats.all()}
        assert kinds[side] == Seat.Kind.HUMAN and list(kinds.values()).count(Seat.Kind.BOT) == 1
    assert sides == {"upper", "lower"}


@pytest.mark.parametrize("fields,message", [
    ({"seat_lower": "alien", "turn_seconds": "7"}, "Select a valid choice"),
    ({"seat_lower": "me"}, "You can play one seat"),
    ({"seat_lower": "bot:perfect"}, "Select a valid choice"),  # RoPaSci 360 has no perfect bot
    ({"bot_seconds": "60", "seat_lower": "bot:strong"}, "Select a valid choice"),
])
def test_invalid_form_is_shown_again(fields, message):
    response = Client().post(reverse("new_game"), {**NEW_GAME, **fields})
    assert response.status_code == 400
    assert Game.objects.count() == 0
    assert message in response.content.decode()
    assert Client().get(reverse("new_game")).status_code == 302


def test_the_lobby_offers_each_games_options_and_seats():
    client = Client()
    html = client.get(reverse("play", args=["ropasci360"])).content.decode()  # a game's start page
    assert 'name="seat_upper"' in html and 'name="seat_lower"' in html and 'name="game" value="ropasci360"' in html
    html = client.get(reverse("new_game_options"), {"game": "cyclotron"}).content.decode()
    assert 'name="seat_white"' in html and 'name="seat_black"' in html and "Turn order: White, then Black" in html
    response = client.get(reverse("home"), {"game": "expendibots"})  # the old lobby's link, without JavaScript
    assert response.status_code == 302 and response["Location"].startswith("/play/expendibots?")
    html = client.get(response["Location"]).content.decode()
    assert 'name="game" value="expendibots"' in html and 'name="seat_white"' in html and "<details" in html
    assert client.get(reverse("play", args=["no-such-game"])).status_code == 404
    html = client.get(reverse("new_game_options"), {"game": "no-such-game"}).content.decode()
    assert 'name="seat_upper"' in html


def test_create_a_game_of_another_kind_with_a_bot_to_watch():
    client = Client()
    game = new_game(client, game="cyclotron", seat_white="bot:greedy", seat_black="bot:random")
    assert game.kind == "cyclotron" and game.status == Game.Status.ACTIVE
    assert {s.side: s.bot_level for s in game.seats.all()} == {"white": "greedy", "black": "random"}


# --- joining --------------------------------------------------------------------------------------------

def test_join_flow():
    a, b, c = Client(), Client(), Client()
    game = new_game(a)
    html = page(b, game)
    assert "This game needs a player" in html and "Join as Lower" in html
    response = b.post(reverse("join", args=[game.id]), {"side": "lower", "name": "Bob"})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.id}"
    assert seatsession.recall(b.session, game.id)[0] == "lower"
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert Seat.objects.get(game=game, side="lower").display_name == "Bob"
    for client, side in ((a, "Upper"), (b, "Lower")):
        html = page(client, game)
        assert f"You play <strong>{side}</strong>" in html and 'id="legal-actions"' in html
    # A third visitor finds no seat; a player cannot take the second seat.
    response = c.post(reverse("join", args=[game.id]), {"side": "lower"}, follow=True)
    assert "this game has no open seat" in response.content.decode()
    assert seatsession.recall(c.session, game.id) is None
    response = c.post(reverse("join", args=[game.id]), **HTMX)
    assert response.status_code == 200 and "no open seat" in response.content.decode()


def test_join_through_htmx_redirects():
    a, b = Client(), Client()
    game = new_game(a)
    response = b.post(reverse("join", args=[game.id]), {"side": "lower"}, **HTMX)
    assert response.status_code == 200 and response["HX-Redirect"] == f"/games/{game.id}"


# --- acting ---------------------------------------------------------------------------------------------

def test_legal_actions_embedded_are_the_engines():
    game, a, b = person_game()
    html = page(a, game)
    data = json.loads(re.search(r'<script id="legal-actions" type="application/json">(.*?)</script>', html, re.S).group(1))
    eg = load_game("ropasci360")
    actions = eg.new_initial_state().legal_actions("upper")
    assert [e["action"] for e in data] == [eg.action_to_json(x) for x in actions]
    assert data[0]["text"] == "Rock thrown to (4, -4)" and data[3]["text"] == "Rock thrown to (4, -3)"
    # Each action's click path: a symbol button then a hex for throws.
    assert data[0]["path"] == [{"key": "throw:r", "label": "Throw rock"}, {"key": "hex:4,-4"}]
    assert html.count("<option value=\"[") == len(actions)
    assert "Rock thrown to (4, 0)" in html


def test_act_accepts_a_legal_action_and_resolves_the_turn():
    game, a, b = person_game()
    response = act(a, game, 1, ["THROW", "r", [4, 0]])
    assert response.status_code == 200
    html = response.content.decode()
    for fragment in ("game-head", "board-wrap", "turn-panel", "controls"):
        assert re.search(rf'id="{fragment}"[^>]*hx-swap-oob="true"', html), fragment
    assert 'id="game-error"' in html  # cleared
    assert "You chose <strong>Rock thrown to (4, 0)</strong>" in html and "Waiting for opponent" in html
    assert PendingAction.objects.get(game=game).side == "upper"

    response = act(b, game, 1, ["THROW", "s", [-4, 0]])
    assert response.status_code == 200
    html = response.content.decode()
    assert '<svg id="board"' in html and 'data-turn="1"' in html
    game.refresh_from_db()
    assert game.turn == 1 and not PendingAction.objects.filter(game=game).exists()
    assert Turn.objects.get(game=game, number=1).actions == {"upper": ["THROW", "r", [4, 0]],
                                                             "lower": ["THROW", "s", [-4, 0]]}
    # Both pages show the resolved turn and its moves; the tokens carry their data attributes.
    html = page(a, game)
    assert 'data-r="4" data-q="0" data-player="upper" data-symbol="r" data-count="1"' in html
    assert "Upper: <code>Rock thrown to (4, 0)</code>" in html and "Move 2" in html


def test_act_without_javascript_redirects():
    game, a, b = person_game()
    response = act(a, game, 1, ["THROW", "p", [4, -2]], htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.id}"
    assert PendingAction.objects.filter(game=game, side="upper").exists()


def test_act_rejects_an_illegal_action_with_the_rule_and_changes_nothing():
    game, a, b = person_game()
    before = normalise(page(b, game), game)
    response = act(a, game, 1, ["THROW", "r", [0, 0]])
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="game-error"' in html and 'hx-swap-oob="true"' in html
    assert "illegal action: throw number 1 of upper must land in its first 1 row(s) (r &gt;= 4)" in html
    assert not PendingAction.objects.exists()
    game.refresh_from_db()
    assert game.turn == 0 and services.waiting_on(game) == ["upper", "lower"]
    assert normalise(page(b, game), game) == before

    # Without JavaScript: back to the page, which shows the message.
    response = act(a, game, 1, ["SLIDE", [4, 0], [3, 0]], htmx=False)
    assert response.status_code == 302
    html = page(a, game)
    assert "illegal action: upper has no token on (4, 0) to move" in html
    assert not PendingAction.objects.exists()

    for bad, message in ((["THROW", "r"], "malformed action"), ("not json", "not acceptable JSON"), ("", "choose an action")):
        data = {"turn": "1", "action": bad if isinstance(bad, str) else json.dumps(bad)}
        html = a.post(reverse("act", args=[game.id]), data, **HTMX).content.decode()
        assert message in html, (bad, html)
    assert "stale turn" in act(a, game, 5, ["THROW", "r", [4, 0]]).content.decode()
    assert not PendingAction.objects.exists()


def test_act_needs_a_seat():
    game, a, b = person_game()
    html = act(Client(), game, 1, ["THROW", "r", [4, 0]]).content.decode()
    assert "you have no seat in this game" in html
    assert not PendingAction.objects.exists()


# --- secrecy --------------------------------------------------------------------------------------------

def test_pending_action_is_secret_from_spectator_and_opponent():
    """Two games that differ only in WHAT Upper submitted look identical to Lower and to a spectator
    (fragments and whole pages); and submitting changes only who is awaited."""
    spectator = Client()
    views = []
    for action in (["THROW", "r", [4, 0]], ["THROW", "s", [4, -3]]):
        game, a, b = person_game()
        act(a, game, 1, ["THROW", "p", [4, -1]])
        act(b, game, 1, ["THROW", "r", [-4, 2]])  # one resolved turn first
        before = {
            "lower": normalise(presenters.live_fragments(game.id, "lower"), game),
            "spectator": normalise(presenters.live_fragments(game.id, None), game),
            "lower page": normalise(page(b, game), game),
            "spectator page": normalise(page(spectator, game), game),
        }
        assert act(a, game, 2, action).status_code == 200
        assert PendingAction.objects.get(game=game).action == action
        after = {
            "lower": normalise(presenters.live_fragments(game.id, "lower"), game),
            "spectator": normalise(presenters.live_fragments(game.id, None), game),
            "lower page": normalise(page(b, game), game),
            "spectator page": normalise(page(spectator, game), game),
        }
        for key in before:
            assert before[key] != after[key], key  # Upper is no longer awaited...
            assert without_awaited(before[key]) == without_awaited(after[key]), key  # ...and nothing else changed
            assert "has chosen" in after[key]
        views.append(after)
        # The submitter sees their own choice.
        assert "You chose <strong>" in presenters.live_fragments(game.id, "upper")
    assert views[0] == views[1]


# --- pages ----------------------------------------------------------------------------------------------

def test_unknown_game_is_404():
    client = Client()
    response = client.get("/games/nosuchgame")
    assert response.status_code == 404 and "Game not found" in response.content.decode()
    assert client.post("/games/nosuchgame/act", {"turn": "1", "action": "[]"}).status_code == 404
    assert client.post("/games/nosuchgame/join").status_code == 404
    assert client.post("/games/nosuchgame/resign").status_code == 404


def test_flip_parameter_turns_the_board():
    game, a, b = person_game()
    assert 'class="board board-ropasci360"' in page(a, game)
    html = a.get(reverse("game", args=[game.id]) + "?flip=1").content.decode()
    assert 'class="board board-ropasci360 flipped"' in html and 'aria-pressed="true"' in html


def test_resign():
    game, a, b = person_game()
    # Without JavaScript, a confirmation page first.
    response = a.post(reverse("resign", args=[game.id]))
    assert response.status_code == 200 and "Resign this game?" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert "no seat" in Client().post(reverse("resign", args=[game.id]), {"confirm": "yes"}, **HTMX).content.decode()

    response = a.post(reverse("resign", args=[game.id]), {"confirm": "yes"}, **HTMX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert (game.status, game.result, game.ending) == (Game.Status.FINISHED, "winner: lower", Game.Ending.RESIGNATION)
    html = response.content.decode()
    assert "Lower wins: you lose" in html and "Upper resigned." in html
    html = page(b, game)
    assert "Lower wins: you win!" in html and "Upper resigned." in html and "by resignation" in html
    assert "Resign" not in html.split('id="controls"')[1].split("</section>")[0]
    html = page(Client(), game)
    assert "Lower wins</h2>" in html and "Game over by resignation after 0 moves" in html
    assert "the game is already over" in a.post(reverse("resign", args=[game.id]), {"confirm": "yes"}, **HTMX).content.decode()


def test_a_game_played_to_a_win_by_the_rules():
    game, a, b = person_game()
    for turn, (up, low) in enumerate(zip(UPPER_SCRIPT, LOWER_SCRIPT), start=1):
        assert "Not accepted" not in act(a, game, turn, up).content.decode()
        assert "Not accepted" not in act(b, game, turn, low).content.decode()
    game.refresh_from_db()
    assert (game.status, game.result, game.ending, game.turn) == (Game.Status.FINISHED, "winner: upper", "rules", 9)
    html = page(a, game)
    assert "Upper wins: you win!" in html
    assert "Every Lower token is defeated and Lower has no throws left." in html
    assert "Result: <code>winner: upper</code>" in html
    assert 'data-player="upper" data-symbol="r" data-count="7"' in html  # the stack of rocks
    assert "Battle on (-4, 0)" in html
    html = page(b, game)
    assert "Upper wins: you lose" in html and 'id="legal-actions"' not in html


def test_timeout_and_abort_are_told_in_words():
    game, a, b = person_game()
    game.status, game.result, game.ending = Game.Status.FINISHED, "winner: lower", Game.Ending.TIMEOUT
    game.outcome = Result.shared(["upper", "lower"], ["lower"], "winner: lower").to_json()
    game.save()
    assert "Upper ran out of time." in page(a, game)
    game.result = "draw: both players ran out of time"
    game.outcome = Result.shared(["upper", "lower"], [], game.result).to_json()
    game.save()
    html = page(a, game)
    assert "Draw</h2>" in html and "Both players ran out of time." in html
    game.status, game.result, game.ending, game.note = Game.Status.ABORTED, "", Game.Ending.ABORTED, "server moved"
    game.save()
    html = page(a, game)
    assert "Game aborted" in html and "server moved" in html


def test_game_page_has_share_preview_tags():
    game = services.create_game("ropasci360", {"upper": "human", "lower": "human"}).game
    html = Client().get(reverse("game", args=[game.id])).content.decode()
    assert 'property="og:title"' in html and 'name="twitter:card"' in html
    assert f'content="http://testserver/games/{game.id}"' in html


def test_the_session_keeps_the_hash_of_the_seat_token_never_the_token():
    from django.contrib.sessions.models import Session

    from games.models import hash_token
    client = Client()
    game = new_game(client)
    token_hash = Seat.objects.get(game=game, side="upper").token_hash
    stored = [s.get_decoded() for s in Session.objects.all()]
    entries = [e for d in stored for e in (d.get(seatsession.KEY) or {}).values()]
    assert entries == [{"side": "upper", "hash": token_hash}]
    # A session from before (holding the token) still plays, and is rewritten to hold only the hash.
    token = "legacy-token-" + game.id
    Seat.objects.filter(game=game, side="upper").update(token_hash=hash_token(token))
    session = client.session
    session[seatsession.KEY] = {game.id: {"side": "upper", "token": token}}
    session.save()
    html = page(client, game)
    assert "You play <strong>Upper</strong>" in html
    assert client.session[seatsession.KEY][game.id] == {"side": "upper", "hash": hash_token(token)}


def test_a_person_resigning_three_seat_poker_on_the_page_leaves_the_bots_playing():
    """Through the lobby form and the page's Resign button: the game goes on, the page says so and offers no
    second resignation (which would be refused)."""
    a = Client()
    game = new_game(a, game="poker", seat_p0="me", seat_p1="bot:random", seat_p2="bot:random",
                    param_players="3", param_chips="60", param_big_blind="20")
    assert game.status == Game.Status.ACTIVE and 'id="resign-btn"' in page(a, game)
    response = a.post(reverse("resign", args=[game.id]), {"confirm": "yes"}, **HTMX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and "p0" not in game.to_act
    html = page(a, game)
    assert "You resigned" in html and "The others play on" in html and 'id="resign-btn"' not in html
