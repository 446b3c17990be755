"""``klaverjas bot`` / ``make run``: start the Discord bot.

Every foreseeable failure at start (no token, a rejected token, no connection to Discord, a database
that cannot be opened) ends in one message on standard error and a non-zero status, not a traceback.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import socket
import sqlite3
import sys

from bot.collector import quiet_collector
from bot.discord_app.config import BotConfig, ConfigError, hide_token_in_logs, load_config, redact
from bot.tables.shards import parse_shards

log = logging.getLogger(__name__)

NO_TOKEN = """\
klaverjas bot: no DISCORD_TOKEN is set, so the bot cannot log in to Discord.

To get a token: open https://discord.com/developers/applications, create an application, open
"Bot", press "Reset Token" and copy it. Then put it in the environment or in a .env file here:

    DISCORD_TOKEN=your-token-here

Invite the bot with the scopes "bot" and "applications.commands" (see "Playing on Discord" in README.md).
You can play without Discord at any time: klaverjas play
"""

REJECTED_TOKEN = ("klaverjas bot: Discord refused the token in DISCORD_TOKEN. Copy it again from the developer "
                  "portal (your application, Bot page, Reset Token) and start the bot again.")

# Exit statuses, also listed in ``klaverjas bot --help``.
EXIT_CONFIG = 2  # no token or a bad setting: nothing was tried
EXIT_FAILED = 1  # the bot could not start or stay connected: token refused, Discord unreachable, database


def run_bot(shards: str | None = None, shard_count: int | None = None) -> int:
    """``shards`` and ``shard_count``: ``klaverjas bot --shards 0-3 --shard-count 8``."""
    try:
        config = with_shards(load_config(), shards, shard_count)
    except ConfigError as error:
        print(f"klaverjas bot: {error}", file=sys.stderr)
        return EXIT_CONFIG
    if config.token is None:
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    hide_token_in_logs(config.token)
    try:
        return asyncio.run(_run(config))
    except KeyboardInterrupt:
        return 0
    except Exception:
        # Unforeseen: the traceback goes through the log, whose records never carry the token.
        log.exception("klaverjas bot: stopped by an unexpected error")
        return EXIT_FAILED


def with_shards(config: BotConfig, shards: str | None, shard_count: int | None) -> BotConfig:
    """The config with the gateway shards this process runs; raises ConfigError for a bad or unsafe choice."""
    if shards is None and shard_count is None:
        return config
    count = shard_count or 1
    try:
        ids = parse_shards(shards, shard_count or 1 << 16) if shards is not None else frozenset(range(count))
    except ValueError as error:
        raise ConfigError(f"--shards: {error}") from None
    count = shard_count or max(ids) + 1
    if ids != frozenset(range(count)) and not config.database_url:
        raise ConfigError(f"--shards {shards} leaves other shards to other processes, which need one shared "
                          "database: set DATABASE_URL to a PostgreSQL database (a SQLite file serves one process)")
    return dataclasses.replace(config, shard_ids=ids, shard_count=count)


async def _run(config: BotConfig) -> int:
    import aiohttp
    import discord
    from asyncpg import PostgresError

    from bot.discord_app.client import create_bot
    from bot.store.backend import StoreError, safe_url

    # The bot never joins voice: discord.py's warnings about missing voice libraries are only noise here.
    discord.VoiceClient.warn_nacl = False
    if hasattr(discord.VoiceClient, "warn_dave"):
        discord.VoiceClient.warn_dave = False

    log.info("database: %s", config.database_name)
    quiet_collector()  # imported what it runs; the tables come next
    try:
        bot = await create_bot(config)
    except (OSError, sqlite3.Error, PostgresError, StoreError) as error:
        hint = ("Check DATABASE_URL and that the PostgreSQL server is running" if config.database_url else
                "Set KLAVERJAS_DB to a file in a folder you can write to")
        # The reason may quote the URL or DSN it could not use (asyncpg's "invalid DSN: ..."): masked as the name.
        print(f"klaverjas bot: cannot open the database {config.database_name}: {safe_url(_reason(error))}. {hint}.",
              file=sys.stderr)
        return EXIT_FAILED
    assert config.token is not None
    try:
        async with bot:
            await bot.start(config.token)
    except discord.LoginFailure:
        print(REJECTED_TOKEN, file=sys.stderr)
        return EXIT_FAILED
    except discord.PrivilegedIntentsRequired:
        print("klaverjas bot: Discord refused the connection because privileged intents were asked for; this bot "
              "needs none, so check that the code was not changed to ask for them.", file=sys.stderr)
        return EXIT_FAILED
    except discord.ConnectionClosed as error:
        # 4004 is the gateway's "authentication failed": the token was refused after the REST login.
        reason = f": {redact(error.reason, config.token)}" if error.reason else ""
        print(REJECTED_TOKEN if error.code == 4004 else f"klaverjas bot: Discord closed the connection "
              f"(code {error.code}{reason}).", file=sys.stderr)
        return EXIT_FAILED
    except (aiohttp.ClientError, TimeoutError, discord.GatewayNotFound, discord.DiscordServerError) as error:
        print(f"klaverjas bot: cannot reach Discord: {redact(unreachable_reason(error), config.token)}. Check the "
              "internet connection (and any proxy or firewall), then start the bot again.", file=sys.stderr)
        return EXIT_FAILED
    except discord.Forbidden as error:
        # At start the one request that can be refused is the command sync to KLAVERJAS_DEV_GUILD.
        where = f"server {config.dev_guild} (KLAVERJAS_DEV_GUILD)" if config.dev_guild else "Discord"
        print(f"klaverjas bot: {where} refused a request ({redact(error.text, config.token) or error.status}): "
              "invite the bot there with the scopes bot and applications.commands, or unset KLAVERJAS_DEV_GUILD.",
              file=sys.stderr)
        return EXIT_FAILED
    except discord.HTTPException as error:
        print(f"klaverjas bot: Discord refused a request at start "
              f"({error.status}: {redact(error.text, config.token) or 'no reason'}); try again in a while.",
              file=sys.stderr)
        return EXIT_FAILED
    return 0


def unreachable_reason(error: BaseException) -> str:
    """Why the connection failed, in one short clause a person can act on."""
    import aiohttp
    import discord

    if isinstance(error, aiohttp.ClientConnectorDNSError) or (
            isinstance(error, aiohttp.ClientConnectorError) and isinstance(error.os_error, socket.gaierror)):
        return f"the address {error.host} could not be looked up (no network, or no DNS)"
    if isinstance(error, aiohttp.ClientConnectorCertificateError):
        return f"the certificate of {error.host} could not be checked (is the system clock right?)"
    if isinstance(error, aiohttp.ClientConnectorError):
        return f"no connection to {error.host}:{error.port} ({_reason(error.os_error)})"
    if isinstance(error, TimeoutError):
        return "the connection timed out"
    if isinstance(error, discord.DiscordServerError):
        return f"Discord answered with a server error ({error.status}); try again in a while"
    if isinstance(error, discord.GatewayNotFound):
        return "Discord did not tell where its gateway is; try again in a while"
    return _reason(error)


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and isinstance(error.errno, int) and error.errno > 0:
        return os.strerror(error.errno)  # "Connection refused", where asyncio's own text names the address
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__
