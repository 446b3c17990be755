"""Cards, suits, ranks and seats in the notation of rules.md.

A card is an int 0..31: ``suit * 8 + rank`` with ranks in natural (roem) order 7 8 9 T J Q K A, so a
hand is a 32-bit mask and a suit is one byte of it. ``Card`` is an IntEnum over those ints, so the
readable API and the mask-based fast path (``engine.rulebook``) share one representation.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from engine.errors import ParseError

SUIT_LETTERS = "CDHS"
RANK_LETTERS = "789TJQKA"
SEAT_LETTERS = "NESW"


class Suit(IntEnum):
    C = 0
    D = 1
    H = 2
    S = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def mask(self) -> int:
        return 0xFF << (8 * self)

    @classmethod
    def parse(cls, text: str) -> Suit:
        letter = text.strip().upper()
        if len(letter) != 1 or letter not in SUIT_LETTERS:
            raise ParseError(f"unknown suit {text!r}: use C, D, H or S")
        return SUITS[SUIT_LETTERS.index(letter)]

    def __str__(self) -> str:
        return self.letter


class Rank(IntEnum):
    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]

    def __str__(self) -> str:
        return self.letter


class Card(IntEnum):
    """A card; the member name is suit then rank, ``str()`` gives the notation rank then suit (``JH``)."""

    C7 = 0
    C8 = 1
    C9 = 2
    CT = 3
    CJ = 4
    CQ = 5
    CK = 6
    CA = 7
    D7 = 8
    D8 = 9
    D9 = 10
    DT = 11
    DJ = 12
    DQ = 13
    DK = 14
    DA = 15
    H7 = 16
    H8 = 17
    H9 = 18
    HT = 19
    HJ = 20
    HQ = 21
    HK = 22
    HA = 23
    S7 = 24
    S8 = 25
    S9 = 26
    ST = 27
    SJ = 28
    SQ = 29
    SK = 30
    SA = 31

    @property
    def suit(self) -> Suit:
        return SUITS[self >> 3]

    @property
    def rank(self) -> Rank:
        return RANKS[self & 7]

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def notation(self) -> str:
        return RANK_LETTERS[self & 7] + SUIT_LETTERS[self >> 3]

    @property
    def symbol(self) -> str:
        """Short label with a suit symbol, ``10♥`` style, for people."""
        rank = "10" if self & 7 == Rank.TEN else RANK_LETTERS[self & 7]
        return rank + "♣♦♥♠"[self >> 3]

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return DECK[suit * 8 + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``JH``, ``10h``, ``th``; the inverse of ``str(card)``."""
        if not isinstance(text, str):
            raise ParseError(f"a card must be a string like 'JH', not {text!r}")
        raw = text.strip().upper()
        if raw.startswith("10"):
            raw = "T" + raw[2:]
        if len(raw) != 2 or raw[0] not in RANK_LETTERS or raw[1] not in SUIT_LETTERS:
            raise ParseError(
                f"not a card: {text!r} (write rank then suit, e.g. JH, 10S, 7C; ranks 7 8 9 T J Q K A)"
            )
        return DECK[SUIT_LETTERS.index(raw[1]) * 8 + RANK_LETTERS.index(raw[0])]

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Card.{self.name}"


class Seat(IntEnum):
    """Seats clockwise; partners sit opposite, so a seat's team is ``seat & 1``."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def letter(self) -> str:
        return SEAT_LETTERS[self]

    @property
    def next(self) -> Seat:
        return SEATS[(self + 1) & 3]

    @property
    def partner(self) -> Seat:
        return SEATS[(self + 2) & 3]

    @property
    def team(self) -> Team:
        return TEAMS[self & 1]

    @classmethod
    def parse(cls, text: str) -> Seat:
        letter = text.strip().upper() if isinstance(text, str) else ""
        if len(letter) != 1 or letter not in SEAT_LETTERS:
            raise ParseError(f"unknown seat {text!r}: use N, E, S or W")
        return SEATS[SEAT_LETTERS.index(letter)]

    def __str__(self) -> str:
        return self.letter


class Team(IntEnum):
    NS = 0
    EW = 1

    @property
    def other(self) -> Team:
        return TEAMS[1 - self]

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (SEATS[self], SEATS[self + 2])

    def __str__(self) -> str:
        return self.name


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
DECK: tuple[Card, ...] = tuple(Card)
SEATS: tuple[Seat, ...] = tuple(Seat)
TEAMS: tuple[Team, ...] = tuple(Team)
FULL_DECK_MASK = (1 << 32) - 1


# A card, seat or team as a plain int, for the mask-based code (the enums' ``suit``, ``rank``, ``team`` and ``next``
# say the same of a Card or Seat).


def suit_of(card: int) -> int:
    """The suit (0..3, C D H S) of card ``card``."""
    return card >> 3


def rank_of(card: int) -> int:
    """The rank (0..7, 7 8 9 T J Q K A) of card ``card``."""
    return card & 7


def card_at(suit: int, rank: int) -> int:
    """The card of ``suit`` and ``rank``."""
    return suit * 8 + rank


def team_of(seat: int) -> int:
    """The team (0 NS, 1 EW) of seat ``seat``: partners sit opposite."""
    return seat & 1


def seat_after(seat: int, steps: int) -> Seat:
    """The seat ``steps`` places clockwise from ``seat`` (the player of a trick's card ``steps`` after the leader)."""
    return SEATS[(seat + steps) & 3]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _byte_cards() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    return tuple(tuple(tuple(DECK[suit * 8 + bit] for bit in range(8) if byte >> bit & 1) for byte in range(256))
                 for suit in range(4))


_BYTE_CARDS = _byte_cards()  # _BYTE_CARDS[suit][byte]: the cards of that suit byte, in rank order


def cards_of(mask: int) -> list[Card]:
    """The cards in a mask, in index order (suit C D H S, rank 7 .. A)."""
    return [*_BYTE_CARDS[0][mask & 0xFF], *_BYTE_CARDS[1][(mask >> 8) & 0xFF],
            *_BYTE_CARDS[2][(mask >> 16) & 0xFF], *_BYTE_CARDS[3][(mask >> 24) & 0xFF]]


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.notation for card in cards)


def parse_cards(text: str) -> list[Card]:
    return [Card.parse(part) for part in text.replace(",", " ").split()]
