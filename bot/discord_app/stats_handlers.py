"""Statistics: /stats and /leaderboard, and their buttons (Share, a leaderboard page, the match end's Stats).

The figures come from the store (``bot.stats``); what they look like is ``bot.discord_app.stats_messages``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.discord_app.clicks import on_click
from bot.discord_app.context import KlaverjasApp, reply, user_lang
from bot.discord_app.messages import Payload
from bot.discord_app.stats_messages import (
    BOARD_PER_PAGE,
    ai_name,
    board_message,
    no_stats_message,
    stats_message,
)
from bot.discord_app.views import BoardPageButton, MyStatsButton, ShareStatsButton
from bot.stats import ratings
from bot.stats.facts import ai_key, human_key, user_of
from bot.stats.figures import PlayerStats
from bot.stats.ratings import GLOBAL_SCOPE
from bot.store.backend import stored_time
from bot.texts.catalog import t

log = logging.getLogger(__name__)


async def send_stats(app: KlaverjasApp, interaction: discord.Interaction[Any], player: str, name: str) -> None:
    """/stats: privately, the figures as text and image, with a Share button (nothing to share: a short note)."""
    lang = user_lang(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    stats = await app.store.player_stats(player, interaction.guild_id)
    if not stats.played and not stats.hands and not stats.unfinished:
        await reply(interaction, no_stats_message(name, lang))
        return
    payload = await stats_payload(app, interaction, stats, name, share=True)
    await interaction.followup.send(**payload.send_kwargs(), ephemeral=True)
    payload.stop()


ACCURACY_RECENT = 5  # reviewed matches shown one by one on /stats: accuracy over time


async def with_reviews_and_tournaments(app: KlaverjasApp, stats: PlayerStats, guild_id: int | None) -> PlayerStats:
    """A person's figures from the reviews (accuracy match by match) and this server's tournaments."""
    user_id = user_of(stats.player)
    if user_id is None:
        return stats
    recent = tuple(point.accuracy for point in (await app.store.accuracy(user_id))[-ACCURACY_RECENT:])
    played, best = await app.tournaments.record_of(guild_id, user_id) if guild_id is not None else (0, None)
    return replace(stats, accuracy_recent=recent, tournaments=played, best_placing=best)


async def stats_payload(app: KlaverjasApp, interaction: discord.Interaction[Any], stats: PlayerStats, name: str, *,
                        share: bool) -> Payload:
    lang = user_lang(interaction)
    stats = await with_reviews_and_tournaments(app, stats, interaction.guild_id)
    partner = stats.partner.partner if stats.partner is not None else ""
    partner_id = user_of(partner)
    names = await app.store.names_of([partner_id] if partner_id is not None else [])
    defaults = await app.store.guild_defaults(interaction.guild_id) if interaction.guild_id is not None else None
    felt = defaults.felt if defaults is not None else "green"
    payload = stats_message(stats, name, names, lang, felt=felt, share=share)
    return await asyncio.to_thread(payload.drawn)  # drawing takes a while: not on the event loop


@on_click(MyStatsButton)
async def my_stats_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: MyStatsButton) -> None:
    """The match end's Stats: the presser's own figures, privately."""
    await send_stats(app, interaction, human_key(interaction.user.id), interaction.user.display_name)


@on_click(BoardPageButton)
async def board_page_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: BoardPageButton) -> None:
    """/leaderboard's previous or next page, in the same message."""
    lang = user_lang(interaction)
    assert interaction.guild_id is not None  # the item's place is a server's: refused in a DM before this
    scope = interaction.guild_id if item.scope == "s" else GLOBAL_SCOPE
    since = board_since(item.period)
    board = await app.store.leaderboard(scope, since, item.page, BOARD_PER_PAGE, ratings.MIN_MATCHES)
    payload = board_message(board, item.scope, item.period, ratings.MIN_MATCHES, lang)
    await interaction.response.edit_message(**payload.edit_kwargs())
    payload.stop()


@on_click(ShareStatsButton)
async def share_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: ShareStatsButton) -> None:
    """Share: the same figures, posted in the channel for everyone (in the sharer's language)."""
    lang = user_lang(interaction)
    player = human_key(item.user) if item.user is not None else ai_key(item.level or "normal")
    if item.user is not None and item.user == interaction.user.id:
        name = interaction.user.display_name
    elif item.user is not None:
        name = (await app.store.names_of([item.user])).get(item.user) or t("stats.someone", lang)
    else:
        name = ai_name(player, lang) or t("stats.someone", lang)
    stats = await app.store.player_stats(player, interaction.guild_id)
    payload = await stats_payload(app, interaction, stats, name, share=False)
    content = payload.content + "\n" + t("stats.shared", lang, mention=f"<@{interaction.user.id}>")
    try:
        await interaction.response.send_message(**replace(payload, content=content).send_kwargs(),
                                                allowed_mentions=discord.AllowedMentions.none())
    except discord.Forbidden:
        log.info("could not share statistics in channel %s", interaction.channel_id)
        await reply(interaction, t("stats.share_failed", lang))


BOARD_PERIODS = {"all": None, "month": 30, "week": 7}


def board_since(period: str) -> str | None:
    """The start of a leaderboard period as the store's timestamps write it; None for all time."""
    days = BOARD_PERIODS.get(period)
    if days is None:
        return None
    return stored_time((datetime.now(UTC) - timedelta(days=days)).replace(microsecond=0))
