"""A table as the service keeps it: settings, four seats, a status and the engine's game."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from enum import StrEnum
from types import TracebackType
from typing import Any, TypeVar

from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.texts.language import Language
from engine.actions import Deal
from engine.ai.players import Level
from engine.ai.review_summary import MatchReview, accuracy_of
from engine.cards import SEATS, Seat
from engine.errors import KlaverjasError, SettingsError
from engine.game import Game, Phase
from engine.settings import MAX_MATCH_HANDS, MAX_MATCH_TARGET, MIN_MATCH_TARGET, Rules, parse_length
from engine.view import PublicView, SeatView, public_view, seat_view
from rendering.theme import DEFAULT_FELT, FELTS

Choice = TypeVar("Choice", bound=StrEnum)


class TableLock:
    """One table's lock: one coroutine at a time in this process and, where several processes share the store
    (``bot.tables.shared`` sets ``guard``), one process at a time, with the table brought up to date first."""

    def __init__(self) -> None:
        self._local = asyncio.Lock()
        self.guard: Callable[[], AbstractAsyncContextManager[None]] | None = None
        self._held: AbstractAsyncContextManager[None] | None = None

    def locked(self) -> bool:
        return self._local.locked()

    @contextlib.asynccontextmanager
    async def in_process(self) -> AsyncIterator[None]:
        """This process's copy, held still while it is read: no other process is kept out, nor is the copy
        brought up to date first. For the owner's announcements, which show the copy as it is: whatever another
        process did reaches the copy by its own refresh, which then announces it again."""
        async with self._local:
            yield

    async def __aenter__(self) -> None:
        await self._local.acquire()
        if self.guard is None:
            return
        held = self.guard()
        try:
            await held.__aenter__()
        except BaseException:
            self._local.release()
            raise
        self._held = held

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        held, self._held = self._held, None
        try:
            if held is not None:
                await held.__aexit__(kind, error, trace)
        finally:
            self._local.release()


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


class Delivery(StrEnum):
    """Where a human's private hand goes."""

    DM = "dm"
    THREAD = "thread"


def choice_of(kind: type[Choice], value: str, key: str) -> Choice:
    """``value`` as a member of ``kind``; a setting the table refuses (``key`` names it) otherwise."""
    try:
        return kind(value)
    except ValueError:
        raise ServiceError(ServiceErrorCode.BAD_SETTING, {"key": key, "choices": ", ".join(kind)}) from None


@dataclass(slots=True)
class SeatInfo:
    kind: SeatKind = SeatKind.EMPTY
    user_id: int | None = None
    name: str = ""
    ai_level: Level = Level.NORMAL
    away: bool = False  # a human whose turns the AI plays until "I'm back"
    misses: int = 0  # turns in a row that ran out
    delivery: Delivery = Delivery.DM
    dm_channel_id: int | None = None
    hand_message_id: int | None = None
    pending_user_id: int | None = None  # someone taking over this AI seat at the next deal
    pending_name: str = ""
    pending_delivery: Delivery = Delivery.DM
    # The language the person reads their private messages in (their Discord client's); None: the table's.
    language: Language | None = None
    pending_language: Language | None = None

    @property
    def ai_plays(self) -> bool:
        return self.kind is SeatKind.AI or (self.kind is SeatKind.HUMAN and self.away)


@dataclass(frozen=True, slots=True)
class TableSettings:
    rules: Rules = field(default_factory=Rules)
    ai_level: Level = Level.NORMAL
    felt: str = DEFAULT_FELT  # a key of rendering.theme.FELTS
    four_colour: bool = False
    language: Language = Language.EN

    def __post_init__(self) -> None:
        # Options and stored rows arrive as text: checked here, once, and kept as enum members.
        object.__setattr__(self, "ai_level", choice_of(Level, self.ai_level, "ai"))
        object.__setattr__(self, "language", choice_of(Language, self.language, "language"))
        if not isinstance(self.felt, str) or self.felt not in FELTS:  # "@everyone" or 3,000 x's is no felt
            raise ServiceError(ServiceErrorCode.BAD_SETTING, {"key": "theme", "choices": ", ".join(FELTS)})

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "ai_level": self.ai_level.value, "felt": self.felt,
                "four_colour": self.four_colour, "language": self.language.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TableSettings:
        data = data or {}
        felt = data.get("felt", DEFAULT_FELT)
        if not (isinstance(felt, str) and felt in FELTS):
            felt = DEFAULT_FELT  # stored before felts were checked: drawn as the default, as rendering does
        return cls(Rules.from_dict(data.get("rules")), data.get("ai_level", Level.NORMAL), felt,
                   bool(data.get("four_colour", False)), data.get("language", Language.EN))

    def with_changes(self, **changes: Any) -> TableSettings:
        """Settings from text options (rules keys and ai_level/felt/four_colour/language); validated."""
        rule_changes = {k: v for k, v in changes.items() if k in Rules.__slots__ and v is not None}
        if "length" in rule_changes:
            try:
                parse_length(str(rule_changes["length"]))
            except SettingsError:  # said in the player's language, with the bounds
                raise ServiceError(ServiceErrorCode.BAD_LENGTH, {"text": str(rule_changes["length"]),
                                                                 "hands": MAX_MATCH_HANDS,
                                                                 "target": MAX_MATCH_TARGET,
                                                                 "minimum": MIN_MATCH_TARGET}) from None
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
    # The tournament this table belongs to (bot.tournaments): one participant (or pair) against AI players, no
    # turn timer, no rematch, no seat taken over; its deals come from the tournament's seed. Statistics that rate
    # matches skip these tables (tables.tournament_id in the store).
    tournament_id: int | None = None
    opened_at: float = field(default_factory=time.time)  # wall clock, so a lobby's age survives a restart
    status: TableStatus = TableStatus.LOBBY
    seats: list[SeatInfo] = field(default_factory=lambda: [SeatInfo() for _ in SEATS])
    game: Game = field(default_factory=Game)
    actors: list[Actor] = field(default_factory=list)  # parallel to game.actions
    stop_votes: set[int] = field(default_factory=set)
    stopped_by: int | None = None  # who stopped the match (in memory: the statistics count it as abandoned)
    last_acted: dict[Seat, int] = field(default_factory=dict)  # version at each seat's last own action
    # seat -> (version of its turn, whether the front end got that turn's prompt to the player); in memory only
    turn_prompts: dict[Seat, tuple[int, bool]] = field(default_factory=dict)
    lock: TableLock = field(default_factory=lambda: TableLock(), repr=False)
    # How often the store had written the table when this copy last matched it: another process sharing the
    # store (bot.tables.shared) wrote it when the store's differs.
    revision: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)  # the driver (bot.tables.driver)
    task_locked: bool = False  # the driver is applying an action: do not cancel it
    # The AI plays every seat to the end, without pauses (a tournament closed before this table finished); in
    # memory only: after a restart the tournament's closing sets it again.
    autoplay: bool = False
    # Finished, its end not announced yet (a front end that stores the end itself): in memory only.
    end_unannounced: bool = False
    # The version at which the table was last said to wait for someone to come back (``TablePaused``), so a pause
    # is said once; in memory only.
    paused_at: int | None = None
    # The public view of the game's state now, with the game and the action count it was built at, and the seats'
    # views of that state: each is built once per change, for the web pages, the onlookers and the AI alike.
    _public: tuple[Game, int, PublicView] | None = field(default=None, init=False, repr=False)
    _seat_views: dict[Seat, SeatView] = field(default_factory=dict, init=False, repr=False)

    @property
    def version(self) -> int:
        """Grows by one per applied action; buttons carry it so stale clicks are refused."""
        return len(self.game.actions)

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    @property
    def stored_status(self) -> TableStatus:
        """The status the store keeps: a finished game whose end is not announced yet stays playing there,
        whatever else about the table is saved meanwhile (a Rematch click, a message id), so a restart in
        between restores it and announces its end again."""
        return TableStatus.PLAYING if self.end_unannounced else self.status

    @property
    def running(self) -> bool:
        return self.status is TableStatus.PLAYING

    @property
    def closed(self) -> bool:
        return self.status in (TableStatus.FINISHED, TableStatus.STOPPED)

    @property
    def between_hands(self) -> bool:
        """The last hand is settled and the next not dealt: a seat may change hands now. Once a hand is dealt its
        seats keep their people until it is settled, so nobody sees two of its hands (leaving a seat and taking
        another, even before the first bid)."""
        return self.game.phase is Phase.DEAL

    @property
    def deserted(self) -> bool:
        """Nobody plays at this running table in person any more: every human left it and nobody reserved a seat,
        or (between hands) every human seated was away for the whole last hand. The driver then lets it wait for
        someone to come back, and ends it (``bot.tables.driver``). Never a tournament's table (its participant keeps
        the seat, without a turn timer) or one the AI plays out."""
        if not self.running or self.autoplay or self.tournament_id is not None:
            return False
        if any(info.pending_user_id is not None for info in self.seats):
            return False
        humans = [info for _, info in self.humans()]
        if not humans:
            return True
        return self.between_hands and all(info.away for info in humans) and self._last_hand_unattended()

    def _last_hand_unattended(self) -> bool:
        """Nobody acted in the last hand in person, nor did the turn timer for anyone: every human at the table was
        away for all of it (each seat acts in every hand, so a present one would have)."""
        actions = self.game.actions
        start = next((i for i in range(len(actions) - 1, -1, -1) if isinstance(actions[i], Deal)), None)
        return start is not None and all(actor in (Actor.AI, Actor.CHANCE) for actor in self.actors[start:])

    @property
    def host_name(self) -> str:
        seat = self.seat_of(self.host_id)
        return self.seats[seat].name if seat is not None else ""

    def stoppers(self) -> set[int]:
        """Who stopped the match or voted to stop it (a stopped match is abandoned for them)."""
        return self.stop_votes | ({self.stopped_by} if self.stopped_by is not None else set())

    def ai_plays(self, seat: Seat) -> bool:
        """Whether the AI acts for this seat now: an AI seat, an away human, or any seat of a table on autoplay."""
        return self.autoplay or self.seats[seat].ai_plays

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

    def private_language(self, seat: Seat) -> Language:
        """The language of the seat's private messages: its person's, else the table's."""
        return self.seats[seat].language or self.settings.language

    def humans(self) -> list[tuple[Seat, SeatInfo]]:
        return [(seat, self.seats[seat]) for seat in SEATS if self.seats[seat].kind is SeatKind.HUMAN]

    def name_of(self, seat: Seat) -> str:
        info = self.seats[seat]
        return info.name or seat.letter

    def view(self, seat: Seat) -> SeatView:
        """What ``seat`` knows now (``engine.view.seat_view``), built once per change."""
        public = self.public_view()
        found = self._seat_views.get(seat)
        if found is None:
            found = self._seat_views[seat] = seat_view(self.game, seat, public)
        return found

    def public_view(self) -> PublicView:
        """What everybody at the table sees now, built once per change (the game changes only by an action added, or
        by being replaced)."""
        game = self.game
        cached = self._public
        if cached is None or cached[0] is not game or cached[1] != len(game.actions):
            cached = self._public = (game, len(game.actions), public_view(game))
            self._seat_views.clear()
        return cached[2]

    def vacate(self, seat: Seat, successor: SeatInfo) -> SeatInfo:
        """The seat's human leaves it to ``successor`` (nobody in the lobby, an AI in a game); returns the seat they
        left. Their vote to stop goes with them: a stop needs a majority of the people still at the table."""
        old = self.seats[seat]
        self.seats[seat] = successor
        if old.user_id is not None:
            self.stop_votes.discard(old.user_id)
        return old

    def hand_over_pending(self, seat: Seat) -> None:
        """The person who reserved this AI seat sits in it now."""
        info = self.seats[seat]
        assert info.pending_user_id is not None
        self.seats[seat] = SeatInfo(SeatKind.HUMAN, info.pending_user_id, info.pending_name,
                                    delivery=info.pending_delivery, language=info.pending_language)


class ReviewStatus(StrEnum):
    DONE = "done"
    FAILED = "failed"  # the review broke off (a bug): nothing to show, not tried again by itself


@dataclass(frozen=True, slots=True)
class StoredReview:
    """A finished match's review as the store keeps it."""

    table_id: int
    guild_id: int | None
    status: ReviewStatus
    review: MatchReview


@dataclass(frozen=True, slots=True)
class AccuracyPoint:
    """One reviewed match of one person: accuracy over time for ``/stats``."""

    table_id: int
    guild_id: int | None
    finished_at: str  # when the match ended (ISO 8601, UTC)
    decisions: int
    stake: float  # points at stake in the decisions that were a real choice
    kept: float  # and the part of them the decisions kept
    lost: float  # points lost in all
    hands: int

    @property
    def accuracy(self) -> float:
        return accuracy_of(self.kept, self.stake)



@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A finished match someone played in, for choosing one (``/klaverjas review`` autocomplete)."""

    table_id: int
    finished_at: str
    names: tuple[str, str, str, str]  # by seat: the people's names, "" for an AI seat
