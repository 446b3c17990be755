"""Several bot processes on one PostgreSQL database (``klaverjas bot --shards 0-3 --shard-count 8``).

Every process keeps a copy of every lobby and running table, so any process can answer any interaction (Discord
sends direct-message interactions to shard 0). What keeps the copies honest:

- A table's lock (``Table.lock``) is also held in PostgreSQL (a session advisory lock, ``hold_table``) and, once
  taken, brings the copy up to date from the store when the table's ``revision`` there differs (read with the
  lock, in its round trip, once the lock is granted: never an older one). So whatever a
  process does under the lock (a click, a timer, an AI move) it does to the current table, and no other process
  does anything to that table meanwhile: two processes can never apply conflicting actions, and a click made on
  a table another process moved on gets the normal refusal (a stale button, not your turn).
- The table belongs to the process whose shards hold its guild (``shard_of``; a table without a guild: shard
  0). Only that process runs its timers and AI turns and announces it (the thread, the table message, the hands,
  the prompts), in the order of its actions: the actions another process appended reach it from the store and
  are announced as the restore announces what a crash cut short (``announced`` of migration 0005), so nothing is
  said twice and a dead owner's successor announces what it did not. What else another process did (a seat
  taken, a stop) is sent to the owner as a notice, and announced there.
- Each write to a table sends a notice (PostgreSQL NOTIFY, at its commit): the others bring their copies up to
  date at once, the owner announces and plays on. A slow poll of the tables' revisions catches any notice lost
  with a broken connection.
- Every change of a copy here, at a table another process owns (this process acted, or the copy was brought up to
  date), is told to this process's subscribers as a ``CopyChanged``: the chat's announcer leaves it to the owner,
  the web pages connected here follow the table by it.

With SQLite nothing of this runs: one process owns every table, as always.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.tables.driver import TableDriver
from bot.tables.events import (
    AutoplayStarted,
    CopyChanged,
    GameProgress,
    LobbyChanged,
    LobbyExpired,
    SeatAway,
    SeatChange,
    SeatChanged,
    ServiceEvent,
    TableStarted,
    TableStopped,
    TurnReminder,
)
from bot.tables.model import Actor, SeatKind, Table, TableStatus
from bot.tables.registry import LIVE, TableRegistry, replay
from bot.tables.shards import Shards
from engine.actions import Action, Call, Claim, Decline
from engine.cards import SEATS, Card, Seat

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0  # how often the tables' revisions are compared, should a notice be lost


class SharedStore(Protocol):
    """What the sharing needs from the store (``bot.store.base.SqlStore``)."""

    origin: str

    def hold_table(self, table_id: int) -> AbstractAsyncContextManager[int | None]: ...

    async def listen(self, heard: Any) -> None: ...

    async def notify(self, table_id: int, event: dict[str, Any] | None = None) -> None: ...

    async def revisions(self) -> dict[int, int]: ...

    async def load_table(self, table_id: int) -> Table | None: ...

    async def actions_from(self, table_id: int, seq: int) -> list[tuple[Action, Actor]]: ...

    async def announced(self, table_id: int) -> int | None: ...


class SharedTables:
    """This process's part in sharing the store: the tables' locks and copies, notices, and who owns what."""

    def __init__(self, registry: TableRegistry, driver: TableDriver, store: SharedStore, shards: Shards,
                 poll_seconds: float = POLL_SECONDS) -> None:
        self.registry = registry
        self.driver = driver
        self.store = store
        self.shards = shards
        self.poll_seconds = poll_seconds
        self._work: dict[int, asyncio.Task[None]] = {}  # table id -> its notices, handled one after another
        self._poll: asyncio.Task[None] | None = None

    def owns(self, table: Table) -> bool:
        return self.shards.owns(table.guild_id)

    def guard(self, table: Table) -> None:
        """Make the table's lock the shared one (the registry calls this for every table it keeps)."""

        @contextlib.asynccontextmanager
        async def held() -> AsyncIterator[None]:
            async with self.store.hold_table(table.id) as revision:  # read after the lock: never a stale one
                await self.refresh(table, revision)
                yield

        table.lock.guard = held

    # ------------------------------------------------------------ the copy

    async def refresh(self, table: Table, revision: int | None) -> None:
        """Bring the copy up to date with the store, whose ``revision`` of the table (None: gone) the caller read
        under the table's lock, which it holds. The owner announces the actions another process appended, and its
        driver goes on from the new state."""
        if revision == table.revision:
            return
        stored = await self.store.load_table(table.id) if revision is not None else None
        if stored is None:  # a lobby that was never posted, deleted
            self.registry.evict(table)
            return
        actions = await self.store.actions_from(table.id, table.version)
        before = _Shape.of(table)
        _take_over(table, stored)
        progress: list[GameProgress] = []
        for action, actor in actions:
            seat = _seat_of(table, action)
            events = table.game.apply(action)
            table.actors.append(actor)
            progress.append(GameProgress(table, table.version, seat, action, actor, tuple(events)))
        if table.game.finished and table.status is TableStatus.PLAYING:
            table.status = TableStatus.FINISHED  # stored, its end not yet announced (``Table.stored_status``)
            table.end_unannounced = self.registry.front_end_stores_end
        table.revision = stored.revision
        log.debug("table %s: revision %s, %d action(s) from the store, now at %d", table.id, revision, len(actions),
                  table.version)
        self.registry.reindex(table)
        self.registry.changed(table)  # also where nothing is announced: a copy's waiters see it move on
        if self.owns(table):
            for event in progress:
                await self.registry.emit(event)
        elif progress or _Shape.of(table) != before:  # not a write that changes nothing shown (a message id)
            await self.registry.tell_copy(CopyChanged(table, _told(table, before, progress)))
        self.driver.schedule(table)

    async def load(self, table_id: int) -> Table | None:
        """A live table this process does not hold yet (another opened it): its actions up to what was
        announced, so the owner's refresh announces the rest."""
        table = await self.store.load_table(table_id)
        if table is None or table.status not in LIVE:
            return None
        actions = await self.store.actions_from(table_id, 0)
        announced = await self.store.announced(table_id) or 0
        done = len(actions) if not self.owns(table) else min(len(actions), announced)
        table.game = replay(table.rules, [action for action, _ in actions[:done]])
        table.actors = [actor for _, actor in actions[:done]]
        table.revision = -1  # the refresh under the lock takes the rest
        if table_id in self.registry.tables:
            return self.registry.tables[table_id]  # loaded meanwhile
        self.registry.add(table)
        return table

    # ------------------------------------------------------------ notices

    async def forward(self, event: ServiceEvent) -> None:
        """An event at a table another process owns: that process announces it. Its actions it reads from the
        store itself."""
        encoded = _encode(event)
        if encoded is not None:
            await self.store.notify(event.table.id, encoded)

    def heard(self, text: str) -> None:
        try:
            notice = json.loads(text)
            if notice.get("from") == self.store.origin:
                return
            self.touch(int(notice["table"]), notice.get("event"))
        except (ValueError, KeyError, TypeError):
            log.warning("an unreadable notice: %r", text[:200])

    def touch(self, table_id: int, event: dict[str, Any] | None = None) -> None:
        """Handle a notice about the table after those before it."""
        before = self._work.get(table_id)
        task = asyncio.get_running_loop().create_task(self._handle(before, table_id, event), name=f"notice-{table_id}")
        self._work[table_id] = task
        task.add_done_callback(lambda done: self._work.pop(table_id, None) if self._work.get(table_id) is done
                               else None)

    async def _handle(self, before: asyncio.Task[None] | None, table_id: int, event: dict[str, Any] | None) -> None:
        if before is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await before
        try:
            table = self.registry.tables.get(table_id) or await self.load(table_id)
            if table is None:
                return
            async with table.lock:  # refreshes
                decoded = _decode(table, event) if event is not None and self.owns(table) else None
                if decoded is None or self.registry.tables.get(table_id) is not table:
                    return
                if isinstance(decoded, AutoplayStarted):
                    table.autoplay = True  # in memory only, in the process that plays it
                await self.registry.emit(decoded)
                self.driver.schedule(table)
        except Exception:
            log.exception("table %s: a notice from another process failed", table_id)

    # ------------------------------------------------------------ running

    async def start(self) -> None:
        await self.store.listen(self.heard)
        self._poll = asyncio.get_running_loop().create_task(self._polling(), name="shared-poll")

    async def _polling(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                revisions = await self.store.revisions()
            except Exception as error:
                log.warning("comparing the tables' revisions failed: %s", error)
                continue
            for table_id, revision in revisions.items():
                table = self.registry.tables.get(table_id)
                if (table is None or table.revision != revision) and table_id not in self._work:
                    self.touch(table_id)
            for table in list(self.registry.tables.values()):
                if table.status in LIVE and table.id not in revisions and table.id not in self._work:
                    self.touch(table.id)  # over, or gone, in the store

    async def close(self) -> None:
        tasks = [self._poll, *self._work.values()] if self._poll is not None else list(self._work.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _take_over(table: Table, stored: Table) -> None:
    """The stored table's state in the copy: its fields, and the seats (the same person's seat stays the same
    object, as the driver and the announcer tell seats apart by identity)."""
    for name in ("guild_id", "channel_id", "thread_id", "lobby_message_id", "table_message_id", "prompt_message_id",
                 "prompt_version", "rematch_id", "host_id", "settings", "tournament_id"):
        setattr(table, name, getattr(stored, name))
    if stored.status is TableStatus.PLAYING and table.end_unannounced:
        pass  # finished here, its end still to be announced: the store says playing until then
    else:
        table.status = stored.status
        table.end_unannounced = False
    for index, (mine, theirs) in enumerate(zip(table.seats, stored.seats, strict=True)):
        if mine.kind is theirs.kind and mine.user_id == theirs.user_id:
            for field in dataclasses.fields(theirs):
                setattr(mine, field.name, getattr(theirs, field.name))
        else:
            table.seats[index] = theirs


@dataclasses.dataclass(frozen=True, slots=True)
class _Shape:
    """What a copy's state shows besides its game: its status, and who sits where (kind, person, away, reserved)."""

    version: int
    status: TableStatus
    seats: tuple[tuple[SeatKind, int | None, str, bool, int | None], ...]

    @staticmethod
    def of(table: Table) -> _Shape:
        return _Shape(table.version, table.status, tuple(
            (info.kind, info.user_id, info.name, info.away, info.pending_user_id) for info in table.seats))


def _told(table: Table, before: _Shape, progress: list[GameProgress]) -> tuple[ServiceEvent, ...]:
    """What happened to a copy brought up to date, for ``CopyChanged``: the actions as they were played, and what
    the owner said besides that the new state shows (it is not in the store; a pause or a reminder is not)."""
    told: list[ServiceEvent] = []
    if before.status is TableStatus.LOBBY:
        if table.status in (TableStatus.PLAYING, TableStatus.FINISHED):
            told.append(TableStarted(table))
        elif before.seats != _Shape.of(table).seats:
            told.append(LobbyChanged(table))
    told.extend(progress)
    for seat in SEATS if before.status is not TableStatus.LOBBY else ():
        kind, user_id, _name, away, pending = before.seats[seat]
        info = table.seats[seat]
        same = kind is info.kind and user_id == info.user_id
        if kind is SeatKind.HUMAN and not same:
            told.append(SeatChanged(table, seat, SeatChange.LEFT, user_id))
        if info.kind is SeatKind.HUMAN and not same:
            told.append(SeatChanged(table, seat, SeatChange.TOOK_OVER, info.user_id))
        elif kind is SeatKind.HUMAN and same and away != info.away:
            told.append(SeatAway(table, seat, info.user_id) if info.away and info.user_id is not None
                        else SeatChanged(table, seat, SeatChange.BACK, info.user_id))
        if pending is None and info.pending_user_id is not None and info.kind is SeatKind.AI:
            told.append(SeatChanged(table, seat, SeatChange.WILL_TAKE_OVER, info.pending_user_id))
    if table.status is TableStatus.STOPPED and before.status is not TableStatus.STOPPED:
        told.append(TableStopped(table, None))
    return tuple(told)


def _seat_of(table: Table, action: Action) -> Seat | None:
    if isinstance(action, Claim | Decline):
        return action.seat
    return table.game.to_act if isinstance(action, Card | Call) else None


_EVENTS: dict[str, type[Any]] = {kind.__name__: kind for kind in (
    LobbyChanged, TableStarted, TurnReminder, SeatAway, SeatChanged, TableStopped, LobbyExpired, AutoplayStarted)}


def _encode(event: ServiceEvent) -> dict[str, Any] | None:
    """A notice's ``event``; None for what the owner learns from the store (actions) or tells itself."""
    if type(event).__name__ not in _EVENTS:
        return None
    out: dict[str, Any] = {"kind": type(event).__name__}
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if field.name == "table":
            continue
        out[field.name] = value.letter if isinstance(value, Seat) else value
    return out


def _decode(table: Table, data: dict[str, Any]) -> ServiceEvent | None:
    kind = _EVENTS.get(str(data.get("kind")))
    if kind is None:
        return None
    values: dict[str, Any] = {"table": table}
    for field in dataclasses.fields(kind):
        if field.name == "table":
            continue
        value = data.get(field.name)
        if field.name == "seat":
            value = Seat.parse(str(value))
        elif field.name == "change":
            value = SeatChange(str(value))
        values[field.name] = value
    event: ServiceEvent = kind(**values)
    return event


