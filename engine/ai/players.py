"""The simple players and the level mapping: one place that turns a name into a ``Player``.

Kinds: ``random`` (any legal action), ``heuristic`` (rule-based), ``pimc`` (the strong player, built
in ``engine.ai.pimc`` and imported only when asked for), and the bot levels ``easy`` (heuristic with
noise), ``normal`` (heuristic) and ``hard`` (pimc).
"""

from __future__ import annotations

import importlib
from enum import StrEnum

from engine.actions import Choice
from engine.ai.base import Player
from engine.ai.heuristic import HeuristicPlayer
from engine.errors import KlaverjasError
from engine.randomness import RandomSource, make_rng
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


class RandomPlayer:
    """Any legal action, uniformly: a baseline and a fuzzer for the engine."""

    def __init__(self, seed: int | RandomSource = 0) -> None:
        self.name = "random"
        self._rng = make_rng(seed)

    def choose(self, view: SeatView) -> Choice:
        if not view.legal:
            raise ValueError(f"{view.seat.letter} has nothing to choose: it is not its turn")
        return view.legal[self._rng.randrange(len(view.legal))]


def make_player(kind: str, seed: int = 0) -> Player:
    """A player of the given kind or level, seeded for reproducible play."""
    key = kind.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key in ("heuristic", "normal"):
        return HeuristicPlayer(seed=seed, name=key)
    if key == "easy":
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
