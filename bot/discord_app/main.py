"""``klaverjas bot`` / ``make run``: start the Discord bot."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.discord_app.config import BotConfig, ConfigError, load_config

NO_TOKEN = """\
klaverjas bot: no DISCORD_TOKEN is set, so the bot cannot log in to Discord.

To get a token: open https://discord.com/developers/applications, create an application, open
"Bot", press "Reset Token" and copy it. Then put it in the environment or in a .env file here:

    DISCORD_TOKEN=your-token-here

Invite the bot with the scopes "bot" and "applications.commands" (see "Playing on Discord" in README.md).
You can play without Discord at any time: klaverjas play
"""


def run_bot() -> int:
    try:
        config = load_config()
    except ConfigError as error:
        print(f"klaverjas bot: {error}", file=sys.stderr)
        return 2
    if config.token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(_run(config))
    except KeyboardInterrupt:
        return 0


async def _run(config: BotConfig) -> int:
    import discord

    from bot.discord_app.client import create_bot

    bot = await create_bot(config)
    try:
        async with bot:
            assert config.token is not None
            await bot.start(config.token)
    except discord.LoginFailure:
        print("klaverjas bot: Discord refused the token (DISCORD_TOKEN): copy it again from the developer "
              "portal, Bot page, Reset Token.", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("klaverjas bot: this bot needs no privileged intents; check that the code was not changed to ask "
              "for them.", file=sys.stderr)
        return 2
    return 0
