"""Hand-made positions for the AI tests."""

from __future__ import annotations

from engine.actions import Call, Deal
from engine.cards import DECK, SEATS, Card, Seat, Suit, mask_of, parse_cards
from engine.game import Game
from engine.settings import Rules


def position(hands: dict[Seat, str], trump: Suit, elder: Seat, plays: str = "", play: str = "rotterdam") -> Game:
    """A game in the play phase: ``elder`` names ``trump`` (verplicht), then ``plays`` are played.

    Cards not given are dealt to the seats in N E S W order until each holds eight.
    """
    given = {seat: parse_cards(text) for seat, text in hands.items()}
    used = mask_of(card for cards in given.values() for card in cards)
    rest = [card for card in DECK if not used >> card & 1]
    full: dict[Seat, list[Card]] = {}
    for seat in SEATS:
        cards = list(given.get(seat, []))
        while len(cards) < 8:
            cards.append(rest.pop(0))
        full[seat] = cards
    game = Game(Rules().with_changes(play=play, bidding="verplicht"))
    game.apply(Deal.from_cards(SEATS[(elder - 1) & 3], full))
    game.apply(Call.for_suit(trump))
    for card in parse_cards(plays):
        game.apply(card)
    return game
