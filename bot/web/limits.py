"""A token bucket: how often a socket, the code exchange or the instance lookups may go."""

from __future__ import annotations

import time
from collections.abc import Callable


class RateLimit:
    """A token bucket: ``rate`` frames a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.at = clock()
        self.refused = 0

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False
