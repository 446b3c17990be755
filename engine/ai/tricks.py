"""The trick as the double-dummy searches see it: a position, the rules that change a search, a finished trick's
outcome and a following card's ordering key, compiled by numba from ``engine.rulebook``. The solver
(``engine.ai.solver``) and the horizon search (``engine.ai.horizon``) both build on this module, so neither
imports the other's internals and the solver may order its first moves by the horizon's estimates.

numba compiles the functions of this module into its callers but checks only the caller's own source file when it
loads them from its cache: ``drop_stale_caches``, called by each search's ``warm_up`` before anything is loaded,
deletes cache files older than the rules or this module. Importing this module touches no file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from numba import njit
from numba.extending import register_jitable

from engine import rulebook
from engine.settings import Rules, StukMode

# Pit state: who has won every trick of the hand so far.
PIT_NONE = 0  # no trick completed yet
PIT_NS = 1
PIT_EW = 2
PIT_MIXED = 3

_LAST_BONUS = rulebook.LAST_TRICK_BONUS
_PIT_BONUS = rulebook.PIT_BONUS

# rulebook.legal_mask and rulebook.trick_roem call rulebook.card_power, sequence_roem and stuk_mask: registering those
# plain functions as jitable lets numba compile their callers exactly as they stand in rulebook.py.
register_jitable(rulebook.card_power)
register_jitable(rulebook.sequence_roem)
register_jitable(rulebook.stuk_mask)
legal_mask = njit(cache=True, nogil=True, inline="always")(rulebook.legal_mask)
trick_winner = njit(cache=True)(rulebook.trick_winner)
trick_points = njit(cache=True)(rulebook.trick_points)
trick_roem = njit(cache=True)(rulebook.trick_roem)


_DE_BRUIJN = (0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8, 31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6,
              11, 5, 10, 9)


@njit(cache=True, nogil=True, inline="always")
def lowest_bit(mask: int) -> int:  # pragma: no cover - compiled
    """Index of the lowest set bit of a non-empty 32-bit mask (the lowest card of a card set)."""
    return _DE_BRUIJN[(((mask & -mask) * 0x077CB531) & 0xFFFFFFFF) >> 27]


class SolveRules(NamedTuple):
    """The settings that change the search: play rules, undertrump, and where stuk is counted."""

    amsterdam: bool = False
    undertrump_forced: bool = True
    stuk_in_trick: bool = True

    @classmethod
    def of(cls, rules: Rules) -> SolveRules:
        return cls(rules.amsterdam, rules.undertrump_forced, rules.stuk is StukMode.TRICK)


class Position(NamedTuple):
    """A double-dummy position: every seat's remaining cards and the trick in progress."""

    hands: tuple[int, int, int, int]  # masks by seat (N E S W), cards not yet played
    trump: int
    leader: int  # seat that led (or leads) the trick in progress
    trick: tuple[int, ...] = ()  # cards of the trick in progress, in play order
    tricks_done: int = 0  # completed tricks
    pit: int = PIT_NONE  # PIT_NONE/PIT_NS/PIT_EW/PIT_MIXED: who has won every completed trick

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) & 3


@njit(cache=True, nogil=True, inline="always")
def finish_trick(c0: int, c1: int, c2: int, c3: int, leader: int, done: int, pit: int, trump: int,
                 stuk: bool) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """The trick's winner, the new pit state and the trick's value for NS (points + roem, signed)."""
    return trick_outcome(c0, c1, c2, c3, leader, done, pit, trump, stuk, True)


@njit(cache=True, nogil=True, inline="always")
def trick_outcome(c0: int, c1: int, c2: int, c3: int, leader: int, done: int, pit: int, trump: int, stuk: bool,
                  roem: bool) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """``finish_trick``; without ``roem`` the trick's roem is taken as 0 (the caller knows none can be made)."""
    winner = (leader + trick_winner(c0, c1, c2, c3, trump)) & 3
    team = winner & 1
    gain = trick_points(c0, c1, c2, c3, trump)
    if roem:
        gain += trick_roem(c0, c1, c2, c3, trump, stuk)
    new_pit = 1 + team if pit == PIT_NONE or pit == 1 + team else PIT_MIXED
    if done == 7:
        gain += _LAST_BONUS
        if new_pit == 1 + team:
            gain += _PIT_BONUS
    return winner, new_pit, gain if team == 0 else -gain


@njit(cache=True, nogil=True, inline="always")
def follow_key(card: int, points: int, trump: int, led: int, count: int, head_power: int,
               partner_heads: bool) -> int:  # pragma: no cover - compiled
    """How promising ``card`` (worth ``points``) is on a trick of ``count`` cards, for move ordering (higher first)."""
    power = rulebook.card_power(card, trump, led)
    if partner_heads and count == 3:
        return 128 + points  # the partner's trick is won: give it points, do not take it over
    if power > head_power:
        return 64 + (points if count == 3 else 32 - power)
    if partner_heads:
        return 32 + points
    return 16 - points - power


def drop_stale_cache(cache_dir: Path, sources: Sequence[Path], stem: str) -> bool:
    """Delete the numba cache files of module ``stem`` if any index is older than one of ``sources``; True if
    deleted."""
    try:
        newest = max(source.stat().st_mtime for source in sources)
        indexes = list(cache_dir.glob(f"{stem}*.nbi"))
        if not any(index.stat().st_mtime < newest for index in indexes):
            return False
        for path in [*indexes, *cache_dir.glob(f"{stem}*.nbc")]:
            path.unlink(missing_ok=True)
    except OSError:  # no cache yet, or not ours to delete: numba will sort it out
        return False
    return True


def drop_stale_caches(stem: str) -> None:
    """Before the search module ``stem`` (in this package: solver, horizon) loads numba's cache: drop this module's
    cache files if older than the rules, and the search's if older than the rules or this module."""
    cache = Path(__file__).resolve().parent / "__pycache__"
    rules = Path(rulebook.__file__).resolve()
    drop_stale_cache(cache, [rules], "tricks")
    drop_stale_cache(cache, [rules, Path(__file__).resolve()], stem)
