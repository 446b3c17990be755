"""/klaverjas review: a finished match's review (bot.tables.reviews), privately, as text and a chart.

Who may see it: anyone in the server where the match was played, the players and onlookers alike (a
match at a server's table is that server's, as its thread is); a match of another server, or a number
that is no finished match, is refused with the same private answer, so nothing is told about it.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.cogs import KlaverjasCog
from bot.discord_app.context import reply, user_lang
from bot.discord_app.limits import tame, visible
from bot.discord_app.messages import review_message
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import ReviewStatus, Table, TableStatus
from bot.texts.catalog import seat_name, t
from engine.cards import SEATS

# What a person types for a match: its number, perhaps after a #; the autocomplete's value is the number.
MATCH_NUMBER = re.compile(r"^#?\s*(\d{1,18})$")


class Review(KlaverjasCog):
    async def finished_match(self, interaction: discord.Interaction[Any], typed: str) -> Table:
        """The finished match of this server that ``typed`` names; refused (privately, by the error path)
        for anything else."""
        text = visible(typed)
        found = MATCH_NUMBER.match(text)
        table = await self.bot.store.load_table(int(found.group(1))) if found else None
        if table is None or table.status is not TableStatus.FINISHED or table.guild_id is None \
                or table.guild_id != interaction.guild_id:
            raise ServiceError(ServiceErrorCode.NO_MATCH, {"text": tame(text)})
        return table

    @app_commands.command(name=_("review"), description=_("Review a finished match: what each decision cost"))
    @app_commands.describe(match=_("The match: its number, e.g. 12"))
    async def review(self, interaction: discord.Interaction[Any], match: str) -> None:
        lang = user_lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.finished_match(interaction, match)
        stored = await self.bot.store.review(table.id)
        if stored is None:
            reviews = self.bot.service.reviews
            reviews.request(table.id)  # a no-op when it is queued already
            done, hands = reviews.progress(table.id) or (0, 0)
            key = "review.pending" if hands else "review.queued"
            await reply(interaction, t(key, lang, table=table.id, done=done, hands=hands))
            return
        if stored.status is ReviewStatus.FAILED:
            await reply(interaction, t("review.failed", lang, table=table.id))
            return
        payload = await asyncio.to_thread(review_message, table, stored, interaction.user.id, lang)
        await interaction.followup.send(**payload.send_kwargs(), ephemeral=True)

    @review.autocomplete("match")
    async def match_autocomplete(self, interaction: discord.Interaction[Any],
                                 current: str) -> list[app_commands.Choice[str]]:
        """The caller's recent finished matches in this server, newest first."""
        if interaction.guild_id is None:
            return []
        lang = user_lang(interaction)
        typed = visible(current).lstrip("#").strip().lower()
        choices = []
        for match in await self.bot.store.played_matches(interaction.user.id, interaction.guild_id):
            names = ", ".join(name or t("ai.name", lang, seat=seat_name(seat, lang))
                              for seat, name in zip(SEATS, match.names, strict=True))
            label = t("review.choice", lang, table=match.table_id, date=match.finished_at[:10], names=names)
            if typed and typed not in label.lower():
                continue
            choices.append(app_commands.Choice(name=label[:100], value=str(match.table_id)))
        return choices[:25]


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(Review(bot), override=True)  # override: each cog registers the shared /klaverjas group
