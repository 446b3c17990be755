"""Events a game emits for front ends; ``Game.apply`` returns them in order.

Events are read-only values by convention; they are plain slotted dataclasses (not frozen) because
frozen ones cost three times as much to build and a game emits one per card.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Call
from engine.cards import Card, Seat, Suit, Team
from engine.roem import RoemPart


@dataclass(slots=True)
class HandDealt:
    hand: int
    dealer: Seat


@dataclass(slots=True)
class SuitTurned:
    hand: int
    suit: Suit


@dataclass(slots=True)
class BidMade:
    hand: int
    seat: Seat
    call: Call


@dataclass(slots=True)
class TrumpChosen:
    hand: int
    trump: Suit
    player: Seat
    forced: bool  # the seat had to play (forced seat in vrij, verplicht, third turned suit)


@dataclass(slots=True)
class CardPlayed:
    hand: int
    trick: int
    seat: Seat
    card: Card


@dataclass(slots=True)
class StukScored:
    """stuk: held: the stuk of ``seat`` counts: it played the second of the trump K and Q it was dealt (roem:
    auto), or its team claimed the trick in which that card fell (roem: declared; before the RoemClaimed)."""

    hand: int
    seat: Seat
    team: Team
    points: int


@dataclass(slots=True)
class TrickWon:
    hand: int
    trick: int
    leader: Seat
    cards: tuple[Card, Card, Card, Card]
    winner: Seat
    winning_card: Card  # the winner's card, the one that took the trick
    team: Team
    points: int  # card points, with the last-trick 10
    roem: int  # roem in the trick (before any claim in declared mode)
    roem_parts: tuple[RoemPart, ...]
    # Declared roem: the trick's roem counts only when the winning team claims it. A held stuk that fell in
    # the trick needs its holder's team's claim as well: Game.claim_value(team) says what each team is owed.
    # Front ends tell none of this (roem, roem_parts, needs_claim) before a claim: spotting it is the players'.
    needs_claim: bool


@dataclass(slots=True)
class RoemClaimed:
    hand: int
    trick: int
    seat: Seat
    points: int  # what the claim scored (a held stuk included): 0 when nothing was owed to the seat's team
    stuk: int = 0  # of ``points``, the held stuk the claim made count (told by a StukScored just before)


@dataclass(slots=True)
class ClaimDeclined:
    """The claim phase: ``seat`` did not claim the last trick, and its team's claim window closed."""

    hand: int
    trick: int
    seat: Seat


@dataclass(slots=True)
class HandSettled:
    hand: int
    result: HandResult


@dataclass(slots=True)
class MatchOver:
    winner: Team | None  # None: a draw
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class HandResult:
    """The settlement of one complete hand; the score sheet is a list of these."""

    hand: int
    dealer: Seat
    trump: Suit
    player: Seat
    points: tuple[int, int]  # NS, EW: card points with the last-trick 10
    roem: tuple[int, int]  # NS, EW: roem that counted, pit included
    pit: Team | None
    nat: bool
    score: tuple[int, int]

    @property
    def playing(self) -> Team:
        return self.player.team


Event = (HandDealt | SuitTurned | BidMade | TrumpChosen | CardPlayed | StukScored | TrickWon | RoemClaimed
         | ClaimDeclined | HandSettled | MatchOver)
