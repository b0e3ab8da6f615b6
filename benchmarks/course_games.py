"""Many games of the course adapter under the referee's measurements (``course_referee.py``), and their summary:
how the champion figures of ``docs/bots.md`` are gathered and counted.

    python benchmarks/course_games.py run OUT --opponent FiveYang.player:Player --seeds 620-700 --jobs 2 \
        --pythonpath /work/ext
    python benchmarks/course_games.py summary OUT [OUT ...]

``run`` plays one game per seed, each in a process of its own as the referee plays (some agents keep state in
class attributes), odd seeds as Upper and even as Lower, ``nice -n 5``; each game's JSON line (with its record) goes
to ``OUT/<seed>.json``. A seed already there is skipped, so a run stopped part-way goes on where it stopped. A game
that ends in an exception (an opponent's ``action()`` returning ``None``, say) is kept as ``{"crashed": ...}`` and not
counted. ``summary`` prints won-drawn-lost, the score (a draw 1/2) with its Wilson 95% interval, by side, the draws
by reason, our CPU a game, the memory growth, and what each side held at the end of the games drawn at the turn
limit (tokens on the board and throws in hand).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from games.bots.arena import wilson_interval  # noqa: E402

MAX_THROWS = 9
GROWTH_WATCH_MB = 20.0  # growth above this is counted apart (HiGHS's working memory on wide roots)


def side_of(seed: int) -> str:
    return "upper" if seed % 2 else "lower"


def seeds_from(text: str) -> list[int]:
    """``620-700,796-800`` -> the seeds, in order."""
    out = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


def play_one(seed: int, out: Path, opponent: str, pythonpath: str, extra: list[str]) -> str:
    """Play the game of ``seed`` unless its file exists; returns what happened, for the progress line."""
    path = out / f"{seed}.json"
    if path.exists():
        return f"{seed}: kept"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (pythonpath, os.environ.get("PYTHONPATH")) if p)}
    cmd = ["nice", "-n", "5", sys.executable, str(BASE_DIR / "benchmarks" / "course_referee.py"), "--opponent",
           opponent, "--side", side_of(seed), "--seed", str(seed), "--json", "--moves", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=BASE_DIR)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode == 0 and lines:
        text = lines[-1]
        result = json.loads(text)["result"]
    else:
        why = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        text = json.dumps({"seed": seed, "side": side_of(seed), "opponent": opponent, "crashed": why})
        result = f"crashed: {why}"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text + "\n")
    tmp.replace(path)  # a file there is a whole game
    return f"{seed} ({side_of(seed)}): {result}"


def run(args) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    extra = ["--max-turns", str(args.max_turns)] if args.max_turns else []
    with ThreadPoolExecutor(args.jobs) as pool:
        for line in pool.map(lambda seed: play_one(seed, out, args.opponent, args.pythonpath, extra),
                             seeds_from(args.seeds)):
            print(line, flush=True)


def load(dirs: list[str]) -> list[dict]:
    games = []
    for d in dirs:
        for path in sorted(Path(d).glob("*.json"), key=lambda p: int(p.stem)):
            games.append(json.loads(path.read_text().strip().splitlines()[-1]))
    return games


def outcome(game: dict) -> str | None:
    """"W", "D" or "L" for our side; None for a game not counted (crashed or unfinished)."""
    result = game.get("result", "")
    if result.startswith("winner: "):
        return "W" if result.split()[1] == game["side"] else "L"
    if result.startswith("draw"):
        return "D"
    return None


def summary(games: list[dict]) -> list[str]:
    counted = [g for g in games if outcome(g)]
    lines = []
    if counted:
        tally = Counter(outcome(g) for g in counted)
        score = (tally["W"] + tally["D"] / 2) / len(counted)
        lo, hi = wilson_interval(score, len(counted))
        lines.append(f"{tally['W']}-{tally['D']}-{tally['L']}, {score:.3f} ({lo:.3f}-{hi:.3f}) over {len(counted)} "
                     "games (won-drawn-lost, score with its Wilson 95% interval)")
        for side in ("upper", "lower"):
            by = Counter(outcome(g) for g in counted if g["side"] == side)
            lines.append(f"  as {side.title()}: {by['W']}-{by['D']}-{by['L']}")
        draws = Counter(g["result"] for g in counted if outcome(g) == "D")
        lines.append("  draws: " + (", ".join(f"{n} {reason[len('draw: '):]}" for reason, n in draws.most_common())
                                    or "none"))
        cpu = [g["cpu_s"] for g in counted]
        lines.append(f"  our CPU a game: median {statistics.median(cpu):.1f} s, at most {max(cpu):.1f} s")
        growth = [g["peak_growth_mb"] for g in counted]
        low = [x for x in growth if x <= GROWTH_WATCH_MB]
        high = [x for x in growth if x > GROWTH_WATCH_MB]
        parts = ([f"at most {max(low):.1f} MB in {len(low)} games"] if low else []) + \
            ([f"{min(high):.1f} to {max(high):.1f} MB in {len(high)}"] if high else [])
        lines.append("  VmPeak growth: " + ", ".join(parts))
        limit = [g for g in counted if g["result"].startswith("draw: maximum")]
        if limit:
            ahead = behind = 0
            for g in limit:
                other = "lower" if g["side"] == "upper" else "upper"
                held = {s: sum(g["left"][s].values()) + MAX_THROWS - g["thrown"][s] for s in (g["side"], other)}
                ahead += held[g["side"]] > held[other]
                behind += held[g["side"]] < held[other]
            lines.append(f"  at the turn limit ({len(limit)}), tokens and throws in hand: ahead in {ahead}, "
                         f"behind in {behind}, level in {len(limit) - ahead - behind}")
    crashed = [g for g in games if not outcome(g)]
    if crashed:
        lines.append("not counted: " + "; ".join(f"seed {g.get('seed')}: {g.get('crashed') or g.get('result')}"
                                                   for g in crashed))
    return lines or ["no games"]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play the games of some seeds")
    r.add_argument("out", help="the directory of the games' files")
    r.add_argument("--opponent", required=True, help="a course-style package:Class, or a bot level")
    r.add_argument("--seeds", required=True, help="e.g. 620-700,796-800 (odd: our side Upper)")
    r.add_argument("--jobs", type=int, default=1, help="games at a time")
    r.add_argument("--pythonpath", default="", help="where the opponent's package is")
    r.add_argument("--max-turns", type=int, default=0, help="stop games early (a check of the harness, not a score)")
    s = sub.add_parser("summary", help="count the games of some directories")
    s.add_argument("dirs", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "run":
        run(args)
    else:
        print("\n".join(summary(load(args.dirs))))


if __name__ == "__main__":
    main()
