"""What the statistics commands show, as plain data the store's queries return (``bot.store.stats``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.stats.ratings import Rating


@dataclass(frozen=True, slots=True)
class PartnerRecord:
    partner: str
    matches: int
    won: int
    drawn: int
    lost: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player: str
    won: int = 0
    drawn: int = 0
    lost: int = 0
    abandoned: int = 0
    unfinished: int = 0  # stopped by others: shown in the history, not counted as played
    hands: int = 0
    chose: int = 0  # hands in which this player chose trump
    chose_made: int = 0
    chose_nat: int = 0
    pits: int = 0  # hands their team won all tricks
    roem: int = 0  # roem their team counted, over all their hands
    score: int = 0  # points their team scored, over all their hands
    favourite_trump: str | None = None  # C D H S: the suit they chose most often
    partner: PartnerRecord | None = None
    rating: Rating | None = None  # in the scope asked (the server)
    rating_matches: int = 0
    global_rating: Rating | None = None
    accuracy: float | None = None  # the review's (engine.ai.review_summary.accuracy_of); None: not reviewed yet
    accuracy_recent: tuple[float, ...] = ()  # per reviewed match, oldest first: the last few (accuracy over time)
    tournaments: int = 0  # closed tournaments of this server they played in
    best_placing: tuple[int, int] | None = None  # (place, entries in their field) of their best tournament
    rating_history: list[tuple[str, float, float]] = field(default_factory=list)  # (at, mu, sigma), oldest first
    monthly: list[tuple[str, float, int]] = field(default_factory=list)  # (YYYY-MM, points per hand, hands)

    @property
    def played(self) -> int:
        """Matches that count: finished ones and those the player abandoned."""
        return self.won + self.drawn + self.lost + self.abandoned

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None

    @property
    def made_rate(self) -> float | None:
        return self.chose_made / self.chose if self.chose else None

    @property
    def nat_rate(self) -> float | None:
        return self.chose_nat / self.chose if self.chose else None

    @property
    def roem_per_hand(self) -> float | None:
        return self.roem / self.hands if self.hands else None

    @property
    def points_per_hand(self) -> float | None:
        return self.score / self.hands if self.hands else None


@dataclass(frozen=True, slots=True)
class BoardEntry:
    rank: int
    player: str
    rating: Rating
    matches: int  # rated matches (in the period asked, when one is)


@dataclass(frozen=True, slots=True)
class BoardPage:
    entries: list[BoardEntry]
    page: int  # from 0
    pages: int  # at least 1
    total: int  # players on the board


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    table_id: int
    ended_at: str
    result: str
    team: str  # NS or EW: the player's team
    players: dict[str, list[str]]  # team -> players in seat order
    team_total: int
    other_total: int
    settings: dict[str, object]
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
