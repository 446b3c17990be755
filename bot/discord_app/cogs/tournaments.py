"""Tournaments: /klaverjas tournament create, join, standings, close, config and winners."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.cogs import KlaverjasCog
from bot.discord_app.context import reply, user_lang
from bot.discord_app.limits import tame, visible
from bot.discord_app.setting_options import setting_options, settings_from
from bot.discord_app.tournament_handlers import join as join_tournament
from bot.discord_app.tournament_handlers import send_standings
from bot.discord_app.tournament_messages import created_text, tournament_label, winners_text
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import TableSettings
from bot.texts.catalog import t
from bot.tournaments.model import (
    DEFAULT_HANDS,
    DEFAULT_HOURS,
    DEFAULT_MAX_PARTICIPANTS,
    MAX_HANDS,
    MAX_HOURS,
    MAX_PARTICIPANTS_LIMIT,
    MIN_HOURS,
)

CHOICES = 25
TOURNAMENT_ID = re.compile(r"#?([1-9][0-9]{0,11})")  # as typed or chosen: 7 or #7, ASCII digits only
TOURNAMENT_OPTION = _("The tournament: pick one from the list")


def parse_tournament(text: str | None) -> int | None:
    """The tournament id in an option's value (a choice's value, or typed); refused when it is none."""
    if text is None:
        return None
    found = TOURNAMENT_ID.fullmatch(visible(text).strip())
    if found is None:
        raise ServiceError(ServiceErrorCode.NO_TOURNAMENT, {"tournament": tame(text)})
    return int(found.group(1))


def may_create(interaction: discord.Interaction[Any], role_id: int | None) -> bool:
    """Manage Server, or the role the server chose (the member's role ids as the interaction carries them)."""
    if interaction.permissions.manage_guild:
        return True
    roles = getattr(interaction.user, "_roles", ())  # ids from the payload: no guild cache needed
    return role_id is not None and role_id in roles


class Tournaments(KlaverjasCog):
    tournament = app_commands.Group(name=_("tournament"),
                                    description=_("Tournaments: everyone plays the same deals against AI players"))

    @tournament.command(name=_("create"),
                        description=_("Create a tournament in this channel (Manage Server or the server's tournament "
                                      "role)"))
    @app_commands.describe(name=_("The tournament's name"), hands=_("Hands every entry plays (default 16, a boompje)"),
                           max_participants=_("Most entries (a pair is one; default 10, 0 for no limit)"),
                           hours=_("Hours until it closes (default 24)"),
                           pairs=_("Whether two may enter as a pair (default yes)"))
    @setting_options(tournament=True)  # the table's options, but the length: a tournament has its own hands
    async def create(self, interaction: discord.Interaction[Any], name: str,
                     hands: app_commands.Range[int, 1, MAX_HANDS] = DEFAULT_HANDS,
                     max_participants: app_commands.Range[int, 0, MAX_PARTICIPANTS_LIMIT] = DEFAULT_MAX_PARTICIPANTS,
                     hours: app_commands.Range[float, MIN_HOURS, MAX_HOURS] = DEFAULT_HOURS, pairs: bool = True,
                     **options: str | None) -> None:
        lang = user_lang(interaction)
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            raise ServiceError(ServiceErrorCode.NOT_HERE)
        service = self.bot.tournaments
        config = await service.store.config(guild_id)
        if not may_create(interaction, config.creator_role_id):
            role = t("tournament.role", lang, role=f"<@&{config.creator_role_id}>") if config.creator_role_id else ""
            raise ServiceError(ServiceErrorCode.NOT_ALLOWED_CREATE, {"role": role})
        in_thread = self.bot.service.table_in_channel(channel_id)
        if in_thread is not None:  # a tournament's threads are made in a channel, not in a table's thread
            raise ServiceError(ServiceErrorCode.THREAD_HAS_TABLE, {"table": in_thread.id})
        stored = await self.bot.store.guild_defaults(guild_id)
        base = stored if stored is not None else TableSettings(language=lang)
        settings = settings_from(base, options)
        tournament = await service.create(guild_id=guild_id, channel_id=channel_id, creator_id=interaction.user.id,
                                          name=visible(name), settings=settings, hands=hands, hours=hours,
                                          max_participants=max_participants, pairs=pairs)
        # Public: the channel learns of it. The name is the creator's text: it pings nobody.
        await interaction.response.send_message(created_text(tournament),
                                                 allowed_mentions=discord.AllowedMentions.none())

    @tournament.command(name=_("join"), description=_("Join a tournament: your own table, at your own pace"))
    @app_commands.describe(tournament=TOURNAMENT_OPTION,
                           partner=_("Enter as a pair with this partner (they confirm)"))
    async def join(self, interaction: discord.Interaction[Any], tournament: str | None = None,
                   partner: discord.User | None = None) -> None:
        await join_tournament(self.bot, interaction, parse_tournament(tournament), partner)

    @tournament.command(name=_("standings"),
                        description=_("The standings of a tournament, and your hands against the field"))
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def standings(self, interaction: discord.Interaction[Any], tournament: str | None = None) -> None:
        await send_standings(self.bot, interaction, parse_tournament(tournament))

    @tournament.command(name=_("close"), description=_("Close a tournament now (its creator or Manage Server)"))
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def close(self, interaction: discord.Interaction[Any], tournament: str) -> None:
        service = self.bot.tournaments
        chosen = parse_tournament(tournament)
        closed = await service.close(chosen or 0, interaction.guild_id, interaction.user.id,
                                     can_manage=interaction.permissions.manage_guild)
        await reply(interaction, t("tournament.closing", user_lang(interaction), name=tame(closed.name, 80),
                                   channel=f"<#{closed.channel_id}>"))

    @tournament.command(name=_("config"),
                        description=_("The server's tournament settings: the daily tournament and the role that may "
                                      "create tournaments"))
    @app_commands.describe(daily=_("A tournament that opens every day in this channel and closes 24 hours later"),
                           hour=_("The hour (UTC, 0-23) the daily tournament opens"),
                           role=_("Besides Manage Server, this role may create tournaments"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def config(self, interaction: discord.Interaction[Any], daily: bool | None = None,
                     hour: app_commands.Range[int, 0, 23] | None = None, role: discord.Role | None = None) -> None:
        lang = user_lang(interaction)
        if interaction.guild_id is None:
            raise ServiceError(ServiceErrorCode.NOT_HERE)
        store = self.bot.tournaments.store
        config = await store.config(interaction.guild_id)
        if daily is not None:
            config.daily = daily
            config.channel_id = interaction.channel_id if daily else config.channel_id
        if hour is not None:
            config.daily_hour = hour
        if role is not None:
            config.creator_role_id = role.id
        await store.set_config(config)
        said = t("tournament.daily_on", lang, hour=f"{config.daily_hour:02d}", channel=f"<#{config.channel_id}>") \
            if config.daily else t("tournament.daily_off", lang)
        named = t("tournament.role", lang, role=f"<@&{config.creator_role_id}>") if config.creator_role_id else ""
        await reply(interaction, t("tournament.config_saved", lang, daily=said, role=named))
        if config.daily:
            await self.bot.tournaments.run_due()  # today's may be due at once

    @tournament.command(name=_("winners"), description=_("The daily tournament's winners of all time"))
    async def winners(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            raise ServiceError(ServiceErrorCode.NOT_HERE)
        wins = await self.bot.tournaments.daily_winners(interaction.guild_id)
        await reply(interaction, winners_text(wins, user_lang(interaction)))

    @join.autocomplete("tournament")
    async def open_autocomplete(self, interaction: discord.Interaction[Any],
                                current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, open_only=True)

    @standings.autocomplete("tournament")
    @close.autocomplete("tournament")
    async def any_autocomplete(self, interaction: discord.Interaction[Any],
                               current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, open_only=False)

    async def _choices(self, interaction: discord.Interaction[Any], current: str,
                       open_only: bool) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        lang = user_lang(interaction)
        found = await self.bot.tournaments.store.tournaments(interaction.guild_id, open_only=open_only,
                                                             limit=CHOICES)
        typed = visible(current).strip().lower()
        return [app_commands.Choice(name=tournament_label(tournament, lang), value=str(tournament.id))
                for tournament in found
                if not typed or typed in tournament.name.lower() or typed.lstrip("#") == str(tournament.id)][:CHOICES]


async def setup(bot: KlaverjasBot) -> None:
    await bot.add_cog(Tournaments(bot), override=True)  # override: each cog registers the shared /klaverjas group
