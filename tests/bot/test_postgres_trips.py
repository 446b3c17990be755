"""PostgreSQL under load: what a click costs in round trips, and the tables' locks every holder of a process takes
(with the table's revision, read after the lock) on one shared session
(``bot.store.backend.PostgresConnection.hold_table``). Round trips are counted with a wrapper around asyncpg's
connections: a count, not a time, so the machine's load does not change it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store.backend import TABLE_LOCK_CLASS, Conflict, PostgresConnection
from bot.store.base import SqlStore
from bot.store.choose import store_for
from bot.store.postgres import PostgresStore
from bot.tables.model import Actor, Delivery, SeatInfo, SeatKind, Table, TableSettings, TableStatus
from bot.tables.registry import TableRegistry
from engine.actions import Deal
from engine.ai.players import Level
from engine.cards import DECK, SEATS, Seat
from engine.game import Game
from engine.settings import Rules

ANNA = 700000000000000001
GUILD = 910000000000000001


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every statement any asyncpg connection sends (each one round trip), the pools' resets included."""
    sent: list[str] = []
    for name in ("fetch", "fetchval", "fetchrow", "execute", "executemany"):
        original = getattr(asyncpg.Connection, name)

        def counted(self: Any, query: str, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            sent.append(query)
            return _original(self, query, *args, **kwargs)

        monkeypatch.setattr(asyncpg.Connection, name, counted)
    yield sent


def a_deal(shift: int) -> Deal:
    cards = DECK[shift:] + DECK[:shift]
    return Deal.from_cards(Seat.W, {seat: list(cards[8 * i:8 * i + 8]) for i, seat in enumerate(SEATS)})


async def started(store: SqlStore) -> Table:
    settings = TableSettings(Rules().with_changes(length="1"), ai_level=Level.NORMAL)
    ai = SeatInfo(SeatKind.AI, None, "", Level.HARD)
    table = Table(id=0, host_id=ANNA, settings=settings, seed=7, guild_id=GUILD, channel_id=GUILD + 1,
                  seats=[ai, ai, SeatInfo(SeatKind.HUMAN, ANNA, "Anna", delivery=Delivery.THREAD), ai],
                  game=Game(settings.rules))
    await TableRegistry(store).register(table)
    return table


async def test_a_new_table_an_action_and_a_save_are_one_round_trip_each(pg_url: str, trips: list[str]) -> None:
    """A new table's row, its seats (which take its id) and the notice go as one statement. So do the position's
    check, the action, the revision and the notice; and a table's row, its seats and the notice. No BEGIN, no
    COMMIT, no reset of the connection afterwards."""
    heard: list[str] = []
    async with PostgresStore(pg_url) as store, PostgresStore(pg_url) as other:
        await other.listen(heard.append)
        trips.clear()
        table = await started(store)
        assert len(trips) == 1, trips  # the row, the seats (with the new id) and the notice
        loaded = await store.load_table(table.id)
        assert loaded is not None and loaded.seats == table.seats
        table.status = TableStatus.PLAYING
        trips.clear()
        await store.save_table(table)
        assert len(trips) == 1, trips
        trips.clear()
        await store.append_action(table, 0, a_deal(1), None, Actor.CHANCE, None)
        assert len(trips) == 1, trips
        assert table.revision == 2 == await store.revision(table.id)
        assert [action for action, _ in await store.actions(table.id)] == [a_deal(1)]
        for _ in range(200):
            if len(heard) >= 3:
                break
            await asyncio.sleep(0.01)
        assert [json.loads(text)["table"] for text in heard] == [table.id] * 3  # created, saved, the action


async def test_a_refused_position_writes_nothing_and_sends_no_notice(pg_url: str) -> None:
    """The one statement writes nothing (no action, no revision, no notice) when the position is not the next."""
    heard: list[str] = []
    async with PostgresStore(pg_url) as store, PostgresStore(pg_url) as other:
        table = await started(store)
        await other.listen(heard.append)
        await store.append_action(table, 0, a_deal(1), None, Actor.CHANCE, None)
        revision = await store.revision(table.id)
        with pytest.raises(Conflict):
            await store.append_action(table, 2, a_deal(2), None, Actor.CHANCE, None)  # a gap
        with pytest.raises(Conflict):
            await other.append_action(table, 0, a_deal(2), None, Actor.CHANCE, None)  # taken
        await asyncio.sleep(0.2)
        assert await store.revision(table.id) == revision
        assert [action for action, _ in await store.actions(table.id)] == [a_deal(1)]
        assert len(heard) == 1


async def held_by_others(admin: asyncpg.Connection, table_id: int) -> int:
    """How many sessions hold the table's lock now."""
    return int(await admin.fetchval(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2 "
        "AND objsubid = 2", TABLE_LOCK_CLASS, table_id))


async def test_many_holders_share_one_session_and_take_each_lock_in_one_round_trip(pg_url: str,
                                                                                   trips: list[str]) -> None:
    """Holders of many tables at once keep no connection each: their locks are taken together, in one statement,
    and released in the next round without anyone waiting for it."""
    async with PostgresStore(pg_url) as store:
        entered = asyncio.Event()
        go = asyncio.Event()
        inside = 0

        async def hold(table_id: int) -> None:
            nonlocal inside
            async with store.hold_table(table_id):
                inside += 1
                if inside == 30:
                    entered.set()
                await go.wait()

        trips.clear()
        holders = [asyncio.create_task(hold(1000 + index)) for index in range(30)]
        admin = await asyncpg.connect(pg_url)
        try:
            await asyncio.wait_for(entered.wait(), 10)
            locks = [sql for sql in trips if "pg_try_advisory_lock" in sql]
            assert len(locks) <= 2, trips  # the first holder's round, and one for all who asked meanwhile
            assert all([await held_by_others(admin, 1000 + index) == 1 for index in range(30)])
            go.set()
            await asyncio.gather(*holders)
            for _ in range(200):
                if not any([await held_by_others(admin, 1000 + index) for index in range(30)]):
                    break
                await asyncio.sleep(0.01)
            assert not any([await held_by_others(admin, 1000 + index) for index in range(30)])
        finally:
            go.set()
            for holder in holders:
                holder.cancel()
            await asyncio.gather(*holders, return_exceptions=True)
            await admin.close()


async def test_a_table_held_by_another_process_is_waited_for_and_then_taken(pg_url: str) -> None:
    """Two processes: the second waits while the first holds the table (on a connection of its own), and takes it
    once it is released; another table it takes meanwhile. Its own next holder after it gets it again."""
    async with PostgresStore(pg_url) as first, PostgresStore(pg_url) as second:
        order: list[str] = []
        async with first.hold_table(7):
            waiting = asyncio.create_task(_hold_and_note(second, 7, order, "second"))
            async with second.hold_table(8):
                order.append("other table")
            await asyncio.sleep(0.3)
            assert not waiting.done()
            order.append("first releases")
        await asyncio.wait_for(waiting, 10)
        assert order == ["other table", "first releases", "second"]
        await asyncio.wait_for(_hold_and_note(second, 7, order, "second again"), 10)
        await asyncio.wait_for(_hold_and_note(first, 7, order, "first again"), 10)
        assert order[-2:] == ["second again", "first again"]


async def _hold_and_note(store: SqlStore, table_id: int, order: list[str], note: str) -> None:
    async with store.hold_table(table_id):
        order.append(note)


async def test_taking_a_table_brings_its_revision_in_the_same_round_trip(pg_url: str, trips: list[str]) -> None:
    """The lock and the table's revision together, one statement; no such table: no revision."""
    async with PostgresStore(pg_url) as store:
        table = await started(store)
        await store.append_action(table, 0, a_deal(1), None, Actor.CHANCE, None)
        trips.clear()
        async with store.hold_table(table.id) as revision:
            assert revision == table.revision == 1
            assert len(trips) == 1, trips
        async with store.hold_table(table.id + 1000) as revision:
            assert revision is None


async def test_a_table_waited_for_brings_the_revision_its_last_holder_wrote(pg_url: str) -> None:
    """The second process waits for the table while the first holds it and appends an action: the revision it
    gets is the one after that action (read once the lock was granted, not when it began to wait)."""
    async with PostgresStore(pg_url) as first, PostgresStore(pg_url) as second:
        table = await started(first)
        got: list[int | None] = []

        async def take() -> None:
            async with second.hold_table(table.id) as revision:
                got.append(revision)

        async with first.hold_table(table.id) as revision:
            assert revision == table.revision == 0
            waiting = asyncio.create_task(take())
            await asyncio.sleep(0.3)  # waiting on its own connection by now
            assert not waiting.done()
            await first.append_action(table, 0, a_deal(1), None, Actor.CHANCE, None)
        await asyncio.wait_for(waiting, 10)
        assert got == [1] == [table.revision]


async def test_a_lock_tried_in_a_statement_that_began_earlier_reads_the_revision_after_it(pg_url: str) -> None:
    """The locks' function reads the revision with a snapshot taken after the lock, not the calling statement's:
    here the statement begins (its snapshot taken), waits at a gate while the first process appends an action and
    releases the table, and only then tries the table's lock: it must see that action's revision."""
    gate = 4242
    async with PostgresStore(pg_url) as first:
        table = await started(first)
        keeper = await asyncpg.connect(pg_url)
        taker = await asyncpg.connect(pg_url)
        try:
            await keeper.execute("SELECT pg_advisory_lock($1)", gate)
            async with first.hold_table(table.id):
                late = asyncio.create_task(taker.fetchrow(
                    "SELECT r.held, r.revision FROM (SELECT pg_advisory_lock($1)::text AS g) AS gate "
                    "CROSS JOIN LATERAL klaverjas_table_locks($2, ARRAY[$3::int], ARRAY[gate.g = '']) AS r",
                    gate, TABLE_LOCK_CLASS, table.id))
                for _ in range(200):  # the statement is under way, waiting at the gate
                    if await keeper.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                                             "AND NOT granted AND objid = $1", gate):
                        break
                    await asyncio.sleep(0.01)
                else:
                    raise AssertionError("the statement never reached the gate")
                await first.append_action(table, 0, a_deal(1), None, Actor.CHANCE, None)
            async with first.hold_table(table.id + 1):
                pass  # a round after the release: the table is free
            assert await held_by_others(keeper, table.id) == 0
            await keeper.execute("SELECT pg_advisory_unlock($1)", gate)
            row = await asyncio.wait_for(late, 10)
            assert table.revision == 1
            assert (row["held"], row["revision"]) == (True, 1)
        finally:
            await keeper.close()
            await taker.close()


async def test_a_holder_cancelled_while_its_lock_is_taken_leaves_it_free(pg_url: str) -> None:
    """A holder that leaves while its lock is being taken (the round under way for others too) does not keep it:
    the lock is released once taken, and another process gets it."""
    async with PostgresStore(pg_url) as first, PostgresStore(pg_url) as second:
        for _ in range(20):
            task = asyncio.create_task(_hold_and_note(first, 9, [], "never"))
            await asyncio.sleep(0)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        await asyncio.wait_for(_hold_and_note(second, 9, [], "second"), 10)


async def test_the_announcements_of_a_match_take_no_shared_lock_of_their_own(
        pg_url: str, monkeypatch: pytest.MonkeyPatch, trips: list[str]) -> None:
    """The owner's table message, prompts and hands show its copy as it is: only the actions (a click, an AI move,
    a timer) take the table's lock among the processes, one each, and each of those one round trip to take it and
    read the table's revision (no read of its own)."""
    from harness import Harness
    from test_discord import ANNA as ANNA_USER
    from test_discord import SEED, play_turn
    from test_scenarios import bot_of
    from test_scenarios import started as started_match

    holds: list[int] = []
    hold = PostgresConnection.hold_table

    def counted(self: PostgresConnection, table_id: int) -> Any:
        holds.append(table_id)
        return hold(self, table_id)

    monkeypatch.setattr(PostgresConnection, "hold_table", counted)
    async with Harness(pg_url) as h:
        bot_of(h).service.new_seed = lambda: SEED
        table_id = await started_match(h, ANNA_USER, [])
        table = bot_of(h).service.get(table_id)
        while table.running:
            await h.settle()
            await play_turn(h, table_id, ANNA_USER)
        await h.settle()
        actions = len(table.game.actions)
        assert table.game.finished and actions > 32
        assert holds.count(table_id) < 1.5 * actions, (holds.count(table_id), actions)
        assert not [sql for sql in trips if sql.startswith("SELECT revision FROM tables WHERE")]
        assert [sql for sql in trips if "klaverjas_table_locks" in sql]  # the lock rounds, which read it


async def test_the_work_pool_opens_no_more_connections_than_asked(pg_url: str, tmp_path: Path) -> None:
    """``KLAVERJAS_DB_POOL`` reaches the pool: statements beyond its size wait for a connection, none is refused."""
    async with store_for(pg_url, tmp_path / "unused.sqlite3", pool_size=3) as store:
        rows = await asyncio.gather(*(store.db.execute("SELECT pg_backend_pid() FROM pg_sleep(0.05)")
                                      for _ in range(9)))
        backends = {(await cursor.fetchone())[0] for cursor in rows}
    assert len(backends) == 3
