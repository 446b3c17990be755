"""``klaverjas duel A B``: duplicate deals between two players, spread over the machine's cores."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, TextIO

from engine.ai.base import Player
from engine.ai.duel import DuelResult, PairedResult, duel, paired_duel
from engine.ai.players import PLAYER_KINDS, UnknownPlayerError, make_player
from engine.errors import KlaverjasError
from engine.settings import Rules


def run_duel(args: argparse.Namespace, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    rollouts: int | None = getattr(args, "rollouts", None)
    variant: str | None = getattr(args, "paired_with", None)
    try:
        rules = Rules().with_changes(play=args.rules, bidding=args.bidding)
        for kind in (args.a, args.b, *([variant] if variant else [])):
            make_player(kind, 0)  # fail early, in this process, on an unknown kind
    except (KlaverjasError, UnknownPlayerError) as error:
        print(f"klaverjas duel: {error}", file=sys.stderr)
        return 2
    if args.deals < 1:
        print("klaverjas duel: --deals must be at least 1", file=sys.stderr)
        return 2
    if rollouts is not None and rollouts < 1:
        print(f"klaverjas duel: --rollouts must be at least 1, not {rollouts}", file=sys.stderr)
        return 2
    workers = args.workers or os.cpu_count() or 1
    timed = not args.untimed
    result: DuelResult | PairedResult
    if variant:
        result = run_paired(args.a, variant, args.b, args.deals, args.seed, rules, workers, timed, rollouts)
    else:
        result = run(args.a, args.b, args.deals, args.seed, rules, workers, timed, rollouts)
    if args.json:
        print(json.dumps({**result.to_dict(), "timed": timed, "rollouts": rollouts}), file=stream)
    else:
        print(result.describe(), file=stream)
    return 0


def _factory(kind: str, timed: bool, rollouts: int | None) -> Callable[[int], Player]:
    if rollouts is None:
        return partial(make_player, kind, timed=timed)
    return partial(make_player, kind, timed=timed, rollouts=rollouts)


@contextmanager
def _mapper(workers: int, deals: int) -> Iterator[Callable[[Callable[[int], Any], Iterable[int]], Iterator[Any]]]:
    """The ``map`` that spreads the deals over ``workers`` processes (this one for one worker or few deals)."""
    if workers <= 1 or deals < 4:
        yield map
        return
    # Not fork: the parent may hold threads (asyncio workers, numba) whose locks a forked child inherits held.
    context = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "forkserver")
    # The workers leave Ctrl-C to this process, which ends the pool: one short message instead of a traceback each.
    with context.Pool(workers, initializer=_ignore_interrupt) as pool:
        chunk = max(1, deals // (workers * 16))

        def pool_map(fn: Callable[[int], Any], items: Iterable[int]) -> Iterator[Any]:
            return pool.imap(fn, items, chunksize=chunk)

        yield pool_map


def run(a: str, b: str, deals: int, seed: int, rules: Rules, workers: int, timed: bool = True,
        rollouts: int | None = None) -> DuelResult:
    """The duel on ``workers`` processes. Untimed, the strong player's work is bounded by its node budgets alone,
    so the result is the same on any machine, however busy; timed (as at a table) its time cap can cut a
    decision short. Either way the number of workers changes nothing else. ``rollouts``: mc's, a card."""
    with _mapper(workers, deals) as map_fn:
        return duel(a, b, deals, seed, rules, map_fn=map_fn, make_a=_factory(a, timed, rollouts),
                    make_b=_factory(b, timed, rollouts))


def run_paired(a: str, variant: str, b: str, deals: int, seed: int, rules: Rules, workers: int, timed: bool = True,
               rollouts: int | None = None) -> PairedResult:
    """``run`` for A and ``variant``, each against B on the same deals and decision seeds (``paired_duel``)."""
    with _mapper(workers, deals) as map_fn:
        return paired_duel(a, variant, b, deals, seed, rules, map_fn=map_fn, make_a=_factory(a, timed, rollouts),
                           make_v=_factory(variant, timed, rollouts), make_b=_factory(b, timed, rollouts))


def _ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


__all__ = ["PLAYER_KINDS", "run", "run_duel", "run_paired"]
