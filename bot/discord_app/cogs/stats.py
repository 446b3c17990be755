"""/stats [player] [ai]: a player's statistics, privately, with a button to share them in the channel."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.context import reply, user_lang
from bot.discord_app.setting_options import choices_of
from bot.discord_app.stats_handlers import send_stats
from bot.discord_app.stats_messages import ai_name
from bot.stats.facts import ai_key, human_key
from bot.tables.model import choice_of
from bot.texts.catalog import t
from engine.ai.players import Level
from engine.settings import find_setting


class Stats(commands.Cog):
    """A top-level command, as players type it (not under /klaverjas)."""

    def __init__(self, bot: KlaverjasBot) -> None:
        self.bot = bot

    @app_commands.command(name=_("stats"), description=_("Show a player's statistics (privately; you can share them)"))
    @app_commands.guild_only()
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.describe(player=_("The player (default: you)"), ai=_("An AI level instead of a player"))
    @app_commands.choices(ai=choices_of(find_setting("ai")))  # the levels, as /klaverjas start offers them
    async def stats(self, interaction: discord.Interaction[Any], player: discord.User | None = None,
                    ai: str | None = None) -> None:
        lang = user_lang(interaction)
        if player is not None:
            if player.bot:
                await reply(interaction, t("stats.no_bots", lang))
                return
            await send_stats(self.bot, interaction, human_key(player.id), player.display_name)
        elif ai is not None:
            key = ai_key(choice_of(Level, ai, "ai"))  # a forged value is refused, not a crash
            await send_stats(self.bot, interaction, key, ai_name(key, lang) or ai)
        else:
            await send_stats(self.bot, interaction, human_key(interaction.user.id), interaction.user.display_name)


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(Stats(bot))
