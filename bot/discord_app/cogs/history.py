"""/klaverjas history [player]: a player's recent matches in this server, privately."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.cogs import KlaverjasCog
from bot.discord_app.context import reply, user_lang
from bot.discord_app.stats_messages import HISTORY_LIMIT, history_message
from bot.stats.facts import human_key
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.texts.catalog import t


class History(KlaverjasCog):
    @app_commands.command(name=_("history"), description=_("Recent matches in this server"))
    @app_commands.describe(player=_("The player (default: you)"))
    async def history(self, interaction: discord.Interaction[Any], player: discord.User | None = None) -> None:
        lang = user_lang(interaction)
        if interaction.guild_id is None:
            raise ServiceError(ServiceErrorCode.NOT_HERE)
        who = player or interaction.user
        if who.bot:
            await reply(interaction, t("stats.no_bots", lang))
            return
        entries = await self.bot.store.history(interaction.guild_id, human_key(who.id), HISTORY_LIMIT)
        await reply(interaction, history_message(entries, who.display_name, lang))


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(History(bot), override=True)  # override: each cog registers the shared /klaverjas group
