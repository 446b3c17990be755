"""The simple players and the level mapping: one place that turns a name into a ``Player``.

Kinds: ``random`` (any legal action), ``heuristic`` (rule-based), ``pimc`` (the strong player, built
in ``engine.ai.pimc`` and imported only when asked for), and the bot levels ``easy`` (the heuristic
with people's mistakes, ``engine.ai.easy``), ``normal`` (heuristic) and ``hard`` (pimc).
"""

from __future__ import annotations

import hashlib
import importlib
import json
from enum import StrEnum

from engine.actions import Choice
from engine.ai.base import Player
from engine.ai.easy import EasyPlayer
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


def situation_seed(seed: int, view: SeatView) -> int:
    """A decision's seed from ``seed`` and what the seat sees of the hand being played: the rules, the hand's
    number, the seat and its cards, the dealer, turned suits, bids, trump, tricks, the trick in progress and the
    claims. Two seats that see the same (at two tables with one seed, however the earlier hands went) get the
    same seed, so a seeded player gives them the same answer. The match's score is left out: no player reads it.
    """
    situation = [seed, view.rules.to_dict(), view.phase.value, view.hand_number, int(view.seat),
                 sorted(int(c) for c in view.hand), None if view.dealer is None else int(view.dealer),
                 [int(s) for s in view.turned], [[int(s), c.value] for s, c in view.bids],
                 None if view.trump is None else int(view.trump), None if view.player is None else int(view.player),
                 [[int(t.leader), [int(c) for c in t.cards]] for t in view.tricks],
                 None if view.trick_leader is None else int(view.trick_leader), [int(c) for c in view.trick],
                 [[i, int(s)] for i, s in view.claims]]
    digest = hashlib.blake2b(json.dumps(situation, sort_keys=True).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2  # positive, and within the 62 bits every player's generator takes


def make_player(kind: str, seed: int = 0, *, timed: bool = True) -> Player:
    """A player of the given kind or level, seeded for reproducible play.

    ``timed=False``: the strong player's work is bounded by its node budget alone, without the time cap that
    keeps a busy machine's decisions short; its choice then depends on the seed and the view only, on any
    machine and under any load (tournament tables need that)."""
    key = kind.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key in ("heuristic", "normal"):
        return HeuristicPlayer(seed=seed, name=key)
    if key == "easy":
        return EasyPlayer(seed=seed, name=key)
    if key in ("pimc", "hard"):
        try:
            # Imported by name: the strong player lives in its own module and pulls in the solver.
            module = importlib.import_module("engine.ai.pimc")
        except ImportError as error:
            raise UnknownPlayerError(
                f"the {key!r} player needs engine.ai.pimc, which is not available ({error})") from None
        player: Player = module.PimcPlayer(seed=seed, timed=timed)
        return player
    raise UnknownPlayerError(f"unknown player {kind!r}: choose one of {', '.join(PLAYER_KINDS)}")


def pimc_available() -> bool:
    try:
        importlib.import_module("engine.ai.pimc")
    except ImportError:
        return False
    return True
