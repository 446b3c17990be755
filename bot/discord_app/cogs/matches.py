"""Matches that are over: /klaverjas replay and /klaverjas export, with autocomplete of the caller's matches."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.cogs import KlaverjasCog
from bot.discord_app.context import user_lang
from bot.discord_app.replay_handlers import parse_match, send_export, send_replay
from bot.discord_app.replay_messages import match_label, matching
from bot.tables.errors import ServiceError

CHOICES = 25  # Discord shows at most 25 choices
RECENT = 25  # the caller's latest matches offered


class Matches(KlaverjasCog):
    @app_commands.command(name=_("replay"), description=_("Replay a match that is over, hand by hand (only you see "
                                                          "it)"))
    @app_commands.describe(match=_("The match: pick one of yours from the list, or type its number"))
    async def replay(self, interaction: discord.Interaction[Any], match: str) -> None:
        await send_replay(self.bot, interaction, parse_match(match))

    @app_commands.command(name=_("export"),
                          description=_("The record of a match that is over, as a file (klaverjas-record/1)"))
    @app_commands.describe(match=_("The match: pick one of yours from the list, or type its number"))
    async def export(self, interaction: discord.Interaction[Any], match: str) -> None:
        await send_export(self.bot, interaction, parse_match(match))

    @replay.autocomplete("match")
    @export.autocomplete("match")
    async def match_autocomplete(self, interaction: discord.Interaction[Any],
                                 current: str) -> list[app_commands.Choice[str]]:
        """The caller's latest matches in this server that are over, and the one whose number was typed."""
        if interaction.guild_id is None:
            return []
        lang = user_lang(interaction)
        archive = self.bot.archive
        recent = await archive.recent(interaction.guild_id, interaction.user.id, RECENT)
        labels = [(s.table.id, match_label(s, interaction.user.id, lang)) for s in recent]
        choices = matching(labels, current)
        try:
            typed = parse_match(current)
        except ServiceError:
            typed = None  # not a number: only the list, filtered
        if typed is not None and typed not in {i for i, _ in labels}:
            # Not one of theirs, or older: offered when it is a match of this server that is over.
            summary = await archive.summary(typed, interaction.guild_id, interaction.user.id)
            if summary is not None:
                choices.insert(0, (typed, match_label(summary, interaction.user.id, lang)))
        return [app_commands.Choice(name=label, value=str(i)) for i, label in choices[:CHOICES]]


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(Matches(bot), override=True)  # override: each cog registers the shared /klaverjas group
