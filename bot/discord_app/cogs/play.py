"""Playing at a table: /klaverjas hand, play (with autocomplete of the legal cards), hint, score, web."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot import access
from bot.discord_app.client import KlaverjasBot
from bot.discord_app.cogs import KlaverjasCog
from bot.discord_app.context import reply, user_lang
from bot.discord_app.handlers import send_hand_ephemeral, table_here, user_table
from bot.discord_app.limits import tame, visible
from bot.discord_app.messages import score_message
from bot.discord_app.views import PlayHereButton, browser_button
from bot.tables.errors import ServiceError
from bot.tables.model import Delivery, choice_of
from bot.texts.catalog import card_label, parse_card_text, t
from bot.web.links import activity_here, seat_link, watch_link
from engine.cards import Card


class Play(KlaverjasCog):
    @app_commands.command(name=_("hand"), description=_("Show your hand again"))
    @app_commands.describe(delivery=_("Where your private hand goes: dm or thread"))
    @app_commands.choices(delivery=[app_commands.Choice(name=_("dm"), value="dm"),
                                    app_commands.Choice(name=_("thread"), value="thread")])
    async def hand(self, interaction: discord.Interaction[Any], delivery: str | None = None) -> None:
        """Without options: the hand, privately. With ``delivery``: remember where this player's hand goes
        (for every later table) and move it there at the current table."""
        service = self.bot.service
        lang = user_lang(interaction)
        if delivery is None:
            table = user_table(self.bot, interaction)
            await send_hand_ephemeral(self.bot, interaction, table.id)
            return
        chosen = choice_of(Delivery, delivery, "delivery")
        await self.bot.store.set_user_delivery(interaction.user.id, chosen)
        try:
            table = user_table(self.bot, interaction)
        except ServiceError:
            await reply(interaction, t("delivery.saved", lang, where=t(f"delivery.where_{chosen}", lang)))
            return
        await service.set_delivery(table.id, interaction.user.id, chosen)
        seat = table.seat_of(interaction.user.id)
        if chosen is Delivery.THREAD:
            await send_hand_ephemeral(self.bot, interaction, table.id, note=t("delivery.thread", lang))
            return
        await reply(interaction, t("delivery.dm", lang))
        if seat is not None and table.running:
            await self.bot.announcer.send_hand(table, seat)

    @app_commands.command(name=_("play"), description=_("Play a card"))
    @app_commands.describe(card=_("The card to play, e.g. JH or 10S"))
    async def play(self, interaction: discord.Interaction[Any], card: str) -> None:
        service = self.bot.service
        lang = user_lang(interaction)
        table = user_table(self.bot, interaction)
        typed = visible(card)  # a zero-width or right-to-left mark in "JH" is still JH
        chosen = parse_card_text(typed)
        if chosen is None:
            await reply(interaction, t("play.not_a_card", lang, text=tame(typed)))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await service.act(table.id, interaction.user.id, chosen)
        await reply(interaction, t("played", lang, card=card_label(chosen, lang)))

    @play.autocomplete("card")
    async def card_autocomplete(self, interaction: discord.Interaction[Any],
                                current: str) -> list[app_commands.Choice[str]]:
        service = self.bot.service
        try:
            table = user_table(self.bot, interaction)
            _table, _seat, view = service.view_for(table.id, interaction.user.id)
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

    @app_commands.command(name=_("hint"), description=_("What would the strong player do? (your turn only)"))
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        service = self.bot.service
        table = user_table(self.bot, interaction)
        view = service.hint_view(table.id, interaction.user.id)  # your turn, not too often
        await interaction.response.defer(ephemeral=True, thinking=True)
        # The strong player thinks for a while: in the AI workers, never on the event loop.
        await reply(interaction, await self.bot.thinker.hint(view, user_lang(interaction)))

    @app_commands.command(name=_("score"), description=_("Show the score sheet"))
    async def score(self, interaction: discord.Interaction[Any]) -> None:
        table = table_here(self.bot, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        seat = access.private_seat(table, interaction.user.id)  # their own side of the sheet, if they sit here
        payload = await asyncio.to_thread(score_message, table, seat, user_lang(interaction))
        await interaction.followup.send(**payload.send_kwargs(), ephemeral=True)

    @app_commands.command(name=_("web"), description=_("Open your seat at the table in a browser"))
    async def web(self, interaction: discord.Interaction[Any]) -> None:
        """A link (ephemeral: it is this person's alone) to their seat on the web table; to someone who does not
        sit at this thread's table, a link to its public view (what the thread shows them already)."""
        lang = user_lang(interaction)
        web = self.bot.web
        if web is None:
            await reply(interaction, t("web.not_configured", lang))
            return
        person = interaction.user.id
        table = table_here(self.bot, interaction)  # this thread's table, else their seat's, of this server only
        view = discord.ui.View(timeout=None)
        if access.private_seat(table, person) is not None:
            view.add_item(browser_button(seat_link(web, table.id, person), lang))
            text = t("web.link", lang, table=table.id)
        else:
            view.add_item(browser_button(watch_link(web, table.id, person), lang, "button.watch_browser"))
            text = t("web.watch_link", lang, table=table.id)
        if activity_here(web, table, interaction.channel_id):  # the Activity, right in this thread
            view.add_item(PlayHereButton(table.id, lang))
        try:
            await reply(interaction, text, view=view)
        finally:
            view.stop()  # clicks reach the bot's registered items (bot.discord_app.clicks), not this view


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(Play(bot), override=True)  # override: each cog registers the shared /klaverjas group
