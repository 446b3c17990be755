"""One cog per feature; each adds its subcommands to the bot's one ``/klaverjas`` group in ``setup``."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

EXTENSIONS = ("bot.discord_app.cogs.tables", "bot.discord_app.cogs.play")


def make_group() -> app_commands.Group:
    return app_commands.Group(name=_("klaverjas"), description=_("Play Klaverjas"), guild_only=True)
