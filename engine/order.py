"""The order a hand is shown in, by every front end: the images, the play buttons, the terminal."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise, permutations

from engine.cards import DECK, SUITS, Card, Suit
from engine.rulebook import PLAIN_STRENGTH, TRUMP_STRENGTH

_RED_SUITS = (Suit.D, Suit.H)
_SUIT_CYCLE = (Suit.C, Suit.D, Suit.S, Suit.H)  # alternates black, red, black, red when read round


def _best_order(present: list[Suit], trump: Suit | None) -> tuple[Suit, ...]:
    """Trump first, then colours alternating as far as possible, then the cycle's order from trump on."""
    start = _SUIT_CYCLE.index(trump) if trump is not None else 0
    rank_of = {s: (_SUIT_CYCLE.index(s) - start) % 4 for s in present}

    def key(order: tuple[Suit, ...]) -> tuple[int, int, tuple[int, ...]]:
        same = sum((a in _RED_SUITS) == (b in _RED_SUITS) for a, b in pairwise(order))
        trump_late = 0 if trump is None or trump not in order or order[0] is trump else 1
        return (trump_late, same, tuple(rank_of[s] for s in order))

    if not present:
        return ()
    return min(permutations(present), key=key)


def _trump_index(trump: Suit | None) -> int:
    return 4 if trump is None else int(trump)


# Every hand is sorted at every change of every table (each seat's state, each image): the 16 sets of suits a hand
# can hold under each of the 5 trumps (none included) are worked out once. ``_ORDERS[trump][suits]`` is the order
# of the suits in the bit set ``suits``; ``_KEYS[trump][suits][card]`` a card's place in such a hand (its suit's
# position, then strongest first).
_ORDERS: tuple[tuple[tuple[Suit, ...], ...], ...] = tuple(
    tuple(_best_order([s for s in SUITS if mask >> s & 1], trump) for mask in range(16))
    for trump in (*SUITS, None))


def _card_keys(order: tuple[Suit, ...], trump: Suit | None) -> tuple[int, ...]:
    position = {s: i for i, s in enumerate(order)}
    return tuple(position.get(card.suit, 4) * 8 - (TRUMP_STRENGTH if card.suit is trump else PLAIN_STRENGTH)[
        card.rank] for card in DECK)


_KEYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_card_keys(_ORDERS[_trump_index(trump)][mask], trump) for mask in range(16)) for trump in (*SUITS, None))


def suit_order(suits: Iterable[Suit], trump: Suit | None) -> list[Suit]:
    """The suits of a hand left to right: trump first, then colours alternating as far as possible."""
    mask = 0
    for suit in suits:
        mask |= 1 << suit
    return list(_ORDERS[_trump_index(trump)][mask])


def sort_cards(cards: Iterable[Card], trump: Suit | None) -> list[Card]:
    """Cards by ``suit_order``, strongest first within a suit in the order that counts under ``trump``."""
    cards = list(cards)
    mask = 0
    for card in cards:
        mask |= 1 << (card >> 3)
    return sorted(cards, key=_KEYS[_trump_index(trump)][mask].__getitem__)
