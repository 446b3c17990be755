"""The running tables: kept in memory and in the store, and told to the subscribers, in that order.

Commands (``bot.tables.service``) and the driver (``bot.tables.driver``) both change tables through
here; ``apply`` is the one way an action reaches a game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Protocol

from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.events import GameProgress, ServiceEvent, Subscriber
from bot.tables.model import Actor, Table, TableStatus
from engine.actions import Action, Claim
from engine.cards import Seat
from engine.game import Game
from engine.settings import Rules

log = logging.getLogger(__name__)


class Store(Protocol):
    """What the service needs from persistence (``bot.store.sqlite.SqliteStore`` implements it)."""

    async def create_table(self, table: Table) -> int: ...

    async def save_table(self, table: Table) -> None: ...

    async def append_action(self, table: Table, seq: int, action: Action, seat: Seat | None, actor: Actor,
                            user_id: int | None) -> None: ...

    async def load_running(self) -> list[tuple[Table, list[tuple[Action, Actor]]]]: ...

    async def load_table(self, table_id: int) -> Table | None: ...


class TableRegistry:
    def __init__(self, store: Store | None) -> None:
        self.store = store
        self.tables: dict[int, Table] = {}
        self._subscribers: list[Subscriber] = []
        self._next_id = 1

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    async def emit(self, event: ServiceEvent) -> None:
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

    async def save(self, table: Table) -> None:
        if self.store is not None:
            await self.store.save_table(table)

    async def apply(self, table: Table, seat: Seat | None, action: Action, actor: Actor,
                    user_id: int | None, on_stored: Callable[[], None] | None = None) -> GameProgress:
        """Apply to the engine, store, then announce. The caller holds the table's lock.

        ``on_stored`` is called once the action is committed, before it is announced (a front end answers
        the click there, so an answered click is never lost to a crash).
        """
        game = table.game
        events = game.apply(action, seat if not isinstance(action, Claim) else None)  # raises: nothing changed
        seq = len(game.actions) - 1
        if self.store is not None:
            try:
                await self.store.append_action(table, seq, action, seat, actor, user_id)
            except BaseException:
                # Not stored means not done: rebuild the game without it, so memory matches the store.
                table.game = replay(table.rules, game.actions[:-1])
                raise
        if on_stored is not None:
            on_stored()
        table.actors.append(actor)
        if game.finished:
            table.status = TableStatus.FINISHED
        progress = GameProgress(table, table.version, seat, action, actor, tuple(events))
        await self.emit(progress)
        if game.finished:
            # Stored as finished only once its end is announced: a crash before that leaves the table to be
            # restored, and its end announced again.
            await self.save(table)
        return progress


def replay(rules: Rules, actions: Sequence[Action]) -> Game:
    game = Game(rules)
    game.apply_all(actions)
    return game
