"""Staff admin: the games list (columns, filters, search, query count), a game's page (read-only log in the
referee's notation, pending actions, links, board), the actions, the dashboard, and permissions."""
from __future__ import annotations

import io
import re
import zipfile
from datetime import timedelta

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.admin import gameadmin as games_admin
from games.admin.inlines import TurnInline
from games.admin.stats import dashboard_stats
from games.live import botrunner
from games.read import gamelog
from games.play import services
from games.play.signals import game_changed
from games.models import Game, PendingAction, Seat, Turn

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/games/game/"
DASHBOARD = "/admin/games/game/dashboard/"


def change_url(game):
    return reverse("admin:games_game_change", args=[game.pk])


def make_game(*, upper="human", lower="human", status=Game.Status.FINISHED, result="winner: upper",
              source=Game.Source.PLAYED, names=("", ""), turns=0, created=None, kind="ropasci360"):
    """A game straight from the ORM (no engine): ``upper``/``lower`` are "human" or "bot:LEVEL"."""
    game = Game.objects.create(kind=kind, status=status, result=result, source=source, turn=turns,
                               state={"tokens": [], "turn": turns})
    for side, spec, name in (("upper", upper, names[0]), ("lower", lower, names[1])):
        score = None  # the seat's return, as games.play.turns.finish stores it
        if status == Game.Status.FINISHED and result:
            score = 0.5 if not result.startswith("winner: ") else float(result == f"winner: {side}")
        if spec == "human":
            seat = Seat(game=game, side=side, kind=Seat.Kind.HUMAN, display_name=name, score=score)
            seat.issue_token()
        else:
            seat = Seat(game=game, side=side, kind=Seat.Kind.BOT, bot_level=spec[4:], display_name=name, score=score)
        seat.save()
    if created is not None:
        Game.objects.filter(pk=game.pk).update(created=created)
        game.refresh_from_db()
    return game


def play_realistic_game():
    """Three turns played through the services (throws, a battle, a slide), then a pending action."""
    created = services.create_game("ropasci360", {"upper": "human", "lower": "human"}, claim="all",
                                   name="alice")
    game, tokens = created.game, created.tokens
    moves = [
        (["THROW", "r", [4, -4]], ["THROW", "p", [-4, 0]]),
        (["THROW", "s", [4, -4]], ["THROW", "s", [-3, -1]]),  # upper's own rock beats its scissors
        (["SLIDE", [4, -4], [3, -4]], ["SLIDE", [-4, 0], [-3, 0]]),
    ]
    for number, (up, low) in enumerate(moves, start=1):
        services.submit_action(game.id, tokens["upper"], number, up)
        services.submit_action(game.id, tokens["lower"], number, low)
    services.submit_action(game.id, tokens["upper"], 4, ["THROW", "p", [4, 0]])
    game.refresh_from_db()
    return game, tokens


def listed_ids(response):
    return [g.pk for g in response.context["cl"].result_list]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The result filter caches its list of texts."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("boss", "boss@example.com", "pw-for-tests-1")


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


# --- list ---------------------------------------------------------------------------------------------

def test_changelist_columns_and_newest_first(staff_client):
    old = make_game(names=("alice", "bob"), created=timezone.now() - timedelta(days=3), turns=42)
    new = make_game(upper="human", lower="bot:greedy", names=("carol", ""), status=Game.Status.ACTIVE,
                    result="", turns=7)
    response = staff_client.get(CHANGELIST)
    assert response.status_code == 200
    assert listed_ids(response) == [new.pk, old.pk]
    html = response.content.decode()
    assert "upper: alice (human)</span><br><span class=\"seat seat-human\">lower: bob (human)" in html
    assert '<span class="seat seat-bot">lower: bot (bot: greedy)</span>' in html
    for header in ("Game", "Players", "Status", "Result", "Turns", "Created", "Last activity"):
        assert f">{header}<" in html or f">{header}</a>" in html
    assert "winner: upper" in html and ">42<" in html


def test_changelist_query_count_does_not_grow_with_rows(staff_client, django_assert_num_queries):
    for i in range(3):
        make_game(upper="bot:random", names=("", f"p{i}"))
    cache.clear()  # measure the uncached path both times (the result filter caches its texts)
    with CaptureQueriesContext(connection) as few:
        assert staff_client.get(CHANGELIST).status_code == 200
    for i in range(47):
        make_game(lower="bot:strong", names=(f"q{i}", ""))
    cache.clear()
    with django_assert_num_queries(len(few.captured_queries)):
        response = staff_client.get(CHANGELIST)
    assert len(listed_ids(response)) == 50
    assert len(few.captured_queries) <= 8
    # session, user, result texts, count, games, seats
    with CaptureQueriesContext(connection) as warm:
        staff_client.get(CHANGELIST)
    assert len(warm.captured_queries) == len(few.captured_queries) - 1


def test_changelist_does_not_load_state(staff_client):
    make_game()
    with CaptureQueriesContext(connection) as ctx:
        staff_client.get(CHANGELIST)
    listing = [q["sql"] for q in ctx.captured_queries if 'FROM "games_game"' in q["sql"] and "LIMIT" in q["sql"]]
    assert listing and all('"games_game"."state"' not in sql for sql in listing)


# --- filters and search ---------------------------------------------------------------------------------

def test_filters(staff_client):
    hh = make_game(result="winner: lower")
    hb = make_game(lower="bot:greedy", result="draw: no remaining tokens or throws")
    bb = make_game(upper="bot:random", lower="bot:strong", source=Game.Source.IMPORTED)
    live_game = make_game(upper="bot:random", status=Game.Status.ACTIVE, result="")
    old = make_game(created=timezone.now() - timedelta(days=400))

    def ids(query):
        response = staff_client.get(CHANGELIST + "?" + query)
        assert response.status_code == 200, query
        return set(listed_ids(response))

    assert ids("status__exact=active") == {live_game.pk}
    assert ids("result=winner%3A+lower") == {hh.pk}
    assert ids("result=__none__") == {live_game.pk}
    assert ids("source__exact=imported") == {bb.pk}
    assert ids("bot_level=greedy") == {hb.pk}
    assert ids("bot_level=random") == {bb.pk, live_game.pk}
    assert ids("bot_level=__any__") == {hb.pk, bb.pk, live_game.pk}
    assert ids("seats=hh") == {hh.pk, old.pk}
    assert ids("seats=hb") == {hb.pk, live_game.pk}
    assert ids("seats=bb") == {bb.pk}
    assert ids("kind=ropasci360") == {hh.pk, hb.pk, bb.pk, live_game.pk, old.pk}
    since = (timezone.now() - timedelta(days=7)).replace(microsecond=0).isoformat()
    assert old.pk not in ids("created__gte=" + since.replace("+", "%2B"))
    assert ids(f"created__year={old.created.year}") == {old.pk}
    # The result filter offers the distinct result texts.
    html = staff_client.get(CHANGELIST).content.decode()
    assert "draw: no remaining tokens or throws" in html and "(no result)" in html


def test_search_by_id_and_player_name(staff_client):
    a = make_game(names=("Alice Liddell", "bob"))
    b = make_game(upper="bot:greedy", names=("Greedy Gus", "carol"))
    c = make_game()

    def ids(term):
        return set(listed_ids(staff_client.get(CHANGELIST, {"q": term})))

    assert ids(c.pk) == {c.pk}
    assert ids("alice") == {a.pk}
    assert ids("CAROL") == {b.pk}
    assert ids("gus") == {b.pk}
    assert ids("nobody-at-all") == set()
    # Searching by name never duplicates a game, even when both seats match.
    d = make_game(names=("twin", "twin"))
    assert listed_ids(staff_client.get(CHANGELIST, {"q": "twin"})) == [d.pk]


def test_search_by_a_common_name_takes_the_subquery_path(staff_client, monkeypatch):
    """More matching seats than ``NAME_MATCHES``: the same games, found by a subquery instead of a key list."""
    monkeypatch.setattr(games_admin, "NAME_MATCHES", 2)
    games = [make_game(names=(f"sam {i}", "sam")) for i in range(3)]
    other = make_game(names=("alex", "bo"))
    assert set(listed_ids(staff_client.get(CHANGELIST, {"q": "sam"}))) == {g.pk for g in games}
    assert other.pk not in listed_ids(staff_client.get(CHANGELIST, {"q": "sam"}))


def test_a_long_list_stops_counting_at_the_cap(staff_client, monkeypatch):
    monkeypatch.setattr(games_admin, "COUNT_CAP", 3)
    monkeypatch.setattr(games_admin.GameAdmin, "list_per_page", 2)
    games = [make_game(created=timezone.now() - timedelta(minutes=i)) for i in range(5)]
    html = staff_client.get(CHANGELIST).content.decode()
    assert "more than 3 games: narrow the list with a filter or a search" in html
    assert listed_ids(staff_client.get(CHANGELIST)) == [g.pk for g in games[:2]]
    assert listed_ids(staff_client.get(CHANGELIST, {"p": 2})) == [games[2].pk]  # the last page it counted
    filtered = staff_client.get(CHANGELIST, {"status__exact": "finished"}).content.decode()
    assert "more than 3 results" in filtered
    # Under the cap the count is exact.
    few = staff_client.get(CHANGELIST, {"q": games[0].pk}).content.decode()
    assert re.search(r"\b1 game\b", few) and "more than" not in few


# --- a game's page --------------------------------------------------------------------------------------

def test_game_of_a_kind_no_longer_registered_still_opens(staff_client):
    game = make_game(kind="retired_game")
    response = staff_client.get(change_url(game))
    assert response.status_code == 200
    assert "No board: the game &#x27;retired_game&#x27; is not known to this version." in response.content.decode()


def test_game_page_shows_log_seats_pending_links_and_board(staff_client):
    game, tokens = play_realistic_game()
    response = staff_client.get(change_url(game))
    assert response.status_code == 200
    html = response.content.decode()
    # The turn log in the referee's notation, with the battle.
    assert "THROW symbol r to (4, -4)" in html
    assert "THROW symbol p to (-4, 0)" in html
    assert "SLIDE from (4, -4) to (3, -4)" in html
    assert "Battle on (4, -4): Upper scissors defeated." in html
    # Seats with kinds, and the pending (secret) action.
    assert "alice" in html and "Human" in html
    assert "THROW symbol p to (4, 0)" in html
    # Links and the board thumbnail.
    assert f'href="{reverse("replay", args=[game.id])}"' in html
    assert f'href="{game.get_absolute_url()}"' in html
    assert 'class="board-thumb"' in html and "<svg" in html and "Current board after turn 3" in html
    # Token hashes never appear.
    for seat in game.seats.all():
        assert seat.token_hash and seat.token_hash not in html
    for token in tokens.values():
        assert token not in html
    assert "token_hash" not in html and "token hash" not in html.lower()


def test_turn_log_is_read_only(staff_client):
    game, _ = play_realistic_game()
    html = staff_client.get(change_url(game)).content.decode()
    # View-only inlines: only the hidden id/game inputs Django always renders, no editable field.
    for prefix in ("turns", "seats", "pending"):
        fields = set(re.findall(rf'name="{prefix}-\d+-([a-z_]+)"', html))
        assert fields <= {"id", "game"}, (prefix, fields)
    assert 'name="turns-0-id"' in html and 'name="turns-2-id"' in html  # all three turns are there
    assert 'name="note"' in html and 'name="status"' not in html and 'name="result"' not in html
    inline = TurnInline(Game, admin.site)
    request = type("R", (), {"user": game.seats.first().user})()
    assert not inline.has_add_permission(request, game)
    assert not inline.has_change_permission(request, game)
    assert not inline.has_delete_permission(request, game)
    # Posting the form changes the note only: status, result and the log stay as they were.
    before = list(Turn.objects.filter(game=game).values_list("number", "actions", "events"))
    response = staff_client.post(change_url(game), {
        "note": "checked by staff", "status": "finished", "result": "winner: lower", "turn": "99",
        "seats-TOTAL_FORMS": "2", "seats-INITIAL_FORMS": "2",
        "pending-TOTAL_FORMS": "1", "pending-INITIAL_FORMS": "1",
        "turns-TOTAL_FORMS": "3", "turns-INITIAL_FORMS": "3",
        "turns-0-id": "1", "turns-0-number": "77",
    })
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.note == "checked by staff"
    assert (game.status, game.result, game.turn) == (Game.Status.ACTIVE, "", 3)
    assert list(Turn.objects.filter(game=game).values_list("number", "actions", "events")) == before


def test_final_board_of_finished_game(staff_client):
    game = make_game()
    Game.objects.filter(pk=game.pk).update(state={"turn": 12, "tokens": [
        {"player": "upper", "symbol": "r", "hex": [0, 0], "count": 2}]})
    html = staff_client.get(change_url(game)).content.decode()
    assert "Final board after turn" in html and 'data-symbol="r"' in html and 'data-count="2"' in html


def test_no_add_or_delete(staff_client):
    game = make_game()
    assert staff_client.get("/admin/games/game/add/").status_code == 403
    assert staff_client.post(reverse("admin:games_game_delete", args=[game.pk]), {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


# --- actions --------------------------------------------------------------------------------------------

@pytest.fixture
def told(monkeypatch):
    """Records the game_changed announcements (what tells players' pages)."""
    calls = []

    def receiver(sender, game_id, turn, **kwargs):
        calls.append(game_id)

    game_changed.connect(receiver, dispatch_uid="test-told")
    yield calls
    game_changed.disconnect(dispatch_uid="test-told")


def test_abort_action(staff_client, told, django_capture_on_commit_callbacks):
    active = make_game(status=Game.Status.ACTIVE, result="")
    waiting = make_game(status=Game.Status.WAITING, result="")
    finished = make_game()
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(CHANGELIST, {
            "action": "abort_games", "_selected_action": [active.pk, waiting.pk, finished.pk]}, follow=True)
    assert response.status_code == 200
    assert "Aborted 2 game(s). 1 already over" in response.content.decode()
    for game in (active, waiting, finished):
        game.refresh_from_db()
    assert active.status == waiting.status == Game.Status.ABORTED
    assert active.ending == Game.Ending.ABORTED and "boss" in active.note
    assert (finished.status, finished.result) == (Game.Status.FINISHED, "winner: upper")
    assert sorted(told) == sorted([active.pk, waiting.pk])


def test_abort_button_on_game_page(staff_client, told, django_capture_on_commit_callbacks):
    game = make_game(status=Game.Status.ACTIVE, result="")
    html = staff_client.get(change_url(game)).content.decode()
    abort_url = reverse("admin:games_game_abort", args=[game.pk])
    assert f'action="{abort_url}"' in html
    assert staff_client.get(abort_url).status_code == 405
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(abort_url)
    assert response.status_code == 302 and response["Location"] == change_url(game)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and told == [game.pk]
    assert f'action="{abort_url}"' not in staff_client.get(change_url(game)).content.decode()


def test_export_logs_zip(staff_client):
    played, _ = play_realistic_game()
    Game.objects.filter(pk=played.pk).update(status=Game.Status.FINISHED, result="winner: upper")
    empty = make_game(status=Game.Status.ACTIVE, result="")
    response = staff_client.post(CHANGELIST, {"action": "export_logs", "_selected_action": [played.pk, empty.pk]})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith("attachment;")
    with zipfile.ZipFile(io.BytesIO(response.content)) as zf:
        assert sorted(zf.namelist()) == sorted([f"{played.pk}.txt", f"{empty.pk}.txt"])
        text = zf.read(f"{played.pk}.txt").decode()
    played.refresh_from_db()
    assert text == gamelog.log_text(played)
    assert "THROW symbol r to (4, -4)" in text and "winner: upper" in text


def test_requeue_bot_moves(staff_client, monkeypatch):
    scheduled = []
    monkeypatch.setattr(botrunner, "schedule_bots", scheduled.append)
    stuck = make_game(lower="bot:greedy", status=Game.Status.ACTIVE, result="", turns=5)
    humans = make_game(status=Game.Status.ACTIVE, result="")
    over = make_game(lower="bot:greedy")
    key, other = (stuck.pk, "lower", 6), ("someothergame", "lower", 1)
    botrunner._inflight.update({key, other})
    try:
        response = staff_client.post(CHANGELIST, {
            "action": "requeue_bot_moves", "_selected_action": [stuck.pk, humans.pk, over.pk]}, follow=True)
        assert "Re-queued bot moves of 1 active game(s)" in response.content.decode()
        assert scheduled == [stuck.pk]
        assert key not in botrunner._inflight and other in botrunner._inflight
        # The same from the game's page.
        botrunner._inflight.add(key)
        url = reverse("admin:games_game_requeue", args=[stuck.pk])
        assert f'action="{url}"' in staff_client.get(change_url(stuck)).content.decode()
        response = staff_client.post(url, follow=True)
        assert "forgot 1 in-flight move(s)" in response.content.decode()
        assert scheduled == [stuck.pk, stuck.pk] and key not in botrunner._inflight
        assert "Re-queue bot moves" not in staff_client.get(change_url(humans)).content.decode()
    finally:
        botrunner._inflight.discard(key)
        botrunner._inflight.discard(other)


# --- dashboard ------------------------------------------------------------------------------------------

def test_dashboard(staff_client):
    make_game(status=Game.Status.ACTIVE, result="")
    make_game(status=Game.Status.WAITING, result="")
    make_game(status=Game.Status.WAITING, result="", created=timezone.now() - timedelta(days=2))
    make_game(upper="bot:greedy", result="winner: upper")                      # greedy wins
    make_game(upper="bot:greedy", result="winner: lower")                      # greedy loses
    make_game(lower="bot:greedy", result="draw: no remaining tokens or throws")  # greedy draws
    make_game(upper="bot:random", lower="bot:strong", result="winner: lower")  # strong beats random
    make_game(upper="bot:random", status=Game.Status.ABORTED, result="")       # not counted
    make_game(created=timezone.now() - timedelta(days=30))                     # outside the 14 days
    stats = dashboard_stats()
    assert (stats["live_active"], stats["live_waiting"]) == (1, 2)
    rows = {r["bot_level"]: (r["games"], r["wins"], r["draws"], r["losses"]) for r in stats["bot_rows"]}
    assert rows == {"random": (1, 0, 0, 1), "greedy": (3, 1, 1, 1), "strong": (1, 1, 0, 0)}
    assert len(stats["per_day"]) == 14 and stats["per_day_total"] == 8
    assert stats["per_day"][-1]["n"] == 7 and stats["per_day"][-3]["n"] == 1

    with CaptureQueriesContext(connection) as ctx:
        response = staff_client.get(DASHBOARD)
    assert response.status_code == 200
    assert len(ctx.captured_queries) <= 8  # session, user, then one aggregate query per panel
    html = response.content.decode()
    assert 'id="live-active">1<' in html and 'id="live-waiting">2<' in html
    assert 'data-level="greedy"' in html
    # Linked from the admin index and from the games list.
    assert DASHBOARD in staff_client.get("/admin/").content.decode()
    assert DASHBOARD in staff_client.get(CHANGELIST).content.decode()


def test_dashboard_lists_stuck_bot_games(staff_client):
    stuck = make_game(lower="bot:strong", status=Game.Status.ACTIVE, result="")
    acted = make_game(lower="bot:strong", status=Game.Status.ACTIVE, result="")
    PendingAction.objects.create(game=acted, side="lower", turn=1, action=["THROW", "r", [-4, 0]])
    fresh = make_game(lower="bot:strong", status=Game.Status.ACTIVE, result="")
    Game.objects.filter(pk__in=[stuck.pk, acted.pk]).update(updated=timezone.now() - timedelta(minutes=10))
    stuck_ids = [g.pk for g in dashboard_stats()["stuck"]]
    assert stuck_ids == [stuck.pk] and fresh.pk not in stuck_ids
    assert change_url(stuck) in staff_client.get(DASHBOARD).content.decode()


# --- permissions ----------------------------------------------------------------------------------------

def admin_urls(game):
    return [CHANGELIST, change_url(game), DASHBOARD, "/admin/",
            reverse("admin:games_game_history", args=[game.pk])]


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_non_staff_get_nothing(client, django_user_model, told, django_capture_on_commit_callbacks, who):
    game = make_game(names=("secretname", ""), status=Game.Status.ACTIVE, result="")
    if who == "player":
        client.force_login(django_user_model.objects.create_user("player", password="pw-for-tests-1"))
    for url in admin_urls(game):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
    with django_capture_on_commit_callbacks(execute=True):
        for url, data in [(CHANGELIST, {"action": "abort_games", "_selected_action": [game.pk]}),
                          (reverse("admin:games_game_abort", args=[game.pk]), {}),
                          (reverse("admin:games_game_requeue", args=[game.pk]), {}),
                          (CHANGELIST, {"action": "export_logs", "_selected_action": [game.pk]})]:
            response = client.post(url, data)
            assert response.status_code == 302 and "/admin/login/" in response["Location"], url
            assert b"secretname" not in response.content
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and told == []


def test_staff_without_permissions_get_nothing(client, django_user_model):
    game = make_game(status=Game.Status.ACTIVE, result="")
    user = django_user_model.objects.create_user("helper", password="pw-for-tests-1", is_staff=True)
    client.force_login(user)
    assert client.get(CHANGELIST).status_code == 403
    assert client.get(change_url(game)).status_code == 403
    assert client.get(DASHBOARD).status_code == 403
    assert client.post(reverse("admin:games_game_abort", args=[game.pk])).status_code == 403
    assert "Games dashboard" not in client.get("/admin/").content.decode()


def test_view_only_staff_can_look_but_not_act(client, django_user_model, told, django_capture_on_commit_callbacks):
    game, _ = play_realistic_game()
    user = django_user_model.objects.create_user("viewer", password="pw-for-tests-1", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_game"))
    client.force_login(user)
    response = client.get(CHANGELIST)
    assert response.status_code == 200 and game.pk in listed_ids(response)
    actions = [name for name, _ in response.context["action_form"].fields["action"].choices]
    assert "export_logs" in actions and "abort_games" not in actions and "requeue_bot_moves" not in actions
    html = client.get(change_url(game)).content.decode()
    assert "SLIDE from (4, -4) to (3, -4)" in html  # the log, without Turn permissions
    assert "Abort game" not in html
    assert client.get(DASHBOARD).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(reverse("admin:games_game_abort", args=[game.pk])).status_code == 403
        client.post(CHANGELIST, {"action": "abort_games", "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and told == []


def test_makefile_tells_how_to_create_the_first_admin():
    from pathlib import Path
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    assert "manage.py createsuperuser" in makefile
    assert "DJANGO_SUPERUSER_USERNAME" in makefile and "DJANGO_SUPERUSER_PASSWORD" in makefile
    assert "--noinput" in makefile


def test_the_admin_login_has_the_sites_name_and_favicon(client):
    html = client.get("/admin/login/").content.decode()
    assert re.search(r"<title>[^<]*ropasci admin</title>", html) and ">ropasci admin</a>" in html
    assert re.search(r'<link rel="icon" href="/static/img/favicon[^"]*\.svg"', html)
    assert "Django administration" not in html
