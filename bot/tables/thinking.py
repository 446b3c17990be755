"""AI decisions and hints off the event loop.

The strong player (PIMC) runs numba code that holds the GIL, so a worker *thread* can still stall the
event loop for hundreds of milliseconds. With ``workers > 0`` decisions run in worker processes (a
``bot.workers.Lane``), each compiled once at start by ``engine.ai.pimc.warm_up``. ``workers == 0`` uses
threads (tests).

Hints have a worker of their own (one more process, or one more thread), so however many people ask
for hints, no AI move at any table waits behind one. Match reviews (``bot.tables.reviews``) have a third
lane, one process at a lower scheduling priority still (``REVIEW_NICENESS``): a review is minutes of solving,
which must never hold up a move or a hint, and on a busy machine the operating system serves those first. The
moves' and hints' workers themselves run below the bot's event loop (``AI_NICENESS``): a busy machine slows
the AI, not the answers to clicks.

A player is built in the worker from (level, seed) for every decision, and only the ``SeatView`` (plain
picklable dataclasses) crosses the process boundary, so the choice is the same wherever it runs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bot.texts.catalog import hint_text
from bot.texts.language import Language
from bot.workers import Lane
from engine.actions import Action, Choice
from engine.ai.hints import hint
from engine.ai.players import Level, make_player
from engine.ai.review_summary import DecisionReview
from engine.settings import Rules
from engine.view import SeatView

T = TypeVar("T")


def warm_up() -> None:
    """Compile (or load from numba's cache) the strong player's solver."""
    # Imported here: numba and the solver take a second to load, and only warming needs them this early.
    from engine.ai.pimc import warm_up as pimc_warm_up

    pimc_warm_up()


# Added to the workers' niceness (Unix). The AI moves and hints below the bot's event loop: on a busy machine the
# operating system serves the answers to clicks first and the AI thinks a little longer (its moves are paced
# anyway). The reviews lower still: the moves and hints go first.
AI_NICENESS = 5
REVIEW_NICENESS = 10


def choose_action(level: Level, seed: int, view: SeatView, timed: bool = True) -> Choice:
    """The choice of a fresh ``level`` player seeded ``seed`` (the same after a restart); ``timed=False``: bounded
    by node budgets only, so the same on any machine (``engine.ai.players.make_player``)."""
    return make_player(level, seed, timed=timed).choose(view)


def hint_message(view: SeatView, lang: Language) -> str:
    """The strong player's choice for ``view`` and its reason, in ``lang``."""
    return hint_text(hint(view), lang)


def hint_choice(view: SeatView, lang: Language) -> tuple[Choice, str]:
    """The strong player's choice for ``view`` and, in ``lang``, what the chat's hint says of it (for the web
    table, which also marks the card)."""
    found = hint(view)
    return found.action, hint_text(found, lang)


def review_hand(rules: Rules, actions: Sequence[Action], players: Sequence[int | None], seed: int,
                hand: int) -> list[DecisionReview]:
    """The review of one hand of a finished match (``engine.ai.review``)."""
    # Imported here: the review loads the solver, which only the workers need.
    from engine.ai.review import review_hand as review

    return review(rules, actions, players, seed, hand)


class Thinker:
    """Runs AI decisions (``workers`` processes, or a thread when 0), hints and match reviews (each in a
    process or thread of their own)."""

    def __init__(self, workers: int = 0, *, warm: bool = True) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (threads) or more")
        self.workers = workers
        self.warm = warm
        warming = warm_up if warm else None
        self.moves = Lane("ai-moves", workers, warming, niceness=AI_NICENESS)
        self.hints = Lane("ai-hints", 1 if workers else 0, warming, niceness=AI_NICENESS)
        self.reviews = Lane("ai-reviews", 1 if workers else 0, warming, niceness=REVIEW_NICENESS)
        self.hints_waiting = 0  # hints asked and not answered yet

    @property
    def pool(self) -> concurrent.futures.ProcessPoolExecutor | None:
        return self.moves.pool

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the AI moves' workers."""
        return await self.moves.run(fn, *args)

    async def choose(self, level: Level, seed: int, view: SeatView, timed: bool = True) -> Choice:
        return await self.moves.run(choose_action, level, seed, view, timed)

    async def hint(self, view: SeatView, lang: Language) -> str:
        self.hints_waiting += 1
        try:
            return await self.hints.run(hint_message, view, lang)
        finally:
            self.hints_waiting -= 1

    async def hint_with_choice(self, view: SeatView, lang: Language) -> tuple[Choice, str]:
        """``hint``'s text and the choice it names, from the same worker and queue."""
        self.hints_waiting += 1
        try:
            return await self.hints.run(hint_choice, view, lang)
        finally:
            self.hints_waiting -= 1

    async def review(self, rules: Rules, actions: Sequence[Action], players: Sequence[int | None], seed: int,
                     hand: int) -> list[DecisionReview]:
        """One hand of a match's review, in the reviews' own worker."""
        return await self.reviews.run(review_hand, rules, actions, players, seed, hand)

    async def start(self) -> None:
        """Start and warm every worker (or warm this process for threads), without blocking the loop."""
        if not self.warm:
            return
        if not self.workers:
            await asyncio.to_thread(warm_up)
            return
        await asyncio.gather(self.moves.start(), self.hints.start(), self.reviews.start())

    def close(self) -> None:
        self.moves.close()
        self.hints.close()
        self.reviews.close()
