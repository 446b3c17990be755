"""`klaverjas bot` when it cannot start: one clear line and a status, never a traceback. No real network:
the connection fails on a closed loopback port, in a patched DNS lookup, or at a local fake Discord."""

from __future__ import annotations

import http.server
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import aiohttp.connector
import discord.http
import pytest

from bot.discord_app.config import ConfigError, load_config
from bot.discord_app.main import run_bot
from bot.store.backend import SqliteConnection

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bot_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A token, a database in tmp_path, AI in threads, and a folder without a .env file."""
    monkeypatch.chdir(tmp_path)
    for name in ("KLAVERJAS_DEV_GUILD", "KLAVERJAS_LOG_LEVEL", "KLAVERJAS_TURN_TIME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("KLAVERJAS_DB", str(tmp_path / "bot.sqlite3"))
    monkeypatch.setenv("KLAVERJAS_AI_WORKERS", "0")
    return tmp_path


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_no_network_is_one_message_and_status_1(bot_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    async def no_dns(*args: object, **kwargs: object) -> None:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(aiohttp.connector.TCPConnector, "_resolve_host", no_dns)
    assert run_bot() == 1
    err = capsys.readouterr().err
    assert "cannot reach Discord: the address discord.com could not be looked up (no network, or no DNS)" in err
    assert "Traceback" not in err


def test_a_refused_connection_is_one_message_and_status_1(bot_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    port = closed_port()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    assert run_bot() == 1
    err = capsys.readouterr().err
    assert f"cannot reach Discord: no connection to 127.0.0.1:{port} (Connection refused)" in err


class RefusingDiscord(http.server.BaseHTTPRequestHandler):
    """Answers every request as Discord answers a bad token."""

    def do_GET(self) -> None:
        body = json.dumps({"message": "401: Unauthorized", "code": 0}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # keeps the test output clean
        pass


@pytest.fixture
def refusing_discord() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RefusingDiscord)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/v10"
    finally:
        server.shutdown()
        server.server_close()


def test_a_rejected_token_is_one_message_and_status_1(bot_env: Path, refusing_discord: str,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", refusing_discord)
    assert run_bot() == 1
    err = capsys.readouterr().err
    assert "Discord refused the token in DISCORD_TOKEN" in err and "Reset Token" in err
    assert "Traceback" not in err


def run_bot_process(folder: Path, db: str) -> subprocess.CompletedProcess[str]:
    """`klaverjas bot` in a process of its own, Discord out of reach: a bot that never ends fails the timeout."""
    script = ("import sys, discord.http\n"
              f"discord.http.Route.BASE = 'http://127.0.0.1:{closed_port()}/api/v10'\n"
              "from bot.cli.main import main\n"
              "sys.exit(main(['bot']))\n")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=folder,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "KLAVERJAS_DB": db}, timeout=60, check=False)


def test_a_database_that_cannot_be_opened(bot_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is not a database: one line and status 1, and the process ends (it used to hang)."""
    (bot_env / "hello.db").write_text("hello")
    run = run_bot_process(bot_env, str(bot_env / "hello.db"))
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.splitlines()[-1] == (f"klaverjas bot: cannot open the database {bot_env / 'hello.db'}: file is "
                                           "not a database. Set KLAVERJAS_DB to a file in a folder you can write to.")


@pytest.mark.parametrize(("where", "problem"), [
    ("folder", "{db} is a folder; give a file in it, for example {db}/klaverjas.sqlite3"),
    ("a-file/bot.sqlite3", "{parent} is a file, not a folder"),
    ("missing/dir/bot.sqlite3", "the folder {parent} does not exist; create it first or choose a file in another "
                                "folder")])
def test_a_database_path_that_cannot_hold_one_is_refused_before_anything(
        bot_env: Path, capsys: pytest.CaptureFixture[str], where: str, problem: str) -> None:
    (bot_env / "folder").mkdir()
    (bot_env / "a-file").write_text("")
    db = bot_env / where
    run = run_bot_process(bot_env, str(db))
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.strip() == "klaverjas bot: KLAVERJAS_DB: " + problem.format(db=db, parent=db.parent)
    assert not (bot_env / "missing").exists()  # no folder made on the way


async def test_opening_a_folder_as_a_database_leaves_no_thread_behind(tmp_path: Path) -> None:
    """aiosqlite's thread, when its connect failed, reported to an event loop that may have closed ("Event loop
    is closed" about one run in three): the path is checked before that thread starts."""
    def sqlite_threads() -> int:
        return sum("connection_worker" in thread.name for thread in threading.enumerate())

    before = sqlite_threads()
    with pytest.raises(sqlite3.OperationalError, match="unable to open database file"):
        await SqliteConnection.open(tmp_path)
    (tmp_path / "hello.db").write_text("hello")
    with pytest.raises(sqlite3.DatabaseError, match="file is not a database"):
        await SqliteConnection.open(tmp_path / "hello.db")
    assert sqlite_threads() == before


def test_an_unreachable_postgresql_database_is_one_message_without_its_password(
        bot_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_URL", f"postgresql://bot:hunter22@127.0.0.1:{closed_port()}/klaverjas")
    assert run_bot() == 1
    err = capsys.readouterr().err
    assert "cannot open the database postgresql://bot:***@127.0.0.1" in err and "DATABASE_URL" in err
    assert "hunter22" not in err and "Traceback" not in err
    assert not (bot_env / "data").exists()  # SQLite was not opened instead


def test_database_url_chooses_postgresql_and_must_be_one() -> None:
    config = load_config({"DATABASE_URL": "postgresql://bot:hunter22@db/klaverjas"}, dotenv=None)
    assert config.database_url == "postgresql://bot:hunter22@db/klaverjas"
    assert config.database_name == "postgresql://bot:***@db/klaverjas" and "hunter22" not in repr(config)
    assert load_config({}, dotenv=None).database_url is None
    with pytest.raises(ConfigError, match="DATABASE_URL must be a PostgreSQL URL") as refused:
        load_config({"DATABASE_URL": "mysql://bot:hunter22@db/klaverjas"}, dotenv=None)
    assert "hunter22" not in str(refused.value)


def test_no_token_and_bad_values_are_status_2(bot_env: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert run_bot() == 2
    assert "no DISCORD_TOKEN is set" in capsys.readouterr().err
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("KLAVERJAS_TURN_TIME", "5")
    assert run_bot() == 2
    assert "KLAVERJAS_TURN_TIME must be at least 10 seconds" in capsys.readouterr().err


def test_the_whole_command_prints_a_few_lines_only(bot_env: Path) -> None:
    """What a person sees from `make run` offline: the log lines and one message, no traceback."""
    script = ("import sys, discord.http\n"
              f"discord.http.Route.BASE = 'http://127.0.0.1:{closed_port()}/api/v10'\n"
              "from bot.cli.main import main\n"
              "sys.exit(main(['bot']))\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=bot_env,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=False)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr and "PyNaCl" not in run.stderr
    assert len(run.stderr.splitlines()) <= 4, run.stderr
    assert run.stderr.splitlines()[-1].startswith("klaverjas bot: cannot reach Discord")


def test_the_default_database_is_made_absolute_from_the_start_folder(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_config({}, dotenv=None).db_path == tmp_path / "data" / "klaverjas.sqlite3"
    assert load_config({"KLAVERJAS_DB": "games.db"}, dotenv=None).db_path == tmp_path / "games.db"


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("KLAVERJAS_AI_PAUSE", "nan", "KLAVERJAS_AI_PAUSE must be a finite number of seconds"),
    ("KLAVERJAS_DEAL_PAUSE", "-1", "KLAVERJAS_DEAL_PAUSE must be at least 0 seconds"),
    ("KLAVERJAS_TURN_TIME", "9.5", "KLAVERJAS_TURN_TIME must be at least 10 seconds"),
])
def test_bad_numbers_name_their_variable(variable: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config({variable: value}, dotenv=None)


def test_an_unreadable_env_file_is_a_config_error(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(b"DISCORD_TOKEN=caf\xe9\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config({}, dotenv=dotenv)


def test_shards_of_several_processes_need_postgresql(bot_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert run_bot("0-3", 8) == 2
    err = capsys.readouterr().err
    assert "--shards 0-3 leaves other shards to other processes" in err and "DATABASE_URL" in err
    assert not (bot_env / "bot.sqlite3").exists()  # refused before anything was opened


@pytest.mark.parametrize(("shards", "count", "message"), [
    ("9", 8, "--shards: shard 9 does not exist with --shard-count 8 (shards 0 to 7)"),
    ("2-1", 8, "--shards: '2-1' runs backwards"),
    ("north", 8, "--shards: 'north' is not a list of shard numbers"),
])
def test_bad_shards_are_refused_with_the_option(bot_env: Path, capsys: pytest.CaptureFixture[str], shards: str,
                                                count: int, message: str) -> None:
    assert run_bot(shards, count) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_every_shard_in_one_process_runs_the_sharded_client(bot_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """All shards in one process are fine on SQLite; the sharded client starts, and fails as the plain one does
    when Discord cannot be reached."""
    from bot.discord_app import client

    made: list[str] = []
    sharded_init = client.ShardedKlaverjasBot.__init__

    def noted(self: client.ShardedKlaverjasBot, *args: object, **kwargs: object) -> None:
        made.append(f"{kwargs.get('shard_ids')} of {kwargs.get('shard_count')}")
        sharded_init(self, *args, **kwargs)  # type: ignore[arg-type]

    async def no_dns(*args: object, **kwargs: object) -> None:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(client.ShardedKlaverjasBot, "__init__", noted)
    monkeypatch.setattr(aiohttp.connector.TCPConnector, "_resolve_host", no_dns)
    assert run_bot("0-1", 2) == 1
    assert made == ["[0, 1] of 2"]
    assert "cannot reach Discord" in capsys.readouterr().err
