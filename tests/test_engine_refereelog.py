"""Referee logs: parsing both hex notations, clear errors, writing, and the real tournament sample."""
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.history import replay_checked
from games.ropasci360 import logs as refereelog
from games.ropasci360.rules import GAME

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT.parent / "shared" / "fixtures" / "referee-logs"


def expected_outcomes():
    if not (FIXTURES / "expected.tsv").exists():
        return []
    return [tuple(line.split("\t")) for line in (FIXTURES / "expected.tsv").read_text().splitlines() if line.strip()]


needs_fixtures = pytest.mark.skipif(not (FIXTURES / "expected.tsv").exists(),
                                    reason=f"the tournament sample is not here ({FIXTURES}); it lives in ../shared")


@needs_fixtures
@pytest.mark.parametrize("name,expected", expected_outcomes())
def test_tournament_sample_outcomes(name, expected):
    rep = replay_checked(GAME, refereelog.parse((FIXTURES / name).read_text()).turns)
    assert rep.outcome == expected


@needs_fixtures
@pytest.mark.parametrize("name,expected", expected_outcomes())
def test_tournament_sample_round_trips(name, expected):
    text = (FIXTURES / name).read_text()
    log = refereelog.parse(text)
    again = refereelog.parse(refereelog.write(log.turns, log.result))
    assert again.turns == log.turns and again.result == log.result
    normalised = [line for line in text.splitlines() if line.strip()]
    written = refereelog.write(log.turns, log.result).splitlines()
    # Identical lines, except that Hex(r=R, q=Q) is written (R, Q).
    import re
    assert written == [re.sub(r"Hex\(r=(-?\d+), q=(-?\d+)\)", r"(\1, \2)", line) for line in normalised]


def test_parse_errors_name_the_line():
    with pytest.raises(refereelog.LogFormatError, match="line 2: expected the lower line of turn 1"):
        refereelog.parse("turn 1: upper: THROW symbol r to (4, 0)\nturn 2: upper: THROW symbol r to (4, 0)\n")
    with pytest.raises(refereelog.LogFormatError, match="line 1: expected turn 1, found turn 3"):
        refereelog.parse("turn 3: upper: THROW symbol r to (4, 0)\n")
    with pytest.raises(refereelog.LogFormatError, match="line 3: not a turn line"):
        refereelog.parse("turn 1: upper: THROW symbol r to (4, 0)\nturn 1: lower: THROW symbol r to (-4, 0)\nhello\n")
    with pytest.raises(refereelog.LogFormatError, match="line 1: cannot read the action"):
        refereelog.parse("turn 1: upper: JUMP to (4, 0)\n")
    with pytest.raises(refereelog.LogFormatError, match="line 4: text after the result line"):
        refereelog.parse("turn 1: upper: THROW symbol r to (4, 0)\nturn 1: lower: THROW symbol r to (-4, 0)\n"
                         "winner: upper\nturn 2: upper: THROW symbol r to (4, 0)\n")


def test_cut_off_turn_and_blank_lines():
    log = refereelog.parse("\nturn 1: upper: THROW symbol r to Hex(r=4, q=0)\n\nturn 1: lower: THROW symbol r to (-4, 0)\n"
                           "turn 2: upper: SLIDE from (4, 0) to (3, 0)\n")
    assert log.turns == [{"upper": ("THROW", "r", (4, 0)), "lower": ("THROW", "r", (-4, 0))}] and log.result is None
    assert replay_checked(GAME, log.turns).outcome == "unfinished after 1 turns"


def run_replaylog(*args, cwd=ROOT):
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), "replaylog", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@needs_fixtures
def test_replaylog_command_prints_outcomes_verbatim():
    pairs = expected_outcomes()
    proc = run_replaylog(*[name for name, _ in pairs], cwd=FIXTURES)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"{name}: {want}" for name, want in pairs]


def test_replaylog_command_bad_file(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("turn 1: upper: THROW symbol r to (4, 0)\nturn 1: lower: THROW symbol s to (-4, 0)\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("turn 1: upper: THROW symbol r to (4, 0)\nnonsense\n")
    proc = run_replaylog(str(good), str(bad), str(tmp_path / "missing.txt"))
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [f"{good}: unfinished after 1 turns"]
    assert f"{bad}: cannot read log: line 2" in proc.stderr and "missing.txt" in proc.stderr
