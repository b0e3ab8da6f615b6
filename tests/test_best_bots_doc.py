"""docs/bots.md, "Every game's best bot": every registered game has its subsection, and every command there names
a script (and a subcommand or management command) that exists, so a new game cannot ship without its figure and
no figure points at a command that is gone."""
from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

from games.engine.registry import names_in_order

ROOT = Path(__file__).resolve().parent.parent
SECTION = "### Every game's best bot"


def section() -> str:
    text = (ROOT / "docs" / "bots.md").read_text()
    start = text.index(SECTION)
    end = text.find("\n### ", start + len(SECTION))
    return text[start:end if end != -1 else len(text)]


def subsections() -> dict[str, str]:
    """Registered name -> the text of its subsection (headings ``#### Title (`name`)``)."""
    parts = re.split(r"^#### ", section(), flags=re.M)[1:]
    found = {}
    for part in parts:
        heading = part.splitlines()[0]
        name = re.search(r"\(`([^`]+)`\)\s*$", heading)
        assert name, f"a subsection heading names no game: {heading!r}"
        assert name[1] not in found, f"two subsections for {name[1]}"
        found[name[1]] = part
    return found


def commands(text: str) -> list[list[str]]:
    """Every ``python ...`` command in backticks (inline or fenced), as words."""
    return [shlex.split(c) for c in re.findall(r"`(python [^`\n]+)`", text)] + \
        [shlex.split(line) for line in re.findall(r"^(python .+)$", text, flags=re.M)]


def best_bots_commands() -> set[str]:
    spec = importlib.util.spec_from_file_location("best_bots", ROOT / "benchmarks" / "best_bots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return set(module.COMMANDS)


def test_every_registered_game_has_its_subsection():
    assert sorted(subsections()) == sorted(names_in_order())


def test_every_subsection_has_a_command_and_every_command_exists():
    subcommands = best_bots_commands()
    for name, text in subsections().items():
        found = commands(text)
        assert found, f"{name}: no command to reproduce its figure"
        assert len(re.findall(r"`python ", text)) == len(re.findall(r"`python [^`\n]+`", text)), \
            f"{name}: a command is broken across lines (it must stay copyable)"
        for words in found:
            assert words[0] == "python", words
            script = ROOT / words[1]
            assert script.is_file(), f"{name}: {words[1]} does not exist"
            if words[1] == "manage.py":
                assert (ROOT / "games" / "management" / "commands" / f"{words[2]}.py").is_file(), words
            if words[1] == "benchmarks/best_bots.py":
                assert words[2] in subcommands, f"{name}: best_bots.py has no subcommand {words[2]!r}"
            if "--game" in words:
                game = words[words.index("--game") + 1]
                assert game == name, f"{name}'s subsection measures {game}"
