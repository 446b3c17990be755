"""What the announcer has to tell Discord, one ordered queue per table, sent outside the table's lock.

The announcer queues jobs while the service still holds the table's lock, so a table's queue has the
order of its actions, and returns at once; one consumer task per table runs the jobs in that order and
ends when the queue is empty. A job that edits one message carries a key: a newer job with the same key
replaces a queued older one (and takes the newer place), so only the newest table image or hand of a
seat is sent.

Every Discord request goes through ``Outbox.attempt``: a bounded time per try, and a few tries with a
backoff on what may pass (5xx, 429, timeouts, broken connections) and discord.py did not try again already
(``RETRIED_BY_DISCORD``): each failure is retried by one layer only. A job that still fails raises
``Undelivered``; it is set aside and run again at the table's next action or a while later, whichever
comes first (a few times at most), or one last time when the table is retired. Refusals that will not
pass (403, 404, 400) are the job's to handle and are never retried: Discord bans bots that repeat
invalid requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import TypeVar

import aiohttp
import discord

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class DeliveryConfig:
    request_timeout: float = 20.0  # seconds one Discord request may take, however Discord stalls
    attempts: int = 3  # tries of one request when the failure may pass (and discord.py did not retry it)
    backoff: tuple[float, ...] = (1.0, 4.0)  # seconds before the 2nd, 3rd ... try (the last one repeats)
    max_retry_after: float = 30.0  # the longest a 429's retry_after is waited for
    later_rounds: int = 3  # how many more times a failed job is tried, after its tries above
    later_delay: float = 15.0  # seconds before failed jobs go again when no action of the table comes first
    forbidden_pause: float = 300.0  # seconds without posting in a channel after a 403 there


# What discord.py's HTTPClient.request already sends five times, waiting between tries: these answers of Discord's
# and a connection reset (errno 54, 10054). Tried again here, a request would go out fifteen times.
RETRIED_BY_DISCORD = frozenset({500, 502, 504, 524})
RESET_RETRIED_BY_DISCORD = frozenset({54, 10054})


class Undelivered(Exception):
    """Discord did not take a request after every try; the job may be run again later."""


@dataclass(eq=False)
class Job:
    run: Callable[[], Awaitable[object]]
    key: Hashable | None = None  # jobs with one key edit one message: only the newest queued one runs
    rounds: int = 0  # times it was set aside after failing


@dataclass(eq=False)
class _Lane:
    """One table's jobs: a lane exists while it has work (queued or set aside)."""

    queue: deque[Job] = field(default_factory=deque)
    parked: list[Job] = field(default_factory=list)  # failed: run again after the next action
    task: asyncio.Task[None] | None = None
    later: asyncio.TimerHandle | None = None  # runs the set-aside jobs again if no action comes first
    retired: Callable[[], None] | None = None  # the table is over: called once its last jobs have run
    last_round: bool = False  # retired: the set-aside jobs were queued for their last try


class Outbox:
    def __init__(self, config: DeliveryConfig | None = None) -> None:
        self.config = config or DeliveryConfig()
        self._lanes: dict[int, _Lane] = {}

    # ------------------------------------------------------------ queueing (never awaits)

    def put(self, table_id: int, job: Job) -> None:
        lane = self._lanes.setdefault(table_id, _Lane())
        if job.key is not None:
            lane.queue = deque(j for j in lane.queue if j.key != job.key)
            lane.parked = [j for j in lane.parked if j.key != job.key]
        # A new action: what failed before goes again, before what this action has to say.
        self._unpark(lane)
        lane.queue.append(job)
        self._consume(table_id, lane)

    def retire(self, table_id: int, then: Callable[[], None]) -> None:
        """The table is over: after its queued jobs, run the set-aside ones a last time, forget the table,
        then call ``then``."""
        lane = self._lanes.get(table_id)
        if lane is None:
            then()
            return
        lane.retired = then
        self._consume(table_id, lane)

    def pending(self, table_id: int) -> int:
        """Jobs queued or set aside for this table."""
        lane = self._lanes.get(table_id)
        return len(lane.queue) + len(lane.parked) if lane is not None else 0

    @property
    def tables(self) -> set[int]:
        """The tables with work in the outbox."""
        return set(self._lanes)

    def _consume(self, table_id: int, lane: _Lane) -> None:
        if lane.task is None or lane.task.done():
            lane.task = asyncio.get_running_loop().create_task(self._drain(table_id, lane), name=f"outbox-{table_id}")

    @staticmethod
    def _unpark(lane: _Lane) -> None:
        if lane.later is not None:
            lane.later.cancel()
            lane.later = None
        lane.queue.extend(lane.parked)
        lane.parked.clear()

    def _try_later(self, table_id: int, lane: _Lane) -> None:
        lane.later = None
        if self._lanes.get(table_id) is lane and lane.parked:
            self._unpark(lane)
            self._consume(table_id, lane)

    # ------------------------------------------------------------ the consumer

    async def _drain(self, table_id: int, lane: _Lane) -> None:
        while True:
            while lane.queue:
                await self._run(table_id, lane, lane.queue.popleft())
            if lane.retired is not None and lane.parked and not lane.last_round:
                lane.last_round = True
                self._unpark(lane)
                continue
            break
        # No await from here on: a job put now sees either this lane with its task done, or no lane.
        if lane.parked and lane.retired is None:
            # Kept until the table's next action, or a while: a prompt should not wait for a turn to run out.
            lane.later = asyncio.get_running_loop().call_later(self.config.later_delay, self._try_later,
                                                                table_id, lane)
            return
        if self._lanes.get(table_id) is lane:
            del self._lanes[table_id]
        if lane.retired is not None:
            lane.retired()

    async def _run(self, table_id: int, lane: _Lane, job: Job) -> None:
        try:
            await job.run()
        except Undelivered as error:
            if lane.retired is not None or job.rounds >= self.config.later_rounds:  # no later action to wait for
                log.warning("table %s: given up on %s: %s", table_id, job.key or "a message", error.__cause__)
                return
            if job.key is not None:
                # A newer job for the same message, queued while this one was being tried, says what it would.
                if any(j.key == job.key for j in lane.queue):
                    return
                lane.parked = [j for j in lane.parked if j.key != job.key]
            job.rounds += 1
            lane.parked.append(job)
            log.info("table %s: %s failed, tried again later", table_id, job.key or "a message")
        except discord.HTTPException as error:
            log.warning("table %s: Discord refused %s: %s", table_id, job.key or "a message", error)
        except Exception:  # one broken announcement must not stop the table's others
            log.exception("table %s: announcing failed", table_id)

    # ------------------------------------------------------------ one request

    async def attempt(self, request: Callable[[], Awaitable[T]], what: str) -> T:
        """``request()`` within the time allowed, tried again while the failure may pass; raises
        ``Undelivered`` after the last try, and Discord's refusals (403, 404, 400 ...) at once."""
        config = self.config
        tries = max(1, config.attempts)
        for attempt in range(1, tries + 1):
            delay: float | None = None
            try:
                async with asyncio.timeout(config.request_timeout):
                    return await request()
            except discord.RateLimited as error:
                failure: BaseException = error
                delay = error.retry_after
            except discord.HTTPException as error:
                if error.status != 429 and error.status < 500:
                    raise
                failure = error
                delay = _retry_after(error) if error.status == 429 else None
                if error.status in RETRIED_BY_DISCORD:
                    raise Undelivered(what) from error
            except (TimeoutError, OSError, aiohttp.ClientError) as error:
                failure = error
                if isinstance(error, OSError) and error.errno in RESET_RETRIED_BY_DISCORD:
                    raise Undelivered(what) from error
            if attempt == tries:
                raise Undelivered(what) from failure
            if delay is None:
                delay = config.backoff[min(attempt, len(config.backoff)) - 1] if config.backoff else 0.0
            log.info("%s failed (%r); try %d of %d in %.2f s", what, failure, attempt + 1, tries, delay)
            await asyncio.sleep(min(delay, config.max_retry_after))
        raise AssertionError("unreachable")

    # ------------------------------------------------------------ shutting down

    async def close(self, timeout: float = 5.0) -> None:
        """Give the queued jobs ``timeout`` seconds to go out, then stop the consumers."""
        for lane in self._lanes.values():
            if lane.later is not None:
                lane.later.cancel()
        tasks = [lane.task for lane in self._lanes.values() if lane.task is not None and not lane.task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._lanes.clear()


def _retry_after(error: discord.HTTPException) -> float | None:
    """The seconds Discord asked to wait, from the 429's Retry-After header."""
    headers = getattr(error.response, "headers", None) or {}
    try:
        return float(headers["Retry-After"])
    except (KeyError, TypeError, ValueError):
        return None
