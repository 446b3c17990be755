"""Fixtures shared by every test folder: the store tests run against both stores, SQLite and PostgreSQL.

``new_store`` gives an unopened store on one database per test (each call the same database, so a test can
close it and open it again, as a restart does); ``store`` is one already open. The PostgreSQL server is found or
started once per session (``tests/pg_server.py``); without one the PostgreSQL cases are skipped, saying why
(``pytest -rs`` shows it, as ``make test`` does).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pg_server import PgServer, StoreMaker, throwaway_server, why_unavailable

from bot.store.base import SqlStore
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore
from bot.texts import catalog


def pytest_configure(config: pytest.Config) -> None:
    """A text that cannot be said fails the test that asks for it, here and in the processes tests start."""
    os.environ["KLAVERJAS_STRICT_TEXTS"] = "1"
    catalog.STRICT_TEXTS = True


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer | str]:
    """The session's server, or why there is none (a string)."""
    reason = why_unavailable()
    if reason is not None:
        yield reason
        return
    url = os.environ.get("DATABASE_URL")
    if url:
        server = PgServer(url)
        yield server
        server.close()
        return
    stack = contextlib.ExitStack()
    try:
        started = stack.enter_context(throwaway_server())
    except Exception as error:  # e.g. initdb refused: the suite says so rather than failing every case
        detail = getattr(error, "stderr", "") or str(error)
        yield f"PostgreSQL suite skipped: could not start a throwaway server: {detail.strip()[:300]}"
        return
    with stack:
        yield started


@pytest.fixture(params=["sqlite", "postgres"])
def new_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreMaker]:
    if request.param == "sqlite":
        path = tmp_path / "k.sqlite3"
        yield lambda: SqliteStore(path)
        return
    server = request.getfixturevalue("pg_server")
    if isinstance(server, str):
        pytest.skip(server)
    url = asyncio.run(server.new_database())
    try:
        yield lambda: PostgresStore(url)
    finally:
        asyncio.run(server.drop_database(url))


@pytest.fixture
async def store(new_store: StoreMaker) -> AsyncIterator[SqlStore]:
    async with new_store() as opened:
        yield opened


@pytest.fixture
async def pg_url(pg_server: PgServer | str) -> AsyncIterator[str]:
    """A PostgreSQL database of its own for the test (skipped without a server), dropped after it."""
    if isinstance(pg_server, str):
        pytest.skip(pg_server)
    made = await pg_server.new_database()
    yield made
    await pg_server.drop_database(made)
