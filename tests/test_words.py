"""Words people use, for every game: moves in each game's usual notation (what the move lists, the last move,
the choices and the replay show; the API's and the logs' action text stay the engine's), results in sentences,
moves counted as people count them (no chance turns), and the names of players on replays."""
import pytest

from games.engine import CHANCE, load_game
from games.engine.ui import ui_for
from games.play.create import create_game
from games.play.moves import submit_action
from games.read import gamelog, presenters, replay


def words(name, seat, action, observation=None, **params):
    return ui_for(load_game(name, **params)).action_words(seat, action, observation)


def test_each_game_says_its_moves_in_its_own_notation():
    rps = {"tokens": [{"player": "upper", "symbol": "r", "hex": [0, 0], "count": 1}]}
    assert words("ropasci360", "upper", ["THROW", "r", [2, 0]]) == "Rock thrown to (2, 0)"
    assert words("ropasci360", "upper", ["SLIDE", [0, 0], [1, 0]], rps) == "Rock slides from (0, 0) to (1, 0)"
    assert words("ropasci360", "upper", ["SWING", [0, 0], [2, -1]], rps) == "Rock swings from (0, 0) to (2, -1)"
    assert words("ropasci360", "lower", ["SLIDE", [0, 0], [1, 0]]) == "Token slides from (0, 0) to (1, 0)"
    puzzle = {"upper": [["r", -3, 2], ["s", 2, -1]], "lower": [], "block": []}
    assert words("ropasci_puzzle", "upper", [["SLIDE", [-3, 2], [-2, 2]], ["SWING", [2, -1], [1, -1]]], puzzle) == (
        "Rock slides from (-3, 2) to (-2, 2); Scissors swings from (2, -1) to (1, -1)")
    assert words("expendibots", "white", ["BOOM", [4, 6]]) == "Boom at (4, 6)"
    assert words("tic_tac_toe", "x", 0) == "Top left" and words("tic_tac_toe", "o", 4) == "Centre"
    assert words("connect_four", "yellow", 0) == "Column 1" and words("connect_four", "red", 6) == "Column 7"
    assert words("othello", "black", [2, 3]) == "d3" and words("othello", "white", [7, 0]) == "a8"
    assert words("hex", "black", [0, 0]) == "a1" and words("hex", "white", [10, 2]) == "c11"
    assert words("nim", "black", [0, 3]) == "Take 3 from heap 1"
    assert words("nim3p", "p0", [2, 1]) == "Take 1 from heap 3"
    assert words("sim", "black", [0, 5]) == "Edge 0-5"  # the nodes are drawn numbered from 0
    assert words("2048", "player", "left") == "← Left"
    assert words("rubiks_cube", "player", "R'") == "R' (counter-clockwise)"
    assert words("poker", "p0", "fold") == "Fold"


def test_the_engines_action_text_is_unchanged():
    """The API's and the logs' words are a contract: only what the site shows changed."""
    eg = load_game("ropasci360")
    assert eg.action_to_text(eg.action_from_json(["THROW", "r", [2, 0]], "upper")) == "THROW symbol r to (2, 0)"
    assert load_game("othello").action_to_text((2, 3)) == "2,3"


@pytest.mark.parametrize("name, outcome, observation, sentence", [
    ("tic_tac_toe", {"text": "winner: x", "winners": ["x"]}, None, "X wins: X has three in a line."),
    ("hex", {"text": "winner: white", "winners": ["white"]}, None,
     "White wins: White joined the left and right columns with an unbroken chain."),
    ("nim", {"text": "winner: white", "winners": ["white"]}, None, "White wins."),  # no reason known
    ("connect_four", {"text": "draw", "winners": []}, {}, "Draw: the frame is full without four in a line."),
    ("ropasci360", {"text": "winner: lower", "winners": ["lower"]}, {"tokens": [], "throws_left": {"upper": 0}},
     "Lower wins: every Upper token is defeated and Upper has no throws left."),
    ("ropasci360", {"text": "draw: both players have an invincible token", "winners": []}, {},
     "Draw: both players have an invincible token."),
    ("nim", {"text": "winner: black", "winners": ["black"]}, {"turn": 3, "result": {"winners": ["black"]}},
     "Black wins: Black took the last item."),
    ("2048", {"text": "game over: score 12, best tile 8", "winners": []}, None, "Game over: score 12, best tile 8."),
])
def test_a_result_is_a_sentence_that_says_who_won_and_why(name, outcome, observation, sentence):
    ui = ui_for(load_game(name))
    reason = ui.result_reason(outcome, observation)
    assert ui.result_sentence(ui.result_headline(outcome), reason) == sentence
    assert "winner:" not in sentence


def test_the_headline_names_every_winner():
    ui = ui_for(load_game("poker", players=3))
    assert ui.result_headline({"winners": ["p0", "p2"]}) == "Player 0 and Player 2 win"
    assert ui.result_headline({"winners": []}) == "Draw"


@pytest.mark.django_db
def test_moves_count_the_players_moves_not_the_chance_turns():
    """2048 draws a tile after every move: the turn number counts those, the moves made do not."""
    created = create_game("2048", {"player": "human"})
    game, token = created.game, created.tokens["player"]
    for _ in range(3):
        game.refresh_from_db()
        state = game_state(game)
        submit_action(game.id, token, game.turn + 1, load_game("2048").action_to_json(state.legal_actions("player")[0]))
    game.refresh_from_db()
    records = gamelog.stored_rows(game)
    assert game.turn == len(records) > 3 and sum(CHANCE in r["actions"] for r in records) >= 3
    assert gamelog.moves_made(game) == 3
    assert presenters.game_context(game, "player")["moves_made"] == 3
    assert replay.outcome_line(game) == "in play: 3 moves so far"
    turns, observations = replay.history(game)
    rows = replay.move_window(ui_for(load_game("2048")), turns, observations, game.turn)["rows"]
    assert [r["move"] for r in rows if r["move"]] == [1, 2, 3]
    assert all(r["move"] is None for r in rows if CHANCE in turns[r["number"] - 1]["actions"])


def game_state(game):
    from games.play import services
    return services.current_state(game)


@pytest.mark.django_db
def test_replay_titles_name_anonymous_players_and_bots_as_people_would():
    game = create_game("tic_tac_toe", {"x": "human", "o": "bot:strong"}, claim="x").game
    names = replay.seat_names(game)
    assert names == {"x": "Anonymous (X)", "o": "Strong bot"}
    assert replay.summary_line(game, names) == "Anonymous (X) vs Strong bot (O), Tic-tac-toe. In play: 0 moves so far."
    named = create_game("tic_tac_toe", {"x": "human", "o": "human"}, claim="x", name="alice").game
    assert replay.seat_names(named) == {"x": "alice", "o": "O"}  # nobody has taken O yet
