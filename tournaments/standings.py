"""A tournament's standings, read from its games' outcomes (never stored): a win 1, a draw ½, a loss 0
(``game_points``); an aborted game scores nothing for either entrant and counts as not played; a Swiss bye
scores as won games. ``table`` adds every round's pairings and games, for the tournament's page."""
from __future__ import annotations

from dataclasses import dataclass

from games.engine import load_game
from games.engine.ui import ui_for
from games.models import Game

from . import pairing
from .models import Entrant, Tournament, TournamentGame
from .plan import planned_games


def game_points(game: Game | None, side: str) -> float | None:
    """What ``side`` scored in a finished game (1, ½, 0); None while it is played, or if it was aborted."""
    if game is None or game.status != Game.Status.FINISHED or not isinstance(game.outcome, dict):
        return None
    winners = game.outcome.get("winners") or []
    if not winners:
        return pairing.DRAW
    if side not in winners:
        return pairing.LOSS
    return pairing.WIN if len(winners) == 1 else pairing.DRAW


def _results(t: Tournament, pairings: list, tgames: list):
    by_pairing = {p.pk: p for p in pairings}
    games = []
    for tg in tgames:
        p = by_pairing[tg.pairing_id]
        points = game_points(tg.game, tg.first_side)
        if points is not None:
            games.append(pairing.GameResult(p.round, p.first_id, p.second_id, points))
    byes = []
    if t.format == Tournament.Format.SWISS:
        byes = [(p.first_id, float(t.games_per_pairing)) for p in pairings if p.second_id is None]
    return games, byes


@dataclass
class Table:
    tiebreaks: tuple[str, ...]  # names, in order
    rows: list[dict]  # rank, entrant, played, wins, draws, losses, byes, score, tiebreaks
    rounds: list[dict]  # number, pairings: first, second, score (first's, second's), games
    over: int = 0  # games over (finished or aborted)
    planned: int = 0  # games in the whole tournament

    @property
    def tiebreak_heads(self) -> list[tuple[str, str]]:
        """(short, full) name of each tie-break, for column heads."""
        return [(pairing.TIEBREAK_ABBR.get(name, name), name) for name in self.tiebreaks]


def table(t: Tournament) -> Table:
    """The standings and every round's pairings and games, from the games' outcomes."""
    entrants = {e.pk: e for e in t.entrants.filter(status=Entrant.Status.ACCEPTED).select_related("user")}
    pairings = list(t.pairings.all())
    tgames = list(TournamentGame.objects.filter(pairing__tournament=t)
                  .select_related("game").prefetch_related("game__seats"))
    games, byes = _results(t, pairings, tgames)
    keys = sorted(entrants, key=lambda k: entrants[k].seed)
    fmt = pairing.SWISS if t.format == Tournament.Format.SWISS else pairing.ROUND_ROBIN
    rows = [{"rank": r.rank, "entrant": entrants[r.key], "played": r.played, "wins": r.wins, "draws": r.draws,
             "losses": r.losses, "byes": r.byes, "score": r.score, "tiebreaks": r.tiebreaks}
            for r in pairing.standings(keys, games, byes, fmt)]
    ui = ui_for(load_game(t.kind, **(t.params or {})))
    by_pairing: dict = {}
    for tg in tgames:
        by_pairing.setdefault(tg.pairing_id, []).append(tg)
    rounds: dict = {}
    for p in sorted(pairings, key=lambda p: (p.round, p.board)):
        played = sorted(by_pairing.get(p.pk, []), key=lambda tg: tg.number)
        score = [0.0, 0.0]
        items = []
        for tg in played:
            points = game_points(tg.game, tg.first_side)
            if points is not None:
                score[0] += points
                score[1] += 1.0 - points
            items.append({"tg": tg, "game": tg.game, "points": points, "first_side": tg.first_side,
                          "first_seat": ui.seat_name(tg.first_side),
                          "other_points": None if points is None else 1.0 - points})
        rounds.setdefault(p.round, []).append({
            "pairing": p, "first": entrants[p.first_id],
            "second": entrants[p.second_id] if p.second_id else None,
            "score": score if any(i["points"] is not None for i in items) else None, "games": items,
            "to_come": t.games_per_pairing - len(played) if p.second_id else 0,
            "bye_points": float(t.games_per_pairing) if (p.second_id is None and fmt == pairing.SWISS) else None,
        })
    over = sum(tg.is_over for tg in tgames)
    planned = planned_games(t.format, len(entrants), t.rounds, t.games_per_pairing) if len(entrants) > 1 else 0
    return Table(pairing.TIEBREAKS[fmt], rows, [{"number": n, "pairings": ps} for n, ps in sorted(rounds.items())],
                 over, planned)
