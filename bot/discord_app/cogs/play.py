"""Playing: /klaverjas hand, play (with autocomplete of the legal cards), hint, score."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_app.announcer import names_of, theme_of
from bot.discord_app.handlers import bot_of, guarded, refresh_ephemeral_hand, reply, send_hand_ephemeral, user_lang
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.texts.catalog import card_label, parse_card_text, t, team_word
from engine.cards import Card

if TYPE_CHECKING:
    from bot.discord_app.client import KlaverjasBot


@app_commands.command(name=_("hand"), description=_("Show your hand again"))
@app_commands.describe(delivery=_("Where your private hand goes: dm or thread"))
@app_commands.choices(delivery=[app_commands.Choice(name=_("dm"), value="dm"),
                                app_commands.Choice(name=_("thread"), value="thread")])
async def hand(interaction: discord.Interaction[Any], delivery: str | None = None) -> None:
    """Without options: the hand, privately. With ``delivery``: remember where this player's hand goes
    (for every later table) and move it there at the current table."""
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        if delivery is None:
            table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
            await send_hand_ephemeral(interaction, table.id)
            return
        if delivery not in ("dm", "thread"):
            raise ServiceError(ServiceErrorCode.BAD_SETTING, {"key": "delivery", "choices": "dm, thread"})
        await bot.store.set_user_delivery(interaction.user.id, delivery)
        try:
            table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        except ServiceError:
            where = t("delivery.where_" + delivery, lang)
            await reply(interaction, t("delivery.saved", lang, where=where))
            return
        await bot.service.set_delivery(table.id, interaction.user.id, delivery)
        seat = table.seat_of(interaction.user.id)
        if delivery == "thread":
            await send_hand_ephemeral(interaction, table.id, note=t("delivery.thread", lang))
            return
        await reply(interaction, t("delivery.dm", lang))
        if seat is not None and table.running:
            await bot.announcer.send_hand(table, seat)

    await guarded(interaction, None, work)


async def card_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    bot = bot_of(interaction)
    try:
        table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        _, _, view = bot.service.view_for(table.id, interaction.user.id)
    except ServiceError:
        return []
    lang = user_lang(interaction)
    typed = current.strip().upper()
    exact = parse_card_text(current) if typed else None
    cards = [c for c in view.legal if isinstance(c, Card)] if view.my_turn else []
    choices = []
    for card in cards:
        label = card_label(card, lang)
        if not typed or card == exact or label.upper().startswith(typed) or typed in label.upper() \
                or card.notation.startswith(typed.replace("10", "T")):
            choices.append(app_commands.Choice(name=label, value=card.notation))
    return choices[:25]


@app_commands.command(name=_("play"), description=_("Play a card"))
@app_commands.describe(card=_("The card to play, e.g. JH or 10S"))
@app_commands.autocomplete(card=card_autocomplete)
async def play(interaction: discord.Interaction[Any], card: str) -> None:
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        chosen = parse_card_text(card)
        if chosen is None:
            await reply(interaction, t("play.no_match", lang, text=card))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await bot.service.act(table.id, interaction.user.id, chosen)
        await interaction.followup.send(t("played", lang, card=card_label(chosen, lang)), ephemeral=True)

    await guarded(interaction, None, work)


@app_commands.command(name=_("hint"), description=_("What would the strong player do? (your turn only)"))
async def hint(interaction: discord.Interaction[Any]) -> None:
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        _, _, view = bot.service.view_for(table.id, interaction.user.id)
        if not view.my_turn or not view.legal:
            raise ServiceError(ServiceErrorCode.NO_HINT)
        await interaction.response.defer(ephemeral=True, thinking=True)
        # The strong player thinks for a while: in the AI workers, never on the event loop.
        await interaction.followup.send(await bot.thinker.hint(view, lang), ephemeral=True)

    await guarded(interaction, None, work)


@app_commands.command(name=_("score"), description=_("Show the score sheet"))
async def score(interaction: discord.Interaction[Any]) -> None:
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        table = bot.service.table_here(interaction.user.id, interaction.channel_id)
        from rendering import render_sheet

        seat = table.seat_of(interaction.user.id)
        game = table.game
        await interaction.response.defer(ephemeral=True, thinking=True)
        image = await asyncio.to_thread(
            render_sheet, game.results, viewer_team=seat.team if seat is not None else None, names=names_of(table),
            hands_total=table.rules.length.hands, finished=game.finished, winner=game.winner, theme=theme_of(table))
        ns, ew = game.totals
        if seat is None:
            text = t("score.neutral", lang, ns=ns, ew=ew)
        else:
            team = seat.team
            text = t("score.line", lang, team=team_word(team, None, lang), other=team_word(team.other, None, lang),
                     we=game.totals[team],
                     they=game.totals[team.other])
        sheet = discord.File(io.BytesIO(image), filename="sheet.png")
        await interaction.followup.send(text, ephemeral=True, file=sheet)

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
