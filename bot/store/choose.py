"""Which store the bot and its commands use: PostgreSQL when ``DATABASE_URL`` names one, else SQLite."""

from __future__ import annotations

from pathlib import Path

from bot.store.backend import DEFAULT_POOL_SIZE, is_postgres_url
from bot.store.base import SqlStore
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore


def store_for(database_url: str | None, sqlite_path: Path, pool_size: int = DEFAULT_POOL_SIZE) -> SqlStore:
    """An unopened store: the PostgreSQL database at ``database_url`` (with up to ``pool_size`` work connections)
    when set, else the SQLite file."""
    if database_url:
        if not is_postgres_url(database_url):
            raise ValueError("DATABASE_URL must start with postgresql:// (or postgres://)")
        return PostgresStore(database_url, pool_size)
    return SqliteStore(sqlite_path)


def store_at(target: str | Path) -> SqlStore:
    """An unopened store at a PostgreSQL URL or a SQLite file (the offline bot, benchmarks, tests)."""
    text = str(target)
    return store_for(text if is_postgres_url(text) else None, Path(target))
