"""The order a hand is shown in, by every front end: the images, the play buttons, the terminal."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise, permutations

from engine.cards import Card, Suit
from engine.rulebook import PLAIN_STRENGTH, TRUMP_STRENGTH

_RED_SUITS = (Suit.D, Suit.H)
_SUIT_CYCLE = (Suit.C, Suit.D, Suit.S, Suit.H)  # alternates black, red, black, red when read round


def suit_order(suits: Iterable[Suit], trump: Suit | None) -> list[Suit]:
    """The suits of a hand left to right: trump first, then colours alternating as far as possible."""
    present = sorted(set(suits))
    start = _SUIT_CYCLE.index(trump) if trump is not None else 0
    rank_of = {s: (_SUIT_CYCLE.index(s) - start) % 4 for s in present}

    def key(order: tuple[Suit, ...]) -> tuple[int, int, tuple[int, ...]]:
        same = sum((a in _RED_SUITS) == (b in _RED_SUITS) for a, b in pairwise(order))
        trump_late = 0 if trump is None or trump not in order or order[0] is trump else 1
        return (trump_late, same, tuple(rank_of[s] for s in order))

    if not present:
        return []
    best: tuple[Suit, ...] = min(permutations(present), key=key)
    return list(best)


def sort_cards(cards: Iterable[Card], trump: Suit | None) -> list[Card]:
    """Cards by ``suit_order``, strongest first within a suit in the order that counts under ``trump``."""
    cards = list(cards)
    order = suit_order((c.suit for c in cards), trump)
    position = {s: i for i, s in enumerate(order)}

    def strength(card: Card) -> int:
        table = TRUMP_STRENGTH if card.suit is trump else PLAIN_STRENGTH
        return table[card.rank]

    return sorted(cards, key=lambda c: (position[c.suit], -strength(c)))
