"""The store itself, against both databases: the migrations of the two dialects, refused and racing writes,
forget-me, tournaments and the dialect helpers."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import sqlite3
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from pg_server import StoreMaker

from bot.store.backend import BATCH_WRITERS, HEAVY_PER_ROUND, Conflict, Plan, Step, StoreError, numbered
from bot.store.base import ANONYMOUS, MARKS_PER_STATEMENT, SqlStore, migrations
from bot.store.sqlite import SqliteStore
from bot.store.tournaments import SqlTournamentStore
from bot.tables.events import GameProgress
from bot.tables.model import Actor, Delivery, SeatInfo, SeatKind, Table, TableSettings, TableStatus
from bot.tables.registry import TableRegistry
from bot.tables.service import ServiceConfig, TableService
from bot.texts.language import Language
from bot.tournaments.model import DuplicateEntry, Entry, Tournament, TournamentConfig, TournamentStatus
from engine.actions import Deal
from engine.ai.players import Level
from engine.cards import DECK, SEATS, Seat
from engine.game import Game
from engine.settings import Rules

ANNA, BERT = 700000000000000001, 700000000000000002  # Discord ids need 64 bits
GUILD = 910000000000000001


def test_both_dialects_have_the_same_migration_numbers() -> None:
    sqlite = migrations("sqlite")
    postgres = migrations("postgres")
    assert [number for number, _, _ in sqlite] == [number for number, _, _ in postgres]
    # Same number, same name: the scripts are one migration in two dialects.
    assert [name for _, name, _ in sqlite] == [name for _, name, _ in postgres]


def test_placeholders_are_numbered_outside_quotes_and_comments() -> None:
    assert numbered("SELECT ? , '?', \"a?\" FROM t -- why?\nWHERE a = ? AND b = ?") == (
        "SELECT $1 , '?', \"a?\" FROM t -- why?\nWHERE a = $2 AND b = $3")


def a_deal(shift: int) -> Deal:
    cards = DECK[shift:] + DECK[:shift]
    return Deal.from_cards(Seat.W, {seat: list(cards[8 * i:8 * i + 8]) for i, seat in enumerate(SEATS)})


def new_table(seats: list[SeatInfo] | None = None) -> Table:
    settings = TableSettings(Rules().with_changes(length="1"), ai_level=Level.NORMAL)
    ai = SeatInfo(SeatKind.AI, None, "", Level.HARD)
    return Table(id=0, host_id=ANNA, settings=settings, seed=(1 << 62) - 3, guild_id=GUILD, channel_id=GUILD + 1,
                 seats=seats or [ai, ai, SeatInfo(SeatKind.HUMAN, ANNA, "Anna", delivery=Delivery.THREAD), ai],
                 game=Game(settings.rules))


async def started(store: SqlStore) -> tuple[TableRegistry, Table]:
    registry = TableRegistry(store)
    table = new_table()
    await registry.register(table)
    table.status = TableStatus.PLAYING
    await registry.save(table)
    return registry, table


async def test_tables_and_seats_keep_every_field_and_64_bit_ids(store: SqlStore) -> None:
    _, table = await started(store)
    table.thread_id, table.prompt_message_id, table.prompt_version = GUILD + 2, GUILD + 3, 4
    table.seats[Seat.N] = SeatInfo(SeatKind.HUMAN, BERT, "Bert", Level.EASY, True, 2, Delivery.DM, GUILD + 5,
                                   GUILD + 6, ANNA, "Anna", Delivery.THREAD, Language.NL, Language.EN)
    await store.save_table(table)
    loaded = await store.load_table(table.id)
    assert loaded is not None
    assert (loaded.seed, loaded.thread_id, loaded.prompt_message_id, loaded.prompt_version) == (
        table.seed, GUILD + 2, GUILD + 3, 4)
    assert loaded.seats == table.seats
    assert await store.table_in_thread(GUILD + 2) == table.id
    assert await store.names_of([BERT, ANNA]) == {BERT: "Bert", ANNA: "Anna"}


async def test_a_taken_or_skipped_position_is_refused_and_the_game_rolled_back(store: SqlStore) -> None:
    registry, table = await started(store)
    deal = a_deal(3)
    await registry.apply(table, None, deal, Actor.CHANCE, None)
    # Someone else (another process) appended the next action first: this one must not go in after it.
    game = Game(table.rules)
    game.apply(deal)
    other = game.legal_actions()[0]
    await store.append_action(table, 1, other, game.to_act, Actor.HUMAN, ANNA)
    mine = table.game.legal_actions()[-1]
    with pytest.raises(Conflict):
        await registry.apply(table, table.game.to_act, mine, Actor.HUMAN, ANNA)
    assert len(table.game.actions) == 1  # memory matches what this process stored, not more
    with pytest.raises(Conflict):  # a position beyond the next one: a gap is refused too
        await store.append_action(table, 5, other, game.to_act, Actor.HUMAN, ANNA)
    assert [action for action, _ in await store.actions(table.id)] == [deal, other]


async def test_racing_writers_store_one_action_per_position(new_store: StoreMaker) -> None:
    """Two stores on one database (for PostgreSQL: two processes' pools; for SQLite one store, its only use)
    append at one position at once: exactly one wins, the others get Conflict, nothing is doubled."""
    async with new_store() as first:
        _, table = await started(first)
        deal = a_deal(5)
        second = new_store() if first.dialect.name == "postgres" else first
        if second is not first:
            await second.open()
        try:
            game = Game(table.rules)
            game.apply(deal)
            writers = [first, second] * 4
            results = await asyncio.gather(*(w.append_action(table, 0, deal, None, Actor.CHANCE, None)
                                             for w in writers), return_exceptions=True)
            assert sum(1 for r in results if r is None) == 1
            assert all(isinstance(r, Conflict) for r in results if r is not None), results
            # Then each writer races for the next position: again one wins.
            calls = game.legal_actions()
            results = await asyncio.gather(*(w.append_action(table, 1, calls[i % len(calls)], game.to_act,
                                                             Actor.HUMAN, ANNA) for i, w in enumerate(writers)),
                                           return_exceptions=True)
            assert sum(1 for r in results if r is None) == 1
            assert len(await first.actions(table.id)) == 2
        finally:
            if second is not first:
                await second.close()


async def test_start_preferences_read_the_server_defaults_and_the_delivery_together(store: SqlStore) -> None:
    assert await store.start_preferences(GUILD, ANNA) == (None, None)
    assert await store.start_preferences(None, ANNA) == (None, None)
    settings = TableSettings(Rules().with_changes(bidding="verplicht"), ai_level=Level.EASY)
    await store.set_guild_defaults(GUILD, settings)
    assert await store.start_preferences(GUILD, ANNA) == (settings, None)
    await store.set_user_delivery(ANNA, Delivery.THREAD)
    assert await store.start_preferences(GUILD, ANNA) == (settings, Delivery.THREAD)
    assert await store.start_preferences(GUILD + 1, ANNA) == (None, Delivery.THREAD)  # another server's are not ours
    assert await store.start_preferences(None, BERT) == (None, None)


async def test_announced_marks_asked_together_go_in_one_statement_and_never_go_back(
        store: SqlStore, monkeypatch: pytest.MonkeyPatch) -> None:
    registry = TableRegistry(store)
    tables = [new_table() for _ in range(MARKS_PER_STATEMENT + 88)]  # more than one statement takes
    for table in tables:
        await registry.register(table)
    writes: list[int] = []
    write = store.db.write

    async def counted(sql: str, parameters: Any) -> None:
        writes.append(len(parameters) // 2)
        await write(sql, parameters)

    monkeypatch.setattr(store.db, "write", counted)
    await asyncio.gather(*(store.set_announced(table.id, 3 + n % 5) for n, table in enumerate(tables)))
    assert [await store.announced(table.id) for table in tables] == [3 + n % 5 for n in range(len(tables))]
    # All were asked before the first statement went: as few statements as their size allows (the rest padded to a
    # power of two, so that PostgreSQL prepares few statement texts).
    assert writes == [MARKS_PER_STATEMENT, 128]
    # A lower count (an older mark, late) never lowers the mark; the same table twice in one round keeps the higher.
    first, second = tables[0].id, tables[1].id
    await asyncio.gather(store.set_announced(first, 9), store.set_announced(first, 2), store.set_announced(second, 1))
    assert (await store.announced(first), await store.announced(second)) == (9, 4)


async def test_a_failed_marks_statement_fails_its_callers_only_and_a_caller_who_leaves_stops_nobody(
        store: SqlStore, monkeypatch: pytest.MonkeyPatch) -> None:
    registry = TableRegistry(store)
    tables = [new_table() for _ in range(3)]
    for table in tables:
        await registry.register(table)
    write = store.db.write
    failing = True

    async def flaky(sql: str, parameters: Any) -> None:
        await asyncio.sleep(0.01)
        if failing:
            raise StoreError("the database went away")
        await write(sql, parameters)

    monkeypatch.setattr(store.db, "write", flaky)
    before = await store.announced(tables[0].id)
    with pytest.raises(StoreError):
        await store.set_announced(tables[0].id, 5)
    failing = False
    leaving = asyncio.ensure_future(store.set_announced(tables[1].id, 6))
    staying = asyncio.ensure_future(store.set_announced(tables[2].id, 7))
    await asyncio.sleep(0)
    leaving.cancel()
    await staying
    with pytest.raises(asyncio.CancelledError):
        await leaving
    assert [await store.announced(table.id) for table in tables] == [before, 6, 7]


async def test_forget_me_anonymises_the_games_and_deletes_the_rest(store: SqlStore) -> None:
    _, table = await started(store)
    table.seats[Seat.S].language = Language.NL  # what her Discord client said
    table.seats[Seat.N].pending_user_id, table.seats[Seat.N].pending_language = ANNA, Language.NL
    await store.save_table(table)
    await store.set_user_delivery(ANNA, Delivery.THREAD)
    await store.set_user_delivery(ANNA, Delivery.DM)  # replaced, not doubled
    assert await store.user_delivery(ANNA) is Delivery.DM
    tournaments = SqlTournamentStore(store)
    tournament_id = await tournaments.create_tournament(tournament())
    entry_id = await tournaments.add_entry(Entry(0, tournament_id, ANNA, "Anna", 1.5, BERT, "Bert"))
    await store.forget_user(ANNA)
    loaded = await store.load_table(table.id)
    assert loaded is not None and loaded.host_id == ANONYMOUS
    assert loaded.seats[Seat.S].user_id == ANONYMOUS and loaded.seats[Seat.S].name == ""
    assert loaded.seats[Seat.S].language is None and loaded.seats[Seat.N].pending_language is None
    assert loaded.seats[Seat.N].pending_user_id is None
    assert await store.user_delivery(ANNA) is None
    entry = await tournaments.entry(entry_id)
    assert entry is not None and entry.user_id == -entry_id and entry.name == "" and entry.partner_id == BERT


def tournament(**changes: object) -> Tournament:
    settings = TableSettings(Rules().with_changes(length="2"), ai_level=Level.NORMAL)
    base = Tournament(0, GUILD, GUILD + 1, "Vrijdag", ANNA, settings, seed=(1 << 62) + 1, opened_at=1.5e9,
                      closes_at=1.5e9 + 86400.25)
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


async def test_tournaments_entries_and_config_round_trip(store: SqlStore) -> None:
    tournaments = SqlTournamentStore(store)
    first = await tournaments.create_tournament(tournament())
    daily = await tournaments.create_tournament(tournament(daily="2024-05-01", creator_id=0))
    assert daily > first
    with pytest.raises(DuplicateEntry):  # one daily tournament per server and day
        await tournaments.create_tournament(tournament(daily="2024-05-01", creator_id=0))
    stored = await tournaments.tournament(first)
    assert stored == dataclasses.replace(tournament(), id=first)
    entry_id = await tournaments.add_entry(Entry(0, first, BERT, "Bert", 2.25))
    with pytest.raises(DuplicateEntry):
        await tournaments.add_entry(Entry(0, first, BERT, "Bert", 3.0))
    await tournaments.finish_entry(entry_id, (120, 42), by_ai=True)
    entry = await tournaments.entry(entry_id)
    assert entry is not None and entry.total == 162 and entry.hand_scores == (120, 42) and entry.finished_by_ai
    assert await tournaments.count_entries(first) == 1
    await tournaments.set_config(TournamentConfig(GUILD, True, 20, GUILD + 1, None))
    await tournaments.set_config(TournamentConfig(GUILD, True, 21, GUILD + 1, GUILD + 9))  # replaced
    assert await tournaments.config(GUILD) == TournamentConfig(GUILD, True, 21, GUILD + 1, GUILD + 9)
    assert [c.guild_id for c in await tournaments.daily_configs()] == [GUILD]
    await tournaments.set_status(daily, TournamentStatus.CLOSED)
    assert [t.id for t, _ in await tournaments.closed_daily(GUILD)] == [daily]


async def test_a_review_marked_failed_replaces_the_earlier_one(store: SqlStore) -> None:
    _, table = await started(store)
    await store.review_failed(table.id, 1, "boom " * 200)
    await store.review_failed(table.id, 1, "again")
    review = await store.review(table.id)
    assert review is not None and review.status.value == "failed"
    async with store.db.execute("SELECT error FROM reviews WHERE table_id = ?", (table.id,)) as cursor:
        assert [row[0] for row in await cursor.fetchall()] == ["again"]


async def test_times_are_kept_as_the_same_iso_text_in_both(store: SqlStore) -> None:
    _, table = await started(store)
    updated = await store.updated_at(table.id)
    assert updated is not None and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", updated), updated


# ------------------------------------------------------------ concurrent writers (SQLite: group commit)


class Failure(Exception):
    pass


async def test_concurrent_writers_each_keep_or_lose_only_their_own_changes(new_store: StoreMaker) -> None:
    """Many transactions at once (in SQLite they share commits): one that fails leaves nothing of its own behind
    and takes nothing of the others with it; what returned is there for another connection too."""
    async with new_store() as store:
        async def writer(index: int) -> None:
            async with store.transaction():
                await store.db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"k{index}", "first"))
                await store.db.execute("UPDATE meta SET value = ? WHERE key = ?", ("second", f"k{index}"))
                if index % 3 == 0:
                    raise Failure(index)

        results = await asyncio.gather(*(writer(i) for i in range(12)), *(store.set_meta(f"w{i}", "one")
                                                                          for i in range(6)), return_exceptions=True)
        assert [type(r) for r in results[:12]] == [Failure if i % 3 == 0 else type(None) for i in range(12)]
        assert results[12:] == [None] * 6
    async with new_store() as again, again.db.execute(
            "SELECT key, value FROM meta WHERE key LIKE 'k%' OR key LIKE 'w%'") as cursor:
        rows = {row[0]: row[1] for row in await cursor.fetchall()}
    assert rows == {**{f"k{i}": "second" for i in range(12) if i % 3}, **{f"w{i}": "one" for i in range(6)}}


def count_commits(store: SqlStore, fail: int = 0) -> list[int]:
    """Count the COMMITs of a SQLite store's connection (one element per commit); the first ``fail`` of them fail
    as a full disk would."""
    db = store.db.db  # type: ignore[attr-defined]  # the SqliteConnection's aiosqlite connection
    execute = db.execute
    commits: list[int] = []

    def counted(sql: str, *args: object) -> object:
        if sql == "COMMIT":
            commits.append(1)
            if len(commits) <= fail:
                async def full() -> None:
                    raise sqlite3.OperationalError("database or disk is full")
                return full()
        return execute(sql, *args)

    db.execute = counted
    return commits


async def test_a_burst_of_writers_shares_commits_and_each_returns_once_committed(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    async with SqliteStore(path) as store:
        commits = count_commits(store)
        outside = sqlite3.connect(path)  # another connection sees only what is committed
        seen: list[bool] = []

        async def writer(index: int) -> None:
            await store.set_meta(f"k{index}", "v")
            # Nothing awaited between the return and the look: the commit came first.
            seen.append(outside.execute("SELECT 1 FROM meta WHERE key = ?", (f"k{index}",)).fetchone() is not None)

        await asyncio.gather(*(writer(i) for i in range(20)))
        outside.close()
    assert seen == [True] * 20
    assert 1 <= len(commits) <= 3, len(commits)  # one per write would be 20


async def test_a_steady_queue_of_writers_still_commits_in_full_batches(tmp_path: Path) -> None:
    """Writers that keep queueing do not keep the first ones waiting: a batch is committed once it is full."""
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        commits = count_commits(store)
        await asyncio.gather(*(store.set_meta(f"k{i}", "v") for i in range(96)))
    # Full (or old) batches: not one commit after the very last writer.
    assert len(commits) >= 96 // BATCH_WRITERS > 1, len(commits)


async def test_a_failed_commit_fails_every_writer_of_its_batch(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    async with SqliteStore(path) as store:
        commits = count_commits(store, fail=1)
        results = await asyncio.gather(*(store.set_meta(f"k{i}", "v") for i in range(5)), return_exceptions=True)
        assert len(commits) == 1 and all(isinstance(r, sqlite3.OperationalError) for r in results), results
        assert [await store.get_meta(f"k{i}") for i in range(5)] == [None] * 5  # rolled back, in memory too
        await store.set_meta("after", "v")  # the store goes on
    async with SqliteStore(path) as again:
        assert [await again.get_meta(key) for key in ("k0", "after")] == [None, "v"]


async def test_a_writer_cancelled_while_queued_leaves_no_batch_uncommitted(tmp_path: Path) -> None:
    """The first writer leaves the commit to the one queued behind it; that one is cancelled before its turn: the
    batch is committed all the same, and the first writer returns."""
    path = tmp_path / "k.sqlite3"
    async with SqliteStore(path) as store:
        go = asyncio.Event()

        async def first() -> None:
            async with store.transaction():
                await store.db.execute("INSERT INTO meta (key, value) VALUES ('first', 'v')")
                await go.wait()

        async def queued_writer() -> None:
            async with store.transaction():
                await store.db.execute("INSERT INTO meta (key, value) VALUES ('queued', 'v')")

        one = asyncio.create_task(first())
        while not store.db._writing.locked():  # type: ignore[attr-defined]
            await asyncio.sleep(0)
        queued = asyncio.create_task(queued_writer())
        # A statement group waiting for its round, cancelled before the round began it, writes nothing either.
        withdrawn = asyncio.create_task(store.set_meta("withdrawn", "v"))
        await asyncio.sleep(0)
        withdrawn.cancel()
        await asyncio.sleep(0)
        go.set()
        while store.db._writing.locked():  # type: ignore[attr-defined]  # the first left; the queued is next
            await asyncio.sleep(0)
        queued.cancel()
        await asyncio.wait_for(one, 5)
        assert queued.cancelled() and withdrawn.cancelled()
        outside = sqlite3.connect(path)
        assert outside.execute("SELECT key FROM meta WHERE key IN ('first', 'queued', 'withdrawn')").fetchall() == [
            ("first",)]
        outside.close()


class HeldCommits:
    """Holds a SQLite store's COMMITs until ``release`` is set (its statements already ran in the batch); the
    first ``fail`` of them then fail as a full disk would."""

    def __init__(self, store: SqlStore, fail: int = 0) -> None:
        self.reached, self.release = asyncio.Event(), asyncio.Event()
        db = store.db.db  # type: ignore[attr-defined]  # the SqliteConnection's aiosqlite connection
        execute, failed = db.execute, [0]

        def held(sql: str, *args: object) -> object:
            if sql != "COMMIT":
                return execute(sql, *args)

            async def commit() -> object:
                self.reached.set()
                await self.release.wait()
                if failed[0] < fail:
                    failed[0] += 1
                    raise sqlite3.OperationalError("database or disk is full")
                return await execute(sql, *args)
            return commit()

        db.execute = held


async def apply_cancelled_mid_commit(registry: TableRegistry, table: Table, commits: HeldCommits,
                                     answered: list[bool]) -> Deal:
    """The first action, whose caller (the driver, closing) is cancelled while its commit is under way."""
    deal = a_deal(3)
    applying = asyncio.create_task(registry.apply(table, None, deal, Actor.CHANCE, None,
                                                  on_stored=lambda: answered.append(True)))
    await asyncio.wait_for(commits.reached.wait(), 5)
    applying.cancel()
    for _ in range(5):  # the cancellation reaches the caller while the commit is still held
        await asyncio.sleep(0)
    commits.release.set()
    with pytest.raises(asyncio.CancelledError):
        await applying
    return deal


async def test_an_action_whose_caller_is_cancelled_mid_commit_stays_in_memory_as_in_the_store(
        tmp_path: Path) -> None:
    """Once begun, the commit goes through: memory keeps the action too (answered and told), so the table's next
    action goes in at the next position rather than being refused as taken."""
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        registry, table = await started(store)
        told: list[object] = []

        async def subscriber(event: object) -> None:
            told.append(event)

        registry.subscribe(subscriber)
        answered: list[bool] = []
        deal = await apply_cancelled_mid_commit(registry, table, HeldCommits(store), answered)
        assert table.game.actions == [deal] and table.actors == [Actor.CHANCE]
        assert [action for action, _ in await store.actions(table.id)] == [deal]
        assert answered == [True] and [type(event) for event in told] == [GameProgress]
        call = table.game.legal_actions()[0]
        await registry.apply(table, table.game.to_act, call, Actor.HUMAN, ANNA)
        assert [action for action, _ in await store.actions(table.id)] == [deal, call]


async def test_an_action_whose_caller_is_cancelled_and_whose_commit_fails_leaves_memory(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        registry, table = await started(store)
        answered: list[bool] = []
        deal = await apply_cancelled_mid_commit(registry, table, HeldCommits(store, fail=1), answered)
        assert table.game.actions == [] and table.actors == [] and answered == []
        assert await store.actions(table.id) == []
        await registry.apply(table, None, deal, Actor.CHANCE, None)  # the position is free: it goes in now
        assert [action for action, _ in await store.actions(table.id)] == [deal]


async def test_closing_the_service_while_the_deal_commits_keeps_memory_as_the_store(tmp_path: Path) -> None:
    """Shutting down cancels the tables' driver tasks, one of them storing the deal: it finishes first."""
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        service = TableService(store, ServiceConfig(ai_pause=0, deal_pause=0, turn_time=60))
        table = await service.create_table(host_id=ANNA, host_name="Anna",
                                           settings=TableSettings(Rules().with_changes(length="1")), seed=3)
        await service.start(table.id, ANNA)
        commits = HeldCommits(store)  # before the driver's task runs: its first commit is the deal's
        await asyncio.wait_for(commits.reached.wait(), 5)
        closing = asyncio.create_task(service.close())
        for _ in range(5):
            await asyncio.sleep(0)
        commits.release.set()
        await asyncio.wait_for(closing, 5)
        assert len(table.game.actions) == 1
        assert [action for action, _ in await store.actions(table.id)] == table.game.actions


async def test_a_statement_group_is_all_or_nothing_and_keeps_the_others_work(new_store: StoreMaker) -> None:
    """``atomic``: a check that refuses, or a statement the database refuses (as ``Conflict``), undoes the whole
    group and nothing of the groups and writers around it; what returned is there for another connection too."""
    def refuse(rows: list[object]) -> None:
        raise Failure(rows)

    async with new_store() as store:
        def group(index: int, last: Step) -> list[Step]:
            return [Step("INSERT INTO meta (key, value) VALUES (?, ?)", (f"g{index}", "v")),
                    Step("SELECT value FROM meta WHERE key = ?", (f"g{index}",)), last]

        kept = Step("UPDATE meta SET value = ? WHERE key = ? RETURNING value", ("w", "g0"))
        twice = Step("INSERT INTO meta (key, value) VALUES (?, ?)", ("g2", "again"))
        results = await asyncio.gather(
            store.db.atomic(group(0, kept)), store.set_meta("s", "v"),
            store.db.atomic(group(1, Step("SELECT 1", (), refuse))), store.db.atomic(group(2, twice)),
            return_exceptions=True)
        assert [[list(row) for row in rows] for rows in results[0]] == [[], [["v"]], [["w"]]]  # type: ignore[union-attr]
        assert results[1] is None
        assert isinstance(results[2], Failure) and isinstance(results[3], Conflict)
    async with new_store() as again, again.db.execute("SELECT key, value FROM meta WHERE key IN "
                                                      "('g0', 'g1', 'g2', 's')") as cursor:
        assert {row[0]: row[1] for row in await cursor.fetchall()} == {"g0": "w", "s": "v"}


def count_trips(store: SqlStore, reader: bool = False) -> list[object]:
    """Count the jobs a SQLite store's writing connection (or its reader) sends to aiosqlite's thread."""
    db = store.db.reader if reader else store.db.db  # type: ignore[attr-defined]
    run = db._execute
    trips: list[object] = []

    async def counted(fn: object, *args: object, **kwargs: object) -> object:
        trips.append(fn)
        return await run(fn, *args, **kwargs)

    db._execute = counted
    return trips


async def test_a_statement_an_action_and_a_burst_of_writes_are_one_trip_each(tmp_path: Path) -> None:
    """Every trip waits for a turn of the event loop, and a writer holds the write lock over its trips: a statement
    is one trip, a whole action (its checks and writes) one more than the shared batch's BEGIN, and so is a burst of
    writes."""
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        _, table = await started(store)
        trips, reads = count_trips(store), count_trips(store, reader=True)
        await store.get_meta("x")
        assert (len(trips), len(reads)) == (0, 1)  # a read goes to the reader's thread
        trips.clear()
        revision = table.revision
        await store.append_action(table, 0, a_deal(1), None, Actor.CHANCE, None)
        assert len(trips) == 3, trips  # BEGIN IMMEDIATE, the action, COMMIT
        assert [action for action, _ in await store.actions(table.id)] == [a_deal(1)]
        assert table.revision == revision + 1 == await store.revision(table.id)
        trips.clear()  # writers arriving together share a round: one trip for all their statements
        await asyncio.gather(*(store.set_meta(f"k{i}", "v") for i in range(10)))
        assert len(trips) == 3, trips
        assert [await store.get_meta(f"k{i}") for i in range(10)] == ["v"] * 10


def round_of_each(store: SqlStore) -> dict[str, int]:
    """Which round (counted from 0) of a SQLite store's writer ran each group, by the meta key the group writes."""
    db = store.db.db  # type: ignore[attr-defined]
    run = db._execute
    rounds: dict[str, int] = {}
    count = 0

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal count
        if getattr(fn, "__name__", "") == "_run_groups":
            for group in args[1]:
                rounds[group.plan.gi_frame.f_locals["key"]] = count
            count += 1
        return await run(fn, *args, **kwargs)

    db._execute = counted
    return rounds


def meta_plan(key: str) -> Plan[None]:
    yield Step("INSERT INTO meta (key, value) VALUES (?, 'v')", (key,))


async def test_light_writes_waiting_go_before_heavy_ones_beyond_a_few_a_round(tmp_path: Path) -> None:
    """A round runs at most a few heavy groups (a match's statistics); the light ones (a click's action) that queued
    behind more of them go in the same round, not after them all, and every group is written once."""
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        rounds = round_of_each(store)
        heavy = [f"h{i}" for i in range(3 * HEAVY_PER_ROUND)]
        light = [f"l{i}" for i in range(5)]
        await asyncio.gather(*(store.db.atomic_plan(meta_plan(key), heavy=True) for key in heavy),
                             *(store.db.atomic_plan(meta_plan(key)) for key in light))
        assert {rounds[key] for key in light} == {0}
        assert [rounds[key] for key in heavy] == [i // HEAVY_PER_ROUND for i in range(len(heavy))]
        assert [await store.get_meta(key) for key in heavy + light] == ["v"] * len(heavy + light)
        # Light writes that fill whole rounds do not keep a heavy one waiting for ever.
        rounds.clear()
        many = [f"m{i}" for i in range(2 * BATCH_WRITERS)]
        await asyncio.gather(*(store.db.atomic_plan(meta_plan(key)) for key in many),
                             store.db.atomic_plan(meta_plan("late"), heavy=True))
        first = min(rounds.values())
        assert rounds["late"] == first and max(rounds.values()) == first + 2, rounds
        assert len([key for key in many if rounds[key] == first]) == BATCH_WRITERS - 1


async def test_creating_and_saving_a_table_are_one_trip_each_and_a_burst_of_them_is_one(tmp_path: Path) -> None:
    """A new table (its row, its four seats, which need its id) and a save (row and seats) are each one statement
    group: one trip to aiosqlite's thread besides the batch's BEGIN and COMMIT; tables created and saved together
    share one round."""
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        trips = count_trips(store)
        table = new_table()
        table.id = await store.create_table(table)
        assert len(trips) == 3, trips  # BEGIN IMMEDIATE, the group, COMMIT
        trips.clear()
        table.status, table.thread_id = TableStatus.PLAYING, GUILD + 7
        table.seats[Seat.N] = SeatInfo(SeatKind.HUMAN, BERT, "Bert", delivery=Delivery.DM)
        await store.save_table(table)
        assert len(trips) == 3, trips
        assert table.revision == 1 == await store.revision(table.id)
        trips.clear()
        others = [new_table() for _ in range(5)]
        created, _ = await asyncio.gather(asyncio.gather(*(store.create_table(other) for other in others)),
                                          asyncio.gather(*(store.save_table(table) for _ in range(5))))
        assert len(trips) == 3, trips
        assert len(set(created)) == 5 and table.id not in created
        loaded = await store.load_table(table.id)
        assert loaded is not None and (loaded.seats, loaded.thread_id) == (table.seats, GUILD + 7)
        assert await store.revision(table.id) == 6


async def test_tables_created_and_saved_together_each_keep_their_own_id_seats_and_notice(store: SqlStore) -> None:
    """Both stores: each of many tables created at once gets its own id with its own seats (the seats' statement
    takes the id the table's INSERT returned, inside the group), and PostgreSQL's notice names that id; a save
    moves the revision on by one."""
    heard: list[str] = []
    if store.dialect.notify is not None:
        await store.listen(heard.append)
    tables = []
    for index in range(8):
        table = new_table()
        table.host_id = ANNA + index
        table.seats[Seat.N] = SeatInfo(SeatKind.HUMAN, BERT + index, f"Bert {index}", delivery=Delivery.THREAD)
        tables.append(table)
    ids = await asyncio.gather(*(store.create_table(table) for table in tables))
    assert len(set(ids)) == 8
    for table, table_id in zip(tables, ids, strict=True):
        table.id = table_id
        loaded = await store.load_table(table_id)
        assert loaded is not None and (loaded.host_id, loaded.seats) == (table.host_id, table.seats)
    for table in tables:
        table.seats[Seat.E] = SeatInfo(SeatKind.HUMAN, table.host_id, "Host", away=True, misses=1)
    await asyncio.gather(*(store.save_table(table) for table in tables))
    for table in tables:
        loaded = await store.load_table(table.id)
        assert loaded is not None and loaded.seats == table.seats
        assert table.revision == 1 == loaded.revision
    if store.dialect.notify is not None:
        for _ in range(200):
            if len(heard) >= 16:
                break
            await asyncio.sleep(0.01)
        noticed = [json.loads(text)["table"] for text in heard]
        assert sorted(noticed) == sorted(ids * 2), noticed


async def test_a_table_whose_seats_are_refused_is_not_created(store: SqlStore) -> None:
    """The table's row and its seats are one group: a seat row the database refuses takes the table with it."""
    table = new_table()
    table.seats[Seat.W] = dataclasses.replace(table.seats[Seat.W], kind=cast(Any, SimpleNamespace(value="bogus")))
    with pytest.raises(Conflict):
        await store.create_table(table)
    async with store.db.execute("SELECT count(*) FROM tables") as cursor:
        assert (await cursor.fetchone())[0] == 0
    assert await store.create_table(new_table()) > 0  # the store goes on


async def test_reads_go_to_the_reader_which_sees_every_write_that_returned(tmp_path: Path) -> None:
    """A SQLite store reads outside transactions on a connection of its own, so a read does not wait for the
    writer's thread (here blocked outright); it sees each write as soon as the write returned, never a write
    still uncommitted; a read inside a transaction sees that transaction's own writes."""
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        reads = count_trips(store, reader=True)
        seen: list[str | None] = []

        async def writer(index: int) -> None:
            await store.set_meta(f"k{index}", "v")
            seen.append(await store.get_meta(f"k{index}"))
            table = new_table()
            table.id = await store.create_table(table)
            loaded = await store.load_table(table.id)
            assert loaded is not None and loaded.seats == table.seats

        await asyncio.gather(*(writer(i) for i in range(20)))
        assert seen == ["v"] * 20
        assert len(reads) == 20 * 3  # get_meta, load_table (row, seats): all on the reader

        # The writer's thread busy (a long commit, a round): a read goes on regardless.
        release = threading.Event()
        blocked = asyncio.create_task(store.db.db._execute(release.wait, 10))  # type: ignore[attr-defined]
        try:
            assert await asyncio.wait_for(store.get_meta("k0"), 5) == "v"
        finally:
            release.set()
            await blocked

        go, written = asyncio.Event(), asyncio.Event()

        async def uncommitted() -> None:
            async with store.transaction():
                await store.db.execute("INSERT INTO meta (key, value) VALUES ('open', 'v')")
                async with store.db.execute("SELECT value FROM meta WHERE key = 'open'") as cursor:
                    assert (await cursor.fetchone())[0] == "v"  # its own write, on the writer
                written.set()
                await go.wait()

        task = asyncio.create_task(uncommitted())
        await written.wait()
        assert await store.get_meta("open") is None  # not committed yet: not there for the others
        go.set()
        await task
        assert await store.get_meta("open") == "v"
