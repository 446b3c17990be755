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

Deals are searched one by one, and from the ``stop_from``-th on a card the best one beats by more than three
standard errors of their paired difference (deal by deal) is dropped (``prune``): the deals left are searched for
the cards still close only. The search stops as soon as the best card beats every card left by two standard
errors, or they never differ from it (touching cards). Most decisions are clear early; the close ones get every
deal.

A second opinion: double dummy assumes every seat sees every card, and so misjudges plays whose worth lies in what
the others do not know. When more than one card is left in the running, each is also played out by ``mc``'s
semi-random roll-outs (``engine.ai.mc``, ``second_opinion_rollouts`` a card), and the card with the best mean
settled value plus ``second_opinion`` times its roll-out mean is played (``strong_choice``). Measured in
``engine/docs/ai-experiments.md``: +2 to +4 a hand against ``mc`` and +5 to +8 against the heuristic, paired, under
draaien and vrij.

Bidding: ``engine.ai.bidding``, a hand's expected settled score under each trump in its place in the
bidding, fitted offline to deals played out by ``mc`` players.
"""

from __future__ import annotations

import math
import time
from collections.abc import MutableSequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine import rulebook
from engine.actions import Choice
from engine.ai.bidding import choose_bid
from engine.ai.claims import claim_or_decline
from engine.ai.horizon import Horizon
from engine.ai.horizon import warm_up as _horizon_warm_up
from engine.ai.mc import MonteCarloPlayer
from engine.ai.mc import warm_up as _rollout_warm_up
from engine.ai.sampler import knowledge, sample_biased
from engine.ai.solver import DoubleDummy, held_stuk_bonus, pit_state, thread_solver
from engine.ai.solver import warm_up as _solver_warm_up
from engine.ai.tricks import Position, SolveRules
from engine.cards import DECK, Card, team_of
from engine.game import Phase
from engine.randomness import RandomSource
from engine.settings import StukMode
from engine.view import SeatView

# The settings below were chosen by duels against the heuristic and against each other; what was tried and
# measured is in engine/docs/ai-experiments.md.
# Deals a card: more deals win a little more for the CPU they cost.
DEFAULT_SAMPLES = 48
DEFAULT_TIME_BUDGET_MS = 400.0
# About 0.3-0.5 s of solving on one busy core; the decision within it does not depend on the clock.
DEFAULT_NODE_BUDGET = 2_400_000
# Fewer exactly solved deals than this: the horizon search on more deals is the better bet. All of
# them, so a decision rests on 48 exact deals or 96 estimated ones: a few exact deals at the first tricks
# are noisier than many estimated ones.
DEFAULT_MIN_SAMPLES = DEFAULT_SAMPLES
# The horizon search (when too few deals can be solved): the current trick and the next exactly, the
# rest estimated; about 1-10 thousand nodes a deal at the first trick.
HORIZON_TRICKS = 2
HORIZON_NODE_BUDGET = 800_000
# Horizon deals are cheap, so twice as many as exact ones: less noise in the means at the same cost.
HORIZON_SAMPLES = 96
# A decision whose best card is clear after this many deals stops there (a sequential test on the deals'
# paired values): a third less work for under a point a hand. From 8 deals on it stopped too soon.
DEFAULT_STOP_FROM = 16
# The search stops once the best card beats every card left by this many standard errors of their difference.
STOP_ERRORS = 2.0
# A card is dropped once the best beats it by this many standard errors: paired against no stop, 3 cost -0.6 a hand
# (vrij, seed 1) where 2 cost -1.7, for the same CPU; the stop itself still asks for ``STOP_ERRORS``.
DEFAULT_PRUNE_ERRORS = 3.0
# The weight of the roll-outs' mean against the searched mean, among the cards left; paired against no second
# opinion, 3 made +2.2 [-1.6, +6.0] a hand (draaien) and +4.3 [+0.7, +7.9] (vrij) on 1,000 deals against mc.
DEFAULT_SECOND_OPINION = 3.0
DEFAULT_SECOND_OPINION_ROLLOUTS = 1000  # a card
_INITIAL_NODES_PER_MS = 5000.0


class SeededRandom:
    """A ``RandomSource`` from a seed, on numpy's generator (the engine keeps off the ``random`` module).

    Numbers come from blocks of ``_BLOCK`` uniform floats, one numpy call a block (a call a number cost 1.2 µs).
    ``randrange(n)`` is ``int(u * n)``: its bias, under 2**-40 for any n a deal needs, is beyond any measure.

    Not ``engine.randomness.SeededRandom``: SplitMix64 in Python costs 4 µs a number. The benchmarks' positions
    (``engine.ai.bench``) are this generator's too.
    """

    _BLOCK = 1024

    def __init__(self, seed: int) -> None:
        self._gen = np.random.default_rng(seed)
        self._block: list[float] = []
        self._next = 0

    def random(self) -> float:
        if self._next == len(self._block):
            self._block = self._gen.random(self._BLOCK).tolist()
            self._next = 0
        value = self._block[self._next]
        self._next += 1
        return value

    def randrange(self, stop: int, /) -> int:
        if stop <= 0:
            raise ValueError(f"empty range for randrange({stop})")
        return min(int(self.random() * stop), stop - 1)  # u * n may round up to n when u is within 2**-53 of 1

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.randrange(i + 1)
            x[i], x[j] = x[j], x[i]

    def getrandbits(self, k: int, /) -> int:
        value = 0
        for shift in range(0, k, 32):
            value |= self.randrange(1 << 32) << shift
        return value & ((1 << k) - 1)


def warm_up() -> None:
    """Compile (or load from the cache) the solver, the horizon search and the roll-outs, so the first decision
    does not wait for numba."""
    _solver_warm_up()
    _horizon_warm_up()
    _rollout_warm_up()


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
    _rng: SeededRandom = field(init=False, repr=False)
    _nodes_per_ms: float = field(init=False, repr=False, default=_INITIAL_NODES_PER_MS)
    last_samples: int = field(init=False, default=0)  # deals solved for the last decision
    last_nodes: int = field(init=False, default=0)  # solver nodes spent on the last decision
    # "search", "model" (engine.ai.bidding), "only" or "policy" (claims)
    last_source: str = field(init=False, default="")
    last_horizon: bool = field(init=False, default=False)  # the last card was searched to a horizon
    horizon_tricks: int = HORIZON_TRICKS
    horizon_node_budget: int = HORIZON_NODE_BUDGET
    horizon_samples: int = HORIZON_SAMPLES
    _horizon: Horizon = field(init=False, repr=False)
    # False: no time cap, the node budgets alone bound the work, so the decision never depends on the clock.
    timed: bool = True
    # Stop drawing deals once the best card is clear (``Tally.clear``), from this many deals on; 0: never.
    stop_from: int = DEFAULT_STOP_FROM
    # From ``stop_from`` deals on, also stop searching each card the best one clearly beats (``Tally.prune``).
    prune: bool = True
    prune_errors: float = DEFAULT_PRUNE_ERRORS  # the standard errors by which the best card must beat one to drop it
    # The roll-outs' weight among the cards left after the search (0: none), and their number a card.
    second_opinion: float = DEFAULT_SECOND_OPINION
    second_opinion_rollouts: int = DEFAULT_SECOND_OPINION_ROLLOUTS
    # Lean the deals towards what the other seats' plays made likely (``engine.ai.reveals.ducked_below``).
    read_plays: bool = True

    def __post_init__(self) -> None:
        self._rng = SeededRandom(self.seed)
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
        deadline = time.perf_counter() + self.time_budget_ms / 1000.0 if self.timed else math.inf
        self.last_samples = 0
        self.last_nodes = 0
        self.last_horizon = False
        if view.phase is Phase.BIDDING:
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
               nodes: int, skip: int) -> dict[int, int] | None:
        """Exact values of the seat to move's cards (but those in ``skip``) within ``nodes`` and the time left;
        None if cut off."""
        limit = min(nodes, self._node_limit(deadline))
        if limit <= 1:
            return None
        start = time.perf_counter()
        result = self._solver.card_values(pos, rules, team, node_limit=limit, skip=skip)
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
        played_by = know.played_by
        tally = Tally([int(c) for c in cards])

        def add(values: dict[int, int], hands: tuple[int, int, int, int]) -> None:
            bonus = self._stuk_bonus(view, hands, played_by, team)
            diffs = {card: base + values[card] + bonus for card in tally.alive}
            tally.add({card: settled_diff(diff, playing, roem_total) for card, diff in diffs.items()}, diffs)

        def clear() -> bool:
            """Drop the cards clearly behind (``prune``), then whether the decision is clear."""
            if not 0 < self.stop_from <= tally.deals:
                return False
            if self.prune:
                tally.prune(self.prune_errors)
            return tally.clear()

        def position(hands: tuple[int, int, int, int]) -> Position:
            assert view.trick_leader is not None
            return Position(hands, trump, int(view.trick_leader), tuple(int(c) for c in view.trick),
                            len(view.tricks), pit_state(winners))

        drawn: list[tuple[int, int, int, int]] = []
        # A player asked for fewer deals than ``min_samples`` is content with all of them solved.
        enough = max(1, min(self.min_samples, self.samples))
        stopped = False  # the exact deals made the decision clear
        while tally.deals < self.samples and time.perf_counter() < deadline:
            hands = sample_biased(know, self._rng, view, read_plays=self.read_plays)
            drawn.append(hands)
            left = self.node_budget - self.last_nodes
            # The first deal tells whether ``enough`` deals can fit: give it only its share.
            nodes = left if tally.deals else min(left, self.node_budget // enough)
            values = self._timed(position(hands), rules, team, deadline, nodes, tally.dropped)
            if values is None:
                break
            add(values, hands)
            stopped = clear()
            if stopped:
                break
        self.last_source = "search"
        if tally.deals < enough and not stopped:
            # Too few exact solves: search the deals drawn so far, and more, to the horizon.
            self.last_horizon = True
            tally = Tally(tally.cards)
            spent = 0
            while tally.deals < self.horizon_samples and spent < self.horizon_node_budget:
                # The clock may stop it only once the decision rests on ``enough`` deals.
                if tally.deals >= enough and time.perf_counter() >= deadline:
                    break
                hands = (drawn[tally.deals] if tally.deals < len(drawn)
                         else sample_biased(know, self._rng, view, read_plays=self.read_plays))
                values = self._horizon.card_values(position(hands), rules, team, self.horizon_tricks,
                                                   node_limit=self.horizon_node_budget - spent, skip=tally.dropped)
                spent += self._horizon.nodes
                if values is None:
                    if tally.deals:
                        break
                    # Not even one deal within the budget: the trick in progress alone (a few hundred nodes).
                    values = self._horizon.card_values(position(hands), rules, team, 1, skip=tally.dropped)
                    spent += self._horizon.nodes
                    assert values is not None  # no node limit
                add(values, hands)
                if clear():
                    break
            self.last_nodes += spent
        self.last_samples = tally.deals
        return DECK[strong_choice(tally, view, self._rng, self.second_opinion, self.second_opinion_rollouts)]

    def _stuk_bonus(self, view: SeatView, hands: tuple[int, int, int, int], played_by: tuple[int, int, int, int],
                    team: int) -> int:
        """Stuk: held still to be scored in this deal, for ``team`` (a constant of the deal)."""
        if view.rules.stuk is not StukMode.HELD or view.trump is None:
            return 0
        dealt = (hands[0] | played_by[0], hands[1] | played_by[1], hands[2] | played_by[2], hands[3] | played_by[3])
        bonus = held_stuk_bonus(dealt, int(view.trump), tuple(int(s) for s in view.held_stuk))
        return bonus if team == 0 else -bonus


class Tally:
    """The cards' settled values and raw point differences summed over the deals searched for one decision, and
    the cards still in the running (``alive``): a card dropped by ``prune`` is searched no more.

    For the paired test it keeps, for every two cards, the sum of the squared differences of their settled
    values: in integers, so the test is exact and costs a few operations a deal, not a pass over every deal.
    """

    def __init__(self, cards: list[int]) -> None:
        self.cards = cards
        self.alive = list(cards)
        self.deals = 0
        self.settled = dict.fromkeys(cards, 0)
        self.raw = dict.fromkeys(cards, 0)
        self._squares = {(a, b): 0 for a in cards for b in cards if a < b}

    @property
    def dropped(self) -> int:
        """The mask of the cards dropped."""
        alive = set(self.alive)
        return sum(1 << card for card in self.cards if card not in alive)

    def add(self, settled: dict[int, int], raw: dict[int, int]) -> None:
        """One deal's values of the cards alive."""
        self.deals += 1
        alive = self.alive
        for card in alive:
            self.settled[card] += settled[card]
            self.raw[card] += raw[card]
        for i, a in enumerate(alive):
            for b in alive[i + 1:]:
                pair = (a, b) if a < b else (b, a)
                self._squares[pair] += (settled[a] - settled[b]) ** 2

    def best(self) -> int:
        """The best settled total; on a tie the better raw difference, then the lower card."""
        return max(self.alive, key=lambda c: (self.settled[c], self.raw[c], -c))

    def _behind(self, errors: float) -> dict[int, bool | None]:
        """For each other card alive: True when the best beats it by more than ``errors`` standard errors of their
        paired differences (deal by deal), None when it never differs from the best (touching cards), else
        False."""
        best = self.best()
        n = self.deals
        verdict: dict[int, bool | None] = {}
        for card in self.alive:
            if card == best:
                continue
            squares = self._squares[(best, card) if best < card else (card, best)]
            total = self.settled[best] - self.settled[card]
            if n < 2:
                verdict[card] = False
            elif not squares:
                verdict[card] = None
            else:
                # mean > errors * sd / sqrt(n), with sd the sample deviation: squared, times n**2 (n - 1); exact in
                # floats, the sums being integers far below 2**53.
                verdict[card] = total > 0 and total * total * (n - 1) > errors * errors * (n * squares - total * total)
        return verdict

    def clear(self) -> bool:
        """A sequential test: the best card beats every other alive by more than ``STOP_ERRORS`` standard errors of
        their paired differences, or never differs from it (touching cards)."""
        return self.deals >= 2 and all(behind is not False for behind in self._behind(STOP_ERRORS).values())

    def prune(self, errors: float) -> None:
        """Drop the cards the best beats by more than ``errors`` standard errors: the deals left are spent on the
        cards still close."""
        behind = self._behind(errors)
        self.alive = [card for card in self.alive if behind.get(card) is not True]


def strong_choice(tally: Tally, view: SeatView, rng: RandomSource, second_opinion: float = DEFAULT_SECOND_OPINION,
                  rollouts: int = DEFAULT_SECOND_OPINION_ROLLOUTS) -> int:
    """The card the strong player plays from the searched deals of ``tally`` (the seat of ``view`` to play): the
    best, or, when more than one card is still in the running, the best with the roll-outs' second opinion
    (``second_opinion`` times their mean, ``rollouts`` a card, seeded from ``rng``). The match review judges
    cards by it too."""
    if second_opinion > 0 and len(tally.alive) > 1 and tally.deals:
        means = MonteCarloPlayer(rollouts=rollouts, seed=rng.getrandbits(62)).means(view)
        return _with_second_opinion(tally, means, second_opinion)
    return tally.best()


def _with_second_opinion(tally: Tally, rollout_means: dict[int, float], weight: float) -> int:
    """The card left in the running with the best searched mean plus ``weight`` times its roll-outs' mean; on a tie
    the lower card."""
    return max(tally.alive, key=lambda c: (tally.settled[c] / tally.deals + weight * rollout_means[c], -c))
