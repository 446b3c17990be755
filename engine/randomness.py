"""The randomness the engine accepts: an injected, seeded generator (``random.Random`` fits).

The engine never touches the module-level generator, so every game is reproducible from its seed;
``SeededRandom`` is the engine's own generator for players built from a bare seed.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, Protocol


class RandomSource(Protocol):
    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...

    def getrandbits(self, k: int, /) -> int: ...


class SeededRandom:
    """A small deterministic generator (SplitMix64) satisfying ``RandomSource``.

    The engine may not use the module-level ``random``; a player built from a bare seed uses this,
    so its decisions are reproducible on every platform and Python version.
    """

    def __init__(self, seed: int) -> None:
        self._state = seed & 0xFFFFFFFFFFFFFFFF

    def _next(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def getrandbits(self, k: int, /) -> int:
        result = 0
        bits = 0
        while bits < k:
            result = (result << 64) | self._next()
            bits += 64
        return result >> (bits - k) if k else 0

    def random(self) -> float:
        return (self._next() >> 11) / float(1 << 53)

    def randrange(self, stop: int, /) -> int:
        if stop <= 0:
            raise ValueError("randrange needs a positive bound")
        # Rejection sampling keeps every value equally likely.
        bits = max(1, stop.bit_length())
        while True:
            value = self.getrandbits(bits)
            if value < stop:
                return value

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.randrange(i + 1)
            x[i], x[j] = x[j], x[i]


def make_rng(seed: int | RandomSource) -> RandomSource:
    """A generator from a bare seed, or the one given."""
    return SeededRandom(seed) if isinstance(seed, int) else seed
