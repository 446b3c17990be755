"""Replays and exports of matches that are over: /klaverjas replay and export, the match-end message's Replay and
Export buttons, and a private replay's step buttons.

Every answer is private. A match is shown only once it is over and only in its own server
(``bot.tables.archive``), checked again at every step: a step button's id is only a request, and one forged
for a running match or another server's is refused like the command. A replay's state is all in its buttons'
ids, so it survives a restart and nothing is kept between steps; an answer Discord loses (an expired
interaction, a rate-limited edit) leaves the replay where it was, for the next click.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord

from bot.discord_app.clicks import on_click
from bot.discord_app.context import KlaverjasApp, user_lang
from bot.discord_app.failures import UnknownComponent
from bot.discord_app.limits import visible
from bot.discord_app.replay_messages import export_payload, replay_page
from bot.discord_app.views import ExportButton, Position, ReplayButton, ReplayStepButton
from bot.tables.archive import Match
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.web.links import replay_link

log = logging.getLogger(__name__)

MATCH_ID = re.compile(r"#?([1-9][0-9]{0,11})")  # a table id as typed: 12 or #12, ASCII digits only


def parse_match(text: str) -> int:
    """The match id in an option's value (an autocomplete choice's value, or typed); refused otherwise."""
    found = MATCH_ID.fullmatch(visible(text).strip())
    if found is None:
        raise ServiceError(ServiceErrorCode.NOT_A_MATCH, {"text": text})
    return int(found.group(1))


async def find_match(app: KlaverjasApp, interaction: discord.Interaction[Any], table_id: int) -> Match:
    return await app.archive.match(table_id, interaction.guild_id, interaction.user.id)


def web_replay(app: KlaverjasApp, table_id: int, person: int) -> str | None:
    """The match on the web table for this person, when the web table is set up. Only for a match the archive
    gave them (``find_match``: ``bot.access`` let them see its record)."""
    return replay_link(app.web, table_id, person) if app.web is not None else None


async def send_replay(app: KlaverjasApp, interaction: discord.Interaction[Any], table_id: int) -> None:
    """A new private replay at the score sheet (the command, or Replay on the match-end message)."""
    match = await find_match(app, interaction, table_id)
    if not await answer_later(interaction, ephemeral=True):
        return
    link = web_replay(app, table_id, interaction.user.id)
    payload = await asyncio.to_thread(lambda: replay_page(match, interaction.user.id, None,
                                                          user_lang(interaction), link).drawn())
    try:
        await interaction.followup.send(**payload.send_kwargs(), ephemeral=True)
    except discord.HTTPException as error:
        log.warning("table %s: could not send a replay: %s", table_id, error)
    finally:
        payload.stop()


@on_click(ReplayButton)
async def replay_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: ReplayButton) -> None:
    await send_replay(app, interaction, item.table)


@on_click(ReplayStepButton)
async def replay_step(app: KlaverjasApp, interaction: discord.Interaction[Any], item: ReplayStepButton) -> None:
    """A private replay's button: the same message shows the step its id names."""
    if interaction.user.id != item.viewer:
        raise ServiceError(ServiceErrorCode.REPLAY_NOT_YOURS)
    match = await find_match(app, interaction, item.table)
    if not valid(match, item.position):
        raise UnknownComponent(item.custom_id)  # the bot never writes a step the match does not have
    if not await answer_later(interaction, ephemeral=False):
        return
    link = web_replay(app, item.table, item.viewer)
    payload = await asyncio.to_thread(lambda: replay_page(match, item.viewer, item.position,
                                                          user_lang(interaction), link).drawn())
    try:
        await interaction.edit_original_response(**payload.edit_kwargs())
    except discord.HTTPException as error:
        log.warning("table %s: could not show a replay step: %s", item.table, error)
    finally:
        payload.stop()


@on_click(ExportButton)
async def export_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: ExportButton) -> None:
    await send_export(app, interaction, item.table)


def valid(match: Match, position: Position) -> bool:
    return position is None or match.replay.valid(*position)


async def send_export(app: KlaverjasApp, interaction: discord.Interaction[Any], table_id: int) -> None:
    """The match's record as a private attachment (the command, or Export on the match-end message)."""
    match = await find_match(app, interaction, table_id)
    server = interaction.guild.name if interaction.guild is not None and interaction.guild.name else ""
    payload = await asyncio.to_thread(export_payload, match, user_lang(interaction), server)
    try:
        await interaction.response.send_message(**payload.send_kwargs(), ephemeral=True)
    except discord.HTTPException as error:
        log.warning("table %s: could not send the export: %s", table_id, error)


async def answer_later(interaction: discord.Interaction[Any], *, ephemeral: bool) -> bool:
    """Tell Discord the answer is coming (drawing takes a moment); False when the interaction expired."""
    try:
        if ephemeral:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()  # the clicked message itself is edited
    except discord.HTTPException as error:
        log.warning("could not answer in time: %s", error)
        return False
    return True
