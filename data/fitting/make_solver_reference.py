"""Write ``tests/ai/data/solver_reference.json``: solver values that a faster solver must reproduce exactly.

Run from the repository root with the solver whose values are the reference
(``python -m data.fitting.make_solver_reference``). The deals are the first ones of ``klaverjas bench ai``'s solver
measurement (its generator and seed), stored with their hands so the table does not depend on that
generator staying the same. For each deal and each rule set: the value of the whole deal from the
first lead (``solve``), and the value of every legal card at the start of the third trick after the
solver's own best play (``card_values``, the path pimc uses).
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.ai.pimc import SeededRandom
from engine.ai.solver import DoubleDummy, after, warm_up
from engine.ai.tricks import Position, SolveRules
from engine.cards import SEATS
from engine.game import random_deal

DEALS = 16
SEED = 2024  # the seed of ``engine.ai.bench.bench_solver``
RULE_SETS = [SolveRules(amsterdam, forced, stuk) for amsterdam in (False, True) for forced in (True, False)
             for stuk in (True, False)]
PATH = Path(__file__).resolve().parents[2] / "tests" / "ai" / "data" / "solver_reference.json"


def third_trick(solver: DoubleDummy, pos: Position, rules: SolveRules) -> Position:
    """The position at the start of the third trick, every card a best one by ``solve``."""
    while pos.tricks_done < 2:
        result = solver.solve(pos, rules)
        assert result is not None
        pos = after(pos, result.card, rules)
    return pos


def main() -> None:
    warm_up()
    rng = SeededRandom(SEED)  # the generator bench_solver drew its deals from
    solver = DoubleDummy()
    entries = []
    for _ in range(DEALS):
        deal = random_deal(rng, SEATS[rng.randrange(4)])
        trump = rng.randrange(4)
        pos = Position(deal.hands, trump, (deal.dealer + 1) & 3)
        by_rules = []
        for rules in RULE_SETS:
            full = solver.solve(pos, rules, team=0)
            assert full is not None
            third = third_trick(solver, pos, rules)
            cards = solver.card_values(third, rules, team=0)
            assert cards is not None
            by_rules.append({"rules": list(rules), "value": full.value,
                             "third": {"hands": list(third.hands), "leader": third.leader, "pit": third.pit,
                                       "cards": {str(c): v for c, v in sorted(cards.items())}}})
        entries.append({"hands": list(deal.hands), "trump": trump, "leader": pos.leader, "by_rules": by_rules})
    # One deal a line: a changed value shows as a changed line.
    lines = ",\n".join(json.dumps(entry, separators=(",", ":")) for entry in entries)
    PATH.write_text(f"{{\"seed\": {SEED}, \"deals\": [\n{lines}\n]}}\n")


if __name__ == "__main__":
    main()
