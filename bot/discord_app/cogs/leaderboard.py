"""/leaderboard [scope] [period]: the players (AI levels among them) by conservative rating, paged with buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.context import user_lang
from bot.discord_app.stats_handlers import board_since
from bot.discord_app.stats_messages import BOARD_PER_PAGE, board_message
from bot.stats import ratings
from bot.stats.ratings import GLOBAL_SCOPE
from bot.tables.errors import ServiceError, ServiceErrorCode


class Leaderboard(commands.Cog):
    def __init__(self, bot: KlaverjasBot) -> None:
        self.bot = bot

    @app_commands.command(name=_("leaderboard"), description=_("Show the leaderboard of ratings"))
    @app_commands.guild_only()
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.describe(scope=_("This server or all servers"),
                           period=_("All time, the last 30 days or the last 7 days"))
    @app_commands.choices(scope=[app_commands.Choice(name=_("server"), value="s"),
                                 app_commands.Choice(name=_("global"), value="g")],
                          period=[app_commands.Choice(name=_(p), value=p) for p in ("all", "month", "week")])
    async def leaderboard(self, interaction: discord.Interaction[Any], scope: str = "s", period: str = "all") -> None:
        if interaction.guild_id is None:
            raise ServiceError(ServiceErrorCode.NOT_HERE)
        if scope not in ("s", "g") or period not in ("all", "month", "week"):  # only a forged payload gets here
            raise ServiceError(ServiceErrorCode.BAD_SETTING, {"key": "scope/period",
                                                              "choices": "server, global / all, month, week"})
        board = await self.bot.store.leaderboard(interaction.guild_id if scope == "s" else GLOBAL_SCOPE,
                                                 board_since(period), 0, BOARD_PER_PAGE, ratings.MIN_MATCHES)
        payload = board_message(board, scope, period, ratings.MIN_MATCHES, user_lang(interaction))
        await interaction.response.send_message(**payload.send_kwargs(), ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())
        payload.stop()


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(Leaderboard(bot))
