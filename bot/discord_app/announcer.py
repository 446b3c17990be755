"""Tells Discord what happened at a table: posts and edits the lobby, the table message, trick and hand
messages, private hands (DM, or the "Show my hand" fallback), bidding prompts and reminders.

It runs as a service subscriber, so it is called in the order the actions happened and only after
they were stored. What each message says is ``bot.discord_app.messages``'; images render in worker
threads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord_app.messages import (
    DM_CLOSED,
    Payload,
    away_message,
    bid_prompt,
    event_message,
    hand_message,
    hand_result_message,
    lobby_message,
    match_message,
    reminder_message,
    seat_changed_text,
    show_hand_message,
    status_line,
    table_message,
    thread_name,
    timer_message,
    trick_message,
)
from bot.tables.events import (
    GameProgress,
    LobbyChanged,
    SeatAway,
    SeatChange,
    SeatChanged,
    ServiceEvent,
    TableRestored,
    TableStarted,
    TableStopped,
    TurnReminder,
)
from bot.tables.model import Delivery, SeatKind, Table, TableStatus
from bot.tables.service import TableService
from bot.texts.catalog import t
from engine.cards import SEATS, Seat
from engine.events import HandDealt, HandSettled, MatchOver, TrickWon, TrumpChosen
from engine.game import Phase

log = logging.getLogger(__name__)

class Announcer:
    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self.roem_messages: dict[int, tuple[int, int]] = {}  # table id -> (message id, version) with Roem!
        self.posting_lobbies: set[int] = set()  # tables whose lobby message is on its way

    # ------------------------------------------------------------ sending

    def thread(self, table: Table) -> discord.PartialMessageable:
        channel = table.thread_id or table.channel_id
        assert channel is not None
        return self.client.get_partial_messageable(channel, guild_id=table.guild_id)

    async def send(self, table: Table, channel: discord.PartialMessageable, payload: Payload) -> int | None:
        """Post ``payload`` pinging no one but its mention; the message id, or None when Discord refused."""
        mentions = (discord.AllowedMentions(users=[discord.Object(payload.mention)]) if payload.mention
                    else discord.AllowedMentions.none())
        try:
            message = await channel.send(**payload.send_kwargs(), allowed_mentions=mentions)
        except discord.HTTPException:
            log.exception("table %s: could not post in channel %s", table.id, channel.id)
            return None
        finally:
            payload.stop()
        return message.id

    async def post(self, table: Table, payload: Payload) -> int | None:
        """Post in the table's thread (or its channel when there is no thread)."""
        return await self.send(table, self.thread(table), payload)

    async def say(self, table: Table, text: str) -> None:
        await self.post(table, Payload(text))

    async def edit(self, table: Table, message_id: int, payload: Payload | None) -> bool:
        """Edit a message in the table's thread (None: take its buttons away); False when Discord refused."""
        message = self.thread(table).get_partial_message(message_id)
        kwargs = payload.edit_kwargs() if payload is not None else {"view": None}
        try:
            await message.edit(**kwargs)
            return True
        except discord.HTTPException:
            log.info("table %s: could not edit message %s", table.id, message_id)
            return False
        finally:
            if payload is not None:
                payload.stop()

    async def render(self, build: Callable[..., Payload], *args: Any) -> Payload:
        """A message whose image takes a while to draw, built in a worker thread."""
        return await asyncio.to_thread(build, *args)

    # ------------------------------------------------------------ events

    async def on_event(self, event: ServiceEvent) -> None:
        if isinstance(event, GameProgress):
            await self.on_progress(event)
        elif isinstance(event, LobbyChanged):
            await self.update_lobby(event.table)
        elif isinstance(event, TableStarted):
            await self.on_started(event.table)
        elif isinstance(event, TurnReminder):
            await self.post(event.table, reminder_message(event.table, event.user_id))
        elif isinstance(event, SeatAway):
            await self.post(event.table, away_message(event.table, event.user_id))
        elif isinstance(event, SeatChanged):
            await self.on_seat_changed(event)
        elif isinstance(event, TableStopped):
            await self.say(event.table, t("stopped", event.table.settings.language))
            await self.update_lobby(event.table)
        elif isinstance(event, TableRestored):
            await self.on_restored(event)

    async def post_lobby(self, table: Table) -> None:
        """A lobby message for a table made without a slash command (a rematch); once, however often asked."""
        if table.channel_id is None or table.lobby_message_id is not None or table.id in self.posting_lobbies:
            return
        self.posting_lobbies.add(table.id)
        try:
            channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            message_id = await self.send(table, channel, lobby_message(table))
            if message_id is None:
                return
            table.lobby_message_id = message_id
            await self.service.save_discord(table)
        finally:
            self.posting_lobbies.discard(table.id)

    async def update_lobby(self, table: Table) -> None:
        if table.lobby_message_id is None or table.channel_id is None:
            return
        message = self.client.get_partial_messageable(table.channel_id).get_partial_message(table.lobby_message_id)
        payload = lobby_message(table)
        try:
            await message.edit(**payload.edit_kwargs())
        except discord.HTTPException:
            log.warning("table %s: could not edit the lobby message", table.id)
        finally:
            payload.stop()

    async def on_started(self, table: Table) -> None:
        if table.channel_id is not None and table.lobby_message_id is not None:
            try:
                data = await self.client.http.start_thread_with_message(
                    table.channel_id, table.lobby_message_id, name=thread_name(table), auto_archive_duration=1440)
                table.thread_id = int(data["id"])
            except discord.HTTPException:
                # Threads not allowed here (or no permission): play in the channel itself.
                log.info("table %s: no thread, playing in the channel", table.id)
                table.thread_id = None
        await self.update_lobby(table)
        table.table_message_id = await self.post(table, Payload(status_line(table)))
        await self.service.save_discord(table)

    async def on_restored(self, event: TableRestored) -> None:
        table = event.table
        if table.status not in (TableStatus.PLAYING, TableStatus.FINISHED):
            return
        if table.table_message_id is None:
            await self.on_started(table)  # the bot died while announcing the start: again, from the thread on
        await self.say(table, t("restored", table.settings.language))
        if event.last is None:
            await self.prompt(table)
            return
        # The last action may have been announced in part: again, in full (at least once beats never), which
        # also brings the hands, the table message and the bidding prompt up to date.
        await self.on_progress(event.last)

    async def on_seat_changed(self, event: SeatChanged) -> None:
        table = event.table
        await self.say(table, seat_changed_text(event))
        if event.change in (SeatChange.LEFT, SeatChange.TOOK_OVER, SeatChange.WILL_TAKE_OVER):
            await self.update_table_message(table)  # names on the image; the take-over button
        hand = table.game.hand
        if event.change is not SeatChange.WILL_TAKE_OVER and hand is not None and table.game.phase is not Phase.DEAL:
            await self.send_hand(table, event.seat)
        if event.change in (SeatChange.BACK, SeatChange.TOOK_OVER):
            await self.prompt(table)

    async def on_progress(self, event: GameProgress) -> None:
        table = event.table
        touched: set[Seat] = set()
        refresh_table = False
        roem = self.roem_messages.get(table.id)
        if roem is not None and event.version > roem[1]:
            # The Roem! button lasts until the next card (or the claim): take it away.
            del self.roem_messages[table.id]
            await self.edit(table, roem[0], None)
        for engine_event in event.events:
            if isinstance(engine_event, HandDealt):
                touched.update(SEATS)
                refresh_table = True
                for info in table.seats:
                    # In-thread players need their cards for the bidding too, not only on their turn.
                    if info.kind is SeatKind.HUMAN and info.user_id is not None and info.delivery is Delivery.THREAD:
                        await self.post(table, show_hand_message(table, "dm.new_hand", info.user_id))
            elif isinstance(engine_event, TrickWon):
                await self.announce_trick(table, engine_event)
                refresh_table = True
            elif isinstance(engine_event, HandSettled):
                await self.post(table, await self.render(hand_result_message, table, engine_event))
            elif isinstance(engine_event, MatchOver):
                await self.post(table, await self.render(match_message, table, engine_event))
            else:
                said = event_message(table, engine_event)
                if said is not None:
                    await self.post(table, said)
                if isinstance(engine_event, TrumpChosen):
                    touched.update(SEATS)  # the hand's order changes with trump
                    refresh_table = True
        if event.seat is not None:
            touched.add(event.seat)
        timer = timer_message(table, event.seat, event.action, event.actor)
        if timer is not None:
            await self.post(table, timer)
        to_act = table.game.to_act
        if to_act is not None:
            touched.add(to_act)
            if table.seats[to_act].kind is SeatKind.HUMAN:
                refresh_table = True
        if refresh_table or table.game.finished:
            await self.update_table_message(table)
        for seat in SEATS:
            if seat in touched and table.seats[seat].kind is SeatKind.HUMAN:
                await self.send_hand(table, seat)
        await self.prompt(table)

    async def announce_trick(self, table: Table, event: TrickWon) -> None:
        payload = await self.render(trick_message, table, event)
        message_id = await self.post(table, payload)
        if payload.view is not None and message_id is not None:
            self.roem_messages[table.id] = (message_id, table.version)

    async def prompt(self, table: Table) -> None:
        """The bidding buttons for a human to call; a turn ping for in-thread players.

        The bidding prompt's message id and version are stored: an older prompt loses its buttons, and
        after a restart the prompt for the same moment is edited in place instead of posted again.
        """
        game = table.game
        seat = game.to_act
        info = table.seats[seat] if seat is not None else None
        wants_bid = (table.running and game.phase is Phase.BIDDING and info is not None
                     and info.kind is SeatKind.HUMAN and not info.away)
        if table.prompt_message_id is not None and not (wants_bid and table.prompt_version == table.version):
            old = table.prompt_message_id
            table.prompt_message_id = table.prompt_version = None
            await self.service.save_discord(table)
            await self.edit(table, old, None)
        if seat is None or info is None or not table.running or info.kind is not SeatKind.HUMAN or info.away:
            return
        if wants_bid:
            prompt = bid_prompt(table, info.user_id)
            if table.prompt_message_id is not None and await self.edit(table, table.prompt_message_id, prompt):
                return
            table.prompt_message_id = await self.post(table, bid_prompt(table, info.user_id))
            table.prompt_version = table.version if table.prompt_message_id is not None else None
            await self.service.save_discord(table)
        elif game.phase is Phase.PLAY and info.delivery is Delivery.THREAD:
            await self.post(table, show_hand_message(table, "dm.your_turn", info.user_id))

    async def update_table_message(self, table: Table) -> None:
        payload = await self.render(table_message, table)
        if table.table_message_id is not None:
            message = self.thread(table).get_partial_message(table.table_message_id)
            try:
                await message.edit(**payload.edit_kwargs())
                return
            except discord.NotFound:
                pass  # deleted: post a new one
            except discord.HTTPException:
                log.warning("table %s: could not edit the table message", table.id)
                return
            finally:
                payload.stop()
        table.table_message_id = await self.post(table, payload)
        await self.service.save_discord(table)

    # ------------------------------------------------------------ private hands

    async def send_hand(self, table: Table, seat: Seat) -> None:
        """Send or update the private hand by DM; on 50007 fall back to the Show my hand button."""
        info = table.seats[seat]
        if info.kind is not SeatKind.HUMAN or info.user_id is None or info.delivery is not Delivery.DM:
            return
        guild = self.client.get_guild(table.guild_id) if table.guild_id is not None else None
        payload = await self.render(hand_message, table, table.view(seat), guild.name if guild else "")
        try:
            if info.dm_channel_id is not None and info.hand_message_id is not None:
                message = self.client.get_partial_messageable(info.dm_channel_id).get_partial_message(
                    info.hand_message_id)
                try:
                    await message.edit(**payload.edit_kwargs())
                    return
                except discord.NotFound:
                    pass  # deleted: send a new one
            if info.dm_channel_id is None:
                dm = await self.client.create_dm(discord.Object(info.user_id))
                info.dm_channel_id = dm.id
            channel = self.client.get_partial_messageable(info.dm_channel_id)
            sent = await channel.send(**payload.send_kwargs())
            info.hand_message_id = sent.id
            await self.service.save_discord(table)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                log.warning("table %s: cannot DM seat %s: %s", table.id, seat, error)
            info.delivery = Delivery.THREAD
            await self.service.save_discord(table)
            await self.post(table, show_hand_message(table, "dm.closed", info.user_id))
        except discord.HTTPException:
            log.warning("table %s: could not send the hand of %s", table.id, seat)
        finally:
            payload.stop()
