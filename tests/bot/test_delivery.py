"""Issue 10: the outbox (order, coalescing, retries, time per request), without Discord."""

from __future__ import annotations

import asyncio

import discord
import pytest
from faults import missing_permissions

from bot.discord_app.outbox import DeliveryConfig, Job, Outbox, Undelivered

FAST = DeliveryConfig(request_timeout=5.0, attempts=3, backoff=(0.001,), max_retry_after=0.05)


# ------------------------------------------------------------------ the outbox alone


async def drained(outbox: Outbox) -> None:
    for _ in range(1000):
        if not outbox.tables:
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"the outbox did not drain: {outbox.tables}")


async def test_jobs_run_in_order_and_a_newer_edit_replaces_a_queued_one() -> None:
    outbox = Outbox(FAST)
    ran: list[str] = []
    gate = asyncio.Event()

    async def first() -> None:
        await gate.wait()
        ran.append("first")

    def job(name: str, key: str | None = None) -> Job:
        async def run() -> None:
            ran.append(name)
        return Job(run, key)

    outbox.put(1, Job(first))
    outbox.put(1, job("table image v1", "table"))
    outbox.put(1, job("trick 1"))
    outbox.put(1, job("table image v2", "table"))  # takes the place of v1, after trick 1
    outbox.put(1, job("trick 2"))
    outbox.put(2, job("other table"))  # not behind table 1's stalled job
    await asyncio.sleep(0.01)
    assert ran == ["other table"] and outbox.pending(1) == 3  # "first" runs, three wait
    gate.set()
    await drained(outbox)
    assert ran == ["other table", "first", "trick 1", "table image v2", "trick 2"]


async def test_a_failed_job_goes_again_after_the_next_action_and_a_last_time_at_retirement() -> None:
    outbox = Outbox(FAST)
    tries: list[str] = []
    forgotten: list[int] = []

    def failing(name: str) -> Job:
        async def run() -> None:
            tries.append(name)
            raise Undelivered(name)
        return Job(run)

    outbox.put(7, failing("trick"))
    await asyncio.sleep(0.01)
    assert tries == ["trick"] and outbox.pending(7) == 1  # set aside, not lost

    async def next_action() -> None:
        tries.append("next")

    outbox.put(7, Job(next_action))
    await asyncio.sleep(0.01)
    assert tries == ["trick", "trick", "next"]  # what failed goes first
    outbox.retire(7, lambda: forgotten.append(7))
    await drained(outbox)
    assert tries == ["trick", "trick", "next", "trick"] and forgotten == [7]
    assert outbox.tables == set()


async def test_a_request_gets_bounded_time_and_refusals_are_not_repeated() -> None:
    outbox = Outbox(DeliveryConfig(request_timeout=0.01, attempts=3, backoff=(0.001,)))
    calls: list[str] = []

    async def stalls() -> None:
        calls.append("stall")
        await asyncio.sleep(3600)

    with pytest.raises(Undelivered):
        await outbox.attempt(stalls, "stalling")
    assert calls == ["stall"] * 3

    async def forbidden() -> None:
        calls.append("403")
        raise missing_permissions()

    with pytest.raises(discord.Forbidden):
        await outbox.attempt(forbidden, "forbidden")
    assert calls.count("403") == 1
