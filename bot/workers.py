"""Work that must not hold the event loop's GIL, in worker processes: one queue of jobs a ``Lane``.

The AI's numba search and Pillow's drawing both hold the GIL for long stretches, so a worker *thread* would
still stall the event loop. A lane runs its jobs in a process pool (multiprocessing context "forkserver": a
parent with threads cannot hand locked locks to a child; "spawn" on macOS), or in one thread when it has no
worker processes (tests).

A worker process ends with the bot. A killed bot (SIGKILL, the out-of-memory killer) cannot shut its pools
down, and an idle worker waits on its queue for ever: each worker watches its parent and leaves when the
parent is gone. Workers also let go of the bot's standard input and output at once: whoever reads the bot's
output through a pipe (a supervisor, a test) sees it end when the bot ends, not when its last worker does.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import logging
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


def _leave_with_parent() -> None:
    """End this worker process as soon as the process that started it is gone."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not a multiprocessing child
        return

    def watch() -> None:
        parent.join()  # returns once the parent's end of the pipe between them closes: the parent died
        os._exit(0)  # no clean-up to wait for: the queues' other end is gone

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def _detach_standard_streams() -> None:
    """Point standard input and output at the null device (standard error stays: warnings and tracebacks)."""
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in (0, 1):
            os.dup2(null, fd)
    finally:
        os.close(null)


def _init_worker(niceness: int, warm: Callable[[], None] | None) -> None:
    _detach_standard_streams()
    _leave_with_parent()
    if niceness and hasattr(os, "nice"):
        try:
            os.nice(niceness)
        except OSError:  # not allowed here: the work still runs, at the usual priority
            log.warning("worker %s: could not lower its priority", os.getpid())
    if warm is not None:
        try:
            warm()
        except Exception:  # a worker that cannot warm up still answers (slowly) rather than break the pool
            log.exception("worker %s: warm-up failed", os.getpid())


def worker_pid() -> int:
    """The process a job runs in (a job that starts a lane's workers, and tells them apart in tests)."""
    return os.getpid()


class Lane:
    """One queue of jobs and its workers: ``workers`` processes, or one thread when ``workers == 0``.

    ``niceness`` is added to the workers' scheduling niceness (Unix), so on a busy machine the bot's event
    loop and the other lanes go first; ``warm`` runs once in each worker as it starts.
    """

    def __init__(self, name: str, workers: int, warm: Callable[[], None] | None = None, niceness: int = 0) -> None:
        self.name = name
        self.workers = workers
        self.warm = warm
        self.niceness = niceness
        self._executor: concurrent.futures.Executor | None = None

    @property
    def pool(self) -> concurrent.futures.ProcessPoolExecutor | None:
        """The process pool (None for a thread lane)."""
        executor = self.executor
        return executor if isinstance(executor, concurrent.futures.ProcessPoolExecutor) else None

    @property
    def executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.workers:
                method = "spawn" if sys.platform == "darwin" else "forkserver"
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context(method), initializer=_init_worker,
                    initargs=(self.niceness, self.warm))
            else:
                self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=self.name)
        return self._executor

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        executor = self.executor
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(executor, fn, *args)
        except concurrent.futures.process.BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and ask once more.
            log.error("a worker of the %s lane died; restarting its workers", self.name)
            if self._executor is executor:
                executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
            return await loop.run_in_executor(self.executor, fn, *args)

    async def start(self) -> None:
        """Start (and warm) every worker process, without blocking the loop."""
        pool = self.pool
        if pool is None:
            return
        loop = asyncio.get_running_loop()
        # One job per worker makes the pool start them all; each warms up in its initializer.
        pids = await asyncio.gather(*(loop.run_in_executor(pool, worker_pid) for _ in range(self.workers)))
        log.info("%s workers ready: %s", self.name, ", ".join(str(p) for p in sorted(set(pids))))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
