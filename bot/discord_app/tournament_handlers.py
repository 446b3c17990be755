"""Tournaments on Discord: what /klaverjas tournament create, join, standings, close, config and winners do, the
pair's Confirm button, each entry's private place, and the announcements in the tournament's channel.

An entry plays in a private thread of the tournament's channel (channel type 12, not invitable; the bot adds the
participants), so nobody sees the deals of another. Where Discord refuses one (no Create Private Threads
permission: 50013; too many active threads: 160006; or any other refusal, or Discord down) a single player's
table plays in their direct messages with the bot instead; a pair needs the thread (one conversation for two).
When neither works the entry is refused with what to change, and nothing is kept.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any, Literal

import discord

from bot.discord_app.clicks import on_click
from bot.discord_app.context import KlaverjasApp, reply, user_lang
from bot.discord_app.handlers import preferred_delivery
from bot.discord_app.limits import fit, tame
from bot.discord_app.messages import Payload, thread_name
from bot.discord_app.outbox import Undelivered
from bot.discord_app.tournament_messages import (
    created_text,
    final_message,
    invite_message,
    standings_message,
    welcome_text,
    when,
)
from bot.discord_app.views import ConfirmPairButton
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import Delivery, Table
from bot.texts.catalog import t
from bot.tournaments.model import Entry, Tournament
from bot.tournaments.standings import Standings
from engine.cards import Seat

log = logging.getLogger(__name__)

PRIVATE_THREAD: Literal[12] = 12  # Discord's channel type of a private thread
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: a table played at one's own pace may rest without being archived


async def defer_private(interaction: discord.Interaction[Any]) -> bool:
    """Tell Discord a private answer is coming; False when the interaction expired (10062): the work still goes on
    (what it makes says so where it happens), only this answer is lost."""
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as error:
        log.warning("could not answer in time: %s", error)
        return False
    return True


async def answer(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """A private answer that may be lost (an expired interaction) without undoing what was done."""
    try:
        await reply(interaction, text, **kwargs)
    except discord.HTTPException as error:
        log.warning("could not answer: %s", error)


# ------------------------------------------------------------------ each entry's place


class Place:
    """Makes an entry's table its private thread (or, for one player, their DM channel) and greets them there;
    ``in_dm`` says which it became."""

    def __init__(self, app: KlaverjasApp, tournament: Tournament, entry: Entry) -> None:
        self.app = app
        self.tournament = tournament
        self.entry = entry
        self.in_dm = False

    async def __call__(self, table: Table) -> int:
        client = self.app.announcer.client
        outbox = self.app.announcer.outbox
        tournament, entry = self.tournament, self.entry
        welcome = welcome_text(tournament, entry)
        mentions = discord.AllowedMentions(users=[discord.Object(user) for user in entry.members])
        thread_id: int | None = None
        try:
            data = await outbox.attempt(lambda: client.http.start_thread_without_message(
                tournament.channel_id, name=thread_name(table), auto_archive_duration=ARCHIVE_MINUTES,
                type=PRIVATE_THREAD, invitable=False), f"table {table.id}: opening a private thread")
            thread_id = int(data["id"])
            for user_id in entry.members:
                await outbox.attempt(partial(client.http.add_user_to_thread, thread_id, user_id),
                                     f"table {table.id}: adding {user_id} to its thread")
            channel = client.get_partial_messageable(thread_id, guild_id=tournament.guild_id)
            await outbox.attempt(lambda: channel.send(**fit({"content": welcome}), allowed_mentions=mentions),
                                 f"table {table.id}: greeting in its thread")
            return thread_id
        except (discord.HTTPException, Undelivered) as error:
            log.info("tournament %s, table %s: no private thread (%s)", tournament.id, table.id, error)
            if thread_id is not None:
                await _drop_thread(self.app, thread_id)
        if entry.pair:
            raise ServiceError(ServiceErrorCode.NO_PLACE)
        try:
            dm = await outbox.attempt(lambda: client.create_dm(discord.Object(entry.user_id)),
                                      f"table {table.id}: opening a DM with {entry.user_id}")
            await outbox.attempt(lambda: dm.send(**fit({"content": welcome})), f"table {table.id}: greeting by DM")
        except (discord.HTTPException, Undelivered) as error:
            log.info("tournament %s, table %s: no DM either (%s)", tournament.id, table.id, error)
            raise ServiceError(ServiceErrorCode.NO_PLACE) from None
        self.in_dm = True
        table.seats[Seat.S].dm_channel_id = dm.id  # the hand's DMs go to the same conversation
        return dm.id


async def _drop_thread(app: KlaverjasApp, thread_id: int) -> None:
    """A thread we could not make usable (its player could not be added) is deleted again, best effort."""
    try:
        await app.announcer.client.http.delete_channel(thread_id)
    except discord.HTTPException as error:
        log.info("could not delete thread %s: %s", thread_id, error)


# ------------------------------------------------------------------ commands


async def join(app: KlaverjasApp, interaction: discord.Interaction[Any], tournament_id: int | None,
               partner: discord.abc.User | None) -> None:
    lang = user_lang(interaction)
    user = interaction.user
    tournament = await app.tournaments.choose(tournament_id, interaction.guild_id, open_only=True)
    if partner is not None:
        if partner.bot:
            raise ServiceError(ServiceErrorCode.PARTNER_SELF)
        tournament, entry = await app.tournaments.invite(tournament.id, interaction.guild_id, user.id,
                                                         user.display_name, partner.id, partner.display_name)
        await defer_private(interaction)
        await post_invite(app, tournament, entry)
        await answer(interaction, t("tournament.invited", lang, name=tame(partner.display_name, 60)))
        return
    await defer_private(interaction)
    place = Place(app, tournament, Entry(0, tournament.id, user.id, user.display_name, 0.0))
    _, table = await app.tournaments.join(tournament.id, interaction.guild_id, user.id, user.display_name,
                                          delivery=await preferred_delivery(app, interaction), open_place=place,
                                          language=lang)
    await answer(interaction, joined_text(tournament, table, place, lang))


def joined_text(tournament: Tournament, table: Table, place: Place, lang: str) -> str:
    name = tame(tournament.name, 80)
    if place.in_dm:
        return t("tournament.joined_dm", lang, name=name, closes=when(tournament.closes_at))
    return t("tournament.joined", lang, name=name, place=f"<#{table.thread_id}>", closes=when(tournament.closes_at))


async def post_invite(app: KlaverjasApp, tournament: Tournament, entry: Entry) -> None:
    """The pair's invitation in the tournament's channel; if Discord refuses it, the invitation is withdrawn."""
    payload = invite_message(tournament, entry)
    channel = app.announcer.client.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)
    mentions = discord.AllowedMentions(users=[discord.Object(entry.partner_id or 0)])
    try:
        await app.announcer.outbox.attempt(lambda: channel.send(**payload.send_kwargs(), allowed_mentions=mentions),
                                           f"tournament {tournament.id}: posting an invitation")
    except (discord.HTTPException, Undelivered) as error:
        await app.tournaments.store.delete_entry(entry.id)
        log.warning("tournament %s: could not post the invitation: %s", tournament.id, error)
        raise ServiceError(ServiceErrorCode.NO_PLACE) from None
    finally:
        payload.stop()


@on_click(ConfirmPairButton)
async def confirm_pair(app: KlaverjasApp, interaction: discord.Interaction[Any], item: ConfirmPairButton) -> None:
    """The partner's Confirm: the pair's table opens; anyone else is told the invitation is not theirs."""
    lang = user_lang(interaction)
    entry = await app.tournaments.store.entry(item.entry)
    if entry is None or entry.partner_id != interaction.user.id:
        raise ServiceError(ServiceErrorCode.NO_INVITE)
    tournament = await app.tournaments.get(entry.tournament_id, interaction.guild_id)
    await defer_private(interaction)
    place = Place(app, tournament, entry)
    entry, table = await app.tournaments.confirm(
        entry.id, interaction.user.id, interaction.guild_id, delivery=await preferred_delivery(app, interaction),
        partner_delivery=await app.store.user_delivery(entry.user_id) or Delivery.DM, open_place=place,
        language=lang)
    await answer(interaction, joined_text(tournament, table, place, lang))
    await _take_button_away(interaction)


async def _take_button_away(interaction: discord.Interaction[Any]) -> None:
    message = interaction.message
    if message is None:
        return
    try:
        await message.edit(view=None)
    except discord.HTTPException as error:
        log.info("the invitation keeps its button: %s", error)


async def send_standings(app: KlaverjasApp, interaction: discord.Interaction[Any], tournament_id: int | None) -> None:
    """Privately: the standings as text and image, the caller's hands against the field."""
    tournament = await app.tournaments.choose(tournament_id, interaction.guild_id)
    if not await defer_private(interaction):
        return
    final = await app.tournaments.standings(tournament)
    row = final.row_of(interaction.user.id)
    lost = await app.tournaments.points_lost(row.entry) if row is not None else None
    payload = await asyncio.to_thread(
        lambda: standings_message(tournament, final, user_lang(interaction), interaction.user.id, lost).drawn())
    try:
        await interaction.followup.send(**payload.send_kwargs(), ephemeral=True)
    except discord.HTTPException as error:
        log.warning("tournament %s: could not send the standings: %s", tournament.id, error)


# ------------------------------------------------------------------ the channel hears


async def announce_final(app: KlaverjasApp, tournament: Tournament, final: Standings) -> bool:
    """The winner and the final standings image in the tournament's channel; False when Discord did not take it
    (the scheduler tries again)."""
    payload = await asyncio.to_thread(lambda: final_message(tournament, final).drawn())
    return await _post(app, tournament, payload)


async def announce_opened(app: KlaverjasApp, tournament: Tournament) -> None:
    await _post(app, tournament, Payload(created_text(tournament)))


async def _post(app: KlaverjasApp, tournament: Tournament, payload: Payload) -> bool:
    channel = app.announcer.client.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)
    try:
        await app.announcer.outbox.attempt(lambda: channel.send(**payload.send_kwargs()),
                                           f"tournament {tournament.id}: posting in its channel")
    except (discord.HTTPException, Undelivered) as error:
        log.warning("tournament %s: could not post in its channel: %s", tournament.id, error)
        return False
    return True
