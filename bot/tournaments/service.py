"""Tournaments: create, join (alone or as a pair), standings, close; knows nothing of Discord.

Each entry plays a table of its own through the table service (``TableService.create_tournament_table``): the
participant South (a pair North and South), AI players in the other seats, the tournament's seed, so every
entry gets the same deals and turned suits and meets the same AI answers where it plays alike. An entry's
result is read from its table when the standings are asked for or the tournament closes (the table's stored
actions are the truth; nothing has to be told in time). At the closing, tables still playing are finished by
the AI (``TableService.finish_by_ai``) and marked so, then the front end announces the final standings.

Refusals are ``ServiceError``s, worded by ``bot.texts``; nothing changes when one is raised.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.access import tournament_figures
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import Actor, Delivery, Table, TableSettings
from bot.tables.service import OpenPlace, TableService
from bot.texts.language import Language
from bot.tournaments.model import (
    DAILY_CREATOR,
    DAILY_HOURS,
    DEFAULT_HANDS,
    MAX_HANDS,
    MAX_HOURS,
    MAX_OPEN_TOURNAMENTS,
    MAX_PARTICIPANTS_LIMIT,
    MIN_HOURS,
    NAME_LIMIT,
    DuplicateEntry,
    Entry,
    Tournament,
    TournamentConfig,
    TournamentStatus,
)
from bot.tournaments.standings import Standings, placing, standings
from engine.actions import Action, Call, Claim, Decline
from engine.cards import Card, Seat, Team
from engine.game import Game

log = logging.getLogger(__name__)

# Tells the channel the final standings; True once posted (False: try again later).
Announce = Callable[[Tournament, Standings], Awaitable[bool]]
# Tells the channel a daily tournament opened.
Opened = Callable[[Tournament], Awaitable[None]]


class TournamentStore(Protocol):
    """What the tournaments need from persistence (``bot.store.tournaments.SqlTournamentStore`` implements it)."""

    async def create_tournament(self, tournament: Tournament) -> int: ...

    async def tournament(self, tournament_id: int) -> Tournament | None: ...

    async def tournaments(self, guild_id: int, *, open_only: bool = False, limit: int = 25) -> list[Tournament]: ...

    async def unsettled(self) -> list[Tournament]: ...

    async def daily_exists(self, guild_id: int, day: str) -> bool: ...

    async def set_status(self, tournament_id: int, status: TournamentStatus) -> None: ...

    async def set_announced(self, tournament_id: int) -> None: ...

    async def add_entry(self, entry: Entry) -> int: ...

    async def entries(self, tournament_id: int) -> list[Entry]: ...

    async def lost_by_hand(self, table_id: int, user_id: int) -> tuple[float, ...] | None: ...

    async def tournament_summary(self, guild_id: int, user_id: int) -> list[tuple[Tournament, list[Entry]]]: ...

    async def entry(self, entry_id: int) -> Entry | None: ...

    async def count_entries(self, tournament_id: int) -> int: ...

    async def confirm_entry(self, entry_id: int) -> None: ...

    async def set_entry_table(self, entry_id: int, table_id: int) -> None: ...

    async def finish_entry(self, entry_id: int, hand_scores: tuple[int, ...], by_ai: bool) -> None: ...

    async def delete_entry(self, entry_id: int) -> None: ...

    async def config(self, guild_id: int) -> TournamentConfig: ...

    async def set_config(self, config: TournamentConfig) -> None: ...

    async def daily_configs(self) -> list[TournamentConfig]: ...

    async def closed_daily(self, guild_id: int) -> list[tuple[Tournament, list[Entry]]]: ...

    async def load_table(self, table_id: int) -> Table | None: ...

    async def guild_defaults(self, guild_id: int) -> TableSettings | None: ...

    async def actions(self, table_id: int) -> list[tuple[Action, Actor]]: ...


class TournamentService:
    def __init__(self, store: TournamentStore, tables: TableService, clock: Callable[[], float] = time.time, *,
                 announce: Announce | None = None, opened: Opened | None = None) -> None:
        """``announce`` and ``opened`` are the front end's: it posts the final standings and a daily opening."""
        self.store = store
        self.tables = tables
        self.clock = clock  # wall clock (Unix seconds): closing times survive a restart; tests use a fake one
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(1 << 62)
        self.announce = announce
        self.opened = opened
        self._locks: dict[int, asyncio.Lock] = {}  # per tournament: joins and the closing one at a time
        self._closing: dict[int, asyncio.Task[None]] = {}
        self._creating: dict[int, asyncio.Lock] = {}  # per server: one tournament created at a time

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # ------------------------------------------------------------ creating

    async def create(self, *, guild_id: int, channel_id: int, creator_id: int, name: str, settings: TableSettings,
                     hands: int = DEFAULT_HANDS, hours: float = 24.0, max_participants: int = 10,
                     pairs: bool = True, daily: str | None = None, opened_at: float | None = None) -> Tournament:
        """A new open tournament; options out of range are refused with their allowed range."""
        name = " ".join(name.split())
        if not name or len(name) > NAME_LIMIT:
            raise ServiceError(ServiceErrorCode.BAD_TOURNAMENT_OPTION, {"key": "name", "low": 1, "high": NAME_LIMIT})
        _check_range("hands", hands, 1, MAX_HANDS)
        _check_range("max_participants", max_participants, 0, MAX_PARTICIPANTS_LIMIT)
        _check_range("hours", hours, MIN_HOURS, MAX_HOURS, whole=False)
        if not isinstance(pairs, bool):
            raise ServiceError(ServiceErrorCode.BAD_SETTING, {"key": "pairs", "choices": "true, false"})
        settings = settings.with_changes(length=str(hands))
        async with self._creating.setdefault(guild_id, asyncio.Lock()):  # the count and the new one at once
            if daily is None:  # the daily tournament is the server's own choice: never refused
                open_now = await self.store.tournaments(guild_id, open_only=True, limit=MAX_OPEN_TOURNAMENTS)
                if len(open_now) >= MAX_OPEN_TOURNAMENTS:
                    raise ServiceError(ServiceErrorCode.TOO_MANY_TOURNAMENTS, {"count": len(open_now)})
            opened = self.clock() if opened_at is None else opened_at
            tournament = Tournament(0, guild_id, channel_id, name, creator_id, settings, self.new_seed(), opened,
                                    opened + hours * 3600, max_participants, pairs, daily=daily)
            tournament.id = await self.store.create_tournament(tournament)
        return tournament

    async def get(self, tournament_id: int, guild_id: int | None) -> Tournament:
        """The tournament with this id in this server; the same refusal for an unknown id and another server's."""
        tournament = await self.store.tournament(tournament_id)
        if tournament is None or guild_id is None or tournament.guild_id != guild_id:
            raise ServiceError(ServiceErrorCode.NO_TOURNAMENT, {"tournament": tournament_id})
        return tournament

    async def choose(self, tournament_id: int | None, guild_id: int | None, *, open_only: bool = False) -> Tournament:
        """The named tournament, or without a name the one this server has (open ones first)."""
        if tournament_id is not None:
            return await self.get(tournament_id, guild_id)
        if guild_id is None:
            raise ServiceError(ServiceErrorCode.NO_TOURNAMENT, {"tournament": "?"})
        found = await self.store.tournaments(guild_id, open_only=True, limit=2)
        if not found and not open_only:
            found = (await self.store.tournaments(guild_id, limit=1))
        if len(found) == 1:
            return found[0]
        raise ServiceError(ServiceErrorCode.WHICH_TOURNAMENT if found else ServiceErrorCode.NO_TOURNAMENT,
                           {"tournament": "?"})

    async def name_and_status(self, tournament_id: int) -> tuple[str, TournamentStatus] | None:
        """The tournament's name and status (for ``bot.access``'s decisions on its tables); None when unknown."""
        tournament = await self.store.tournament(tournament_id)
        return (tournament.name, tournament.status) if tournament is not None else None

    # ------------------------------------------------------------ joining

    async def join(self, tournament_id: int, guild_id: int | None, user_id: int, name: str, *,
                   delivery: Delivery, open_place: OpenPlace, language: Language | None = None) -> tuple[Entry, Table]:
        """Enter alone (South, with an AI partner) and get a table; someone whose entry lost its table to a crash
        gets it now. Refused when the tournament is closed or full, or when they play in it already."""
        async with self._lock(tournament_id):
            tournament = await self._open(tournament_id, guild_id)
            entry = await self._entry_of(tournament_id, user_id)
            lost_table = entry is not None and not entry.pair and entry.confirmed and entry.table_id is None
            if entry is not None and not lost_table:
                if not (entry.user_id == user_id and not entry.confirmed):
                    raise ServiceError(ServiceErrorCode.ALREADY_ENTERED, {"tournament": tournament.name})
                await self.store.delete_entry(entry.id)  # their unconfirmed pair gives way to this entry
                entry = None
            if entry is None:
                await self._check_room(tournament)
                entry = Entry(0, tournament_id, user_id, name, self.clock())
                entry.id = await self.store.add_entry(entry)
            table = await self._open_table(tournament, entry, {Seat.S: (user_id, name, delivery)}, open_place,
                                           {Seat.S: language} if language is not None else None)
            return entry, table

    async def invite(self, tournament_id: int, guild_id: int | None, user_id: int, name: str, partner_id: int,
                     partner_name: str) -> tuple[Tournament, Entry]:
        """Enter as a pair with ``partner_id``, who must confirm (``confirm``); until then the place is kept."""
        async with self._lock(tournament_id):
            tournament = await self._open(tournament_id, guild_id)
            if not tournament.pairs:
                raise ServiceError(ServiceErrorCode.NO_PAIRS, {"tournament": tournament.name})
            if partner_id == user_id:
                raise ServiceError(ServiceErrorCode.PARTNER_SELF)
            own = await self._entry_of(tournament_id, user_id)
            if own is not None and not (own.user_id == user_id and not own.confirmed):
                raise ServiceError(ServiceErrorCode.ALREADY_ENTERED, {"tournament": tournament.name})
            if await self._entry_of(tournament_id, partner_id) is not None:
                raise ServiceError(ServiceErrorCode.PARTNER_ENTERED, {"name": partner_name})
            if own is not None:
                await self.store.delete_entry(own.id)  # an earlier invitation gives way to this one
            await self._check_room(tournament)
            entry = Entry(0, tournament_id, user_id, name, self.clock(), partner_id, partner_name, confirmed=False)
            entry.id = await self.store.add_entry(entry)
            return tournament, entry

    async def confirm(self, entry_id: int, user_id: int, guild_id: int | None, *, delivery: Delivery,
                      partner_delivery: Delivery, open_place: OpenPlace,
                      language: Language | None = None) -> tuple[Entry, Table]:
        """The invited partner agrees: the pair's table opens (the inviter South, the partner North).

        ``language`` is the partner's; the inviter's is not known here, so their private messages speak the
        table's."""
        entry = await self.store.entry(entry_id)
        if entry is None or entry.partner_id != user_id:
            raise ServiceError(ServiceErrorCode.NO_INVITE)
        async with self._lock(entry.tournament_id):
            tournament = await self._open(entry.tournament_id, guild_id)
            entry = await self.store.entry(entry_id)  # again, under the lock
            if entry is None or entry.partner_id != user_id or (entry.confirmed and entry.table_id is not None):
                raise ServiceError(ServiceErrorCode.NO_INVITE)
            if not entry.confirmed:
                elsewhere = await self._entry_of(tournament.id, user_id)
                if elsewhere is not None and elsewhere.id != entry.id:
                    raise ServiceError(ServiceErrorCode.ALREADY_ENTERED, {"tournament": tournament.name})
                await self.store.confirm_entry(entry.id)
                entry.confirmed = True
            assert entry.partner_id is not None
            players = {Seat.S: (entry.user_id, entry.name, partner_delivery),
                       Seat.N: (entry.partner_id, entry.partner_name, delivery)}
            table = await self._open_table(tournament, entry, players, open_place,
                                           {Seat.N: language} if language is not None else None)
            return entry, table

    async def _open(self, tournament_id: int, guild_id: int | None) -> Tournament:
        tournament = await self.get(tournament_id, guild_id)
        if not tournament.is_open or self.clock() >= tournament.closes_at:
            raise ServiceError(ServiceErrorCode.TOURNAMENT_CLOSED, {"tournament": tournament.name})
        return tournament

    async def _entry_of(self, tournament_id: int, user_id: int) -> Entry | None:
        """The entry this person plays in; an invitation they have not confirmed does not count."""
        for entry in await self.store.entries(tournament_id):
            if entry.user_id == user_id or (entry.partner_id == user_id and entry.confirmed):
                return entry
        return None

    async def _check_room(self, tournament: Tournament) -> None:
        if tournament.max_participants and await self.store.count_entries(tournament.id) >= tournament.max_participants:
            raise ServiceError(ServiceErrorCode.TOURNAMENT_FULL,
                               {"tournament": tournament.name, "max": tournament.max_participants})

    async def _open_table(self, tournament: Tournament, entry: Entry, players: dict[Seat, tuple[int, str, Delivery]],
                          open_place: OpenPlace, languages: dict[Seat, Language] | None = None) -> Table:
        """The entry's table; if the place cannot be made, an entry that never had a table is withdrawn. A table
        made for it before a crash cut the link (it plays on, restored) is linked again rather than made twice."""
        made = self.tables.tournament_table(tournament.id, entry.user_id)
        if made is not None:
            entry.table_id = made.id
            await self.store.set_entry_table(entry.id, made.id)
            return made
        try:
            table = await self.tables.create_tournament_table(
                tournament_id=tournament.id, seed=tournament.seed, settings=tournament.settings,
                guild_id=tournament.guild_id, channel_id=tournament.channel_id, players=players,
                open_place=open_place, languages=languages)
        except BaseException:
            if not entry.pair:
                await self.store.delete_entry(entry.id)
            raise
        entry.table_id = table.id
        await self.store.set_entry_table(entry.id, table.id)
        return table

    # ------------------------------------------------------------ standings

    async def standings(self, tournament: Tournament) -> Standings:
        """The standings now: finished tables are recorded on the way, running ones count with what they have."""
        entries = await self.store.entries(tournament.id)
        live: dict[int, tuple[int, ...]] = {}
        for entry in entries:
            if entry.finished or entry.table_id is None:
                continue
            state = await self._state_of(entry.table_id)
            if state is None:
                continue
            if state.over:
                await self._record(entry, state.scores, state.by_ai)
            else:
                live[entry.id] = state.scores
        return standings(tournament.hands, entries, live)

    async def _state_of(self, table_id: int) -> TableState | None:
        """The table's scores so far, whether it is over and whether the AI played for its people (from memory,
        else from the store, so it holds after a restart too)."""
        table = self.tables.table_in_memory(table_id)
        if table is not None:
            return table_state(table, table.game.actions, table.actors)
        stored = await self.store.load_table(table_id)
        if stored is None:
            return None
        actions = await self.store.actions(table_id)
        return table_state(stored, [action for action, _ in actions], [actor for _, actor in actions])

    async def _record(self, entry: Entry, scores: tuple[int, ...], by_ai: bool) -> None:
        await self.store.finish_entry(entry.id, scores, by_ai)
        entry.finished, entry.finished_by_ai, entry.hand_scores, entry.total = True, by_ai, scores, sum(scores)

    async def record_of(self, guild_id: int, user_id: int) -> tuple[int, tuple[int, int] | None]:
        """For ``/stats``: how many closed tournaments of this server the person played in, and their best placing
        (place, size of their field), by place then by the larger field."""
        played = await self.store.tournament_summary(guild_id, user_id)
        placings = [p for tournament, entries in played
                    if (p := placing(tournament_figures(standings(tournament.hands, entries, {}), user_id,
                                                        tournament.status), user_id)) is not None]
        return len(played), min(placings, key=lambda p: (p[0], -p[1])) if placings else None

    async def points_lost(self, entry: Entry) -> tuple[float, ...] | None:
        """Points the entry's player lost per hand, from the review of their table (bot.tables.reviews); None until
        it is reviewed, and the standings then leave that column out."""
        if entry.table_id is None or entry.user_id <= 0:
            return None
        return await self.store.lost_by_hand(entry.table_id, entry.user_id)

    # ------------------------------------------------------------ closing

    async def close(self, tournament_id: int, guild_id: int | None, user_id: int, *, can_manage: bool) -> Tournament:
        """The creator or a manager closes it now: no more entries; the closing then runs (``closing``)."""
        tournament = await self.get(tournament_id, guild_id)
        if not (can_manage or user_id == tournament.creator_id):
            raise ServiceError(ServiceErrorCode.NOT_ALLOWED_CLOSE, {"tournament": tournament.name})
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id, guild_id)
            if not tournament.is_open:
                raise ServiceError(ServiceErrorCode.TOURNAMENT_CLOSED, {"tournament": tournament.name})
            await self._begin_closing(tournament)
        return tournament

    async def _begin_closing(self, tournament: Tournament) -> None:
        tournament.status = TournamentStatus.CLOSING
        await self.store.set_status(tournament.id, TournamentStatus.CLOSING)
        self.closing(tournament)

    def closing(self, tournament: Tournament) -> asyncio.Task[None]:
        """The closing's task (one per tournament): finish the tables still playing, then announce."""
        task = self._closing.get(tournament.id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._settle(tournament), name=f"tournament-{tournament.id}")
            self._closing[tournament.id] = task
        return task

    async def _settle(self, tournament: Tournament) -> None:
        try:
            if tournament.status is TournamentStatus.CLOSING:
                await self._finish_tables(tournament)
                tournament.status = TournamentStatus.CLOSED
                await self.store.set_status(tournament.id, TournamentStatus.CLOSED)
            if not tournament.announced and self.announce is not None:
                final = await self.standings(tournament)
                if await self.announce(tournament, final):
                    tournament.announced = True
                    await self.store.set_announced(tournament.id)
        except Exception:
            log.exception("tournament %s: closing failed; the scheduler tries again", tournament.id)

    async def _finish_tables(self, tournament: Tournament) -> None:
        """Every table still playing is played to its end by the AI, all at once (each in its own task)."""
        entries = [e for e in await self.store.entries(tournament.id) if not e.finished and e.table_id is not None]

        async def finish(entry: Entry) -> None:
            assert entry.table_id is not None
            state = await self._state_of(entry.table_id)
            if state is not None and not state.over and self.tables.table_in_memory(entry.table_id) is not None:
                await self.tables.finish_by_ai(entry.table_id)
                state = await self._state_of(entry.table_id)
            if state is not None and state.over:
                await self._record(entry, state.scores, state.by_ai)
            else:
                log.warning("tournament %s: table %s could not be finished", tournament.id, entry.table_id)

        await asyncio.gather(*(finish(entry) for entry in entries))

    # ------------------------------------------------------------ the schedule (bot.tournaments.scheduler)

    async def run_due(self) -> None:
        """Everything due now: close tournaments past their time, carry on closings cut short (a restart),
        announce what was not announced, and open each server's daily tournament."""
        now = self.clock()
        for tournament in await self.store.unsettled():
            if tournament.is_open and now >= tournament.closes_at:
                async with self._lock(tournament.id):
                    await self._begin_closing(tournament)
            elif not tournament.is_open:
                self.closing(tournament)
        for config in await self.store.daily_configs():
            await self.open_daily(config, now)
        tasks = [task for task in self._closing.values() if not task.done()]
        if tasks:
            await asyncio.gather(*tasks)

    async def open_daily(self, config: TournamentConfig, now: float) -> Tournament | None:
        """The server's daily tournament of the latest opening time, unless it exists or its day is over."""
        opening = config.latest_opening(now)
        day = opening.date().isoformat()
        if config.channel_id is None or await self.store.daily_exists(config.guild_id, day):
            return None
        # The server's default table settings, a boompje, no limit on entries.
        settings = await self.store.guild_defaults(config.guild_id) or TableSettings()
        try:
            tournament = await self.create(guild_id=config.guild_id, channel_id=config.channel_id,
                                           creator_id=DAILY_CREATOR, name=day, settings=settings,
                                           hours=DAILY_HOURS, max_participants=0, daily=day,
                                           opened_at=opening.timestamp())
        except DuplicateEntry:  # made meanwhile: the day's unique key refused a second
            log.info("daily tournament of %s for server %s exists", day, config.guild_id)
            return None
        if self.opened is not None:
            try:
                await self.opened(tournament)
            except Exception:
                log.exception("tournament %s: could not announce the opening", tournament.id)
        return tournament

    def next_due(self, tournaments: Sequence[Tournament], configs: Sequence[TournamentConfig], now: float) -> float:
        """When something is next due (a closing or a daily opening), for the scheduler's sleep."""
        times = [t.closes_at for t in tournaments if t.is_open]
        times += [config.latest_opening(now).timestamp() + DAILY_HOURS * 3600 for config in configs]
        return min(times, default=now + 3600.0)

    async def daily_winners(self, guild_id: int) -> list[tuple[str, int]]:
        """The server's all-time table of daily tournament wins: (name, wins), most first. A shared first place
        is a win for each; the name is the latest one the winner played under."""
        wins: dict[tuple[int, ...], tuple[str, int]] = {}
        for tournament, entries in await self.store.closed_daily(guild_id):
            final = tournament_figures(standings(tournament.hands, entries, {}), None, tournament.status)
            for field in (final.solo, final.pairs):
                for row in field.winners:
                    key = row.entry.members
                    wins[key] = (row.entry.label, wins.get(key, ("", 0))[1] + 1)
        return sorted(wins.values(), key=lambda pair: (-pair[1], pair[0]))


@dataclass(frozen=True, slots=True)
class TableState:
    scores: tuple[int, ...]  # the entry's (NS) score of each settled hand
    over: bool
    by_ai: bool  # the AI played for one of its people (the closing finished it)


def table_state(table: Table, actions: Sequence[Action], actors: Sequence[Actor]) -> TableState:
    """An entry's table worked out from its actions: at a tournament table only the closing lets the AI act for a
    person (there is no turn timer), so an AI action at a human's seat marks the table finished by the AI."""
    humans = {seat for seat, _ in table.humans()}
    game = Game(table.rules)
    by_ai = False
    for action, actor in zip(actions, actors, strict=False):
        seat = game.to_act if isinstance(action, Card | Call) else action.seat if isinstance(action, Claim | Decline) \
            else None
        by_ai = by_ai or (seat in humans and actor is Actor.AI)
        game.apply(action)
    over = table.closed or game.finished
    return TableState(tuple(result.score[Team.NS] for result in game.results), over, by_ai and over)


def _check_range(key: str, value: float, low: float, high: float, *, whole: bool = True) -> None:
    # A number of the right kind too (not text, not a bool, not NaN), whatever a front end hands over.
    number = isinstance(value, int) if whole else isinstance(value, int | float)
    if isinstance(value, bool) or not number or not low <= value <= high:
        raise ServiceError(ServiceErrorCode.BAD_TOURNAMENT_OPTION, {"key": key, "low": low, "high": high})
