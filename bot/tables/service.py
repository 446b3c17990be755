"""The table service: the one entry point front ends use, knowing nothing of Discord.

Front ends call its coroutines with a user id and an action; it checks who may act, applies the action
to the engine under the table's lock, stores it (before anyone hears of it) and then tells its
subscribers. The table model is in ``bot.tables.model``, the events in ``bot.tables.events``; what
happens without a click (chance, AI players, turn timers) is ``bot.tables.driver``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from bot import access
from bot.tables.driver import ChooseFn, ServiceConfig, TableDriver
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.events import (
    AutoplayStarted,
    GameProgress,
    LobbyChanged,
    SeatChange,
    SeatChanged,
    Subscriber,
    TableRestored,
    TableStarted,
    TableStopped,
)
from bot.tables.model import Actor, Delivery, SeatInfo, SeatKind, Table, TableSettings, TableStatus
from bot.tables.registry import Store, TableRegistry, replay
from bot.tables.reviews import Reviews, ReviewStore
from bot.tables.shards import Shards
from bot.tables.shared import POLL_SECONDS, SharedStore, SharedTables
from bot.tables.thinking import Thinker
from bot.texts.language import Language
from engine.actions import Call, Claim, Decline
from engine.ai.players import Level
from engine.cards import SEATS, Card, Seat
from engine.errors import ErrorCode, NotYourTurnError
from engine.game import Game, Phase
from engine.view import SeatView

__all__ = ["OpenPlace", "PostLobby", "ServiceConfig", "TableService"]  # what a front end builds and configures

log = logging.getLogger(__name__)

# Posts a new table's lobby message (or, at a restore, finds the one posted) and returns its id; raises when
# it could not be posted.
PostLobby = Callable[[Table], Awaitable[int]]
# Makes a tournament table's private place (a thread) and returns its channel id; raises when it could not.
OpenPlace = Callable[[Table], Awaitable[int]]

AUTOPLAY_STALL = 120.0  # seconds without a new action before ``finish_by_ai`` stops waiting for a table


class TableService:
    def __init__(self, store: Store | None = None, config: ServiceConfig | None = None,
                 choose: ChooseFn | None = None, thinker: Thinker | None = None, *,
                 front_end_stores_end: bool = False, shards: Shards | None = None,
                 shared_store: SharedStore | None = None, poll_seconds: float = POLL_SECONDS,
                 choose_on_loop: bool = False) -> None:
        """Builds its parts in the order they need each other: the reviews, the registry (which tells the reviews
        of each stored end), the driver (which changes tables through the registry), and, when ``shared_store``
        says other processes share the store, this process's part in that (``bot.tables.shared``: the tables its
        ``shards`` hold are its own).

        ``front_end_stores_end``: the front end announces from its own task and calls ``store_end`` once a finished
        game's end went out (until then the store keeps the game running, to announce it again after a crash).

        ``choose_on_loop``: ``choose`` takes no time (a benchmark's first legal action), so it runs on the event loop
        rather than in a thread."""
        thinker = thinker or Thinker(0, warm=False)
        config = config or ServiceConfig()
        shards = shards or Shards()
        # Of several processes sharing a store, the one running shard 0 reviews what a stop left unreviewed.
        self.reviews = Reviews(store if config.reviews and isinstance(store, ReviewStore) else None, thinker,
                               catches_up=shards.first)
        self.registry = TableRegistry(store, front_end_stores_end=front_end_stores_end, on_end=self.reviews.request)
        self.driver = TableDriver(self.registry, config, thinker, choose, choose_on_loop)
        self.shared = SharedTables(self.registry, self.driver, shared_store, shards, poll_seconds) \
            if shared_store is not None else None
        if self.shared is not None:
            self.registry.share(self.shared)
        # Each table's seed (deals, AI choices); replaceable so tests can repeat a table exactly.
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(1 << 62)
        self.clock: Callable[[], float] = time.monotonic  # for the hint cooldown; tests move it by hand
        self._hinted: dict[int, float] = {}  # user id -> when their last hint was asked
        self._opening = _KeyedLocks()  # by channel: held while a lobby opens there
        self._hosting = _KeyedLocks()  # by host: held while they open a table (before the channel's lock)

    # ------------------------------------------------------------ plumbing

    @property
    def tables(self) -> dict[int, Table]:
        return self.registry.tables

    def subscribe(self, subscriber: Subscriber) -> None:
        """Hear of every change of the tables this process owns (``bot.tables.events``), and, as a ``CopyChanged``,
        of the changes of the others' tables that this process learns of (when other processes share the store)."""
        self.registry.subscribe(subscriber)

    def table_in_memory(self, table_id: int) -> Table | None:
        """The table, while memory holds it (live, or over a little while); None otherwise (the store has it)."""
        return self.registry.tables.get(table_id)

    def tournament_table(self, tournament_id: int, host_id: int) -> Table | None:
        """The tournament table in memory that ``host_id`` plays at (one per entry), if there is one."""
        return next((table for table in self.registry.tables.values()
                     if table.tournament_id == tournament_id and table.host_id == host_id), None)

    async def mark_announced(self, table: Table, count: int) -> None:
        """The front end finished announcing the table's first ``count`` actions."""
        await self.registry.mark_announced(table, count)

    async def store_end(self, table: Table) -> None:
        """A finished game's end was announced: store it as finished (under the table's lock, as every write of a
        table that another process may share)."""
        async with table.lock:
            await self.registry.store_end(table)

    def get(self, table_id: int) -> Table:
        return self.registry.get(table_id)

    async def close(self) -> None:
        """Stop every driver task and the reviews (the store keeps everything needed to continue)."""
        await self.driver.close()
        await self.reviews.close()

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until no table has a driver that is about to act (tests use this)."""
        await self.driver.idle(timeout)

    async def restore(self, post: PostLobby | None = None) -> list[Table]:
        """Rebuild every lobby and running table from the store by replaying its actions.

        A lobby whose message id was not stored (the bot stopped between storing the lobby and storing its
        message's id) gets it from ``post``: the front end finds the message it posted, else posts it now, so
        what the players may have seen keeps working and nobody waits for a lobby they cannot see. Without
        ``post``, when that fails too, or once the lobby is past its time, it is dropped: nobody can see or
        join it. Any other lobby past its time expires right away.
        """
        store = self.registry.store
        if store is None:
            return []
        restored: list[Table] = []
        for table, actions in await store.load_running():
            if table.status is TableStatus.LOBBY and table.lobby_message_id is None \
                    and not await self._find_lobby_message(table, post):
                await store.delete_lobby(table.id)
                continue
            # The announcements run behind the actions: those not announced in full are applied one by one after
            # the restore notice, and announced again as they happen (at least once). Those the store says went
            # out are not told twice: the front end only brings what shows the table now up to date. A table
            # stored before announcements were counted announces its last action again.
            announced = await store.announced(table.id)
            done = max(0, len(actions) - 1 if announced is None else min(len(actions), announced))
            if not self.registry.owns(table):
                done = len(actions)  # another process announces it (bot.tables.shared)
            table.game = replay(table.rules, [action for action, _ in actions[:done]])
            table.actors = [actor for _, actor in actions]
            if table.game.finished and done == len(actions):
                # Its end went out, and the bot stopped before storing it as finished (``store_end``).
                table.status = TableStatus.FINISHED
                table.end_unannounced = self.registry.front_end_stores_end
            self.registry.add(table)
            restored.append(table)
            async with table.lock:
                await self.registry.emit(TableRestored(table, len(actions) - done))
                for action, actor in actions[done:]:
                    seat = action.seat if isinstance(action, Claim | Decline) else \
                        table.game.to_act if isinstance(action, Card | Call) else None
                    events = table.game.apply(action)
                    if table.game.finished:
                        table.status = TableStatus.FINISHED  # its end was stored, not all of it announced
                        table.end_unannounced = self.registry.front_end_stores_end
                        self.registry.reindex(table)
                    await self.registry.emit(GameProgress(table, table.version, seat, action, actor, tuple(events)))
                if table.status is TableStatus.FINISHED and not self.registry.front_end_stores_end:
                    await self.registry.store_end(table)
            self.driver.schedule(table)
        await self.reviews.catch_up()
        return restored

    async def _find_lobby_message(self, table: Table, post: PostLobby | None) -> bool:
        """Give a restored lobby without a message id its message (``restore``); False when it has none."""
        store = self.registry.store
        if post is None or store is None or time.time() >= table.opened_at + self.driver.config.lobby_timeout:
            return False
        try:
            table.lobby_message_id = await post(table)
        except Exception as error:  # the front end said why in its log; the lobby goes as if never posted
            log.warning("table %s: a restored lobby has no message (%s): dropped", table.id, error)
            return False
        await store.save_table(table)
        return True

    # ------------------------------------------------------------ lobby

    async def create_table(self, *, host_id: int, host_name: str, settings: TableSettings,
                           guild_id: int | None = None, channel_id: int | None = None,
                           seed: int | None = None, delivery: Delivery = Delivery.DM,
                           post: PostLobby | None = None, language: Language | None = None,
                           plain_channel: bool = False) -> Table:
        """Open a lobby in ``channel_id``: one table per thread, one open lobby per channel.

        With ``post`` the table exists only once its lobby message does: when posting fails the table is
        deleted again and the error raised. ``plain_channel``: the front end knows the channel is no thread, so
        it is no table's thread either, and the store is not asked (one read less at every start).
        """
        async with self._hosting.hold(host_id), self._opening.hold(channel_id):
            self._check_host_limit(host_id)
            await self._check_can_open(channel_id, plain_channel)
            seed = seed if seed is not None else self.new_seed()
            table = Table(id=0, host_id=host_id, settings=settings, seed=seed, guild_id=guild_id,
                          channel_id=channel_id, game=Game(settings.rules))
            # The host sits South, as in the storyboard; partners sit opposite.
            table.seats[Seat.S] = SeatInfo(SeatKind.HUMAN, host_id, host_name, delivery=delivery, language=language)
            await self.registry.register(table)
            await self._publish(table, post)
        return table

    def _check_host_limit(self, user_id: int) -> None:
        """Refuse a new table to someone who hosts ``tables_per_host`` tables already (in the lobby or playing) and
        sits at them."""
        # The tables they sit at (an index, not a walk through every table); a host who left one is no longer at it.
        hosted = [table.id for table in self.registry.live_of_user(user_id)
                  if table.host_id == user_id and not table.closed and table.tournament_id is None]
        if len(hosted) >= self.driver.config.tables_per_host:
            raise ServiceError(ServiceErrorCode.TOO_MANY_TABLES, {
                "count": len(hosted), "tables": ", ".join(map(str, hosted))})

    async def _check_can_open(self, channel_id: int | None, plain_channel: bool = False) -> None:
        """Refuse a new lobby where it would be a second table: in a table's thread (also one that ended),
        in a channel where a game plays without a thread of its own, or next to an open lobby."""
        if channel_id is None:
            return
        in_thread = self.registry.in_thread(channel_id)
        store = self.registry.store
        owner = in_thread.id if in_thread is not None else (
            await store.table_in_thread(channel_id) if store is not None and not plain_channel else None)
        if owner is not None:
            raise ServiceError(ServiceErrorCode.THREAD_HAS_TABLE, {"table": owner})
        for table in self.registry.live_in_channel(channel_id):
            if table.status is TableStatus.LOBBY:
                raise ServiceError(ServiceErrorCode.LOBBY_OPEN_HERE, {"table": table.id, "host": table.host_name})
            if table.thread_id is None:
                raise ServiceError(ServiceErrorCode.TABLE_PLAYS_HERE, {"table": table.id})

    async def _publish(self, table: Table, post: PostLobby | None) -> None:
        """Post the new lobby (deleting it again if that fails), then start its expiry timer."""
        if post is None:
            await self.registry.emit(LobbyChanged(table))
        else:
            try:
                message_id = await post(table)
            except BaseException:
                await self.registry.discard(table)
                raise
            await self.keep_lobby_message(table, message_id)
        self.driver.schedule(table)

    async def join(self, table_id: int, user_id: int, name: str, seat: Seat | None = None,
                   delivery: Delivery = Delivery.DM, language: Language | None = None) -> Seat:
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
            table.seats[seat] = SeatInfo(SeatKind.HUMAN, user_id, name, delivery=delivery, language=language)
            await self.registry.save(table)
            await self.registry.emit(LobbyChanged(table))
            return seat

    async def leave(self, table_id: int, user_id: int) -> Seat:
        """In the lobby the seat empties; in a game an AI player takes it over."""
        table = self.get(table_id)
        _not_at_a_tournament(table)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError(ServiceErrorCode.NOT_SEATED)
            if table.status is TableStatus.LOBBY:
                if user_id == table.host_id:
                    raise ServiceError(ServiceErrorCode.HOST_CANNOT_LEAVE)
                table.vacate(seat, SeatInfo())
                await self.registry.save(table)
                await self.registry.emit(LobbyChanged(table))
                return seat
            if not table.running:
                raise ServiceError(ServiceErrorCode.NOT_PLAYING)
            old = table.vacate(seat, SeatInfo(SeatKind.AI, None, "", table.settings.ai_level))
            await self.registry.save(table)
            await self.registry.emit(SeatChanged(table, seat, SeatChange.LEFT, old.user_id))
            self.driver.schedule(table)
            return seat

    async def add_ai(self, table_id: int, user_id: int, level: Level | None = None) -> Seat:
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
            await self.registry.save(table)
            await self.registry.emit(LobbyChanged(table))
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
            await self.registry.save(table)
            await self.registry.emit(TableStarted(table))
            self.driver.schedule(table)
            return table

    async def forget(self, user_id: int) -> None:
        """``forget-me``: the user's id and everything about them leave the store. Refused while they sit at a
        table in the lobby or in play, whose seat needs them (they leave it first)."""
        live = self.registry.live_of_user(user_id)
        if live:
            raise ServiceError(ServiceErrorCode.STILL_SEATED, {"table": ", ".join(f"#{t.id}" for t in live)})
        if self.registry.store is not None:
            await self.registry.store.forget_user(user_id)

    async def set_delivery(self, table_id: int, user_id: int, delivery: Delivery) -> None:
        table = self.get(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError(ServiceErrorCode.NOT_SEATED)
            table.seats[seat].delivery = delivery
            await self.registry.save(table)

    def owns(self, table_id: int) -> bool:
        """This process announces the table and runs its timers and AI turns (``TableRegistry.owns``)."""
        table = self.tables.get(table_id)
        return table is None or self.registry.owns(table)

    async def fetch(self, table_id: int) -> None:
        """A table another process sharing the store opened, that this one has not heard of yet (a click can come
        before the notice): kept here from now on. Nothing when the store is this process's alone."""
        if table_id not in self.tables and self.registry.shared is not None:
            await self.registry.shared.load(table_id)

    async def up_to_date(self, table_id: int) -> Table | None:
        """The table in memory (``table_in_memory``), as the store has it now: with other processes sharing the
        store this one's copy may be a notice behind (a seat taken elsewhere a moment ago), so it is brought up to
        date first, under the table's lock (``bot.tables.shared``); a live table not heard of yet is taken."""
        if self.registry.shared is None:
            return self.table_in_memory(table_id)
        await self.fetch(table_id)
        table = self.table_in_memory(table_id)
        if table is not None:
            async with table.lock:  # which refreshes the copy
                pass
        return self.table_in_memory(table_id)

    async def keep_discord(self, table: Table, change: Callable[[], object]) -> None:
        """The front end learnt a Discord fact (a thread, a message id): ``change`` makes it, under the table's
        lock, and it is stored; so a process sharing the store neither misses it nor writes over it."""
        async with table.lock:
            change()
            await self.registry.save(table)

    async def keep_lobby_message(self, table: Table, message_id: int) -> None:
        """The lobby's message id, stored once: both the post that made it and a click on it that came before the
        post's answer learn it, and the second to arrive has nothing to store (nor a lock to take)."""
        if table.lobby_message_id is not None:
            return
        async with table.lock:
            if table.lobby_message_id is None:
                table.lobby_message_id = message_id
                await self.registry.save(table)

    def prompt_pending(self, table: Table, seat: Seat, version: int) -> bool:
        """The front end is telling ``seat`` it is their turn at ``version``: until it reports the prompt
        delivered, that turn does not count as missed (``bot.tables.driver``). False when that turn was
        already being told."""
        return self.driver.prompt_pending(table, seat, version)

    def prompt_delivered(self, table: Table, seat: Seat, version: int) -> None:
        """The prompt of ``seat``'s turn at ``version`` reached the player."""
        self.driver.prompt_delivered(table, seat, version)

    # ------------------------------------------------------------ playing

    def _check_playing(self, table: Table, user_id: int) -> Seat:
        if table.status is TableStatus.LOBBY:
            raise ServiceError(ServiceErrorCode.NOT_STARTED)
        if not table.running:
            raise ServiceError(ServiceErrorCode.NOT_PLAYING)
        if table.autoplay:
            raise ServiceError(ServiceErrorCode.TOURNAMENT_AUTOPLAY)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError(ServiceErrorCode.NOT_SEATED)
        return seat

    async def act(self, table_id: int, user_id: int, action: Card | Call, version: int | None = None,
                  on_stored: Callable[[], None] | None = None,
                  on_applied: Callable[[], None] | None = None) -> GameProgress:
        """A human's call or card. ``version`` (from a button) must be the table's current one; ``on_stored``
        is called once the action is committed, before it is announced, ``on_applied`` just before it is
        stored (``TableRegistry.apply``)."""
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
            progress = await self.registry.apply(table, seat, action, Actor.HUMAN, user_id, on_stored, on_applied)
            table.last_acted[seat] = acted_at
            info.misses = 0
            self.driver.schedule(table)
            return progress

    async def claim(self, table_id: int, user_id: int, version: int | None = None,
                    on_stored: Callable[[], None] | None = None) -> GameProgress:
        """Declared roem: claim the roem of the trick just completed for the seat's team, once (``on_stored``:
        as for ``act``).

        A claim from a team that may not claim the trick (``Game.may_claim``: it lost it, and with held stuk
        played no trump king or queen in it) is refused politely; the refusal rests on what everybody sees, so it
        tells nothing about the trick's roem. A claim the team may make is the engine's to judge, a false one
        included.
        """
        table = self.get(table_id)
        async with table.lock:
            seat = self._check_playing(table, user_id)
            if version is not None and version != table.version:
                raise ServiceError(ServiceErrorCode.STALE)
            game = table.game
            hand = game.hand
            if game.can_claim() and hand is not None:
                if game.has_claimed(seat.team):
                    raise ServiceError(ServiceErrorCode.ALREADY_CLAIMED)
                winner = hand.tricks[-1].winner
                if not game.may_claim(seat.team):
                    raise ServiceError(ServiceErrorCode.CLAIM_OTHER_TEAM, {"name": table.name_of(winner)})
            progress = await self.registry.apply(table, seat, Claim(seat), Actor.HUMAN, user_id, on_stored)
            self.driver.schedule(table)
            return progress

    async def decline(self, table_id: int, user_id: int, version: int | None = None,
                      on_stored: Callable[[], None] | None = None) -> GameProgress:
        """After the last trick (the engine's claim phase): the asked seat lets its roem go; the hand settles
        (``on_stored``: as for ``act``)."""
        table = self.get(table_id)
        async with table.lock:
            seat = self._check_playing(table, user_id)
            if version is not None and version != table.version:
                raise ServiceError(ServiceErrorCode.STALE)
            progress = await self.registry.apply(table, seat, Decline(seat), Actor.HUMAN, user_id, on_stored)
            table.seats[seat].misses = 0
            self.driver.schedule(table)
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
            await self.registry.save(table)
            await self.registry.emit(SeatChanged(table, seat, SeatChange.BACK, user_id))
            self.driver.schedule(table)
            return seat

    async def take_over(self, table_id: int, user_id: int, name: str, seat: Seat | None = None,
                        delivery: Delivery = Delivery.DM, language: Language | None = None) -> tuple[Seat, bool]:
        """Someone not at the table takes an AI seat between hands.

        Between hands (the last hand settled, the next not dealt) the seat is theirs at once; once a hand is dealt
        it is reserved and they take it when the next hand is dealt, so they see that hand only (also one who sat
        in another seat of this hand and left it). Returns the seat and whether it is theirs already.
        """
        table = self.get(table_id)
        _not_at_a_tournament(table)
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
            info.pending_user_id, info.pending_name, info.pending_delivery = user_id, name, delivery
            info.pending_language = language
            now = table.between_hands
            if now:
                table.hand_over_pending(seat)
            await self.registry.save(table)
            change = SeatChange.TOOK_OVER if now else SeatChange.WILL_TAKE_OVER
            await self.registry.emit(SeatChanged(table, seat, change, user_id))
            self.driver.schedule(table)
            return seat, now

    async def rematch(self, table_id: int, user_id: int, name: str, post: PostLobby | None = None,
                      language: Language | None = None) -> Table:
        """After a match: a new table in the lobby with the same seats and settings; the clicker hosts it.

        Once per match: a second click is told which table the rematch is, unless that one was stopped
        (or expired) meanwhile. The match may have left memory already: then it is read from the store.
        ``post`` as for ``create_table``; the lobby opens in the match's channel, as any other lobby.
        """
        channel_id = (await self._table_anywhere(table_id)).channel_id
        async with self._hosting.hold(user_id), self._opening.hold(channel_id):
            table = await self._table_anywhere(table_id)  # again: another click may have changed it meanwhile
            _not_at_a_tournament(table)
            async with table.lock:
                if table.status is not TableStatus.FINISHED:
                    raise ServiceError(ServiceErrorCode.NOT_FINISHED)
                seat = table.seat_of(user_id)
                if seat is None:
                    raise ServiceError(ServiceErrorCode.NOT_SEATED)
                if table.rematch_id is not None and await self._status_of(table.rematch_id) not in (
                        None, TableStatus.STOPPED):
                    raise ServiceError(ServiceErrorCode.REMATCH_EXISTS, {"table": table.rematch_id})
                self._check_host_limit(user_id)
                await self._check_can_open(channel_id)
                seats = [SeatInfo(info.kind, info.user_id, info.name, info.ai_level, delivery=info.delivery,
                                  dm_channel_id=info.dm_channel_id, language=info.language)
                         for info in table.seats]
                new = Table(id=0, host_id=user_id, settings=table.settings, seed=self.new_seed(),
                            guild_id=table.guild_id, channel_id=channel_id, seats=seats,
                            game=Game(table.settings.rules))
                new.seats[seat].name = name
                new.seats[seat].language = language or new.seats[seat].language
                await self.registry.register(new)
                await self._publish(new, post)
                table.rematch_id = new.id
                await self.registry.save(table)
        return new

    async def _table_anywhere(self, table_id: int) -> Table:
        """A table from memory, else (not kept there) from the store."""
        table = self.tables.get(table_id)
        store = self.registry.store
        if table is None and store is not None:
            table = await store.load_table(table_id)
        if table is None:
            raise ServiceError(ServiceErrorCode.NO_TABLE, {"table": table_id})
        return table

    async def _status_of(self, table_id: int) -> TableStatus | None:
        try:
            return (await self._table_anywhere(table_id)).status
        except ServiceError:
            return None

    async def stop(self, table_id: int, user_id: int, *, can_manage: bool = False) -> bool:
        """The host or a moderator stops at once; other humans vote, and a majority stops it.

        Returns whether the table stopped (False: the vote was counted but is not yet a majority).
        """
        table = self.get(table_id)
        _not_at_a_tournament(table)
        async with table.lock:
            if table.status in (TableStatus.FINISHED, TableStatus.STOPPED):
                raise ServiceError(ServiceErrorCode.NOT_PLAYING)
            humans = {info.user_id for _, info in table.humans()}
            if not (can_manage or user_id == table.host_id):
                if user_id not in humans:
                    raise ServiceError(ServiceErrorCode.NOT_ALLOWED_STOP)
                # Only the votes of people still seated count, however a voter lost their seat (``Table.vacate``
                # drops the vote of one who leaves here; another process's change arrives as a new seat).
                table.stop_votes &= humans
                table.stop_votes.add(user_id)
                if len(table.stop_votes) * 2 <= len(humans):
                    return False
            table.status = TableStatus.STOPPED
            table.stopped_by = user_id
            await self.registry.save(table)
            self.driver.schedule(table)  # stops the game's driver; the table leaves memory a while later
            await self.registry.emit(TableStopped(table, user_id))
            return True

    # ------------------------------------------------------------ tournament tables

    async def create_tournament_table(self, *, tournament_id: int, seed: int, settings: TableSettings, guild_id: int,
                                      channel_id: int, players: dict[Seat, tuple[int, str, Delivery]],
                                      open_place: OpenPlace, languages: dict[Seat, Language] | None = None) -> Table:
        """A tournament entry's table, started at once: the participant South (a pair North and South), AI players
        in the other seats at the settings' level, the tournament's seed (so its deals).

        ``open_place`` makes the table's private place (a thread) before anything is dealt and returns its channel
        id; when it fails, the table is deleted again and the error raised. Until the table starts it is stored
        as a lobby without a message, which a restart drops.
        """
        table = Table(id=0, host_id=players[Seat.S][0], settings=settings, seed=seed, guild_id=guild_id,
                      channel_id=channel_id, tournament_id=tournament_id, game=Game(settings.rules))
        for seat in SEATS:
            if seat in players:
                user_id, name, delivery = players[seat]
                table.seats[seat] = SeatInfo(SeatKind.HUMAN, user_id, name, delivery=delivery,
                                             language=(languages or {}).get(seat))
            else:
                table.seats[seat] = SeatInfo(SeatKind.AI, None, "", settings.ai_level)
        await self.registry.register(table)
        try:
            table.thread_id = await open_place(table)
        except BaseException:
            await self.registry.discard(table)
            raise
        async with table.lock:
            table.status = TableStatus.PLAYING
            await self.registry.save(table)
            await self.registry.emit(TableStarted(table))
            self.driver.schedule(table)
        return table

    async def finish_by_ai(self, table_id: int) -> Table:
        """Play a running table to its end with the AI in every seat and no pauses (its tournament closed); returns
        once the game is over, or when it stalls (the driver failed: logged there) for ``AUTOPLAY_STALL``."""
        table = self.get(table_id)
        async with table.lock:
            if table.running and not table.autoplay:
                table.autoplay = True
                await self.registry.emit(AutoplayStarted(table))
                self.driver.schedule(table)
        loop = asyncio.get_running_loop()
        version, since = table.version, loop.time()
        while table.running:
            left = since + AUTOPLAY_STALL - loop.time()
            if left <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.registry.next_change(table), left)
            if table.version != version:
                version, since = table.version, loop.time()
        return table

    # ------------------------------------------------------------ finding tables

    def view_for(self, table_id: int, user_id: int) -> tuple[Table, Seat, SeatView]:
        """The user's seat and its private view, as ``bot.access`` allows (their own seat); refused otherwise."""
        table = self.get(table_id)
        seen = access.private_view(table, user_id)
        if seen is None:
            raise ServiceError(ServiceErrorCode.NOT_SEATED)
        seat, view = seen
        return table, seat, view

    def find_user_table(self, user_id: int, channel_id: int | None = None, *,
                        where: Callable[[Table], bool] | None = None) -> Table:
        """The live table where this user sits, preferring the one in ``channel_id`` (a thread); among those
        ``where`` accepts (the front end's: the tables of the server asked in)."""
        candidates = [t for t in self.registry.live_of_user(user_id)
                      if t.seat_of(user_id) is not None and (where is None or where(t))]
        for table in candidates:
            if channel_id is not None and channel_id in (table.thread_id, table.channel_id):
                return table
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise ServiceError(ServiceErrorCode.NOT_SEATED_ANYWHERE)
        raise ServiceError(ServiceErrorCode.WHICH_TABLE)

    def table_in_channel(self, channel_id: int | None) -> Table | None:
        """The table whose thread this is (while it is in memory)."""
        return self.registry.in_thread(channel_id) if channel_id is not None else None

    def lobby_in_channel(self, channel_id: int | None) -> Table | None:
        """The open lobby of this channel (there is at most one)."""
        if channel_id is None:
            return None
        return next((t for t in self.registry.live_in_channel(channel_id) if t.status is TableStatus.LOBBY), None)

    def table_here(self, user_id: int, channel_id: int | None, *,
                   where: Callable[[Table], bool] | None = None) -> Table:
        """The table of this thread, else the table where the user sits (for commands anyone may use); only
        tables ``where`` accepts (as for ``find_user_table``)."""
        table = self.table_in_channel(channel_id)
        if table is not None and (where is None or where(table)):
            return table
        return self.find_user_table(user_id, channel_id, where=where)

    # ------------------------------------------------------------ hints

    def hint_view(self, table_id: int, user_id: int) -> SeatView:
        """What the strong player is asked about for this user's hint; starts their cooldown.

        Refused when it is not their turn, on the last trick's claim question (declared roem), when their
        last hint was under ``hint_cooldown`` seconds ago, and when the hint worker has a full queue already
        (AI moves never wait for hints: their worker is another).
        """
        _table, _seat, view = self.view_for(table_id, user_id)
        if not view.my_turn or not view.legal:
            raise ServiceError(ServiceErrorCode.NO_HINT)
        if view.phase is Phase.CLAIM:  # the strong player would claim what it counts: spotting it is the point
            raise ServiceError(ServiceErrorCode.NO_HINT_ROEM)
        config = self.driver.config
        now = self.clock()
        last = self._hinted.get(user_id)
        if last is not None and now - last < config.hint_cooldown:
            raise ServiceError(ServiceErrorCode.HINT_COOLDOWN,
                               {"seconds": math.ceil(config.hint_cooldown - (now - last))})
        if self.driver.thinker.hints_waiting >= config.hint_queue:
            raise ServiceError(ServiceErrorCode.HINTS_BUSY)
        # Only the cooldowns still running are kept: the map stays as small as the people hinting now.
        self._hinted = {user: at for user, at in self._hinted.items() if now - at < config.hint_cooldown}
        self._hinted[user_id] = now
        return view


def _not_at_a_tournament(table: Table) -> None:
    """A tournament table keeps its participant and plays to its end: nobody takes a seat, leaves, stops it or
    asks a rematch (the tournament's closing finishes it)."""
    if table.tournament_id is not None:
        raise ServiceError(ServiceErrorCode.TOURNAMENT_TABLE)


class _KeyedLocks:
    """One lock per key, kept only while someone holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[int | None, tuple[asyncio.Lock, int]] = {}  # key -> (lock, holders and waiters)

    @contextlib.asynccontextmanager
    async def hold(self, key: int | None) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
