"""A faster solver gives exactly the values the reference solver gave, on the benchmark's deals.

The table (``tests/ai/data/solver_reference.json``) was written by ``data/fitting/make_solver_reference.py``
with the solver before its speed work; every full-deal value under every rule set and every card value at the start of
the third trick must come out the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.ai.solver import DoubleDummy
from engine.ai.tricks import Position, SolveRules

_TABLE: dict[str, Any] = json.loads((Path(__file__).resolve().parent / "data" / "solver_reference.json").read_text())


@pytest.mark.parametrize("index", range(len(_TABLE["deals"])))
def test_values_match_the_reference(index: int) -> None:
    deal = _TABLE["deals"][index]
    hands = tuple(deal["hands"])
    solver = DoubleDummy()
    for entry in deal["by_rules"]:
        rules = SolveRules(*entry["rules"])
        full = solver.solve(Position(hands, deal["trump"], deal["leader"]), rules, team=0)
        assert full is not None
        assert full.value == entry["value"], rules
        third = entry["third"]
        pos = Position(tuple(third["hands"]), deal["trump"], third["leader"], (), 2, third["pit"])
        cards = solver.card_values(pos, rules, team=0)
        assert cards == {int(c): v for c, v in third["cards"].items()}, rules
