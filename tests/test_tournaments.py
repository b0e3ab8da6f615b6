"""Tournaments: pairings and standings (pure), creating one (who may, what is refused), a round robin of
server bots played to the end in this process (bot moves through the real bots and services, the tournament
advanced by its receiver of ``game_changed``), a Swiss with a bye and an account's seat, the pages and the
CSV export."""
import csv
import io
import itertools
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import IntegrityError, transaction

from games.play import seatsession, services as game_services
from games.bots import levels_for
from games.bots.play import choose_action
from games.engine import load_game, registered_names
from games.models import Game, Seat
from tournaments import pairing, services, views
from tournaments.models import Pairing, Tournament, TournamentGame

BASE_DIR = Path(__file__).resolve().parent.parent


# --- pairing.py: pure -----------------------------------------------------------------------------------

def test_pairing_module_does_not_import_django():
    check = ("import sys, tournaments.pairing; bad = [m for m in sys.modules if m == 'django' or "
             "m.startswith('django.')]; print(bad); sys.exit(1 if bad else 0)")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run([sys.executable, "-c", check], cwd=BASE_DIR, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("n", range(2, 10))
def test_round_robin_meets_every_pair_once(n):
    keys = [f"e{i}" for i in range(n)]
    rounds = pairing.round_robin(keys)
    assert len(rounds) == pairing.round_robin_rounds(n) == (n - 1 if n % 2 == 0 else n)
    met = []
    for pairs in rounds:
        seen = [k for p in pairs for k in p if k is not None]
        assert sorted(seen) == sorted(keys)  # everyone once a round (one sits out when odd)
        assert sum(b is None for _, b in pairs) == n % 2
        met += [frozenset(p) for p in pairs if p[1] is not None]
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, itertools.combinations(keys, 2))))
    firsts = {k: sum(a == k for pairs in rounds for a, b in pairs if b is not None) for k in keys}
    assert max(firsts.values()) - min(firsts.values()) <= 1  # the first seat is shared out evenly


def test_swiss_first_round_pairs_top_half_against_bottom_half():
    keys = list("ABCDEFGH")
    plan = pairing.swiss_round(keys, {k: 0 for k in keys})
    assert plan.pairs == [("A", "E"), ("B", "F"), ("C", "G"), ("D", "H")] and plan.bye is None and plan.repeats == 0


def test_swiss_pairs_within_score_groups_and_floats_the_odd_one_down():
    # After round 1: A, B, C winners (1), D drew (0.5), E, F, G losers (0), H drew (0.5).
    scores = {"A": 1, "B": 1, "C": 1, "D": 0.5, "H": 0.5, "E": 0, "F": 0, "G": 0}
    ranked = ["A", "B", "C", "D", "H", "E", "F", "G"]
    met = {frozenset(p) for p in [("A", "E"), ("B", "F"), ("C", "G"), ("D", "H")]}
    plan = pairing.swiss_round(ranked, scores, met)
    pairs = {frozenset(p) for p in plan.pairs}
    # The top group (A, B, C) is odd: A meets B, C floats down to meet a ½; the other ½ (H, who met D)
    # floats down to the top of the 0 group; the rest of that group meet each other.
    assert pairs == {frozenset("AB"), frozenset("CD"), frozenset("HE"), frozenset("FG")}
    assert not pairs & met and plan.repeats == 0
    assert sorted(k for p in plan.pairs for k in p) == sorted(ranked)


def test_swiss_never_repeats_and_gives_each_bye_once():
    rng = random.Random(7)
    keys = list("ABCDEFG")  # odd: a bye every round
    met, byes, firsts = set(), [], {}
    score = {k: 0.0 for k in keys}
    for _ in range(5):
        ranked = sorted(keys, key=lambda k: (-score[k], keys.index(k)))
        plan = pairing.swiss_round(ranked, score, met, byes, firsts)
        assert plan.repeats == 0
        assert plan.bye is not None and plan.bye not in byes
        # The bye goes to the lowest ranked entrant who has not had one.
        assert plan.bye == [k for k in reversed(ranked) if k not in byes][0]
        byes.append(plan.bye)
        score[plan.bye] += 1
        for a, b in plan.pairs:
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            firsts[a] = firsts.get(a, 0) + 1
            result = rng.choice((1.0, 0.5, 0.0))
            score[a] += result
            score[b] += 1 - result
    assert len(set(byes)) == 5
    assert max(firsts.values()) - min(firsts.get(k, 0) for k in keys) <= 2


def test_swiss_when_every_pair_has_met_it_repeats_as_few_as_it_must():
    keys = list("ABCD")
    met = {frozenset(p) for p in itertools.combinations(keys, 2)}
    plan = pairing.swiss_round(keys, {k: 0 for k in keys}, met)
    assert plan.repeats == 2 and sorted(k for p in plan.pairs for k in p) == keys
    # Six entrants after three rounds that leave two triangles: no round without a repeat exists.
    keys = list("ABCDEF")
    played = [("A", "D"), ("B", "E"), ("C", "F"), ("A", "E"), ("B", "F"), ("C", "D"), ("A", "F"), ("B", "D"), ("C", "E")]
    plan = pairing.swiss_round(keys, {k: 0 for k in keys}, {frozenset(p) for p in played})
    assert plan.repeats >= 1 and sorted(k for p in plan.pairs for k in p) == keys


def test_standings_round_robin_tiebreaks():
    R = pairing.GameResult
    # A beats B, B beats C, C beats A, D loses to all: A, B, C on 2; SB equal (each beat someone on 2 and
    # lost to someone on 2, plus D on 0); head-to-head among them one win each: seed order decides, shared rank.
    games = [R(1, "A", "B", 1), R(1, "C", "D", 1), R(2, "B", "C", 1), R(2, "A", "D", 1), R(3, "C", "A", 1),
             R(3, "B", "D", 1)]
    rows = pairing.standings(list("ABCD"), games, fmt=pairing.ROUND_ROBIN)
    assert [(r.key, r.rank, r.score, r.tiebreaks) for r in rows] == [
        ("A", 1, 2.0, (2.0, 1)), ("B", 1, 2.0, (2.0, 1)), ("C", 1, 2.0, (2.0, 1)), ("D", 4, 0.0, (0.0, 0))]
    # A draw changes it: A and B draw instead, C beats both: C 3; A, B 1.5 each + D.
    games = [R(1, "A", "B", 0.5), R(1, "C", "D", 1), R(2, "B", "C", 0), R(2, "A", "D", 1), R(3, "C", "A", 1),
             R(3, "B", "D", 0.5)]
    rows = {r.key: r for r in pairing.standings(list("ABCD"), games, fmt=pairing.ROUND_ROBIN)}
    assert rows["C"].rank == 1 and rows["C"].score == 3
    assert (rows["A"].score, rows["B"].score, rows["D"].score) == (1.5, 1.0, 0.5)
    # SB: A drew B (½·1) and beat D (1·½) = 1; B drew A (½·1.5) and drew D (½·½) = 1.
    assert rows["A"].tiebreaks[0] == 1.0 and rows["B"].tiebreaks[0] == 1.0
    assert (rows["A"].wins, rows["A"].draws, rows["A"].losses, rows["A"].played) == (1, 1, 1, 3)


def test_standings_head_to_head_breaks_a_tie_that_sb_does_not():
    R = pairing.GameResult
    # Two games per pairing: A beats B twice, C beats A twice, B beats C twice: A, B, C on 2 each, equal
    # SB (2·2) and equal head-to-head wins (2): one shared rank.
    games = [R(1, "A", "B", 1), R(1, "B", "A", 0), R(2, "C", "A", 1), R(2, "A", "C", 0), R(3, "B", "C", 1),
             R(3, "C", "B", 0)]
    rows = pairing.standings(list("ABC"), games, fmt=pairing.ROUND_ROBIN)
    assert {r.key: r.tiebreaks for r in rows} == {"A": (4.0, 2), "B": (4.0, 2), "C": (4.0, 2)}
    assert {r.rank for r in rows} == {1}
    # B draws its second game against A instead: B 2.5 alone on top, A 1.5 last.
    games[1] = R(1, "B", "A", 0.5)
    rows = pairing.standings(list("ABC"), games, fmt=pairing.ROUND_ROBIN)
    assert [(r.key, r.rank, r.score) for r in rows] == [("B", 1, 2.5), ("C", 2, 2.0), ("A", 3, 1.5)]
    # Equal score (1½) and SB (2) but E beat F: E ranks above F although F is seeded first.
    games = [R(1, "E", "F", 1), R(2, "E", "G", 0.5), R(3, "E", "H", 0), R(3, "F", "G", 1), R(2, "F", "H", 0.5),
             R(1, "G", "H", 0.5)]
    rows = pairing.standings(list("FEGH"), games, fmt=pairing.ROUND_ROBIN)
    assert [(r.key, r.rank, r.score, r.tiebreaks) for r in rows] == [
        ("H", 1, 2.0, (2.75, 0)), ("E", 2, 1.5, (2.0, 1)), ("F", 3, 1.5, (2.0, 0)), ("G", 4, 1.0, (1.75, 0))]


def test_standings_swiss_buchholz_and_byes():
    R = pairing.GameResult
    games = [R(1, "A", "B", 1), R(2, "A", "C", 0.5), R(2, "B", "D", 1)]
    rows = {r.key: r for r in pairing.standings(list("ABCD"), games, byes=[("C", 1.0), ("D", 1.0)], fmt=pairing.SWISS)}
    assert rows["A"].score == 1.5 and rows["C"].score == 1.5 and rows["C"].byes == 1 and rows["C"].played == 1
    # Buchholz: A met B (1) and C (1.5) = 2.5; C met A only (the bye counts nothing) = 1.5.
    assert rows["A"].tiebreaks == (2.5, 1 * 1 + 0.5 * 1.5) and rows["C"].tiebreaks[0] == 1.5
    assert rows["A"].rank == 1 and rows["C"].rank == 2


# --- creating: who may, what is refused -----------------------------------------------------------------

@pytest.fixture
def ann(django_user_model):
    return django_user_model.objects.create_user("ann", password="pw-ann-123")


def form(**over):
    data = {"name": "Week 5", "game": "tic_tac_toe", "format": "round_robin", "games_per_pairing": "2",
            "turn_seconds": "", "bot_seconds": "0.5", "bots": ["random", "greedy", "strong"], "usernames": ""}
    data.update(over)
    return data


@pytest.mark.django_db
def test_anonymous_cannot_create(client):
    page = client.get("/tournaments")
    assert page.status_code == 200 and b"Log in</a> to create a tournament" in page.content
    response = client.post("/tournaments", form())
    assert response.status_code == 403 and "Log in to create a tournament." in response.content.decode()
    assert not Tournament.objects.exists() and not Game.objects.exists()
    with pytest.raises(services.Forbidden):
        services.create_tournament(name="x", kind="tic_tac_toe", bots=["random", "greedy"])


def _two_seat_kind_missing_a_level():
    for name in registered_names():
        eg = load_game(name)
        if len(eg.info.players) == 2 and "perfect" not in levels_for(eg):
            return name
    pytest.skip("every two-seat game has every level")


@pytest.mark.django_db
@pytest.mark.parametrize("over, message", [
    ({"name": ""}, "This field is required."),
    ({"game": "nope"}, "Select a valid choice."),
    ({"bots": ["random"]}, "a tournament needs from 2 to 32 entrants"),
    ({"usernames": "nobody, ann"}, "no account named &#x27;nobody&#x27;"),
    ({"usernames": "ann ann"}, "listed twice: ann"),
    ({"games_per_pairing": "0"}, "Ensure this value is greater than or equal to 1."),
    ({"games_per_pairing": "11"}, "Ensure this value is less than or equal to 10."),
    ({"format": "swiss", "rounds": "3"}, "rounds (with 3 entrants) must be a whole number from 1 to 2"),
    ({"format": "knockout"}, "Select a valid choice."),
    ({"turn_seconds": "7"}, "Select a valid choice."),
    ({"bots": ["random", "best"]}, "Select a valid choice."),
])
def test_bad_input_is_refused_with_a_message(client, ann, over, message):
    client.force_login(ann)
    response = client.post("/tournaments", form(**over))
    assert response.status_code == 400, response.content[:300]
    assert message in response.content.decode()
    assert not Tournament.objects.exists() and not Game.objects.exists()


@pytest.mark.django_db
def test_a_level_the_game_lacks_and_a_game_with_other_than_two_seats_are_refused(client, ann):
    client.force_login(ann)
    kind = _two_seat_kind_missing_a_level()
    response = client.post("/tournaments", form(game=kind, bots=["random", "perfect"]))
    assert response.status_code == 400 and "has no &#x27;perfect&#x27; bot" in response.content.decode()
    three = next(n for n in registered_names() if len(load_game(n).info.players) == 3)
    with pytest.raises(services.BadRequest, match="tournaments are for two-seat games"):
        services.create_tournament(name="x", kind=three, bots=["random"], usernames=["ann"], user=ann)
    assert three not in dict(services.two_seat_kinds())
    with pytest.raises(services.BadRequest, match="at most 1000"):
        _too_many_games(ann)
    assert not Tournament.objects.exists() and not Game.objects.exists()


def _too_many_games(user):
    User = get_user_model()
    names = [f"p{i}" for i in range(30)]
    User.objects.bulk_create([User(username=n) for n in names])
    services.create_tournament(name="big", kind="tic_tac_toe", usernames=names, bots=["random"], games_per_pairing=5,
                               user=user)


# --- a round robin of server bots, played to the end in this process ------------------------------------

def drive(tournament, tokens=None, limit=3000):
    """Play every active game of the tournament to its end: bot seats by the real bots (in this process, as a
    server's worker pool would), account seats by a random bot through the account's seat token. Returns the
    number of moves played."""
    tokens = tokens if tokens is not None else {}
    moves = 0
    while moves < limit:
        game = (Game.objects.filter(tournament_game__pairing__tournament=tournament, status=Game.Status.ACTIVE)
                .order_by("created").first())
        if game is None:
            return moves
        side = game.to_act[0]
        seat = game.seats.get(side=side)
        turns = list(game.turns.order_by("number").values_list("actions", flat=True))
        level = seat.bot_level if seat.kind == Seat.Kind.BOT else "random"
        action = choose_action(game.kind, turns, side, level, seconds=0.05, seed=moves, params=game.params)
        if seat.kind == Seat.Kind.BOT:
            game_services.submit_bot_action(game.id, side, game.turn + 1, action)
        else:
            if (game.id, side) not in tokens:
                _, got_side, token = services.take_seat(tournament.pk, game.id, seat.user)
                tokens[(game.id, got_side)] = token
            game_services.submit_action(game.id, tokens[(game.id, side)], game.turn + 1, action)
        moves += 1
    raise AssertionError("the tournament did not end")


def independent_scores(tournament):
    """Each entrant's score from the seats of the tournament's games (Seat.score: the game's returns), and
    the games each pair played, computed without the tournament's own code."""
    score, played, meetings = {}, {}, {}
    for game in Game.objects.filter(tournament_game__pairing__tournament=tournament).prefetch_related("seats"):
        assert game.status == Game.Status.FINISHED
        seats = list(game.seats.all())
        names = [s.bot_level and f"bot ({s.bot_level})" or s.user.username for s in seats]
        for seat, name in zip(seats, names):
            score[name] = score.get(name, 0) + seat.score
            played[name] = played.get(name, 0) + 1
        meetings.setdefault(frozenset(names), []).append({s.side: n for s, n in zip(seats, names)})
    return score, played, meetings


@pytest.mark.django_db(transaction=True)
def test_round_robin_of_three_bots_runs_to_the_end_with_the_right_standings(client, ann):
    client.force_login(ann)
    response = client.post("/tournaments", form())
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.pk}"
    assert t.status == "running" and t.rounds == 3 and t.created_by == ann
    assert [e.name for e in t.entrants.all()] == ["bot (random)", "bot (greedy)", "bot (strong)"]
    # Round 1 pairs two of the three; its first game started at once; the third sits out.
    assert TournamentGame.objects.count() == 1 and Game.objects.get().status == "active"
    assert Pairing.objects.filter(second=None).count() == 3

    moves = drive(t)
    t.refresh_from_db()
    assert t.status == "finished" and t.finished is not None and moves > 0
    assert TournamentGame.objects.count() == Game.objects.count() == 6

    score, played, meetings = independent_scores(t)
    assert played == {"bot (random)": 4, "bot (greedy)": 4, "bot (strong)": 4}
    assert sum(score.values()) == 6
    assert len(meetings) == 3
    for games in meetings.values():  # each pair played twice, swapping seats
        assert len(games) == 2 and games[0]["x"] == games[1]["o"] and games[0]["o"] == games[1]["x"]

    table = services.table(t)
    assert {r["entrant"].name: r["score"] for r in table.rows} == score
    assert [r["score"] for r in table.rows] == sorted(score.values(), reverse=True)
    for r in table.rows:
        assert r["played"] == 4 and r["wins"] + r["draws"] / 2 == r["score"]
        # Sonneborn-Berger computed here from the games: opponents' scores weighted by the points won.
        sb = 0.0
        for game in Game.objects.filter(tournament_game__pairing__tournament=t).prefetch_related("seats"):
            seats = {s.side: s for s in game.seats.all()}
            mine = [s for s in seats.values() if s.bot_level == r["entrant"].bot_level]
            if mine:
                other = next(s for s in seats.values() if s is not mine[0])
                sb += mine[0].score * score[f"bot ({other.bot_level})"]
        assert r["tiebreaks"][0] == sb
    # Ranks follow score, then tie-breaks.
    ordered = [(r["score"], *r["tiebreaks"]) for r in table.rows]
    assert ordered == sorted(ordered, reverse=True)

    # Nothing more to do, ever: advancing again creates nothing.
    assert services.advance(t.pk) == [] and Game.objects.count() == 6

    # The page: standings, links to every game, no more polling; the CSV says the same.
    page = client.get(f"/tournaments/{t.pk}").content.decode()
    for game in Game.objects.all():
        assert f'href="/games/{game.id}"' in page
    assert "Final standings" in page or "final standings" in page
    live = client.get(f"/tournaments/{t.pk}/live").content.decode()
    assert 'id="tournament-live"' in live and "hx-trigger" not in live and 'hx-swap-oob="true"' in live
    rows = list(csv.DictReader(io.StringIO(client.get(f"/tournaments/{t.pk}/results.csv").content.decode())))
    assert [r["entrant"] for r in rows] == [r["entrant"].name for r in table.rows]
    assert {r["entrant"]: float(r["score"]) for r in rows} == score
    assert all(int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == 4 for r in rows)


@pytest.mark.django_db(transaction=True)
def test_swiss_with_an_account_and_a_bye(client, ann, django_user_model):
    bob = django_user_model.objects.create_user("bob", password="pw-bob-123")
    t = services.create_tournament(name="Swiss", kind="tic_tac_toe", format="swiss", usernames=["ann"],
                                   bots=["random", "greedy", "strong", "perfect"], games_per_pairing=1, user=bob)
    assert t.status == "open" and not Pairing.objects.exists() and not Game.objects.exists()  # Ann is invited
    client.force_login(ann)
    assert f'action="/tournaments/{t.pk}/accept"' in client.get("/tournaments").content.decode()
    assert client.post(f"/tournaments/{t.pk}/accept").status_code == 302
    t.refresh_from_db()
    assert t.status == "running" and t.rounds == 3  # ceil(log2(5))
    assert set(Pairing.objects.values_list("round", flat=True)) == {1}  # round 2 waits for round 1's results
    first = list(Pairing.objects.filter(round=1))
    assert len(first) == 3 and [p.second for p in first].count(None) == 1
    assert first[-1].second is None and first[-1].first.name == "bot (perfect)"  # the lowest seed's bye
    ann_game = Game.objects.get(seats__user=ann)
    seat = ann_game.seats.get(user=ann)
    assert ann_game.status == "active" and seat.display_name == "ann" and seat.is_claimed

    # Ann opens her game from the tournament page: the seat goes into her session; bob cannot take it.
    client.force_login(bob)
    page = client.get(f"/tournaments/{t.pk}").content.decode()
    assert f"/tournaments/{t.pk}/games/{ann_game.id}/play" not in page
    response = client.post(f"/tournaments/{t.pk}/games/{ann_game.id}/play")
    assert response.status_code == 302 and seatsession.recall(client.session, ann_game.id) is None
    response = client.post(f"/tournaments/{t.pk}/games/{ann_game.id}/play", HTTP_ACCEPT="application/json")
    assert response.status_code == 403 and response.json() == {"error": "you have no seat in this game"}
    client.force_login(ann)
    page = client.get(f"/tournaments/{t.pk}").content.decode()
    assert f"/tournaments/{t.pk}/games/{ann_game.id}/play" in page
    response = client.post(f"/tournaments/{t.pk}/games/{ann_game.id}/play")
    assert response.status_code == 302 and response["Location"] == f"/games/{ann_game.id}"
    assert seatsession.recall(client.session, ann_game.id)[0] == seat.side
    assert "Your move" in client.get(f"/games/{ann_game.id}").content.decode() or ann_game.to_act != [seat.side]
    # A bot account's program asks for its token as JSON; the old one (in the session) stops working.
    response = client.post(f"/tournaments/{t.pk}/games/{ann_game.id}/play", HTTP_ACCEPT="application/json")
    body = response.json()
    assert response.status_code == 200 and body["side"] == seat.side and body["api"] == f"/api/games/{ann_game.id}"
    token = body["token"]
    assert client.post(f"/tournaments/{t.pk}/games/nope/play").status_code == 404
    other = game_services.create_game("tic_tac_toe", {"x": "human", "o": "human"}).game
    assert client.post(f"/tournaments/{t.pk}/games/{other.id}/play").status_code == 404

    drive(t, tokens={(ann_game.id, seat.side): token})
    t.refresh_from_db()
    assert t.status == "finished"
    pairings = list(Pairing.objects.filter(tournament=t))
    assert max(p.round for p in pairings) == 3
    met = [frozenset((p.first_id, p.second_id)) for p in pairings if p.second_id]
    assert len(met) == len(set(met)) == 6  # two games a round, never the same pair twice
    byes = [p.first_id for p in pairings if p.second_id is None]
    assert len(byes) == len(set(byes)) == 3
    table = services.table(t)
    score, played, _ = independent_scores(t)
    by_name = {r["entrant"].name: r for r in table.rows}
    for name, row in by_name.items():
        assert row["score"] == score.get(name, 0) + row["byes"] and row["played"] == played.get(name, 0)
    # Buchholz from the pairings: the sum of the scores of the opponents met.
    entrants = {e.pk: e.name for e in t.entrants.all()}
    for e_id, name in entrants.items():
        opponents = [p.second_id if p.first_id == e_id else p.first_id for p in pairings
                     if p.second_id and e_id in (p.first_id, p.second_id)]
        assert by_name[name]["tiebreaks"][0] == sum(by_name[entrants[o]]["score"] for o in opponents)
    # A game over: the play link redirects to the game to watch it.
    response = client.post(f"/tournaments/{t.pk}/games/{ann_game.id}/play")
    assert response.status_code == 302 and response["Location"] == f"/games/{ann_game.id}"


@pytest.mark.django_db
def test_games_are_created_once_and_an_aborted_game_scores_nothing(ann, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        t = services.create_tournament(name="RR", kind="tic_tac_toe", bots=["random", "greedy"], games_per_pairing=2,
                                       user=ann)
    tg = TournamentGame.objects.get()
    assert services.advance(t.pk) == [] and TournamentGame.objects.count() == 1  # game 2 waits for game 1
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentGame.objects.create(pairing=tg.pairing, number=1, first_side="x")
    with django_capture_on_commit_callbacks(execute=True):
        game_services.abort(tg.game.id)  # its receiver starts game 2
    assert TournamentGame.objects.count() == 2
    second = TournamentGame.objects.get(number=2)
    assert second.first_side == "o"  # seats swapped
    table = services.table(t)
    assert all(r["played"] == 0 and r["score"] == 0 for r in table.rows)
    assert table.over == 1 and table.planned == 2
    out = io.StringIO()
    call_command("tournament", "advance", str(t.pk), stdout=out)
    assert "0 game(s) created, running" in out.getvalue()
    with django_capture_on_commit_callbacks(execute=True):
        game_services.abort(second.game.id)
    t.refresh_from_db()
    assert t.status == "finished"
    rows = list(csv.reader(io.StringIO(_csv(t))))
    assert rows[0] == ["rank", "entrant", "type", "score", "Sonneborn-Berger", "Head-to-head wins", "played", "wins",
                       "draws", "losses", "byes"]
    assert rows[1:] == [["1", "bot (random)", "bot", "0", "0", "0", "0", "0", "0", "0", "0"],
                        ["1", "bot (greedy)", "bot", "0", "0", "0", "0", "0", "0", "0", "0"]]


def _csv(t):
    from django.test import Client
    response = Client().get(f"/tournaments/{t.pk}/results.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert f'filename="tournament-{t.pk}.csv"' in response["Content-Disposition"]
    return response.content.decode()


@pytest.mark.django_db
def test_pages(client, ann):
    t = services.create_tournament(name="Week <5>", kind="tic_tac_toe", bots=["random", "greedy"], usernames=["ann"],
                                   user=ann)
    listing = client.get("/tournaments").content.decode()
    assert "Week &lt;5&gt;" in listing and f'href="/tournaments/{t.pk}"' in listing
    page = client.get(f"/tournaments/{t.pk}")
    html = page.content.decode()
    assert page.status_code == 200 and f'hx-trigger="{views.POLL}"' in html
    assert "Sonneborn-Berger" in html and "Head-to-head wins" in html and "Round 1" in html
    game = Game.objects.get()
    assert f'href="/games/{game.id}"' in html
    assert client.get("/tournaments/999999").status_code == 404
    assert client.get("/tournaments/999999/results.csv").status_code == 404
    assert client.get("/tournaments/999999/live").status_code == 404
    assert client.post(f"/tournaments/{t.pk}/live").status_code == 405
    # The account sees the game in its list of games.
    client.force_login(ann)
    assert game.id in client.get("/").content.decode()


def test_csv_cells_never_start_a_formula():
    from tournaments.views import _cell
    assert _cell("=SUM(A1)") == "'=SUM(A1)" and _cell("+x") == "'+x" and _cell("ann") == "ann"


@pytest.mark.django_db
def test_admin_pages_and_advance_action(client, django_user_model, ann):
    staff = django_user_model.objects.create_superuser("boss", password="pw-boss-123")
    t = services.create_tournament(name="RR", kind="tic_tac_toe", bots=["random", "greedy"], usernames=["ann"],
                                   user=ann)
    client.force_login(staff)
    for url in ("/admin/tournaments/tournament/", f"/admin/tournaments/tournament/{t.pk}/change/",
                "/admin/tournaments/tournamentgame/", "/admin/tournaments/pairing/",
                f"/admin/tournaments/tournamentgame/{TournamentGame.objects.first().pk}/change/"):
        response = client.get(url)
        assert response.status_code == 200, url
    response = client.post("/admin/tournaments/tournament/", {"action": "advance_now", "_selected_action": [t.pk]},
                           follow=True)
    assert response.status_code == 200 and "0 games created." in response.content.decode()


# --- entering by accepting, and the rate of creation ----------------------------------------------------

@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", password="pw-bob-123")


@pytest.fixture
def cat(django_user_model):
    return django_user_model.objects.create_user("cat", password="pw-cat-123")


@pytest.mark.django_db(transaction=True)
def test_an_account_listed_by_another_is_invited_and_only_accepted_entrants_are_paired(client, ann, bob, cat):
    client.force_login(ann)
    response = client.post("/tournaments", form(usernames="ann, bob, cat", bots=["random"], games_per_pairing="1"))
    t = Tournament.objects.get()
    assert response.status_code == 302 and t.status == "open"
    assert "starts once the accounts you invited have answered" in client.get(response["Location"]).content.decode()
    assert not Game.objects.exists() and not Pairing.objects.exists()  # nobody is entered for anyone
    assert dict(t.entrants.values_list("name", "status")) == {"ann": "accepted", "bob": "invited", "cat": "invited",
                                                              "bot (random)": "accepted"}
    # Bob finds the invitation on the list and accepts it there; the tournament still waits for Cat.
    client.force_login(bob)
    assert f'action="/tournaments/{t.pk}/accept"' in client.get("/tournaments").content.decode()
    response = client.post(f"/tournaments/{t.pk}/accept", follow=True)
    assert "You have entered the tournament." in response.content.decode()
    t.refresh_from_db()
    assert t.status == "open" and not Game.objects.exists()
    again = client.post(f"/tournaments/{t.pk}/accept", HTTP_ACCEPT="application/json")
    assert again.status_code == 409 and "already answered" in again.json()["error"]
    # Cat declines from the tournament page: the last answer starts it, without her.
    client.force_login(cat)
    page = client.get(f"/tournaments/{t.pk}").content.decode()
    assert "You are invited to play in this tournament." in page and f'/tournaments/{t.pk}/decline' in page
    client.post(f"/tournaments/{t.pk}/decline")
    t.refresh_from_db()
    assert t.status == "running" and t.rounds == 3  # a round robin of three: one sits out each round
    paired = {e for p in Pairing.objects.all() for e in (p.first.name, p.second and p.second.name) if e}
    assert paired == {"ann", "bob", "bot (random)"}
    assert not Seat.objects.filter(user=cat).exists() and Seat.objects.filter(user=bob).exists()
    assert [r["entrant"].name for r in services.table(t).rows] and \
        {r["entrant"].name for r in services.table(t).rows} == paired
    # Someone not invited cannot answer; a program gets JSON.
    response = client.post(f"/tournaments/{t.pk}/accept", HTTP_ACCEPT="application/json")
    assert response.status_code == 409 and response.json() == {"error": "the tournament is no longer waiting for "
                                                                         "entrants"}
    client.logout()
    response = client.post(f"/tournaments/{t.pk}/accept", HTTP_ACCEPT="application/json")
    assert response.status_code == 403 and response.json() == {"error": "you are not invited to this tournament"}


@pytest.mark.django_db(transaction=True)
def test_the_creator_can_start_without_waiting_and_a_tournament_nobody_accepts_is_cancelled(client, ann, bob, cat):
    client.force_login(ann)
    client.post("/tournaments", form(name="Now", usernames="ann, bob", bots=["random"], games_per_pairing="1"))
    t = Tournament.objects.get(name="Now")
    client.force_login(bob)
    response = client.post(f"/tournaments/{t.pk}/start", HTTP_ACCEPT="application/json")
    assert response.status_code == 403 and Tournament.objects.get(pk=t.pk).status == "open"
    client.force_login(ann)
    assert "Start now with those who accepted" in client.get(f"/tournaments/{t.pk}").content.decode()
    client.post(f"/tournaments/{t.pk}/start")
    t.refresh_from_db()
    assert t.status == "running" and t.entrants.get(name="bob").status == "unanswered"
    assert set(Game.objects.values_list("seats__bot_level", flat=True)) == {"", "random"}
    assert not Seat.objects.filter(user=bob).exists()
    client.force_login(bob)
    assert client.post(f"/tournaments/{t.pk}/accept", HTTP_ACCEPT="application/json").status_code == 409

    client.force_login(ann)
    client.post("/tournaments", form(name="Nobody", usernames="bob, cat", bots=[], games_per_pairing="1"))
    t = Tournament.objects.get(name="Nobody")
    for user in (bob, cat):
        client.force_login(user)
        client.post(f"/tournaments/{t.pk}/decline")
    t.refresh_from_db()
    assert t.status == "cancelled" and not Pairing.objects.filter(tournament=t).exists()
    assert "Fewer than two entrants accepted" in client.get(f"/tournaments/{t.pk}").content.decode()


@pytest.mark.django_db
def test_creating_tournaments_is_rate_limited_per_address_like_creating_games(client, ann, settings):
    import time

    from django.core.cache import caches
    from games.guard import ratelimit
    settings.RATE_LIMITS = 1
    client.force_login(ann)
    allowed, window = ratelimit.LIMITS["create"]
    for _ in range(2):  # a second try only if the creation window ended on the way (the counts start afresh)
        caches["ratelimit"].clear()
        Tournament.objects.all().delete()
        started = time.time() // window
        for n in range(allowed):
            assert client.post("/tournaments", form(name=f"T{n}", bots=["random", "greedy"],
                                                    games_per_pairing="1")).status_code == 302
        refused = client.post("/tournaments", form(name="one too many", bots=["random", "greedy"]))
        if time.time() // window == started:
            break
    assert refused.status_code == 429 and "Too many requests" in refused.content.decode()
    assert 1 <= int(refused["Retry-After"]) <= window
    assert Tournament.objects.count() == allowed and not Tournament.objects.filter(name="one too many").exists()
    caches["ratelimit"].clear()