"""``manage.py arena A B [--game NAME] --games N [--seed K] [--seconds S] [--workers W] [--verbose]``: bot matches.

NAME is a registered two-seat game (default: the registry's first). A and B are bot levels (``random``, ``greedy``,
``strong``) or, for a game with a course interface (its package's ``course`` module), course-style
``package[:Class]`` players. Games alternate sides (A has the game's first seat in games 1, 3, 5, ...) and run in parallel worker processes. The last
line printed is ``A vs B: W-D-L score=S (95% CI lo-hi)``: W-D-L from A's side, S the mean score of A per game
(win 1, draw 1/2), and the Wilson 95% interval. The logic lives in :mod:`games.bots.arena` (no Django).
"""
from django.core.management.base import BaseCommand, CommandError

from games.bots.arena import check_game, format_game, run_arena
from games.engine.registry import default_name


class Command(BaseCommand):
    help = ("Play N games between two bots (levels random/greedy/strong, or package[:Class] course players), "
            "alternating sides; the last line is 'A vs B: W-D-L score=S (95% CI lo-hi)'.")

    def add_arguments(self, parser):
        parser.add_argument("a", metavar="A", help="first player: a bot level or package[:Class]")
        parser.add_argument("b", metavar="B", help="second player: a bot level or package[:Class]")
        parser.add_argument("--game", default=default_name(), metavar="NAME",
                            help=f"the game to play (default {default_name()})")
        parser.add_argument("--games", type=int, default=10, help="number of games (default 10)")
        parser.add_argument("--seed", type=int, default=None, help="seed for reproducible bots")
        parser.add_argument("--seconds", type=float, default=None,
                            help="time budget per move for the bots (default: each level's own, 1 s for strong)")
        parser.add_argument("--workers", type=int, default=None, help="parallel games (default: CPU count)")
        parser.add_argument("--verbose", action="store_true", help="print one line per game")

    def handle(self, *args, a, b, game, games, seed, seconds, workers, verbose, **options):
        if games < 1:
            raise CommandError("--games must be at least 1")
        try:
            seats = check_game(game)
        except ValueError as exc:
            raise CommandError(str(exc)) from None

        def on_game(rec):
            if verbose:
                self.stdout.write(format_game(rec, a, b, seats))
                self.stdout.flush()

        try:
            result = run_arena(a, b, games, seed=seed, seconds=seconds, workers=workers, on_game=on_game,
                               game_name=game)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(result.summary())
