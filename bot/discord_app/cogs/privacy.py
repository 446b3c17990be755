"""/klaverjas forget-me: a player's right to be forgotten, after a confirmation button."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.cogs import KlaverjasCog
from bot.discord_app.handlers import ask_forget


class Privacy(KlaverjasCog):
    @app_commands.command(name=_("forget-me"),
                          description=_("Delete your statistics and make you anonymous in every stored game"))
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        await ask_forget(interaction)


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(Privacy(bot), override=True)  # override: each cog registers the shared /klaverjas group
