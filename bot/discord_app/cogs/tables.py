"""Opening, configuring, joining, leaving and stopping tables: /klaverjas start, settings, join, leave,
stop, rules."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.cogs import KlaverjasCog
from bot.discord_app.context import at_home, reply, user_lang
from bot.discord_app.handlers import dm_notice, sit_down, table_here, take_seat, user_table
from bot.discord_app.messages import describe_settings, lobby_text, lobby_view
from bot.discord_app.setting_options import setting_options, settings_from
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import Delivery, Table, TableSettings
from bot.texts.catalog import parse_seat, t
from bot.texts.language import Language
from bot.web.links import activity_here

PLAIN_CHANNELS = (discord.ChannelType.text, discord.ChannelType.news, discord.ChannelType.voice)


def or_fresh(stored: TableSettings | None, lang: Language) -> TableSettings:
    """A server's stored defaults, or the project's defaults in the asker's language where it set none."""
    return stored if stored is not None else TableSettings(language=lang)


class Tables(KlaverjasCog):
    async def guild_defaults(self, guild_id: int | None, lang: Language) -> TableSettings:
        return or_fresh(await self.bot.store.guild_defaults(guild_id) if guild_id is not None else None, lang)

    @app_commands.command(name=_("start"), description=_("Open a Klaverjas table in this channel"))
    @setting_options()
    async def start(self, interaction: discord.Interaction[Any], **options: str | None) -> None:
        service = self.bot.service
        # Both reads in one statement: in a burst of starts each round trip waits for its turn on the store.
        stored, chosen = await self.bot.store.start_preferences(interaction.guild_id, interaction.user.id)
        settings = settings_from(or_fresh(stored, user_lang(interaction)), options)
        delivery = chosen or Delivery.DM

        async def post_lobby(table: Table) -> int:
            view = lobby_view(table, activity_here(self.bot.web, table, table.channel_id))
            try:
                # The host's name is in the text: a name like "@everyone" must ping nobody.
                callback = await interaction.response.send_message(lobby_text(table), view=view,
                                                                   allowed_mentions=discord.AllowedMentions.none())
            finally:
                view.stop()
            message_id = callback.message_id if callback is not None else None
            message_id = message_id or (await interaction.original_response()).id
            self.bot.announcer.remember_click(table, message_id, interaction)  # the lobby's edits go through it
            return message_id

        # One table per thread and one open lobby per channel, else a private refusal; the table exists only
        # once its lobby message does (an expired interaction leaves nothing behind).
        # A channel Discord says is a plain one is no table's thread: no store read to find out.
        channel = interaction.channel
        plain = channel is not None and getattr(channel, "type", None) in PLAIN_CHANNELS
        table = await service.create_table(host_id=interaction.user.id, host_name=interaction.user.display_name,
                                           settings=settings, guild_id=interaction.guild_id,
                                           channel_id=interaction.channel_id,
                                           delivery=delivery, post=post_lobby,
                                           language=user_lang(interaction), plain_channel=plain)
        notice = await dm_notice(self.bot, interaction, table.id)
        if notice:
            await interaction.followup.send(notice, ephemeral=True)

    @app_commands.command(name=_("settings"), description=_("Set this server's default table settings"))
    @setting_options()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(self, interaction: discord.Interaction[Any], **options: str | None) -> None:
        lang = user_lang(interaction)
        if interaction.guild_id is None:
            raise ServiceError(ServiceErrorCode.NOT_HERE)
        base = await self.guild_defaults(interaction.guild_id, lang)
        new = settings_from(base, options)
        await self.bot.store.set_guild_defaults(interaction.guild_id, new)
        await reply(interaction, t("settings.saved", lang) + "\n" + describe_settings(new, lang))

    @app_commands.command(name=_("join"), description=_("Join a table, or take over an AI seat in a running game"))
    @app_commands.describe(seat=_("The seat: N, E, S or W"))
    async def join(self, interaction: discord.Interaction[Any], seat: str | None = None) -> None:
        """In a table's thread: take over an AI seat (between hands, or from the next hand). In a channel with
        one open lobby: sit at it (in ``seat``, or the first free seat)."""
        service = self.bot.service
        chosen = parse_seat(seat) if seat else None
        if seat and chosen is None:
            raise ServiceError(ServiceErrorCode.BAD_SEAT, {"text": seat})
        table = service.table_in_channel(interaction.channel_id)
        if table is not None and at_home(interaction, table):
            await take_seat(self.bot, interaction, table.id, chosen)
            return
        lobby = service.lobby_in_channel(interaction.channel_id)
        if lobby is None or not at_home(interaction, lobby):
            raise ServiceError(ServiceErrorCode.NO_TABLE_HERE)
        await reply(interaction, await sit_down(self.bot, interaction, lobby.id, chosen))

    @app_commands.command(name=_("leave"), description=_("Leave the table; an AI player takes your seat"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        service = self.bot.service
        table = user_table(self.bot, interaction)
        await service.leave(table.id, interaction.user.id)
        await reply(interaction, t("left_ai", user_lang(interaction)))

    @app_commands.command(name=_("stop"), description=_("Stop the table (host, majority of players, or moderators)"))
    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        service = self.bot.service
        lang = user_lang(interaction)
        table = table_here(self.bot, interaction)
        stopped = await service.stop(table.id, interaction.user.id, can_manage=interaction.permissions.manage_messages)
        await reply(interaction, t("ok", lang) if stopped else t("stop.voted", lang))

    @app_commands.command(name=_("rules"), description=_("Show this table's rules"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        table = table_here(self.bot, interaction)
        # A private answer: in the asker's language, as every private message is (the thread speaks the table's).
        await reply(interaction, describe_settings(table.settings, user_lang(interaction), table.id))


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(Tables(bot), override=True)  # override: each cog registers the shared /klaverjas group
