"""The randomness the engine accepts: an injected, seeded generator (``random.Random`` fits).

The engine never touches the module-level generator, so every game is reproducible from its seed.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, Protocol


class RandomSource(Protocol):
    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...

    def getrandbits(self, k: int, /) -> int: ...
