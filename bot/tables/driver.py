"""What happens at a table without a click: deals and turned suits, AI turns, AI roem claims, the turn
timer that reminds a human and then lets the AI play for them, and the timers of a table's life: a
lobby nobody starts expires, a table nobody plays at in person any more waits for someone to come back and
then ends, and a finished or stopped table leaves memory a while after its end.

One task per table, started afresh for every new state (``schedule``). Chance and AI choices are
seeded by the table's seed and the position only, so a restarted bot plays on identically. Chance depends on
the hand and the draw within it (``chance_rng``), not on what was played before: every table with one seed
gets the same deals, first dealer and turned suits in the same seats (a tournament's tables share a seed). An
AI decision is seeded by the table's seed and what the seat sees (``engine.ai.players.situation_seed``), so
equal situations get equal answers; at a tournament table the strong player also runs on its node budget
alone (no time cap), so the answer does not depend on the machine's load either.

A tournament table has no turn timer (each participant plays at their own pace). A table on ``autoplay``
(a tournament closed before it finished) is played to its end by the AI in every seat without pauses, with
the normal level in a thread of this process, so it does not queue behind other tables' moves.

A turn counts as missed only if its prompt reached the player. A front end that announces turns says so
(``prompt_pending`` when it queues a turn's prompt, ``prompt_delivered`` once Discord took it); a turn
still pending at expiry (Discord failed, or the prompt was still on its way) is played by the AI so the
game goes on, but it is neither a miss nor a step towards away. Without such a front end every expired
turn counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.tables.events import (
    LobbyExpired,
    SeatAway,
    SeatChange,
    SeatChanged,
    TablePaused,
    TableStopped,
    TurnReminder,
)
from bot.tables.model import Actor, SeatInfo, SeatKind, Table, TableStatus
from bot.tables.registry import TableRegistry
from bot.tables.thinking import Thinker, choose_action
from engine.actions import Action, Choice, Claim, Decline, TurnUp
from engine.ai.claims import claim_for
from engine.ai.players import Level, situation_seed
from engine.cards import SEATS, Seat
from engine.errors import IllegalActionError
from engine.game import Phase, random_deal
from engine.view import SeatView

log = logging.getLogger(__name__)

MISSES_BEFORE_AWAY = 2

ChooseFn = Callable[[Level, int, SeatView], Choice]


@dataclass
class ServiceConfig:
    ai_pause: float = 1.0  # seconds before an AI acts, so people can follow
    deal_pause: float = 2.0  # seconds between a hand's end and the next deal
    turn_time: float = 120.0  # seconds a human has for a turn; reminded at half time
    lobby_timeout: float = 1800.0  # seconds a lobby waits for its host to start it
    # Seconds a finished or stopped table stays in memory, for the clicks and messages still under way
    # about it (the store keeps it; a rematch reads it from there).
    retire_after: float = 60.0
    hint_cooldown: float = 10.0  # seconds between two hints for the same person
    hint_queue: int = 8  # hints waiting for the hint worker at most; more are refused until it catches up
    # Seconds a table nobody plays at in person any more (``Table.deserted``) waits, without a move, for someone to
    # take a seat or come back, before it ends as a stopped table.
    deserted_grace: float = 300.0
    reviews: bool = True  # review finished matches (bot.tables.reviews); off where only play is measured
    # Tables one person may host at once, in the lobby or being played (tournament tables aside): each is work for
    # the AI players, the store and Discord, so one person cannot open a table in every channel.
    tables_per_host: int = 3


class TableDriver:
    def __init__(self, registry: TableRegistry, config: ServiceConfig, thinker: Thinker,
                 choose: ChooseFn | None = None, choose_on_loop: bool = False) -> None:
        self.registry = registry
        self.config = config
        self.thinker = thinker
        self.choose = choose  # a replacement chooser (tests), run in a thread; else the thinker decides
        # ``choose`` takes no time: called on the event loop, without a thread's hand-overs for every AI move.
        self.choose_on_loop = choose_on_loop
        self._closed = False

    # ------------------------------------------------------------ tasks

    def schedule(self, table: Table) -> None:
        """(Re)start the table's task for the state it is in now: a lobby's expiry, the next step of a
        game, or the eviction of a finished or stopped table."""
        if self._closed:
            return
        current = asyncio.current_task()
        old = table.task
        if old is not None and old is not current and not old.done() and not table.task_locked:
            old.cancel()
        if table.status in (TableStatus.LOBBY, TableStatus.PLAYING) and not self.registry.owns(table):
            table.task = None  # another process plays it; only a table that is over leaves memory here too
            return
        # What to run is chosen now, for this state; it starts only inside the task (a task cancelled
        # before it ran leaves no coroutine behind).
        step: Callable[[], Awaitable[None]]
        if table.status is TableStatus.LOBBY:
            step = functools.partial(self._expire_lobby, table)
        elif table.running:
            step = functools.partial(self._step, table, table.version)
        else:
            step = functools.partial(self._retire, table)
        table.task = asyncio.get_running_loop().create_task(self._guarded(table, step), name=f"table-{table.id}")

    async def close(self) -> None:
        """Stop every driver task (the store keeps everything needed to continue)."""
        self._closed = True
        tasks = [t.task for t in self.registry.tables.values() if t.task is not None and not t.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until no table has a driver that is about to act (tests use this)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            busy = [t for t in self.registry.tables.values() if t.lock.locked() or (
                t.task is not None and not t.task.done() and self._will_act(t))]
            if not busy:
                return
            if loop.time() > deadline:
                raise TimeoutError("tables still busy: " + ", ".join(str(t.id) for t in busy))
            await asyncio.sleep(0.01)

    def _will_act(self, table: Table) -> bool:
        game = table.game
        if not table.running or table.deserted:
            return False  # over, or waiting for someone to come back
        if game.phase in (Phase.DEAL, Phase.TURN_UP) or self._pending_ai_claim(table) is not None:
            return True
        return game.to_act is not None and table.ai_plays(game.to_act)

    # ------------------------------------------------------------ did the turn reach the player?

    @staticmethod
    def prompt_pending(table: Table, seat: Seat, version: int) -> bool:
        """The front end is telling ``seat`` it is their turn at ``version`` (a turn already told stays so).
        False when that turn was already being told: the prompt on its way, or delivered."""
        if table.turn_prompts.get(seat, (None, False))[0] == version:
            return False
        table.turn_prompts[seat] = (version, False)
        return True

    @staticmethod
    def prompt_delivered(table: Table, seat: Seat, version: int) -> None:
        """The prompt of ``seat``'s turn at ``version`` reached them (a later turn's pending mark stays; an
        earlier one goes: the hand, synced as the table already was, may tell a turn before its announcement)."""
        if table.turn_prompts.get(seat, (version, False))[0] <= version:
            table.turn_prompts[seat] = (version, True)

    @staticmethod
    def _prompt_missing(table: Table, seat: Seat, version: int) -> bool:
        return table.turn_prompts.get(seat) == (version, False)

    # ------------------------------------------------------------ one step per state

    async def _guarded(self, table: Table, step: Callable[[], Awaitable[None]]) -> None:
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: driver failed", table.id)

    # ------------------------------------------------------------ a table's life

    async def _expire_lobby(self, table: Table) -> None:
        """Close the lobby once it has waited ``lobby_timeout`` since it opened (also across restarts)."""
        await asyncio.sleep(max(0.0, table.opened_at + self.config.lobby_timeout - time.time()))
        async with table.lock:
            if table.status is not TableStatus.LOBBY:
                return
            table.task_locked = True
            try:
                table.status = TableStatus.STOPPED
                await self.registry.save(table)
                await self.registry.emit(LobbyExpired(table))
            finally:
                table.task_locked = False
            self.schedule(table)

    async def _retire(self, table: Table) -> None:
        await asyncio.sleep(self.config.retire_after)
        self.registry.evict(table)

    async def _step(self, table: Table, version: int) -> None:
        game = table.game
        claimer = self._pending_ai_claim(table)
        if table.deserted:
            await self._end_deserted(table, version)
        elif claimer is not None:
            await self._pause(table, self.config.ai_pause)
            await self._apply(table, version, claimer, Claim(claimer), Actor.AI)
        elif game.phase is Phase.OVER:
            return
        elif game.phase is Phase.DEAL:
            await self._deal(table, version)
        elif game.phase is Phase.TURN_UP:
            await self._turn_up(table, version)
        else:
            seat = game.to_act
            assert seat is not None
            if table.ai_plays(seat):
                await self._ai_turn(table, version, seat)
            elif table.tournament_id is None:
                await self._timed_turn(table, version, seat)
            # else: a tournament participant's turn waits for them, however long they take

    async def _end_deserted(self, table: Table, version: int) -> None:
        """Nobody plays at the table in person (``Table.deserted``): it says so (once a pause) and nothing is played
        for ``deserted_grace`` seconds, in which a seat taken or "I'm back" schedules the driver afresh; then the
        table ends as a stopped one (by nobody), its record as far as it got, with a note."""
        async with table.lock:
            if table.version != version or not table.running:
                return
            if not table.deserted:
                self.schedule(table)  # someone came back meanwhile (another process's change, read in with the lock)
                return
            if table.paused_at != version:
                table.paused_at = version
                await self.registry.emit(TablePaused(table, self.config.deserted_grace))
        await asyncio.sleep(self.config.deserted_grace)
        async with table.lock:
            if table.version != version or not table.running:
                return
            if table.deserted:
                table.task_locked = True
                try:
                    # Those still seated, away, let the match go: abandoned for them, as for someone who stops it (an
                    # away player could otherwise turn a match going wrong into one without a result).
                    table.stop_votes.update(info.user_id for _, info in table.humans() if info.user_id is not None)
                    table.status = TableStatus.STOPPED
                    await self.registry.save(table)
                    await self.registry.emit(TableStopped(table, None, deserted=True))
                finally:
                    table.task_locked = False
            self.schedule(table)  # its retirement; or, someone is back, the next move

    @staticmethod
    async def _pause(table: Table, seconds: float) -> None:
        """The pause that lets people follow; none on autoplay (nobody is waiting to see it)."""
        await asyncio.sleep(0 if table.autoplay else seconds)

    def _pending_ai_claim(self, table: Table) -> Seat | None:
        """Declared roem: the first seat an AI plays whose team the engine says is owed roem (``claim_for``)."""
        if not table.game.can_claim():
            return None
        for seat in SEATS:
            if table.ai_plays(seat) and claim_for(table.view(seat)) is not None:
                return seat
        return None

    async def _deal(self, table: Table, version: int) -> None:
        game = table.game
        await self._pause(table, self.config.deal_pause if game.hands else 0)
        async with table.lock:
            if table.version != version or not table.running:
                return
            table.task_locked = True
            try:
                await self._seat_reserved_takers(table)
            finally:
                table.task_locked = False
        following = game.next_dealer
        rng = chance_rng(table)
        dealer = following if following is not None else SEATS[rng.randrange(4)]
        await self._apply(table, version, None, random_deal(rng, dealer), Actor.CHANCE)

    async def _seat_reserved_takers(self, table: Table) -> None:
        """Between hands: the reserved AI seats go to the people who asked for them. Caller holds the lock."""
        taken = [seat for seat in SEATS if table.seats[seat].kind is SeatKind.AI
                 and table.seats[seat].pending_user_id is not None]
        if not taken:
            return
        for seat in taken:
            table.hand_over_pending(seat)
        await self.registry.save(table)
        for seat in taken:
            await self.registry.emit(SeatChanged(table, seat, SeatChange.TOOK_OVER, table.seats[seat].user_id))

    async def _turn_up(self, table: Table, version: int) -> None:
        suits = table.game.turnable_suits()
        rng = chance_rng(table)
        await self._apply(table, version, None, TurnUp(suits[rng.randrange(len(suits))]), Actor.CHANCE)

    async def _ai_turn(self, table: Table, version: int, seat: Seat) -> None:
        await self._pause(table, self.config.ai_pause)
        choice = await self._think(table, seat, version)
        await self._apply(table, version, seat, choice, Actor.AI)

    async def _timed_turn(self, table: Table, version: int, seat: Seat) -> None:
        """A human's turn: remind at half time, let the AI play it at expiry."""
        info = table.seats[seat]
        await asyncio.sleep(self.config.turn_time / 2)
        if table.version != version or not table.running:
            return
        assert info.user_id is not None
        await self.registry.emit(TurnReminder(table, seat, info.user_id))
        await asyncio.sleep(self.config.turn_time / 2)
        if table.version != version or not table.running:
            return
        # The last trick's claim question is the player's to answer: the AI would claim what it counts in the
        # trick, so waiting out the clock would spot the roem for them. Unanswered, it is let go.
        choice = Decline(seat) if table.game.phase is Phase.CLAIM else await self._think(table, seat, version)
        async with table.lock:
            if table.version != version or not table.running or table.seats[seat] is not info:
                return
            table.task_locked = True
            try:
                await self._play_for(table, seat, info, choice, version)
            finally:
                table.task_locked = False
            self.schedule(table)

    async def _play_for(self, table: Table, seat: Seat, info: SeatInfo, choice: Choice, version: int) -> None:
        """The timer plays a human's turn; after too many misses in a row the AI keeps the seat. A turn whose
        prompt never reached the player is played too, but not counted."""
        assert info.user_id is not None
        went_away = False
        if self._prompt_missing(table, seat, version):
            log.info("table %s: seat %s never got the prompt of turn %s: not a missed turn", table.id, seat, version)
        else:
            info.misses += 1
            went_away = info.misses >= MISSES_BEFORE_AWAY
        if went_away:
            info.away = True
        await self.registry.save(table)
        await self.registry.apply(table, seat, choice, Actor.TIMER, info.user_id)
        if went_away:
            await self.registry.emit(SeatAway(table, seat, info.user_id))

    async def _think(self, table: Table, seat: Seat, version: int) -> Choice:
        view = table.view(seat)
        level = table.seats[seat].ai_level if table.seats[seat].kind is SeatKind.AI else Level.HARD
        seed = situation_seed(table.seed, view)
        if table.autoplay:
            # Fast, and off the AI workers: a closing tournament's tables must not delay anyone's game.
            return await asyncio.to_thread(choose_action, Level.NORMAL, seed, view, False)
        # Thinking may take a while (PIMC): never on the event loop, in a worker process when configured.
        if self.choose is not None:
            if self.choose_on_loop:
                return self.choose(level, seed, view)
            return await asyncio.to_thread(self.choose, level, seed, view)
        return await self.thinker.choose(level, seed, view, table.tournament_id is None)

    async def _apply(self, table: Table, version: int, seat: Seat | None, action: Action, actor: Actor) -> None:
        async with table.lock:
            if table.version != version or not table.running:
                return  # someone acted meanwhile; a newer driver handles the new state
            table.task_locked = True
            try:
                try:
                    await self.registry.apply(table, seat, action, actor, None)
                except IllegalActionError:
                    log.exception("table %s: the AI chose an illegal action %r", table.id, action)
                    legal = table.game.legal_actions()
                    if not legal:
                        raise
                    await self.registry.apply(table, seat, legal[0], actor, None)
            finally:
                table.task_locked = False
            self.schedule(table)


def chance_rng(table: Table) -> random.Random:
    """The generator of the table's next chance action. A hand's deal (with, in the first hand, the first dealer)
    is its draw 0 and each turned suit the next draw: chance depends on the seed, the hand and the draw only,
    never on the bids and cards before, so tables with one seed get one sequence of deals and turned suits.
    Stable across restarts (stored actions are replayed, never drawn again)."""
    game = table.game
    hand = game.hand if game.phase is not Phase.DEAL else None
    draw = 0 if hand is None else 1 + len(hand.turned)
    return random.Random(f"{table.seed}:{game.hand_number}:{draw}")
