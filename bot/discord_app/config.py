"""Bot configuration from environment variables, or a ``.env`` file in the working directory.

Variables already set in the environment win over the file. Every value has a sensible default
except the token. ``VARIABLES`` describes them for ``klaverjas bot --help``.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store.backend import DEFAULT_POOL_SIZE, is_postgres_url, safe_url
from bot.store.sqlite import DEFAULT_PATH, path_problem
from bot.tables.service import ServiceConfig
from bot.web.config import MIN_SECRET_LENGTH, WebConfig, web_config_from


class ConfigError(ValueError):
    """A configuration value that cannot be used; the message names the variable and what it takes."""


MIN_TURN_TIME = 10.0  # seconds: the reminder comes at half time, and less would give nobody time to read
MIN_LOBBY_TIMEOUT = 60.0  # seconds: less would close a lobby before people could read it and join
MIN_DESERTED_GRACE = 30.0  # seconds: less would end a table before anyone could take a seat or press I'm back

# The defaults live where they are used (the table service's ``ServiceConfig``); the variables only name them.
SERVICE_DEFAULTS = ServiceConfig()
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_AI_WORKERS = 1


def _shown(seconds: float) -> str:
    """A default as ``--help`` shows it: 120, not 120.0."""
    return f"{seconds:g}"


@dataclass(frozen=True, slots=True)
class Variable:
    name: str
    default: str | None  # None: unset unless given
    meaning: str


VARIABLES: tuple[Variable, ...] = (
    Variable("DISCORD_TOKEN", None, "the bot's token from the Discord developer portal (required)"),
    Variable("DATABASE_URL", None,
             "a PostgreSQL database (postgresql://user:password@host:5432/name) instead of the SQLite file, for "
             "several bot processes or machines; unset: KLAVERJAS_DB"),
    Variable("KLAVERJAS_DB", str(DEFAULT_PATH),
             "the SQLite database file (when DATABASE_URL is unset); a relative path is taken from the folder the "
             "bot is started in"),
    Variable("KLAVERJAS_DB_POOL", str(DEFAULT_POOL_SIZE),
             "PostgreSQL connections each bot process may open for its work, at least 1 (18 more: lock waits, "
             "locks and notices); keep every process's sum under the server's max_connections"),
    Variable("KLAVERJAS_DEV_GUILD", None,
             "a server id: sync slash commands to that server only, instantly (unset: to every server)"),
    Variable("KLAVERJAS_LOG_LEVEL", DEFAULT_LOG_LEVEL, "DEBUG, INFO, WARNING or ERROR"),
    Variable("KLAVERJAS_AI_PAUSE", _shown(SERVICE_DEFAULTS.ai_pause),
             "seconds an AI player waits before acting, 0 or more"),
    Variable("KLAVERJAS_TURN_TIME", _shown(SERVICE_DEFAULTS.turn_time),
             f"seconds a player has per turn, at least {MIN_TURN_TIME:g} (a reminder at half time, then the AI "
             "plays the turn)"),
    Variable("KLAVERJAS_DEAL_PAUSE", _shown(SERVICE_DEFAULTS.deal_pause),
             "seconds between the end of a hand and the next deal, 0 or more"),
    Variable("KLAVERJAS_AI_WORKERS", str(DEFAULT_AI_WORKERS),
             "worker processes for AI decisions (hints and match reviews have one more each); 0 runs them in "
             "threads"),
    Variable("KLAVERJAS_LOBBY_TIMEOUT", _shown(SERVICE_DEFAULTS.lobby_timeout),
             f"seconds a lobby waits for its host to start it, at least {MIN_LOBBY_TIMEOUT:g}; then it closes"),
    Variable("KLAVERJAS_WEB_PORT", None,
             "the web table's port (with KLAVERJAS_PUBLIC_URL and KLAVERJAS_WEB_SECRET; unset: no web table)"),
    Variable("KLAVERJAS_PUBLIC_URL", None,
             "the web table's public address as players reach it (https://klaverjas.example.org), behind a reverse "
             "proxy"),
    Variable("KLAVERJAS_WEB_SECRET", None,
             f"a random string of at least {MIN_SECRET_LENGTH} characters that signs the web table's links"),
    Variable("DISCORD_CLIENT_ID", None,
             "the application's id: the Activity's origin (https://<id>.discordsays.com) and its login (unset: the "
             "id Discord tells the bot at login)"),
    Variable("DISCORD_CLIENT_SECRET", None,
             "the application's OAuth2 client secret, for the Activity's login (unset: no Activity)"),
    Variable("KLAVERJAS_WEB_ORIGINS", None,
             "more origins allowed to open the web table's socket, comma-separated (rarely needed)"),
)


@dataclass(frozen=True, slots=True)
class BotConfig:
    token: str | None = field(repr=False)  # a password: never in a repr, a log line or an error message
    db_path: Path = DEFAULT_PATH
    database_url: str | None = field(default=None, repr=False)  # may hold a password: see database_name

    @property
    def database_name(self) -> str:
        """The database in use, for the log and messages (a URL's password hidden)."""
        return safe_url(self.database_url) if self.database_url else str(self.db_path)
    dev_guild: int | None = None  # sync commands to this guild only: instant, for development
    log_level: str = DEFAULT_LOG_LEVEL
    ai_workers: int = DEFAULT_AI_WORKERS  # processes for AI decisions (hints: one more); 0: threads in this process
    db_pool: int = DEFAULT_POOL_SIZE  # PostgreSQL's work connections per process, at most
    service: ServiceConfig = field(default_factory=ServiceConfig)  # pauses, turn time, lobby timeout, deserted grace
    # ``klaverjas bot --shards 0-3 --shard-count 8``: the gateway shards this process runs (None: not sharded).
    shard_ids: frozenset[int] | None = None
    shard_count: int | None = None
    web: WebConfig | None = None  # the web table beside the gateway (None: not configured, the bot as always)

    def service_config(self) -> ServiceConfig:
        """A copy for one bot: the service's config is mutable (tests change it on a running bot)."""
        return dataclasses.replace(self.service)


HIDDEN = "[token hidden]"
# What a bot token looks like (base64 user id, timestamp, HMAC), for one pasted where it does not belong.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{25,}")
SECRET_LENGTH = 8  # a shorter "token" is no secret (Discord refuses it), and hiding it would garble the text

_plain_records = logging.getLogRecordFactory()


def redact(text: str, token: str | None) -> str:
    """``text`` without the token, nor anything shaped like a token, nor a database password (``safe_url``)."""
    if token and len(token) >= SECRET_LENGTH:
        text = text.replace(token, HIDDEN)
    return safe_url(TOKEN_SHAPE.sub(HIDDEN, text))


def hide_token_in_logs(token: str | None) -> None:
    """From now on every log record, from any logger and for any handler, is made without the token: its
    message, and its traceback (an exception's text may quote a request that carried it)."""

    def record_without_token(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = _plain_records(*args, **kwargs)
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            return record  # a malformed call: logging reports it when the record is written
        record.msg, record.args = redact(message, token), None
        if record.exc_info:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info), token)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, token)
        return record

    logging.setLogRecordFactory(record_without_token)


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; ``#`` comments and blank lines skipped, optional quotes removed."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8 text"
        raise ConfigError(f"cannot read {path.resolve()}: {reason}") from None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key] = value
    return values


def _number(env: Mapping[str, str], key: str, default: float, minimum: float) -> float:
    raw = env.get(key, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{key} must be a number of seconds, not {raw!r}") from None
    if not math.isfinite(value):
        raise ConfigError(f"{key} must be a finite number of seconds, not {raw!r}")
    if value < minimum:
        raise ConfigError(f"{key} must be at least {minimum:g} seconds, not {raw!r}")
    return value


def _count(env: Mapping[str, str], key: str, default: int, meaning: str, minimum: int = 0) -> int:
    """A whole number of at least ``minimum``; ``meaning`` says what its values do, for the message."""
    raw = env.get(key, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < minimum:
        raise ConfigError(f"{key} must be a whole number ({meaning}), not {raw!r}")
    return int(raw)


def load_config(env: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")) -> BotConfig:
    merged: dict[str, str] = dict(read_dotenv(dotenv)) if dotenv is not None else {}
    merged.update(os.environ if env is None else env)
    token = merged.get("DISCORD_TOKEN", "").strip() or None
    try:
        return _config_from(merged, token)
    except ConfigError as error:
        # A message quotes the bad value, which may be the token pasted into the wrong variable.
        raise ConfigError(redact(str(error), token)) from None


def _config_from(merged: Mapping[str, str], token: str | None) -> BotConfig:
    guild_raw = merged.get("KLAVERJAS_DEV_GUILD", "").strip()
    if guild_raw and not guild_raw.isdigit():
        raise ConfigError(f"KLAVERJAS_DEV_GUILD must be a server id (a number), not {guild_raw!r}")
    level = merged.get("KLAVERJAS_LOG_LEVEL", DEFAULT_LOG_LEVEL).strip().upper() or DEFAULT_LOG_LEVEL
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"KLAVERJAS_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    # Made absolute once, here, so the log shows which file is used and nothing later depends on the folder.
    db_path = Path(merged.get("KLAVERJAS_DB", "").strip() or DEFAULT_PATH).expanduser()
    url = merged.get("DATABASE_URL", "").strip() or None
    problem = path_problem(db_path) if url is None else None
    if url is not None and not is_postgres_url(url):
        raise ConfigError(f"DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/name), not "
                          f"{safe_url(url)!r}")
    if problem is not None:
        raise ConfigError(f"KLAVERJAS_DB: {problem}")
    try:
        web = web_config_from(merged)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    return BotConfig(
        web=web,
        token=token,
        database_url=url,
        db_path=db_path if str(db_path) == ":memory:" else db_path.absolute(),
        dev_guild=int(guild_raw) if guild_raw else None,
        log_level=level,
        ai_workers=_count(merged, "KLAVERJAS_AI_WORKERS", DEFAULT_AI_WORKERS,
                          "0 = threads, 1 or more = worker processes"),
        db_pool=_count(merged, "KLAVERJAS_DB_POOL", DEFAULT_POOL_SIZE, "1 or more connections", minimum=1),
        service=ServiceConfig(
            ai_pause=_number(merged, "KLAVERJAS_AI_PAUSE", SERVICE_DEFAULTS.ai_pause, 0.0),
            turn_time=_number(merged, "KLAVERJAS_TURN_TIME", SERVICE_DEFAULTS.turn_time, MIN_TURN_TIME),
            deal_pause=_number(merged, "KLAVERJAS_DEAL_PAUSE", SERVICE_DEFAULTS.deal_pause, 0.0),
            lobby_timeout=_number(merged, "KLAVERJAS_LOBBY_TIMEOUT", SERVICE_DEFAULTS.lobby_timeout,
                                  MIN_LOBBY_TIMEOUT),
            deserted_grace=_number(merged, "KLAVERJAS_DESERTED_GRACE", SERVICE_DEFAULTS.deserted_grace,
                                   MIN_DESERTED_GRACE)),
    )
