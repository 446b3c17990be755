"""Playing: /klaverjas hand, play (with autocomplete of the legal cards), hint, score."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.announcer import names_of, theme_of
from bot.handlers import bot_of, guarded, refresh_ephemeral_hand, reply, send_hand_ephemeral, user_lang
from bot.i18n import t
from bot.service import ServiceError
from engine.cards import Card
from engine.errors import KlaverjasError

if TYPE_CHECKING:
    from bot.discord_app import KlaverjasBot


@app_commands.command(name=_("hand"), description=_("Show your hand again"))
async def hand(interaction: discord.Interaction[Any]) -> None:
    bot = bot_of(interaction)

    async def work() -> None:
        table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        await send_hand_ephemeral(interaction, table.id)

    await guarded(interaction, None, work)


async def card_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    bot = bot_of(interaction)
    try:
        table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        _, _, view = bot.service.view_for(table.id, interaction.user.id)
    except ServiceError:
        return []
    text = current.strip().upper().replace("10", "T")
    cards = [c for c in view.legal if isinstance(c, Card)]
    return [app_commands.Choice(name=card.symbol, value=card.notation) for card in cards
            if not text or card.notation.startswith(text) or text in card.notation][:25]


@app_commands.command(name=_("play"), description=_("Play a card"))
@app_commands.describe(card=_("The card to play, e.g. JH or 10S"))
@app_commands.autocomplete(card=card_autocomplete)
async def play(interaction: discord.Interaction[Any], card: str) -> None:
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        try:
            chosen = Card.parse(card)
        except KlaverjasError:
            await reply(interaction, t("play.no_match", lang, text=card))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await bot.service.act(table.id, interaction.user.id, chosen)
        await interaction.followup.send(t("played", lang, card=chosen.symbol), ephemeral=True)

    await guarded(interaction, None, work)


@app_commands.command(name=_("hint"), description=_("What would the strong player do? (your turn only)"))
async def hint(interaction: discord.Interaction[Any]) -> None:
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        _, _, view = bot.service.view_for(table.id, interaction.user.id)
        if not view.my_turn or not view.legal:
            raise ServiceError("no_hint")
        await interaction.response.defer(ephemeral=True, thinking=True)
        # The strong player thinks for a while: in the AI workers, never on the event loop.
        await interaction.followup.send(await bot.thinker.hint(view, lang), ephemeral=True)

    await guarded(interaction, None, work)


@app_commands.command(name=_("score"), description=_("Show the score sheet"))
async def score(interaction: discord.Interaction[Any]) -> None:
    bot = bot_of(interaction)

    async def work() -> None:
        table = bot.service.table_in_channel(interaction.channel_id)
        if table is None:
            table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        from rendering import render_sheet

        seat = table.seat_of(interaction.user.id)
        game = table.game
        await interaction.response.defer(ephemeral=True, thinking=True)
        image = await asyncio.to_thread(
            render_sheet, game.results, viewer_team=seat.team if seat is not None else None, names=names_of(table),
            hands_total=table.rules.length.hands, finished=game.finished, winner=game.winner, theme=theme_of(table))
        ns, ew = game.totals
        await interaction.followup.send(f"Wij {ns} – Zij {ew}", ephemeral=True,
                                        file=discord.File(io.BytesIO(image), filename="sheet.png"))

    await guarded(interaction, None, work)


class Play(commands.Cog):
    def __init__(self, bot: KlaverjasBot) -> None:
        self.bot = bot


async def setup(bot: KlaverjasBot) -> None:
    commands_: tuple[Any, ...] = (hand, play, hint, score)
    for command in commands_:
        bot.klaverjas.add_command(command, override=True)
    await bot.add_cog(Play(bot))


__all__ = ["refresh_ephemeral_hand"]
