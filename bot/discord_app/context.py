"""The bot as the handlers and the error path see it, and the small facts every answer needs.

A Protocol, so they can be handed the bot without importing ``bot.discord_app.client`` (which imports
them): ``KlaverjasBot`` fits it.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord_app.announcer import Announcer
from bot.discord_app.limits import fit
from bot.store.base import SqlStore
from bot.tables.archive import MatchArchive
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.tables.thinking import Thinker
from bot.texts.language import Language
from bot.tournaments.service import TournamentService
from bot.web.config import WebConfig


class KlaverjasApp(Protocol):
    @property
    def service(self) -> TableService: ...

    @property
    def store(self) -> SqlStore: ...

    @property
    def thinker(self) -> Thinker: ...

    @property
    def announcer(self) -> Announcer: ...

    @property
    def archive(self) -> MatchArchive: ...

    @property
    def tournaments(self) -> TournamentService: ...

    @property
    def web(self) -> WebConfig | None: ...


def user_lang(interaction: discord.Interaction[Any]) -> Language:
    """The language of the person who clicked or typed (their Discord client's locale)."""
    return Language.of(interaction.locale.value)


async def reply(interaction: discord.Interaction[Any], content: str, **kwargs: Any) -> None:
    """A private answer, whether or not the interaction was answered already; within Discord's limits."""
    kwargs = fit({"content": content, **kwargs})
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


def at_home(interaction: discord.Interaction[Any], table: Table) -> bool:
    """Whether a click or command may touch ``table`` from where it came: from the table's own server; from a
    DM only in the clicker's own DM with the bot for their seat at it (their hand; a tournament table played
    in DMs is all there). Anywhere else the table does not exist for them."""
    if interaction.guild_id is not None:
        return table.guild_id == interaction.guild_id
    seat = table.seat_of(interaction.user.id)
    return seat is not None and interaction.channel_id is not None \
        and table.seats[seat].dm_channel_id == interaction.channel_id


def check_place(interaction: discord.Interaction[Any], table: Table,
                code: ServiceErrorCode = ServiceErrorCode.NO_TABLE) -> None:
    """Refuse unless ``at_home``: from another server as for a table that does not exist there (``code``: the
    refusal of a missing one); from a DM as from someone not at the table (a player who left may still click
    their old hand)."""
    if not at_home(interaction, table):
        raise ServiceError(code if interaction.guild_id is not None else ServiceErrorCode.NOT_SEATED,
                           {"table": table.id})
