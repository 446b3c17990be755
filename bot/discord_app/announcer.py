"""Tells Discord what happened at a table: posts and edits the lobby, the table message, trick and hand
messages, private hands (DM, or the "Show my hand" fallback), bidding prompts and reminders.

It is a service subscriber: it hears of each change after it was stored, in the order of the actions,
while the table is still locked. There it only decides what to say and queues it in the table's outbox
(``bot.discord_app.outbox``); the outbox's consumer sends it outside the lock, so a slow or failing
Discord never holds up a click, a timer, stop or leave.

Two kinds of jobs:
- posts of what happened (a trick, a pass, a hand's score, a reminder): built when queued, so they tell
  that moment, images drawn later from a snapshot; each one is sent;
- the living messages (the table message, each DM hand, the bidding prompt, the lobby): synced with the
  table as it is when the job runs (read under the table's lock, so never a state not yet stored); a
  newer sync of the same message replaces a queued older one.

Delivery comes back to the service: a turn's prompt (the bidding buttons, the DM hand with its playable
cards, or the thread's "your turn" ping) is marked pending when queued and delivered once Discord took it;
a turn whose prompt never arrived is not counted as missed (``TableService.prompt_pending``). A DM hand
that cannot be delivered moves to the thread's "Show my hand" button, with a ping saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot import access
from bot.discord_app.messages import (
    DM_CLOSED,
    THREAD_EXISTS,
    Payload,
    away_message,
    bid_prompt,
    claim_prompt,
    event_message,
    expired_lobby_message,
    hand_draft,
    hand_result_message,
    lobby_message,
    match_message,
    paused_message,
    reminder_message,
    seat_changed_text,
    show_hand_message,
    stopped_message,
    table_message,
    tells_in_table_message,
    thread_name,
    timer_message,
    trick_message,
)
from bot.discord_app.outbox import DeliveryConfig, Job, Outbox, Undelivered
from bot.discord_app.views import LobbyButton, LobbyOp, custom_ids_of
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.events import (
    AutoplayStarted,
    GameProgress,
    LobbyChanged,
    LobbyExpired,
    SeatAway,
    SeatChange,
    SeatChanged,
    ServiceEvent,
    TablePaused,
    TableRestored,
    TableStarted,
    TableStopped,
    TurnReminder,
)
from bot.tables.model import Delivery, SeatInfo, SeatKind, Table, TableStatus
from bot.tables.service import TableService
from bot.texts.catalog import t
from bot.web.config import WebConfig
from bot.web.links import activity_here, seat_link, watch_link
from bot.workers import Lane
from engine.cards import SEATS, Seat, seat_after
from engine.events import BidMade, HandDealt, HandSettled, MatchOver, SuitTurned, TrickWon, TrumpChosen
from engine.game import Phase
from engine.settings import RoemMode

if TYPE_CHECKING:  # discord.types cannot be imported first at run time (an import cycle of its own)
    from discord.types.message import Message as MessagePayload

log = logging.getLogger(__name__)

LOBBY_SEARCH = 100  # the latest messages of a channel searched for a lobby at a restart (Discord's most)
# Pillow holds the GIL for much of its work, and a thread that holds it keeps the event loop waiting: the
# announcements' images (a start burst deals hundreds at once) are drawn in a worker process of their own (the
# announcer's ``drawing`` lane; a thread in tests). Answers to clicks are few and small: drawn in a thread of their
# own (no pickling nor process hop on a click's path), so they never wait behind the announcements' images.
_DRAWING_ANSWERS = ThreadPoolExecutor(1, thread_name_prefix="draw-answer")
DRAWING_NICENESS = 5  # added to the drawing process's niceness: on a busy machine the event loop goes first

BUTTONS_GONE = ("buttons gone",)  # what a message shows once its buttons were taken away, as far as we care


# Tables whose start is announced at once (the thread, the lobby's edit, the table message): a burst of starts opens
# them a few at a time, in the order they started, so the clicks at tables already playing do not wait behind
# hundreds of openings for the store and Discord. A table waiting here is stored as playing: a restart opens it.
OPENINGS = 4
ANSWER_WAIT = 5.0  # seconds an edit of a clicked message waits at most for the click's answer to go out first
# How long a click's interaction may edit the clicked message: Discord keeps its token 15 minutes.
TOKEN_LIFETIME = 14 * 60.0


def _nothing() -> None:
    pass


def _note_prompt(table: Table, message_id: int | None, version: int | None) -> None:
    table.prompt_message_id, table.prompt_version = message_id, version


@dataclass
class TableMessages:
    """What the announcer keeps of one table in memory only (a restart starts afresh; the store keeps the message
    ids, ``Table``): one object a table, forgotten as a whole once the table retires."""

    roem: tuple[int, int] | None = None  # (message id, version) of the trick with the Roem! button
    muted_until: float | None = None  # loop time until which the table's thread gets nothing (a 403)
    # message id -> the fingerprint of what the message shows: an edit to the same is skipped.
    shown: dict[int, Hashable] = field(default_factory=dict)
    answered: dict[Seat, int] = field(default_factory=dict)  # seat -> the version a click's answer showed its hand
    # message id -> the latest interaction on it while its token lasts: the message's edits go through it
    # (``ClickToken``): a DM hand clicked, the lobby answered or clicked.
    tokens: dict[int, ClickToken] = field(default_factory=dict)


@dataclass(frozen=True)
class ClickToken:
    """An interaction whose "original response" is a message of ours (the clicked message, or the message a
    command answered with): until ``until`` (loop time) that message is edited through it, which does not
    count against the bot's global limit of requests per second as a channel's message edit does."""

    interaction: discord.Interaction[Any]
    until: float


@dataclass(frozen=True)
class ClickAnswer:
    """The clicked message as the click's action left it, sent as the click's answer: one request both
    answers the click and updates the message. ``payload`` None: the message loses its buttons.

    Made when the action is applied (so its image can be drawn while the action is stored); the sender
    calls ``stored`` once the action is committed, before sending, ``failed`` when it could not be sent
    (the announcer then updates the message itself), and ``finished`` once it is done either way: the
    announcer's own edits of that message wait for it, so an answer drawn slowly never lands over a newer
    state.
    """

    payload: Payload | None
    stored: Callable[[], None] = _nothing
    failed: Callable[[], None] = _nothing
    finished: Callable[[], None] = _nothing


class Announcer:
    def __init__(self, client: discord.Client, service: TableService, delivery: DeliveryConfig | None = None,
                 drawing_workers: int = 0, web: WebConfig | None = None) -> None:
        self.client = client
        self.web = web  # the web table, when configured: each hand links to its seat there
        self.service = service
        self.drawing = Lane("drawing", drawing_workers, niceness=DRAWING_NICENESS)
        self.outbox = Outbox(delivery)
        # What this process keeps of each table it announces besides the store's (``TableMessages``), from its first
        # note until the table retires.
        self.tables: dict[int, TableMessages] = {}
        self.answering: dict[int, asyncio.Event] = {}  # message id -> set once the click's answer went out
        self.openings = asyncio.Semaphore(OPENINGS)  # the tables' openings under way (``open_admitted``)
        # Hears every change of the tables this process owns; the service, built to let its front end store each
        # finished game's end (``TableService.front_end_stores_end``), waits for ``store_end`` after the end went out.
        service.subscribe(self.on_event)

    async def close(self) -> None:
        """Let the queued messages go out for a moment, then stop."""
        await self.outbox.close()
        self.drawing.close()

    # ------------------------------------------------------------ events: decide and queue (the table is locked)

    async def on_event(self, event: ServiceEvent) -> None:
        """The service's subscriber. Queues what to say and returns: it never waits for Discord. A ``CopyChanged``
        (a table another process owns) is left to that process."""
        table = event.table
        if isinstance(event, GameProgress):
            self.on_progress(event)
        elif isinstance(event, LobbyChanged):
            self.queue(table, partial(self.sync_lobby, table), "lobby")
        elif isinstance(event, TableStarted):
            self.queue(table, partial(self.open_admitted, table))
        elif isinstance(event, TurnReminder):
            self.queue_post(table, reminder_message(table, event.user_id))
        elif isinstance(event, SeatAway):
            self.queue_post(table, away_message(table, event.user_id))
        elif isinstance(event, SeatChanged):
            self.on_seat_changed(event)
        elif isinstance(event, TablePaused):
            self.queue_post(table, paused_message(table, event.grace))
        elif isinstance(event, TableStopped):
            self.queue_post(table, stopped_message(table, event.deserted))
            self.queue(table, partial(self.sync_lobby, table), "lobby")
            self.retire(table)
        elif isinstance(event, LobbyExpired):
            self.queue(table, partial(self.sync_lobby, table, expired_lobby_message), "lobby")
            self.retire(table)
        elif isinstance(event, TableRestored) and table.status in (TableStatus.PLAYING, TableStatus.FINISHED):
            self.on_restored(event)
        elif isinstance(event, AutoplayStarted):
            self.queue_post(table, Payload(t("tournament.autoplay", table.settings.language)))
            self.queue_prompt(table)  # the bidding buttons go
            for seat in SEATS:
                self.queue_hand(table, seat)  # the hand's card buttons too

    def on_restored(self, event: TableRestored) -> None:
        """After a restart: what was queued and not sent is gone. The actions not marked announced follow as
        GameProgress events and are announced again in full (at least once beats never), which also brings the
        hands, the table message and the prompt up to date. With every action announced nothing is posted again
        (a trick, a hand's result): only what shows the table now is synced, as the crash may have come before
        its last edits."""
        table = event.table
        if table.table_message_id is None:
            # The bot died while announcing the start: again, from the thread on (what exists is kept).
            self.queue(table, partial(self.open_thread, table))
        if table.game.finished and not event.replaying:
            # Its end went out in full; storing it as finished did not.
            self.queue(table, partial(self.service.store_end, table))
            self.retire(table)
            return
        self.queue_post(table, Payload(t("restored", table.settings.language)))
        if event.replaying:
            return  # their GameProgress events follow
        self.queue(table, partial(self.sync_table_message, table), "table")
        for seat in SEATS:
            self.queue_hand(table, seat)
        self.queue_prompt(table)

    def on_progress(self, event: GameProgress) -> None:
        table = event.table
        if table.autoplay and not table.game.finished:
            # The AI plays the table out in a moment: nobody follows it move by move, the end is told.
            self.queue(table, partial(self.service.mark_announced, table, event.version), "announced")
            return
        if table.rules.roem is RoemMode.DECLARED:
            self.queue(table, partial(self.expire_roem, table, event.version))
        hands: set[Seat] = set()
        refresh_table = False
        trump_chosen = dealt = False
        settled: HandSettled | None = None
        # With someone at the table its message is edited at each of their turns: the bids and tricks are told
        # there (and under the hand's result) instead of in posts of their own, each of which Discord counts
        # against the bot's global limit.
        told = tells_in_table_message(table)
        for engine_event in event.events:
            if isinstance(engine_event, HandDealt):
                hands.update(SEATS)
                dealt = True
                # (The first hand's table message is still to be posted, as the table is then: ``open_thread``.)
                refresh_table = refresh_table or table.table_message_id is not None
                for info in table.seats:
                    # In-thread players need their cards for the bidding too, not only on their turn.
                    if info.kind is SeatKind.HUMAN and info.user_id is not None and info.delivery is Delivery.THREAD:
                        self.queue_post(table, show_hand_message(table, "dm.new_hand", info.user_id))
            elif isinstance(engine_event, TrickWon):
                trick = trick_message(table, engine_event)
                # The last trick of a table the AI played out is no news; a trick with the Roem! button is posted.
                if not table.autoplay and (trick.view is not None or not told):
                    self.queue(table, partial(self.post_trick, table, trick, event.version))
                # The trick's message shows it; the table message follows at the next human's turn, which comes
                # in the next trick, with that trick's first cards too (one edit instead of two).
                refresh_table = refresh_table or not self.human_turn_ahead(table)
            elif isinstance(engine_event, HandSettled):
                if table.game.finished:
                    settled = engine_event  # said in the match's message, with the sheet
                else:
                    self.queue_post(table, hand_result_message(table, engine_event, tricks=told))
            elif isinstance(engine_event, MatchOver):
                self.queue_post(table, match_message(table, engine_event, settled, tricks=told))
                hands.update(SEATS)  # each hand says the match is over, not whose turn it was
            else:
                said = event_message(table, engine_event)
                if said is not None and not (told and isinstance(engine_event, BidMade | SuitTurned | TrumpChosen)):
                    self.queue_post(table, said)
                if isinstance(engine_event, TrumpChosen):
                    hands.update(SEATS)  # the hand's order changes with trump
                    # The table shows trump at once, unless a person is to act after AI players only: then at
                    # their turn, a moment from now (one edit instead of two).
                    trump_chosen = True
                    refresh_table = refresh_table or self.next_person(table) is None
        if event.seat is not None:
            hands.add(event.seat)
            kept = self.tables.get(table.id)
            if kept is not None and kept.answered.pop(event.seat, None) == event.version:
                # The click's answer shows this seat's hand as this action left it; synced again later, it
                # would only say whose turn it is by then.
                hands.discard(event.seat)
        if table.autoplay:
            hands.update(SEATS)  # the end of a table the AI played out: every hand says the match is over
        timer = timer_message(table, event.seat, event.action, event.actor)
        if timer is not None:
            self.queue_post(table, timer)
        to_act = table.game.to_act
        if to_act is not None:
            hands.add(to_act)
            # At a person's turn the table message shows it; a person's call is asked in a post of its own that also
            # tells the bids so far (``bid_prompt``): the table message shows the bidding once it is over.
            if table.seats[to_act].kind is SeatKind.HUMAN \
                    and not (table.game.phase is Phase.BIDDING and not table.ai_plays(to_act)):
                refresh_table = True
        waits = self.next_person(table)
        if (trump_chosen or dealt) and waits is not None and waits is not to_act \
                and not self.clicked_lately(table, waits):
            # Their hand (new, or in trump's order) comes with their turn, after AI players only: one request to
            # Discord instead of two, where it is not edited through their last click anyway.
            hands.discard(waits)
        if refresh_table or table.game.finished:
            self.queue(table, partial(self.sync_table_message, table), "table")
        if table.game.finished:
            # Every hand ends saying the match is over: one last synced while the last cards were still to
            # come would otherwise keep saying whose turn it was.
            hands.update(SEATS)
        for seat in SEATS:
            if seat in hands:
                self.queue_hand(table, seat)
        self.queue_prompt(table)
        # Once everything queued so far went out (the job takes the newest place), the store hears how far the
        # announcements got: a restart announces the actions after that again.
        self.queue(table, partial(self.service.mark_announced, table, event.version), "announced")
        if table.game.finished:
            # Stored as finished once its end went out: a crash before that announces the end again.
            self.queue(table, partial(self.service.store_end, table))
            self.retire(table)

    @staticmethod
    def human_turn_ahead(table: Table) -> bool:
        """Someone sits at the table in person and the hand goes on: the table message is synced at their
        turn in the next trick (``on_progress`` syncs it whenever a human seat is to act)."""
        return table.game.phase is Phase.PLAY and any(info.kind is SeatKind.HUMAN for info in table.seats)

    @staticmethod
    def next_person(table: Table) -> Seat | None:
        """The seat a person plays from that is next to bid or play a card in this hand, with only AI players to
        act before it; None when no one is to bid or play."""
        game = table.game
        if game.phase not in (Phase.BIDDING, Phase.PLAY) or game.to_act is None:
            return None
        return next((seat for seat in (seat_after(game.to_act, n) for n in range(4)) if not table.ai_plays(seat)), None)

    def on_seat_changed(self, event: SeatChanged) -> None:
        table = event.table
        self.queue_post(table, Payload(seat_changed_text(event)))
        if event.change in (SeatChange.LEFT, SeatChange.TOOK_OVER, SeatChange.WILL_TAKE_OVER):
            self.queue(table, partial(self.sync_table_message, table), "table")  # names; the take-over button
        if event.change is not SeatChange.WILL_TAKE_OVER and table.game.hand is not None \
                and table.game.phase is not Phase.DEAL:
            self.queue_hand(table, event.seat)
        if event.change in (SeatChange.BACK, SeatChange.TOOK_OVER):
            self.queue_prompt(table)

    # ------------------------------------------------------------ queueing

    def queue(self, table: Table, run: Callable[[], Awaitable[object]], key: Hashable | None = None) -> None:
        self.outbox.put(table.id, Job(run, key))

    def queue_post(self, table: Table, payload: Payload) -> None:
        self.queue(table, partial(self.post, table, payload))

    def queue_hand(self, table: Table, seat: Seat) -> None:
        info = table.seats[seat]
        if info.kind is SeatKind.HUMAN and info.delivery is Delivery.DM:
            self.queue(table, partial(self.sync_hand, table, seat), ("hand", seat))

    def queue_prompt(self, table: Table) -> None:
        """Sync the thread's prompt; the human to act has a turn whose prompt is now on its way.

        Where that prompt goes is decided now: the bidding buttons, the DM hand (``sync_hand`` reports it), or
        a ping in the thread for an in-thread player. A hand that falls back to the thread is not pinged a
        second time for that turn, and that turn stays undelivered: also when the hand, synced as the table
        already was, fell back before this turn's announcement came here.
        """
        seat = table.game.to_act
        info = table.seats[seat] if seat is not None else None
        ping = False
        # Only the turns this announcer prompts (a bid or a card) are tracked; others count as before.
        if table.running and seat is not None and info is not None and info.kind is SeatKind.HUMAN \
                and not table.ai_plays(seat) and table.game.phase in (Phase.BIDDING, Phase.PLAY, Phase.CLAIM):
            first = self.service.prompt_pending(table, seat, table.version)
            ping = first and table.game.phase is Phase.PLAY and info.delivery is Delivery.THREAD
        self.queue(table, partial(self.sync_prompt, table, table.version, ping), "prompt")

    async def send_hand(self, table: Table, seat: Seat) -> None:
        """Send or update the seat's private hand by DM (queued behind the table's other messages)."""
        self.queue_hand(table, seat)

    async def post_lobby(self, table: Table) -> int:
        """A lobby message for a table made without a slash command (a rematch): its id. Awaited, not queued:
        the service opens the table only once its message exists (no game lock is held meanwhile). Raises
        ``LOBBY_NOT_POSTED`` when Discord did not take it (the service drops the table again)."""
        if table.lobby_message_id is not None:
            return table.lobby_message_id
        if table.channel_id is None:
            raise ServiceError(ServiceErrorCode.LOBBY_NOT_POSTED)
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            return await self.send(table, channel, self.lobby_message(table))
        except (discord.HTTPException, Undelivered) as error:
            log.warning("table %s: could not post the lobby: %s", table.id, error)
            raise ServiceError(ServiceErrorCode.LOBBY_NOT_POSTED) from error

    async def restored_lobby(self, table: Table) -> int:
        """At a restart, the message of a lobby whose id was not stored (the bot died between posting it and
        storing the id, or before posting it): the bot's message with this lobby's buttons among the channel's
        latest (the answer to /klaverjas start, or a Rematch's post), else a new one. Its id, as ``post_lobby``.

        Found, the lobby the players may have seen keeps working and no second copy appears; a lobby never
        posted appears now, late rather than never (one the channel cannot be read for is posted again).
        """
        if table.channel_id is None:
            raise ServiceError(ServiceErrorCode.LOBBY_NOT_POSTED)
        channel_id, me = table.channel_id, self.client.user
        start = LobbyButton(table.id, LobbyOp.START).custom_id
        try:
            recent: list[MessagePayload] = await self.outbox.attempt(
                lambda: self.client.http.logs_from(channel_id, LOBBY_SEARCH), f"table {table.id}: finding its lobby")
        except (discord.HTTPException, Undelivered) as error:
            log.info("table %s: cannot read the channel's messages (%s): posting its lobby again", table.id, error)
            recent = []
        for data in recent:
            if me is not None and int(data["author"]["id"]) == me.id and start in custom_ids_of(data):
                return int(data["id"])
        return await self.post_lobby(table)

    def retire(self, table: Table) -> None:
        """The table is over: once its last messages are out, forget it."""
        self.outbox.retire(table.id, partial(self.forget, table))

    def forget(self, table: Table) -> None:
        self.tables.pop(table.id, None)

    def kept(self, table: Table) -> TableMessages:
        """The table's ``TableMessages``, made at its first note."""
        return self.tables.setdefault(table.id, TableMessages())

    # ------------------------------------------------------------ what each message shows

    def is_shown(self, table: Table, message_id: int, fingerprint: Hashable | None) -> bool:
        return fingerprint is not None and self.noted(table, message_id) == fingerprint

    def note_shown(self, table: Table, message_id: int, fingerprint: Hashable | None) -> None:
        if fingerprint is None:
            kept = self.tables.get(table.id)
            if kept is not None:
                kept.shown.pop(message_id, None)
        else:
            self.kept(table).shown[message_id] = fingerprint

    def noted(self, table: Table, message_id: int) -> Hashable | None:
        kept = self.tables.get(table.id)
        return kept.shown.get(message_id) if kept is not None else None

    def note_sent(self, table: Table, message_id: int, before: Hashable | None, fingerprint: Hashable | None) -> None:
        """An edit went out: note what it shows, unless a click was answered with the message's newer state
        while the edit was under way (the click was made on what this edit showed)."""
        if self.noted(table, message_id) == before:
            self.note_shown(table, message_id, fingerprint)

    # ------------------------------------------------------------ clicks answered with their message's update

    def answer_hand(self, table: Table, seat: Seat, message_id: int,
                    interaction: discord.Interaction[Any] | None = None) -> ClickAnswer | None:
        """A card clicked on the seat's DM hand (the table's lock is held, the action just applied): the hand
        as it is now, to answer the click with. Once stored, the hand's sync for this action sends nothing;
        if the answer fails, the sync is queued again. Once answered, the hand's later edits go through
        ``interaction`` while its token lasts (``HandToken``)."""
        info = table.seats[seat]
        # The clicked buttons were the current ones (the service checked their version), so the message is the
        # seat's hand even when the bot has not heard back from sending it yet (no id kept).
        if info.kind is not SeatKind.HUMAN or info.delivery is not Delivery.DM \
                or info.hand_message_id not in (None, message_id):
            return None
        payload = self.hand_payload(table, seat)
        version = table.version

        def answered() -> None:
            kept = self.kept(table)
            kept.answered[seat] = version
            if interaction is not None:
                self.remember_click(table, message_id, interaction)

        def failed() -> None:
            self.note_shown(table, message_id, None)
            self.forget_click(table, message_id)
            self.queue_hand(table, seat)

        return self.click_answer(table, message_id, payload, payload.fingerprint(), answered, failed)

    def answer_prompt(self, table: Table, message_id: int) -> ClickAnswer | None:
        """A call clicked on the thread's bidding prompt: answered by taking the prompt's buttons away, so the
        prompt's sync need not. A prompt still being posted has no id kept yet; its buttons, clicked at the
        current version (the service checked it), can only be that prompt's."""
        if table.prompt_message_id not in (None, message_id):
            return None

        def failed() -> None:
            self.note_shown(table, message_id, None)
            self.queue(table, partial(self.take_buttons_away, table, message_id))

        return self.click_answer(table, message_id, None, BUTTONS_GONE, _nothing, failed)

    def click_answer(self, table: Table, message_id: int, payload: Payload | None, fingerprint: Hashable | None,
                     answered: Callable[[], None], failed: Callable[[], None]) -> ClickAnswer:
        """Once stored, the message counts as showing ``fingerprint``, and its edits wait for the answer."""
        pending: list[asyncio.Event] = []

        def stored() -> None:
            self.note_shown(table, message_id, fingerprint)
            answered()
            event = self.answering[message_id] = asyncio.Event()
            pending.append(event)

        def finished() -> None:
            for event in pending:
                event.set()
                if self.answering.get(message_id) is event:
                    del self.answering[message_id]

        return ClickAnswer(payload, stored, failed, finished)

    async def after_answer(self, message_id: int) -> None:
        """Wait until a click's answer that updates this message went out (for a while at most)."""
        event = self.answering.get(message_id)
        if event is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ANSWER_WAIT):
                    await event.wait()

    # ------------------------------------------------------------ Discord requests (in the outbox's task)

    def thread(self, table: Table) -> discord.PartialMessageable:
        channel = table.thread_id or table.channel_id
        assert channel is not None
        return self.client.get_partial_messageable(channel, guild_id=table.guild_id)

    async def drawn(self, payload: Payload) -> Payload:
        """``payload`` with its image, drawn in the drawing lane (in a thread, should the drawing not travel there:
        a function that does not pickle)."""
        if payload.draw is None:
            return payload
        try:
            image = await self.drawing.run(payload.draw)
        except Exception as error:  # also a drawing that fails anywhere: it fails once more, in the thread
            log.warning("an image drawn in a thread instead of the drawing lane: %r", error)
            return await asyncio.to_thread(payload.drawn)
        return replace(payload, image=image, draw=None)

    @staticmethod
    async def answer_drawn(payload: Payload) -> Payload:
        """``payload`` with its image, drawn in the answers' own thread."""
        if payload.draw is None:
            return payload
        return await asyncio.get_running_loop().run_in_executor(_DRAWING_ANSWERS, payload.drawn)

    async def keep(self, table: Table, change: Callable[[], object]) -> None:
        """Make ``change`` (a Discord fact: a thread, a message id) to the table and store it, under its lock."""
        await self.service.keep_discord(table, change)

    def silenced(self, table: Table) -> bool:
        kept = self.tables.get(table.id)
        if kept is None or kept.muted_until is None:
            return False
        if asyncio.get_running_loop().time() >= kept.muted_until:
            kept.muted_until = None
            return False
        return True

    def silence(self, table: Table, error: discord.HTTPException) -> None:
        """Discord refuses us in the table's thread (403): stop asking for a while, every refusal counts
        towards a ban for invalid requests."""
        pause = self.outbox.config.forbidden_pause
        self.kept(table).muted_until = asyncio.get_running_loop().time() + pause
        log.warning("table %s: Discord refuses messages in its thread (%s): none sent there for %.0f s",
                    table.id, error, pause)

    async def send(self, table: Table, channel: discord.PartialMessageable, payload: Payload) -> int:
        """Post ``payload`` pinging no one but its mention; the message id. Raises Discord's refusal, or
        ``Undelivered`` when Discord did not take it after every try."""
        mentions = (discord.AllowedMentions(users=[discord.Object(payload.mention)]) if payload.mention
                    else discord.AllowedMentions.none())
        fingerprint = payload.fingerprint()
        try:
            ready = await self.drawn(payload)
            message = await self.outbox.attempt(
                lambda: channel.send(**ready.send_kwargs(), allowed_mentions=mentions),
                f"table {table.id}: posting in {channel.id}")
        finally:
            payload.stop()
        if self.noted(table, message.id) is None:  # else a click on it was answered before we heard back: newer
            self.note_shown(table, message.id, fingerprint)
        return message.id

    async def post(self, table: Table, payload: Payload) -> int | None:
        """Post in the table's thread (or its channel when there is no thread); None when Discord refused.
        Raises ``Undelivered`` when Discord did not take it after every try."""
        if self.silenced(table):
            payload.stop()
            return None
        try:
            return await self.send(table, self.thread(table), payload)
        except discord.Forbidden as error:
            self.silence(table, error)
        except discord.HTTPException as error:
            log.warning("table %s: could not post: %s", table.id, error)
        return None

    async def edit(self, table: Table, message_id: int, payload: Payload | None) -> bool:
        """Edit a message in the table's thread (None: take its buttons away); False when Discord refused.
        Raises ``discord.NotFound`` for a deleted message and ``Undelivered`` when Discord did not answer."""
        channel = self.thread(table)
        fingerprint = payload.fingerprint() if payload is not None else BUTTONS_GONE
        await self.after_answer(message_id)
        if self.silenced(table):
            if payload is not None:
                payload.stop()
            return False
        if self.is_shown(table, message_id, fingerprint):
            if payload is not None:
                payload.stop()
            return True
        message = channel.get_partial_message(message_id)
        before = self.noted(table, message_id)
        try:
            ready = await self.drawn(payload) if payload is not None else None
            await self.outbox.attempt(lambda: message.edit(**(ready.edit_kwargs() if ready else {"view": None})),
                                      f"table {table.id}: editing message {message_id}")
            self.note_sent(table, message_id, before, fingerprint)
            return True
        except discord.NotFound:
            raise
        except discord.Forbidden as error:
            self.silence(table, error)
            return False
        except discord.HTTPException as error:
            log.info("table %s: could not edit message %s: %s", table.id, message_id, error)
            return False
        finally:
            if payload is not None:
                payload.stop()

    async def take_buttons_away(self, table: Table, message_id: int) -> None:
        """Best effort: a button left behind is refused as stale when clicked."""
        try:
            await self.edit(table, message_id, None)
        except (discord.NotFound, Undelivered) as error:
            log.info("table %s: the buttons of message %s stay: %s", table.id, message_id, error)

    # ------------------------------------------------------------ the jobs

    async def post_trick(self, table: Table, payload: Payload, version: int) -> None:
        message_id = await self.post(table, payload)
        if payload.view is not None and message_id is not None:
            self.kept(table).roem = (message_id, version)

    async def expire_roem(self, table: Table, version: int) -> None:
        """The Roem! button lasts until the next card (or the claim): take it away."""
        kept = self.tables.get(table.id)
        roem = kept.roem if kept is not None else None
        if kept is not None and roem is not None and version > roem[1]:
            kept.roem = None
            await self.take_buttons_away(table, roem[0])

    def lobby_message(self, table: Table) -> Payload:
        """The lobby, with Play here where the Activity can open it in the lobby's channel."""
        return lobby_message(table, activity_here(self.web, table, table.channel_id))

    async def sync_lobby(self, table: Table, build: Callable[[Table], Payload] | None = None) -> None:
        """The lobby message as the table is now (``build``: an expired lobby says so)."""
        if table.lobby_message_id is None or table.channel_id is None:
            return
        build = build or self.lobby_message
        message = self.client.get_partial_messageable(table.channel_id).get_partial_message(table.lobby_message_id)
        async with table.lock:  # as stored: another process may have changed the table since (bot.tables.shared)
            payload = build(table)
        try:
            if await self.edit_through_click(table, table.lobby_message_id, payload, payload.fingerprint()):
                return
            await self.outbox.attempt(lambda: message.edit(**payload.edit_kwargs()),
                                      f"table {table.id}: editing the lobby")
        except discord.HTTPException as error:
            log.warning("table %s: could not edit the lobby message: %s", table.id, error)
        finally:
            payload.stop()

    async def open_admitted(self, table: Table) -> None:
        """A started table's opening (``open_thread``) once fewer than ``OPENINGS`` are under way, in the order
        the tables started (the semaphore wakes its waiters first come, first served). The table's later
        announcements wait behind it in its queue (a few seconds in a burst of hundreds); a turn whose prompt is
        still waiting when its time runs out is no miss (``TableService.prompt_pending``)."""
        async with self.openings:
            await self.open_thread(table)

    async def open_thread(self, table: Table) -> None:
        """The table's thread on the lobby message (or the channel itself), and the table message in it.

        The thread's id is stored at once: kept only in this process's copy, a refresh from the store (another
        process wrote the table) would drop it, and the lobby and the table message would go to the channel."""
        if table.thread_id is None and table.channel_id is not None and table.lobby_message_id is not None:
            opened = await self.start_thread(table, table.channel_id, table.lobby_message_id)
            if opened is not None:
                await self.keep(table, partial(setattr, table, "thread_id", opened))
        await self.sync_lobby(table)
        if table.table_message_id is None:
            async with table.lock.in_process():
                # As the table is now: a sync queued behind it may find it shown.
                payload = table_message(table, self.watch_link(table))
            posted = await self.post(table, payload)
            await self.keep(table, partial(setattr, table, "table_message_id", posted))

    async def start_thread(self, table: Table, channel_id: int, lobby_id: int) -> int | None:
        """The thread on the lobby message: its id, None where there can be none (threads not allowed here, no
        permission, Discord down: the game plays in the channel itself)."""
        try:
            data = await self.outbox.attempt(
                lambda: self.client.http.start_thread_with_message(
                    channel_id, lobby_id, name=thread_name(table), auto_archive_duration=1440),
                f"table {table.id}: opening the thread")
            return int(data["id"])
        except (discord.HTTPException, Undelivered) as error:
            if isinstance(error, discord.HTTPException) and error.code == THREAD_EXISTS:
                # Opened before a restart lost its id: a thread started on a message has the message's id.
                return lobby_id
            log.info("table %s: no thread (%s), playing in the channel", table.id, error)
            return None

    async def sync_table_message(self, table: Table) -> None:
        """The table message as the table is now; a deleted one is posted again (and its new id kept)."""
        async with table.lock.in_process():
            payload = table_message(table, self.watch_link(table))
        if table.table_message_id is not None:
            try:
                await self.edit(table, table.table_message_id, payload)
                return
            except discord.NotFound:
                log.info("table %s: the table message was deleted: posting a new one", table.id)
        posted = await self.post(table, payload)
        await self.keep(table, partial(setattr, table, "table_message_id", posted))

    async def sync_prompt(self, table: Table, version: int, ping_turn: bool) -> None:
        """The thread's prompt at ``version``: the bidding buttons for the human to call (older ones lose
        theirs), or, with ``ping_turn``, a turn ping for an in-thread player.

        The bidding prompt's message id and version are stored: after a restart the prompt for the same
        moment is edited in place instead of posted again.
        """
        async with table.lock.in_process():
            if table.version != version:
                return  # a later action was announced, and its sync is queued behind this one
            game = table.game
            seat = game.to_act
            info = table.seats[seat] if seat is not None else None
            human = table.running and seat is not None and info is not None and info.kind is SeatKind.HUMAN \
                and not table.ai_plays(seat)
            bid = ping = None
            # Buttons in the thread: the bidding, and the last trick's claim question (roem: declared).
            if human and info is not None and game.phase is Phase.BIDDING:
                bid = bid_prompt(table, info.user_id)
            elif human and info is not None and game.phase is Phase.CLAIM:
                bid = claim_prompt(table, info.user_id)
            elif human and info is not None and ping_turn:
                ping = show_hand_message(table, "dm.your_turn", info.user_id)
        old = table.prompt_message_id
        if old is not None and not (bid is not None and table.prompt_version == version):
            await self.keep(table, partial(_note_prompt, table, None, None))
            await self.take_buttons_away(table, old)
        delivered = False
        if bid is not None:
            if table.prompt_message_id is not None:
                with contextlib.suppress(discord.NotFound):  # deleted: post it again
                    delivered = await self.edit(table, table.prompt_message_id, bid)
            if not delivered:
                posted = await self.post(table, bid)
                await self.keep(table, partial(_note_prompt, table, posted,
                                                         version if posted is not None else None))
                delivered = posted is not None
        elif ping is not None:
            delivered = await self.post(table, ping) is not None
        if delivered and seat is not None:
            self.service.prompt_delivered(table, seat, version)

    async def sync_hand(self, table: Table, seat: Seat) -> None:
        """The seat's private hand by DM, as the table is now. A closed inbox (50007), or a DM that cannot
        be delivered, moves the hand to the thread's Show my hand button and pings the player there."""
        async with table.lock.in_process():
            info = table.seats[seat]
            if info.kind is not SeatKind.HUMAN or info.user_id is None or info.delivery is not Delivery.DM:
                return
            payload = self.hand_payload(table, seat)
            turn = table.version if table.game.to_act is seat and table.game.phase is Phase.PLAY else None
        try:
            await self.deliver_hand(table, seat, info, info.user_id, payload)
        except (discord.HTTPException, Undelivered) as error:
            if turn is not None:  # this hand was to tell the turn (its announcement may still be on its way)
                self.service.prompt_pending(table, seat, turn)
            if isinstance(error, discord.Forbidden):
                if error.code != DM_CLOSED:
                    log.warning("table %s: cannot DM seat %s: %s", table.id, seat, error)
                await self.hand_to_thread(table, seat, info, "dm.closed")
            else:
                log.warning("table %s: could not deliver the hand of %s: %s", table.id, seat, error)
                await self.hand_to_thread(table, seat, info, "dm.undelivered")
        else:
            if turn is not None:
                self.service.prompt_delivered(table, seat, turn)
        finally:
            payload.stop()

    def watch_link(self, table: Table) -> str | None:
        """The table message's link to the table's public view on the web table, when there is one."""
        return watch_link(self.web, table.id) if self.web is not None else None

    def hand_payload(self, table: Table, seat: Seat) -> Payload:
        """The seat's DM hand as the table is now (the caller holds the table's lock)."""
        guild = self.client.get_guild(table.guild_id) if table.guild_id is not None else None
        user_id = table.seats[seat].user_id
        link = seat_link(self.web, table.id, user_id) if self.web is not None and user_id is not None else None
        return hand_draft(table, access.seat_view(table, seat), guild.name if guild else "",
                          table.private_language(seat), link=link)

    async def deliver_hand(self, table: Table, seat: Seat, info: SeatInfo, user_id: int, payload: Payload) -> None:
        """Edit the hand's DM (unless it shows this already), through the seat's last click while it lasts, or
        send a new one (a first hand, or the old DM deleted)."""
        fingerprint = payload.fingerprint()
        if info.hand_message_id is not None:
            await self.after_answer(info.hand_message_id)
            if self.is_shown(table, info.hand_message_id, fingerprint):
                return
        ready = await self.drawn(payload)
        if info.hand_message_id is not None \
                and await self.edit_through_click(table, info.hand_message_id, ready, fingerprint):
            return
        if info.dm_channel_id is not None and info.hand_message_id is not None:
            message_id = info.hand_message_id
            message = self.client.get_partial_messageable(info.dm_channel_id).get_partial_message(message_id)
            before = self.noted(table, message_id)
            try:
                await self.outbox.attempt(lambda: message.edit(**ready.edit_kwargs()),
                                          f"table {table.id}: editing the hand of {user_id}")
                self.note_sent(table, message_id, before, fingerprint)
                return
            except discord.NotFound:
                pass  # deleted: send a new one
        if info.dm_channel_id is None:
            dm = await self.outbox.attempt(lambda: self.client.create_dm(discord.Object(user_id)),
                                           f"table {table.id}: opening a DM with {user_id}")
            info.dm_channel_id = dm.id
        channel = self.client.get_partial_messageable(info.dm_channel_id)
        sent = await self.outbox.attempt(lambda: channel.send(**ready.send_kwargs()),
                                         f"table {table.id}: sending the hand of {user_id}")
        self.note_sent(table, sent.id, None, fingerprint)
        dm_channel_id = info.dm_channel_id

        def noted() -> None:
            info.dm_channel_id, info.hand_message_id = dm_channel_id, sent.id

        await self.keep(table, noted)

    def clicked_lately(self, table: Table, seat: Seat) -> bool:
        """The seat's DM hand is edited through its player's last click on it (``ClickToken``)."""
        kept = self.tables.get(table.id)
        message_id = table.seats[seat].hand_message_id
        token = kept.tokens.get(message_id) if kept is not None and message_id is not None else None
        return token is not None and asyncio.get_running_loop().time() < token.until

    def remember_click(self, table: Table, message_id: int, interaction: discord.Interaction[Any]) -> None:
        """``interaction`` answered with ``message_id`` (or its update): the message's next edits go through it
        while its token lasts (``ClickToken``)."""
        until = asyncio.get_running_loop().time() + TOKEN_LIFETIME
        self.kept(table).tokens[message_id] = ClickToken(interaction, until)

    def forget_click(self, table: Table, message_id: int) -> None:
        kept = self.tables.get(table.id)
        if kept is not None:
            kept.tokens.pop(message_id, None)

    async def edit_through_click(self, table: Table, message_id: int, ready: Payload,
                                 fingerprint: Hashable | None) -> bool:
        """Edit a message through the latest interaction on it (``ClickToken``); False when there is none (any
        more), or Discord refused it: the caller edits it as a channel message. Raises ``Undelivered``."""
        kept = self.tables.get(table.id)
        token = kept.tokens.get(message_id) if kept is not None else None
        if token is None:
            return False
        if asyncio.get_running_loop().time() >= token.until:
            self.forget_click(table, message_id)
            return False
        before = self.noted(table, message_id)
        try:
            await self.outbox.attempt(lambda: token.interaction.edit_original_response(**ready.edit_kwargs()),
                                      f"table {table.id}: editing message {message_id} through a click")
        except discord.HTTPException as error:
            # Refused (an expired or unknown token: 401, 404): the channel's own edit is tried next. Discord down
            # (``Undelivered``) is not a refusal: the message is undelivered, as any request's failure.
            log.info("table %s: message %s not edited through a click: %s", table.id, message_id, error)
            self.forget_click(table, message_id)
            return False
        self.note_sent(table, message_id, before, fingerprint)
        return True

    async def hand_to_thread(self, table: Table, seat: Seat, info: SeatInfo, key: str) -> None:
        """From now on this seat's hand is shown in the thread; the ping saying so is queued."""
        if table.seats[seat] is not info:
            return  # someone else sits there now
        await self.keep(table, partial(setattr, info, "delivery", Delivery.THREAD))
        self.queue_post(table, show_hand_message(table, key, info.user_id))
