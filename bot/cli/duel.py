"""``klaverjas duel A B``: duplicate deals between two players, spread over the machine's cores."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TextIO

from engine.ai.base import Player
from engine.ai.duel import DealOutcome, DuelResult, duel
from engine.ai.players import PLAYER_KINDS, UnknownPlayerError, make_player
from engine.errors import KlaverjasError
from engine.settings import Rules


def run_duel(args: argparse.Namespace, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    try:
        rules = Rules().with_changes(play=args.rules, bidding=args.bidding)
        for kind in (args.a, args.b):
            make_player(kind, 0)  # fail early, in this process, on an unknown kind
    except (KlaverjasError, UnknownPlayerError) as error:
        print(f"klaverjas duel: {error}", file=sys.stderr)
        return 2
    if args.deals < 1:
        print("klaverjas duel: --deals must be at least 1", file=sys.stderr)
        return 2
    workers = args.workers or os.cpu_count() or 1
    timed = not args.untimed
    result = run(args.a, args.b, args.deals, args.seed, rules, workers, timed)
    if args.json:
        print(json.dumps({**result.to_dict(), "timed": timed}), file=stream)
    else:
        print(result.describe(), file=stream)
    return 0


def run(a: str, b: str, deals: int, seed: int, rules: Rules, workers: int, timed: bool = True) -> DuelResult:
    """The duel on ``workers`` processes. Untimed, the strong player's work is bounded by its node budgets alone,
    so the result is the same on any machine, however busy; timed (as at a table) its time cap can cut a
    decision short. Either way the number of workers changes nothing else."""
    make_a: Callable[[int], Player] = partial(make_player, a, timed=timed)
    make_b: Callable[[int], Player] = partial(make_player, b, timed=timed)
    if workers <= 1 or deals < 4:
        return duel(a, b, deals, seed, rules, make_a=make_a, make_b=make_b)
    # Not fork: the parent may hold threads (asyncio workers, numba) whose locks a forked child inherits held.
    context = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "forkserver")
    # The workers leave Ctrl-C to this process, which ends the pool: one short message instead of a traceback each.
    with context.Pool(workers, initializer=_ignore_interrupt) as pool:
        chunk = max(1, deals // (workers * 16))

        def pool_map(fn: Callable[[int], DealOutcome], items: Iterable[int]) -> Iterator[DealOutcome]:
            return pool.imap(fn, items, chunksize=chunk)

        return duel(a, b, deals, seed, rules, map_fn=pool_map, make_a=make_a, make_b=make_b)


def _ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


__all__ = ["PLAYER_KINDS", "run", "run_duel"]
