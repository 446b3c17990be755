"""What a click or command at a table does: find the table, call the service, answer the clicker.

Here are the lobby's, the game's and forget-me's buttons' behaviours (``@on_click``, see
``bot.discord_app.clicks``) and the helpers the cogs call. Refusals are raised and answered in one place
(``bot.discord_app.failures``). The game's rules are the engine's and the service's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import discord

from bot import access
from bot.discord_app.announcer import Announcer, ClickAnswer
from bot.discord_app.clicks import on_click
from bot.discord_app.context import KlaverjasApp, at_home, reply, user_lang
from bot.discord_app.limits import fit
from bot.discord_app.messages import DM_CLOSED, Payload, hand_draft, hand_message
from bot.discord_app.views import (
    BackButton,
    BidButton,
    CardButton,
    DeclineButton,
    ForgetMeButton,
    LobbyButton,
    LobbyOp,
    PlayHereButton,
    RematchButton,
    RoemButton,
    SeatSelect,
    ShowHandButton,
    TakeSeatButton,
    view_of,
)
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import Delivery, Table, TableStatus
from bot.texts.catalog import seat_name, t
from bot.web.links import activity_here, seat_link
from engine.actions import Call
from engine.cards import Card, Seat

log = logging.getLogger(__name__)

ANSWER_DEADLINE = 2.0  # seconds: Discord wants an answer within 3


def user_table(app: KlaverjasApp, interaction: discord.Interaction[Any]) -> Table:
    """For a command: the live table where the user sits, among the tables of the server it was typed in."""
    return app.service.find_user_table(interaction.user.id, interaction.channel_id,
                                       where=partial(at_home, interaction))


def table_here(app: KlaverjasApp, interaction: discord.Interaction[Any]) -> Table:
    """For a command anyone may use: the table of this thread, else the user's, of this server only."""
    return app.service.table_here(interaction.user.id, interaction.channel_id, where=partial(at_home, interaction))


# ------------------------------------------------------------------ lobby


async def edit_lobby(app: KlaverjasApp, interaction: discord.Interaction[Any], table: Table, answer: str) -> None:
    """The clicked lobby message shows the seats as they are now; the clicker gets ``answer`` privately."""
    payload = app.announcer.lobby_message(table)
    await interaction.response.edit_message(**payload.edit_kwargs())
    payload.stop()
    await reply(interaction, answer)


async def adopt_lobby(app: KlaverjasApp, interaction: discord.Interaction[Any], table: Table) -> None:
    """A click on a lobby whose message id the table lacks (the bot died between posting it and storing its id):
    the clicked message is the lobby, so the start can open its thread and say the game is on."""
    if interaction.message is not None:
        await app.service.keep_lobby_message(table, interaction.message.id)


@on_click(LobbyButton)
async def lobby_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: LobbyButton) -> None:
    service = app.service
    user = interaction.user
    table_id, op = item.table, item.op
    table = service.get(table_id)
    if op is LobbyOp.START:
        # Starting stores the lobby's message id (when the click came first), opens a thread and renders: answer
        # first (within Discord's 3 seconds); what it did shows in the lobby's edit (through this click) and the
        # thread.
        await interaction.response.defer()
        await adopt_lobby(app, interaction, table)
        if interaction.message is not None and interaction.message.id == table.lobby_message_id:
            app.announcer.remember_click(table, interaction.message.id, interaction)
        await service.start(table_id, user.id)
        return
    await adopt_lobby(app, interaction, table)
    lang = user_lang(interaction)
    if op is LobbyOp.JOIN:
        text = await sit_down(app, interaction, table_id, None)
    elif op is LobbyOp.LEAVE:
        await service.leave(table_id, user.id)
        text = t("left", lang)
    else:
        seat = await service.add_ai(table_id, user.id)
        text = t("ai_added", lang, seat=seat_name(seat, lang))
    await edit_lobby(app, interaction, table, text)


@on_click(SeatSelect)
async def seat_choice(app: KlaverjasApp, interaction: discord.Interaction[Any], item: SeatSelect) -> None:
    """The lobby's seat menu: sit in the chosen seat (or, in a running game, take over that AI seat)."""
    table_id, seat = item.table, item.seat
    table = app.service.get(table_id)
    await adopt_lobby(app, interaction, table)
    if seat is None:
        raise ServiceError(ServiceErrorCode.BAD_SEAT, {"text": "?"})
    if table.status is not TableStatus.LOBBY:
        await take_seat(app, interaction, table_id, seat)
        return
    await edit_lobby(app, interaction, table, await sit_down(app, interaction, table_id, seat))


async def sit_down(app: KlaverjasApp, interaction: discord.Interaction[Any], table_id: int, seat: Seat | None) -> str:
    """Seat the clicker at a lobby (the chosen seat or the first free one); the private answer to give."""
    user = interaction.user
    lang = user_lang(interaction)
    placed = await app.service.join(table_id, user.id, user.display_name, seat,
                                    delivery=await preferred_delivery(app, interaction), language=lang)
    notice = await dm_notice(app, interaction, table_id)
    return (t("joined", lang, seat=seat_name(placed, lang)) + "\n" + notice).strip()


async def preferred_delivery(app: KlaverjasApp, interaction: discord.Interaction[Any]) -> Delivery:
    """Where this user wants their private hand (``/klaverjas hand delivery:``); DM unless they chose."""
    return await app.store.user_delivery(interaction.user.id) or Delivery.DM


async def dm_notice(app: KlaverjasApp, interaction: discord.Interaction[Any], table_id: int) -> str:
    """Probe a new player's DMs while we can still answer them privately; the notice for a closed inbox.

    A closed inbox (50007) found now moves the hand into the thread and is said in the player's own
    ephemeral answer, instead of in a public message when the cards are dealt.
    """
    table = app.service.get(table_id)
    seat = table.seat_of(interaction.user.id)
    if seat is None or table.seats[seat].delivery is not Delivery.DM:
        return ""
    lang = user_lang(interaction)
    where = f" in {interaction.guild.name}" if interaction.guild is not None and interaction.guild.name else ""
    try:
        dm = await interaction.user.create_dm()
        await dm.send(**fit({"content": t("dm.welcome", lang, table=table.id, where=where)}))
        await app.service.keep_discord(table, partial(setattr, table.seats[seat], "dm_channel_id", dm.id))
    except discord.Forbidden as error:
        if error.code != DM_CLOSED:
            log.warning("table %s: cannot DM user %s: %s", table.id, interaction.user.id, error)
            return ""
        await app.service.set_delivery(table_id, interaction.user.id, Delivery.THREAD)
        return t("dm.closed_private", lang)
    except discord.HTTPException:
        log.warning("table %s: could not DM user %s", table.id, interaction.user.id)
    return ""


async def take_seat(app: KlaverjasApp, interaction: discord.Interaction[Any], table_id: int,
                    seat: Seat | None) -> None:
    """Someone not at the table takes over an AI seat: now between hands, else from the next hand."""
    lang = user_lang(interaction)
    user = interaction.user
    taken, now = await app.service.take_over(table_id, user.id, user.display_name, seat,
                                             delivery=await preferred_delivery(app, interaction), language=lang)
    key = "took_seat" if now else "reserved_seat"
    await reply(interaction, t(key, lang, seat=seat_name(taken, lang)))


@on_click(TakeSeatButton)
async def take_seat_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: TakeSeatButton) -> None:
    await take_seat(app, interaction, item.table, None)


@on_click(RematchButton)
async def rematch_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: RematchButton) -> None:
    """Rematch: a new lobby with the same seats and settings, in the same channel; the clicker hosts."""
    lang = user_lang(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    table = await app.service.rematch(item.table, interaction.user.id, interaction.user.display_name,
                                      app.announcer.post_lobby, language=lang)
    await reply(interaction, t("rematch.opened", lang, table=table.id, place=f"<#{table.channel_id}>"))


# ------------------------------------------------------------------ game actions and private hands


class StoredAnswer:
    """The answer to a game click, sent once its action is stored: a click Discord shows as answered is never
    lost to a crash. A table busy for longer than Discord's 3 seconds allow gets a silent answer earlier.

    ``update`` (called once the action is applied, the table locked) may give the clicked message as the
    action left it: its image is drawn while the action is stored, and the answer is that update (one
    request instead of an answer and an edit).
    """

    def __init__(self, interaction: discord.Interaction[Any],
                 update: Callable[[], ClickAnswer | None] | None = None) -> None:
        self.interaction = interaction
        self.update = update
        self._answer: ClickAnswer | None = None
        self._drawing: asyncio.Future[Payload] | None = None
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    async def __aenter__(self) -> StoredAnswer:
        self._timer = asyncio.get_running_loop().call_later(ANSWER_DEADLINE, self.send)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._drawing is not None:
            self._drawing.add_done_callback(_ignore)  # not awaited when the update was not sent
        if self._task is not None:
            await self._task  # a refusal or a followup comes after it

    def applied(self) -> None:
        """The action is applied, not yet stored: prepare the clicked message's update and start drawing it."""
        if self._task is not None or self.update is None:
            return
        try:
            self._answer = self.update()
        except Exception:  # only a preparation: the click is answered all the same
            log.exception("could not prepare a click's answer")
            return
        if self._answer is not None and self._answer.payload is not None:
            self._drawing = asyncio.ensure_future(Announcer.answer_drawn(self._answer.payload))

    def stored(self) -> None:
        """The service committed the action: answer now, with the clicked message's update when there is one."""
        if self._task is None:
            answer = self._answer
            if answer is not None:
                answer.stored()
            work = self._defer() if answer is None else self._update(answer)
            self._task = asyncio.get_running_loop().create_task(work)

    def send(self) -> None:
        """Answer now without an update, unless that was done (the deadline)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._defer())

    async def _defer(self) -> None:
        try:
            await self.interaction.response.defer()
        except discord.HTTPException:
            log.warning("could not answer a click in time")

    async def _update(self, answer: ClickAnswer) -> None:
        payload = answer.payload
        try:
            if payload is None or self._drawing is None:
                await self.interaction.response.edit_message(view=None)
            else:
                ready = await self._drawing
                await self.interaction.response.edit_message(**ready.edit_kwargs())
        except Exception as error:  # not answered: the announcer updates the message its own way
            log.warning("could not answer a click with its message's update: %s", error)
            answer.failed()
        finally:
            answer.finished()
            if payload is not None:
                payload.stop()


def _ignore(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # retrieved, so asyncio does not report it


@on_click(BidButton)
async def bid_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: BidButton) -> None:
    await action_click(app, interaction, item.table, item.version, item.call)


@on_click(CardButton)
async def card_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: CardButton) -> None:
    await action_click(app, interaction, item.table, item.version, item.card)


@on_click(RoemButton)
async def roem_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: RoemButton) -> None:
    async with StoredAnswer(interaction) as answer:
        await app.service.claim(item.table, interaction.user.id, item.version, on_stored=answer.stored)


@on_click(DeclineButton)
async def decline_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: DeclineButton) -> None:
    async with StoredAnswer(interaction) as answer:
        await app.service.decline(item.table, interaction.user.id, item.version, on_stored=answer.stored)


@on_click(BackButton)
async def back_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: BackButton) -> None:
    await interaction.response.defer()
    await app.service.back(item.table, interaction.user.id)


async def action_click(app: KlaverjasApp, interaction: discord.Interaction[Any], table_id: int, version: int,
                       action: Card | Call) -> None:
    """A bid or a card. The game's answer arrives as message edits and posts; the click itself is answered
    once stored, with the clicked hand or prompt as the action left it."""
    # At a table another process announces (bot.tables.shared), its edits of the clicked message cannot wait for
    # this answer: the answer leaves the message alone, and that process's edit shows the action.
    update = partial(clicked_message_update, app, interaction, table_id) if app.service.owns(table_id) else None
    async with StoredAnswer(interaction, update) as answer:
        await app.service.act(table_id, interaction.user.id, action, version, on_stored=answer.stored,
                              on_applied=answer.applied)


def clicked_message_update(app: KlaverjasApp, interaction: discord.Interaction[Any],
                           table_id: int) -> ClickAnswer | None:
    """The update of the clicked message after an action (applied, being stored): a private hand (DM or
    ephemeral) shows the hand as it is now, the thread's bidding prompt loses its buttons; None for anything
    else."""
    message = interaction.message
    table = app.service.tables.get(table_id)
    seen = access.private_view(table, interaction.user.id) if table is not None else None
    if message is None or table is None or seen is None:
        return None
    seat, view = seen
    if message.flags.ephemeral:
        link = seat_link(app.web, table.id, interaction.user.id) if app.web is not None else None
        return ClickAnswer(hand_draft(table, view, lang=user_lang(interaction), link=link))
    if interaction.guild_id is None:
        return app.announcer.answer_hand(table, seat, message.id, interaction)
    return app.announcer.answer_prompt(table, message.id)


async def send_hand_ephemeral(app: KlaverjasApp, interaction: discord.Interaction[Any], table_id: int,
                              note: str = "") -> None:
    """The clicker's hand as a private answer, with its card buttons."""
    table, _, view = app.service.view_for(table_id, interaction.user.id)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    link = seat_link(app.web, table.id, interaction.user.id) if app.web is not None else None
    payload = await asyncio.to_thread(hand_message, table, view, "", user_lang(interaction), link)
    if note:
        payload = replace(payload, content=f"{note}\n{payload.content}")
    await interaction.followup.send(**payload.send_kwargs(), ephemeral=True)
    payload.stop()


# ------------------------------------------------------------------ the Activity


@on_click(PlayHereButton)
async def play_here_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: PlayHereButton) -> None:
    """Launch the Activity here; it logs the person in and opens this channel's table (their seat, or watching)."""
    table = app.service.get(item.table)
    if not activity_here(app.web, table, interaction.channel_id):
        await reply(interaction, t("web.no_activity_here", user_lang(interaction)))
        return
    await interaction.response.launch_activity()


@on_click(ShowHandButton)
async def show_hand_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: ShowHandButton) -> None:
    await send_hand_ephemeral(app, interaction, item.table)


# ------------------------------------------------------------------ forget-me


async def ask_forget(interaction: discord.Interaction[Any]) -> None:
    """``/klaverjas forget-me``: privately, what will go and a button to go ahead (nothing happens without it)."""
    lang = user_lang(interaction)
    view = view_of([ForgetMeButton(interaction.user.id, lang)])
    await reply(interaction, t("forget.confirm", lang), view=view)
    view.stop()  # the DynamicItem takes the press, after a restart too: the view need not stay in memory


@on_click(ForgetMeButton)
async def forget_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: ForgetMeButton) -> None:
    lang = user_lang(interaction)
    user_id = item.user
    if interaction.user.id != user_id:
        await reply(interaction, t("forget.not_yours", lang))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await app.service.forget(user_id)
    await reply(interaction, t("forget.done", lang))
