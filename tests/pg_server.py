"""A PostgreSQL server for the store tests: the one ``DATABASE_URL`` names, else a throwaway one started from the
PostgreSQL binaries (``initdb``, ``pg_ctl``) in a temporary folder, else none (the PostgreSQL half of the suite
is skipped, with the reason in pytest's summary).

The throwaway server listens only on a Unix socket in its folder (no TCP: nothing else on the machine can reach
it, and a free port number only names the socket), trusts local connections, and runs without fsync. initdb and
the server refuse to run as root: as root they run as the ``postgres`` user, else ``nobody`` (through ``runuser``,
else ``su``), who then owns the folder. Each test gets a database of its own, copied from a template that holds
the migrated schema, and dropped after the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store.base import SqlStore
from bot.store.postgres import PostgresStore

# What the ``new_store`` fixture (tests/conftest.py) gives: an unopened store on the test's database.
StoreMaker = Callable[[], SqlStore]

TEMPLATE = f"klaverjas_template_{os.getpid()}"


@dataclass
class PgServer:
    admin_url: str  # a database to connect to for CREATE DATABASE
    _names: Iterator[int] = field(default_factory=itertools.count)
    _template_ready: bool = False

    def url_of(self, database: str) -> str:
        parts = urlsplit(self.admin_url)
        return urlunsplit(parts._replace(path="/" + database))

    async def _admin(self, sql: str) -> None:
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def new_database(self) -> str:
        """A fresh database with the migrated schema; its URL."""
        if not self._template_ready:
            await self._admin(f"DROP DATABASE IF EXISTS {TEMPLATE}")
            await self._admin(f"CREATE DATABASE {TEMPLATE}")
            async with PostgresStore(self.url_of(TEMPLATE)):
                pass  # migrated once; every test's database is a copy
            self._template_ready = True
        name = f"klaverjas_test_{os.getpid()}_{next(self._names)}"
        await self._admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return self.url_of(name)

    async def drop_database(self, url: str) -> None:
        await self._admin(f"DROP DATABASE IF EXISTS {urlsplit(url).path.lstrip('/')} WITH (FORCE)")

    def close(self) -> None:
        if self._template_ready:
            with contextlib.suppress(Exception):
                asyncio.run(self._admin(f"DROP DATABASE IF EXISTS {TEMPLATE}"))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_user() -> tuple[list[str], str | None]:
    """The command prefix that runs a PostgreSQL binary as a user it accepts, and that user (None: this one)."""
    if os.geteuid() != 0:
        return [], None
    for user in ("postgres", "nobody"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            continue
        if shutil.which("runuser"):
            return ["runuser", "-u", user, "--"], user
        return ["su", user, "-s", "/bin/sh", "-c", '"$0" "$@"'], user
    raise RuntimeError("running as root and there is no postgres or nobody user to run PostgreSQL as")


@contextlib.contextmanager
def throwaway_server() -> Iterator[PgServer]:
    """initdb in a temporary folder, pg_ctl start on a Unix socket there; stopped and removed at the end."""
    prefix, user = _as_user()
    folder = Path(tempfile.mkdtemp(prefix="klaverjas-pg-"))
    data = folder / "data"
    try:
        if user is not None:
            shutil.chown(folder, user)
        port = _free_port()
        run = {"check": True, "capture_output": True, "text": True, "timeout": 120}
        subprocess.run([*prefix, "initdb", "-D", str(data), "-A", "trust", "-U", "klaverjas", "-E", "UTF8",
                        "--no-sync", "--no-instructions"], **run)  # type: ignore[call-overload]
        subprocess.run([*prefix, "pg_ctl", "-D", str(data), "-l", str(folder / "server.log"), "-w", "-t", "60",
                        "-o", f"-F -c fsync=off -c full_page_writes=off -c listen_addresses='' -k {folder} -p {port}",
                        "start"], **run)  # type: ignore[call-overload]
        server = PgServer(f"postgresql://klaverjas@/postgres?host={folder}&port={port}")
        try:
            yield server
        finally:
            server.close()
            subprocess.run([*prefix, "pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, timeout=60)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def why_unavailable() -> str | None:
    """Why no server can be had here (None: one can)."""
    if os.environ.get("DATABASE_URL"):
        return None
    missing = [name for name in ("initdb", "pg_ctl") if shutil.which(name) is None]
    if missing:
        return (f"PostgreSQL suite skipped: DATABASE_URL is not set and {' and '.join(missing)} "
                "not found on PATH (install PostgreSQL or set DATABASE_URL to run it)")
    return None
