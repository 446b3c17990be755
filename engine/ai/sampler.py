"""Deals of the unseen cards that agree with everything one seat knows.

What a seat knows (``DealConstraints``): its own hand, every card played and by whom, so how many cards
each other seat still holds, and what each play revealed under the table's play rules
(``engine.ai.reveals``).

Stuk: held gives nothing more: it is scored when the holder plays the second of K and Q, so both
cards are visible by then, and a seat that played one of them may or may not hold the other.

The play says more, softly too (``engine.ai.reveals.ducked_below``): a seat that gave a king onto a trick it
lost probably held no cheaper card of that suit.

The bidding says more, softly: a seat that passed probably had no suit it would play, one that
named trump of its own accord probably had a hand for it. Each seat's bidding is read against the
heuristic's hand evaluation and threshold (``engine.ai.heuristic``), the club player's yardstick;
``sample_biased`` draws a few deals and keeps the first that agrees (or the one that agrees most).

Sampling assigns the most constrained cards first, each to a seat that may hold it with a
probability proportional to that seat's free places (uniform when nothing is known), and restarts on
a dead end (``engine.ai.rollout.draw_deal``, compiled: the Monte Carlo player draws its deals by it too); a
randomised exhaustive search is the fallback, so a consistent deal is always found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine import rulebook
from engine.actions import Call
from engine.ai.heuristic import BID_THRESHOLD, hand_evaluation
from engine.ai.reveals import ducked_below, play_inference, plays_seen
from engine.ai.rollout import draw_deal
from engine.cards import FULL_DECK_MASK
from engine.randomness import RandomSource
from engine.settings import Rules
from engine.view import SeatView

_BIAS_DRAWS = 12  # deals drawn at most to find one that agrees with the bidding


@dataclass(frozen=True, slots=True)
class BidCheck:
    """What one call suggests about the caller's hand as dealt: under ``suits`` (a mask of suit
    bits), the best hand evaluation was ``strong`` (at least the threshold) or not."""

    seat: int
    suits: int
    strong: bool

    def agrees(self, dealt: int) -> bool:
        best = max(hand_evaluation(dealt, s) for s in range(4) if self.suits >> s & 1)
        return (best >= BID_THRESHOLD) == self.strong


@dataclass(frozen=True, slots=True)
class DealConstraints:
    seat: int
    own: int  # the seat's own hand (mask)
    unseen: int  # cards held by the three other seats
    sizes: tuple[int, int, int, int]  # cards each seat holds now
    forbidden: tuple[int, int, int, int]  # cards each seat cannot hold (own seat: everything but ``own``)
    trump_length_hint: tuple[int, int, int, int] = (0, 0, 0, 0)  # bidding: trumps a seat likely held
    bid_checks: tuple[BidCheck, ...] = ()  # bidding: what the other seats' calls suggest
    unlikely: tuple[int, int, int, int] = (0, 0, 0, 0)  # play: unseen cards each seat probably does not hold
    played_by: tuple[int, int, int, int] = (0, 0, 0, 0)  # the cards each seat has played this hand
    # Worked out once, every deal drawn reads them: for each unseen card the seats that may hold it; as arrays for
    # ``draw_deal``, the unseen cards most constrained first with their seats as bits, and the hands' sizes.
    eligible: dict[int, list[int]] = field(init=False, repr=False, compare=False)
    order: Any = field(init=False, repr=False, compare=False)
    seat_bits: Any = field(init=False, repr=False, compare=False)
    size_array: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = [c for c in range(32) if self.unseen >> c & 1]
        eligible = {c: [s for s in range(4) if s != self.seat and not self.forbidden[s] >> c & 1] for c in cards}
        order = sorted(cards, key=lambda c: len(eligible[c]))
        object.__setattr__(self, "eligible", eligible)
        object.__setattr__(self, "order", np.array(order, dtype=np.int64))
        object.__setattr__(self, "seat_bits", np.array([sum(1 << s for s in eligible[c]) for c in order],
                                                       dtype=np.int64))
        object.__setattr__(self, "size_array", np.array(self.sizes, dtype=np.int64))

    def allows(self, hands: tuple[int, int, int, int]) -> bool:
        """Whether a full set of current hands agrees with this knowledge."""
        union = 0
        for seat in range(4):
            if hands[seat] & union or rulebook.popcount(hands[seat]) != self.sizes[seat]:
                return False
            if hands[seat] & self.forbidden[seat]:
                return False
            union |= hands[seat]
        return hands[self.seat] == self.own and union == self.own | self.unseen


def knowledge(view: SeatView) -> DealConstraints:
    """Everything ``view.seat`` knows about where the unseen cards are."""
    seat = int(view.seat)
    own = view.hand_mask
    played = view.played_mask
    unseen = FULL_DECK_MASK & ~own & ~played
    sizes = [8, 8, 8, 8]
    forbidden = [0, 0, 0, 0]
    rules: Rules = view.rules
    trump = int(view.trump) if view.trump is not None else -1
    unlikely = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]  # a later play may contradict an earlier reading
    seen = 0
    for player, before, card in plays_seen(view):
        sizes[player] -= 1
        if trump >= 0 and player != seat:
            forbidden[player] |= play_inference(before, card, trump, rules.amsterdam, rules.undertrump_forced)
            unlikely[player] |= ducked_below(before, card, trump) & ~seen
        played_by[player] |= 1 << card
        seen |= 1 << card
    for other in range(4):
        if unlikely[other] & played_by[other]:
            unlikely[other] = 0  # it played a card the reading said it did not hold: it does not play that way
    hint = [0, 0, 0, 0]
    if view.player is not None and trump >= 0 and int(view.player) != seat and _chose_freely(view):
        hint[int(view.player)] = 3  # a seat that chose trump of its own accord usually holds three or more
    forbidden[seat] = FULL_DECK_MASK & ~own
    for other in range(4):
        if other != seat:
            forbidden[other] &= unseen  # cards already seen need no rule
            unlikely[other] &= unseen & ~forbidden[other]
    return DealConstraints(seat, own, unseen, (sizes[0], sizes[1], sizes[2], sizes[3]),
                     (forbidden[0], forbidden[1], forbidden[2], forbidden[3]), (hint[0], hint[1], hint[2], hint[3]),
                     bid_checks(view) if trump >= 0 else (), (unlikely[0], unlikely[1], unlikely[2], unlikely[3]),
                     (played_by[0], played_by[1], played_by[2], played_by[3]))


def bid_checks(view: SeatView) -> tuple[BidCheck, ...]:
    """What the other seats' calls suggest: passes in vrij (no suit) and draaien (not the turned
    suit), and a trump named by choice (a hand for it). Verplicht and forced calls say nothing."""
    bidding = view.rules.bidding.value
    checks: list[BidCheck] = []
    for i, (caller, call) in enumerate(view.bids):
        if int(caller) == int(view.seat):
            continue
        if call is Call.PASS:
            if bidding == "vrij" and i < 4:
                checks.append(BidCheck(int(caller), 0b1111, False))
            elif bidding == "draaien" and i // 4 < len(view.turned):
                checks.append(BidCheck(int(caller), 1 << int(view.turned[i // 4]), False))
    player = view.player
    if player is not None and view.trump is not None and int(player) != int(view.seat) and _chose_freely(view):
        checks.append(BidCheck(int(player), 1 << int(view.trump), True))
    return tuple(checks)


def _chose_freely(view: SeatView) -> bool:
    """Whether the player named trump by choice (not as the forced seat or in verplicht)."""
    calls = [call for _, call in view.bids]
    if not calls or calls[-1] is Call.PASS:
        return False
    if view.rules.bidding.value == "verplicht":
        return False
    if view.rules.bidding.value == "vrij":
        return len(calls) <= 4
    return len(view.turned) < 3  # draaien: the third turned suit is forced on the elder hand


def sample_deal(know: DealConstraints, rng: RandomSource) -> tuple[int, int, int, int]:
    """Current hands of all four seats: the own hand as it is, the unseen cards dealt consistently."""
    hands = np.zeros(4, dtype=np.int64)
    found, _ = draw_deal(know.order, know.seat_bits, know.size_array, know.seat, know.own, hands,
                         rng.getrandbits(62))
    if found:
        return int(hands[0]), int(hands[1]), int(hands[2]), int(hands[3])
    dealt = _exhaustive(know, rng)
    if dealt is None:
        raise ValueError("no deal agrees with this seat's knowledge")
    return dealt


def sample_deals(view: SeatView, rng: RandomSource, count: int, bias: bool = True) -> list[tuple[int, int, int, int]]:
    """``count`` consistent deals; with ``bias``, the bidding tilts them (trumps with the player)."""
    know = knowledge(view)
    return [sample_biased(know, rng, view, bias) for _ in range(count)]


def sample_biased(know: DealConstraints, rng: RandomSource, view: SeatView,
                  bias: bool = True, read_plays: bool = True) -> tuple[int, int, int, int]:
    """One consistent deal; with ``bias`` a few draws are spent to prefer deals that agree with the
    bidding (trump length with the player, the calls' hand evaluations) and, with ``read_plays``, with
    what the play made unlikely; never a hard rule, since people do not bid or play by one formula."""
    hands = sample_deal(know, rng)
    unlikely = know.unlikely if read_plays else (0, 0, 0, 0)
    if not bias or view.trump is None or not (any(know.trump_length_hint) or know.bid_checks or any(unlikely)):
        return hands
    trump_mask = rulebook.SUIT_MASK[int(view.trump)]
    played_by = know.played_by

    def misses(deal: tuple[int, int, int, int]) -> int:
        dealt = [deal[s] | played_by[s] for s in range(4)]
        count = sum(1 for s in range(4) if rulebook.popcount(dealt[s] & trump_mask) < know.trump_length_hint[s])
        count += sum(rulebook.popcount(deal[s] & unlikely[s]) for s in range(4))
        return count + sum(1 for check in know.bid_checks if not check.agrees(dealt[check.seat]))

    return _fewest_misses(know, rng, hands, misses)


def _fewest_misses(know: DealConstraints, rng: RandomSource, first: tuple[int, int, int, int],
                   misses: Callable[[tuple[int, int, int, int]], int]) -> tuple[int, int, int, int]:
    """Of up to ``_BIAS_DRAWS`` deals (``first`` and fresh ones), the first that agrees with everything
    ``misses`` checks, else the one that misses least: the bidding tilts the samples, it never rules."""
    best, best_misses = first, misses(first)
    for _ in range(_BIAS_DRAWS - 1):
        if best_misses == 0:
            break
        hands = sample_deal(know, rng)
        count = misses(hands)
        if count < best_misses:
            best, best_misses = hands, count
    return best


def sample_bidding(view: SeatView, rng: RandomSource) -> tuple[int, int, int, int]:
    """One full deal (8 cards a seat) for a seat still bidding: its own hand, the rest dealt so that the
    passes so far agree with their hand evaluations where a few draws allow (soft, as in play)."""
    know = knowledge(view)
    checks = bid_checks(view)
    hands = sample_deal(know, rng)
    if not checks:
        return hands

    def misses(deal: tuple[int, int, int, int]) -> int:
        return sum(1 for check in checks if not check.agrees(deal[check.seat]))

    return _fewest_misses(know, rng, hands, misses)


def _exhaustive(know: DealConstraints, rng: RandomSource) -> tuple[int, int, int, int] | None:
    order = know.order.tolist()
    eligible = know.eligible
    free = list(know.sizes)
    free[know.seat] = 0
    hands = [0, 0, 0, 0]
    hands[know.seat] = know.own

    def place(i: int) -> bool:
        if i == len(order):
            return True
        card = order[i]
        seats = eligible[card][:]
        rng.shuffle(seats)
        for s in seats:
            if free[s] > 0:
                free[s] -= 1
                hands[s] |= 1 << card
                if place(i + 1):
                    return True
                free[s] += 1
                hands[s] ^= 1 << card
        return False

    if not place(0):
        return None
    return hands[0], hands[1], hands[2], hands[3]
