"""One schema source for both databases (bot.store.schema): what it makes, on SQLite and on PostgreSQL, is the
schema the databases already in use have, so none of them needs a migration or sees one run again.

``schema_before.json`` is that schema, captured once from fresh databases made by the two sets of SQL files the
store had before (one per database): SQLite's ``sqlite_master`` with comments and spacing dropped, PostgreSQL's
columns, constraints, indexes and functions as its catalogs print them."""

from __future__ import annotations

import itertools
import json
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from pg_server import PgServer

from bot.store.backend import POSTGRES, SQLITE, StoreError, stored_time
from bot.store.postgres import PostgresStore
from bot.store.schema import Migration, migrations, schema
from bot.store.sqlite import SqliteStore

BEFORE = json.loads((Path(__file__).parent / "schema_before.json").read_text(encoding="utf-8"))
# The migrations a database remembers having run (by number; the names say which is which).
NAMES = ["0001_initial.sql", "0002_seats_prompts_prefs.sql", "0003_thread_index.sql", "0004_decline_action.sql",
         "0005_announced.sql", "0006_stats.sql", "0007_reviews.sql", "0008_tournaments.sql", "0009_revision.sql",
         "0010_tournament_hands.sql", "0011_seat_language.sql"]
_COMMENT = re.compile(r"--[^\n]*")
STORED_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def sqlite_schema(path: Path) -> list[list[Any]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
    return [[kind, name, table, None if sql is None else " ".join(_COMMENT.sub("", sql).split())]
            for kind, name, table, sql in rows]


POSTGRES_CATALOG = {
    "columns": "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity, "
               "identity_generation FROM information_schema.columns WHERE table_schema = 'public' "
               "ORDER BY table_name, ordinal_position",
    "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
                   "WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
    "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2",
    "functions": "SELECT proname, pg_get_functiondef(oid) FROM pg_proc "
                 "WHERE pronamespace = 'public'::regnamespace ORDER BY 1",
}


async def postgres_schema(url: str) -> dict[str, list[list[Any]]]:
    db = await asyncpg.connect(url)
    try:
        return {key: [list(row) for row in await db.fetch(sql)] for key, sql in POSTGRES_CATALOG.items()}
    finally:
        await db.close()


_EMPTY = itertools.count()
EmptyDatabase = Callable[[], Awaitable[str]]


@pytest.fixture
async def empty_database(pg_server: PgServer | str) -> AsyncIterator[EmptyDatabase]:
    """Makes PostgreSQL databases with nothing in them (not even the migrated schema): their URLs."""
    if isinstance(pg_server, str):
        pytest.skip(pg_server)
    server, made = pg_server, []

    async def make() -> str:
        name = f"klaverjas_empty_{os.getpid()}_{next(_EMPTY)}"
        admin = await asyncpg.connect(server.admin_url)
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name}")
            await admin.execute(f"CREATE DATABASE {name}")
        finally:
            await admin.close()
        made.append(server.url_of(name))
        return made[-1]

    yield make
    for url in made:
        await server.drop_database(url)


def sqlite_at(path: Path, version: int) -> Path:
    """A SQLite database at ``path`` migrated by the scripts up to ``version``, as a bot of that version left it."""
    with sqlite3.connect(path) as db:
        for _, _, sql in migrations("sqlite")[:version]:
            db.executescript(sql)
        db.execute(f"PRAGMA user_version = {version}")
    return path


async def postgres_at(url: str, version: int) -> str:
    """The PostgreSQL database at ``url`` migrated by the scripts up to ``version`` (0: left empty)."""
    if version:
        db = await asyncpg.connect(url)
        try:
            async with db.transaction():
                for _, _, sql in migrations("postgres")[:version]:
                    await db.execute(sql)
                await db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")  # as the store makes it
                await db.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
        finally:
            await db.close()
    return url


def test_every_migration_keeps_its_number_and_name() -> None:
    assert [(migration.number, migration.name) for migration in schema()][:len(NAMES)] == list(
        enumerate(NAMES, start=1))


def test_on_sqlite_the_migrations_make_the_schema_the_old_files_made(tmp_path: Path) -> None:
    assert sqlite_schema(sqlite_at(tmp_path / "k.sqlite3", len(NAMES))) == BEFORE["sqlite"]


async def test_on_postgres_the_migrations_make_the_schema_the_old_files_made(empty_database: EmptyDatabase) -> None:
    assert await postgres_schema(await postgres_at(await empty_database(), len(NAMES))) == BEFORE["postgres"]


@pytest.mark.parametrize("version", range(len(NAMES)))
async def test_a_sqlite_database_at_any_version_is_migrated_to_the_newest_schema(tmp_path: Path, version: int) -> None:
    """Opened by the store, a database left at an older version (0: a new one) gets what the scripts make."""
    newest = len(schema())
    async with SqliteStore(sqlite_at(tmp_path / "old.sqlite3", version)) as store:
        assert await store.schema_version() == newest
    assert sqlite_schema(tmp_path / "old.sqlite3") == sqlite_schema(sqlite_at(tmp_path / "new.sqlite3", newest))


@pytest.mark.parametrize("version", [0, 3, 7])
async def test_a_postgres_database_at_an_older_version_is_migrated_to_the_newest_schema(
        empty_database: EmptyDatabase, version: int) -> None:
    newest = len(schema())
    old = await postgres_at(await empty_database(), version)
    async with PostgresStore(old) as store:
        assert await store.schema_version() == newest
    assert await postgres_schema(old) == await postgres_schema(await postgres_at(await empty_database(), newest))


async def test_both_databases_get_the_same_tables_columns_and_indexes(empty_database: EmptyDatabase) -> None:
    """What the migrations make in SQLite and in PostgreSQL: the same tables, their columns in the same order,
    nullable alike and holding the same kind of value, the same indexes."""
    postgres = await postgres_schema(await postgres_at(await empty_database(), len(schema())))
    kinds = {"TEXT": {"text"}, "REAL": {"double precision"}, "INTEGER": {"integer", "bigint"}}  # INTEGER: 64 bits
    with sqlite3.connect(":memory:") as db:
        for _, _, sql in migrations("sqlite"):
            db.executescript(sql)
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                 "AND name != 'sqlite_sequence'")]
        columns = sorted(([table, name, declared, bool(notnull or primary)] for table in tables
                          for _, name, declared, notnull, _, primary in db.execute(f"PRAGMA table_info({table})")),
                         key=lambda column: column[0])
        indexes = sorted(name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' "
                                                        "AND sql IS NOT NULL"))
    # PostgreSQL's schema_version is the migrations' bookkeeping, which SQLite keeps in PRAGMA user_version.
    theirs = sorted((column for column in postgres["columns"] if column[0] != "schema_version"),
                    key=lambda column: column[0])
    assert [[table, name, not_null] for table, name, _, not_null in columns] == [
        [table, name, nullable == "NO"] for table, name, _, nullable, *_ in theirs]
    assert [kind in kinds[declared] for (*_, declared, _), (_, _, kind, *_) in zip(columns, theirs, strict=True)] == [
        True] * len(columns)
    assert indexes == sorted(name for _, name, _ in postgres["indexes"]
                             if not name.endswith(("_pkey", "_key")))


def test_a_migration_is_spelled_for_each_database() -> None:
    migration = Migration(1, "0001_x.sql", "CREATE TABLE t (id {auto_id}, n {int64}, at TEXT DEFAULT ({now}));\n"
                                           "-- only postgres:\nSELECT {clock};\n-- only sqlite:\nSELECT 1;\n"
                                           "-- both:\nSELECT 2;\n")
    assert migration.sql(SQLITE).split() == [
        "CREATE", "TABLE", "t", "(id", "INTEGER", "PRIMARY", "KEY", "AUTOINCREMENT,", "n", "INTEGER,", "at", "TEXT",
        "DEFAULT", "(strftime('%Y-%m-%dT%H:%M:%fZ',", "'now')));", "SELECT", "1;", "SELECT", "2;"]
    postgres = migration.sql(POSTGRES)
    assert "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in postgres and "n BIGINT" in postgres
    assert "DEFAULT (klaverjas_now())" in postgres and f"SELECT {POSTGRES.clock};" in postgres
    assert "SELECT 1;" not in postgres and "SELECT 2;" in postgres
    with pytest.raises(StoreError, match="bigint"):
        Migration(2, "0002_y.sql", "CREATE TABLE u (n {bigint});").sql(SQLITE)


def test_python_writes_a_time_as_the_store_keeps_it() -> None:
    moment = datetime(2024, 5, 1, 22, 15, 0, 123456, tzinfo=timezone(timedelta(hours=2)))
    assert stored_time(moment) == "2024-05-01T20:15:00.123Z"


async def test_both_databases_clocks_write_a_time_as_python_does(tmp_path: Path,
                                                                  empty_database: EmptyDatabase) -> None:
    before = datetime.now(UTC) - timedelta(seconds=5)
    async with SqliteStore(tmp_path / "k.sqlite3") as lite, PostgresStore(await empty_database()) as postgres:
        times = [(await (await store.db.execute(f"SELECT {sql}")).fetchone())[0]
                 for store in (lite, postgres) for sql in (store.dialect.clock, store.dialect.now)]
    times.append(stored_time(datetime.now(UTC)))
    for text in times:
        assert STORED_TIME.match(text), text
        assert before <= datetime.fromisoformat(text) <= datetime.now(UTC) + timedelta(seconds=5)
