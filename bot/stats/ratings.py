"""Ratings: OpenSkill's Plackett–Luce model for two teams of two, per server and global.

The library does the mathematics; this module only says who sat on which team and who won. A player on
both teams (an AI level playing against itself) learns nothing from the match and keeps its rating; a
player twice on one team (two AI players of one level) gets its seat's update once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from engine.cards import Team

MODEL = PlackettLuce()
CONSERVATIVE_SIGMAS = 3  # the leaderboard ranks by mu - 3 sigma: a rating the player very likely has at least
GLOBAL_SCOPE = 0  # the scope of the global ratings; a server's ratings have its id as scope
MIN_MATCHES = 5  # rated matches before a player appears on the leaderboard (settable: bot.stats.ratings)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return conservative(self.mu, self.sigma)


def conservative(mu: float, sigma: float) -> float:
    return mu - CONSERVATIVE_SIGMAS * sigma


DEFAULT = Rating(MODEL.mu, MODEL.sigma)


def rate(teams: tuple[tuple[str, str], tuple[str, str]], winner: Team | None,
         current: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of the players the match rates: ``teams`` NS then EW; ``winner`` None for a draw.

    ``current`` holds the known ratings; a player without one starts at the model's default.
    """
    ranks = [1.0, 1.0] if winner is None else ([1.0, 2.0] if winner is Team.NS else [2.0, 1.0])
    ratings = [[MODEL.rating(*_pair(current.get(player, DEFAULT))) for player in team] for team in teams]
    out = MODEL.rate(ratings, ranks=ranks)
    both = set(teams[0]) & set(teams[1])
    new: dict[str, Rating] = {}
    for team, rated in zip(teams, out, strict=True):
        for player, rating in zip(team, rated, strict=True):
            if player not in both and player not in new:
                new[player] = Rating(float(rating.mu), float(rating.sigma))
    return new


def _pair(rating: Rating) -> tuple[float, float]:
    return rating.mu, rating.sigma
