"""One cog per feature (``tables``: opening and running tables; ``play``: playing at one; ``review``: a
finished match's review). Their slash commands are all subcommands of the bot's one ``/klaverjas`` group."""

from __future__ import annotations

from discord.ext import commands

from bot.discord_app.client import KlaverjasBot


class KlaverjasCog(commands.Cog):
    def __init__(self, bot: KlaverjasBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # discord.py registers a cog's commands at the top level when the cog is added; ours belong under
        # /klaverjas. Attached first, registering them registers the group instead (add_cog(override=True)).
        # The cog's top-level commands and groups only: a group brings its own subcommands.
        for command in self.get_app_commands():
            self.bot.klaverjas.add_command(command)

    async def cog_unload(self) -> None:
        for command in self.get_app_commands():
            self.bot.klaverjas.remove_command(command.name)
