"""Roem of a trick part by part; front ends name the parts (``bot.texts.catalog.roem_text``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine import rulebook
from engine.cards import RANKS, Card, Rank, Suit, rank_of


class RoemKind(StrEnum):
    DRIEKAART = "driekaart"
    VIERKAART = "vierkaart"
    STUK = "stuk"
    FOUR_OF_A_KIND = "four"


@dataclass(frozen=True, slots=True)
class RoemPart:
    kind: RoemKind
    points: int
    rank: Rank | None = None  # four of a kind only
    suit: Suit | None = None  # sequences and stuk


def trick_roem_parts(cards: tuple[Card, ...], trump: Suit, stuk_in_trick: bool) -> tuple[RoemPart, ...]:
    """The roem of four cards, part by part; their points add up to ``rulebook.trick_roem``.

    Four sevens, eights or nines are not listed: they score nothing.
    """
    mask = 0
    for card in cards:
        mask |= 1 << card
    parts: list[RoemPart] = []
    if stuk_in_trick:
        stuk = rulebook.stuk_mask(trump)
        if mask & stuk == stuk:
            parts.append(RoemPart(RoemKind.STUK, rulebook.STUK_ROEM, suit=trump))
    for suit in Suit:
        run = rulebook.RUN_LENGTH[(mask >> (8 * suit)) & 0xFF]
        if run >= 4:
            parts.append(RoemPart(RoemKind.VIERKAART, rulebook.VIERKAART_ROEM, suit=suit))
        elif run == 3:
            parts.append(RoemPart(RoemKind.DRIEKAART, rulebook.DRIEKAART_ROEM, suit=suit))
    ranks = {rank_of(card) for card in cards}
    if len(cards) == 4 and len(ranks) == 1:
        rank = RANKS[rank_of(cards[0])]
        if rulebook.FOUR_OF_A_KIND_ROEM[rank]:
            parts.append(RoemPart(RoemKind.FOUR_OF_A_KIND, rulebook.FOUR_OF_A_KIND_ROEM[rank], rank=rank))
    return tuple(parts)
