"""The strong player's bids: a hand's expected settled score under each trump, fitted to deals played out.

For each bidding context (the seat's place in the bidding: first to speak, which is the elder hand and
leads the first trick, second, third, fourth; or the elder hand naming a suit after four passes) a
linear model over a few hand features (``hand_features``) predicts the settled score (points and roem
difference, nat as -162) the seat's team makes as the playing team with that trump. The weights come from
``fit`` over whole deals played out under all four trumps by four ``mc`` players (``play_out_deals``), each
context seeing only the deals where the seats before it passed (by the heuristic's hand evaluation, the way
the bidding of the other seats is read everywhere else). Played out, not solved double dummy: a hand is worth
what it makes at a table where nobody sees the others' cards, and double dummy overrates the trumps that
perfect play makes the most of. ``python -m data.fitting.make_bidding_weights`` runs it and prints the table
below.

A seat plays when its best trump's expected score reaches the context's threshold (``PLAY_THRESHOLDS``). The
thresholds keep a share of the hands in each context playing (``PLAY_RATES``), the shares at which duplicate
duels against the heuristic settled an earlier table's thresholds (engine/docs/ai-experiments.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from engine import rulebook
from engine.actions import SUIT_CALLS, Call, Deal
from engine.ai.heuristic import BID_THRESHOLD, hand_evaluation
from engine.ai.mc import MonteCarloPlayer
from engine.cards import SUITS, Rank, Seat
from engine.game import Game, random_deal
from engine.randomness import SeededRandom
from engine.settings import Rules
from engine.view import SeatView, seat_view

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


# The share of the hands reaching each Context that play: where paired duels against the heuristic and mc settled the
# thresholds of the table before this one (fitted to double-dummy values), measured on this table's deals. A refit
# keeps them, so it changes which hands play and with which trump, not how many. FORCED here is the elder hand
# speaking again after four passes where it may still pass (draaien's second suit).
PLAY_RATES = (0.569, 0.6325, 0.6188, 0.6735, 0.4177)

# Fitted by `python -m data.fitting.make_bidding_weights 24000 1` (96,000 hands played out, default rules): a row per
# Context, a weight per FEATURE_NAMES. Rows per context: first 96,000, second 50,048, third 24,596,
# fourth 11,480, forced 4,712.
WEIGHTS: tuple[tuple[float, ...], ...] = (
    (-153.4, 14.5, 17.0, 35.5, 22.8, 84.5, 15.6, 16.8, 27.6, 18.3, -1.9, 25.9,
     33.2, 11.8, 12.5, -0.3, 0.8, 1.0, 34.1, 8.2, -8.4, 11.8),
    (-130.6, 15.2, 16.4, 29.3, 21.3, 77.1, 13.6, 16.6, 23.7, 21.0, -0.8, 29.4,
     30.1, 13.4, 10.2, 1.0, 3.0, 0.5, 22.0, 5.0, -7.9, 6.7),
    (-192.1, 19.6, 18.9, 51.5, 30.9, 106.7, 19.6, 25.8, 39.9, 13.0, -1.3, 11.3,
     40.5, 14.4, 10.7, 0.5, 3.5, 3.9, 37.3, 7.8, -9.3, 9.1),
    (-190.0, 26.9, 28.2, 55.7, 34.1, 110.3, 28.7, 30.4, 40.6, 11.4, 1.0, 17.7,
     42.6, 16.2, 15.2, 2.4, 6.6, -1.0, 25.8, 1.8, 0.2, 8.5),
    (-178.6, 23.3, 25.5, 43.8, 26.8, 97.8, 22.3, 22.8, 31.0, 13.1, -7.2, 8.3,
     39.6, 21.9, 16.2, 5.0, -2.9, 0.3, 40.3, 10.0, -4.2, 4.2),
)

# Expected settled score (as above) from which a seat plays, per Context: where PLAY_RATES of the hands
# play, by the same deals.
PLAY_THRESHOLDS = (3.1, 6.5, 3.3, 15.5, -2.5)

# Under draaien a seat weighs the one turned suit, and a pass leaves it more than under vrij: the others may play
# it, and a second suit is turned if all pass. So the bar is higher there. Measured by paired duels with the table
# before this one (10: +0.6 a hand against the heuristic, +1.2 against mc, the strong player then playing 51.7% of
# hands against the heuristic's 48.2%, from 54.9% against 45.1%; engine/docs/ai-experiments.md), and kept with this
# one (its own duels were played with it).
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

# Roll-outs a card of the ``mc`` players that play the deals out: half ``mc``'s own, enough for card play as strong
# as the strong player's search (engine/docs/ai-experiments.md), at about 0.09 s of CPU a deal under four trumps.
PLAY_OUT_ROLLOUTS = 500


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """A deal (hands by seat, seat 0 the elder hand) played out under each trump, seat 0 naming it and four ``mc``
    players playing the cards: per trump, seats 0 and 2's card points and roem less seats 1 and 3's."""

    hands: tuple[int, int, int, int]
    values: tuple[int, int, int, int]


def play_out_deals(seed: int, first: int, count: int, rules: Rules,
                   rollouts: int = PLAY_OUT_ROLLOUTS) -> list[PlayedDeal]:
    """Deals ``first`` .. ``first + count - 1`` of ``seed``, each played out under every trump. A pure function of its
    arguments (every player seeded by the deal, the trump and the seat), so deals can be spread over processes."""
    deals = []
    for index in range(first, first + count):
        hands = random_deal(SeededRandom(seed * 1_000_003 + index), Seat.N).hands
        values = []
        for trump in range(4):
            game = Game(rules)
            game.apply(Deal(Seat.W, hands))  # West deals: North, seat 0, is the elder hand and names the trump
            game.apply(SUIT_CALLS[trump], Seat.N)
            players = [MonteCarloPlayer(rollouts=rollouts, seed=(seed * 7919 + index) * 16 + trump * 4 + seat)
                       for seat in range(4)]
            hand = game.hands[-1]
            while hand.result is None:
                seat = game.to_act
                assert seat is not None
                game.apply(players[seat].choose(seat_view(game, seat)), seat)
            result = hand.result
            values.append(result.points[0] + result.roem[0] - result.points[1] - result.roem[1])
        deals.append(PlayedDeal(hands, (values[0], values[1], values[2], values[3])))
    return deals


@dataclass(frozen=True, slots=True)
class Fit:
    weights: tuple[tuple[float, ...], ...]  # a row per Context
    thresholds: tuple[float, ...]  # per Context: where ``PLAY_RATES`` of the hands play
    rows: tuple[int, ...]  # training rows per Context


def _passes(hand_mask: int) -> bool:
    return max(hand_evaluation(hand_mask, suit) for suit in range(4)) < BID_THRESHOLD


def training_rows(deals: Iterable[PlayedDeal]) -> dict[Context, tuple[list[tuple[float, ...]], list[float]]]:
    """Features and settled score per context: a seat's hand under each trump (four rows a hand, trumps in
    order), for the deals where the seats before it passed."""
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


def fit(deals: Iterable[PlayedDeal]) -> Fit:
    """Least-squares weights per context, and the threshold above which the best trump's expected score lies for
    ``PLAY_RATES`` of the context's hands."""
    rows = training_rows(deals)
    weights = []
    thresholds = []
    for context in Context:
        features, scores = rows[context]
        if len(scores) < len(FEATURE_NAMES):
            raise ValueError(f"too few deals to fit the {context.name.lower()} context ({len(scores)} rows)")
        x = np.array(features)
        solution, *_ = np.linalg.lstsq(x, np.array(scores), rcond=None)
        row = tuple(round(float(w), 1) for w in solution)
        best = (x @ np.array(row)).reshape(-1, 4).max(axis=1)  # a hand's best trump
        weights.append(row)
        thresholds.append(round(float(np.quantile(best, 1.0 - PLAY_RATES[context])), 1))
    return Fit(tuple(weights), tuple(thresholds), tuple(len(rows[c][1]) for c in Context))
