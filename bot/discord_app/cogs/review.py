"""/klaverjas review: a finished match's review, privately (bot.discord_app.review_handlers)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.cogs import KlaverjasCog
from bot.discord_app.context import user_lang
from bot.discord_app.limits import visible
from bot.discord_app.review_handlers import send_review
from bot.texts.catalog import seat_name, t
from engine.cards import SEATS


class Review(KlaverjasCog):
    @app_commands.command(name=_("review"), description=_("Review a finished match: what each decision cost"))
    @app_commands.describe(match=_("The match: its number, e.g. 12"))
    async def review(self, interaction: discord.Interaction[Any], match: str) -> None:
        await send_review(self.bot, interaction, match)

    @review.autocomplete("match")
    async def match_autocomplete(self, interaction: discord.Interaction[Any],
                                 current: str) -> list[app_commands.Choice[str]]:
        """The caller's recent finished matches in this server that they may see (``bot.access``), newest first."""
        if interaction.guild_id is None:
            return []
        lang = user_lang(interaction)
        typed = visible(current).lstrip("#").strip().lower()
        choices = []
        for match in await self.bot.store.played_matches(interaction.user.id, interaction.guild_id):
            table = await self.bot.store.load_table(match.table_id)
            if table is None or not await self.bot.archive.may_see(table, interaction.user.id):
                continue
            names = ", ".join(name or t("ai.name", lang, seat=seat_name(seat, lang))
                              for seat, name in zip(SEATS, match.names, strict=True))
            label = t("review.choice", lang, table=match.table_id, date=match.finished_at[:10], names=names)
            if typed and typed not in label.lower():
                continue
            choices.append(app_commands.Choice(name=label[:100], value=str(match.table_id)))
        return choices[:25]


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(Review(bot), override=True)  # override: each cog registers the shared /klaverjas group
