"""The store in PostgreSQL through asyncpg, for a bot past one machine (``bot.store.base`` holds the SQL).

Chosen by ``DATABASE_URL`` (``postgresql://user:password@host/database``). Several processes may share the
database: migrations wait for each other (an advisory lock), each table's actions are appended at the next
position only (``SqlStore.append_action``), and a table's lock is an advisory lock (``PostgresConnection.hold_table``).
"""

from __future__ import annotations

from bot.store.backend import DEFAULT_POOL_SIZE, Connection, PostgresConnection
from bot.store.base import SqlStore


class PostgresStore(SqlStore):
    def __init__(self, url: str, pool_size: int = DEFAULT_POOL_SIZE) -> None:
        super().__init__()
        self.url = url
        self.pool_size = pool_size  # work connections, at most (``KLAVERJAS_DB_POOL``)

    async def connect(self) -> Connection:
        return await PostgresConnection.open(self.url, self.pool_size)
