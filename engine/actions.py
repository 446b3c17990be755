"""Actions that drive a game: chance (Deal, TurnUp), calls, cards, and roem claims or declines."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import DECK, SEATS, SUITS, Card, Seat, Suit, iter_bits, mask_of
from engine.errors import ParseError


class Call(StrEnum):
    """A bidding call; the values are the record's notation and their order is the listing order."""

    PASS = "pass"
    PLAY = "play"
    C = "C"
    D = "D"
    H = "H"
    S = "S"

    @property
    def suit(self) -> Suit | None:
        return Suit.parse(self.value) if len(self.value) == 1 else None

    @classmethod
    def parse(cls, text: str) -> Call:
        if not isinstance(text, str):
            raise ParseError(f"a call must be a string: pass, play, C, D, H or S; not {text!r}")
        raw = text.strip()
        for call in CALLS:
            if raw.lower() == call.value.lower():
                return call
        raise ParseError(f"not a call: {text!r} (use pass, play, or a suit C, D, H, S)")

    @classmethod
    def for_suit(cls, suit: Suit) -> Call:
        return SUIT_CALLS[suit]

    def __str__(self) -> str:
        return self.value


CALLS: tuple[Call, ...] = tuple(Call)
SUIT_CALLS: tuple[Call, ...] = (Call.C, Call.D, Call.H, Call.S)


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance action: the dealer and the four hands (8 cards each, 32 distinct)."""

    dealer: Seat
    hands: tuple[int, int, int, int]  # masks, indexed by seat

    @classmethod
    def from_cards(cls, dealer: Seat, hands: dict[Seat, list[Card]] | list[list[Card]]) -> Deal:
        if isinstance(hands, dict):
            masks = tuple(mask_of(hands.get(seat, [])) for seat in SEATS)
        else:
            masks = tuple(mask_of(cards) for cards in hands)
        return cls(dealer, (masks[0], masks[1], masks[2], masks[3]))

    def cards(self, seat: Seat) -> list[Card]:
        return [DECK[i] for i in iter_bits(self.hands[seat])]


@dataclass(frozen=True, slots=True)
class TurnUp:
    """Chance action (draaien): the suit turned up (named apart from whose turn it is)."""

    suit: Suit

    @classmethod
    def of(cls, suit: Suit | int) -> TurnUp:
        return cls(SUITS[suit])


@dataclass(frozen=True, slots=True)
class Claim:
    """roem: declared: ``seat`` claims the roem of the trick just completed for its team.

    Any seat may claim while the trick's claim window is open, in its turn or not; in the claim phase
    after the last trick it is also one of the two choices of the seat to act.
    """

    seat: Seat

    def __str__(self) -> str:
        return "claim"


@dataclass(frozen=True, slots=True)
class Decline:
    """roem: declared, the claim phase after the last trick: ``seat``, the seat to act, does not claim,
    and its team's claim window closes. Not written in records: replaying a complete hand closes the
    window after the claims it lists."""

    seat: Seat

    def __str__(self) -> str:
        return "decline"


Action = Card | Call | Deal | TurnUp | Claim | Decline
Choice = Card | Call | Claim | Decline  # what a seat to act may choose: every action but chance's

