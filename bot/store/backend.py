"""The two databases behind the store: SQLite (aiosqlite) and PostgreSQL (asyncpg), with one small interface.

The store's SQL is written once, with ``?`` placeholders, in the subset both dialects agree on (``INSERT ...
ON CONFLICT``, ``RETURNING``, ``SAVEPOINT``). What differs lives here and nowhere else: the placeholders
(``$1`` in PostgreSQL), the current time as stored text, the lock that serialises one table's actions, index
hints, how a migration script runs and where the schema version is kept. Both connections answer
``execute`` the way aiosqlite does (awaited, or as ``async with ... as cursor``), with every row fetched at
once, and raise ``Conflict`` when a unique key or a check refuses a write, whichever database refused it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, cast
from urllib.parse import unquote_plus

import aiosqlite
import asyncpg

log = logging.getLogger(__name__)


class StoreError(RuntimeError):
    """The database cannot be used (newer schema, broken migration)."""


class Conflict(StoreError):
    """A write was refused because it would break a unique key or the table's state version (an action at a
    position that is taken, or not the next): another writer got there first. Nothing was written."""


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str  # also the migrations' folder: bot/store/migrations (sqlite), bot/store/migrations/postgres
    now: str  # SQL: the current UTC time, as the ISO text the store keeps (2024-05-01T20:15:00.123Z)
    # SQL taking a lock, until the transaction ends, on one table's actions (parameter: the table id); None where
    # the store's one writer already serialises every transaction.
    lock_table: str | None
    index_hints: bool  # SQLite's "INDEXED BY": the planner is told which index a slice of history uses
    # SQL telling the other processes sharing the database that a table changed (parameter: the notice's text),
    # sent when the transaction commits; None where one process is the only one.
    notify: str | None = None

    def indexed_by(self, index: str) -> str:
        return f" INDEXED BY {index}" if self.index_hints else ""


SQLITE = Dialect("sqlite", "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')", None, True)
# klaverjas_now() is defined by migrations/postgres/0001_initial.sql.
POSTGRES = Dialect("postgres", "klaverjas_now()", "SELECT pg_advisory_xact_lock(?)", False,
                   "SELECT pg_notify('klaverjas_tables', ?)")
NOTICES = "klaverjas_tables"  # the channel of POSTGRES.notify

_QUOTED_OR_MARK = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|--[^\n]*|\?")


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2 ...``; question marks in quotes or comments stay."""
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(0) != "?":
            return match.group(0)
        count += 1
        return f"${count}"

    return _QUOTED_OR_MARK.sub(replace, sql)


# What a step's parameters may be worked out from: the rows of the steps before it in the group, in order.
Earlier = Callable[[list[list[Any]]], Sequence[Any]]


@dataclass(frozen=True, slots=True)
class Step:
    """One statement of ``Connection.atomic``: ``check`` sees its rows and raises to undo the whole group.
    ``parameters`` may be a function of the earlier steps' rows (a new row's id that ``RETURNING`` gave), called
    when the step runs, inside the group: in SQLite on aiosqlite's thread, so it must only compute (no awaiting, no
    event loop); raising undoes the group like a check."""

    sql: str
    parameters: Sequence[Any] | Earlier = ()
    check: Callable[[list[Any]], None] | None = None

    def bound(self, earlier: list[list[Any]]) -> Sequence[Any]:
        """The parameters for this run of the group, whose earlier steps gave ``earlier``."""
        return self.parameters(earlier) if callable(self.parameters) else self.parameters


class Cursor:
    """The rows of one statement, fetched."""

    def __init__(self, rows: Iterable[Any]) -> None:
        self._rows = list(rows)

    async def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[Any]:
        return self._rows


class _Run:
    """What ``execute`` returns: awaited, or entered with ``async with``, it gives the statement's cursor."""

    def __init__(self, run: Any) -> None:
        self._run = run

    def __await__(self) -> Generator[Any, None, Cursor]:
        return self._run.__await__()  # type: ignore[no-any-return]

    async def __aenter__(self) -> Cursor:
        return await self._run  # type: ignore[no-any-return]

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        return None


class Connection:
    """One database as the store uses it."""

    dialect: Dialect
    name: str  # for messages: the file, or the server and database

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _Run:
        return _Run(self._fetch(sql, parameters))

    async def _fetch(self, sql: str, parameters: Sequence[Any]) -> Cursor:
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    async def script(self, sql: str) -> None:
        """Run a migration script (several statements) inside the current transaction."""
        raise NotImplementedError

    def transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        """One write transaction: committed when the block ends, rolled back when it raises. Every statement
        inside (the helpers' too) belongs to it; no other coroutine's statement does."""
        raise NotImplementedError

    async def write(self, sql: str, parameters: Sequence[Any]) -> None:
        """One write statement, committed at once."""
        async with self.transaction():
            await self.execute(sql, parameters)

    async def atomic(self, steps: Sequence[Step]) -> list[list[Any]]:
        """The statements as one transaction, committed at once: each one's rows. A check that raises, or a statement
        that fails, undoes them all."""
        async with self.transaction():
            return await self.run_steps(steps)

    async def run_steps(self, steps: Sequence[Step]) -> list[list[Any]]:
        """The statements in the current transaction, in order, each checked: each one's rows."""
        results: list[list[Any]] = []
        for step in steps:
            rows = await (await self.execute(step.sql, step.bound(results))).fetchall()
            if step.check is not None:
                step.check(rows)
            results.append(rows)
        return results

    def migrating(self) -> contextlib.AbstractAsyncContextManager[None]:
        """The one transaction that applies the pending migrations and records the new schema version."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def set_schema_version(self, version: int) -> None:
        """Inside the migration's transaction."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    def hold_table(self, table_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """The table's lock among the processes sharing the database; nothing where there is only one."""
        return contextlib.nullcontext()

    async def listen(self, heard: Callable[[str], None]) -> None:
        """Hear the notices of the other processes sharing the database (``Dialect.notify``); none here."""

    async def scrub(self, tables: Sequence[str]) -> None:
        """After a committed delete that must not linger (forget-me): rid the files of the old rows' bytes as far
        as the database allows; ``tables`` are the ones changed."""


# A batch is committed once this many writers are in it, or this long after it began, even with writers queued.
BATCH_WRITERS = 32
BATCH_SECONDS = 0.02
CHECKPOINT_TRIES = 3  # a checkpoint blocked by readers (each try waits busy_timeout) is tried again this often


class _Batch:
    """Transactions that share one SQLite transaction, and so one commit (one fsync of the write-ahead log)."""

    def __init__(self) -> None:
        loop = asyncio.get_running_loop()
        self.committed: asyncio.Future[None] = loop.create_future()
        self.begun = loop.time()
        self.writers = 0
        self.committed.add_done_callback(_retrieve)  # a batch whose members all left must not warn


@dataclass(eq=False)
class _Group:
    """One ``atomic`` call waiting for its round. ``state`` (guarded by ``guard``, as the thread reads it): "waiting",
    "running" once the thread began it (it is in the batch now), "withdrawn" when its caller was cancelled first."""

    steps: list[Step]
    done: asyncio.Future[list[list[Any]]]
    state: str = "waiting"
    guard: threading.Lock = field(default_factory=threading.Lock)

    def begin(self) -> bool:
        with self.guard:
            if self.state == "waiting":
                self.state = "running"
            return self.state == "running"

    def withdraw(self) -> bool:
        """Whether the group will write nothing (its caller was cancelled before the thread began it)."""
        with self.guard:
            if self.state == "waiting":
                self.state = "withdrawn"
            return self.state == "withdrawn"


def _run_groups(conn: sqlite3.Connection, groups: list[_Group]) -> list[BaseException | list[list[Any]]]:
    """A round of ``SqliteConnection.atomic`` in aiosqlite's thread: each group's rows, or what refused it."""
    outcomes: list[BaseException | list[list[Any]]] = []
    for group in groups:
        if not group.begin():
            outcomes.append(asyncio.CancelledError())
            continue
        try:
            outcomes.append(_run_steps(conn, group.steps))
        except Exception as error:
            if not conn.in_transaction:  # the failure ended the batch (a full disk): the groups after it cannot run
                raise
            outcomes.append(error)
    return outcomes


def _run_steps(conn: sqlite3.Connection, steps: Sequence[Step]) -> list[list[Any]]:
    """One group of ``Connection.atomic`` in aiosqlite's thread: the steps in a savepoint of the open batch."""
    conn.execute("SAVEPOINT writer")
    try:
        results: list[list[Any]] = []
        for step in steps:
            rows = conn.execute(step.sql, tuple(step.bound(results))).fetchall()
            if step.check is not None:
                step.check(rows)
            results.append(rows)
    except BaseException as error:
        if conn.in_transaction:
            conn.execute("ROLLBACK TO writer")
            conn.execute("RELEASE writer")
        if isinstance(error, sqlite3.IntegrityError):
            raise Conflict(str(error)) from error
        raise
    conn.execute("RELEASE writer")
    return results


# The SQLite connections (their ids) whose transaction the current task is in: its reads stay on the writer.
_transacting: contextvars.ContextVar[frozenset[int]] = contextvars.ContextVar(
    "klaverjas_sqlite_transaction", default=frozenset())


def _retrieve(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()


def _probe(path: Path) -> None:
    """Raise sqlite3's error for a path that is not a usable database (a folder, another kind of file)."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA schema_version").fetchone()
    finally:
        connection.close()


class SqliteConnection(Connection):
    """One aiosqlite connection in WAL mode for the whole process, with group commit.

    Writes take turns under one lock (a statement must not land inside another coroutine's transaction). Each
    ``transaction`` is a savepoint inside a SQLite transaction shared by the writers queued behind it: the last of
    them (or the first to find the batch full or old: ``BATCH_WRITERS``, ``BATCH_SECONDS``) commits for all, so
    one fsync serves a burst of tables instead of one each, and nobody waits behind a queue of fsyncs. Each
    writer's block stays atomic (a failure rolls back to its savepoint, the others' work stays), and
    ``transaction`` returns only once the shared commit is on disk: what a caller acknowledges is durable. Should
    the commit fail, every writer of that batch gets the error (none was stored).

    A SELECT outside a transaction goes to a second, read-only connection with a thread of its own (``reader``), so
    the reads of a burst of commands do not queue behind the writers' rounds and commits on the writer's thread;
    under WAL it sees every commit made before it began, as PostgreSQL's pool does."""

    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection, path: Path, reader: aiosqlite.Connection | None = None) -> None:
        self.db = db
        # A second connection, read-only, for the reads outside any transaction (``_fetch``): under WAL it reads the
        # last commit without waiting for the writer's thread, which a round or a commit may keep busy. None for a
        # database in memory (another connection would open another database) or not in WAL mode.
        self.reader = reader
        self.name = str(path)
        self._writing = asyncio.Lock()
        self._queued = 0  # writers waiting for the lock: while there are any, the holder leaves the commit to them
        self._batch: _Batch | None = None  # the open SQLite transaction, shared by the writers since its BEGIN
        self._committing: set[asyncio.Task[None]] = set()  # held, so a commit under way is never collected
        # Statement groups (``atomic``) waiting for the next round, which runs them all in one trip to the thread.
        self._groups: list[_Group] = []
        self._rounds: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: Path) -> SqliteConnection:
        # Checked with a plain connection first: aiosqlite's thread, when its connect fails, reports to the event
        # loop after it may have closed ("Event loop is closed"), and a connection opened on a file that is not a
        # database would keep the process alive unless closed.
        await asyncio.to_thread(_probe, path)
        # isolation_level None: we write BEGIN/COMMIT ourselves, so a migration is one transaction.
        db = await aiosqlite.connect(path, isolation_level=None)
        reader = None
        try:
            db.row_factory = aiosqlite.Row
            mode = await (await db.execute("PRAGMA journal_mode=WAL")).fetchone()
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA busy_timeout=5000")
            # Deleted and overwritten content is zeroed, not left in the file's free space: a forgotten person's
            # name must not stay readable on disk (see ``scrub``).
            await db.execute("PRAGMA secure_delete=ON")
            if str(path) != ":memory:" and mode is not None and str(mode[0]).lower() == "wal":
                reader = await aiosqlite.connect(path, isolation_level=None)
                reader.row_factory = aiosqlite.Row
                await reader.execute("PRAGMA query_only=ON")  # a write sent here by mistake fails, never lands
                await reader.execute("PRAGMA busy_timeout=5000")
        except BaseException:
            for connection in (reader, db):
                if connection is not None:
                    await connection.close()
            raise
        return cls(db, path, reader)

    async def _fetch(self, sql: str, parameters: Sequence[Any]) -> Cursor:
        # One trip to aiosqlite's thread, not three (execute, fetch, close): a writer holds the write lock over
        # its statements, and under load each trip waits for a turn of the busy event loop.
        db = self.reader if self.reader is not None and self._may_read_aside(sql) else self.db
        try:
            return Cursor(await db.execute_fetchall(sql, tuple(parameters)))
        except sqlite3.IntegrityError as error:
            raise Conflict(str(error)) from error

    def _may_read_aside(self, sql: str) -> bool:
        """Whether a statement may go to the reader: a SELECT outside this task's transaction. Such a read needs
        only what is committed (each writer returns once its commit is on disk, so a read after it sees it); a
        read inside a transaction (a migration's too) must see the transaction's own writes, on the writer."""
        return sql.lstrip()[:6].upper() == "SELECT" and id(self) not in _transacting.get()

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self.db.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as error:
            raise Conflict(str(error)) from error

    async def script(self, sql: str) -> None:
        # Statement by statement rather than executescript, which would commit before a data step could run.
        for statement in statements(sql):
            await self.db.execute(statement)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        async with self._turn():
            with self._inside():
                await self.db.execute("SAVEPOINT writer")
                try:
                    yield
                    await self.db.execute("RELEASE writer")
                except BaseException:
                    if self.db.in_transaction:
                        await self.db.execute("ROLLBACK TO writer")
                        await self.db.execute("RELEASE writer")
                    raise

    @contextlib.contextmanager
    def _inside(self) -> Generator[None, None, None]:
        """The current task's statements read on the writer until the block ends (``_may_read_aside``)."""
        token = _transacting.set(_transacting.get() | {id(self)})
        try:
            yield
        finally:
            _transacting.reset(token)

    async def write(self, sql: str, parameters: Sequence[Any]) -> None:
        await self.atomic([Step(sql, parameters)])

    async def atomic(self, steps: Sequence[Step]) -> list[list[Any]]:
        # The groups waiting meanwhile go together: one turn of the write lock and one trip to aiosqlite's thread for
        # all of them, each in a savepoint of its own. Under load every trip and every hand-over of the lock waits
        # for a turn of the busy event loop, so a burst of writers taking them one by one would queue for seconds.
        group = _Group(list(steps), asyncio.get_running_loop().create_future())
        self._groups.append(group)
        if self._rounds is None:
            self._rounds = asyncio.get_running_loop().create_task(self._run_rounds())
        try:
            return await asyncio.shield(group.done)
        except asyncio.CancelledError:
            # Not begun: it leaves nothing behind (begun, it is in the batch, as a writer cancelled in its commit).
            if group.withdraw() and group in self._groups:
                self._groups.remove(group)
            raise

    async def _run_rounds(self) -> None:
        """Run the waiting groups, round after round, until none are left; each group's caller hears of its outcome
        once the round's batch is committed (a failed commit fails every group of the round)."""
        try:
            while self._groups:
                groups: list[_Group] = []
                try:
                    async with self._turn():
                        # At most a batch's worth: a round's trip keeps the thread from the readers meanwhile.
                        groups, self._groups = self._groups[:BATCH_WRITERS], self._groups[BATCH_WRITERS:]
                        run: Callable[..., Awaitable[list[BaseException | list[list[Any]]]]] = \
                            cast(Any, self.db)._execute
                        outcomes = await run(_run_groups, cast(Any, self.db)._conn, groups)
                except BaseException as error:
                    for group in groups:
                        if not group.done.done():
                            group.done.set_exception(error)
                    if isinstance(error, asyncio.CancelledError):
                        raise
                    continue
                for group, outcome in zip(groups, outcomes, strict=True):
                    if group.done.done():
                        continue
                    if isinstance(outcome, BaseException):
                        group.done.set_exception(outcome)
                    else:
                        group.done.set_result(outcome)
        finally:
            self._rounds = None

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """The write lock, in the open batch (begun if none is); after the block, its commit is awaited."""
        await self._take_turn()
        try:
            if self._batch is None:
                await self.db.execute("BEGIN IMMEDIATE")
                self._batch = _Batch()
            batch = self._batch
            batch.writers += 1
            try:
                yield
            except BaseException:
                # Some errors end SQLite's transaction by themselves (a full disk): the batch went with it.
                if not self.db.in_transaction and self._batch is batch:
                    self._batch = None
                    batch.committed.set_exception(StoreError("the transaction was rolled back: nothing was written"))
                raise
        finally:
            self._end_turn()
        await asyncio.shield(batch.committed)

    async def _take_turn(self) -> None:
        self._queued += 1
        try:
            await self._writing.acquire()
        except BaseException:  # cancelled while queued: the writers ahead may have left the commit to it
            self._queued -= 1
            if self._queued == 0 and self._batch is not None:
                self._start(self._flush(self._batch))
            raise
        self._queued -= 1

    def _end_turn(self) -> None:
        """Let the next writer in; the last one in a row commits the batch (the commit keeps the lock), as does
        one that finds the batch full: under a steady queue the first writers must not wait for ever."""
        batch = self._batch
        if batch is not None and (self._queued == 0 or batch.writers >= BATCH_WRITERS
                                  or asyncio.get_running_loop().time() - batch.begun >= BATCH_SECONDS):
            self._start(self._commit(batch))
        else:
            self._writing.release()

    def _start(self, commit: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(commit)
        self._committing.add(task)
        task.add_done_callback(self._committing.discard)

    async def _commit(self, batch: _Batch) -> None:
        """Commit the batch, holding the write lock (taken by the writer that started this task)."""
        try:
            if self._batch is batch:
                self._batch = None
                try:
                    await self.db.execute("COMMIT")
                except BaseException as error:
                    if self.db.in_transaction:
                        await self.db.execute("ROLLBACK")
                    batch.committed.set_exception(error)
                else:
                    batch.committed.set_result(None)
        finally:
            self._writing.release()

    async def _flush(self, batch: _Batch) -> None:
        await self._writing.acquire()
        await self._commit(batch)

    @contextlib.asynccontextmanager
    async def migrating(self) -> AsyncIterator[None]:
        """The migration's transaction (the bot is the only writer while it starts)."""
        await self.db.execute("BEGIN")
        try:
            with self._inside():
                yield
            await self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                await self.db.execute("ROLLBACK")
            raise

    async def scrub(self, tables: Sequence[str]) -> None:
        """The WAL, which still holds the pages as they were before the delete, written into the file (whose freed
        space ``secure_delete`` zeroed) and truncated to nothing. Under the write lock, with no batch open: the
        batch the writers before left to this turn is committed first."""
        await self._take_turn()
        while self._batch is not None:
            await self._commit(self._batch)  # releases the lock
            await self._take_turn()
        try:
            for _ in range(CHECKPOINT_TRIES):
                # TRUNCATE waits (busy_timeout) for a read under way on the reader, then empties the WAL.
                row = await (await self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")).fetchone()
                if row is None or not row[0]:
                    return
            log.warning("%s: the WAL could not be emptied after a forget (readers busy)", self.name)
        finally:
            self._writing.release()

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def set_schema_version(self, version: int) -> None:
        await self.db.execute(f"PRAGMA user_version = {int(version)}")

    async def close(self) -> None:
        async with self._writing:  # a batch being committed finishes first
            pass
        if self.reader is not None:
            await self.reader.close()
        await self.db.close()


# The transaction the current task is in, per PostgreSQL store: its statements go to that connection.
_bound: contextvars.ContextVar[dict[int, Any] | None] = contextvars.ContextVar(
    "klaverjas_pg_transaction", default=None)
MIGRATION_LOCK = 0x6B6C6A73  # advisory lock key of the migrations: one process migrates, the others wait
TABLE_LOCK_CLASS = 0x6B6A  # first key of a table's lock held across a command (``hold_table``); the second: its id


class PostgresConnection(Connection):
    """A pool of asyncpg connections: a statement outside a transaction takes any connection; a transaction keeps
    one for all its statements, the helpers' included (found through a context variable), so nothing else runs
    inside it. Several processes may share the database: each table's actions are serialised by the
    advisory lock of ``POSTGRES.lock_table``."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, name: str, url: str = "") -> None:
        self.pool = pool
        self.name = name
        self._url = url
        # Connections that only hold tables' locks (``hold_table``), apart from the pool that does the work: a
        # holder's statements must never wait for a connection another holder keeps.
        self._lock_pool: asyncpg.Pool | None = None
        self._listener: Any = None

    @classmethod
    async def open(cls, url: str) -> PostgresConnection:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=10)
        return cls(pool, safe_url(url), url)

    @contextlib.asynccontextmanager
    async def hold_table(self, table_id: int) -> AsyncIterator[None]:
        """The table's lock among every process sharing the database, held until the block ends (a process that
        dies loses it with its connection). Its key is the two-number kind, so it never meets the one-number key
        ``POSTGRES.lock_table`` takes inside each append."""
        if self._lock_pool is None:
            self._lock_pool = await asyncpg.create_pool(self._url, min_size=0, max_size=20)
        async with self._lock_pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", TABLE_LOCK_CLASS, table_id)
            yield
            # Released with the connection: the pool's reset runs pg_advisory_unlock_all, also when the block was
            # cancelled while waiting for the lock.

    async def listen(self, heard: Callable[[str], None]) -> None:
        """Call ``heard`` with the text of each notice (``POSTGRES.notify``) any process sends, from now on."""
        if self._listener is None:
            self._listener = await asyncpg.connect(self._url)
        await self._listener.add_listener(NOTICES, lambda _conn, _pid, _channel, text: heard(text))

    def _conn(self) -> Any:
        bound = _bound.get()
        return bound.get(id(self)) if bound is not None else None

    async def _fetch(self, sql: str, parameters: Sequence[Any]) -> Cursor:
        conn = self._conn()
        try:
            if conn is not None:
                return Cursor(await conn.fetch(numbered(sql), *parameters))
            return Cursor(await self.pool.fetch(numbered(sql), *parameters))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise Conflict(str(error)) from error

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(row) for row in rows]
        if not rows:
            return
        conn = self._conn()
        try:
            if conn is not None:
                await conn.executemany(numbered(sql), rows)
            else:
                await self.pool.executemany(numbered(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise Conflict(str(error)) from error

    async def script(self, sql: str) -> None:
        conn = self._conn()
        assert conn is not None, "a migration script runs in the migration's transaction"
        await conn.execute(sql)  # no parameters: the simple protocol, which takes several statements

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._conn() is not None:
            raise StoreError("a transaction inside a transaction")
        async with self.pool.acquire() as conn, conn.transaction():
            bound = dict(_bound.get() or {})
            bound[id(self)] = conn
            token = _bound.set(bound)
            try:
                yield
            finally:
                _bound.reset(token)

    async def write(self, sql: str, parameters: Sequence[Any]) -> None:
        await self.execute(sql, parameters)  # autocommit

    @contextlib.asynccontextmanager
    async def migrating(self) -> AsyncIterator[None]:
        """The migration's transaction, under an advisory lock: processes starting together migrate one by one
        (the later ones find nothing pending)."""
        async with self.transaction():
            await self.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            await self.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            yield

    async def schema_version(self) -> int:
        exists = await (await self.execute("SELECT to_regclass('schema_version') IS NOT NULL")).fetchone()
        if not exists[0]:
            return 0
        row = await (await self.execute("SELECT max(version) FROM schema_version")).fetchone()
        return int(row[0]) if row is not None and row[0] is not None else 0

    async def set_schema_version(self, version: int) -> None:
        await self.execute("DELETE FROM schema_version")
        await self.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))

    async def scrub(self, tables: Sequence[str]) -> None:
        """VACUUM the changed tables (outside any transaction, as it must run): the dead row versions' space is
        marked free, to be overwritten by later writes, and the indexes lose their entries. Their bytes stay in the
        data files until then, and in the write-ahead log until PostgreSQL recycles it (README: forget-me)."""
        async with self.pool.acquire() as connection:
            for table in tables:
                await connection.execute(f'VACUUM "{table}"')  # names from the code, never from a person

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
        if self._lock_pool is not None:
            await self._lock_pool.close()
        await self.pool.close()


MASK = "***"
# A URL's user:password@: the password runs to the last "@" before a blank (a password with an unencoded "@" or
# "/" is masked whole; a URL without user info but with an "@" later loses a little more than its password).
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^:/?#@\s]*):\S*@")
# password= and sslpassword= as a URL's query parameter (up to & or #) or a libpq key=value DSN's keyword
# (blanks around "=", a value in single quotes with \' inside): both forms asyncpg accepts.
_PASSWORD = re.compile(r"(?i)(?<![A-Za-z0-9_])(?P<key>(?:ssl)?password)(?P<eq>\s*=\s*)"
                       r"(?P<value>'(?:[^'\\]|\\.)*'?|[^\s&#]*)")
# Any query parameter, for keys spelled with percent-escapes (asyncpg decodes "pass%77ord" to "password").
_PARAMETER = re.compile(r"(?P<head>[?&;](?P<key>[^=&#\s]+)=)(?P<value>[^&#\s]*)")
SECRET_KEYS = frozenset({"password", "sslpassword"})


def safe_url(text: str) -> str:
    """``text`` (a database URL or DSN, or a message quoting one) without any password in it: the user:password@
    of a URL, its password= and sslpassword= parameters, and those keywords of a key=value DSN. The one mask for
    every place that logs or shows where the database is."""
    text = _USERINFO.sub(lambda found: f"{found['head']}:{MASK}@", text)
    text = _PARAMETER.sub(lambda found: found["head"] + MASK if unquote_plus(found["key"]).strip().lower()
                          in SECRET_KEYS else found[0], text)
    return _PASSWORD.sub(lambda found: f"{found['key']}{found['eq']}{MASK}", text)


def statements(sql: str) -> list[str]:
    """The statements of a SQLite migration script, each whole (a trigger's body included), comments kept."""
    out: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            out.append(pending.strip())
            pending = ""
    rest = "\n".join(line for line in pending.splitlines() if not line.strip().startswith("--")).strip()
    if rest:
        raise StoreError(f"a migration ends in an unfinished statement: {rest[:80]!r}")
    return out


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))
