"""AI decisions and hints off the event loop.

The strong player (PIMC) runs numba code that holds the GIL, so a worker *thread* can still stall the
event loop for hundreds of milliseconds. With ``workers > 0`` decisions run in a process pool
(multiprocessing context "forkserver": a parent with threads cannot hand locked locks to a child), each
worker compiled once at start by ``engine.ai.pimc.warm_up``. ``workers == 0`` uses threads (tests).

A player is built in the worker from (level, seed) for every decision, and only the ``SeatView`` (plain
picklable dataclasses) crosses the process boundary, so the choice is the same wherever it runs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import logging
import multiprocessing
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from bot.texts.catalog import hint_text
from bot.texts.language import Language
from engine.actions import Choice
from engine.ai.hints import hint
from engine.ai.players import Level, make_player
from engine.view import SeatView

log = logging.getLogger(__name__)

T = TypeVar("T")


def warm_up() -> None:
    """Compile (or load from numba's cache) the strong player's solver."""
    # Imported here: numba and the solver take a second to load, and only warming needs them this early.
    from engine.ai.pimc import warm_up as pimc_warm_up

    pimc_warm_up()


def _init_worker(warm: bool) -> None:
    if warm:
        try:
            warm_up()
        except Exception:  # a worker that cannot compile still answers (slowly) rather than break the pool
            log.exception("AI worker %s: warm-up failed", os.getpid())


def _ping() -> int:
    return os.getpid()


def choose_action(level: Level, seed: int, view: SeatView) -> Choice:
    """The choice of a fresh ``level`` player seeded ``seed`` (the same after a restart)."""
    return make_player(level, seed).choose(view)


def hint_message(view: SeatView, lang: Language) -> str:
    """The strong player's choice for ``view`` and its reason, in ``lang``."""
    return hint_text(hint(view), lang)


class Thinker:
    """Runs AI decisions and hints in a process pool (``workers > 0``) or in threads (``workers == 0``)."""

    def __init__(self, workers: int = 0, *, warm: bool = True) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (threads) or more")
        self.workers = workers
        self.warm = warm
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    @property
    def pool(self) -> concurrent.futures.ProcessPoolExecutor | None:
        if self.workers and self._pool is None:
            method = "spawn" if sys.platform == "darwin" else "forkserver"
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context(method), initializer=_init_worker,
                initargs=(self.warm,))
        return self._pool

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        pool = self.pool
        if pool is None:
            return await asyncio.to_thread(fn, *args)
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except concurrent.futures.process.BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and ask once more.
            log.error("an AI worker died; restarting the AI workers")
            if self._pool is pool:
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
            fresh = self.pool
            assert fresh is not None
            return await asyncio.get_running_loop().run_in_executor(fresh, fn, *args)

    async def choose(self, level: Level, seed: int, view: SeatView) -> Choice:
        return await self.run(choose_action, level, seed, view)

    async def hint(self, view: SeatView, lang: Language) -> str:
        return await self.run(hint_message, view, lang)

    async def start(self) -> None:
        """Start and warm every worker (or warm this process for threads), without blocking the loop."""
        if not self.warm:
            return
        pool = self.pool
        if pool is None:
            await asyncio.to_thread(warm_up)
            return
        loop = asyncio.get_running_loop()
        # One job per worker makes the pool start them all; each runs the warm-up in its initializer.
        pids = await asyncio.gather(*(loop.run_in_executor(pool, _ping) for _ in range(self.workers)))
        log.info("AI workers ready: %s", ", ".join(str(p) for p in sorted(set(pids))))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
