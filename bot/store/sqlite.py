"""The store in SQLite through aiosqlite: the default, nothing to install (``bot.store.base`` holds the SQL).

WAL mode; ``PRAGMA user_version`` remembers how far the migrations went. One process writes the file.
"""

from __future__ import annotations

from pathlib import Path

from bot.store.backend import Connection, SqliteConnection, StoreError, statements
from bot.store.base import ANONYMOUS, DATA_STEPS, SqlStore
from bot.store.schema import migrations

__all__ = ["ANONYMOUS", "DATA_STEPS", "DEFAULT_PATH", "SqliteStore", "StoreError", "migrations", "path_problem",
           "statements"]

DEFAULT_PATH = Path("data/klaverjas.sqlite3")


def path_problem(path: Path) -> str | None:
    """Why a database file cannot be at ``path`` (a folder; a folder that does not exist), or None.

    Only the default file's folder is made when missing: a mistyped path should not leave folders behind."""
    if str(path) == ":memory:":
        return None
    if path.is_dir():
        return f"{path} is a folder; give a file in it, for example {path / DEFAULT_PATH.name}"
    if path.parent.exists() and not path.parent.is_dir():
        return f"{path.parent} is a file, not a folder"
    if not path.parent.is_dir() and path.absolute() != DEFAULT_PATH.absolute():
        return f"the folder {path.parent} does not exist; create it first or choose a file in another folder"
    return None


class SqliteStore(SqlStore):
    def __init__(self, path: str | Path = DEFAULT_PATH) -> None:
        super().__init__()
        self.path = Path(path)

    async def connect(self) -> Connection:
        if self.path.absolute() == DEFAULT_PATH.absolute():
            self.path.parent.mkdir(exist_ok=True)
        return await SqliteConnection.open(self.path)
