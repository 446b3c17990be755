"""SQLite persistence through aiosqlite: tables, seats, actions, Discord facts, server defaults.

WAL mode; the numbered scripts in ``bot/store/migrations`` are applied at start in one transaction and
``PRAGMA user_version`` remembers how far the database is. Every action is committed before the
service announces it, so a restart replays exactly what players saw acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.codec import decode_action, encode_action
from bot.tables.model import Actor, Delivery, SeatInfo, SeatKind, Table, TableSettings, TableStatus
from engine.actions import Action
from engine.ai.players import Level
from engine.cards import SEATS, Seat
from engine.game import Game
from engine.record import export_record

DEFAULT_PATH = Path("data/klaverjas.sqlite3")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class StoreError(RuntimeError):
    """The database cannot be used (newer schema, broken migration)."""


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration script, in order; numbers must run 1, 2, 3 ..."""
    found: list[tuple[int, str, str]] = []
    folder = resources.files("bot.store") / "migrations"
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    for expected, (number, name, _) in enumerate(found, start=1):
        if number != expected:
            raise StoreError(f"migration {name} is out of sequence: expected number {expected:04d}")
    return found


class SqliteStore:
    def __init__(self, path: str | Path = DEFAULT_PATH) -> None:
        self.path = Path(path)
        self._db: aiosqlite.Connection | None = None
        # One connection for every table: a write must not land inside another coroutine's open transaction
        # (it would be committed or rolled back with it, and "stored" could be said of an uncommitted action).
        self._writing = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open: call await store.open() first")
        return self._db

    async def open(self) -> SqliteStore:
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level None: we write BEGIN/COMMIT ourselves, so a migration is one transaction.
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await self.migrate()
        return self

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def __aenter__(self) -> SqliteStore:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply the pending migrations in one transaction; returns the schema version."""
        current = await self.schema_version()
        scripts = migrations()
        if current > len(scripts):
            raise StoreError(f"{self.path} has schema version {current}, newer than this bot knows "
                             f"({len(scripts)}): update the bot or use another database file")
        pending = [sql for number, _, sql in scripts if number > current]
        if not pending:
            return current
        script = "BEGIN;\n" + "\n".join(pending) + f"\nPRAGMA user_version = {len(scripts)};\nCOMMIT;"
        try:
            await self.db.executescript(script)
        except Exception as error:
            if self.db.in_transaction:
                await self.db.execute("ROLLBACK")
            raise StoreError(f"migrating {self.path} failed, nothing was changed: {error}") from error
        return len(scripts)

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        async with self._writing:
            await self.db.execute("BEGIN")
            try:
                yield
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    async def _write(self, sql: str, parameters: tuple[Any, ...]) -> None:
        async with self._writing:
            await self.db.execute(sql, parameters)

    # ------------------------------------------------------------ tables

    async def create_table(self, table: Table) -> int:
        async with self._transaction():
            cursor = await self.db.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, status, settings, seed, announced) "
                "VALUES (?, ?, ?, ?, ?, ?, 0)",
                (table.guild_id, table.channel_id, table.host_id, table.stored_status.value,
                 json.dumps(table.settings.to_dict()), table.seed))
            table_id = cursor.lastrowid
            assert table_id is not None
            await self._write_seats(table_id, table)
        return table_id

    async def save_table(self, table: Table) -> None:
        async with self._transaction():
            await self.db.execute(
                "UPDATE tables SET guild_id = ?, channel_id = ?, thread_id = ?, lobby_message_id = ?, "
                "table_message_id = ?, prompt_message_id = ?, prompt_version = ?, rematch_id = ?, host_id = ?, "
                "status = ?, settings = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                (table.guild_id, table.channel_id, table.thread_id, table.lobby_message_id, table.table_message_id,
                 table.prompt_message_id, table.prompt_version, table.rematch_id, table.host_id,
                 table.stored_status.value, json.dumps(table.settings.to_dict()), table.id))
            await self._write_seats(table.id, table)

    async def _write_seats(self, table_id: int, table: Table) -> None:
        await self.db.executemany(
            "INSERT OR REPLACE INTO seats (table_id, seat, kind, user_id, name, ai_level, away, misses, delivery, "
            "dm_channel_id, hand_message_id, pending_user_id, pending_name, pending_delivery) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, seat.letter, info.kind.value, info.user_id, info.name, info.ai_level.value, int(info.away),
              info.misses, info.delivery.value, info.dm_channel_id, info.hand_message_id, info.pending_user_id,
              info.pending_name, info.pending_delivery.value)
             for seat, info in zip(SEATS, table.seats, strict=True)])

    async def append_action(self, table: Table, seq: int, action: Action, seat: Seat | None, actor: Actor,
                            user_id: int | None) -> None:
        kind, data = encode_action(action)
        # The primary key (table_id, seq) refuses a second write of the same position: never twice.
        await self._write(
            "INSERT INTO actions (table_id, seq, kind, data, seat, actor, user_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table.id, seq, kind, data, seat.letter if seat is not None else None, actor.value, user_id))

    async def actions(self, table_id: int) -> list[tuple[Action, Actor]]:
        async with self.db.execute("SELECT seq, kind, data, actor FROM actions WHERE table_id = ? ORDER BY seq",
                                   (table_id,)) as cursor:
            rows = await cursor.fetchall()
        out: list[tuple[Action, Actor]] = []
        for expected, row in enumerate(rows):
            if row["seq"] != expected:
                raise StoreError(f"table {table_id}: action {expected} is missing from the store")
            out.append((decode_action(row["kind"], row["data"]), Actor(row["actor"])))
        return out

    async def load_table(self, table_id: int) -> Table | None:
        async with self.db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return await self._table_from_row(row) if row is not None else None

    async def _table_from_row(self, row: aiosqlite.Row) -> Table:
        settings = TableSettings.from_dict(json.loads(row["settings"]))
        table = Table(id=row["id"], host_id=row["host_id"], settings=settings, seed=row["seed"],
                      guild_id=row["guild_id"], channel_id=row["channel_id"], thread_id=row["thread_id"],
                      lobby_message_id=row["lobby_message_id"], table_message_id=row["table_message_id"],
                      prompt_message_id=row["prompt_message_id"], prompt_version=row["prompt_version"],
                      rematch_id=row["rematch_id"], opened_at=datetime.fromisoformat(row["created_at"]).timestamp(),
                      status=TableStatus(row["status"]), game=Game(settings.rules))
        async with self.db.execute("SELECT * FROM seats WHERE table_id = ?", (table.id,)) as cursor:
            for seat_row in await cursor.fetchall():
                table.seats[Seat.parse(seat_row["seat"])] = SeatInfo(
                    SeatKind(seat_row["kind"]), seat_row["user_id"], seat_row["name"], Level(seat_row["ai_level"]),
                    bool(seat_row["away"]), seat_row["misses"], Delivery(seat_row["delivery"]),
                    seat_row["dm_channel_id"], seat_row["hand_message_id"], seat_row["pending_user_id"],
                    seat_row["pending_name"], Delivery(seat_row["pending_delivery"]))
        return table

    async def delete_lobby(self, table_id: int) -> None:
        """Remove a lobby that never got its message (its seats go with it); a started table is never removed."""
        async with self._transaction():
            await self.db.execute("UPDATE tables SET rematch_id = NULL WHERE rematch_id = ?", (table_id,))
            await self.db.execute("DELETE FROM tables WHERE id = ? AND status = 'lobby'", (table_id,))

    async def set_announced(self, table_id: int, count: int) -> None:
        """The front end finished announcing the table's first ``count`` actions."""
        await self._write("UPDATE tables SET announced = ? WHERE id = ? AND (announced IS NULL OR announced < ?)",
                          (count, table_id, count))

    async def announced(self, table_id: int) -> int | None:
        """How many of the table's actions were announced in full; None when not known."""
        async with self.db.execute("SELECT announced FROM tables WHERE id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return int(row["announced"]) if row is not None and row["announced"] is not None else None

    async def table_in_thread(self, thread_id: int) -> int | None:
        """The table whose thread this is, whatever its status."""
        async with self.db.execute("SELECT id FROM tables WHERE thread_id = ? ORDER BY id LIMIT 1",
                                   (thread_id,)) as cursor:
            row = await cursor.fetchone()
        return int(row["id"]) if row is not None else None

    async def load_running(self) -> list[tuple[Table, list[tuple[Action, Actor]]]]:
        """Tables in the lobby or playing, with their actions, to rebuild after a restart."""
        async with self.db.execute("SELECT * FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id") as cursor:
            rows = await cursor.fetchall()
        out = []
        for row in rows:
            table = await self._table_from_row(row)
            out.append((table, await self.actions(table.id)))
        return out

    # ------------------------------------------------------------ server defaults and meta

    async def guild_defaults(self, guild_id: int) -> TableSettings | None:
        async with self.db.execute("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor:
            row = await cursor.fetchone()
        return TableSettings.from_dict(json.loads(row["settings"])) if row is not None else None

    async def set_guild_defaults(self, guild_id: int, settings: TableSettings) -> None:
        await self._write("INSERT OR REPLACE INTO guild_settings (guild_id, settings) VALUES (?, ?)",
                          (guild_id, json.dumps(settings.to_dict())))

    async def user_delivery(self, user_id: int) -> Delivery | None:
        """Where this user wants their private hand; None when they never said."""
        async with self.db.execute("SELECT delivery FROM user_prefs WHERE user_id = ?", (user_id,)) as cursor:
            row = await cursor.fetchone()
        return Delivery(row["delivery"]) if row is not None else None

    async def set_user_delivery(self, user_id: int, delivery: Delivery) -> None:
        await self._write("INSERT OR REPLACE INTO user_prefs (user_id, delivery) VALUES (?, ?)",
                          (user_id, delivery.value))

    async def get_meta(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return str(row["value"]) if row is not None else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    async def record(self, table_id: int) -> dict[str, Any]:
        """The stored game of a table as a ``klaverjas-record/1`` object."""
        table = await self.load_table(table_id)
        if table is None:
            raise StoreError(f"no table {table_id} in {self.path}")
        game = Game(table.rules)
        game.apply_all(action for action, _ in await self.actions(table_id))
        return export_record(game)
