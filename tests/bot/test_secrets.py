"""The bot's token never shows: not in the configuration's repr, not in a configuration error, not in
what ``klaverjas bot`` prints when Discord refuses it, not in any log line or traceback."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import discord
import pytest
from harness import discord_error

import bot.discord_app.client
from bot.discord_app.config import HIDDEN, BotConfig, ConfigError, load_config, redact
from bot.discord_app.main import EXIT_CONFIG, EXIT_FAILED, run_bot
from bot.store.backend import safe_url

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
def bot_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The token in the environment, a folder without .env; the log's record factory restored afterwards."""
    monkeypatch.chdir(tmp_path)
    for name in ("KLAVERJAS_DEV_GUILD", "KLAVERJAS_LOG_LEVEL", "KLAVERJAS_TURN_TIME", "KLAVERJAS_AI_PAUSE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("KLAVERJAS_DB", str(tmp_path / "bot.sqlite3"))
    monkeypatch.setenv("KLAVERJAS_AI_WORKERS", "0")
    factory = logging.getLogRecordFactory()
    try:
        yield tmp_path
    finally:
        logging.setLogRecordFactory(factory)


def test_the_configuration_never_shows_its_token() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN}, dotenv=None)
    assert config.token == TOKEN
    for shown in (repr(config), str(config), f"{config}", f"{config!r}"):
        assert TOKEN not in shown and "BotConfig(" in shown and "db_path=" in shown
    assert "token" not in repr(BotConfig(token=TOKEN))


@pytest.mark.parametrize("variable", ["KLAVERJAS_DEV_GUILD", "KLAVERJAS_LOG_LEVEL", "KLAVERJAS_AI_PAUSE",
                                      "KLAVERJAS_TURN_TIME", "KLAVERJAS_AI_WORKERS"])
def test_a_token_pasted_into_another_variable_is_not_echoed(variable: str) -> None:
    for env in ({"DISCORD_TOKEN": TOKEN, variable: TOKEN}, {variable: TOKEN}):  # known, or only token-shaped
        with pytest.raises(ConfigError) as caught:
            load_config(env, dotenv=None)
        message = str(caught.value)
        assert variable in message and HIDDEN in message
        assert TOKEN not in message and TOKEN.upper() not in message


def test_redact_leaves_other_text_alone() -> None:
    assert redact("KLAVERJAS_TURN_TIME must be at least 10 seconds, not '5'", "x") == \
        "KLAVERJAS_TURN_TIME must be at least 10 seconds, not '5'"  # a one-letter "token" is no secret
    assert redact(f"token={TOKEN}!", None) == f"token={HIDDEN}!"
    assert redact("a.b.c and 123.456", TOKEN) == "a.b.c and 123.456"


def test_a_config_error_printed_at_start_hides_the_token(bot_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KLAVERJAS_DEV_GUILD", TOKEN)
    assert run_bot() == EXIT_CONFIG
    err = capsys.readouterr().err
    assert "KLAVERJAS_DEV_GUILD must be a server id" in err and TOKEN not in err


class RefusedBot:
    """Starts the way discord.py does when Discord refuses: the library logs, then the error is raised."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    async def __aenter__(self) -> RefusedBot:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def start(self, token: str) -> None:
        log = logging.getLogger("discord.http")
        log.warning("login with token %s failed", token)
        try:
            raise self.error
        except BaseException:
            log.exception("request with Authorization: Bot %s failed", token)
            raise


REFUSALS = {
    "login failure": discord.LoginFailure(f"Improper token has been passed: {TOKEN}"),
    "400": discord_error(400, 50035, f"Invalid Form Body: {TOKEN}"),
    "403 at the command sync": discord_error(403, 50001, f"Missing Access for {TOKEN}"),
    "503": discord_error(503, 0, f"upstream said {TOKEN}"),
    "connection": aiohttp.ClientConnectionError(f"cannot connect with Bot {TOKEN}"),
    "unexpected": RuntimeError(f"something nobody foresaw about {TOKEN}"),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_what_the_bot_prints_and_logs_when_refused_hides_the_token(
        name: str, bot_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    async def refused_bot(config: BotConfig) -> RefusedBot:
        return RefusedBot(REFUSALS[name])

    monkeypatch.setattr(bot.discord_app.client, "create_bot", refused_bot)
    with caplog.at_level(logging.INFO):
        assert run_bot() == EXIT_FAILED
    err = capsys.readouterr().err
    assert err.startswith("klaverjas bot:") or name == "unexpected"
    assert TOKEN not in err
    assert caplog.records and TOKEN not in caplog.text
    for record in caplog.records:
        assert TOKEN not in record.getMessage() and TOKEN not in (record.exc_text or "")
    assert any(HIDDEN in record.getMessage() for record in caplog.records)
    if name == "unexpected":
        assert any("something nobody foresaw" in (record.exc_text or "") for record in caplog.records)


# ------------------------------------------------------------------ the database's password

PASSWORD = "hunter22-x"
# Every way a PostgreSQL URL or DSN can carry a password that asyncpg (and libpq) accept.
DATABASE_URLS = {
    "user:password@": f"postgresql://bot:{PASSWORD}@127.0.0.1:{{port}}/klaverjas",
    "@ in the password": f"postgresql://bot:{PASSWORD}@x@127.0.0.1:{{port}}/klaverjas",
    "password= parameter": f"postgresql://bot@127.0.0.1:{{port}}/klaverjas?password={PASSWORD}",
    "password= after another": f"postgres://127.0.0.1:{{port}}/klaverjas?sslmode=disable&password={PASSWORD}",
    "sslpassword= parameter": f"postgresql://127.0.0.1:{{port}}/klaverjas?sslpassword={PASSWORD}&sslmode=disable",
    "escaped key": f"postgresql://127.0.0.1:{{port}}/klaverjas?pass%77ord={PASSWORD}",
}
DSNS = {
    "key=value DSN": f"host=127.0.0.1 port={{port}} password={PASSWORD} dbname=klaverjas",
    "blanks around =": f"host=127.0.0.1 password = {PASSWORD} dbname=klaverjas",
    "quoted value": f"host=127.0.0.1 password='{PASSWORD} \\' x' dbname=klaverjas",
    "sslpassword keyword": f"host=127.0.0.1 sslpassword={PASSWORD}",
}


@pytest.mark.parametrize("form", list(DATABASE_URLS) + list(DSNS))
def test_every_form_of_a_database_password_is_masked(form: str) -> None:
    text = {**DATABASE_URLS, **DSNS}[form].format(port=5432)
    masked = safe_url(f"cannot open {text}: refused")
    assert PASSWORD not in masked and PASSWORD[:6] not in masked, masked
    assert "***" in masked and "127.0.0.1" in masked and masked.endswith("refused")
    assert redact(text, None) == safe_url(text)  # the log's filter masks it too


def test_text_without_a_password_is_left_alone() -> None:
    for text in ("postgresql://bot@db:5432/klaverjas?sslmode=require", "host=db user=bot dbname=klaverjas",
                 "the password is checked", "/data/klaverjas.sqlite3"):
        assert safe_url(text) == text


@pytest.mark.parametrize("form", list(DATABASE_URLS))
def test_the_log_and_the_error_of_an_unreachable_database_hide_its_password(
        form: str, bot_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed once the block ends: nothing listens there
    monkeypatch.setenv("DATABASE_URL", DATABASE_URLS[form].format(port=port))
    with caplog.at_level(logging.INFO):
        assert run_bot() == EXIT_FAILED
    err = capsys.readouterr().err
    assert "cannot open the database postgres" in err and "***" in err and "Traceback" not in err
    assert any(record.getMessage().startswith("database: postgres") for record in caplog.records)
    assert PASSWORD not in err and PASSWORD not in caplog.text


@pytest.mark.parametrize("form", list(DSNS))
def test_a_dsn_refused_as_database_url_is_not_echoed_with_its_password(form: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config({"DATABASE_URL": DSNS[form].format(port=5432)}, dotenv=None)
    assert "DATABASE_URL must be a PostgreSQL URL" in str(caught.value) and PASSWORD not in str(caught.value)
