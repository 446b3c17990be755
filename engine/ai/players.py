"""The simple players and the level mapping: one place that turns a name into a ``Player``.

Kinds: ``random`` (any legal action), ``heuristic`` (rule-based), ``pimc`` (the strong player, built
in ``engine.ai.pimc`` and imported only when asked for), and the bot levels ``easy`` (heuristic with
noise), ``normal`` (heuristic) and ``hard`` (pimc).
"""

from __future__ import annotations

import importlib
from collections.abc import MutableSequence
from enum import StrEnum
from typing import Any

from engine.actions import Call
from engine.ai.base import Player
from engine.cards import Card
from engine.errors import KlaverjasError
from engine.randomness import RandomSource
from engine.view import SeatView

PLAYER_KINDS = ("random", "heuristic", "pimc", "easy", "normal", "hard")


class Level(StrEnum):
    """The levels a table offers for its AI players."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


LEVELS = tuple(level.value for level in Level)
EASY_NOISE = 0.25  # share of decisions the easy level makes at random


class UnknownPlayerError(KlaverjasError):
    """A player kind or level that does not exist (or whose module is not installed)."""


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
    return SeededRandom(seed) if isinstance(seed, int) else seed


class RandomPlayer:
    """Any legal action, uniformly: a baseline and a fuzzer for the engine."""

    def __init__(self, seed: int | RandomSource = 0) -> None:
        self.name = "random"
        self._rng = make_rng(seed)

    def choose(self, view: SeatView) -> Card | Call:
        if not view.legal:
            raise ValueError(f"{view.seat.letter} has nothing to choose: it is not its turn")
        return view.legal[self._rng.randrange(len(view.legal))]


def make_player(kind: str, seed: int = 0) -> Player:
    """A player of the given kind or level, seeded for reproducible play."""
    key = kind.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key in ("heuristic", "normal"):
        from engine.ai.heuristic import HeuristicPlayer

        return HeuristicPlayer(seed=seed, name=key)
    if key == "easy":
        from engine.ai.heuristic import HeuristicPlayer

        return HeuristicPlayer(noise=EASY_NOISE, seed=seed, name=key)
    if key in ("pimc", "hard"):
        try:
            # Imported by name: the strong player lives in its own module and pulls in the solver.
            module = importlib.import_module("engine.ai.pimc")
        except ImportError as error:
            raise UnknownPlayerError(
                f"the {key!r} player needs engine.ai.pimc, which is not available ({error})") from None
        player: Player = module.PimcPlayer(seed=seed)
        return player
    raise UnknownPlayerError(f"unknown player {kind!r}: choose one of {', '.join(PLAYER_KINDS)}")


def pimc_available() -> bool:
    try:
        importlib.import_module("engine.ai.pimc")
    except ImportError:
        return False
    return True
