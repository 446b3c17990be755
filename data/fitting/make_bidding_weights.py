"""Print the strong player's bidding table (``engine.ai.bidding.WEIGHTS``), fitted to solved deals.

Run from the repository root (``python -m data.fitting.make_bidding_weights [DEALS] [SEED]``, default 16,000 deals
and seed 1, about 8 minutes on two cores) and paste the printed table over ``WEIGHTS``. Each deal is solved
under the four trumps (``engine.ai.bidding.solve_deals``) on every core; the result does not depend on how many.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Sequence
from functools import partial
from typing import TextIO

from engine.ai.bidding import FEATURE_NAMES, Context, Fit, SolvedDeal, fit, solve_deals
from engine.ai.solver import DoubleDummy
from engine.settings import Rules

DEALS = 16_000
SEED = 1
CHUNK = 25  # deals per task: a few seconds of solving, so the processes stay busy to the end


def main(argv: Sequence[str] = (), out: TextIO | None = None) -> int:
    deals = int(argv[0]) if argv else DEALS
    seed = int(argv[1]) if len(argv) > 1 else SEED
    try:
        result = fit(solved(seed, deals, os.cpu_count() or 1))
    except ValueError as error:  # too few deals for a context
        print(f"make_bidding_weights: {error}; give more deals", file=sys.stderr)
        return 2
    print(table_source(result, deals, seed), file=out or sys.stdout)
    return 0


def solved(seed: int, deals: int, workers: int) -> list[SolvedDeal]:
    starts = range(0, deals, CHUNK)
    work = partial(_solve_chunk, seed, deals)
    if workers <= 1 or deals <= CHUNK:
        return [deal for start in starts for deal in work(start)]
    with multiprocessing.get_context("forkserver").Pool(workers) as pool:
        return [deal for chunk in pool.imap(work, starts) for deal in chunk]


def _solve_chunk(seed: int, deals: int, start: int) -> list[SolvedDeal]:
    return solve_deals(seed, start, min(CHUNK, deals - start), Rules(), DoubleDummy())


def table_source(result: Fit, deals: int, seed: int) -> str:
    """``WEIGHTS`` as it is written in engine/ai/bidding.py."""
    command = f"python -m data.fitting.make_bidding_weights {deals} {seed}"
    counts = [f"{c.name.lower()} {n:,}" for c, n in zip(Context, result.rows, strict=True)]
    lines = [f"# Fitted by `{command}` ({4 * deals:,} solves, default rules): a row per",
             "# Context, a weight per FEATURE_NAMES. Rows per context: " + ", ".join(counts[:3]) + ",",
             "# " + ", ".join(counts[3:]) + ".",
             "WEIGHTS: tuple[tuple[float, ...], ...] = ("]
    for row in result.weights:
        assert len(row) == len(FEATURE_NAMES)
        numbers = [f"{w:.1f}" for w in row]
        lines.append("    (" + ", ".join(numbers[:12]) + ",")
        lines.append("     " + ", ".join(numbers[12:]) + "),")
    lines.append(")")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
