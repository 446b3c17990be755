"""Opening, configuring, leaving and stopping tables: /klaverjas start, settings, leave, stop, rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_app.announcer import lobby_text, lobby_view
from bot.discord_app.handlers import (
    bot_of,
    dm_notice,
    guarded,
    preferred_delivery,
    reply,
    sit_down,
    take_seat_now,
    user_lang,
)
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import TableSettings, TableStatus
from bot.texts.catalog import explain_rules, parse_seat, t
from bot.texts.language import Language
from engine.ai.players import Level
from rendering.theme import FELTS

if TYPE_CHECKING:
    from bot.discord_app.client import KlaverjasBot


def _choices(values: tuple[str, ...] | list[str]) -> list[app_commands.Choice[str]]:
    # Names are translated for Discord's Dutch locale (bot.texts.catalog.COMMAND_TEXTS); values stay the record's.
    names = {"en": "English", "nl": "Nederlands"}
    return [app_commands.Choice(name=_(names.get(value, value)), value=value) for value in values]


SETTING_DESCRIPTIONS = {
    "rules": _("Play rules: rotterdam or amsterdam"),
    "undertrump": _("Undertrumping: forced or forbidden"),
    "bidding": _("Bidding: vrij, verplicht or draaien"),
    "length": _("Match length: hands (16, 8) or a target (to1001)"),
    "roem": _("Roem: auto or declared"),
    "stuk": _("Stuk: trick or held"),
    "ai": _("AI level: easy, normal or hard"),
    "theme": _("Felt colour"),
    "language": _("Language of the table: en or nl"),
}
SETTING_CHOICES = {
    "rules": _choices(("rotterdam", "amsterdam")),
    "undertrump": _choices(("forced", "forbidden")),
    "bidding": _choices(("vrij", "verplicht", "draaien")),
    "roem": _choices(("auto", "declared")),
    "stuk": _choices(("trick", "held")),
    "ai": _choices(tuple(level.value for level in Level)),
    "theme": _choices(tuple(FELTS)),
    "language": _choices(tuple(language.value for language in Language)),
}


def settings_from(base: TableSettings, rules: str | None, undertrump: str | None, bidding: str | None,
                  length: str | None, roem: str | None, stuk: str | None, ai: str | None, theme: str | None,
                  language: str | None) -> TableSettings:
    return base.with_changes(play=rules, undertrump=undertrump, bidding=bidding, length=length, roem=roem, stuk=stuk,
                             ai_level=ai, felt=theme, language=language)


async def guild_defaults(bot: KlaverjasBot, guild_id: int | None, lang: str) -> TableSettings:
    stored = await bot.store.guild_defaults(guild_id) if guild_id is not None else None
    return stored if stored is not None else TableSettings(language=Language.of(lang))


@app_commands.command(name=_("start"), description=_("Open a Klaverjas table in this channel"))
@app_commands.describe(**SETTING_DESCRIPTIONS)  # type: ignore[arg-type]
@app_commands.choices(**SETTING_CHOICES)  # type: ignore[arg-type]
async def start(interaction: discord.Interaction[Any], rules: str | None = None, undertrump: str | None = None,
                bidding: str | None = None, length: str | None = None, roem: str | None = None,
                stuk: str | None = None, ai: str | None = None, theme: str | None = None,
                language: str | None = None) -> None:
    bot = bot_of(interaction)

    async def work() -> None:
        base = await guild_defaults(bot, interaction.guild_id, user_lang(interaction))
        settings = settings_from(base, rules, undertrump, bidding, length, roem, stuk, ai, theme, language)
        table = await bot.service.create_table(host_id=interaction.user.id, host_name=interaction.user.display_name,
                                               settings=settings, guild_id=interaction.guild_id,
                                               channel_id=interaction.channel_id,
                                               delivery=await preferred_delivery(interaction))
        view = lobby_view(table)
        callback = await interaction.response.send_message(lobby_text(table), view=view)
        view.stop()
        message_id = callback.message_id if callback is not None else None
        table.lobby_message_id = message_id or (await interaction.original_response()).id
        await bot.service.save_discord(table)
        notice = await dm_notice(interaction, table.id)
        if notice:
            await interaction.followup.send(notice, ephemeral=True)

    await guarded(interaction, None, work)


@app_commands.command(name=_("settings"), description=_("Set this server's default table settings"))
@app_commands.describe(**SETTING_DESCRIPTIONS)  # type: ignore[arg-type]
@app_commands.choices(**SETTING_CHOICES)  # type: ignore[arg-type]
@app_commands.default_permissions(manage_guild=True)
@app_commands.checks.has_permissions(manage_guild=True)
async def settings(interaction: discord.Interaction[Any], rules: str | None = None, undertrump: str | None = None,
                   bidding: str | None = None, length: str | None = None, roem: str | None = None,
                   stuk: str | None = None, ai: str | None = None, theme: str | None = None,
                   language: str | None = None) -> None:
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        if interaction.guild_id is None:
            raise ServiceError(ServiceErrorCode.NOT_HERE)
        base = await guild_defaults(bot, interaction.guild_id, lang)
        new = settings_from(base, rules, undertrump, bidding, length, roem, stuk, ai, theme, language)
        await bot.store.set_guild_defaults(interaction.guild_id, new)
        await reply(interaction, t("settings.saved", lang) + "\n" + describe_settings(new, lang))

    await guarded(interaction, None, work)


def describe_settings(settings: TableSettings, lang: str, table: int | None = None) -> str:
    return explain_rules(settings.rules, lang, table=table, ai=settings.ai_level, felt=settings.felt,
                         language=settings.language)


@app_commands.command(name=_("leave"), description=_("Leave the table; an AI player takes your seat"))
async def leave(interaction: discord.Interaction[Any]) -> None:
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        table = bot.service.find_user_table(interaction.user.id, interaction.channel_id)
        await bot.service.leave(table.id, interaction.user.id)
        await reply(interaction, t("left_ai", lang))

    await guarded(interaction, None, work)


@app_commands.command(name=_("stop"), description=_("Stop the table (host, majority of players, or moderators)"))
async def stop(interaction: discord.Interaction[Any]) -> None:
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        table = bot.service.table_here(interaction.user.id, interaction.channel_id)
        perms = interaction.permissions
        stopped = await bot.service.stop(table.id, interaction.user.id, can_manage=perms.manage_messages)
        await reply(interaction, t("ok", lang) if stopped else t("stop.voted", lang))

    await guarded(interaction, None, work)


@app_commands.command(name=_("rules"), description=_("Show this table's rules"))
async def rules_command(interaction: discord.Interaction[Any]) -> None:
    bot = bot_of(interaction)

    async def work() -> None:
        table = bot.service.table_here(interaction.user.id, interaction.channel_id)
        # In the table's language, so everyone at the table reads the same rules.
        await reply(interaction, describe_settings(table.settings, table.settings.language, table.id))

    await guarded(interaction, None, work)


@app_commands.command(name=_("join"), description=_("Join a table, or take over an AI seat in a running game"))
@app_commands.describe(seat=_("The seat: N, E, S or W"))
async def join(interaction: discord.Interaction[Any], seat: str | None = None) -> None:
    """In a table's thread: take over an AI seat (between hands, or from the next hand). In a channel with
    one open lobby: sit at it (in ``seat``, or the first free seat)."""
    bot = bot_of(interaction)

    async def work() -> None:
        chosen = parse_seat(seat) if seat else None
        if seat and chosen is None:
            raise ServiceError(ServiceErrorCode.BAD_SEAT, {"text": seat})
        table = bot.service.table_in_channel(interaction.channel_id)
        if table is not None:
            await take_seat_now(interaction, table.id, chosen)
            return
        lobbies = [tb for tb in bot.service.tables.values()
                   if tb.status is TableStatus.LOBBY and tb.channel_id == interaction.channel_id]
        if len(lobbies) != 1:
            raise ServiceError(ServiceErrorCode.NO_TABLE_HERE)
        lobby = lobbies[0]
        await reply(interaction, await sit_down(interaction, lobby.id, chosen))

    await guarded(interaction, None, work)


class Tables(commands.Cog):
    def __init__(self, bot: KlaverjasBot) -> None:
        self.bot = bot


async def setup(bot: KlaverjasBot) -> None:
    commands_: tuple[Any, ...] = (start, settings, join, leave, stop, rules_command)
    for command in commands_:
        bot.klaverjas.add_command(command, override=True)
    await bot.add_cog(Tables(bot))
