"""``pimc``: the strong player. Perfect-Information Monte Carlo over the double-dummy solver.

For a card: deal the unseen cards consistently with what the seat knows (``engine.ai.sampler``,
including what the bidding said), solve each deal exactly for every legal card, and play the card
with the best average outcome.

Outcomes are settled scores, not raw point differences: a deal where the playing team ends at or
below the defence counts as nat (0 against 162 + roem), so the player weighs the risk of going
nat. The roem of the nat penalty is the roem already scored (the solver's total is not split).

Work per decision is counted in solver nodes (``node_budget``), so on any machine the same
position gets the same samples and the same decision; ``time_budget_ms`` is only a hard cap for a
slow or busy machine (each solve's node limit also respects the time left, from a measured node
rate). A handful of sampled deals is noisier than the rule-based player's judgement, so when fewer
than ``min_samples`` deals can be solved within the budget (the first trick or two, where a deal
costs millions of nodes) the heuristic player decides. The first deal's node limit is a
``1 / min_samples`` share of the budget: when it cannot be solved in that, the rest could not
reach ``min_samples`` either, and the decision goes to the heuristic without spending the budget.

Bidding: solving whole deals under each trump costs seconds per sample, far beyond the budget, and
a few samples are too noisy for a decision where nat costs 162 + roem; the bid follows the
heuristic's hand evaluation against ``bid_threshold`` (tuned by duels against ``heuristic``).
"""

from __future__ import annotations

import time
from collections.abc import MutableSequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine import fast
from engine.actions import Call
from engine.ai.heuristic import HeuristicPlayer
from engine.ai.sampler import knowledge, sample_biased
from engine.cards import DECK, Card
from engine.game import Phase
from engine.rules import StukMode
from engine.solver import DoubleDummy, Position, SolveRules, held_stuk_bonus, pit_state
from engine.solver import warm_up as _solver_warm_up
from engine.view import SeatView

DEFAULT_SAMPLES = 24
DEFAULT_TIME_BUDGET_MS = 400.0
# About 0.3-0.5 s of solving on one busy core; the decision within it does not depend on the clock.
DEFAULT_NODE_BUDGET = 1_600_000
# Fewer solved deals than this: the heuristic's card is the better bet (duel-tested).
DEFAULT_MIN_SAMPLES = 6
# Hand evaluation (engine.ai.heuristic.hand_evaluation) from which pimc plays a hand.
BID_THRESHOLD = 62.0
_INITIAL_NODES_PER_MS = 5000.0


class SeededRandom:
    """A ``RandomSource`` from a seed, on numpy's generator (the engine keeps off the ``random`` module)."""

    def __init__(self, seed: int) -> None:
        self._gen = np.random.default_rng(seed)

    def random(self) -> float:
        return float(self._gen.random())

    def randrange(self, stop: int, /) -> int:
        return int(self._gen.integers(stop))

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = int(self._gen.integers(i + 1))
            x[i], x[j] = x[j], x[i]

    def getrandbits(self, k: int, /) -> int:
        value = 0
        for shift in range(0, k, 32):
            value |= int(self._gen.integers(1 << 32)) << shift
        return value & ((1 << k) - 1)


def warm_up() -> None:
    """Compile (or load from the cache) the solver, so the first decision does not wait for numba."""
    _solver_warm_up()


def settled_diff(diff: int, playing: bool, roem_total: int) -> int:
    """Score difference after settlement for a team whose hand total difference is ``diff``.

    ``playing``: the team is the playing team. Nat when the playing team's total is not more.
    """
    play_diff = diff if playing else -diff
    settled = play_diff if play_diff > 0 else -(fast.HAND_POINTS + roem_total)
    return settled if playing else -settled


@dataclass
class PimcPlayer:
    """The strong player; ``samples`` deals per decision within ``time_budget_ms``; seeded."""

    samples: int = DEFAULT_SAMPLES
    time_budget_ms: float = DEFAULT_TIME_BUDGET_MS
    seed: int = 0
    name: str = "pimc"
    node_budget: int = DEFAULT_NODE_BUDGET
    min_samples: int = DEFAULT_MIN_SAMPLES
    bid_threshold: float = BID_THRESHOLD
    _rng: SeededRandom = field(init=False, repr=False)
    _solver: DoubleDummy = field(init=False, repr=False)
    _heuristic: HeuristicPlayer = field(init=False, repr=False)
    _nodes_per_ms: float = field(init=False, repr=False, default=_INITIAL_NODES_PER_MS)
    last_samples: int = field(init=False, default=0)  # deals solved for the last decision
    last_nodes: int = field(init=False, default=0)  # solver nodes spent on the last decision
    last_source: str = field(init=False, default="")  # "search", "heuristic" or "only"

    def __post_init__(self) -> None:
        self._rng = SeededRandom(self.seed)
        self._solver = DoubleDummy()
        self._heuristic = HeuristicPlayer(seed=self.seed, threshold=self.bid_threshold)

    def choose(self, view: SeatView) -> Card | Call:
        legal = view.legal
        if not legal:
            raise ValueError("pimc asked to act when it is not its turn")
        deadline = time.perf_counter() + self.time_budget_ms / 1000.0
        self.last_samples = 0
        self.last_nodes = 0
        if view.phase is Phase.BIDDING:
            self.last_source = "heuristic"
            return self._heuristic.choose(view)
        cards = [a for a in legal if isinstance(a, Card)]
        if len(cards) == 1:
            self.last_source = "only"
            return cards[0]
        return self._play(view, cards, deadline)

    # ------------------------------------------------------------------ solving with a time cap

    def _node_limit(self, deadline: float) -> int:
        left_ms = (deadline - time.perf_counter()) * 1000.0
        return max(1, int(left_ms * self._nodes_per_ms))

    def _timed(self, pos: Position, rules: SolveRules, team: int, deadline: float,
               nodes: int) -> dict[int, int] | None:
        """Exact values of the seat to move's cards within ``nodes`` and the time left; None if cut off."""
        limit = min(nodes, self._node_limit(deadline))
        if limit <= 1:
            return None
        start = time.perf_counter()
        result = self._solver.card_values(pos, rules, team, node_limit=limit)
        self.last_nodes += self._solver.nodes
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        if elapsed_ms > 1.0 and self._solver.nodes > 1000:
            # Keep a smoothed node rate so the next limit matches the time left.
            rate = self._solver.nodes / elapsed_ms
            self._nodes_per_ms = 0.7 * self._nodes_per_ms + 0.3 * rate
        return result

    # ------------------------------------------------------------------ card play

    def _play(self, view: SeatView, cards: list[Card], deadline: float) -> Card:
        assert view.trump is not None and view.trick_leader is not None and view.player is not None
        trump = int(view.trump)
        team = view.seat & 1
        rules = SolveRules.of(view.rules)
        know = knowledge(view)
        winners = tuple(int(t.winner) for t in view.tricks)
        base = view.points[team] - view.points[1 - team] + view.roem[team] - view.roem[1 - team]
        roem_total = view.roem[0] + view.roem[1]
        playing = view.player & 1 == team
        played_by = _played_by(view)
        totals = {int(c): 0 for c in cards}
        raw = {int(c): 0 for c in cards}
        solved = 0
        while solved < self.samples and time.perf_counter() < deadline:
            hands = sample_biased(know, self._rng, view)
            pos = Position(hands, trump, int(view.trick_leader), tuple(int(c) for c in view.trick), len(view.tricks),
                           pit_state(winners))
            left = self.node_budget - self.last_nodes
            # The first deal tells whether ``min_samples`` can fit: give it only its share.
            nodes = left if solved else min(left, self.node_budget // max(1, self.min_samples))
            values = self._timed(pos, rules, team, deadline, nodes)
            if values is None:
                break
            bonus = self._stuk_bonus(view, hands, played_by, team)
            for card in totals:
                diff = base + values[card] + bonus
                totals[card] += settled_diff(diff, playing, roem_total)
                raw[card] += diff
            solved += 1
        self.last_samples = solved
        if solved < self.min_samples:
            self.last_source = "heuristic"
            choice = self._heuristic.choose(view)
            return choice if isinstance(choice, Card) and choice in cards else _fallback_card(view, cards)
        self.last_source = "search"
        best = max(totals, key=lambda c: (totals[c], raw[c], -c))
        return DECK[best]

    def _stuk_bonus(self, view: SeatView, hands: tuple[int, int, int, int], played_by: list[int], team: int) -> int:
        """Stuk: held still to be scored in this deal, for ``team`` (a constant of the deal)."""
        if view.rules.stuk is not StukMode.HELD or view.trump is None:
            return 0
        dealt = (hands[0] | played_by[0], hands[1] | played_by[1], hands[2] | played_by[2], hands[3] | played_by[3])
        bonus = held_stuk_bonus(dealt, int(view.trump), tuple(int(s) for s in view.held_stuk))
        return bonus if team == 0 else -bonus


def _played_by(view: SeatView) -> list[int]:
    played = [0, 0, 0, 0]
    for trick in view.tricks:
        for seat, card in trick.plays:
            played[seat] |= 1 << card
    for seat, card in view.trick_plays:
        played[seat] |= 1 << card
    return played


def _fallback_card(view: SeatView, cards: list[Card]) -> Card:
    """A safe card without search: the cheapest one (keeps points away from the opponents)."""
    trump = int(view.trump) if view.trump is not None else 0
    return min(cards, key=lambda c: (fast.CARD_POINTS[trump * 32 + c], c))
