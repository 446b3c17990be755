"""Print the strong player's bidding table (``engine.ai.bidding.WEIGHTS`` and ``PLAY_THRESHOLDS``), fitted to
deals played out.

Run from the repository root (``python -m data.fitting.make_bidding_weights [DEALS] [SEED]``, default 24,000 deals
and seed 1, about 19 minutes on two cores) and paste the printed table over ``WEIGHTS`` and ``PLAY_THRESHOLDS``.
Each deal is played out under the four trumps by four ``mc`` players (``engine.ai.bidding.play_out_deals``) on
every core; the result does not depend on how many.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Sequence
from functools import partial
from typing import TextIO

from engine.ai.bidding import FEATURE_NAMES, Context, Fit, PlayedDeal, fit, play_out_deals
from engine.settings import Rules

DEALS = 24_000
SEED = 1
CHUNK = 25  # deals per task: a few seconds of play, so the processes stay busy to the end


def main(argv: Sequence[str] = (), out: TextIO | None = None) -> int:
    deals = int(argv[0]) if argv else DEALS
    seed = int(argv[1]) if len(argv) > 1 else SEED
    try:
        result = fit(played(seed, deals, os.cpu_count() or 1))
    except ValueError as error:  # too few deals for a context
        print(f"make_bidding_weights: {error}; give more deals", file=sys.stderr)
        return 2
    print(table_source(result, deals, seed), file=out or sys.stdout)
    return 0


def played(seed: int, deals: int, workers: int) -> list[PlayedDeal]:
    starts = range(0, deals, CHUNK)
    work = partial(_play_chunk, seed, deals)
    if workers <= 1 or deals <= CHUNK:
        return [deal for start in starts for deal in work(start)]
    with multiprocessing.get_context("forkserver").Pool(workers) as pool:
        return [deal for chunk in pool.imap(work, starts) for deal in chunk]


def _play_chunk(seed: int, deals: int, start: int) -> list[PlayedDeal]:
    return play_out_deals(seed, start, min(CHUNK, deals - start), Rules())


def table_source(result: Fit, deals: int, seed: int) -> str:
    """``WEIGHTS`` and ``PLAY_THRESHOLDS`` as they are written in engine/ai/bidding.py."""
    command = f"python -m data.fitting.make_bidding_weights {deals} {seed}"
    counts = [f"{c.name.lower()} {n:,}" for c, n in zip(Context, result.rows, strict=True)]
    lines = [f"# Fitted by `{command}` ({4 * deals:,} hands played out, default rules): a row per",
             "# Context, a weight per FEATURE_NAMES. Rows per context: " + ", ".join(counts[:3]) + ",",
             "# " + ", ".join(counts[3:]) + ".",
             "WEIGHTS: tuple[tuple[float, ...], ...] = ("]
    for row in result.weights:
        assert len(row) == len(FEATURE_NAMES)
        numbers = [f"{w:.1f}" for w in row]
        lines.append("    (" + ", ".join(numbers[:12]) + ",")
        lines.append("     " + ", ".join(numbers[12:]) + "),")
    lines.append(")")
    lines += ["",
              "# Expected settled score (as above) from which a seat plays, per Context: where PLAY_RATES of the hands",
              "# play, by the same deals.",
              "PLAY_THRESHOLDS = (" + ", ".join(f"{t:.1f}" for t in result.thresholds) + ")"]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
