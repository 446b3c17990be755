"""What a played card reveals about the hand it came from, under the table's play rules (rules.md section 4).

- not following suit: void in the led suit;
- not trumping when the rules forced a trump: no trumps (or, when a trump was already in the trick
  and undertrumping is forbidden, no trump above it). Under amsterdam a player whose partner heads
  the trick may decline to trump, so that shows nothing;
- a trump below the one in the trick (failing to overtrump when it was required): no higher trump;
  where undertrumping was allowed only with nothing but trumps in hand, no other suit either. Under
  amsterdam below the partner's heading trump: nothing but trumps, but any of them (higher ones too).

The sampler deals the unseen cards by all of it; the heuristic's reading of voids and signals takes it from here
too, so the rules are read once.

What a card makes likely, not certain (``ducked_below``): a player who follows suit onto a trick the other team
heads, and does not beat it, gives the fewest points it can; so it probably held no cheaper card of that suit.
Players break this (a card kept to guard a ten, a mistake), so the sampler only leans on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from engine import rulebook
from engine.cards import FULL_DECK_MASK, Card, Seat, rank_of, seat_after, suit_of
from engine.view import SeatView


class TrickSoFar(NamedTuple):
    """The state of a trick before its next card: the suit led, which card heads it, the strongest trump in it."""

    led: int
    head: int  # position in the trick of the card heading it
    top: int  # trump strength of the strongest trump played, -1 when none

    def partner_heads(self, count: int) -> bool:
        """Whether the partner of the seat playing the card at position ``count`` heads the trick."""
        return count >= 2 and self.head == count - 2


def trick_so_far(trick: tuple[int, ...], trump: int) -> TrickSoFar:
    """The led suit, head and top trump of the cards ``trick`` (at least one)."""
    led = suit_of(trick[0])
    top = -1
    head, head_power = 0, rulebook.card_power(trick[0], trump, led)
    for i, earlier in enumerate(trick):
        if suit_of(earlier) == trump:
            top = max(top, rulebook.TRUMP_STRENGTH[rank_of(earlier)])
        power = rulebook.card_power(earlier, trump, led)
        if power > head_power:
            head, head_power = i, power
    return TrickSoFar(led, head, top)


def play_inference(trick: tuple[int, ...], card: int, trump: int, amsterdam: bool,
                   undertrump_forced: bool) -> int:
    """Cards the player of ``card`` on ``trick`` (cards before it) cannot have held at that moment."""
    if not trick:
        return 0
    return revealed(trick_so_far(trick, trump), len(trick), card, trump, amsterdam, undertrump_forced)


def revealed(state: TrickSoFar, count: int, card: int, trump: int, amsterdam: bool, undertrump_forced: bool) -> int:
    """``play_inference`` of ``card`` played as the trick's card number ``count`` + 1, the trick so far ``state``."""
    led, top = state.led, state.top
    suit = suit_of(card)
    trump_suit = rulebook.SUIT_MASK[trump]
    above = rulebook.TRUMP_ABOVE[trump * 9 + top + 1]
    strength = rulebook.TRUMP_STRENGTH[rank_of(card)]
    if suit == led:
        if led == trump and strength < top:
            return above  # followed trump without overtrumping: could not
        return 0
    forbidden = rulebook.SUIT_MASK[led]  # did not follow suit
    if led == trump:
        return forbidden
    partner_heads = state.partner_heads(count)
    if suit != trump:
        if amsterdam and partner_heads:
            return forbidden  # free not to trump: says nothing about trumps
        if top < 0 or undertrump_forced:
            return forbidden | trump_suit  # had to trump: holds none
        return forbidden | above  # could not overtrump, and undertrumping was not allowed
    if top >= 0 and strength < top:
        if amsterdam and partner_heads:
            # Under the partner's trump a lower one is allowed only from a hand of nothing but trumps,
            # and then any trump is: it says nothing about higher trumps.
            return forbidden | (FULL_DECK_MASK & ~trump_suit)
        forbidden |= above  # undertrumped: no higher trump
        if not undertrump_forced:
            forbidden |= FULL_DECK_MASK & ~trump_suit  # allowed only with nothing but trumps
    return forbidden


def ducked_below(trick: tuple[int, ...], card: int, trump: int) -> int:
    """Cards of the led suit cheaper than ``card``, played onto ``trick`` (the cards before it), when it followed a
    plain suit onto a trick the other team heads and did not beat it: a player losing the trick anyway gives its
    cheapest card, so it probably held none of these. 0 when the play says nothing."""
    if not trick:
        return 0
    state = trick_so_far(trick, trump)
    led = state.led
    if led == trump or suit_of(card) != led or state.partner_heads(len(trick)):
        return 0
    if rulebook.card_power(card, trump, led) > rulebook.card_power(trick[state.head], trump, led):
        return 0
    # Plain cards rank as their points do (a nine, eight and seven alike), so a cheaper card would have lost too.
    points = rulebook.CARD_POINTS[trump * 32 + card]
    cheaper = 0
    for other in range(led * 8, led * 8 + 8):
        if rulebook.CARD_POINTS[trump * 32 + other] < points:
            cheaper |= 1 << other
    return cheaper


def plays_seen(view: SeatView) -> Iterator[tuple[Seat, tuple[int, ...], int]]:
    """Every card ``view``'s seat has seen played this hand, in order: (who played it, the trick before it, it)."""
    tricks: list[tuple[Seat, tuple[Card, ...]]] = [(t.leader, t.cards) for t in view.tricks]
    if view.trick_leader is not None and view.trick:
        tricks.append((view.trick_leader, view.trick))
    for leader, cards in tricks:
        played = tuple(int(card) for card in cards)
        for position, card in enumerate(played):
            yield seat_after(leader, position), played[:position], card

