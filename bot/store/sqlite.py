"""The store in SQLite through aiosqlite: the default, nothing to install (``bot.store.base`` holds the SQL).

WAL mode; ``PRAGMA user_version`` remembers how far the migrations went. One process writes the file.
"""

from __future__ import annotations

from pathlib import Path

from bot.store.backend import Connection, SqliteConnection, StoreError, statements
from bot.store.base import ANONYMOUS, DATA_STEPS, SqlStore, migrations

__all__ = ["ANONYMOUS", "DATA_STEPS", "DEFAULT_PATH", "SqliteStore", "StoreError", "migrations", "statements"]

DEFAULT_PATH = Path("data/klaverjas.sqlite3")


class SqliteStore(SqlStore):
    def __init__(self, path: str | Path = DEFAULT_PATH) -> None:
        super().__init__()
        self.path = Path(path)

    async def connect(self) -> Connection:
        return await SqliteConnection.open(self.path)
