"""The RoPaSci 360 sparring partner (``games.ropasci360.sparring``): its fixed opening, its rules (attack, run,
throw, keep a throw), its capped search, whole games through the course interface and the arena."""
import random

from games.bots.arena import play_game
from games.engine import load_game
from games.ropasci360 import sparring
from games.ropasci360.sparring import OPENING, Player, Sparring

GAME = load_game("ropasci360")


def position(tokens, throws_left=(9, 9), turn=0):
    return GAME.state_from_json({
        "turn": turn,
        "throws_left": {"upper": throws_left[0], "lower": throws_left[1]},
        "tokens": [{"player": p, "symbol": s, "hex": list(h), "count": n} for p, s, h, n in tokens],
    })


def test_the_opening_is_five_fixed_moves_mirrored_for_lower():
    for seat, sign in (("upper", 1), ("lower", -1)):
        bot = Sparring(seat, seed=1)
        state = GAME.new_initial_state()
        other = "lower" if seat == "upper" else "upper"
        played = []
        for _ in range(5):
            a = bot.choose(state)
            played.append(a)
            # the other side passes its turns far away: throws onto its own back row
            b = next(x for x in state.legal_actions(other) if x[0] == "THROW" and x[1] == "r")
            state.apply_actions({seat: a, other: b})
        flip = (lambda h: h) if sign == 1 else (lambda h: (-h[0], -h[1]))
        expected = [(k, x, flip(y)) if k == "THROW" else (k, flip(x), flip(y)) for k, x, y in OPENING]
        assert played == expected


def test_it_takes_a_safe_capture_and_runs_from_a_threat():
    # Upper's rock next to Lower's scissors, nothing of Lower's can reach the rock there: take it.
    state = position([("upper", "r", (0, 0), 1), ("lower", "s", (0, 1), 1), ("lower", "p", (-4, 4), 1)],
                     throws_left=(4, 4), turn=20)
    assert Sparring("upper", seed=1).choose(state) == ("SLIDE", (0, 0), (0, 1))
    # Lower's paper one step from Upper's rock, nothing to take: the rock moves out of the paper's reach.
    state = position([("upper", "r", (0, 0), 1), ("lower", "p", (-1, 1), 1)], throws_left=(4, 4), turn=20)
    a = Sparring("upper", seed=1).choose(state)
    assert a[0] == "SLIDE" and a[1] == (0, 0)
    landed = a[2]
    assert max(abs(landed[0] + 1), abs(landed[1] - 1), abs(landed[0] + landed[1])) >= 2


def test_it_keeps_its_last_throw_for_a_capture():
    # Lower's scissors sit in Upper's throw zone: a rock thrown there takes them, unless it is Upper's last throw.
    tokens = [("upper", "p", (4, -4), 1), ("lower", "s", (3, 0), 1)]
    many = Sparring("upper", seed=1).choose(position(tokens, throws_left=(3, 4), turn=20))
    assert many == ("THROW", "r", (3, 0))
    last = Sparring("upper", seed=1).choose(position(tokens, throws_left=(1, 4), turn=20))
    assert last[0] != "THROW"


def test_the_search_stays_under_its_node_cap():
    rng = random.Random(5)
    state = GAME.new_initial_state()
    bot = Sparring("lower", seed=2, node_cap=40)
    for _ in range(30):
        acts = {p: rng.choice(state.legal_actions(p)) for p in ("upper", "lower")}
        state.apply_actions(acts)
    assert not state.is_terminal()
    state.check_action("lower", bot._search(state, state.legal_actions("lower")))
    assert bot.nodes <= 40


def test_whole_games_as_a_course_player_and_in_the_arena():
    rec = play_game("games.ropasci360.sparring:Player", "random", 0, seed=3)
    assert rec.a_score == 1.0 and not rec.result.startswith("forfeit"), rec.result
    rec = play_game("greedy", "games.ropasci360.sparring:Player", 1, seed=4)
    assert not rec.result.startswith("forfeit"), rec.result
    p = Player("lower")
    assert p.bot.seat == "lower" and sparring.NODE_CAP > 0
