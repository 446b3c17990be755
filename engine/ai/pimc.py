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
rate). A handful of sampled deals is noisier than a good estimate on many, so when fewer than
``min_samples`` deals can be solved within the budget (the first trick or two, where a deal costs
millions of nodes) the deals are searched to a trick horizon instead (``engine.ai.horizon``: exact
play for ``horizon_tricks`` tricks, the current one included, and a static estimate fitted to
double-dummy values beyond), a few thousand nodes a deal, within ``horizon_node_budget``. The first
deal's node limit is a ``1 / min_samples`` share of the budget: when it cannot be solved in that,
the rest could not reach ``min_samples`` either, and the horizon search takes over without spending
the budget. Every card with a choice thus comes from searching sampled deals, never from a rule.

Bidding: by default ``engine.ai.bidding``, a hand's expected settled score under each trump in its
place in the bidding, fitted offline to solved deals. With ``sampled_bidding`` the heuristic's hand
evaluation against ``bid_threshold`` is the prior and sampled solves
decide the close calls: a hand within ``bid_margin`` of the threshold (play or pass), or a seat that
must name a suit with a second suit within the margin of the best. Deals consistent with the own hand
and the passes so far (``sample_bidding``) are solved from the elder hand's lead under each candidate
trump, within a bid node budget of its own (a whole deal costs ~0.5M nodes, a card ~0.1M); each
value becomes a settled score (nat: -162) and the mean is compared with what passing is worth,
calibrated so that a hand at the threshold is on average a toss-up (see ``PASS_VALUE_LEAD``).
"""

from __future__ import annotations

import math
import time
from collections.abc import MutableSequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine import rulebook
from engine.actions import SUIT_CALLS, Call, Choice
from engine.ai.bidding import choose_bid
from engine.ai.claims import claim_or_decline
from engine.ai.heuristic import BID_THRESHOLD, hand_evaluation
from engine.ai.horizon import Horizon
from engine.ai.horizon import warm_up as _horizon_warm_up
from engine.ai.sampler import knowledge, sample_biased, sample_bidding
from engine.ai.solver import DoubleDummy, held_stuk_bonus, pit_state, thread_solver
from engine.ai.solver import warm_up as _solver_warm_up
from engine.ai.tricks import Position, SolveRules
from engine.cards import DECK, SUITS, Card, team_of
from engine.game import Phase
from engine.settings import StukMode
from engine.view import SeatView

# 48 deals a card (was 24) and twice the horizon deals: against the heuristic, untimed, paired over the same
# 1,000 deals (seed 1), +40.3 a hand against +38.3, a gain of +1.9 [-1.4, +5.3], for about 1.4 times the CPU.
DEFAULT_SAMPLES = 48
DEFAULT_TIME_BUDGET_MS = 400.0
# About 0.3-0.5 s of solving on one busy core; the decision within it does not depend on the clock.
# 1.5 times the former 1.6M: the solver now solves a deal in about 0.7 of the time. Duels against the
# heuristic (200 deals, untimed): +37.4 [29.4, 45.4] a hand at 1.6M, +39.4 [31.3, 47.5] at 3.2M.
DEFAULT_NODE_BUDGET = 2_400_000
# Fewer exactly solved deals than this: the horizon search on more deals is the better bet. All of
# them, so a decision rests on 48 exact deals or 96 estimated ones. Paired against 6 (the same 1,000
# deals, seed 1, untimed; each decision's deals seeded by the cards played so far, so a hand whose
# decisions do not change scores alike): 12 +1.9 [+0.2, +3.7] a hand, 24 +2.3 [+0.1, +4.5], 48 +2.6
# [+0.0, +5.2] (on seed 2's deals +4.3 [+1.7, +7.0]), and a third less CPU: a few exact deals at the
# first tricks are noisier than many estimated ones.
DEFAULT_MIN_SAMPLES = DEFAULT_SAMPLES
# The horizon search (when too few deals can be solved): the current trick and the next exactly, the
# rest estimated; about 1-10 thousand nodes a deal at the first trick. Against pimc that leaves those
# cards to the heuristic (untimed, 100 deals each): +1.5 a hand [-7.2, +10.2] (seed 1, 24 horizon
# deals), +6.1 [-3.1, +15.3] (seed 2, 48); against the heuristic (klaverjas duel, 200 deals, seed 1):
# +39.8 [32.0, 47.7], main +33.6 [26.2, 41.0] (not paired: the intervals overlap).
HORIZON_TRICKS = 2
HORIZON_NODE_BUDGET = 800_000
# Horizon deals are cheap, so twice as many as exact ones: less noise in the means at the same cost.
HORIZON_SAMPLES = 96
_INITIAL_NODES_PER_MS = 5000.0
# Sampled bidding (``PimcPlayer._bid``). A whole deal costs ~0.5M nodes (median; a tail of several
# million), so a bid gets its own budget, a few times a card's: bids are at most two a seat a hand.
SAMPLED_BIDDING = False
BID_MARGIN = 12.0  # evaluation points around the threshold (or the best suit) where samples decide
BID_NODE_BUDGET = 6_000_000
DEFAULT_BID_TIME_BUDGET_MS = 800.0  # the hard cap of a sampled bid: under the 1 s bar
BID_SOLVE_NODES = 1_500_000  # a deal beyond this is dropped (about one in five)
BID_SAMPLES = 12
MIN_BID_SAMPLES = 4
# What passing is worth, in the same double-dummy settled score: the mean value of a hand at the
# tuned threshold (measured on 30 and 25 sampled hands within 12 of it, 12 deals each), so samples
# move a decision only by what is particular to this deal, not by double dummy's optimism. The team
# that leads the first trick gets far more from the same hand (+72 against +10 at the threshold).
PASS_VALUE_LEAD = 70.0
PASS_VALUE_OTHER = 10.0


class SeededRandom:
    """A ``RandomSource`` from a seed, on numpy's generator (the engine keeps off the ``random`` module).

    Not ``engine.randomness.SeededRandom``: the sampled deals, hence pimc's play and the benchmark's deals, are
    this generator's, and on SplitMix64 the same seeds give other deals (test_pimc's pinned positions then solve
    92 deals where they solve 48 or 96), at no gain in speed (a randrange takes 4.7 µs here, 4.0 µs there).
    """

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
    """Compile (or load from the cache) the solver and the horizon search, so the first decision does not
    wait for numba."""
    _solver_warm_up()
    _horizon_warm_up()


def settled_diff(diff: int, playing: bool, roem_total: int) -> int:
    """Score difference after settlement for a team whose hand total difference is ``diff``.

    ``playing``: the team is the playing team. Nat when the playing team's total is not more.
    """
    play_diff = diff if playing else -diff
    settled = play_diff if play_diff > 0 else -(rulebook.HAND_POINTS + roem_total)
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
    _bid_rng: SeededRandom = field(init=False, repr=False)
    _nodes_per_ms: float = field(init=False, repr=False, default=_INITIAL_NODES_PER_MS)
    last_samples: int = field(init=False, default=0)  # deals solved for the last decision
    last_nodes: int = field(init=False, default=0)  # solver nodes spent on the last decision
    # "search", "heuristic", "model" (engine.ai.bidding), "only" or "policy" (claims)
    last_source: str = field(init=False, default="")
    last_horizon: bool = field(init=False, default=False)  # the last card was searched to a horizon
    horizon_tricks: int = HORIZON_TRICKS
    horizon_node_budget: int = HORIZON_NODE_BUDGET
    horizon_samples: int = HORIZON_SAMPLES
    _horizon: Horizon = field(init=False, repr=False)
    # Bidding by sampled solves (see ``_bid``); off: the hand evaluation alone decides.
    sampled_bidding: bool = SAMPLED_BIDDING
    bid_margin: float = BID_MARGIN
    bid_node_budget: int = BID_NODE_BUDGET
    bid_time_budget_ms: float = DEFAULT_BID_TIME_BUDGET_MS
    bid_solve_nodes: int = BID_SOLVE_NODES
    min_bid_samples: int = MIN_BID_SAMPLES
    bid_samples: int = BID_SAMPLES
    pass_value_lead: float = PASS_VALUE_LEAD
    pass_value_other: float = PASS_VALUE_OTHER
    last_bid_values: dict[int, tuple[float, int]] = field(init=False, default_factory=dict)
    # False: no time cap, the node budgets alone bound the work, so the decision never depends on the clock.
    timed: bool = True

    def __post_init__(self) -> None:
        self._rng = SeededRandom(self.seed)
        # Bidding draws its own stream: card play then samples the same deals whether or not the
        # bids were sampled, so a hand bid alike is played alike (and duels compare bids only).
        self._bid_rng = SeededRandom(self.seed ^ 0x5DEECE66D)
        self._horizon = Horizon()

    @property
    def _solver(self) -> DoubleDummy:
        return thread_solver()

    def choose(self, view: SeatView) -> Choice:
        legal = view.legal
        if not legal:
            raise ValueError("pimc asked to act when it is not its turn")
        if view.phase is Phase.CLAIM:
            self.last_source = "policy"
            return claim_or_decline(view)
        budget_ms = self.bid_time_budget_ms if view.phase is Phase.BIDDING and self.sampled_bidding \
            else self.time_budget_ms
        deadline = time.perf_counter() + budget_ms / 1000.0 if self.timed else math.inf
        self.last_samples = 0
        self.last_nodes = 0
        self.last_horizon = False
        if view.phase is Phase.BIDDING:
            self.last_bid_values = {}
            if self.sampled_bidding:
                return self._bid(view, deadline)
            self.last_source = "model"
            return choose_bid(view)
        cards = [a for a in legal if isinstance(a, Card)]
        if len(cards) == 1:
            self.last_source = "only"
            return cards[0]
        return self._play(view, cards, deadline)

    # ------------------------------------------------------------------ solving with a time cap

    def _node_limit(self, deadline: float) -> int:
        if deadline == math.inf:
            return 1 << 62  # untimed: only the node budgets count
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
        self._count_search(start)
        return result

    def _count_search(self, start: float) -> None:
        """Count the nodes of the search begun at ``start`` and keep a smoothed node rate, so the next limit
        matches the time left."""
        nodes = self._solver.nodes
        self.last_nodes += nodes
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        if elapsed_ms > 1.0 and nodes > 1000:
            self._nodes_per_ms = 0.7 * self._nodes_per_ms + 0.3 * nodes / elapsed_ms

    # ------------------------------------------------------------------ card play

    def _play(self, view: SeatView, cards: list[Card], deadline: float) -> Card:
        assert view.trump is not None and view.trick_leader is not None and view.player is not None
        trump = int(view.trump)
        team = team_of(view.seat)
        rules = SolveRules.of(view.rules)
        know = knowledge(view)
        winners = tuple(int(t.winner) for t in view.tricks)
        base = view.points[team] - view.points[1 - team] + view.roem[team] - view.roem[1 - team]
        roem_total = view.roem[0] + view.roem[1]
        playing = team_of(view.player) == team
        played_by = _played_by(view)
        totals = {int(c): 0 for c in cards}
        raw = {int(c): 0 for c in cards}

        def add(values: dict[int, int], hands: tuple[int, int, int, int]) -> None:
            bonus = self._stuk_bonus(view, hands, played_by, team)
            for card in totals:
                diff = base + values[card] + bonus
                totals[card] += settled_diff(diff, playing, roem_total)
                raw[card] += diff

        def position(hands: tuple[int, int, int, int]) -> Position:
            assert view.trick_leader is not None
            return Position(hands, trump, int(view.trick_leader), tuple(int(c) for c in view.trick),
                            len(view.tricks), pit_state(winners))

        drawn: list[tuple[int, int, int, int]] = []
        solved = 0
        # A player asked for fewer deals than ``min_samples`` is content with all of them solved.
        enough = max(1, min(self.min_samples, self.samples))
        while solved < self.samples and time.perf_counter() < deadline:
            hands = sample_biased(know, self._rng, view)
            drawn.append(hands)
            left = self.node_budget - self.last_nodes
            # The first deal tells whether ``enough`` deals can fit: give it only its share.
            nodes = left if solved else min(left, self.node_budget // enough)
            values = self._timed(position(hands), rules, team, deadline, nodes)
            if values is None:
                break
            add(values, hands)
            solved += 1
        self.last_source = "search"
        if solved < enough:
            # Too few exact solves: search the deals drawn so far, and more, to the horizon.
            self.last_horizon = True
            for card in totals:
                totals[card] = raw[card] = 0
            solved = 0
            spent = 0
            while solved < self.horizon_samples and spent < self.horizon_node_budget:
                # The clock may stop it only once the decision rests on ``enough`` deals.
                if solved >= enough and time.perf_counter() >= deadline:
                    break
                hands = drawn[solved] if solved < len(drawn) else sample_biased(know, self._rng, view)
                values = self._horizon.card_values(position(hands), rules, team, self.horizon_tricks,
                                                   node_limit=self.horizon_node_budget - spent)
                spent += self._horizon.nodes
                if values is None:
                    if solved:
                        break
                    # Not even one deal within the budget: the trick in progress alone (a few hundred nodes).
                    values = self._horizon.card_values(position(hands), rules, team, 1)
                    spent += self._horizon.nodes
                    assert values is not None  # no node limit
                add(values, hands)
                solved += 1
            self.last_nodes += spent
        self.last_samples = solved
        best = max(totals, key=lambda c: (totals[c], raw[c], -c))
        return DECK[best]

    # ------------------------------------------------------------------ bidding

    def _bid(self, view: SeatView, deadline: float) -> Call:
        """The hand evaluation is the prior; sampled solves decide where it is close.

        Close means: the best evaluation within ``bid_margin`` of the threshold (play or pass), or,
        for a seat that must name a suit, a second suit within the margin of the best. Then the
        candidate suits are played out double-dummy on the same sampled deals, and the expected
        settled score of playing each is compared with what passing is worth (``PASS_VALUE_LEAD``) and with
        each other. Too few solved deals: the evaluation decides, as before.
        """
        legal = view.legal
        hand = view.hand_mask
        threshold = self.bid_threshold
        margin = self.bid_margin
        may_pass = Call.PASS in legal
        if Call.PLAY in legal:
            suits = [int(view.turned[-1])]
        else:
            suits = sorted(range(4), key=lambda s: (-hand_evaluation(hand, s), s))
        evals = {s: hand_evaluation(hand, s) for s in suits}
        best = suits[0]
        if may_pass:
            close = abs(evals[best] - threshold) <= margin
            candidates = [s for s in suits if evals[s] >= threshold - margin and evals[best] - evals[s] <= margin]
        else:
            candidates = [s for s in suits if evals[best] - evals[s] <= margin]
            close = len(candidates) > 1
        candidates = candidates[:2]  # a third suit within the margin is rare; two keep the samples up
        if close and candidates:
            values = self._bid_values(view, candidates, deadline)
            self.last_bid_values = values
            solved = min(n for _, n in values.values())
            if solved >= self.min_bid_samples:
                self.last_source = "search"
                self.last_samples = solved
                pick = max(candidates, key=lambda s: (values[s][0], evals[s], -s))
                assert view.elder is not None
                leads = team_of(view.elder) == team_of(view.seat)
                pass_value = self.pass_value_lead if leads else self.pass_value_other
                if may_pass and values[pick][0] <= pass_value:
                    return Call.PASS
                return Call.PLAY if Call.PLAY in legal else SUIT_CALLS[SUITS[pick]]
        self.last_source = "heuristic"
        if Call.PLAY in legal:
            return Call.PLAY if evals[best] >= threshold else Call.PASS
        if may_pass and evals[best] < threshold:
            return Call.PASS
        return SUIT_CALLS[SUITS[best]]

    def _bid_values(self, view: SeatView, suits: list[int], deadline: float) -> dict[int, tuple[float, int]]:
        """Mean settled score (for the seat's team, as the playing team) of playing each suit, and the
        number of deals it rests on. Every suit is solved on the same deals, so their comparison is
        not blurred by the luck of the draw; a deal beyond ``bid_solve_nodes`` is dropped for all."""
        assert view.elder is not None
        team = team_of(view.seat)
        leader = int(view.elder)
        rules = SolveRules.of(view.rules)
        held = view.rules.stuk is StukMode.HELD
        totals = dict.fromkeys(suits, 0)
        solved = 0
        draws = 0
        while solved < self.bid_samples and draws < 3 * self.bid_samples and time.perf_counter() < deadline:
            left = self.bid_node_budget - self.last_nodes
            if left < self.bid_solve_nodes // 4:
                break  # not enough left for a typical deal, let alone one per suit
            draws += 1
            hands = sample_bidding(view, self._bid_rng)
            outcome: dict[int, int] = {}
            for suit in suits:
                limit = min(self.bid_solve_nodes, self.bid_node_budget - self.last_nodes,
                            self._node_limit(deadline))
                if limit <= 1:
                    break
                start = time.perf_counter()
                result = self._solver.solve(Position(hands, suit, leader), rules, team, node_limit=limit)
                self._count_search(start)
                if result is None:
                    break
                bonus = held_stuk_bonus(hands, suit, ()) if held else 0
                # Roem of the whole hand is not split by the solver: the nat penalty counts the
                # 162 card points only, as card play does with roem still to come.
                outcome[suit] = settled_diff(result.value + (bonus if team == 0 else -bonus), True, 0)
            if len(outcome) < len(suits):
                continue
            for suit in suits:
                totals[suit] += outcome[suit]
            solved += 1
        return {s: (totals[s] / solved if solved else 0.0, solved) for s in suits}

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

