"""What a click or command does: find the table, call the service, answer privately on refusal.

Shared by the buttons (``bot.discord_app.views``) and the cogs; the game's rules are the engine's and the service's.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.discord_app.announcer import DM_CLOSED, hand_payload, lobby_text, lobby_view, names_of
from bot.discord_app.translator import lang_of
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.service import Table, TableStatus
from bot.texts.catalog import error_text, illegal_text, seat_name, t
from engine.actions import Call
from engine.cards import Card, Seat
from engine.errors import IllegalActionError

if TYPE_CHECKING:
    from bot.discord_app.client import KlaverjasBot

log = logging.getLogger(__name__)


def bot_of(interaction: discord.Interaction[Any]) -> KlaverjasBot:
    return cast("KlaverjasBot", interaction.client)


def user_lang(interaction: discord.Interaction[Any]) -> str:
    return lang_of(interaction.locale)


async def reply(interaction: discord.Interaction[Any], content: str, **kwargs: Any) -> None:
    """A private answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


def refusal(error: Exception, lang: str, table: Table | None = None) -> str:
    if isinstance(error, ServiceError):
        params = dict(error.params)
        if error.code == "not_host" and table is not None:
            params.setdefault("host", f"<@{table.host_id}>")
        if "seat" in params and hasattr(params["seat"], "letter"):
            params["seat"] = params["seat"].letter
        return error_text(error.code, params, lang)
    if isinstance(error, IllegalActionError):
        extra: dict[str, str] = {}
        if error.code == "not_your_turn" and table is not None and "seat" in error.params:
            from engine.cards import Seat

            extra["name"] = names_of(table)[Seat.parse(error.params["seat"])]
        return illegal_text(error, lang, **extra)
    return t("error.unknown", lang)


async def guarded(interaction: discord.Interaction[Any], table_id: int | None,
                  work: Callable[[], Awaitable[None]]) -> None:
    """Run ``work``; a refusal becomes a private message in the clicker's language, nothing else changes."""
    lang = user_lang(interaction)
    try:
        await work()
    except (ServiceError, IllegalActionError) as error:
        table = bot_of(interaction).service.tables.get(table_id) if table_id is not None else None
        await reply(interaction, refusal(error, lang, table))
    except discord.HTTPException:
        log.exception("Discord refused an answer")
    except Exception:
        log.exception("handling an interaction failed")
        await reply(interaction, t("error.unknown", lang))


# ------------------------------------------------------------------ lobby


async def lobby_click(interaction: discord.Interaction[Any], table_id: int, op: str) -> None:
    bot = bot_of(interaction)
    service = bot.service
    user = interaction.user

    async def work() -> None:
        table = service.get(table_id)
        lang = user_lang(interaction)
        if op == "join":
            text = await sit_down(interaction, table_id, None)
        elif op == "leave":
            await service.leave(table_id, user.id)
            text = t("left", lang)
        elif op == "ai":
            seat = await service.add_ai(table_id, user.id)
            text = t("ai_added", lang, seat=seat_name(seat, lang))
        elif op == "start":
            # Starting opens a thread and renders: answer first (within Discord's 3 seconds).
            await interaction.response.defer()
            await service.start(table_id, user.id)
            return
        else:
            return
        view = lobby_view(table)
        await interaction.response.edit_message(content=lobby_text(table), view=view)
        view.stop()
        await interaction.followup.send(text, ephemeral=True)

    await guarded(interaction, table_id, work)


# ------------------------------------------------------------------ game actions


async def action_click(interaction: discord.Interaction[Any], table_id: int, version: int,
                       action: Card | Call) -> None:
    bot = bot_of(interaction)

    async def work() -> None:
        # Acknowledge at once; the game's answer arrives as message edits and posts.
        await interaction.response.defer()
        await bot.service.act(table_id, interaction.user.id, action, version)
        await refresh_ephemeral_hand(interaction, table_id)

    await guarded(interaction, table_id, work)


async def refresh_ephemeral_hand(interaction: discord.Interaction[Any], table_id: int) -> None:
    """A click on an ephemeral hand: show the hand as it is now in the same message."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return
    bot = bot_of(interaction)
    table, _, view = bot.service.view_for(table_id, interaction.user.id)
    text, buttons, image = await asyncio.to_thread(hand_payload, table, view)
    await interaction.edit_original_response(content=text, view=buttons,
                                             attachments=[discord.File(io.BytesIO(image), filename="hand.png")])
    buttons.stop()


async def roem_click(interaction: discord.Interaction[Any], table_id: int, version: int) -> None:
    bot = bot_of(interaction)

    async def work() -> None:
        await interaction.response.defer()
        await bot.service.claim(table_id, interaction.user.id, version)

    await guarded(interaction, table_id, work)


async def back_click(interaction: discord.Interaction[Any], table_id: int) -> None:
    bot = bot_of(interaction)

    async def work() -> None:
        await interaction.response.defer()
        await bot.service.back(table_id, interaction.user.id)

    await guarded(interaction, table_id, work)


async def show_hand_click(interaction: discord.Interaction[Any], table_id: int) -> None:
    await guarded(interaction, table_id, lambda: send_hand_ephemeral(interaction, table_id))


async def send_hand_ephemeral(interaction: discord.Interaction[Any], table_id: int, note: str = "") -> None:
    bot = bot_of(interaction)
    table, _, view = bot.service.view_for(table_id, interaction.user.id)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    text, buttons, image = await asyncio.to_thread(hand_payload, table, view)
    text = f"{note}\n{text}" if note else text
    await interaction.followup.send(text, view=buttons, file=discord.File(io.BytesIO(image), filename="hand.png"),
                                    ephemeral=True)
    buttons.stop()


async def dm_notice(interaction: discord.Interaction[Any], table_id: int) -> str:
    """Probe a new player's DMs while we can still answer them privately; the notice for a closed inbox.

    A closed inbox (50007) found now moves the hand into the thread and is said in the player's own
    ephemeral answer, instead of in a public message when the cards are dealt.
    """
    bot = bot_of(interaction)
    table = bot.service.get(table_id)
    seat = table.seat_of(interaction.user.id)
    if seat is None or table.seats[seat].delivery != "dm":
        return ""
    lang = user_lang(interaction)
    where = f" in {interaction.guild.name}" if interaction.guild is not None and interaction.guild.name else ""
    try:
        dm = await interaction.user.create_dm()
        await dm.send(t("dm.welcome", lang, table=table.id, where=where))
        table.seats[seat].dm_channel_id = dm.id
        await bot.service.save_discord(table)
    except discord.Forbidden as error:
        if error.code != DM_CLOSED:
            log.warning("table %s: cannot DM user %s: %s", table.id, interaction.user.id, error)
            return ""
        await bot.service.set_delivery(table_id, interaction.user.id, "thread")
        return t("dm.closed_private", lang)
    except discord.HTTPException:
        log.warning("table %s: could not DM user %s", table.id, interaction.user.id)
    return ""


async def sit_down(interaction: discord.Interaction[Any], table_id: int, seat: Seat | None) -> str:
    """Seat the clicker at a lobby (the chosen seat or the first free one); the private answer to give."""
    user = interaction.user
    lang = user_lang(interaction)
    placed = await bot_of(interaction).service.join(table_id, user.id, user.display_name, seat,
                                                    delivery=await preferred_delivery(interaction))
    notice = await dm_notice(interaction, table_id)
    return (t("joined", lang, seat=seat_name(placed, lang)) + "\n" + notice).strip()


async def preferred_delivery(interaction: discord.Interaction[Any]) -> str:
    """Where this user wants their private hand (``/klaverjas hand delivery:``); DM unless they chose."""
    return await bot_of(interaction).store.user_delivery(interaction.user.id) or "dm"


async def seat_choice(interaction: discord.Interaction[Any], table_id: int, seat: Seat | None) -> None:
    """The lobby's seat menu: sit in the chosen seat (or, in a running game, take over that AI seat)."""
    service = bot_of(interaction).service

    async def work() -> None:
        table = service.get(table_id)
        if seat is None:
            raise ServiceError(ServiceErrorCode.BAD_SEAT, {"text": "?"})
        if table.status is not TableStatus.LOBBY:
            await take_seat_now(interaction, table_id, seat)
            return
        text = await sit_down(interaction, table_id, seat)
        view = lobby_view(table)
        await interaction.response.edit_message(content=lobby_text(table), view=view)
        view.stop()
        await interaction.followup.send(text, ephemeral=True)

    await guarded(interaction, table_id, work)


async def take_seat(interaction: discord.Interaction[Any], table_id: int, seat: Seat | None) -> None:
    await guarded(interaction, table_id, lambda: take_seat_now(interaction, table_id, seat))


async def take_seat_now(interaction: discord.Interaction[Any], table_id: int, seat: Seat | None) -> None:
    """Someone not at the table takes over an AI seat: now between hands, else from the next hand."""
    bot = bot_of(interaction)
    lang = user_lang(interaction)
    user = interaction.user
    taken, now = await bot.service.take_over(table_id, user.id, user.display_name, seat,
                                             delivery=await preferred_delivery(interaction))
    key = "took_seat" if now else "reserved_seat"
    await reply(interaction, t(key, lang, seat=seat_name(taken, lang)))


async def rematch_click(interaction: discord.Interaction[Any], table_id: int) -> None:
    """Rematch: a new lobby with the same seats and settings, in the same channel; the clicker hosts."""
    bot = bot_of(interaction)
    lang = user_lang(interaction)

    async def work() -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await bot.service.rematch(table_id, interaction.user.id, interaction.user.display_name)
        await bot.announcer.post_lobby(table)
        await reply(interaction, t("rematch.opened", lang, table=table.id, place=f"<#{table.channel_id}>"))

    await guarded(interaction, table_id, work)
