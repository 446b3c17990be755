"""Waiting in a test for something another task or process brings about (the tests' folder is on the path through
its conftest, so every test folder imports this)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def until(check: Callable[[], object], timeout: float = 20.0) -> None:
    """Poll ``check`` until it is true; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.01)
