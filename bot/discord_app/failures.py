"""One error path for slash commands and clicks: a refusal becomes a private answer in the user's
language and nothing changes; anything unexpected is logged and answered with "Something went wrong".

Commands reach it through the command tree's ``on_error`` (``KlaverjasTree``), clicks through
``bot.discord_app.clicks.handle_click``.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord_app.context import reply, user_lang
from bot.discord_app.limits import ECHO_LIMIT, tame
from bot.discord_app.options import BadOption, check_options
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import Table
from bot.texts.catalog import COMMAND_TEXTS, error_text, illegal_text, permission_name, t
from bot.texts.labels import names_of
from bot.texts.language import Language
from engine.cards import Seat
from engine.errors import ErrorCode, IllegalActionError, KlaverjasError

log = logging.getLogger(__name__)

PARAM_LIMIT = 200  # characters of a name or a reason inside a refusal: enough for any the game makes


class UnknownComponent(Exception):
    """A click on a button or menu the bot cannot handle: an id it did not make, spelled another way than it
    writes ids, or not on the clicked message."""


def refusal(error: ServiceError | KlaverjasError, lang: Language, table: Table | None = None) -> str:
    """Why the request was refused, for the one who asked; ``table`` (when known) names the people."""
    if isinstance(error, ServiceError):
        # Strings in a refusal may be a user's: what they typed ("text", shown back briefly), a display name,
        # or an engine reason that quotes their input.
        params: dict[str, Any] = {
            key: tame(value, ECHO_LIMIT if key == "text" else PARAM_LIMIT) if isinstance(value, str) else value
            for key, value in error.params.items()}
        if error.code is ServiceErrorCode.NOT_HOST and table is not None:
            params.setdefault("host", f"<@{table.host_id}>")
        if isinstance(params.get("seat"), Seat):
            params["seat"] = params["seat"].letter
        return error_text(error.code, params, lang)
    if isinstance(error, IllegalActionError):
        extra: dict[str, str] = {}
        if error.code is ErrorCode.NOT_YOUR_TURN and table is not None and "seat" in error.params:
            extra["name"] = tame(names_of(table)[Seat.parse(error.params["seat"])], PARAM_LIMIT)
        return illegal_text(error, lang, **extra)
    return t("error.illegal", lang, reason=tame(str(error), PARAM_LIMIT))


def option_refusal(error: BadOption, lang: Language) -> str:
    """What the option takes, with its name and choices as the person's client shows them."""
    def shown(word: str) -> str:
        return COMMAND_TEXTS.get(word, word) if lang is Language.NL else word

    kind = t(f"option.kind.{error.kind.name}", lang)
    return t(f"error.option_{error.problem}", lang, option=f"`{shown(error.option)}`", kind=kind,
             choices=", ".join(shown(choice) for choice in error.choices), **error.params)


async def answer_failure(interaction: discord.Interaction[Any], error: Exception, table: Table | None = None) -> None:
    """Answer a command or click that did not go through; nothing was changed."""
    lang = user_lang(interaction)
    if isinstance(error, ServiceError | KlaverjasError):
        text = refusal(error, lang, table)
    elif isinstance(error, app_commands.MissingPermissions):
        perms = ", ".join(permission_name(p, lang) for p in error.missing_permissions)
        text = t("error.missing_permissions", lang, perms=perms)
    elif isinstance(error, app_commands.NoPrivateMessage):
        text = t("error.not_here", lang)
    elif isinstance(error, UnknownComponent):
        text = t("error.invalid_button", lang)
    elif isinstance(error, BadOption):
        text = option_refusal(error, lang)
    elif isinstance(error, discord.HTTPException):
        log.error("Discord refused an answer", exc_info=error)
        return
    else:
        log.error("handling an interaction failed", exc_info=error)
        text = t("error.unknown", lang)
    try:
        await reply(interaction, text)
    except discord.HTTPException:
        log.warning("could not answer a failed interaction")


class KlaverjasTree(app_commands.CommandTree[Any]):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Commands work in servers only. Discord keeps them out of DMs (the group's contexts); one that
        arrives from a DM anyway is refused here, before it can touch a table or a preference."""
        if interaction.guild_id is None:
            if interaction.type is discord.InteractionType.autocomplete:
                await self._no_choices(interaction)
                return False
            raise app_commands.NoPrivateMessage()
        return await self._options_check(interaction)

    async def _options_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every option as the command declares it (``bot.discord_app.options``), else a private refusal that
        names the option (an autocomplete gets no choices): nothing reaches the command."""
        data: Any = interaction.data
        if data is None or data.get("type", 1) != 1:
            return True  # not a slash command: discord.py checks the rest
        try:
            command, options = self._get_app_command_options(data)
        except app_commands.AppCommandError:
            return True  # no such command: discord.py says so as it always does
        if not isinstance(command, app_commands.Command):
            return True
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        try:
            check_options(command, options, data.get("resolved") or {}, autocomplete=autocomplete)
        except BadOption:
            if not autocomplete:
                raise
            await self._no_choices(interaction)
            return False
        return True

    @staticmethod
    async def _no_choices(interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.response.autocomplete([])
        except discord.HTTPException:
            log.info("could not answer an autocomplete that gets no choices")

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /) -> None:
        # A command that raised arrives wrapped; the refusals are the command's own exceptions.
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await answer_failure(interaction, original)
