"""The store: tables, seats, actions, Discord facts, server defaults, statistics and reviews, in SQL.

Written once for both databases (``bot.store.backend``: SQLite by default, PostgreSQL when ``DATABASE_URL`` names
one); ``bot.store.sqlite.SqliteStore`` and ``bot.store.postgres.PostgresStore`` only open their connection. The
numbered migrations in ``bot/store/migrations`` (``bot.store.schema``: each written once for both databases) are
applied at start in one transaction. Every action is committed before the service announces it, so a restart replays
exactly what players saw acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import Any

from bot.access import counts_in_stats
from bot.stats.figures import BoardPage, HistoryEntry, PlayerStats
from bot.stats.ratings import MIN_MATCHES
from bot.store import stats
from bot.store.backend import (
    NOTICES,
    Conflict,
    Connection,
    Dialect,
    Plan,
    Step,
    StoreError,
    placeholders,
    retrieve,
    steps_plan,
)
from bot.store.codec import decode_action, encode_action
from bot.store.schema import migrations
from bot.tables.model import (
    AccuracyPoint,
    Actor,
    Delivery,
    PlayedMatch,
    ReviewStatus,
    SeatInfo,
    SeatKind,
    StoredReview,
    Table,
    TableSettings,
    TableStatus,
)
from bot.texts.language import Language
from engine.actions import Action, Call
from engine.ai.hints import Hint, HintCode
from engine.ai.players import Level
from engine.ai.review_summary import DecisionReview, MatchReview, summarise
from engine.cards import SEATS, Card, Seat
from engine.events import Event
from engine.game import Game
from engine.record import export_record

log = logging.getLogger(__name__)

# Who a forgotten user becomes in the games they played (not a Discord id: those start far above 0).
ANONYMOUS = 0
# The tables forget_user changes (bot.store.stats.forget's among them): scrubbed after it.
FORGET_TABLES = ("tables", "seats", "actions", "user_prefs", "hand_stats", "match_stats", "ratings", "rating_changes",
                 "review_decisions", "review_players", "tournament_entries", "tournaments")


async def _backfill_stats(store: SqlStore) -> None:
    await stats.backfill(store.db, store.load_table)


# Python steps of a migration, in the migration's transaction: rows that only replaying stored games can give.
DATA_STEPS: dict[int, Callable[[SqlStore], Awaitable[None]]] = {6: _backfill_stats}


class _TooNew(Exception):
    def __init__(self, version: int) -> None:
        self.version = version


def upsert(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    """INSERT of one row that replaces the row with the same ``key`` (SQL both dialects take)."""
    marks = placeholders(len(columns))
    updates = ", ".join(f"{column} = excluded.{column}" for column in columns if column not in key)
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) "
            f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}")


_SEAT_COLUMNS = ("table_id", "seat", "kind", "user_id", "name", "ai_level", "away", "misses", "delivery",
                 "dm_channel_id", "hand_message_id", "pending_user_id", "pending_name", "pending_delivery",
                 "language", "pending_language")


def _seats_upsert(table_id: str = "?") -> str:
    """One INSERT of a table's four seat rows, each replacing the stored row of its seat (SQL both dialects take);
    ``table_id``: the SQL of the table's id in each row, a parameter unless given."""
    row = f"({table_id}, {placeholders(len(_SEAT_COLUMNS) - 1)})"
    updates = ", ".join(f"{column} = excluded.{column}" for column in _SEAT_COLUMNS[2:])  # not the key
    return (f"INSERT INTO seats ({', '.join(_SEAT_COLUMNS)}) VALUES {', '.join(row for _ in SEATS)} "
            f"ON CONFLICT (table_id, seat) DO UPDATE SET {updates}")


_SEATS_UPSERT = _seats_upsert()


def _seat_parameters(table_id: int | None, table: Table) -> list[Any]:
    """The parameters of ``_SEATS_UPSERT``: the table's seats, row after row (None: of ``_seats_upsert`` given the
    id's SQL, without it)."""
    first = (table_id,) if table_id is not None else ()
    return [value for seat, info in zip(SEATS, table.seats, strict=True)
            for value in (*first, seat.letter, info.kind.value, info.user_id, info.name, info.ai_level.value,
                          int(info.away), info.misses, info.delivery.value, info.dm_channel_id, info.hand_message_id,
                          info.pending_user_id, info.pending_name, info.pending_delivery.value,
                          _language_value(info.language), _language_value(info.pending_language))]


def _language_value(language: Language | None) -> str | None:
    return language.value if language is not None else None


def _stored_language(value: str | None) -> Language | None:
    """A seat's stored language; NULL (a seat stored before seats had one) is the table's."""
    return Language.of(value) if value else None


def _stored_settings(text: str | None) -> TableSettings | None:
    """A server's stored default settings; None (NULL, no row) when it never set them."""
    return TableSettings.from_dict(json.loads(text)) if text is not None else None


def _stored_delivery(value: str | None) -> Delivery | None:
    """Where a person stored they want their hand; None (NULL, no row) when they never said."""
    return Delivery(value) if value is not None else None


# At most this many tables' marks go in one statement: far below either database's limit on a statement's parameters.
MARKS_PER_STATEMENT = 512


def _marks_update(rows: int) -> str:
    """One UPDATE that raises the ``announced`` mark of ``rows`` tables, each row a (table id, count) pair of
    parameters (SQL both dialects take; the casts give PostgreSQL the parameters' types)."""
    values = ", ".join("(CAST(? AS BIGINT), CAST(? AS BIGINT))" for _ in range(rows))
    return (f"UPDATE tables SET announced = marks.column2 FROM (VALUES {values}) AS marks "
            "WHERE tables.id = marks.column1 AND (tables.announced IS NULL OR tables.announced < marks.column2)")


def _padded(count: int) -> int:
    """The number of rows a statement of ``count`` marks is given: the next power of two, so that only a few
    statement texts exist (PostgreSQL prepares each text once per connection)."""
    return 1 << max(0, count - 1).bit_length()


class _AnnouncedMarks:
    """The "announced" marks of every table, written together: what is asked while one statement is under way goes
    in the next one, for every table at once. A busy bot marks after nearly every action of every table; each mark
    a statement of its own took a round trip and, on PostgreSQL, a pooled connection a click's action waited for.
    ``mark`` returns once its mark is committed, as a statement of its own would."""

    def __init__(self, store: SqlStore) -> None:
        self._store = store
        self._pending: dict[int, int] = {}
        self._waiters: list[asyncio.Future[None]] = []
        self._rounds: asyncio.Task[None] | None = None

    async def mark(self, table_id: int, count: int) -> None:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        done.add_done_callback(retrieve)  # a caller that left must not leave a warning behind
        self._pending[table_id] = max(count, self._pending.get(table_id, count))
        self._waiters.append(done)
        if self._rounds is None:
            self._rounds = loop.create_task(self._run_rounds())
        await asyncio.shield(done)  # the statement is under way for other tables too: never cut short

    async def _run_rounds(self) -> None:
        try:
            while self._pending:
                marks, self._pending = sorted(self._pending.items()), {}  # in id order: rows locked in one order
                waiters, self._waiters = self._waiters, []
                try:
                    for start in range(0, len(marks), MARKS_PER_STATEMENT):
                        await self._write(marks[start:start + MARKS_PER_STATEMENT])
                except Exception as error:
                    for waiter in waiters:
                        if not waiter.done():
                            waiter.set_exception(error)
                    continue
                except BaseException:
                    for waiter in waiters + self._waiters:
                        waiter.cancel()
                    raise
                for waiter in waiters:
                    if not waiter.done():
                        waiter.set_result(None)
        finally:
            self._rounds = None

    async def _write(self, marks: list[tuple[int, int]]) -> None:
        rows = _padded(len(marks))
        padding = [marks[-1]] * (rows - len(marks))  # the last mark again: the same row, the same count
        await self._store.db.write(_marks_update(rows), tuple(value for mark in marks + padding for value in mark))

    async def close(self) -> None:
        """Wait for the statement under way, and those asked meanwhile."""
        if self._rounds is not None:
            with contextlib.suppress(BaseException):
                await asyncio.shield(self._rounds)


def _new_id(earlier: list[list[Any]]) -> int:
    """The id of the row a group's first step inserted (its ``RETURNING id``)."""
    return int(earlier[0][0][0])


class SqlStore:
    """Everything the bot keeps, over one ``Connection`` (opened by the subclass's ``connect``)."""

    def __init__(self) -> None:
        self._db: Connection | None = None
        self._marks = _AnnouncedMarks(self)
        # Names this store's notices (``notify``): a process sharing the database skips its own.
        self.origin = secrets.token_hex(6)

    async def connect(self) -> Connection:
        raise NotImplementedError

    @property
    def db(self) -> Connection:
        if self._db is None:
            raise StoreError("the store is not open: call await store.open() first")
        return self._db

    @property
    def dialect(self) -> Dialect:
        return self.db.dialect

    async def open(self) -> SqlStore:
        self._db = await self.connect()
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise
        return self

    async def close(self) -> None:
        if self._db is not None:
            await self._marks.close()
            await self._db.close()
            self._db = None

    async def __aenter__(self) -> SqlStore:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def migrate(self) -> int:
        """Apply the pending migrations, and the data step of any that has one, in one transaction; returns the
        schema version."""
        scripts = migrations(self.dialect.name)
        try:
            async with self.db.migrating():
                current = await self.schema_version()
                if current > len(scripts):
                    raise _TooNew(current)
                pending = [(number, sql) for number, _, sql in scripts if number > current]
                if not pending:
                    return current
                for _, sql in pending:
                    await self.db.script(sql)
                # The steps run this code, which reads the newest schema: so after every script, in number order.
                for number, _ in pending:
                    step = DATA_STEPS.get(number)
                    if step is not None:
                        await step(self)
                await self.db.set_schema_version(len(scripts))
        except _TooNew as error:
            raise StoreError(f"{self.db.name} has schema version {error.version}, newer than this bot knows "
                             f"({len(scripts)}): update the bot or use another database") from None
        except Exception as error:
            raise StoreError(f"migrating {self.db.name} failed, nothing was changed: {error}") from error
        return len(scripts)

    @staticmethod
    def _counted(table: Table, count: Callable[[], Plan[object]]) -> Plan[None]:
        """The statistics of an action or a match's end (``count``'s plan), in its transaction; should they fail (a
        bug), the game goes on: the action or the end is stored without them, and the failure is logged."""
        yield Step("SAVEPOINT stats")
        try:
            yield from count()
        except Exception:
            yield Step("ROLLBACK TO stats")
            log.exception("table %s: statistics not written", table.id)
        yield Step("RELEASE stats")

    async def _match_end(self, table: Table) -> stats.MatchEnd | None:
        """What a match's end writes, read before its transaction (``stats.match_end``); should that fail (a bug),
        the end is stored without its statistics, as ``_counted`` does."""
        try:
            return await stats.match_end(self.db, table, table.stoppers())
        except Exception:
            log.exception("table %s: statistics not written", table.id)
            return None

    async def _run_counted(self, table: Table, steps: Sequence[Step],
                           count: Callable[[], Plan[object]] | None) -> list[list[Any]]:
        """``steps``, each one's rows, as one statement group (in SQLite, one trip to its thread under the write
        lock); with ``count``, the plan of statistics that read what is stored and work out rows in Python, in the
        same group (a heavy one: in SQLite, the light writes waiting meanwhile go first)."""

        def counted() -> Plan[list[list[Any]]]:
            results = yield from steps_plan(steps)
            if count is not None:
                yield from self._counted(table, count)
            return results

        return await self.db.atomic_plan(counted(), heavy=count is not None)

    async def _run_one(self, table: Table, step: Step, count: Callable[[], Plan[object]] | None) -> list[Any]:
        """One statement that writes a whole group (``Dialect.writing_with``): its rows. Alone it is its own
        transaction, one round trip; so its check must only ever refuse what wrote nothing. With ``count``, in a
        transaction with the statistics (``_run_counted``)."""
        if count is not None:
            return (await self._run_counted(table, [step], count))[0]
        rows: list[Any] = await (await self.db.execute(step.sql, step.bound([]))).fetchall()
        if step.check is not None:
            step.check(rows)
        return rows

    def _transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        return self.db.transaction()

    async def _write(self, sql: str, parameters: tuple[Any, ...]) -> None:
        await self.db.write(sql, parameters)

    def hold_table(self, table_id: int) -> contextlib.AbstractAsyncContextManager[int | None]:
        """The table's lock among the processes sharing the database (``bot.tables.shared``); yields the table's
        revision, read once the lock was taken (None: no such table)."""
        return self.db.hold_table(table_id)

    async def listen(self, heard: Callable[[str], None]) -> None:
        """Call ``heard`` with each notice the other processes send (``notify``)."""
        await self.db.listen(heard)

    def transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        """One write transaction, for the stores built on this connection (``bot.store.tournaments``)."""
        return self._transaction()

    async def write(self, sql: str, parameters: tuple[Any, ...]) -> None:
        """One write statement (committed at once)."""
        await self._write(sql, parameters)

    # ------------------------------------------------------------ tables

    async def create_table(self, table: Table) -> int:
        # One statement group (in SQLite, one trip to its thread, in the round of the writers waiting with it): the
        # seats and the notice take the new id from the INSERT's rows when they run.
        create = Step(
            "INSERT INTO tables (guild_id, channel_id, host_id, status, settings, seed, announced, tournament_id) "
            "VALUES (?, ?, ?, ?, ?, ?, 0, ?) RETURNING id",
            (table.guild_id, table.channel_id, table.host_id, table.stored_status.value,
             json.dumps(table.settings.to_dict()), table.seed, table.tournament_id))
        if self.dialect.writing_with:
            # One statement, one round trip: the seats and the notice (its text as ``_notice_text`` makes it) take
            # the new id from the row the WITH created.
            rows = await (await self.db.execute(
                f"WITH created AS ({create.sql}), seated AS ({_seats_upsert('(SELECT id FROM created)')}) "
                "SELECT id, pg_notify(?, CAST(json_build_object('from', CAST(? AS TEXT), 'table', id) AS TEXT)) "
                "FROM created", (*create.bound([]), *_seat_parameters(None, table), NOTICES, self.origin))).fetchall()
            return int(rows[0][0])
        steps = [create, Step(_SEATS_UPSERT, lambda earlier: _seat_parameters(_new_id(earlier), table))]
        if self.dialect.notify is not None:
            notify = self.dialect.notify
            steps.append(Step(notify, lambda earlier: (self._notice_text(_new_id(earlier)),)))
        return _new_id(await self.db.atomic(steps))

    async def notify(self, table_id: int, event: dict[str, Any] | None = None) -> None:
        """Tell the other processes sharing the database that the table changed, and with ``event`` what happened
        (``bot.tables.shared``); inside a transaction the notice goes when it commits. Nothing in SQLite."""
        notice = self._notice(table_id, event)
        if notice is not None:
            await self.db.execute(notice.sql, notice.bound([]))

    def _notice(self, table_id: int, event: dict[str, Any] | None = None) -> Step | None:
        """The statement of ``notify``; None where no other process shares the database."""
        if self.dialect.notify is None:
            return None
        return Step(self.dialect.notify, (self._notice_text(table_id, event),))

    def _notice_text(self, table_id: int, event: dict[str, Any] | None = None) -> str:
        return json.dumps({"from": self.origin, "table": table_id, **({"event": event} if event else {})})

    async def revisions(self) -> dict[int, int]:
        """Each lobby's and running table's revision (how often it was written)."""
        async with self.db.execute("SELECT id, revision FROM tables WHERE status IN ('lobby', 'playing')") as cursor:
            return {int(row["id"]): int(row["revision"]) for row in await cursor.fetchall()}

    async def revision(self, table_id: int) -> int | None:
        async with self.db.execute("SELECT revision FROM tables WHERE id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return int(row["revision"]) if row is not None else None

    async def actions_from(self, table_id: int, seq: int) -> list[tuple[Action, Actor]]:
        """The table's actions from position ``seq`` on, in order."""
        async with self.db.execute("SELECT kind, data, actor FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
                                   (table_id, seq)) as cursor:
            rows = await cursor.fetchall()
        return [(decode_action(row["kind"], row["data"]), Actor(row["actor"])) for row in rows]

    async def save_table(self, table: Table) -> None:
        """Keep the table; a match's end (finished or stopped) is stored with its statistics and rating updates,
        once."""
        steps = [
            Step("UPDATE tables SET guild_id = ?, channel_id = ?, thread_id = ?, lobby_message_id = ?, "
                 "table_message_id = ?, prompt_message_id = ?, prompt_version = ?, rematch_id = ?, host_id = ?, "
                 f"status = ?, settings = ?, updated_at = {self.dialect.now}, revision = revision + 1 WHERE id = ? "
                 "RETURNING revision",
                 (table.guild_id, table.channel_id, table.thread_id, table.lobby_message_id, table.table_message_id,
                  table.prompt_message_id, table.prompt_version, table.rematch_id, table.host_id,
                  table.stored_status.value, json.dumps(table.settings.to_dict()), table.id)),
            Step(_SEATS_UPSERT, _seat_parameters(table.id, table))]
        end = await self._match_end(table)
        count = partial(stats.match_end_rows, end) if end is not None else None
        if self.dialect.writing_with:
            # One statement: the row, the seats and the notice.
            revised, seated = steps
            assert self.dialect.notify is not None
            rows = await self._run_one(table, Step(
                f"WITH revised AS ({revised.sql}), seated AS ({seated.sql}) "
                f"SELECT revision, ({self.dialect.notify}) FROM revised",
                (*revised.bound([]), *seated.bound([]), self._notice_text(table.id))), count)
            _note_revision(table, rows[0] if rows else None)
            return
        notice = self._notice(table.id)
        if notice is not None:
            steps.append(notice)
        results = await self._run_counted(table, steps, count)
        _note_revision(table, results[0][0] if results[0] else None)

    async def append_action(self, table: Table, seq: int, action: Action, seat: Seat | None, actor: Actor,
                            user_id: int | None, events: Sequence[Event] = ()) -> None:
        """Store one action; when its ``events`` settle a hand, that hand's statistics go in the same transaction."""
        kind, data = encode_action(action)
        values = (table.id, seq, kind, data, seat.letter if seat is not None else None, actor.value, user_id)
        # The action goes in only at the next position (another process may share the database); the primary key
        # (table_id, seq) refuses a second write at it.
        position = partial(_next_position, table.id, seq)
        count = partial(stats.hand_rows_written, table, seq, events) if stats.settled_hands(events) else None
        if self.dialect.writing_with:
            # One statement: the position's check, the action, the table's revision and the notice, nothing written
            # unless the position is the next (two writers at one position: the primary key refuses the later).
            assert self.dialect.notify is not None
            rows = await self._run_one(table, Step(
                "WITH stored AS (SELECT count(*) AS n FROM actions WHERE table_id = ?), "
                "added AS (INSERT INTO actions (table_id, seq, kind, data, seat, actor, user_id) "
                "SELECT ?, ?, ?, ?, ?, ?, ? FROM stored WHERE n = ? RETURNING seq), "
                "revised AS (UPDATE tables SET revision = revision + 1 WHERE id = ? AND EXISTS (SELECT 1 FROM added) "
                f"RETURNING revision) SELECT n, (SELECT revision FROM revised), ({self.dialect.notify} FROM revised) "
                "FROM stored", (table.id, *values, seq, table.id, self._notice_text(table.id)), position), count)
            _note_revision(table, (rows[0][1],) if rows[0][1] is not None else None)
            return
        steps = [
            Step("SELECT count(*) FROM actions WHERE table_id = ?", (table.id,), position),
            Step("INSERT INTO actions (table_id, seq, kind, data, seat, actor, user_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 values),
            Step("UPDATE tables SET revision = revision + 1 WHERE id = ? RETURNING revision", (table.id,))]
        notice = self._notice(table.id)
        if notice is not None:
            steps.append(notice)
        results = await self._run_counted(table, steps, count)
        _note_revision(table, results[2][0] if results[2] else None)

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

    async def _table_from_row(self, row: Any) -> Table:
        settings = TableSettings.from_dict(json.loads(row["settings"]))
        table = Table(id=row["id"], host_id=row["host_id"], settings=settings, seed=row["seed"],
                      guild_id=row["guild_id"], channel_id=row["channel_id"], thread_id=row["thread_id"],
                      lobby_message_id=row["lobby_message_id"], table_message_id=row["table_message_id"],
                      prompt_message_id=row["prompt_message_id"], prompt_version=row["prompt_version"],
                      rematch_id=row["rematch_id"], tournament_id=row["tournament_id"],
                      opened_at=datetime.fromisoformat(row["created_at"]).timestamp(),
                      status=TableStatus(row["status"]), game=Game(settings.rules), revision=row["revision"])
        async with self.db.execute("SELECT * FROM seats WHERE table_id = ?", (table.id,)) as cursor:
            for seat_row in await cursor.fetchall():
                table.seats[Seat.parse(seat_row["seat"])] = SeatInfo(
                    SeatKind(seat_row["kind"]), seat_row["user_id"], seat_row["name"], Level(seat_row["ai_level"]),
                    bool(seat_row["away"]), seat_row["misses"], Delivery(seat_row["delivery"]),
                    seat_row["dm_channel_id"], seat_row["hand_message_id"], seat_row["pending_user_id"],
                    seat_row["pending_name"], Delivery(seat_row["pending_delivery"]),
                    _stored_language(seat_row["language"]), _stored_language(seat_row["pending_language"]))
        return table

    async def delete_lobby(self, table_id: int) -> None:
        """Remove a lobby that never got its message (its seats go with it); a started table is never removed."""
        async with self._transaction():
            await self.db.execute("UPDATE tables SET rematch_id = NULL WHERE rematch_id = ?", (table_id,))
            await self.db.execute("DELETE FROM tables WHERE id = ? AND status = 'lobby'", (table_id,))
            await self.notify(table_id)

    async def set_announced(self, table_id: int, count: int) -> None:
        """The front end finished announcing the table's first ``count`` actions (written with the other tables'
        marks asked meanwhile)."""
        await self._marks.mark(table_id, count)

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

    async def recent_matches(self, guild_id: int, user_id: int, limit: int) -> list[tuple[Table, str]]:
        """Tables of a server that are over (finished or stopped after their first deal) which ``user_id``
        hosted or sits at, newest first, with when each was last changed (its end)."""
        async with self.db.execute(
                "SELECT * FROM tables WHERE status IN ('finished', 'stopped') AND guild_id = ? "
                "AND (host_id = ? OR id IN (SELECT table_id FROM seats WHERE user_id = ?)) "
                "AND EXISTS (SELECT 1 FROM actions WHERE actions.table_id = tables.id) "
                "ORDER BY updated_at DESC, id DESC LIMIT ?", (guild_id, user_id, user_id, limit)) as cursor:
            rows = await cursor.fetchall()
        return [(await self._table_from_row(row), str(row["updated_at"])) for row in rows]

    async def updated_at(self, table_id: int) -> str | None:
        """When the table was last changed (for a match that is over: its end), as stored."""
        async with self.db.execute("SELECT updated_at FROM tables WHERE id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return str(row["updated_at"]) if row is not None else None

    # ------------------------------------------------------------ server defaults and meta

    async def guild_defaults(self, guild_id: int) -> TableSettings | None:
        async with self.db.execute("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor:
            row = await cursor.fetchone()
        return _stored_settings(row["settings"] if row is not None else None)

    async def start_preferences(self, guild_id: int | None, user_id: int) -> tuple[TableSettings | None,
                                                                                  Delivery | None]:
        """What opening a table reads, in one round trip: the server's default settings (``guild_defaults``) and
        where the host wants their hand (``user_delivery``); None for what was never set."""
        async with self.db.execute("SELECT (SELECT settings FROM guild_settings WHERE guild_id = ?) AS settings, "
                                   "(SELECT delivery FROM user_prefs WHERE user_id = ?) AS delivery",
                                   (guild_id, user_id)) as cursor:
            row = await cursor.fetchone()
        assert row is not None  # a SELECT without FROM gives one row
        return _stored_settings(row["settings"]), _stored_delivery(row["delivery"])

    async def set_guild_defaults(self, guild_id: int, settings: TableSettings) -> None:
        await self._write(upsert("guild_settings", ("guild_id", "settings"), ("guild_id",)),
                          (guild_id, json.dumps(settings.to_dict())))

    async def user_delivery(self, user_id: int) -> Delivery | None:
        """Where this user wants their private hand; None when they never said."""
        async with self.db.execute("SELECT delivery FROM user_prefs WHERE user_id = ?", (user_id,)) as cursor:
            row = await cursor.fetchone()
        return _stored_delivery(row["delivery"] if row is not None else None)

    async def set_user_delivery(self, user_id: int, delivery: Delivery) -> None:
        await self._write(upsert("user_prefs", ("user_id", "delivery"), ("user_id",)),
                          (user_id, delivery.value))

    async def get_meta(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return str(row["value"]) if row is not None else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(upsert("meta", ("key", "value"), ("key",)), (key, value))

    async def record(self, table_id: int) -> dict[str, Any]:
        """The stored game of a table as a ``klaverjas-record/1`` object."""
        table = await self.load_table(table_id)
        if table is None:
            raise StoreError(f"no table {table_id} in {self.db.name}")
        game = Game(table.rules)
        game.apply_all(action for action, _ in await self.actions(table_id))
        return export_record(game)

    # ------------------------------------------------------------ statistics (bot.store.stats)

    async def player_stats(self, player: str, scope: int | None) -> PlayerStats:
        return await stats.player_stats(self.db, player, scope)

    async def leaderboard(self, scope: int, since: str | None, page: int, per_page: int,
                          min_matches: int = MIN_MATCHES) -> BoardPage:
        return await stats.leaderboard(self.db, scope, since, page, per_page, min_matches)

    async def history(self, guild_id: int, player: str, limit: int) -> list[HistoryEntry]:
        return await stats.history(self.db, guild_id, player, limit)

    async def forget_user(self, user_id: int) -> None:
        """``/klaverjas forget-me``: the user's Discord id becomes ``ANONYMOUS`` in every stored game, and their
        name, DM channel, preferences, statistics, ratings and reviews are deleted, in one transaction; their
        tournament entries stay in the standings, anonymous.

        The games stay valid records: a record holds seats and cards, never who sat there."""
        player = f"u:{user_id}"
        async with self._transaction():
            db = self.db
            await db.execute("UPDATE tables SET host_id = ? WHERE host_id = ?", (ANONYMOUS, user_id))
            await db.execute("UPDATE seats SET user_id = ?, name = '', dm_channel_id = NULL, language = NULL "
                             "WHERE user_id = ?", (ANONYMOUS, user_id))
            await db.execute("UPDATE seats SET pending_user_id = NULL, pending_name = '', pending_language = NULL "
                             "WHERE pending_user_id = ?", (user_id,))
            await db.execute("UPDATE actions SET user_id = ? WHERE user_id = ?", (ANONYMOUS, user_id))
            await db.execute("DELETE FROM user_prefs WHERE user_id = ?", (user_id,))
            await stats.forget(db, player)
            await db.execute("DELETE FROM review_decisions WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM review_players WHERE user_id = ?", (user_id,))
            # An entry stays in its tournament's standings, anonymous: minus its own id, as one tournament holds
            # each user once (a forgotten pair partner keeps the entry a pair).
            await db.execute("UPDATE tournament_entries SET user_id = -id, name = '' WHERE user_id = ?", (user_id,))
            await db.execute("UPDATE tournament_entries SET partner_id = ?, partner_name = '' WHERE partner_id = ?",
                             (ANONYMOUS, user_id))
            await db.execute("UPDATE tournaments SET creator_id = ? WHERE creator_id = ?", (ANONYMOUS, user_id))
        # Gone from the files too, not only from the tables, when "forgotten" is answered.
        await self.db.scrub(FORGET_TABLES)

    async def names_of(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The name each user last sat at a table with (for images, which cannot show mentions)."""
        if not user_ids:
            return {}
        marks = placeholders(len(user_ids))
        async with self.db.execute(f"SELECT user_id, name FROM seats WHERE user_id IN ({marks}) AND name != '' "
                                   "ORDER BY table_id", tuple(user_ids)) as cursor:
            return {int(row[0]): str(row[1]) for row in await cursor.fetchall()}

    # ------------------------------------------------------------ match reviews (bot.tables.reviews)

    async def action_players(self, table_id: int) -> list[int | None]:
        """Parallel to ``actions``: the user id on each call and card a human made, None on every other
        action (the AI's, the timer's, chance's, claims): whose decisions a review looks at."""
        async with self.db.execute("SELECT kind, actor, user_id FROM actions WHERE table_id = ? ORDER BY seq",
                                   (table_id,)) as cursor:
            rows = await cursor.fetchall()
        return [row["user_id"] if row["actor"] == Actor.HUMAN.value and row["kind"] in ("call", "card") else None
                for row in rows]

    async def unreviewed(self) -> list[int]:
        """Finished matches with a human's call or card that have no review yet, oldest first."""
        async with self.db.execute(
                "SELECT id FROM tables t WHERE status = 'finished' "
                "AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.table_id = t.id) "
                "AND EXISTS (SELECT 1 FROM actions a WHERE a.table_id = t.id AND a.actor = 'human' "
                "AND a.kind IN ('call', 'card')) ORDER BY id") as cursor:
            return [int(row["id"]) for row in await cursor.fetchall()]

    async def save_review(self, table_id: int, review: MatchReview) -> None:
        """Keep a match's review: its decisions and each person's summary, in one transaction."""
        async with self._transaction():
            await self.db.execute("DELETE FROM reviews WHERE table_id = ?", (table_id,))
            await self.db.execute("INSERT INTO reviews (table_id, status, hands) VALUES (?, ?, ?)",
                                  (table_id, ReviewStatus.DONE.value, review.hands))
            await self.db.executemany(
                "INSERT INTO review_decisions (table_id, seq, hand, trick, seat, user_id, choice, best, cost, "
                "samples, reason, params, spread) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(table_id, d.index, d.hand, d.trick, d.seat.letter, d.player, _notation(d.choice),
                  _notation(d.best), d.cost, d.samples, d.reason.code.value if d.reason else None,
                  json.dumps(dict(d.reason.params)) if d.reason else None, d.spread) for d in review.decisions])
            await self.db.executemany(
                "INSERT INTO review_players (table_id, user_id, seat, decisions, stake, kept, lost, hands, "
                "lost_by_hand) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(table_id, p.player, p.seat.letter, p.decisions, p.stake, p.kept, p.lost, p.hands,
                  json.dumps(list(p.lost_by_hand))) for p in review.players])

    async def review_failed(self, table_id: int, hands: int, error: str) -> None:
        """A review that broke off: kept as failed, so it is not tried again at every start."""
        # Replaced whole, the decisions of an earlier review with it (as SQLite's INSERT OR REPLACE did).
        async with self._transaction():
            await self.db.execute("DELETE FROM reviews WHERE table_id = ?", (table_id,))
            await self.db.execute("INSERT INTO reviews (table_id, status, hands, error) VALUES (?, ?, ?, ?)",
                                  (table_id, ReviewStatus.FAILED.value, hands, error[:500]))

    async def review(self, table_id: int) -> StoredReview | None:
        """A match's stored review; None when it has none (yet)."""
        async with self.db.execute("SELECT r.status, r.hands, t.guild_id FROM reviews r JOIN tables t "
                                   "ON t.id = r.table_id WHERE r.table_id = ?", (table_id,)) as cursor:
            head = await cursor.fetchone()
        if head is None:
            return None
        async with self.db.execute("SELECT * FROM review_decisions WHERE table_id = ? ORDER BY seq",
                                   (table_id,)) as cursor:
            decisions = tuple(_decision(row) for row in await cursor.fetchall())
        async with self.db.execute("SELECT * FROM review_players WHERE table_id = ?", (table_id,)) as cursor:
            rows = await cursor.fetchall()
        players = []
        for row in sorted(rows, key=lambda r: (SEATS.index(Seat.parse(r["seat"])), r["user_id"])):
            mine = [d for d in decisions if d.player == row["user_id"]]
            # The per-hand figures, the costliest decisions and the calls come from the decisions, as summarise makes
            # them now (a review stored with an older meaning of the per-hand figure reads the same way).
            summary = summarise(row["user_id"], Seat.parse(row["seat"]), mine, head["hands"], row["hands"])
            players.append(replace(summary, decisions=row["decisions"], stake=row["stake"], kept=row["kept"],
                                   lost=row["lost"]))
        return StoredReview(table_id, head["guild_id"], ReviewStatus(head["status"]),
                            MatchReview(head["hands"], decisions, tuple(players)))

    async def accuracy(self, user_id: int, guild_id: int | None = None) -> list[AccuracyPoint]:
        """A person's reviewed matches, oldest first (in one server, or everywhere): accuracy over time. A
        tournament's matches count once it is closed (``bot.access.counts_in_stats``)."""
        where = "rp.user_id = ? AND r.status = 'done'" + (" AND t.guild_id = ?" if guild_id is not None else "")
        parameters = (user_id, guild_id) if guild_id is not None else (user_id,)
        async with self.db.execute(
                "SELECT rp.table_id, t.guild_id, t.updated_at, rp.decisions, rp.stake, rp.kept, rp.lost, rp.hands, "
                "tr.status AS tournament FROM review_players rp JOIN reviews r ON r.table_id = rp.table_id "
                "JOIN tables t ON t.id = rp.table_id LEFT JOIN tournaments tr ON tr.id = t.tournament_id "
                f"WHERE {where} ORDER BY t.updated_at, rp.table_id", parameters) as cursor:
            rows = [row for row in await cursor.fetchall()
                    if counts_in_stats(stats.stored_status(row["tournament"]))]
        return [AccuracyPoint(row["table_id"], row["guild_id"], row["updated_at"], row["decisions"], row["stake"],
                              row["kept"], row["lost"], row["hands"]) for row in rows]

    async def played_matches(self, user_id: int, guild_id: int, limit: int = 25) -> list[PlayedMatch]:
        """The finished matches of this server in which the person made a call or played a card, newest first."""
        async with self.db.execute(
                "SELECT t.id, t.updated_at FROM tables t WHERE t.status = 'finished' AND t.guild_id = ? "
                "AND t.id IN (SELECT table_id FROM actions WHERE user_id = ?) ORDER BY t.id DESC LIMIT ?",
                (guild_id, user_id, limit)) as cursor:
            tables = await cursor.fetchall()
        out = []
        for row in tables:
            async with self.db.execute("SELECT seat, kind, name FROM seats WHERE table_id = ?",
                                       (row["id"],)) as cursor:
                names = {Seat.parse(seat["seat"]): seat["name"] if seat["kind"] == SeatKind.HUMAN.value else ""
                         for seat in await cursor.fetchall()}
            out.append(PlayedMatch(row["id"], row["updated_at"],
                                   (names.get(Seat.N, ""), names.get(Seat.E, ""), names.get(Seat.S, ""),
                                    names.get(Seat.W, ""))))
        return out


def _next_position(table_id: int, seq: int, rows: list[Any]) -> None:
    """The check of an action's position: ``rows`` hold how many actions the table has stored."""
    if int(rows[0][0]) != seq:
        raise Conflict(f"table {table_id}: action {seq} is not the next ({rows[0][0]} are stored)")


def _note_revision(table: Table, row: Any) -> None:
    """The table's revision after this process's write: the next after the copy's, or another process wrote
    too and the copy is marked to be brought up to date (``bot.tables.shared``)."""
    if row is not None:
        table.revision = int(row[0]) if int(row[0]) == table.revision + 1 else -1


def _notation(choice: Card | Call) -> str:
    return choice.notation if isinstance(choice, Card) else choice.value


def _decision(row: Any) -> DecisionReview:
    call = row["trick"] is None
    choice: Card | Call = Call.parse(row["choice"]) if call else Card.parse(row["choice"])
    best: Card | Call = Call.parse(row["best"]) if call else Card.parse(row["best"])
    reason = Hint(best, HintCode(row["reason"]), json.loads(row["params"])) if row["reason"] else None
    return DecisionReview(row["seq"], row["hand"], row["trick"], Seat.parse(row["seat"]), row["user_id"], choice,
                          best, row["cost"], row["samples"], reason, row["spread"])
