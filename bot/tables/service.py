"""The table service: running tables, their seats and games, AI turns, turn timers, events.

It knows nothing of Discord. Front ends call its coroutines with a user id and an action; it checks
who may act, applies the action to the engine under the table's lock, stores it (before anyone hears
of it) and then tells its subscribers. AI players and timers run as one driver task per table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.thinking import Thinker
from engine.actions import Action, Call, Choice, Claim
from engine.cards import SEATS, Card, Seat
from engine.errors import ErrorCode, IllegalActionError, KlaverjasError, NotYourTurnError
from engine.events import Event, TrickWon
from engine.game import Game, Phase
from engine.settings import Rules
from engine.view import SeatView, seat_view

log = logging.getLogger(__name__)

AI_LEVELS = ("easy", "normal", "hard")
FELTS = ("green", "navy", "burgundy")  # rendering.theme.FELTS
LANGUAGES = ("en", "nl")
MISSES_BEFORE_AWAY = 2


# --------------------------------------------------------------------------- values


class SeatKind(StrEnum):
    EMPTY = "empty"
    HUMAN = "human"
    AI = "ai"


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    STOPPED = "stopped"


class Actor(StrEnum):
    """Who made an action happen: recorded with each action."""

    HUMAN = "human"
    AI = "ai"  # an AI seat, or an AI keeping an away player's seat
    TIMER = "timer"  # a human's turn ran out and the AI played it
    CHANCE = "chance"  # deals and turned suits


@dataclass(slots=True)
class SeatInfo:
    kind: SeatKind = SeatKind.EMPTY
    user_id: int | None = None
    name: str = ""
    ai_level: str = "normal"
    away: bool = False  # a human whose turns the AI plays until "I'm back"
    misses: int = 0  # turns in a row that ran out
    delivery: str = "dm"  # "dm" or "thread": where this human's private hand goes
    dm_channel_id: int | None = None
    hand_message_id: int | None = None
    pending_user_id: int | None = None  # someone taking over this AI seat at the next deal
    pending_name: str = ""
    pending_delivery: str = "dm"

    @property
    def ai_plays(self) -> bool:
        return self.kind is SeatKind.AI or (self.kind is SeatKind.HUMAN and self.away)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "user_id": self.user_id, "name": self.name, "ai_level": self.ai_level,
                "away": self.away, "misses": self.misses, "delivery": self.delivery,
                "dm_channel_id": self.dm_channel_id, "hand_message_id": self.hand_message_id,
                "pending_user_id": self.pending_user_id, "pending_name": self.pending_name,
                "pending_delivery": self.pending_delivery}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatInfo:
        return cls(SeatKind(data.get("kind", "empty")), data.get("user_id"), data.get("name", ""),
                   data.get("ai_level", "normal"), bool(data.get("away")), int(data.get("misses", 0)),
                   data.get("delivery", "dm"), data.get("dm_channel_id"), data.get("hand_message_id"),
                   data.get("pending_user_id"), data.get("pending_name", ""), data.get("pending_delivery", "dm"))


@dataclass(frozen=True, slots=True)
class TableSettings:
    rules: Rules = field(default_factory=Rules)
    ai_level: str = "normal"
    felt: str = "green"
    four_colour: bool = False
    language: str = "en"

    def __post_init__(self) -> None:
        if self.ai_level not in AI_LEVELS:
            raise ServiceError(ServiceErrorCode.BAD_SETTING, {"key": "ai", "choices": ", ".join(AI_LEVELS)})
        if self.language not in LANGUAGES:
            raise ServiceError(ServiceErrorCode.BAD_SETTING, {"key": "language", "choices": ", ".join(LANGUAGES)})

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "ai_level": self.ai_level, "felt": self.felt,
                "four_colour": self.four_colour, "language": self.language}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TableSettings:
        data = data or {}
        return cls(Rules.from_dict(data.get("rules")), data.get("ai_level", "normal"), data.get("felt", "green"),
                   bool(data.get("four_colour", False)), data.get("language", "en"))

    def with_changes(self, **changes: Any) -> TableSettings:
        """Settings from text options (rules keys and ai_level/felt/four_colour/language); validated."""
        rule_changes = {k: v for k, v in changes.items() if k in Rules.__slots__ and v is not None}
        try:
            rules = self.rules.with_changes(**rule_changes) if rule_changes else self.rules
        except KlaverjasError as error:
            raise ServiceError(ServiceErrorCode.BAD_RULES, {"reason": str(error)}) from None
        felt = changes.get("felt") or self.felt
        return TableSettings(rules, changes.get("ai_level") or self.ai_level, felt,
                             bool(changes.get("four_colour", self.four_colour)),
                             changes.get("language") or self.language)


@dataclass(eq=False)
class Table:
    id: int
    host_id: int
    settings: TableSettings
    seed: int
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    prompt_message_id: int | None = None  # the bidding buttons now in the thread
    prompt_version: int | None = None  # the version those buttons were made for
    rematch_id: int | None = None  # the table opened by Rematch after this one
    status: TableStatus = TableStatus.LOBBY
    seats: list[SeatInfo] = field(default_factory=lambda: [SeatInfo() for _ in SEATS])
    game: Game = field(default_factory=Game)
    actors: list[Actor] = field(default_factory=list)  # parallel to game.actions
    stop_votes: set[int] = field(default_factory=set)
    last_acted: dict[Seat, int] = field(default_factory=dict)  # version at each seat's last own action
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    task_locked: bool = False  # the driver is applying an action: do not cancel it

    @property
    def version(self) -> int:
        """Grows by one per applied action; buttons carry it so stale clicks are refused."""
        return len(self.game.actions)

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    @property
    def running(self) -> bool:
        return self.status is TableStatus.PLAYING

    def seat_of(self, user_id: int) -> Seat | None:
        for seat in SEATS:
            info = self.seats[seat]
            if info.kind is SeatKind.HUMAN and info.user_id == user_id:
                return seat
        return None

    def pending_seat_of(self, user_id: int) -> Seat | None:
        for seat in SEATS:
            if self.seats[seat].pending_user_id == user_id:
                return seat
        return None

    def humans(self) -> list[tuple[Seat, SeatInfo]]:
        return [(seat, self.seats[seat]) for seat in SEATS if self.seats[seat].kind is SeatKind.HUMAN]

    def name_of(self, seat: Seat) -> str:
        info = self.seats[seat]
        return info.name or seat.letter

    def names(self) -> dict[Seat, str]:
        return {seat: self.name_of(seat) for seat in SEATS}

    def view(self, seat: Seat) -> SeatView:
        return seat_view(self.game, seat)


# --------------------------------------------------------------------------- events to subscribers


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


@dataclass(frozen=True, slots=True)
class SeatChanged:
    """Someone left (the AI took over), came back, or took over an AI seat."""

    table: Table
    seat: Seat
    reason: str  # "left", "back", "took_over", "will_take_over" (at the next deal)
    user_id: int | None


@dataclass(frozen=True, slots=True)
class TableStopped:
    table: Table
    by: int | None


@dataclass(frozen=True, slots=True)
class TableRestored:
    """The bot restarted and rebuilt this table from the store."""

    table: Table


ServiceEvent = (LobbyChanged | TableStarted | GameProgress | TurnReminder | SeatAway | SeatChanged | TableStopped
                | TableRestored)
Subscriber = Callable[[ServiceEvent], Awaitable[None]]


class Store(Protocol):
    """What the service needs from persistence (``bot.store.sqlite.SqliteStore`` implements it)."""

    async def create_table(self, table: Table) -> int: ...

    async def save_table(self, table: Table) -> None: ...

    async def append_action(self, table: Table, seq: int, action: Action, seat: Seat | None, actor: Actor,
                            user_id: int | None) -> None: ...

    async def load_running(self) -> list[tuple[Table, list[tuple[Action, Actor]]]]: ...

    async def load_table(self, table_id: int) -> Table | None: ...


ChooseFn = Callable[[str, int, SeatView], "Choice"]


def default_choose(level: str, seed: int, view: SeatView) -> Choice:
    """The AI's choice for ``view``; a fresh player per decision so a restart chooses the same."""
    from bot.tables.thinking import choose_action

    return choose_action(level, seed, view)


# --------------------------------------------------------------------------- the service


@dataclass
class ServiceConfig:
    ai_pause: float = 1.0  # seconds before an AI acts, so people can follow
    deal_pause: float = 2.0  # seconds between a hand's end and the next deal
    turn_time: float = 120.0  # seconds a human has for a turn; reminded at half time


class TableService:
    def __init__(self, store: Store | None = None, config: ServiceConfig | None = None,
                 choose: ChooseFn | None = None, thinker: Thinker | None = None) -> None:
        self.store = store
        self.config = config or ServiceConfig()
        self.choose = choose  # a replacement chooser (tests), run in a thread; else the thinker decides
        self.thinker = thinker or Thinker(0, warm=False)
        self.tables: dict[int, Table] = {}
        self._subscribers: list[Subscriber] = []
        self._next_id = 1
        self._closed = False
        # Each table's seed (deals, AI choices); replaceable so tests can repeat a table exactly.
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(1 << 62)

    # ------------------------------------------------------------ plumbing

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    async def _emit(self, event: ServiceEvent) -> None:
        for subscriber in list(self._subscribers):
            try:
                await subscriber(event)
            except Exception:  # a front end's failure must not undo or stop the game
                log.exception("subscriber failed on %s", type(event).__name__)

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ServiceError(ServiceErrorCode.NO_TABLE, {"table": table_id})
        return table

    async def _save(self, table: Table) -> None:
        if self.store is not None:
            await self.store.save_table(table)

    async def close(self) -> None:
        """Stop every driver task (the store keeps everything needed to continue)."""
        self._closed = True
        tasks = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until no table has a driver that is about to act (tests use this)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            busy = [t for t in self.tables.values() if t.lock.locked() or (
                t.task is not None and not t.task.done() and self._driver_will_act(t))]
            if not busy:
                return
            if loop.time() > deadline:
                raise TimeoutError("tables still busy: " + ", ".join(str(t.id) for t in busy))
            await asyncio.sleep(0.01)

    def _driver_will_act(self, table: Table) -> bool:
        game = table.game
        if not table.running:
            return False
        if game.phase in (Phase.DEAL, Phase.TURN_UP) or self._pending_ai_claim(table) is not None:
            return True
        return game.to_act is not None and table.seats[game.to_act].ai_plays

    # ------------------------------------------------------------ lobby

    async def create_table(self, *, host_id: int, host_name: str, settings: TableSettings,
                           guild_id: int | None = None, channel_id: int | None = None,
                           seed: int | None = None, delivery: str = "dm") -> Table:
        seed = seed if seed is not None else self.new_seed()
        table = Table(id=0, host_id=host_id, settings=settings, seed=seed, guild_id=guild_id, channel_id=channel_id,
                      game=Game(settings.rules))
        # The host sits South, as in the storyboard; partners sit opposite.
        table.seats[Seat.S] = SeatInfo(SeatKind.HUMAN, host_id, host_name, delivery=_delivery(delivery))
        await self._register(table)
        await self._emit(LobbyChanged(table))
        return table

    async def join(self, table_id: int, user_id: int, name: str, seat: Seat | None = None,
                   delivery: str = "dm") -> Seat:
        table = self.get(table_id)
        async with table.lock:
            if table.status is not TableStatus.LOBBY:
                raise ServiceError(ServiceErrorCode.NOT_LOBBY)
            if table.seat_of(user_id) is not None:
                raise ServiceError(ServiceErrorCode.ALREADY_SEATED, {"seat": table.seat_of(user_id)})
            free = [s for s in SEATS if table.seats[s].kind is not SeatKind.HUMAN]
            if seat is None:
                empty = [s for s in free if table.seats[s].kind is SeatKind.EMPTY]
                if not (empty or free):
                    raise ServiceError(ServiceErrorCode.TABLE_FULL)
                seat = (empty or free)[0]
            elif seat not in free:
                raise ServiceError(ServiceErrorCode.SEAT_TAKEN, {"seat": seat, "name": table.name_of(seat)})
            table.seats[seat] = SeatInfo(SeatKind.HUMAN, user_id, name, delivery=_delivery(delivery))
            await self._save(table)
            await self._emit(LobbyChanged(table))
            return seat

    async def leave(self, table_id: int, user_id: int) -> Seat:
        """In the lobby the seat empties; in a game an AI player takes it over."""
        table = self.get(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError(ServiceErrorCode.NOT_SEATED)
            if table.status is TableStatus.LOBBY:
                if user_id == table.host_id:
                    raise ServiceError(ServiceErrorCode.HOST_CANNOT_LEAVE)
                table.seats[seat] = SeatInfo()
                await self._save(table)
                await self._emit(LobbyChanged(table))
                return seat
            if not table.running:
                raise ServiceError(ServiceErrorCode.NOT_PLAYING)
            old = table.seats[seat]
            table.seats[seat] = SeatInfo(SeatKind.AI, None, "", table.settings.ai_level)
            await self._save(table)
            await self._emit(SeatChanged(table, seat, "left", old.user_id))
            self._schedule(table)
            return seat

    async def add_ai(self, table_id: int, user_id: int, level: str | None = None) -> Seat:
        table = self.get(table_id)
        async with table.lock:
            if table.status is not TableStatus.LOBBY:
                raise ServiceError(ServiceErrorCode.NOT_LOBBY)
            if table.seat_of(user_id) is None:
                raise ServiceError(ServiceErrorCode.NOT_SEATED)
            empty = [s for s in SEATS if table.seats[s].kind is SeatKind.EMPTY]
            if not empty:
                raise ServiceError(ServiceErrorCode.TABLE_FULL)
            table.seats[empty[0]] = SeatInfo(SeatKind.AI, None, "", level or table.settings.ai_level)
            await self._save(table)
            await self._emit(LobbyChanged(table))
            return empty[0]

    async def start(self, table_id: int, user_id: int) -> Table:
        table = self.get(table_id)
        async with table.lock:
            if table.status is not TableStatus.LOBBY:
                raise ServiceError(ServiceErrorCode.NOT_LOBBY)
            if user_id != table.host_id:
                raise ServiceError(ServiceErrorCode.NOT_HOST)
            for seat in SEATS:
                if table.seats[seat].kind is SeatKind.EMPTY:
                    table.seats[seat] = SeatInfo(SeatKind.AI, None, "", table.settings.ai_level)
            table.status = TableStatus.PLAYING
            await self._save(table)
            await self._emit(TableStarted(table))
            self._schedule(table)
            return table

    async def set_delivery(self, table_id: int, user_id: int, delivery: str) -> None:
        if delivery not in ("dm", "thread"):
            raise ServiceError(ServiceErrorCode.BAD_SETTING, {"key": "delivery", "choices": "dm, thread"})
        table = self.get(table_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError(ServiceErrorCode.NOT_SEATED)
        table.seats[seat].delivery = delivery
        await self._save(table)

    async def save_discord(self, table: Table) -> None:
        """The front end changed a Discord fact (thread, message id): persist it."""
        await self._save(table)

    # ------------------------------------------------------------ playing

    def _check_playing(self, table: Table, user_id: int) -> Seat:
        if table.status is TableStatus.LOBBY:
            raise ServiceError(ServiceErrorCode.NOT_STARTED)
        if not table.running:
            raise ServiceError(ServiceErrorCode.NOT_PLAYING)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError(ServiceErrorCode.NOT_SEATED)
        return seat

    async def act(self, table_id: int, user_id: int, action: Card | Call, version: int | None = None) -> GameProgress:
        """A human's call or card. ``version`` (from a button) must be the table's current one."""
        table = self.get(table_id)
        async with table.lock:
            seat = self._check_playing(table, user_id)
            game = table.game
            if game.to_act is not seat:
                # A second click on a button this seat already used is stale; anything else is out of turn.
                if version is not None and table.last_acted.get(seat, -1) >= version:
                    raise ServiceError(ServiceErrorCode.STALE)
                if game.to_act is None:
                    raise ServiceError(ServiceErrorCode.NOBODY_TO_ACT)
                raise NotYourTurnError("not your turn", seat=seat.letter, code=ErrorCode.NOT_YOUR_TURN,
                                       params={"seat": game.to_act.letter, "name": table.name_of(game.to_act)})
            if version is not None and version != table.version:
                raise ServiceError(ServiceErrorCode.STALE)
            info = table.seats[seat]
            if info.away:
                raise ServiceError(ServiceErrorCode.AWAY)
            acted_at = table.version
            progress = await self._apply(table, seat, action, Actor.HUMAN, user_id)
            table.last_acted[seat] = acted_at
            info.misses = 0
            self._schedule(table)
            return progress

    async def claim(self, table_id: int, user_id: int, version: int | None = None) -> GameProgress:
        """Declared roem: claim the roem of the trick just won, for the team that won it, once."""
        table = self.get(table_id)
        async with table.lock:
            seat = self._check_playing(table, user_id)
            if version is not None and version != table.version:
                raise ServiceError(ServiceErrorCode.STALE)
            hand = table.game.hand
            if table.game.can_claim() and hand is not None:
                trick = hand.tricks[-1]
                if seat.team is not trick.winner.team:
                    raise ServiceError(ServiceErrorCode.CLAIM_OTHER_TEAM, {"name": table.name_of(trick.winner)})
                if any(t == trick.index and s.team is seat.team for t, s in hand.claims):
                    raise ServiceError(ServiceErrorCode.ALREADY_CLAIMED)
            progress = await self._apply(table, seat, Claim(seat), Actor.HUMAN, user_id)
            self._schedule(table)
            return progress

    async def back(self, table_id: int, user_id: int) -> Seat:
        """'I'm back': the human takes their seat back from the AI."""
        table = self.get(table_id)
        async with table.lock:
            seat = self._check_playing(table, user_id)
            info = table.seats[seat]
            if not info.away:
                raise ServiceError(ServiceErrorCode.NOT_AWAY)
            info.away = False
            info.misses = 0
            await self._save(table)
            await self._emit(SeatChanged(table, seat, "back", user_id))
            self._schedule(table)
            return seat

    async def take_over(self, table_id: int, user_id: int, name: str, seat: Seat | None = None,
                        delivery: str = "dm") -> tuple[Seat, bool]:
        """Someone not at the table takes an AI seat between hands.

        Between hands (before any bid or card) the seat is theirs at once; during a hand it is reserved
        and they take it when the next hand is dealt. Returns the seat and whether it is theirs already.
        """
        table = self.get(table_id)
        async with table.lock:
            if not table.running:
                raise ServiceError(ServiceErrorCode.NOT_PLAYING)
            if table.seat_of(user_id) is not None:
                raise ServiceError(ServiceErrorCode.ALREADY_SEATED, {"seat": table.seat_of(user_id)})
            if table.pending_seat_of(user_id) is not None:
                raise ServiceError(ServiceErrorCode.ALREADY_RESERVED, {"seat": table.pending_seat_of(user_id)})
            ai_seats = [s for s in SEATS if table.seats[s].kind is SeatKind.AI]
            if seat is None:
                open_seats = [s for s in ai_seats if table.seats[s].pending_user_id is None]
                if not open_seats:
                    raise ServiceError(ServiceErrorCode.NO_AI_SEAT)
                seat = open_seats[0]
            elif seat not in ai_seats:
                raise ServiceError(ServiceErrorCode.SEAT_TAKEN, {"seat": seat, "name": table.name_of(seat)})
            elif table.seats[seat].pending_user_id is not None:
                raise ServiceError(ServiceErrorCode.SEAT_RESERVED,
                                   {"seat": seat, "name": table.seats[seat].pending_name})
            info = table.seats[seat]
            info.pending_user_id, info.pending_name, info.pending_delivery = user_id, name, _delivery(delivery)
            now = self._between_hands(table)
            if now:
                self._seat_pending(table, seat)
            await self._save(table)
            await self._emit(SeatChanged(table, seat, "took_over" if now else "will_take_over", user_id))
            self._schedule(table)
            return seat, now

    @staticmethod
    def _between_hands(table: Table) -> bool:
        hand = table.game.hand
        return table.game.phase is Phase.DEAL or (hand is not None and not hand.bids and not hand.plays
                                                 and table.game.phase is not Phase.PLAY)

    @staticmethod
    def _seat_pending(table: Table, seat: Seat) -> None:
        info = table.seats[seat]
        assert info.pending_user_id is not None
        table.seats[seat] = SeatInfo(SeatKind.HUMAN, info.pending_user_id, info.pending_name,
                                     delivery=info.pending_delivery)

    async def _take_pending_seats(self, table: Table) -> None:
        """Between hands: the reserved AI seats go to the people who asked for them. Caller holds the lock."""
        taken = [seat for seat in SEATS if table.seats[seat].kind is SeatKind.AI
                 and table.seats[seat].pending_user_id is not None]
        if not taken:
            return
        for seat in taken:
            self._seat_pending(table, seat)
        await self._save(table)
        for seat in taken:
            await self._emit(SeatChanged(table, seat, "took_over", table.seats[seat].user_id))

    async def rematch(self, table_id: int, user_id: int, name: str) -> Table:
        """After a match: a new table in the lobby with the same seats and settings; the clicker hosts it.

        Only once per match: a second click is told which table the rematch is.
        """
        table = self.tables.get(table_id)
        if table is None and self.store is not None:
            table = await self.store.load_table(table_id)
            if table is not None:
                self.tables[table.id] = table
        if table is None:
            raise ServiceError(ServiceErrorCode.NO_TABLE, {"table": table_id})
        async with table.lock:
            if table.status is not TableStatus.FINISHED:
                raise ServiceError(ServiceErrorCode.NOT_FINISHED)
            if table.seat_of(user_id) is None:
                raise ServiceError(ServiceErrorCode.NOT_SEATED)
            if table.rematch_id is not None:
                raise ServiceError(ServiceErrorCode.REMATCH_EXISTS, {"table": table.rematch_id})
            seats = [SeatInfo(info.kind, info.user_id, info.name, info.ai_level, delivery=info.delivery,
                              dm_channel_id=info.dm_channel_id) for info in table.seats]
            new = Table(id=0, host_id=user_id, settings=table.settings, seed=self.new_seed(),
                        guild_id=table.guild_id, channel_id=table.channel_id, seats=seats,
                        game=Game(table.settings.rules))
            new.seats[table.seat_of(user_id)].name = name  # type: ignore[index]
            await self._register(new)
            table.rematch_id = new.id
            await self._save(table)
        await self._emit(LobbyChanged(new))
        return new

    async def _register(self, table: Table) -> None:
        if self.store is not None:
            table.id = await self.store.create_table(table)
        else:
            table.id = self._next_id
        self._next_id = max(self._next_id, table.id + 1)
        self.tables[table.id] = table

    async def stop(self, table_id: int, user_id: int, *, can_manage: bool = False) -> bool:
        """The host or a moderator stops at once; other humans vote, and a majority stops it.

        Returns whether the table stopped (False: the vote was counted but is not yet a majority).
        """
        table = self.get(table_id)
        async with table.lock:
            if table.status in (TableStatus.FINISHED, TableStatus.STOPPED):
                raise ServiceError(ServiceErrorCode.NOT_PLAYING)
            humans = {info.user_id for _, info in table.humans()}
            if not (can_manage or user_id == table.host_id):
                if user_id not in humans:
                    raise ServiceError(ServiceErrorCode.NOT_ALLOWED_STOP)
                table.stop_votes.add(user_id)
                if len(table.stop_votes) * 2 <= len(humans):
                    return False
            table.status = TableStatus.STOPPED
            await self._save(table)
            if table.task is not None and not table.task_locked and table.task is not asyncio.current_task():
                table.task.cancel()
            await self._emit(TableStopped(table, user_id))
            return True

    def view_for(self, table_id: int, user_id: int) -> tuple[Table, Seat, SeatView]:
        table = self.get(table_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError(ServiceErrorCode.NOT_SEATED)
        return table, seat, table.view(seat)

    def find_user_table(self, user_id: int, channel_id: int | None = None) -> Table:
        """The running table where this user sits, preferring the one in ``channel_id`` (a thread)."""
        candidates = [t for t in self.tables.values()
                      if t.status in (TableStatus.PLAYING, TableStatus.LOBBY) and t.seat_of(user_id) is not None]
        for table in candidates:
            if channel_id is not None and channel_id in (table.thread_id, table.channel_id):
                return table
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise ServiceError(ServiceErrorCode.NOT_SEATED_ANYWHERE)
        raise ServiceError(ServiceErrorCode.WHICH_TABLE)

    def table_in_channel(self, channel_id: int | None) -> Table | None:
        for table in self.tables.values():
            if channel_id is not None and table.thread_id == channel_id:
                return table
        return None

    def table_here(self, user_id: int, channel_id: int | None) -> Table:
        """The table of this thread, else the table where the user sits (for commands anyone may use)."""
        table = self.table_in_channel(channel_id)
        return table if table is not None else self.find_user_table(user_id, channel_id)

    # ------------------------------------------------------------ applying and storing

    async def _apply(self, table: Table, seat: Seat | None, action: Action, actor: Actor,
                     user_id: int | None) -> GameProgress:
        """Apply to the engine, store, then announce. The caller holds the table's lock."""
        game = table.game
        events = game.apply(action, seat if not isinstance(action, Claim) else None)  # raises: nothing changed
        seq = len(game.actions) - 1
        if self.store is not None:
            try:
                await self.store.append_action(table, seq, action, seat, actor, user_id)
            except BaseException:
                # Not stored means not done: rebuild the game without it, so memory matches the store.
                table.game = _replay(table.rules, game.actions[:-1])
                raise
        table.actors.append(actor)
        if game.finished:
            table.status = TableStatus.FINISHED
            await self._save(table)
        progress = GameProgress(table, table.version, seat, action, actor, tuple(events))
        await self._emit(progress)
        return progress

    # ------------------------------------------------------------ the driver: chance, AI, timers

    def _schedule(self, table: Table) -> None:
        """(Re)start the table's driver for the state it is in now."""
        if self._closed:
            return
        current = asyncio.current_task()
        old = table.task
        if old is not None and old is not current and not old.done() and not table.task_locked:
            old.cancel()
        if not table.running:
            table.task = None
            return
        table.task = asyncio.get_running_loop().create_task(self._drive(table, table.version),
                                                            name=f"table-{table.id}")

    def _pending_ai_claim(self, table: Table) -> Seat | None:
        """Declared roem: an AI seat of the team that won roem in the last trick claims it."""
        game = table.game
        hand = game.hand
        if hand is None or not game.can_claim():
            return None
        trick = hand.tricks[-1]
        if not trick.roem or any(t == trick.index and s.team is trick.winner.team for t, s in hand.claims):
            return None
        for seat in trick.winner.team.seats:
            if table.seats[seat].ai_plays:
                return seat
        return None

    async def _drive(self, table: Table, version: int) -> None:
        try:
            await self._drive_once(table, version)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: driver failed", table.id)

    async def _drive_once(self, table: Table, version: int) -> None:
        game = table.game
        config = self.config
        claimer = self._pending_ai_claim(table)
        if claimer is not None:
            await asyncio.sleep(config.ai_pause)
            await self._driver_apply(table, version, claimer, Claim(claimer), Actor.AI)
            return
        if game.phase is Phase.OVER:
            return
        rng = random.Random(f"{table.seed}:{version}")  # stable across restarts: seed and position only
        if game.phase is Phase.DEAL:
            await asyncio.sleep(config.deal_pause if game.hands else 0)
            async with table.lock:
                if table.version != version or not table.running:
                    return
                table.task_locked = True
                try:
                    await self._take_pending_seats(table)
                finally:
                    table.task_locked = False
            from engine.game import random_deal

            following = game.next_dealer
            dealer = following if following is not None else SEATS[rng.randrange(4)]
            await self._driver_apply(table, version, None, random_deal(rng, dealer), Actor.CHANCE)
            return
        if game.phase is Phase.TURN_UP:
            from engine.actions import TurnUp

            suits = game.turnable_suits()
            await self._driver_apply(table, version, None, TurnUp(suits[rng.randrange(len(suits))]), Actor.CHANCE)
            return
        seat = game.to_act
        assert seat is not None
        info = table.seats[seat]
        if info.ai_plays:
            await asyncio.sleep(config.ai_pause)
            choice = await self._think(table, seat, version)
            await self._driver_apply(table, version, seat, choice, Actor.AI)
            return
        # A human's turn: remind at half time, let the AI play it at expiry.
        await asyncio.sleep(config.turn_time / 2)
        if table.version != version or not table.running:
            return
        assert info.user_id is not None
        await self._emit(TurnReminder(table, seat, info.user_id))
        await asyncio.sleep(config.turn_time / 2)
        if table.version != version or not table.running:
            return
        choice = await self._think(table, seat, version)
        async with table.lock:
            if table.version != version or not table.running or table.seats[seat] is not info:
                return
            table.task_locked = True
            try:
                info.misses += 1
                went_away = info.misses >= MISSES_BEFORE_AWAY
                if went_away:
                    info.away = True
                await self._save(table)
                await self._apply(table, seat, choice, Actor.TIMER, info.user_id)
                if went_away:
                    await self._emit(SeatAway(table, seat, info.user_id))
            finally:
                table.task_locked = False
            self._schedule(table)

    async def _think(self, table: Table, seat: Seat, version: int) -> Choice:
        view = table.view(seat)
        level = table.seats[seat].ai_level if table.seats[seat].kind is SeatKind.AI else "hard"
        seed = random.Random(f"ai:{table.seed}:{version}").randrange(1 << 31)
        # Thinking may take a while (PIMC): never on the event loop, in a worker process when configured.
        if self.choose is not None:
            return await asyncio.to_thread(self.choose, level, seed, view)
        return await self.thinker.choose(level, seed, view)

    async def _driver_apply(self, table: Table, version: int, seat: Seat | None, action: Action,
                            actor: Actor) -> None:
        async with table.lock:
            if table.version != version or not table.running:
                return  # someone acted meanwhile; a newer driver handles the new state
            table.task_locked = True
            try:
                try:
                    await self._apply(table, seat, action, actor, None)
                except IllegalActionError:
                    log.exception("table %s: the AI chose an illegal action %r", table.id, action)
                    legal = table.game.legal_actions()
                    if not legal:
                        raise
                    await self._apply(table, seat, legal[0], actor, None)
            finally:
                table.task_locked = False
            self._schedule(table)

    # ------------------------------------------------------------ restart

    async def restore(self) -> list[Table]:
        """Rebuild every running table from the store by replaying its actions."""
        if self.store is None:
            return []
        restored: list[Table] = []
        for table, actions in await self.store.load_running():
            table.game = _replay(table.rules, [action for action, _ in actions])
            table.actors = [actor for _, actor in actions]
            self.tables[table.id] = table
            self._next_id = max(self._next_id, table.id + 1)
            restored.append(table)
        for table in restored:
            await self._emit(TableRestored(table))
            self._schedule(table)
        return restored


def _delivery(value: str | None) -> str:
    return value if value in ("dm", "thread") else "dm"


def _replay(rules: Rules, actions: Sequence[Action]) -> Game:
    game = Game(rules)
    game.apply_all(actions)
    return game


def trick_needs_claim(events: Sequence[Event]) -> TrickWon | None:
    for event in events:
        if isinstance(event, TrickWon) and event.needs_claim:
            return event
    return None
