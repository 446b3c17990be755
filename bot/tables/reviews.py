"""Reviews of finished matches: computed after the match, in the AI workers' review lane, and stored.

A match is reviewed once its end is stored (the registry's ``on_end``); at start, finished matches that
have none yet are queued again (``catch_up``), so a restart loses no review. One match is reviewed at a
time, hand by hand (one worker job a hand, a few seconds), in a worker of its own at a lower priority
(``bot.tables.thinking``): play and hints never wait for a review. What the review says of each
decision is ``engine.ai.review``'s; this module only schedules, stores and reports progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol, runtime_checkable

from bot.tables.model import Actor, StoredReview, Table, TableStatus
from bot.tables.thinking import Thinker
from engine.actions import Action
from engine.ai.review_summary import DecisionReview, MatchReview, hand_count, match_summary

log = logging.getLogger(__name__)


@runtime_checkable
class ReviewStore(Protocol):
    """What reviews need from persistence (``bot.store.base.SqlStore`` implements it)."""

    async def load_table(self, table_id: int) -> Table | None: ...

    async def actions(self, table_id: int) -> list[tuple[Action, Actor]]: ...

    async def action_players(self, table_id: int) -> list[int | None]: ...

    async def unreviewed(self) -> list[int]: ...

    async def save_review(self, table_id: int, review: MatchReview) -> None: ...

    async def review_failed(self, table_id: int, hands: int, error: str) -> None: ...

    async def review(self, table_id: int) -> StoredReview | None: ...


class Reviews:
    def __init__(self, store: ReviewStore | None, thinker: Thinker, *, catches_up: bool = True) -> None:
        self.store = store
        self.thinker = thinker
        # At start, review what a stop left unreviewed; of several processes sharing a store, one does
        # (``bot.tables.shared``), each reviews the ends it announces.
        self.catches_up = catches_up
        self._queue: asyncio.Queue[int] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        # Queued or being reviewed: hands done and the match's hands (0, 0 until it starts).
        self._progress: dict[int, tuple[int, int]] = {}

    def request(self, table_id: int) -> None:
        """Review this finished match when the reviews before it are done (once, however often asked)."""
        if self.store is None or table_id in self._progress:
            return
        self._progress[table_id] = (0, 0)
        self._queue.put_nowait(table_id)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="match-reviews")

    async def catch_up(self) -> int:
        """Queue every finished match that has no review (the bot stopped before it was stored)."""
        if self.store is None or not self.catches_up:
            return 0
        waiting = await self.store.unreviewed()
        for table_id in waiting:
            self.request(table_id)
        if waiting:
            log.info("%d finished match(es) queued for review", len(waiting))
        return len(waiting)

    def progress(self, table_id: int) -> tuple[int, int] | None:
        """(hands reviewed, hands) of a match queued or being reviewed; None when it is not waiting."""
        return self._progress.get(table_id)

    async def idle(self, timeout: float = 120.0) -> None:
        """Wait until every queued review is stored (tests)."""
        async with asyncio.timeout(timeout):
            while self._progress:
                await asyncio.sleep(0.01)

    async def close(self) -> None:
        """Stop reviewing; what was not stored yet is reviewed again at the next start (``catch_up``)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while not self._queue.empty():
            table_id = self._queue.get_nowait()
            try:
                await self._review(table_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a bug in one review must not stop the others
                log.exception("review of match %s failed", table_id)
                hands = self._progress.get(table_id, (0, 0))[1]
                try:
                    assert self.store is not None
                    await self.store.review_failed(table_id, hands, f"{type(error).__name__}: {error}")
                except Exception:
                    log.exception("could not store the failed review of match %s", table_id)
            finally:
                self._progress.pop(table_id, None)

    async def _review(self, table_id: int) -> None:
        store = self.store
        assert store is not None
        table = await store.load_table(table_id)
        if table is None or table.status is not TableStatus.FINISHED:
            return
        actions = [action for action, _ in await store.actions(table_id)]
        players = await store.action_players(table_id)
        total = hand_count(actions)
        self._progress[table_id] = (0, total)
        decisions: list[DecisionReview] = []
        if any(player is not None for player in players):
            for hand in range(total):
                decisions += await self.thinker.review(table.rules, actions, players, table.seed, hand)
                self._progress[table_id] = (hand + 1, total)
        await store.save_review(table_id, match_summary(table.rules, actions, players, decisions))
        log.info("match %s reviewed: %d decisions", table_id, len(decisions))
