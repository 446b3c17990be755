"""A tournament as the bot keeps it: its settings and seed, its entries, and a server's tournament settings.

Every entry plays a table of its own (``bot.tables``; the table names its tournament) with the tournament's
seed, so every entry gets the same deals and turned suits. An entry is one person (South, AI partner North)
or a pair (South and North); pairs are ranked among pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from bot.tables.model import TableSettings

DEFAULT_HANDS = 16  # a boompje
DEFAULT_MAX_PARTICIPANTS = 10  # as the rules this project follows have it; 0 means no limit
DEFAULT_HOURS = 24.0
DAILY_HOURS = 24.0  # a daily tournament is open this long
DEFAULT_DAILY_HOUR = 19  # UTC
NAME_LIMIT = 80  # characters of a tournament's name
MAX_HANDS = 32
MIN_HOURS = 0.1  # six minutes: less is no tournament anyone could play
MAX_HOURS = 24.0 * 14
MAX_PARTICIPANTS_LIMIT = 1000
# Open tournaments a server may have at once (the daily one counts, and is never refused): each is a table per
# entry for the AI players to play, and a closing for the scheduler.
MAX_OPEN_TOURNAMENTS = 5
DAILY_CREATOR = 0  # the creator id of a daily tournament: the bot opened it


class DuplicateEntry(Exception):
    """The person already has an entry in this tournament, or the server its daily tournament of the day (the
    database's unique key said so)."""


class TournamentStatus(StrEnum):
    OPEN = "open"  # entries may join and play
    CLOSING = "closing"  # no more entries; the AI finishes the tables still playing
    CLOSED = "closed"  # every table is over: the standings are final


@dataclass
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    name: str
    creator_id: int
    settings: TableSettings  # of every table; its rules' length is ``hands`` hands
    seed: int
    opened_at: float  # Unix seconds
    closes_at: float  # Unix seconds
    max_participants: int = DEFAULT_MAX_PARTICIPANTS
    pairs: bool = True
    status: TournamentStatus = TournamentStatus.OPEN
    daily: str | None = None  # a daily tournament's UTC date (YYYY-MM-DD)
    announced: bool = False  # the final standings were posted

    @property
    def hands(self) -> int:
        hands = self.settings.rules.length.hands
        assert hands is not None, "a tournament is played over a number of hands"
        return hands

    @property
    def is_open(self) -> bool:
        return self.status is TournamentStatus.OPEN


@dataclass
class Entry:
    id: int
    tournament_id: int
    user_id: int  # South
    name: str
    joined_at: float
    partner_id: int | None = None  # a pair's North
    partner_name: str = ""
    confirmed: bool = True  # a pair counts once the partner confirmed
    table_id: int | None = None
    finished: bool = False
    finished_by_ai: bool = False
    total: int | None = None
    hand_scores: tuple[int, ...] | None = None  # per hand, the entry's (NS) score; kept once finished

    @property
    def pair(self) -> bool:
        return self.partner_id is not None

    @property
    def members(self) -> tuple[int, ...]:
        return (self.user_id,) if self.partner_id is None else (self.user_id, self.partner_id)

    @property
    def label(self) -> str:
        return f"{self.name} & {self.partner_name}" if self.pair else self.name


@dataclass
class TournamentConfig:
    """A server's tournament settings: the daily tournament and who may create tournaments."""

    guild_id: int
    daily: bool = False
    daily_hour: int = DEFAULT_DAILY_HOUR  # UTC
    channel_id: int | None = None  # where the daily tournament opens
    creator_role_id: int | None = None

    def latest_opening(self, now: float) -> datetime:
        """The daily tournament's latest opening time at or before ``now`` (UTC)."""
        at = datetime.fromtimestamp(now, UTC)
        opening = at.replace(hour=self.daily_hour, minute=0, second=0, microsecond=0)
        return opening if opening <= at else opening - timedelta(days=1)
