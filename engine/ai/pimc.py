"""``pimc``: the strong player. Perfect-Information Monte Carlo over the double-dummy solver.

For a card: deal the unseen cards consistently with what the seat knows (``engine.ai.sampler``),
solve each deal exactly for every legal card, and play the card with the best average outcome.
For a bid: deal the other hands at random and solve the whole hand under each trump it could name.

Outcomes are settled scores, not raw point differences: a deal where the playing team ends at or
below the defence counts as nat (0 against 162 + roem), so the player weighs the risk of going
nat. The roem of the nat penalty is the roem already scored (the solver's total is not split).

Anytime: samples are solved until ``samples`` are done or ``time_budget_ms`` is spent; each solve
gets a node limit from the time left (measured node rate), so no decision overruns the budget by
more than one bookkeeping step. If not even one deal could be solved, a simple safe rule decides.
"""

from __future__ import annotations

import time
from collections.abc import MutableSequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine import fast
from engine.actions import SUIT_CALLS, Call
from engine.ai.sampler import Knowledge, knowledge, sample_biased, sample_deal
from engine.cards import DECK, FULL_DECK_MASK, Card
from engine.game import Phase
from engine.rules import StukMode
from engine.solver import DoubleDummy, Position, SolveRules, held_stuk_bonus, pit_state
from engine.solver import warm_up as _solver_warm_up
from engine.view import SeatView

DEFAULT_SAMPLES = 24
DEFAULT_TIME_BUDGET_MS = 400.0
# A bid is made when the hand's expected settled score difference beats passing by this much:
# passing is worth about zero (someone else plays, or the forced seat does).
BID_THRESHOLD = 0.0
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
    _rng: SeededRandom = field(init=False, repr=False)
    _solver: DoubleDummy = field(init=False, repr=False)
    _nodes_per_ms: float = field(init=False, repr=False, default=_INITIAL_NODES_PER_MS)
    last_samples: int = field(init=False, default=0)  # deals solved for the last decision

    def __post_init__(self) -> None:
        self._rng = SeededRandom(self.seed)
        self._solver = DoubleDummy()

    def choose(self, view: SeatView) -> Card | Call:
        legal = view.legal
        if not legal:
            raise ValueError("pimc asked to act when it is not its turn")
        deadline = time.perf_counter() + self.time_budget_ms / 1000.0
        self.last_samples = 0
        if view.phase is Phase.BIDDING:
            calls = [a for a in legal if isinstance(a, Call)]
            return self._bid(view, calls, deadline)
        cards = [a for a in legal if isinstance(a, Card)]
        if len(cards) == 1:
            return cards[0]
        return self._play(view, cards, deadline)

    # ------------------------------------------------------------------ solving with a time cap

    def _node_limit(self, deadline: float) -> int:
        left_ms = (deadline - time.perf_counter()) * 1000.0
        return max(1, int(left_ms * self._nodes_per_ms))

    def _timed(self, pos: Position, rules: SolveRules, team: int, deadline: float,
               all_cards: bool) -> dict[int, int] | None:
        """Exact values of the seat to move's cards (or of the position, under key -1); None on timeout."""
        limit = self._node_limit(deadline)
        if limit <= 1:
            return None
        start = time.perf_counter()
        if all_cards:
            result = self._solver.card_values(pos, rules, team, node_limit=limit)
        else:
            solution = self._solver.solve(pos, rules, team, node_limit=limit)
            result = None if solution is None else {-1: solution.value}
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
            values = self._timed(pos, rules, team, deadline, all_cards=True)
            if values is None:
                break
            bonus = self._stuk_bonus(view, hands, played_by, team)
            for card in totals:
                diff = base + values[card] + bonus
                totals[card] += settled_diff(diff, playing, roem_total)
                raw[card] += diff
            solved += 1
        self.last_samples = solved
        if solved == 0:
            return _fallback_card(view, cards)
        best = max(totals, key=lambda c: (totals[c], raw[c], -c))
        return DECK[best]

    def _stuk_bonus(self, view: SeatView, hands: tuple[int, int, int, int], played_by: list[int], team: int) -> int:
        """Stuk: held still to be scored in this deal, for ``team`` (a constant of the deal)."""
        if view.rules.stuk is not StukMode.HELD or view.trump is None:
            return 0
        dealt = (hands[0] | played_by[0], hands[1] | played_by[1], hands[2] | played_by[2], hands[3] | played_by[3])
        bonus = held_stuk_bonus(dealt, int(view.trump), tuple(int(s) for s in view.held_stuk))
        return bonus if team == 0 else -bonus

    # ------------------------------------------------------------------ bidding

    def _bid(self, view: SeatView, calls: list[Call], deadline: float) -> Call:
        options: list[tuple[Call, int]] = []
        for call in calls:
            if call is Call.PLAY and view.turned:
                options.append((call, int(view.turned[-1])))
            elif call in SUIT_CALLS:
                options.append((call, SUIT_CALLS.index(call)))
        if not options:
            return calls[0]
        values = self._evaluate_trumps(view, [trump for _, trump in options], deadline)
        best_call, best_trump = max(options, key=lambda option: (values[option[1]], -option[1]))
        if Call.PASS in calls and values[best_trump] <= BID_THRESHOLD:
            return Call.PASS
        return best_call

    def _evaluate_trumps(self, view: SeatView, trumps: list[int], deadline: float) -> dict[int, float]:
        """Average settled score difference for this seat's team playing each trump."""
        assert view.dealer is not None
        seat = int(view.seat)
        team = seat & 1
        elder = (int(view.dealer) + 1) & 3
        own = view.hand_mask
        forbidden = [FULL_DECK_MASK & ~own if s == seat else 0 for s in range(4)]
        know = Knowledge(seat, own, FULL_DECK_MASK & ~own, (8, 8, 8, 8),
                         (forbidden[0], forbidden[1], forbidden[2], forbidden[3]))
        totals = dict.fromkeys(trumps, 0.0)
        counts = dict.fromkeys(trumps, 0)
        # One deal at a time for every trump, so a cut-off leaves all trumps equally sampled.
        done = False
        while not done and min(counts.values()) < self.samples and time.perf_counter() < deadline:
            hands = sample_deal(know, self._rng)
            for trump in trumps:
                rules = SolveRules.of(view.rules)
                values = self._timed(Position(hands, trump, elder), rules, team, deadline, all_cards=False)
                if values is None:
                    done = True
                    break
                bonus = held_stuk_bonus(hands, trump, ()) if view.rules.stuk is StukMode.HELD else 0
                diff = values[-1] + (bonus if team == 0 else -bonus)
                totals[trump] += settled_diff(diff, True, 0)
                counts[trump] += 1
            self.last_samples += 1
        if min(counts.values()) == 0:
            return {trump: _hand_strength(own, trump) for trump in trumps}
        return {trump: totals[trump] / counts[trump] for trump in trumps}


def _played_by(view: SeatView) -> list[int]:
    played = [0, 0, 0, 0]
    for trick in view.tricks:
        for seat, card in trick.plays:
            played[seat] |= 1 << card
    for seat, card in view.trick_plays:
        played[seat] |= 1 << card
    return played


def _hand_strength(own: int, trump: int) -> float:
    """Fallback when no deal could be solved in time: trump points held, less a par for the bid."""
    trumps = own & fast.SUIT_MASK[trump]
    points = sum(fast.CARD_POINTS[trump * 32 + c] for c in range(32) if trumps >> c & 1)
    return points + 10.0 * fast.popcount(trumps) - 80.0


def _fallback_card(view: SeatView, cards: list[Card]) -> Card:
    """A safe card without search: the cheapest one (keeps points away from the opponents)."""
    trump = int(view.trump) if view.trump is not None else 0
    return min(cards, key=lambda c: (fast.CARD_POINTS[trump * 32 + c], c))
