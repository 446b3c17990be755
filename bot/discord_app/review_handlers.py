"""A finished match's review (bot.tables.reviews), privately, as text and a chart: for /klaverjas review and the
match end's Review button.

Who may see it: anyone in the server where the match was played, the players and onlookers alike (a
match at a server's table is that server's, as its thread is); a match of another server, or a number
that is no finished match, is refused with the same private answer, so nothing is told about it.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import discord

from bot.discord_app.clicks import on_click
from bot.discord_app.context import KlaverjasApp, reply, user_lang
from bot.discord_app.messages import review_message
from bot.discord_app.replay_handlers import parse_match, web_replay
from bot.discord_app.views import ReviewButton, browser_button
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import ReviewStatus, Table, TableStatus
from bot.texts.catalog import t
from bot.texts.language import Language


async def finished_match(app: KlaverjasApp, interaction: discord.Interaction[Any], typed: str) -> Table:
    """The finished match of this server that ``typed`` names. Refused (privately, by the error path) as a replay
    is (junk, unknown, another server's, still playing, a tournament's before it closes), and when it was stopped:
    only matches played to their end are reviewed."""
    match = await app.archive.match(parse_match(typed), interaction.guild_id, interaction.user.id)
    if match.table.status is not TableStatus.FINISHED:
        raise ServiceError(ServiceErrorCode.MATCH_STOPPED, {"table": match.id})
    return match.table


def browser_view(app: KlaverjasApp, table: Table, person: int, lang: Language) -> discord.ui.View | None:
    """The match and its review on the web table (an "Open in browser" button), when it is set up: the page shows
    the review once it is ready."""
    link = web_replay(app, table.id, person)
    if link is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(browser_button(link, lang))
    return view


async def send_review(app: KlaverjasApp, interaction: discord.Interaction[Any], typed: str) -> None:
    """The review privately; while it is being computed, how far it is (and it is asked for if it was not)."""
    lang = user_lang(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    table = await finished_match(app, interaction, typed)
    view = browser_view(app, table, interaction.user.id, lang)
    extra = {"view": view} if view is not None else {}
    stored = await app.store.review(table.id)
    if stored is None:
        reviews = app.service.reviews
        reviews.request(table.id)  # a no-op when it is queued already
        done, hands = reviews.progress(table.id) or (0, 0)
        key = "review.pending" if hands else "review.queued"
        await reply(interaction, t(key, lang, table=table.id, done=done, hands=hands), **extra)
        return
    if stored.status is ReviewStatus.FAILED:
        await reply(interaction, t("review.failed", lang, table=table.id), **extra)
        return
    payload = await asyncio.to_thread(review_message, table, stored, interaction.user.id, lang)
    if view is not None:
        payload = replace(payload, view=view)
    await interaction.followup.send(**payload.send_kwargs(), ephemeral=True)


@on_click(ReviewButton)
async def review_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: ReviewButton) -> None:
    await send_review(app, interaction, str(item.table))
