"""One WebSocket's session and the hub that feeds them all.

The hub subscribes to the table service once and keeps the open sessions by table. At every change of a table
it hands each of that table's sessions the public happenings and a fresh state, built then (under the table's
lock, so every session sees the state of that change): a seat's from its own ``SeatView``, as ``bot.access``
allows it at that moment, an onlooker's from the ``PublicView``. What every viewer of the change sees (the
happenings, the table and the public view) is built and encoded once per change (``Change``); each seat adds only
its own side. A session whose person no longer sits at the table (they left, another account) gets an error and is
closed: a seat token opens a seat only while it is theirs. With several processes sharing the store, a table another
process owns comes as the service's ``CopyChanged`` (this process's copy moved on): its sessions are fed from it
alike, so a page may connect to any process.

A session acts through the same service calls as the chat's buttons, with the version of the state it showed, so
a browser click and a chat click on the same turn are applied once and the other is refused as stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot import access
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.events import CopyChanged, GameProgress, ServiceEvent, TableRestored
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.texts.catalog import TEXTS, card_label, error_text, illegal_text, rank_letters, seat_name, suit_name, t
from bot.texts.labels import names_of
from bot.texts.language import Language
from bot.web.config import WebConfig
from bot.web.frames import Frame, encode, encoded_event, encoded_state, seat_part, service_events, shared_view
from bot.web.instances import InstanceGuard, InstanceRefused
from bot.web.limits import RateLimit
from bot.web.tokens import MalformedToken, TokenError, TokenKind, verify
from engine.actions import Call
from engine.cards import DECK, RANKS, SEATS, SUITS, Card, Seat
from engine.errors import IllegalActionError, KlaverjasError, ParseError

log = logging.getLogger(__name__)

Send = Callable[[str], Awaitable[None]]
Close = Callable[[int], Awaitable[None]]

CLOSE_REVOKED = 4003  # the seat is no longer the person's
CLOSE_ABUSE = 4008  # far over the rate limit, or too slow to take its frames
CLOSE_NO_HELLO = 4001  # no successful hello in time
CLOSE_NOT_HERE = 4004  # the Activity's instance does not run in that channel, or not with this person
CLOSE_TRY_LATER = 1013  # Discord could not say where the Activity runs: the page tries again after a pause
CLOSE_GOING_AWAY = 1001  # the server stops (a restart): the page reconnects to the next one

# The catalog texts the page shows, sent in the person's language with the welcome (the page holds no catalog).
PAGE_TEXTS = ("button.pass", "button.play", "button.roem", "button.no_roem", "button.back", "web.your_turn",
              "web.waiting", "web.watching", "web.hint", "web.we", "web.they", "web.trick_won", "web.nat", "web.pit",
              "web.match_over", "web.draw", "web.away", "web.reconnecting", "web.points", "web.roem", "web.trump",
              "web.dealer", "web.score_sheet", "web.turned", "web.lobby", "web.stopped", "web.claim_question",
              "button.previous", "button.next")


def page_texts(lang: Language) -> dict[str, str]:
    """The page's texts as templates: ``{name}`` and the like are the page's to fill in."""
    texts = {key: TEXTS[key][1 if lang is Language.NL else 0] for key in PAGE_TEXTS}
    texts.update({f"seat.{seat}": seat_name(seat, lang) for seat in SEATS})
    texts.update({f"suit.{suit}": suit_name(suit, lang) for suit in SUITS})
    # Each card's letters and accessible name as the chat writes them ("B♥ — harten boer"), each rank's letter.
    texts.update({f"card.{card}": card_label(card, lang) for card in DECK})
    texts.update({f"rank.{rank.letter}": letter for rank, letter in zip(RANKS, rank_letters(lang), strict=True)})
    return texts


def person_language(table: Table, person: int | None) -> Language:
    """The language a person's page speaks at a table: their seat's private one, else the table's."""
    seat = table.seat_of(person) if person is not None else None
    return table.private_language(seat) if seat is not None else table.settings.language


def refusal_text(error: ServiceError | KlaverjasError, lang: Language, table: Table | None) -> str:
    """Why the service or the engine refused, in the person's words (as the chat says it)."""
    if isinstance(error, ServiceError):
        params = {key: value.letter if isinstance(value, Seat) else value for key, value in error.params.items()}
        return error_text(error.code, params, lang)
    if isinstance(error, IllegalActionError):
        extra: dict[str, str] = {}
        if table is not None and "seat" in error.params:
            with contextlib.suppress(ParseError):
                extra["name"] = names_of(table, lang)[Seat.parse(error.params["seat"])]
        return illegal_text(error, lang, **extra)
    return t("error.illegal", lang, reason=str(error))


def error_frame(code: str, lang: Language, **params: Any) -> Frame:
    """A refusal of the socket's own (a bad frame, a token): ``web.error.<code>`` in the catalog."""
    return {"type": "error", "code": code, "message": t(f"web.error.{code}", lang, **params)}


class Change:
    """A table's state at one change as its sessions are sent it: the happenings and what every viewer sees, encoded
    once (when first asked for) for all of them."""

    def __init__(self, table: Table, deadline: float | None, events: list[Frame] | None = None) -> None:
        self.table = table
        self.version = table.version
        self.deadline = deadline
        self.events = [encode(event) for event in events or ()]

    @functools.cached_property
    def shared(self) -> str:
        """``frames.shared_view`` of the change, encoded."""
        return encode(shared_view(self.table, self.table.public_view(), self.deadline))


class WebHub:
    """Every open session, by table; hears the service and feeds them."""

    def __init__(self, service: TableService, config: WebConfig, instances: InstanceGuard | None = None) -> None:
        self.service = service
        self.config = config
        self.instances = instances  # where an Activity runs; without it no Activity hello is taken
        self.sessions: dict[int, set[Session]] = {}
        self._changed: dict[int, float] = {}  # table id -> wall clock of its last action (the turn clock's start)
        service.subscribe(self.on_event)

    def attach(self, session: Session, table_id: int) -> None:
        self.sessions.setdefault(table_id, set()).add(session)

    def detach(self, session: Session, table_id: int) -> None:
        found = self.sessions.get(table_id)
        if found is not None:
            found.discard(session)
            if not found:
                del self.sessions[table_id]

    @property
    def count(self) -> int:
        return sum(len(s) for s in self.sessions.values())

    def deadline(self, table: Table) -> float | None:
        """When the turn of the seat to act runs out (unix seconds): a person's turn at a table with a clock."""
        seat = table.game.to_act
        if not table.running or seat is None or table.ai_plays(seat) or table.tournament_id is not None:
            return None
        return self._changed.get(table.id, time.time()) + self.service.driver.config.turn_time

    async def on_event(self, event: ServiceEvent) -> None:
        table = event.table
        # A table another process owns comes as a ``CopyChanged``: its page is fed here all the same, whichever
        # process it connected to.
        happened = event.events if isinstance(event, CopyChanged) else (event,)
        if any(isinstance(one, GameProgress | TableRestored) for one in happened):
            self._changed[table.id] = time.time()
        if table.closed:
            self._changed.pop(table.id, None)
        sessions = self.sessions.get(table.id)
        if not sessions:
            return
        change = Change(table, self.deadline(table), [frame for one in happened for frame in service_events(one)])
        for session in list(sessions):
            session.table_changed(change)


class Session:
    """One socket: before ``hello`` nobody; then a person at a seat, or an onlooker, at one table."""

    def __init__(self, hub: WebHub, send: Send, close: Close) -> None:
        self.hub = hub
        self.config = hub.config
        self.service = hub.service
        self._send = send
        self._close = close
        self.lang = Language.EN
        self.person: int | None = None
        self.table_id: int | None = None
        self.watching = False
        self.seq = 0
        self.limit = RateLimit(self.config.frames_per_second, self.config.frame_burst)
        self.closed = False
        self._queue: asyncio.Queue[Frame | str | None] = asyncio.Queue()  # a frame, or one already encoded
        self._sender = asyncio.get_running_loop().create_task(self._drain(), name="web-session")
        self._closing: asyncio.Task[None] | None = None  # kept: a task nobody holds may be collected

    # ------------------------------------------------------------ sending

    def push(self, frame: Frame | str) -> None:
        """Queue a frame (or its ``frames.encode``) for the socket; a client that lets ``queue_limit`` frames pile up
        is cut off."""
        if self.closed:
            return
        if self._queue.qsize() >= self.config.queue_limit:
            log.info("web session of %s at table %s too slow: closed", self.person, self.table_id)
            self.end(CLOSE_ABUSE)
            return
        self._queue.put_nowait(frame)

    async def _drain(self) -> None:
        while True:
            frame = await self._queue.get()
            if frame is None:
                return
            try:
                await self._send(frame if isinstance(frame, str) else encode(frame))
            except (ConnectionError, RuntimeError):
                self.closed = True
                return

    def end(self, code: int) -> None:
        """Send what is queued, then close the socket with ``code``."""
        if self.closed:
            return
        self.closed = True
        self._leave_table()
        self._queue.put_nowait(None)
        self._closing = asyncio.get_running_loop().create_task(self._close_after_drain(code), name="web-close")

    async def _close_after_drain(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self._sender
            await self._close(code)

    async def ended(self) -> None:
        """Wait until the close that ``end`` started is done (the page answered it, or gave up)."""
        if self._closing is not None:
            # wait(), not await: the close ends cancelled when the socket went first, and that is no error here.
            await asyncio.wait({self._closing})

    def end_unless_welcomed(self) -> None:
        if self.table_id is None:
            self.end(CLOSE_NO_HELLO)

    async def finish(self) -> None:
        """The socket closed: stop feeding it."""
        self.closed = True
        self._leave_table()
        self._sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._sender

    def _leave_table(self) -> None:
        if self.table_id is not None:
            self.hub.detach(self, self.table_id)

    def error(self, code: str, **params: Any) -> None:
        self.push(error_frame(code, self.lang, **params))

    # ------------------------------------------------------------ the table's changes

    def _own_side(self, table: Table) -> tuple[bool, Frame | None]:
        """Whether the session may still see the table as it does, and its own side of the state now
        (``frames.seat_part``; None for an onlooker). A seat no longer its person's is not (revoked)."""
        if self.watching:
            return True, None
        assert self.person is not None
        seen = access.private_view(table, self.person)
        return (False, None) if seen is None else (True, seat_part(seen[1]))

    def table_changed(self, change: Change) -> None:
        allowed, me = self._own_side(change.table)
        if not allowed:
            self.revoke()
            return
        for event in change.events:
            self.seq += 1
            self.push(encoded_event(self.seq, event))
        self.push(encoded_state(self.seq, change.version, change.shared, me))

    def revoke(self) -> None:
        self.push({"type": "error", "code": ServiceErrorCode.NOT_SEATED.value,
                   "message": error_text(ServiceErrorCode.NOT_SEATED, {}, self.lang)})
        self.end(CLOSE_REVOKED)

    def resync(self) -> None:
        table = self._table()
        if table is None:
            return
        allowed, me = self._own_side(table)
        if not allowed:
            self.revoke()
        else:
            self.push(encoded_state(self.seq, table.version, Change(table, self.hub.deadline(table)).shared, me))

    def _table(self) -> Table | None:
        table = self.service.table_in_memory(self.table_id) if self.table_id is not None else None
        if table is None:
            self.push({"type": "error", "code": ServiceErrorCode.NO_TABLE.value,
                       "message": error_text(ServiceErrorCode.NO_TABLE, {"table": self.table_id}, self.lang)})
        return table

    # ------------------------------------------------------------ frames from the page

    async def receive(self, data: str | bytes) -> None:
        """One frame from the page. Anything wrong with it is answered with an error frame; nothing changes."""
        if self.closed:
            return
        if not self.limit.allow():
            if self.limit.refused > 10 * self.config.frame_burst:
                self.end(CLOSE_ABUSE)
            elif self.limit.refused == 1 or self.limit.refused % self.config.frame_burst == 0:
                self.error("rate_limited")
            return
        if isinstance(data, bytes):
            self.error("bad_frame")
            return
        if len(data.encode("utf-8", "replace")) > self.config.max_frame:
            self.error("too_big", limit=self.config.max_frame)
            return
        try:
            frame = json.loads(data)
        except ValueError:
            self.error("bad_frame")
            return
        kind = frame.get("type") if isinstance(frame, dict) else None
        if not isinstance(kind, str):
            self.error("bad_frame")
            return
        if kind == "ping":
            self.push({"type": "pong"})
            return
        if kind == "hello":
            await self.hello(frame)
            return
        if self.table_id is None:
            self.error("hello_first")
            return
        handler = {"act": self._act, "claim": self._claim, "decline": self._decline, "hint": self._hint,
                   "back": self._back}.get(kind)
        if handler is None:
            self.error("bad_frame")
            return
        if self.watching:
            self.error("watching")
            return
        table = self._table()
        if table is None:
            return
        try:
            await handler(table, frame)
        except ParseError:  # not a card, a call or a version: the frame, not the move, is wrong
            self.error("bad_frame")
        except (ServiceError, KlaverjasError) as error:
            code = error.code.value if isinstance(error, ServiceError) else str(getattr(error, "code", "illegal"))
            self.push({"type": "error", "code": code, "message": refusal_text(error, self.lang, table)})
            if isinstance(error, ServiceError) and error.code is ServiceErrorCode.STALE:
                self.resync()  # the page showed an old state: the new one, as a stale chat button gets a fresh hand

    @staticmethod
    def _version(frame: dict[str, Any]) -> int:
        version = frame.get("version")
        if type(version) is not int:
            raise ParseError("version must be a whole number")
        return version

    async def _act(self, table: Table, frame: dict[str, Any]) -> None:
        assert self.person is not None
        version = self._version(frame)
        card, call = frame.get("card"), frame.get("call")
        action: Card | Call
        if isinstance(card, str) and call is None:
            action = Card.parse(card)
        elif isinstance(call, str) and card is None:
            action = Call.parse(call)
        else:
            raise ParseError("an act names a card or a call")
        await self.service.act(table.id, self.person, action, version)

    async def _claim(self, table: Table, frame: dict[str, Any]) -> None:
        assert self.person is not None
        await self.service.claim(table.id, self.person, self._version(frame))

    async def _decline(self, table: Table, frame: dict[str, Any]) -> None:
        assert self.person is not None
        await self.service.decline(table.id, self.person, self._version(frame))

    async def _back(self, table: Table, frame: dict[str, Any]) -> None:
        assert self.person is not None
        await self.service.back(table.id, self.person)

    async def _hint(self, table: Table, frame: dict[str, Any]) -> None:
        assert self.person is not None
        view = self.service.hint_view(table.id, self.person)
        choice, text = await self.service.driver.thinker.hint_with_choice(view, self.lang)
        # The card to mark in the hand (a hint in the bidding names a call instead).
        self.push({"type": "hint", "card": str(choice) if isinstance(choice, Card) else None,
                   "call": str(choice) if isinstance(choice, Call) else None, "text": text})

    # ------------------------------------------------------------ hello

    async def hello(self, frame: dict[str, Any]) -> None:
        """Who this is and which table: a seat token; a session token and the Activity instance it runs in (whose
        channel Discord tells); or a watch token (a table's public view). Answered with a welcome and a fresh state
        (also on a reconnect)."""
        table, person = await self._find(frame)
        if table is None:
            return
        self._leave_table()
        self.person = person
        seat = table.seat_of(person) if person is not None else None
        self.watching = seat is None
        self.table_id = table.id
        self.lang = person_language(table, person)
        self.hub.attach(self, table.id)
        names = {str(s): name for s, name in names_of(table, self.lang).items()}
        self.push({"type": "welcome", "seat": str(seat) if seat is not None else None, "lang": self.lang.value,
                   "table": table.id, "names": names, "texts": page_texts(self.lang)})
        self.resync()

    async def _find(self, frame: dict[str, Any]) -> tuple[Table | None, int | None]:
        secret = self.config.secret
        token = frame.get("token")
        watch = frame.get("watch")
        try:
            if token is None and watch is not None:
                # A watch token opens the public view only: the session has no person, so never a seat's view.
                found = verify(secret, watch, TokenKind.WATCH)
                if found.table is None:
                    raise MalformedToken("a watch token names its table")
                table = await self._table_by_id(found.table)
                if table is None:
                    self._no_table(found.table)
                return table, None
            if "instance_id" in frame or "channel_id" in frame:
                found = verify(secret, token, TokenKind.SESSION)
                channel = await self._activity_channel(frame, found.person)
                if channel is None:
                    return None, None
                table = self.service.table_in_channel(channel) or self.service.lobby_in_channel(channel)
                if table is not None:
                    table = await self._table_by_id(table.id)
                if table is None:
                    self.push({"type": "error", "code": ServiceErrorCode.NO_TABLE_HERE.value,
                               "message": error_text(ServiceErrorCode.NO_TABLE_HERE, {}, self.lang)})
                return table, found.person
            found = verify(secret, token, TokenKind.SEAT)
        except TokenError as error:
            self.error(error.code)
            return None, None
        assert found.table is not None
        table = await self._table_by_id(found.table)
        if table is None:
            self._no_table(found.table)
            return None, None
        if access.private_seat(table, found.person) is None:  # left the seat: the link opens nothing any more
            self.push({"type": "error", "code": ServiceErrorCode.NOT_SEATED.value,
                       "message": error_text(ServiceErrorCode.NOT_SEATED, {}, self.lang)})
            return None, None
        return table, found.person

    async def _activity_channel(self, frame: dict[str, Any], person: int) -> int | None:
        """The channel the person's Activity instance runs in, as Discord says it (never the page's word alone);
        None, with an error frame and the socket closed, when the instance is not theirs or not there."""
        try:
            if self.hub.instances is None:
                raise InstanceRefused("activity_off")
            return await self.hub.instances.channel_for(frame.get("instance_id"), person, frame.get("channel_id"))
        except InstanceRefused as refused:
            self.error(refused.code)
            self.end(CLOSE_TRY_LATER if refused.retry else CLOSE_NOT_HERE)
            return None

    async def _table_by_id(self, table_id: int) -> Table | None:
        """The table a token names, as the store has it now: another process sharing the store may have changed
        it (or opened it) a moment ago, before this one heard (``TableService.up_to_date``)."""
        return await self.service.up_to_date(table_id)

    def _no_table(self, table_id: int) -> None:
        self.push({"type": "error", "code": ServiceErrorCode.NO_TABLE.value,
                   "message": error_text(ServiceErrorCode.NO_TABLE, {"table": table_id}, self.lang)})
