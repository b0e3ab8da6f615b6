"""``manage.py solve FILE.json [--max-turns N] [--stats] [--verbose]``: a shortest solution of a RoPaSci 360 puzzle.

FILE is a position in the course's JSON form (``{"upper": [["r", 4, -2], ...], "lower": [...], "block":
[["", 0, 0], ...]}``). The solution is printed in the course's output format, one line per Upper token per
turn, tokens in the order (symbol, r, q): ``Turn 1: SLIDE from (2, -1) to (1, -1)``. A file that cannot be
read, a malformed position or one without a solution within the turn limit is an error (exit status 1, the
message on stderr). ``--verbose`` adds, on stderr, the lower bounds that prove the solution optimal, ending
with ``optimal: lower bound N = solution length N``. The search lives in ``games.ropasci_puzzle.solver`` (no Django).
"""
import json

from django.core.management.base import BaseCommand, CommandError

from games.ropasci_puzzle.position import PositionError, parse_position
from games.ropasci_puzzle.solver import MAX_TURNS, solve, why_unsolvable


class Command(BaseCommand):
    help = ("Print a provably shortest solution of a RoPaSci 360 single-player puzzle (course JSON), one "
            "'Turn N: SLIDE|SWING from (r, q) to (r, q)' line per token per turn.")

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE.json", help="the position, in the course's JSON form")
        parser.add_argument("--max-turns", type=int, default=MAX_TURNS,
                            help=f"give up beyond this many turns (default {MAX_TURNS}, the game's turn limit)")
        parser.add_argument("--stats", action="store_true",
                            help="also print the search's statistics to stderr")
        parser.add_argument("--verbose", action="store_true",
                            help="also print to stderr the lower bounds that prove the solution optimal")

    def handle(self, *args, file, max_turns, stats, verbose, **options):
        try:
            with open(file, encoding="utf-8") as fh:
                data = json.load(fh)
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"{file} is not JSON: {exc}") from None
        try:
            position = parse_position(data)
        except PositionError as exc:
            raise CommandError(f"{file}: not a valid puzzle: {exc}") from None
        reason = why_unsolvable(position)
        if reason:
            raise CommandError(f"{file}: no solution: {reason}")
        figures: dict = {}
        turns = solve(position, max_turns=max_turns, stats=figures)
        if stats:
            questions, their_nodes = figures["oracle"][:2]
            self.stderr.write(f"nodes={figures['nodes']} relaxations={figures['relaxations']} "
                              f"oracle_questions={questions} oracle_nodes={their_nodes} "
                              f"seconds={figures['seconds']:.3f}")
        if verbose:
            self._explain(figures["bounds"], turns)
        if turns is None:
            raise CommandError(f"{file}: no solution within {max_turns} turns")
        for number, action in enumerate(turns, 1):
            for kind, a, b in action:
                self.stdout.write(f"Turn {number}: {kind} from {a} to {b}")

    def _explain(self, bounds: dict, turns) -> None:
        """The proof of optimality: each bound is a number of turns no plan can beat; the last one is what the
        iterative deepening refuted exhaustively, and it meets the solution's length."""
        self.stderr.write(f"lower bound at the root: {bounds['estimate']} turns (tours and front lemma)")
        if "relaxation" in bounds:
            self.stderr.write(f"lower bound of the root's relaxation: {bounds['relaxation']} turns")
        proved = bounds["proved"]
        if turns is None:
            self.stderr.write(f"lower bound proved by the search: {proved} turns (no plan of fewer)")
            return
        self.stderr.write(f"lower bound proved by the search: {proved} turns "
                          f"(every plan of {proved - 1} turns or fewer refuted)")
        relation = "=" if proved == len(turns) else "<"  # "<" would be a bug in the search: it is exhaustive
        self.stderr.write(f"{'optimal' if relation == '=' else 'NOT PROVED OPTIMAL'}: lower bound {proved} "
                          f"{relation} solution length {len(turns)}")
