"""The platform's layers, read from the source (imports inside functions included), so they cannot tangle again.

games/engine (the kit) <- games/<name> (the games) and games/bots <- games/play (the write side) <- games/read
(what viewers see) <- games/live, games/web, games/api <- games/battleground (the course's TCP protocol, which
starts live's server loop work); games/guard (safe JSON, rate limits) sits beside play
for every entry point; games/runtime (ASGI handler, middleware) is reached only from settings and
ropasci/asgi.py. See docs/architecture.md.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

from games.engine import registered_names
from games.engine.registry import PACKAGES

BASE = Path(__file__).resolve().parent.parent
ROOTS = ("games", "players", "tournaments", "ropasci")
GAMES = set(registered_names())
GAME_PACKAGES = {p.split(".")[1] for p in PACKAGES}

# Who may import whom: a module's layer -> the layers it may import (its own included).
PURE = {"engine", "game", "bots"}
BELOW = {
    "engine": {"engine"},
    "game": PURE,
    "bots": PURE,
    "models": {"models"},
    "guard": {"guard", "engine"},
    "play": PURE | {"models", "play"},
    "read": PURE | {"models", "play", "read"},
    "live": PURE | {"models", "play", "read", "guard", "live"},
    "web": PURE | {"models", "play", "read", "guard", "web"},
    "api": PURE | {"models", "play", "read", "guard", "api"},
    # The course's TCP battleground: an entry point above live, whose server loop work (bots, clocks) it starts.
    "battleground": PURE | {"models", "play", "read", "guard", "live", "battleground"},
}
# Programs outside the project import the course adapters from these paths: they stay, and each is its game's
# (2021: RoPaSci 360's; 2020: Expendibots').
NAMES_A_GAME_ALLOWED = {"games.engine.registry", "games.bots.comp30024", "games.bots.comp30024.player",
                        "games.bots.comp30024_2020", "games.bots.comp30024_2020.player"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(BASE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=None)
def sources() -> dict[str, tuple[Path, ast.Module]]:
    out = {}
    for root in ROOTS:
        for path in sorted((BASE / root).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            out[module_name(path)] = (path, ast.parse(path.read_text(), str(path)))
    return out


def layer(module: str) -> str:
    parts = module.split(".")
    if parts[0] != "games":
        return "top"
    if len(parts) == 1:
        return "top"
    if parts[1] in GAME_PACKAGES:
        return "game"
    if parts[1] == "models":
        return "models"
    if parts[1] in {"engine", "bots", "guard", "play", "read", "live", "web", "api", "runtime", "battleground"}:
        return parts[1]
    return "top"  # apps, admin, management commands, the client


def imports(module: str) -> set[str]:
    """The project modules ``module`` imports anywhere in its file (``from p import m`` names module p.m when
    there is one)."""
    known = sources()
    path, tree = known[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                found.add(name)  # (a module's own packages are imported before it anyway: no edge)
    return found


def graph() -> dict[str, set[str]]:
    return {m: imports(m) for m in sources()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_reader_sees_imports_inside_functions():
    edges = graph()
    assert "games.play.services" in edges["games.live.serverloop"]  # imported inside sweep()
    assert "games.engine.api" in edges["games.engine"]  # a relative import


def test_no_import_cycles():
    assert cycles(graph()) == []


def test_each_layer_imports_only_the_layers_below():
    wrong = []
    for module, targets in sorted(graph().items()):
        mine = layer(module)
        for target in sorted(targets):
            theirs = layer(target)
            if mine in BELOW and theirs not in BELOW[mine]:
                wrong.append(f"{module} ({mine}) imports {target} ({theirs})")
            elif theirs == "runtime" and module not in {"ropasci.asgi", "ropasci.server"} and mine != "runtime":
                wrong.append(f"{module} imports the runtime layer ({target})")
            elif module.startswith("games") and target.split(".")[0] in {"players", "tournaments"}:
                wrong.append(f"{module} imports the app {target} (apps hook the core through signals)")
    assert wrong == []


def test_the_kit_bots_and_rules_never_import_django():
    """Every game package is pure Python but its ``ui.py`` (and its own ``manage.py`` commands, if any)."""
    wrong = []
    for module, (path, tree) in sorted(sources().items()):
        mine = layer(module)
        if mine not in PURE or (mine == "game" and (path.name == "ui.py" or "management" in path.parts)):
            continue  # a game's site adapter and its own manage.py commands are its Django side
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            wrong += [f"{module} imports {n}" for n in names if n.split(".")[0] in {"django", "channels"}]
            wrong += [f"{module} imports {n}" for n in names if n.split(".")[0] in {"players", "tournaments"}]
    assert wrong == []


def names_a_game(tree: ast.Module) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in GAMES:
            found.append(repr(node.value))
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            parts = node.module.split(".")
            if parts[0] == "games" and len(parts) > 1 and parts[1] in GAME_PACKAGES:
                found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[:1] == ["games"]
                      and a.name.split(".")[1:2] and a.name.split(".")[1] in GAME_PACKAGES]
    return found


def test_no_module_outside_the_game_packages_names_a_game():
    wrong = []
    for module, (path, tree) in sorted(sources().items()):
        if layer(module) == "game" or module in NAMES_A_GAME_ALLOWED or module == "ropasci.settings":
            continue
        wrong += [f"{module}: {what}" for what in names_a_game(tree)]
    assert wrong == []


@pytest.mark.parametrize("text,expected", [
    ("import games.hex.rules", ["games.hex.rules"]),
    ("from games.nim import rules", ["games.nim"]),
    ("KIND = 'othello'", ["'othello'"]),
    ("KIND = 'hexagon'", []),
])
def test_naming_a_game_is_seen(text, expected):
    assert names_a_game(ast.parse(text)) == expected


def test_no_module_of_the_platform_is_over_350_lines():
    """The platform's modules (the games' own rules and bots aside) stay small enough to hold one job."""
    long = {str(path.relative_to(BASE)): n for module, (path, _) in sources().items()
            if layer(module) != "game"
            and (n := path.read_text().count("\n")) > 360}
    assert long == {}, "split these by job"


def test_the_import_paths_programs_use_stay():
    """Programs outside the project import these: they must not move with the layers."""
    from games.bots import LEVELS, make_bot
    from games.bots import comp30024_2020
    from games.bots.comp30024 import GreedyPlayer, Player, RandomPlayer
    from games.engine import IllegalAction, load_game, registered_names

    assert "random" in LEVELS and load_game(registered_names()[0]).info.players
    assert issubclass(IllegalAction, ValueError) and callable(make_bot)
    assert all(callable(getattr(cls, "action", None)) for cls in (GreedyPlayer, Player, RandomPlayer))
    assert all(callable(getattr(comp30024_2020, name).action) for name in ("GreedyPlayer", "Player", "RandomPlayer"))
