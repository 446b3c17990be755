"""Worker processes (bot.workers.Lane) end with the bot, even one killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.workers import Lane, worker_pid

ROOT = Path(__file__).resolve().parents[2]

# A bot-like parent: a lane with one worker process, started; it prints the worker's pid, then waits.
PARENT = textwrap.dedent("""
    import asyncio, sys, time
    from bot.workers import Lane, worker_pid

    async def main() -> None:
        lane = Lane("test", 1)
        await lane.start()
        print(await lane.run(worker_pid), flush=True)
        time.sleep(600)

    asyncio.run(main())
""")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_killed_parents_worker_ends_and_lets_go_of_its_output() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert parent.stdout is not None
    worker = int(parent.stdout.readline())
    assert worker != parent.pid and alive(worker)
    parent.send_signal(signal.SIGKILL)
    # Whoever reads the bot's output sees it end with the bot: no process of its workers keeps the pipe open (a
    # test, or a supervisor, waiting for that end used to wait for ever).
    output, _ = parent.communicate(timeout=10)
    assert output == b""
    deadline = time.monotonic() + 10
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(worker)


async def test_a_lanes_workers_run_at_the_niceness_asked_for() -> None:
    lane = Lane("test", 1, niceness=3)
    try:
        assert await lane.run(worker_pid) != os.getpid()
        assert await lane.run(os.nice, 0) == os.nice(0) + 3
    finally:
        lane.close()


async def test_a_lane_without_workers_runs_its_jobs_in_a_thread_of_this_process() -> None:
    lane = Lane("test", 0, niceness=3)
    try:
        assert await lane.run(worker_pid) == os.getpid()
    finally:
        lane.close()
