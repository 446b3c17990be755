"""Print the weights of ``engine.ai.horizon.estimate``: least squares of the features against the exact value.

Run from the repository root (``python -m data.fitting.make_horizon_weights``) and paste the printed rows
into ``engine.ai.horizon.WEIGHTS``. Positions: random deals and trumps (rotterdam), random legal
play up to the start of a trick with the given number of tricks left (the horizon search reaches
all kinds of play, not only good play), valued exactly by the solver (NS minus EW).
"""

from __future__ import annotations

import sys

import numpy as np

from engine import rulebook
from engine.ai.horizon import N_FEATURES, features
from engine.ai.pimc import SeededRandom
from engine.ai.solver import DoubleDummy, step, warm_up
from engine.ai.tricks import Position, SolveRules
from engine.cards import SEATS
from engine.game import random_deal

SEED = 77
POSITIONS = {7: 300, 6: 500, 5: 600, 4: 600, 3: 600, 2: 400, 1: 200}


def position(rng: SeededRandom, left: int, rules: SolveRules) -> Position:
    deal = random_deal(rng, SEATS[rng.randrange(4)])
    pos = Position(deal.hands, rng.randrange(4), (deal.dealer + 1) & 3)
    while pos.tricks_done < 8 - left:
        trick = (*pos.trick, 0, 0, 0)
        legal = rulebook.legal_mask(pos.hands[pos.to_move], trick[0], trick[1], trick[2], len(pos.trick),
                                    pos.trump, rules.amsterdam, rules.undertrump_forced)
        cards = [c for c in range(32) if legal >> c & 1]
        pos, _ = step(pos, cards[rng.randrange(len(cards))], rules)
    return pos


def main() -> None:
    warm_up()
    rng = SeededRandom(SEED)
    rules = SolveRules()
    solver = DoubleDummy()
    rows = np.zeros((9, N_FEATURES))
    for left, count in POSITIONS.items():
        x: list[list[float]] = []
        y: list[float] = []
        for _ in range(count):
            pos = position(rng, left, rules)
            result = solver.solve(pos, rules, team=0)
            assert result is not None
            x.append(features(pos.hands, pos.leader, pos.trump))
            y.append(result.value)
        a = np.array(x)
        b = np.array(y)
        w, *_ = np.linalg.lstsq(a, b, rcond=None)
        resid = b - a @ w
        print(f"# {left} tricks left: rms {np.sqrt(np.mean(resid ** 2)):.1f} (value sd {b.std():.1f})",
              file=sys.stderr)
        rows[left] = w
    for left in range(9):
        print("    (" + ", ".join(f"{v:.3f}" for v in rows[left]) + "),")


if __name__ == "__main__":
    main()
