"""A fake Discord that fails the way Discord does: 5xx, 429 with retry_after, 10008 (unknown message),
50013 (missing permissions), and requests held until the test lets them go (a stalled connection).

``FaultyDiscord`` is a ``FakeDiscord`` (pass it to ``Harness(fake=...)``): each request is checked against
the faults first; a request that fails is recorded in ``failed``, one that goes through in ``requests``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from harness import FakeDiscord, Request


class _Response:
    """What discord.py reads of an aiohttp response when it raises."""

    def __init__(self, status: int, reason: str, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = reason
        self.headers = headers or {}


def server_error() -> discord.HTTPException:
    return discord.DiscordServerError(_Response(503, "Service Unavailable"), {"code": 0, "message": "upstream"})


def rate_limited(retry_after: float) -> discord.HTTPException:
    return discord.HTTPException(_Response(429, "Too Many Requests", {"Retry-After": str(retry_after)}),
                                 {"code": 0, "message": "You are being rate limited.", "retry_after": retry_after,
                                  "global": False})


def unknown_message() -> discord.HTTPException:
    return discord.NotFound(_Response(404, "Not Found"), {"code": 10008, "message": "Unknown Message"})


def missing_permissions() -> discord.HTTPException:
    return discord.Forbidden(_Response(403, "Forbidden"), {"code": 50013, "message": "Missing Permissions"})


Match = Callable[[Request], bool]


@dataclass(eq=False)
class Fault:
    match: Match
    error: Callable[[], BaseException] | None  # None: hold the request until ``release`` is set
    times: int | None  # None: every matching request
    release: asyncio.Event = field(default_factory=asyncio.Event)
    hits: int = 0


@dataclass
class FaultyDiscord(FakeDiscord):
    faults: list[Fault] = field(default_factory=list)
    failed: list[Request] = field(default_factory=list)
    log: list[tuple[float, str, Request]] = field(default_factory=list)  # (loop time, "ok"/"failed"/"held", request)

    def fail(self, match: Match, error: Callable[[], BaseException], times: int | None = 1) -> Fault:
        fault = Fault(match, error, times)
        self.faults.append(fault)
        return fault

    def hold(self, match: Match, times: int | None = 1) -> Fault:
        """Matching requests wait (Discord stalls) until ``fault.release.set()``."""
        fault = Fault(match, None, times)
        self.faults.append(fault)
        return fault

    async def answer(self, request: Request) -> Any:
        await self._inject(request)
        return await super().answer(request)

    async def _inject(self, request: Request) -> None:
        now = asyncio.get_running_loop().time
        for fault in self.faults:
            if (fault.times is not None and fault.hits >= fault.times) or not fault.match(request):
                continue
            fault.hits += 1
            if fault.error is not None:
                self.failed.append(request)
                self.log.append((now(), "failed", request))
                raise fault.error()
            task = asyncio.current_task()
            assert task is not None
            self.held.add(task)
            self.log.append((now(), "held", request))
            try:
                await fault.release.wait()
            finally:
                self.held.discard(task)
        self.log.append((now(), "ok", request))


# ------------------------------------------------------------------ what to match


def posts_in(channel: Callable[[], int | None], starting: str = "") -> Match:
    """Messages posted in a channel (known only later, e.g. a thread), whose text starts with ``starting``."""
    return lambda r: (r.method == "POST" and r.path == "/channels/{channel_id}/messages"
                      and f"/channels/{channel()}/messages" in r.url and r.content.startswith(starting))


def edits_of(message: Callable[[], int | None]) -> Match:
    return lambda r: r.method == "PATCH" and r.url.split("?")[0].endswith(f"/messages/{message()}")


def with_buttons(prefix: str) -> Match:
    return lambda r: any(i.startswith(prefix) for i in r.custom_ids())
