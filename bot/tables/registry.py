"""The live tables: kept in memory and in the store, and told to the subscribers, in that order.

Commands (``bot.tables.service``) and the driver (``bot.tables.driver``) both change tables through
here; ``apply`` is the one way an action reaches a game, ``save`` the one way any other change is kept.

Memory holds the tables in the lobby or playing, and finished or stopped ones only until the driver
evicts them (the store keeps them). Indexes by thread, channel and seated user answer the lookups of
every command without scanning all tables; ``save`` keeps them current.

Subscribers hear of a change while the table's lock is still held, so they hear of a table's changes in
the order they happened. They must only take note and return (the Discord announcer queues its messages
and sends them from its own task): a subscriber that waited here on a slow front end would freeze the
table's clicks, timers, stop and leave. Everything slow happens after the lock is released.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.events import CopyChanged, GameProgress, ServiceEvent, Subscriber
from bot.tables.model import Actor, Table, TableStatus
from engine.actions import Action, Claim
from engine.cards import Seat
from engine.events import Event
from engine.game import Game
from engine.settings import Rules

log = logging.getLogger(__name__)

T = TypeVar("T")

SLOW_SUBSCRIBER = 0.1  # seconds: a subscriber taking longer is doing work it should queue


class Store(Protocol):
    """What the service needs from persistence (``bot.store.base.SqlStore`` implements it)."""

    async def create_table(self, table: Table) -> int: ...

    async def save_table(self, table: Table) -> None: ...

    async def append_action(self, table: Table, seq: int, action: Action, seat: Seat | None, actor: Actor,
                            user_id: int | None, events: Sequence[Event] = ()) -> None: ...

    async def load_running(self) -> list[tuple[Table, list[tuple[Action, Actor]]]]: ...

    async def load_table(self, table_id: int) -> Table | None: ...

    async def delete_lobby(self, table_id: int) -> None: ...

    async def table_in_thread(self, thread_id: int) -> int | None: ...

    async def forget_user(self, user_id: int) -> None: ...

    async def set_announced(self, table_id: int, count: int) -> None: ...

    async def announced(self, table_id: int) -> int | None: ...


class Sharing(Protocol):
    """Other processes share the store (``bot.tables.shared.SharedTables``)."""

    def owns(self, table: Table) -> bool: ...

    def guard(self, table: Table) -> None: ...

    async def forward(self, event: ServiceEvent) -> None: ...

    async def load(self, table_id: int) -> Table | None: ...


LIVE = (TableStatus.LOBBY, TableStatus.PLAYING)


@dataclass(frozen=True, slots=True)
class _Keys:
    """Where one table is indexed, so re-indexing removes exactly the old entries."""

    thread_id: int | None
    channel_id: int | None  # only while the table is live
    users: frozenset[int]  # seated humans, only while the table is live


class TableRegistry:
    def __init__(self, store: Store | None, *, front_end_stores_end: bool = False,
                 on_end: Callable[[int], None] | None = None) -> None:
        """``front_end_stores_end``: a finished game is stored as finished only once its end is announced, so a
        crash before that leaves the table to be restored and its end announced again. A front end that announces
        from its own task says so here and calls ``store_end`` after the end went out; without one, ``apply``
        stores it. ``on_end`` is told the id of a finished game once its end is stored (the match reviews start
        there)."""
        self.store = store
        self.tables: dict[int, Table] = {}
        self._by_thread: dict[int, int] = {}
        self._by_channel: dict[int, set[int]] = {}
        self._by_user: dict[int, set[int]] = {}
        self._keys: dict[int, _Keys] = {}
        self._subscribers: list[Subscriber] = []
        self.front_end_stores_end = front_end_stores_end
        self.on_end = on_end
        # When other processes share the store: tables another process owns are announced there (``share``).
        self.shared: Sharing | None = None
        # Table id -> set at the table's next change (``changed``), for those waiting on it (``next_change``).
        self._changes: dict[int, asyncio.Event] = {}
        self._next_id = 1

    def share(self, shared: Sharing) -> None:
        """Other processes share the store. The one link made after construction: ``SharedTables`` keeps its
        copies in this registry, so it is built after it (by the table service, which links them at once)."""
        self.shared = shared
        for table in self.tables.values():
            shared.guard(table)

    def owns(self, table: Table) -> bool:
        """This process runs the table's timers and AI turns and announces it (all tables, unless shared)."""
        return self.shared is None or self.shared.owns(table)

    def changed(self, table: Table) -> None:
        """The table changed (an event, its copy brought up to date, or it left memory): wake who waits for it."""
        waiting = self._changes.pop(table.id, None)
        if waiting is not None:
            waiting.set()

    async def next_change(self, table: Table) -> None:
        """Return at the table's next change (``changed``): an event instead of polling."""
        await self._changes.setdefault(table.id, asyncio.Event()).wait()

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    async def emit(self, event: ServiceEvent) -> None:
        """Tell every subscriber, in order; the caller holds the table's lock (see the module's docstring). At a
        table another process owns, that process is told (its actions it reads from the store) and announces it;
        the subscribers here hear it as a ``CopyChanged``."""
        self.changed(event.table)
        if self.shared is not None and not self.shared.owns(event.table):
            await self.shared.forward(event)
            await self.tell_copy(CopyChanged(event.table, (event,)))
            return
        await self._tell(event)

    async def tell_copy(self, event: CopyChanged) -> None:
        """Tell the subscribers how a table another process owns changed here; nobody else is told (the owner
        hears of it from the store, or from ``emit``'s notice). The caller holds the table's lock."""
        self.changed(event.table)
        await self._tell(event)

    async def _tell(self, event: ServiceEvent) -> None:
        loop = asyncio.get_running_loop()
        for subscriber in list(self._subscribers):
            started = loop.time()
            try:
                await subscriber(event)
            except Exception:  # a front end's failure must not undo or stop the game
                log.exception("subscriber failed on %s", type(event).__name__)
            if loop.time() - started > SLOW_SUBSCRIBER:
                log.warning("a subscriber held table %s for %.2f s on %s", event.table.id, loop.time() - started,
                            type(event).__name__)

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ServiceError(ServiceErrorCode.NO_TABLE, {"table": table_id})
        return table

    async def register(self, table: Table) -> None:
        """Give a new table its id (the store's, when there is one) and keep it."""
        if self.store is not None:
            table.id = await self.store.create_table(table)
        else:
            table.id = self._next_id
        self.add(table)

    def add(self, table: Table) -> None:
        self._next_id = max(self._next_id, table.id + 1)
        self.tables[table.id] = table
        if self.shared is not None:
            self.shared.guard(table)
        self.reindex(table)

    def evict(self, table: Table) -> None:
        """Forget a table in memory (the store keeps it)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._unindex(table.id)
            self.changed(table)

    async def discard(self, table: Table) -> None:
        """A lobby that never got its message: gone from memory and from the store."""
        self.evict(table)
        if self.store is not None:
            await self.store.delete_lobby(table.id)

    async def save(self, table: Table) -> None:
        self.reindex(table)
        if self.store is not None:
            await self.store.save_table(table)

    # ------------------------------------------------------------ indexes

    def reindex(self, table: Table) -> None:
        """Index the table as it is now: its thread, and while it is live its channel and seated humans."""
        if self.tables.get(table.id) is not table:
            return  # evicted (or never kept): a late save must not bring it back
        live = table.status in LIVE
        keys = _Keys(table.thread_id, table.channel_id if live else None,
                     frozenset(info.user_id for _, info in table.humans() if info.user_id is not None and live))
        if self._keys.get(table.id) == keys:
            return
        self._unindex(table.id)
        self._keys[table.id] = keys
        if keys.thread_id is not None:
            self._by_thread[keys.thread_id] = table.id
        if keys.channel_id is not None:
            self._by_channel.setdefault(keys.channel_id, set()).add(table.id)
        for user_id in keys.users:
            self._by_user.setdefault(user_id, set()).add(table.id)

    def _unindex(self, table_id: int) -> None:
        keys = self._keys.pop(table_id, None)
        if keys is None:
            return
        if keys.thread_id is not None and self._by_thread.get(keys.thread_id) == table_id:
            del self._by_thread[keys.thread_id]
        if keys.channel_id is not None:
            _drop(self._by_channel, keys.channel_id, table_id)
        for user_id in keys.users:
            _drop(self._by_user, user_id, table_id)

    def in_thread(self, thread_id: int) -> Table | None:
        table_id = self._by_thread.get(thread_id)
        return self.tables[table_id] if table_id is not None else None

    def live_in_channel(self, channel_id: int) -> list[Table]:
        """The tables in the lobby or playing that were opened in this channel."""
        return [self.tables[i] for i in sorted(self._by_channel.get(channel_id, ()))]

    def live_of_user(self, user_id: int) -> list[Table]:
        """The tables in the lobby or playing where this user sits."""
        return [self.tables[i] for i in sorted(self._by_user.get(user_id, ()))]

    def index_sizes(self) -> tuple[int, int, int]:
        """How many threads, channels and users are indexed (tests check nothing is left behind)."""
        return len(self._by_thread), len(self._by_channel), len(self._by_user)

    async def apply(self, table: Table, seat: Seat | None, action: Action, actor: Actor,
                    user_id: int | None, on_stored: Callable[[], None] | None = None,
                    on_applied: Callable[[], None] | None = None) -> GameProgress:
        """Apply to the engine, store, then tell the subscribers. The caller holds the table's lock.

        ``on_stored`` is called once the action is committed, before it is announced (a front end answers
        the click there, so an answered click is never lost to a crash). ``on_applied`` is called before it
        is stored, the game already showing it: a front end may prepare its answer while the disk writes
        (and drop it should the write fail).

        Once applied, the action is stored and told in a task of its own, which a cancelled caller (the driver
        closing at shutdown) waits for before it sees its cancellation. A write cut short may commit all the
        same (SQLite's group commit once begun, PostgreSQL's COMMIT once sent): had memory dropped the action
        then, the store would refuse the table's next action (its position taken) until a restart.
        """
        game = table.game
        events = game.apply(action, seat if not isinstance(action, Claim) else None)  # raises: nothing changed
        if on_applied is not None:
            try:
                on_applied()
            except Exception:  # only a preparation: the action goes on
                log.exception("table %s: preparing the answer failed", table.id)
        keep = self._keep(table, game, seat, action, actor, user_id, events, on_stored)
        if self.store is None:
            return await keep  # nothing to cut short
        return await _finish(asyncio.get_running_loop().create_task(keep, name=f"apply-{table.id}"))

    async def _keep(self, table: Table, game: Game, seat: Seat | None, action: Action, actor: Actor,
                    user_id: int | None, events: Sequence[Event],
                    on_stored: Callable[[], None] | None) -> GameProgress:
        """Store the applied action, or rebuild the game without it; then finish with it and tell it."""
        if self.store is not None:
            try:
                # The events go along: a hand they settle is counted in the same transaction (statistics).
                await self.store.append_action(table, len(game.actions) - 1, action, seat, actor, user_id, events)
            except BaseException:
                # Not stored means not done: rebuild the game without it, so memory matches the store.
                table.game = replay(table.rules, game.actions[:-1])
                raise
        # Also when the caller was cancelled meanwhile: the action is committed, so the click did act, and its
        # answer is what the front end's cancelled handler still awaits.
        if on_stored is not None:
            on_stored()
        table.actors.append(actor)
        if game.finished:
            table.status = TableStatus.FINISHED
            table.end_unannounced = self.front_end_stores_end
        progress = GameProgress(table, table.version, seat, action, actor, tuple(events))
        if game.finished:
            self.reindex(table)  # no longer live; the store hears of it below, or once the end is announced
        await self.emit(progress)
        if game.finished and not self.front_end_stores_end:
            await self.store_end(table)
        return progress

    async def mark_announced(self, table: Table, count: int) -> None:
        """The front end finished announcing the table's first ``count`` actions (restore starts after them)."""
        if self.store is not None:
            await self.store.set_announced(table.id, count)

    async def store_end(self, table: Table) -> None:
        """A finished game's end, announced (``front_end_stores_end``) or not: store it as finished."""
        table.end_unannounced = False
        await self.save(table)
        if self.on_end is not None and table.status is TableStatus.FINISHED:
            self.on_end(table.id)


def _drop(index: dict[int, set[int]], key: int, table_id: int) -> None:
    ids = index.get(key)
    if ids is not None:
        ids.discard(table_id)
        if not ids:
            del index[key]


async def _finish(task: asyncio.Task[T]) -> T:
    """The task's outcome. A caller cancelled meanwhile still waits for the task to end, then sees its cancellation
    (the task's own failure is only logged then)."""
    cancelled: asyncio.CancelledError | None = None
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError as error:  # the caller's (or the task's own, raised all the same)
            cancelled = error
        except BaseException:  # the task's own failure: raised below
            pass
    if cancelled is not None:
        if not task.cancelled() and task.exception() is not None:
            log.warning("%s failed after its caller was cancelled", task.get_name(), exc_info=task.exception())
        raise cancelled
    return task.result()


def replay(rules: Rules, actions: Sequence[Action]) -> Game:
    game = Game(rules)
    game.apply_all(actions)
    return game
