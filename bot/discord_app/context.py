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
from bot.tables.service import TableService
from bot.tables.thinking import Thinker
from bot.texts.language import Language
from bot.tournaments.service import TournamentService


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
