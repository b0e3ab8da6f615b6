"""Importing referee logs (games/play/importer.py, ``manage.py importlog``) and exporting them again."""

import io
import re
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.play import importer, services
from games.read.gamelog import log_text as referee_log_text
from games.ropasci360 import logs as refereelog
from games.models import Game, Seat, Turn

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT.parent / "shared" / "fixtures" / "referee-logs"
needs_fixtures = pytest.mark.skipif(
    not (FIXTURES / "expected.tsv").exists(),
    reason=f"the tournament logs are not here ({FIXTURES}): they live in ../shared beside the repo, "
           "which a user's clone does not have")

LAST_LINE = re.compile(r"^imported game (?P<id>[a-z0-9]+): (?P<url>\S+)$")

# A short legal game of three turns that has not ended.
SMALL_LOG = """\
turn 1: upper: THROW symbol r to (4, -2)
turn 1: lower: THROW symbol s to (-4, 2)
turn 2: upper: SLIDE from (4, -2) to (3, -2)
turn 2: lower: SLIDE from (-4, 2) to (-3, 2)
turn 3: upper: THROW symbol p to (4, 0)
turn 3: lower: THROW symbol p to (-4, 0)
"""


def expected_outcomes() -> dict[str, str]:
    rows = (FIXTURES / "expected.tsv").read_text().splitlines()
    return dict(row.split("\t", 1) for row in rows if row.strip())


def fixture_names() -> list[str]:
    if not (FIXTURES / "expected.tsv").exists():
        return []
    return sorted(expected_outcomes())


def turn_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("turn ")]


# --- the tournament logs ------------------------------------------------------------------------------

@needs_fixtures
@pytest.mark.django_db
@pytest.mark.parametrize("name", fixture_names())
def test_fixture_imports_as_the_engine_replays_it(name):
    text = (FIXTURES / name).read_text()
    expected = expected_outcomes()[name]
    log = refereelog.parse(text)

    game = importer.import_bytes((FIXTURES / name).read_bytes(), filename=name).game
    game.refresh_from_db()

    assert game.source == Game.Source.IMPORTED
    assert {s.side: (s.kind, s.display_name) for s in game.seats.all()} == {
        "upper": (Seat.Kind.HUMAN, "upper"), "lower": (Seat.Kind.HUMAN, "lower")}
    if expected.startswith(("winner: ", "draw: ")):
        assert (game.status, game.result, game.ending, game.note) == (
            Game.Status.FINISHED, expected, Game.Ending.RULES, "")
        assert game.turn == len(log.turns)
    elif expected.startswith("unfinished after "):
        n = int(expected.split()[2])
        assert (game.status, game.result, game.ending, game.turn) == (Game.Status.ABORTED, "", Game.Ending.ABORTED, n)
        assert game.note == f"log ends after {n} turns (unfinished)"
    else:
        m = re.fullmatch(r"illegal action at turn (\d+) by (upper|lower)", expected)
        assert m, expected
        n = int(m.group(1))
        assert (game.status, game.ending, game.turn) == (Game.Status.ABORTED, Game.Ending.ABORTED, n - 1)
        assert game.note.startswith(f"illegal action at turn {n} by {m.group(2)}: ")

    # Turn rows: canonical JSON actions, battles, and the cached state is the engine's.
    rows = list(game.turns.order_by("number"))
    assert [t.number for t in rows] == list(range(1, game.turn + 1))
    for row, pair in zip(rows, log.turns):
        upper, lower = pair["upper"], pair["lower"]
        eg = services.engine_for(game)
        assert row.actions == {"upper": eg.action_to_json(upper), "lower": eg.action_to_json(lower)}
    assert game.state == services.current_state(game).to_json()


@needs_fixtures
@pytest.mark.django_db
def test_illegal_action_fixture_note_says_where_and_why():
    game = importer.import_bytes((FIXTURES / "round-1-1.06.1.txt").read_bytes()).game
    assert game.turn == 3
    assert game.status == Game.Status.ABORTED
    assert game.note == "illegal action at turn 4 by upper: upper has no token on (2, -4) to move"


@needs_fixtures
@pytest.mark.django_db
@pytest.mark.parametrize("name", fixture_names())
def test_fixture_exports_to_the_same_turn_lines_and_reimports(name):
    text = (FIXTURES / name).read_text()
    game = importer.import_text(text, filename=name).game
    exported = referee_log_text(game)

    # Hexes normalised to (r, q): the referee's own lines, up to where the import stopped.
    log = refereelog.parse(text)
    result = game.result if game.status == Game.Status.FINISHED else None
    assert exported == refereelog.write(log.turns[:game.turn], result)
    if "Hex(" not in text:
        assert turn_lines(exported) == turn_lines(text)[:2 * game.turn]
    if result:
        assert exported.rstrip("\n").splitlines()[-1] == log.result == result

    again = importer.import_text(exported).game
    assert again.id != game.id
    assert (again.turn, again.status, again.result, again.state) == (game.turn, game.status, game.result, game.state)
    assert list(again.turns.order_by("number").values_list("actions", "events")) == \
        list(game.turns.order_by("number").values_list("actions", "events"))
    assert referee_log_text(again) == exported


@needs_fixtures
@pytest.mark.django_db
def test_hex_notation_is_read_and_written_as_r_q():
    name = next(n for n in fixture_names() if "Hex(" in (FIXTURES / n).read_text())
    game = importer.import_text((FIXTURES / name).read_text()).game
    exported = referee_log_text(game)
    assert "Hex(" not in exported
    assert re.search(r"turn 1: upper: \w+ .*\(-?\d, -?\d\)", exported)


@needs_fixtures
@pytest.mark.django_db
def test_importlog_command_on_every_fixture(settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    for name in fixture_names():
        out = io.StringIO()
        call_command("importlog", str(FIXTURES / name), stdout=out)
        last = out.getvalue().rstrip("\n").splitlines()[-1]
        m = LAST_LINE.match(last)
        assert m, last
        assert m.group("url") == f"http://127.0.0.1:8000/games/{m.group('id')}/replay"
        assert Game.objects.filter(pk=m.group("id"), source=Game.Source.IMPORTED).exists()
    assert Game.objects.count() == len(fixture_names())


# --- without the fixtures -----------------------------------------------------------------------------

@pytest.mark.django_db
def test_small_log_imports_unfinished():
    done = importer.import_text(SMALL_LOG)
    game = done.game
    assert (game.turn, game.status, game.ending) == (3, Game.Status.ABORTED, Game.Ending.ABORTED)
    assert game.note == "log ends after 3 turns (unfinished)"
    assert Turn.objects.filter(game=game).count() == 3
    assert game.turns.get(number=1).actions == {"upper": ["THROW", "r", [4, -2]], "lower": ["THROW", "s", [-4, 2]]}
    assert referee_log_text(game) == SMALL_LOG


@pytest.mark.django_db
def test_both_hex_notations_give_the_same_game():
    hexed = re.sub(r"\((-?\d), (-?\d)\)", r"Hex(r=\1, q=\2)", SMALL_LOG)
    assert "Hex(r=4, q=-2)" in hexed
    a = importer.import_text(SMALL_LOG).game
    b = importer.import_text(hexed).game
    assert a.state == b.state
    assert referee_log_text(b) == SMALL_LOG


@pytest.mark.django_db
def test_illegal_action_keeps_the_turns_before_it():
    text = SMALL_LOG + "turn 4: upper: SLIDE from (0, 0) to (0, 1)\nturn 4: lower: SLIDE from (-3, 2) to (-2, 2)\n"
    game = importer.import_text(text).game
    assert game.turn == 3
    assert game.status == Game.Status.ABORTED
    assert game.note == "illegal action at turn 4 by upper: upper has no token on (0, 0) to move"


@pytest.mark.django_db
def test_illegal_first_turn_imports_an_empty_game_with_the_reason():
    game = importer.import_text("turn 1: upper: THROW symbol r to (9, 9)\nturn 1: lower: THROW symbol r to (-4, 0)\n").game
    assert (game.turn, game.status) == (0, Game.Status.ABORTED)
    assert game.note.startswith("illegal action at turn 1 by upper: ")


@pytest.mark.django_db
def test_battles_are_stored_as_events():
    text = ("turn 1: upper: THROW symbol r to (4, 0)\nturn 1: lower: THROW symbol s to (-4, 0)\n"
            + "".join(f"turn {n}: upper: SLIDE from ({6 - n}, 0) to ({5 - n}, 0)\n"
                      f"turn {n}: lower: SLIDE from ({n - 6}, 0) to ({n - 5}, 0)\n" for n in (2, 3, 4, 5)))
    game = importer.import_text(text).game
    assert game.turn == 5
    events = game.turns.get(number=5).events
    assert events == [{"hex": [0, 0], "defeated": [{"player": "lower", "symbol": "s", "count": 1}]}]


@pytest.mark.django_db
def test_turns_after_the_end_are_not_imported():
    # Both sides step back and forth: the third occurrence of a position draws after turn 5.
    lines = ["turn 1: upper: THROW symbol r to (4, 0)", "turn 1: lower: THROW symbol r to (-4, 0)"]
    n = 2
    for _ in range(3):
        for u, l in (("(4, 0) to (3, 0)", "(-4, 0) to (-3, 0)"), ("(3, 0) to (4, 0)", "(-3, 0) to (-4, 0)")):
            lines += [f"turn {n}: upper: SLIDE from {u}", f"turn {n}: lower: SLIDE from {l}"]
            n += 1
    done = importer.import_text("\n".join(lines) + "\n")
    game = done.game
    assert game.status == Game.Status.FINISHED
    assert game.result == "draw: same game state occurred for 3rd time"
    assert game.turn == 5 < n - 1
    assert any("not imported" in m for m in done.messages)


@pytest.mark.django_db
def test_names_from_the_file_name_and_the_form():
    game = importer.import_text(SMALL_LOG, filename="C:\\logs\\Alice_vs_Bob.txt").game
    assert {s.side: s.display_name for s in game.seats.all()} == {"upper": "Alice", "lower": "Bob"}
    game = importer.import_text(SMALL_LOG, filename="alice-vs-bob.txt",
                                names={"upper": "  Carol\x00\n ", "lower": "x" * 500}).game
    assert {s.side: s.display_name for s in game.seats.all()} == {"upper": "Carol", "lower": "x" * 60}
    game = importer.import_text(SMALL_LOG, filename="round-1-1.06.1.txt").game
    assert {s.side: s.display_name for s in game.seats.all()} == {"upper": "upper", "lower": "lower"}


HOSTILE = {
    "empty": (b"", "empty"),
    "blank": (b"  \n\n \t\n", "empty"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
    "utf16": ("turn 1: upper: THROW symbol r to (4, 0)\n".encode("utf-16"), "not a text file"),
    "latin1": (b"turn 1: upper: THROW symbol r to (4, 0)\nturn 1: lower: caf\xe9\n", "line 2: the file is not UTF-8"),
    "too large": (b"turn 1: upper: THROW symbol r to (4, 0)\n" * 8000, "too large"),
    "bad action": (b"turn 1: upper: THROW symbol r to (4, 0)\nturn 1: lower: JUMP to (0, 0)\n", "line 2: "),
    "bad symbol": (b"turn 1: upper: THROW symbol x to (4, 0)\n", "line 1: "),
    "bad hex": (b"turn 1: upper: THROW symbol r to (4 0)\n", "line 1: "),
    "wrong order": (b"turn 1: lower: THROW symbol r to (-4, 0)\n", "line 1: "),
    "skipped turn": (SMALL_LOG.encode() + b"turn 5: upper: THROW symbol r to (4, 0)\n", "line 7: expected turn 4"),
    "after result": (SMALL_LOG.encode() + b"winner: upper\nturn 4: upper: THROW symbol r to (4, 0)\n", "line 8: "),
    "prose": (b"Hello, this is my essay.\n", "line 1: not a turn line"),
    "html": (b"<script>alert(1)</script>\n", "line 1: "),
    "only a half turn": (b"turn 1: upper: THROW symbol r to (4, 0)\n", "no complete turn"),
    "huge line": (b"turn 1: upper: " + b"A" * 200_000 + b"\n", "line 1: "),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_unreadable_files_store_nothing(case):
    data, message = HOSTILE[case]
    with pytest.raises(importer.LogImportError) as info:
        importer.import_bytes(data)
    assert message in info.value.message
    assert len(info.value.message) < 400
    assert Game.objects.count() == Seat.objects.count() == Turn.objects.count() == 0


@pytest.mark.django_db
def test_format_error_has_the_line_number():
    with pytest.raises(importer.LogImportError) as info:
        importer.import_text("turn 1: upper: THROW symbol r to (4, 0)\n\nturn 1: lower: nonsense\n")
    assert info.value.line == 3
    assert info.value.message.startswith("line 3: ")


# --- the management command ---------------------------------------------------------------------------

@pytest.fixture
def small_log(tmp_path):
    path = tmp_path / "alice-vs-bob.txt"
    path.write_text(SMALL_LOG)
    return path


@pytest.mark.django_db
def test_importlog_prints_the_replay_link_last(small_log, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    out = io.StringIO()
    call_command("importlog", str(small_log), stdout=out)
    lines = out.getvalue().splitlines()
    m = LAST_LINE.match(lines[-1])
    assert m, lines
    game = Game.objects.get(pk=m.group("id"))
    assert m.group("url") == f"http://127.0.0.1:8000/games/{game.id}/replay"
    assert game.note == "log ends after 3 turns (unfinished)"
    assert {s.side: s.display_name for s in game.seats.all()} == {"upper": "alice", "lower": "bob"}


@pytest.mark.django_db
def test_importlog_uses_site_url_and_names(small_log, settings):
    settings.SITE_URL = "https://ropasci.example"
    out = io.StringIO()
    call_command("importlog", str(small_log), "--upper", "Ann", "--lower", "Ben", stdout=out)
    m = LAST_LINE.match(out.getvalue().splitlines()[-1])
    assert m.group("url") == f"https://ropasci.example/games/{m.group('id')}/replay"
    game = Game.objects.get(pk=m.group("id"))
    assert {s.side: s.display_name for s in game.seats.all()} == {"upper": "Ann", "lower": "Ben"}


def test_site_url_comes_from_the_environment():
    from tests.test_foundation import settings_json
    assert settings_json("s.SITE_URL", SITE_URL=" https://ropasci.example/ ") == "https://ropasci.example"
    assert settings_json("s.SITE_URL", SITE_URL=" ") == "http://127.0.0.1:8000"


@pytest.mark.django_db
def test_importlog_reads_standard_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SMALL_LOG.encode())))
    out = io.StringIO()
    call_command("importlog", "-", stdout=out)
    assert LAST_LINE.match(out.getvalue().splitlines()[-1])
    assert Game.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("content, message", [
    (b"turn 1: upper: THROW symbol r to (4, 0)\nturn 1: lower: oops\n", "line 2: "),
    (b"\x00\x01\x02", "not a text file"),
    (b"x" * (importer.MAX_BYTES + 1), "too large"),
])
def test_importlog_refuses_unreadable_files(tmp_path, content, message):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(CommandError) as info:
        call_command("importlog", str(path), stdout=io.StringIO())
    assert message in str(info.value)
    assert str(path) in str(info.value)
    assert Game.objects.count() == 0


@pytest.mark.django_db
def test_importlog_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("importlog", str(tmp_path / "nope.txt"), stdout=io.StringIO())


# --- Expendibots: the course's 2020 referee logs, both ways -------------------------------------------------

@pytest.mark.django_db
def test_an_expendibots_log_imports_through_the_page_and_the_command_and_exports_again(client, monkeypatch):
    from django.urls import reverse

    from games.engine import load_game
    from games.engine.history import fold
    from games.expendibots import logs as expendibots_logs
    from tests.test_expendibots_rules import REAL_STYLE_LOG

    response = client.post(reverse("import_log"), {"text": REAL_STYLE_LOG, "upper": "Ada", "lower": "Bo"})
    assert response.status_code == 302, response.content.decode()[:500]
    game = Game.objects.get(pk=response["Location"].rstrip("/").split("/")[-2])
    assert game.kind == "expendibots" and game.source == Game.Source.IMPORTED
    assert game.result == "winner: white" and game.outcome["winners"] == ["white"] and game.turn == 6
    assert {s.side: s.display_name for s in game.seats.all()} == {"white": "Ada", "black": "Bo"}
    # Exported: the same turns in the referee's words, with the result line.
    exported = client.get(reverse("log_txt", args=[game.id])).content.decode()
    again = expendibots_logs.parse(exported)
    assert again.turns == expendibots_logs.parse(REAL_STYLE_LOG).turns and again.result == "winner: white"
    assert "[white] - MOVE 1 from (3, 1) to (3, 2)." in exported and "[black] - BOOM at (0, 7)." in exported
    records = [t.actions for t in game.turns.order_by("number")]
    assert fold(load_game("expendibots"), records).to_json() == game.state
    # The command line reads the same format from standard input.
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(REAL_STYLE_LOG.encode())))
    call_command("importlog", "-", stdout=out)
    imported = Game.objects.get(pk=LAST_LINE.match(out.getvalue().strip().splitlines()[-1])["id"])
    assert imported.kind == "expendibots" and imported.result == "winner: white"
