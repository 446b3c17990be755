"""The strong player's bids: a hand's expected settled score under each trump, fitted to solved deals.

For each bidding context (the seat's place in the bidding: first to speak, which is the elder hand and
leads the first trick, second, third, fourth; or the elder hand naming a suit after four passes) a
linear model over a few hand features (``hand_features``) predicts the settled score (points and roem
difference, nat as -162) the seat's team makes, double dummy, as the playing team with that trump.
The weights come from ``fit`` over whole deals solved under all four trumps (``solve_deals``), each
context seeing only the deals where the seats before it passed (by the heuristic's hand evaluation,
the way the bidding of the other seats is read everywhere else). ``python -m data.fitting.make_bidding_weights``
runs it and prints the table below.

A seat plays when its best trump's expected score reaches the context's threshold
(``PLAY_THRESHOLDS``). The thresholds are not fitted: a double-dummy score is not what passing is
worth. They started at the values that keep the heuristic's play rate per context and were moved by
duplicate duels against the heuristic (engine/docs/ai-experiments.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from engine import rulebook
from engine.actions import SUIT_CALLS, Call
from engine.ai.heuristic import BID_THRESHOLD, hand_evaluation
from engine.ai.solver import DoubleDummy, held_stuk_bonus
from engine.ai.tricks import Position, SolveRules
from engine.cards import SUITS, Rank, Seat
from engine.game import random_deal
from engine.randomness import SeededRandom
from engine.settings import Rules, StukMode
from engine.view import SeatView

FEATURE_NAMES = (
    "bias",
    # the trumps held, by rank (7 8 9 10 J Q K A), then beyond the third, stuk, jack and nine together
    "trump_7", "trump_8", "trump_9", "trump_10", "trump_jack", "trump_queen", "trump_king", "trump_ace",
    "trumps_over_3", "trump_stuk", "trump_jack_nine",
    # the side suits, summed over the three
    "side_aces", "side_ace_tens", "side_tens_guarded", "side_tens_bare", "side_kings", "side_ace_kings",
    "side_voids", "side_singletons", "side_cards_over_3", "side_bare_aces",
)


class Context(IntEnum):
    """Where a seat is in the bidding (``vrij``: each seat in turn from the elder hand; the elder hand names
    trump when all four passed)."""

    FIRST = 0
    SECOND = 1
    THIRD = 2
    FOURTH = 3
    FORCED = 4


# Fitted by `python -m data.fitting.make_bidding_weights 16000 1` (64,000 solves, default rules): a row per
# Context, a weight per FEATURE_NAMES. Rows per context: first 64,000, second 33,336, third 16,260,
# fourth 7,740, forced 3,152.
WEIGHTS: tuple[tuple[float, ...], ...] = (
    (-159.4, 17.4, 21.9, 45.2, 28.3, 110.5, 22.0, 23.9, 36.8, 9.4, -7.7, 29.2,
     49.9, 9.1, 15.5, 3.9, 2.0, 2.8, 39.1, 8.7, -7.6, 3.2),
    (-158.3, 16.8, 19.2, 34.3, 20.4, 94.4, 12.8, 18.2, 27.9, 18.3, -3.4, 28.6,
     44.8, 10.7, 13.1, 5.9, 4.7, -0.2, 32.0, 3.0, -12.9, 4.1),
    (-214.9, 24.0, 25.0, 67.1, 32.8, 141.5, 25.4, 33.8, 49.9, 3.7, -9.7, 3.0,
     66.1, 12.8, 13.8, 7.5, 4.1, 1.7, 54.7, 10.8, -10.2, -2.7),
    (-226.9, 26.7, 32.0, 57.6, 35.8, 125.9, 34.2, 31.1, 44.7, 9.4, 4.6, 23.5,
     61.6, 12.6, 20.2, 0.9, 9.2, 1.0, 29.3, -0.8, -7.2, -0.8),
    (-199.2, 21.0, 32.7, 55.2, 35.6, 132.6, 34.1, 38.4, 49.1, 12.3, -22.5, 24.7,
     64.1, 24.8, 19.4, 8.9, -0.3, 6.3, 39.2, 5.1, -2.1, -5.2),
)

# Expected settled score (as above) from which a seat plays, per Context. FORCED here is the elder hand
# speaking again after four passes where it may still pass (draaien's second suit): as the first to speak.
PLAY_THRESHOLDS = (42.7, 7.3, 44.5, 11.8, 42.7)

# Under draaien a seat weighs the one turned suit, and a pass leaves it more than under vrij: the others may play
# it, and a second suit is turned if all pass. So the bar is higher there. Measured by paired duels (10: +0.6 a hand
# against the heuristic, +1.2 against mc, the strong player then playing 51.7% of hands against the heuristic's
# 48.2%, from 54.9% against 45.1%; engine/docs/ai-experiments.md).
TURNED_SUIT_RAISE = 10.0


def hand_features(hand_mask: int, trump: int) -> tuple[float, ...]:
    """The features of ``FEATURE_NAMES`` for a hand (a card mask) with ``trump``."""
    trumps = hand_mask >> (8 * trump) & 0xFF
    held = [float(trumps >> rank & 1) for rank in range(8)]
    count = rulebook.popcount(trumps)
    side = [0.0] * 10
    for suit in range(4):
        if suit == trump:
            continue
        cards = hand_mask >> (8 * suit) & 0xFF
        length = rulebook.popcount(cards)
        ace, ten, king = cards >> Rank.ACE & 1, cards >> Rank.TEN & 1, cards >> Rank.KING & 1
        side[0] += ace
        side[1] += ace & ten
        side[2] += ten and not ace and length >= 2
        side[3] += ten and not ace and length == 1
        side[4] += king and not ace
        side[5] += king & ace
        side[6] += length == 0
        side[7] += length == 1
        side[8] += max(0, length - 3)
        side[9] += ace and length == 1
    return (1.0, *held, float(max(0, count - 3)), held[Rank.QUEEN] * held[Rank.KING],
            held[Rank.JACK] * held[Rank.NINE], *side)


def expected_score(hand_mask: int, trump: int, context: Context,
                   weights: Sequence[Sequence[float]] = WEIGHTS) -> float:
    """The settled score the seat's team makes on average, double dummy, playing this hand with ``trump``."""
    return sum(w * f for w, f in zip(weights[context], hand_features(hand_mask, trump), strict=True))


def bidding_context(view: SeatView) -> Context:
    """The seat's place in the bidding from the elder hand; FORCED for the elder hand once it has passed
    (every seat has then passed)."""
    assert view.elder is not None
    place = Context((int(view.seat) - int(view.elder)) % 4)
    if place is Context.FIRST and any(seat == view.seat and call is Call.PASS for seat, call in view.bids):
        return Context.FORCED
    return place


def choose_bid(view: SeatView) -> Call:
    """Play the best trump when its expected score reaches the context's threshold (the turned suit under draaien:
    ``TURNED_SUIT_RAISE`` above it), else pass."""
    hand = view.hand_mask
    legal = view.legal
    context = bidding_context(view)
    threshold = PLAY_THRESHOLDS[context]
    if Call.PLAY in legal:  # draaien: play on the turned suit
        turned = int(view.turned[-1])
        if Call.PASS not in legal or expected_score(hand, turned, context) >= threshold + TURNED_SUIT_RAISE:
            return Call.PLAY
        return Call.PASS
    scores = {suit: expected_score(hand, suit, context) for suit in range(4)}
    best = max(scores, key=lambda suit: (scores[suit], -suit))
    if Call.PASS in legal and scores[best] < threshold:
        return Call.PASS
    return SUIT_CALLS[SUITS[best]]


# ---------------------------------------------------------------------- fitting (data/fitting/make_bidding_weights.py)


@dataclass(frozen=True, slots=True)
class SolvedDeal:
    """A deal (hands by seat, seat 0 the elder hand) and its double-dummy value for seats 0 and 2 under each
    trump, stuk held included."""

    hands: tuple[int, int, int, int]
    values: tuple[int, int, int, int]


def solve_deals(seed: int, first: int, count: int, rules: Rules, solver: DoubleDummy) -> list[SolvedDeal]:
    """Deals ``first`` .. ``first + count - 1`` of ``seed``, each solved from the elder hand's lead under every
    trump. A pure function of its arguments, so deals can be spread over processes."""
    solve_rules = SolveRules.of(rules)
    held = rules.stuk is StukMode.HELD
    deals = []
    for index in range(first, first + count):
        hands = random_deal(SeededRandom(seed * 1_000_003 + index), Seat.N).hands
        values = []
        for trump in range(4):
            solution = solver.solve(Position(hands, trump, 0), solve_rules, 0)
            assert solution is not None  # no node limit
            values.append(solution.value + (held_stuk_bonus(hands, trump, ()) if held else 0))
        deals.append(SolvedDeal(hands, (values[0], values[1], values[2], values[3])))
    return deals


@dataclass(frozen=True, slots=True)
class Fit:
    weights: tuple[tuple[float, ...], ...]  # a row per Context
    rows: tuple[int, ...]  # training rows per Context


def _passes(hand_mask: int) -> bool:
    return max(hand_evaluation(hand_mask, suit) for suit in range(4)) < BID_THRESHOLD


def training_rows(deals: Iterable[SolvedDeal]) -> dict[Context, tuple[list[tuple[float, ...]], list[float]]]:
    """Features and settled score per context: a seat's hand under each trump, for the deals where the seats
    before it passed."""
    rows: dict[Context, tuple[list[tuple[float, ...]], list[float]]] = {c: ([], []) for c in Context}

    def add(context: Context, hand: int, values: Iterable[int]) -> None:
        for trump, value in enumerate(values):  # the seat's team plays: nat when it makes no more than 0
            rows[context][0].append(hand_features(hand, trump))
            rows[context][1].append(float(value if value > 0 else -rulebook.HAND_POINTS))

    for deal in deals:
        passed = [_passes(hand) for hand in deal.hands]
        for place in range(4):
            if not all(passed[:place]):
                break
            add(Context(place), deal.hands[place], (v if place % 2 == 0 else -v for v in deal.values))
        if all(passed):
            add(Context.FORCED, deal.hands[0], deal.values)
    return rows


def fit(deals: Iterable[SolvedDeal]) -> Fit:
    """Least-squares weights per context."""
    rows = training_rows(deals)
    weights = []
    for context in Context:
        features, scores = rows[context]
        if len(scores) < len(FEATURE_NAMES):
            raise ValueError(f"too few deals to fit the {context.name.lower()} context ({len(scores)} rows)")
        solution, *_ = np.linalg.lstsq(np.array(features), np.array(scores), rcond=None)
        weights.append(tuple(round(float(w), 1) for w in solution))
    return Fit(tuple(weights), tuple(len(rows[c][1]) for c in Context))
