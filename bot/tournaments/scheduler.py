"""The tournaments' clock: closes tournaments at their time, opens each server's daily tournament at its hour
(UTC) and carries on what a restart cut short (a closing half done, standings not yet announced).

Everything it does is worked out from the store and the clock each time it looks (``tick``), so it needs no
memory of its own and resumes after a restart by simply looking again. The clock and the sleep are injected:
tests move a fake clock and call ``tick`` (nobody sleeps for real).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.tournaments.service import TournamentService

log = logging.getLogger(__name__)

MAX_SLEEP = 60.0  # seconds: look at least this often (a clock that jumps, a tournament created meanwhile)
MIN_SLEEP = 1.0


class TournamentScheduler:
    def __init__(self, service: TournamentService, clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.service = service
        self.clock = clock
        self.sleep = sleep
        self._task: asyncio.Task[None] | None = None

    async def tick(self) -> float:
        """Do what is due now; the seconds until the next look."""
        try:
            await self.service.run_due()
        except Exception:
            log.exception("tournament scheduler: a look failed; trying again shortly")
            return MIN_SLEEP * 10
        now = self.clock()
        due = self.service.next_due(await self.service.store.unsettled(), await self.service.store.daily_configs(),
                                    now)
        return min(MAX_SLEEP, max(MIN_SLEEP, due - now))

    async def run(self) -> None:
        while True:
            await self.sleep(await self.tick())

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self.run(), name="tournament-scheduler")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
