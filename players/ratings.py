"""Glicko-2 ratings, computed by the ``glicko2-py`` library (``glicko2.math.update_rating``: Glickman's
algorithm as published in "Example of the Glicko-2 system", 2012). Pure Python: no Django here.

Each rated game is its own rating period (as lichess does): every player of the game is updated once, against
every other player of the game, from the ratings they all had before it. A pair's score comes from the
game's returns: the higher return scores 1, the lower 0, equal returns 0.5 each. A two-seat game is one
"match"; an N-seat game counts as N - 1 matches for each seat, one against each other seat (its place in the
result order). Periods without games (inactivity) do not widen RD.
"""
from __future__ import annotations

from dataclasses import dataclass

from glicko2.math import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi, update_rating

TAU = 0.5  # Glickman's system constant (how fast volatility may change); his example uses 0.5
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
MAX_RD = 350.0
PROVISIONAL_RD = 110.0  # above this the rating is shown with a "?" (not settled yet)


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


def rate(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``results``: (opponent's rating before, score 0..1)."""
    if not results:
        return player
    new = update_rating(rating_to_mu(player.rating), rd_to_phi(player.rd), player.volatility,
                        [(rating_to_mu(o.rating), rd_to_phi(o.rd), float(score)) for o, score in results], tau=tau)
    return Rating(mu_to_rating(new.mu), min(MAX_RD, phi_to_rd(new.phi)), new.sigma)


def pair_score(mine: float, theirs: float) -> float:
    """A seat's score against another from their returns: 1 ahead, 0 behind, 0.5 level."""
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


def rate_game(before: dict[str, Rating], returns: dict[str, float], tau: float = TAU) -> dict[str, tuple[Rating, float]]:
    """Every seat's (new rating, mean score) after one game: ``before`` the seats' ratings, ``returns`` the
    game's return per seat. Each seat plays every other seat once in the period."""
    out = {}
    for seat, rating in before.items():
        results = [(before[other], pair_score(returns[seat], returns[other])) for other in before if other != seat]
        mean = sum(score for _, score in results) / len(results) if results else 0.5
        out[seat] = (rate(rating, results, tau), mean)
    return out
