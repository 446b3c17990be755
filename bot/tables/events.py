"""What the table service tells its subscribers, after the change is stored."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

from bot.tables.model import Actor, Table
from engine.actions import Action
from engine.cards import Seat
from engine.events import Event


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    table: Table


@dataclass(frozen=True, slots=True)
class TableStarted:
    table: Table


@dataclass(frozen=True, slots=True)
class GameProgress:
    """One applied action and what the engine said about it."""

    table: Table
    version: int  # the table's version after the action
    seat: Seat | None
    action: Action
    actor: Actor
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class TurnReminder:
    table: Table
    seat: Seat
    user_id: int


@dataclass(frozen=True, slots=True)
class SeatAway:
    """A human missed two turns in a row: the AI keeps the seat until they are back."""

    table: Table
    seat: Seat
    user_id: int


class SeatChange(StrEnum):
    LEFT = "left"  # the AI took the seat over
    BACK = "back"  # from away
    TOOK_OVER = "took_over"  # someone took an AI seat
    WILL_TAKE_OVER = "will_take_over"  # someone takes an AI seat at the next deal


@dataclass(frozen=True, slots=True)
class SeatChanged:
    """Someone left (the AI took over), came back, or took over an AI seat."""

    table: Table
    seat: Seat
    change: SeatChange
    user_id: int | None


@dataclass(frozen=True, slots=True)
class TablePaused:
    """Nobody plays at the table in person any more (``Table.deserted``): it waits ``grace`` seconds for someone
    to take a seat or come back, then it stops."""

    table: Table
    grace: float


@dataclass(frozen=True, slots=True)
class TableStopped:
    table: Table
    by: int | None
    deserted: bool = False  # nobody played at it in person any more, nor came back in time (``Table.deserted``)


@dataclass(frozen=True, slots=True)
class LobbyExpired:
    """Nobody started the lobby in time: it is closed (stopped) without a game."""

    table: Table


@dataclass(frozen=True, slots=True)
class TableRestored:
    """The bot restarted and rebuilt this table from the store.

    ``replaying``: how many of its stored actions the front end had not finished announcing; a ``GameProgress``
    for each follows, in order, to announce them again (at least once beats never). None: the front end brings
    what shows the table now (hands, table message, prompt) up to date, and announces nothing again.
    """

    table: Table
    replaying: int = 0


@dataclass(frozen=True, slots=True)
class AutoplayStarted:
    """The AI plays this table to its end in every seat, without pauses (its tournament closed)."""

    table: Table


@dataclass(frozen=True, slots=True)
class CopyChanged:
    """A table another process owns changed here (``bot.tables.shared``): this process acted on it, or brought its
    copy up to date from the store. ``events``: what happened, as far as this process knows it: every action's
    ``GameProgress`` (with the engine's events), and what the copy's new state tells of the rest (a start, a stop,
    a seat left, taken over, away or back). The owner announces the table; this is for the subscribers that follow
    it in every process (the web pages)."""

    table: Table
    events: tuple[ServiceEvent, ...]  # never a CopyChanged


ServiceEvent = (LobbyChanged | TableStarted | GameProgress | TurnReminder | SeatAway | SeatChanged | TablePaused
                | TableStopped | LobbyExpired | TableRestored | AutoplayStarted | CopyChanged)
Subscriber = Callable[[ServiceEvent], Awaitable[None]]
