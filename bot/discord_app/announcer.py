"""Turns service events into Discord messages: the lobby, the table message, trick and hand messages,
private hands (DM, or the "Show my hand" fallback), bidding prompts, reminders.

It runs as a service subscriber, so it is called in the order the actions happened and only after
they were stored. Images are rendered in worker threads.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_app.views import (
    BackButton,
    BidButton,
    CardButton,
    LobbyButton,
    RematchButton,
    RoemButton,
    SeatSelect,
    ShowHandButton,
    TakeSeatButton,
    rows_of,
    view_of,
)
from bot.tables.service import (
    GameProgress,
    LobbyChanged,
    SeatAway,
    SeatChanged,
    SeatKind,
    ServiceEvent,
    Table,
    TableRestored,
    TableStarted,
    TableStatus,
    TableStopped,
    TurnReminder,
)
from bot.texts.catalog import action_text, roem_text, seat_name, settings_line, suit_name, t, team_word
from engine.actions import Call
from engine.cards import SEATS, Card, Seat
from engine.events import BidMade, HandDealt, HandSettled, MatchOver, RoemClaimed, StukScored, SuitTurned, TrickWon
from engine.events import TrumpChosen as TrumpChosenEvent
from engine.game import Phase
from engine.view import SeatView

if TYPE_CHECKING:
    from bot.discord_app.client import KlaverjasBot

log = logging.getLogger(__name__)

DM_CLOSED = 50007


def names_of(table: Table) -> dict[Seat, str]:
    lang = table.settings.language
    return {seat: (info.name if info.kind is SeatKind.HUMAN else t("ai.name", lang, seat=seat_name(seat, lang)))
            for seat, info in zip(SEATS, table.seats, strict=True)}


def theme_of(table: Table, *, public: bool = False) -> Any:
    """The table's look; ``public`` images (thread) label the teams NS and EW, private ones Wij and Zij."""
    from bot.texts.labels import table_theme

    s = table.settings
    return table_theme(s.felt, s.four_colour, s.language, neutral_teams=public)


def lobby_text(table: Table) -> str:
    lang = table.settings.language
    names = names_of(table)
    rules = table.rules
    lines = [t("lobby.title", lang, table=table.id, host=names[Seat.S] if table.seats[Seat.S].user_id == table.host_id
               else next((i.name for i in table.seats if i.user_id == table.host_id), "?")),
             settings_line(rules, lang, table.settings.ai_level)]
    for seat in SEATS:
        info = table.seats[seat]
        who = names[seat] if info.kind is not SeatKind.EMPTY else t("lobby.empty", lang)
        star = f"  {t('lobby.host', lang)}" if info.user_id == table.host_id else ""
        lines.append(f"`{seat_name(seat, lang):<6}` {who}{star}")
    lines.append(t("lobby.teams", lang))
    return "\n".join(lines)


def seat_options(table: Table) -> list[discord.SelectOption]:
    lang = table.settings.language
    names = names_of(table)
    options = []
    for seat in SEATS:
        info = table.seats[seat]
        if info.kind is SeatKind.EMPTY:
            state = t("seat.option_free", lang)
        elif info.kind is SeatKind.AI:
            state = t("seat.option_ai", lang)
        else:
            state = t("seat.option_human", lang, name=names[seat])
        options.append(discord.SelectOption(label=t("seat.option", lang, seat=seat_name(seat, lang)),
                                            value=seat.letter, description=state[:100]))
    return options


def lobby_view(table: Table) -> discord.ui.View:
    """Join, Leave, Add AI, Start, and below them the seat menu (Join alone takes the first free seat)."""
    lang = table.settings.language
    return rows_of([LobbyButton(table.id, op, lang) for op in ("join", "leave", "ai", "start")],
                   [SeatSelect(table.id, seat_options(table), lang)])


def table_view(table: Table) -> discord.ui.View | None:
    """The table message's button: someone not at the table can take over an AI seat (between hands)."""
    if not table.running:
        return None
    if not any(info.kind is SeatKind.AI and info.pending_user_id is None for info in table.seats):
        return None
    return view_of([TakeSeatButton(table.id, table.settings.language)])


def status_line(table: Table) -> str:
    lang = table.settings.language
    game = table.game
    names = names_of(table)
    hand = game.hand
    if hand is not None and hand.trump is not None and hand.player is not None:
        trump = t("table.trump", lang, suit=hand.trump.symbol, player=names[hand.player])
    else:
        trump = t("table.no_trump", lang)
    if game.phase is Phase.OVER:
        turn = t("table.over", lang)
    elif game.to_act is not None:
        key = "table.to_bid" if game.phase is Phase.BIDDING else "table.to_play"
        turn = t(key, lang, name=names[game.to_act])
    else:
        turn = t("hand.between", lang)
    ns, ew = game.totals
    length = table.rules.length
    number = min(game.hand_number + 1, len(game.hands)) if game.hands else 1
    if length.hands is not None:
        return t("table.line", lang, hand=number, hands=length.hands, trump=trump, ns=ns, ew=ew, turn=turn)
    return t("table.line_target", lang, hand=number, target=length.target, trump=trump, ns=ns, ew=ew, turn=turn)


def hand_status(table: Table, view: SeatView) -> str:
    lang = table.settings.language
    game = table.game
    if game.phase is Phase.OVER:
        return t("hand.over", lang)
    if view.my_turn:
        if view.phase is Phase.BIDDING:
            return t("hand.your_turn_bid", lang)
        if view.trick:
            return t("hand.your_turn_follow", lang, suit=view.trick[0].suit.symbol)
        return t("hand.your_turn_lead", lang)
    if game.to_act is not None:
        return t("hand.waiting", lang, name=names_of(table)[game.to_act])
    return t("hand.between", lang)


def hand_payload(table: Table, view: SeatView, server: str = "") -> tuple[str, discord.ui.View, bytes]:
    """Text, card buttons (legal ones enabled when it is this seat's turn) and the hand image.

    ``server``: the server's name, for a DM (which otherwise does not say where the table is).
    """
    from rendering import hand_order, render_hand

    lang = table.settings.language
    place = f"<#{table.thread_id}>" if table.thread_id else f"<#{table.channel_id}>"
    if server:
        place = f"{place} ({server})"
    text = t("hand.header", lang, table=table.id, place=place, status=hand_status(table, view))
    legal = set(view.legal) if view.phase is Phase.PLAY else set()
    order = hand_order(view)
    buttons = [CardButton(table.id, table.version, card, i + 1, card in legal) for i, card in enumerate(order)]
    image = render_hand(view, theme=theme_of(table), numbered=True)
    return text, view_of(buttons), image


class Announcer:
    def __init__(self, bot: KlaverjasBot) -> None:
        self.bot = bot
        self.roem_messages: dict[int, tuple[int, int]] = {}  # table id -> (message id, version) with Roem!

    # ------------------------------------------------------------ helpers

    def thread(self, table: Table) -> discord.PartialMessageable:
        channel = table.thread_id or table.channel_id
        assert channel is not None
        return self.bot.get_partial_messageable(channel, guild_id=table.guild_id)

    async def post(self, table: Table, content: str, *, view: discord.ui.View | None = None,
                   image: bytes | None = None, name: str = "image.png", mention: int | None = None) -> int | None:
        kwargs: dict[str, Any] = {"content": content}
        if view is not None:
            kwargs["view"] = view
        if image is not None:
            kwargs["file"] = discord.File(io.BytesIO(image), filename=name)
        kwargs["allowed_mentions"] = (discord.AllowedMentions(users=[discord.Object(mention)]) if mention
                                      else discord.AllowedMentions.none())
        try:
            message = await self.thread(table).send(**kwargs)
        except discord.HTTPException:
            log.exception("table %s: could not post in the thread", table.id)
            return None
        finally:
            if view is not None:
                view.stop()  # the DynamicItems dispatch clicks; no need to keep the view in memory
        return message.id

    async def edit(self, table: Table, message_id: int, **kwargs: Any) -> bool:
        """Edit a message in the table's thread; False when Discord refused (deleted, no access)."""
        view = kwargs.get("view")
        try:
            await self.thread(table).get_partial_message(message_id).edit(**kwargs)
            return True
        except discord.HTTPException:
            log.info("table %s: could not edit message %s", table.id, message_id)
            return False
        finally:
            if view is not None:
                view.stop()

    async def post_lobby(self, table: Table) -> None:
        """A lobby message for a table made without a slash command (a rematch)."""
        if table.channel_id is None:
            return
        view = lobby_view(table)
        try:
            message = await self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id).send(
                content=lobby_text(table), view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.exception("table %s: could not post the lobby", table.id)
            return
        finally:
            view.stop()
        table.lobby_message_id = message.id
        await self.bot.service.save_discord(table)

    async def render(self, fn: Any, *args: Any, **kwargs: Any) -> bytes:
        result: bytes = await asyncio.to_thread(fn, *args, **kwargs)
        return result

    # ------------------------------------------------------------ events

    async def on_event(self, event: ServiceEvent) -> None:
        if isinstance(event, GameProgress):
            await self.on_progress(event)
        elif isinstance(event, LobbyChanged):
            await self.update_lobby(event.table)
        elif isinstance(event, TableStarted):
            await self.on_started(event.table)
        elif isinstance(event, TurnReminder):
            lang = event.table.settings.language
            await self.post(event.table, t("reminder", lang, mention=f"<@{event.user_id}>"), mention=event.user_id)
        elif isinstance(event, SeatAway):
            lang = event.table.settings.language
            await self.post(event.table, t("away", lang, mention=f"<@{event.user_id}>"),
                            view=view_of([BackButton(event.table.id, lang)]), mention=event.user_id)
        elif isinstance(event, SeatChanged):
            await self.on_seat_changed(event)
        elif isinstance(event, TableStopped):
            await self.post(event.table, t("stopped", event.table.settings.language))
            await self.update_lobby(event.table)
        elif isinstance(event, TableRestored):
            await self.on_restored(event.table)

    async def update_lobby(self, table: Table) -> None:
        if table.lobby_message_id is None or table.channel_id is None:
            return
        lang = table.settings.language
        message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(table.lobby_message_id)
        try:
            if table.status is TableStatus.LOBBY:
                view = lobby_view(table)
                await message.edit(content=lobby_text(table), view=view)
                view.stop()
            elif table.status is TableStatus.STOPPED:
                await message.edit(content=lobby_text(table) + "\n" + t("lobby.stopped", lang), view=None)
            else:
                link = f"<#{table.thread_id}>" if table.thread_id else ""
                await message.edit(content=lobby_text(table) + "\n" + t("lobby.started", lang, link=link), view=None)
        except discord.HTTPException:
            log.warning("table %s: could not edit the lobby message", table.id)

    async def on_started(self, table: Table) -> None:
        lang = table.settings.language
        names = names_of(table)
        ns = ", ".join(names[s] for s in (Seat.N, Seat.S))
        ew = ", ".join(names[s] for s in (Seat.E, Seat.W))
        title = t("thread.name", lang, table=table.id, players=f"{ns} vs {ew}")[:100]
        if table.channel_id is not None and table.lobby_message_id is not None:
            try:
                data = await self.bot.http.start_thread_with_message(
                    table.channel_id, table.lobby_message_id, name=title, auto_archive_duration=1440)
                table.thread_id = int(data["id"])
            except discord.HTTPException:
                # Threads not allowed here (or no permission): play in the channel itself.
                log.info("table %s: no thread, playing in the channel", table.id)
                table.thread_id = None
        await self.update_lobby(table)
        table.table_message_id = await self.post(table, status_line(table))
        await self.bot.service.save_discord(table)

    async def on_restored(self, table: Table) -> None:
        if table.status is not TableStatus.PLAYING:
            return
        await self.post(table, t("restored", table.settings.language))
        await self.prompt(table)

    async def on_seat_changed(self, event: SeatChanged) -> None:
        table = event.table
        lang = table.settings.language
        names = names_of(table)
        if event.reason == "left":
            text = t("seat.left", lang, name=f"<@{event.user_id}>", seat=seat_name(event.seat, lang))
        elif event.reason == "back":
            text = t("seat.back", lang, name=names[event.seat])
        elif event.reason == "will_take_over":
            text = t("seat.will_take_over", lang, name=f"<@{event.user_id}>", seat=seat_name(event.seat, lang))
        else:
            text = t("seat.took_over", lang, name=names[event.seat], seat=seat_name(event.seat, lang))
        await self.post(table, text)
        if event.reason in ("left", "took_over", "will_take_over"):
            await self.update_table_message(table)  # names on the image; the take-over button
        hand = table.game.hand
        if event.reason != "will_take_over" and hand is not None and table.game.phase is not Phase.DEAL:
            await self.send_hand(table, event.seat)
        if event.reason in ("back", "took_over"):
            await self.prompt(table)

    async def on_progress(self, event: GameProgress) -> None:
        table = event.table
        lang = table.settings.language
        names = names_of(table)
        touched: set[Seat] = set()
        refresh_table = False
        roem = self.roem_messages.get(table.id)
        if roem is not None and event.version > roem[1]:
            # The Roem! button lasts until the next card (or the claim): take it away.
            del self.roem_messages[table.id]
            await self.edit(table, roem[0], view=None)
        for engine_event in event.events:
            if isinstance(engine_event, HandDealt):
                touched.update(SEATS)
                refresh_table = True
                for info in table.seats:
                    # In-thread players need their cards for the bidding too, not only on their turn.
                    if info.kind is SeatKind.HUMAN and info.user_id is not None and info.delivery == "thread":
                        await self.post(table, t("dm.new_hand", lang, mention=f"<@{info.user_id}>"),
                                        view=view_of([ShowHandButton(table.id, lang)]), mention=info.user_id)
            elif isinstance(engine_event, SuitTurned):
                await self.post(table, t("bid.turned", lang, suit=engine_event.suit.symbol))
            elif isinstance(engine_event, BidMade):
                if engine_event.call is Call.PASS:
                    await self.post(table, t("bid.passes", lang, name=names[engine_event.seat]))
            elif isinstance(engine_event, TrumpChosenEvent):
                hand = table.game.hand
                elder = hand.elder if hand is not None else engine_event.player
                await self.post(table, t("bid.trump", lang, name=names[engine_event.player],
                                         suit=engine_event.trump.symbol, suit_name=suit_name(engine_event.trump, lang),
                                         elder=names[elder]))
                touched.update(SEATS)  # the hand's order changes with trump
                refresh_table = True
            elif isinstance(engine_event, StukScored):
                await self.post(table, t("stuk", lang, name=names[engine_event.seat],
                                         team=team_word(engine_event.team, None, lang)))
            elif isinstance(engine_event, TrickWon):
                await self.announce_trick(table, engine_event)
                refresh_table = True
            elif isinstance(engine_event, RoemClaimed):
                key = "roem.claimed" if engine_event.points else "roem.claimed_nothing"
                await self.post(table, t(key, lang, name=names[engine_event.seat], points=engine_event.points,
                                         team=team_word(engine_event.seat.team, None, lang)))
            elif isinstance(engine_event, HandSettled):
                await self.announce_hand(table, engine_event)
            elif isinstance(engine_event, MatchOver):
                await self.announce_match(table, engine_event)
        if event.seat is not None:
            touched.add(event.seat)
        if event.actor.value == "timer" and event.seat is not None and isinstance(event.action, Call | Card):
            await self.post(table, t("timer.played", lang, action=action_text(event.action, lang),
                                     name=names[event.seat]))
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
            await self.bot.service.save_discord(table)
            await self.edit(table, old, view=None)
        if seat is None or info is None or not table.running or info.kind is not SeatKind.HUMAN or info.away:
            return
        lang = table.settings.language
        mention = f"<@{info.user_id}>"
        if wants_bid:
            hand = game.hand
            assert hand is not None
            calls = [c for c in game.legal_actions() if isinstance(c, Call)]
            if table.rules.bidding.value == "draaien":
                text = t("bid.prompt_draaien", lang, suit=hand.turned[-1].symbol, mention=mention)
            elif Call.PASS not in calls:
                text = t("bid.prompt_forced", lang, mention=mention)
            else:
                text = t("bid.prompt_vrij", lang, mention=mention)
            buttons = view_of([BidButton(table.id, table.version, c, lang) for c in calls])
            if table.prompt_message_id is not None and await self.edit(table, table.prompt_message_id, content=text,
                                                                       view=buttons):
                return
            table.prompt_message_id = await self.post(table, text, view=view_of(
                [BidButton(table.id, table.version, c, lang) for c in calls]), mention=info.user_id)
            table.prompt_version = table.version if table.prompt_message_id is not None else None
            await self.bot.service.save_discord(table)
        elif game.phase is Phase.PLAY and info.delivery == "thread":
            await self.post(table, t("dm.your_turn", lang, mention=mention),
                            view=view_of([ShowHandButton(table.id, lang)]), mention=info.user_id)

    async def update_table_message(self, table: Table) -> None:
        from rendering import render_table

        view = table.view(Seat.S)
        image = await self.render(render_table, _public(view), names_of(table), theme=theme_of(table, public=True))
        file = discord.File(io.BytesIO(image), filename="table.png")
        buttons = table_view(table)
        if table.table_message_id is not None:
            message = self.thread(table).get_partial_message(table.table_message_id)
            try:
                await message.edit(content=status_line(table), attachments=[file], view=buttons)
                return
            except discord.NotFound:
                pass  # deleted: post a new one
            except discord.HTTPException:
                log.warning("table %s: could not edit the table message", table.id)
                return
            finally:
                if buttons is not None:
                    buttons.stop()
        table.table_message_id = await self.post(table, status_line(table), image=image, name="table.png",
                                                 view=table_view(table))
        await self.bot.service.save_discord(table)

    async def announce_trick(self, table: Table, event: TrickWon) -> None:
        from rendering import render_trick

        lang = table.settings.language
        names = names_of(table)
        hand = table.game.hand
        assert hand is not None
        trick = hand.tricks[event.trick]
        image = await self.render(render_trick, _public(table.view(Seat.S)), names, trick=trick,
                                  theme=theme_of(table, public=True))
        winning_card = trick.cards[(event.winner - event.leader) & 3]
        lines = [t("trick", lang, n=event.trick + 1, name=names[event.winner], card=winning_card.symbol,
                   points=event.points)]
        view = None
        if event.roem:
            key = "trick.roem_claim" if event.needs_claim else "trick.roem"
            lines.append(t(key, lang, parts=roem_text(event.roem_parts, lang), team=team_word(event.team, None, lang)))
            if event.needs_claim and any(table.seats[s].kind is SeatKind.HUMAN and not table.seats[s].ai_plays
                                         for s in event.team.seats):
                view = view_of([RoemButton(table.id, table.version, lang)])
        message_id = await self.post(table, "\n".join(lines), view=view, image=image, name="trick.png")
        if view is not None and message_id is not None:
            self.roem_messages[table.id] = (message_id, table.version)

    async def announce_hand(self, table: Table, event: HandSettled) -> None:
        lang = table.settings.language
        result = event.result
        names = names_of(table)
        lines = [t("hand.result", lang, n=result.hand + 1, ns=result.score[0], ew=result.score[1])]
        playing = result.playing
        if result.nat:
            own = result.points[playing] + result.roem[playing]
            other = result.points[playing.other] + result.roem[playing.other]
            lines.append(t("hand.nat", lang, name=names[result.player], team=team_word(playing, None, lang), own=own,
                           other=other))
        if result.pit is not None:
            lines.append(t("hand.pit", lang, team=team_word(result.pit, None, lang), points=result.points[result.pit]))
        if not table.game.finished:
            await self.post(table, "\n".join(lines), image=await self.sheet(table), name="sheet.png")
        else:
            await self.post(table, "\n".join(lines))

    async def announce_match(self, table: Table, event: MatchOver) -> None:
        lang = table.settings.language
        ns, ew = event.totals
        hands = len(table.game.hands)
        if event.winner is None:
            text = t("match.draw", lang, ns=ns, ew=ew, hands=hands)
        else:
            text = t("match.won", lang, team=team_word(event.winner, None, lang), won=max(ns, ew), lost=min(ns, ew),
                     hands=hands)
        view = view_of([RematchButton(table.id, lang)])
        await self.post(table, text, image=await self.sheet(table), name="sheet.png", view=view)

    async def sheet(self, table: Table) -> bytes:
        from rendering import render_sheet

        game = table.game
        return await self.render(render_sheet, game.results, viewer_team=None, names=names_of(table),
                                 hands_total=table.rules.length.hands, finished=game.finished, winner=game.winner,
                                 theme=theme_of(table))

    # ------------------------------------------------------------ private hands

    async def send_hand(self, table: Table, seat: Seat) -> None:
        """Send or update the private hand by DM; on 50007 fall back to the Show my hand button."""
        info = table.seats[seat]
        if info.kind is not SeatKind.HUMAN or info.user_id is None or info.delivery != "dm":
            return
        view = table.view(seat)
        guild = self.bot.get_guild(table.guild_id) if table.guild_id is not None else None
        text, buttons, image = await asyncio.to_thread(hand_payload, table, view, guild.name if guild else "")
        file = discord.File(io.BytesIO(image), filename="hand.png")
        try:
            if info.dm_channel_id is not None and info.hand_message_id is not None:
                message = self.bot.get_partial_messageable(info.dm_channel_id).get_partial_message(info.hand_message_id)
                try:
                    await message.edit(content=text, view=buttons, attachments=[file])
                    return
                except discord.NotFound:
                    file = discord.File(io.BytesIO(image), filename="hand.png")
            if info.dm_channel_id is None:
                dm = await self.bot.create_dm(discord.Object(info.user_id))
                info.dm_channel_id = dm.id
            channel = self.bot.get_partial_messageable(info.dm_channel_id)
            sent = await channel.send(content=text, view=buttons, file=file)
            info.hand_message_id = sent.id
            await self.bot.service.save_discord(table)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                log.warning("table %s: cannot DM seat %s: %s", table.id, seat, error)
            info.delivery = "thread"
            await self.bot.service.save_discord(table)
            lang = table.settings.language
            await self.post(table, t("dm.closed", lang, mention=f"<@{info.user_id}>"),
                            view=view_of([ShowHandButton(table.id, lang)]), mention=info.user_id)
        except discord.HTTPException:
            log.warning("table %s: could not send the hand of %s", table.id, seat)
        finally:
            buttons.stop()


def _public(view: SeatView) -> SeatView:
    """A view for public images: no private hand, no legal cards."""
    from dataclasses import replace

    return replace(view, hand=(), legal=())
