"""Shared helpers for the engine tests: card lists, scripted hands, random games."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Call, Claim
from engine.cards import Card, Seat
from engine.game import Game, Phase
from engine.settings import RoemMode, Rules

SEATS = "NESW"


def cards(text: str) -> list[Card]:
    return [Card.parse(part) for part in text.split()]


def notation(items: Any) -> list[str]:
    return [str(item) for item in items]


def suit_cards(suit: str) -> list[str]:
    return [rank + suit for rank in "789TJQKA"]


def record(hands: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    return {"format": "klaverjas-record/1", "rules": rules, "hands": hands}


def one_suit_each_hand(suits: dict[str, str], dealer: str, bids: list[str], trump_seat: str,
                       same_rank: bool = False) -> dict[str, Any]:
    """A hand where every seat holds one whole suit and the seat holding trump wins every trick.

    Trick k: with ``same_rank`` every seat plays its card of rank k (7, 8, 9, T, J, Q, K, A: four of a
    kind every trick), otherwise seat i plays rank k + i, so a trick holds four suits and four ranks
    and no roem. The first leader is the elder hand, then ``trump_seat`` leads trump. With everyone
    void in every other suit each card is legal: the trump holder must trump (it holds nothing else),
    the others hold no trump and may play anything.
    """
    elder = SEATS[(SEATS.index(dealer) + 1) % 4]
    plays: list[str] = []
    leader = elder
    for k in range(8):
        start = SEATS.index(leader)
        for i in range(4):
            seat = SEATS[(start + i) % 4]
            shift = 0 if same_rank else SEATS.index(seat)
            plays.append("789TJQKA"[(k + shift) % 8] + suits[seat])
        leader = trump_seat
    return {"dealer": dealer, "deal": {s: suit_cards(suits[s]) for s in SEATS}, "bids": bids, "plays": plays}


def random_game(rng: random.Random, rules: Rules, max_actions: int = 10_000, claim_rate: float = 0.5) -> Game:
    """Drive a game through the public API with random legal actions, stopping at a random point."""
    game = Game(rules)
    for _ in range(max_actions):
        if game.phase is Phase.OVER:
            break
        if game.phase is Phase.DEAL:
            game.deal_random(rng)
        elif game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
        else:
            if rules.roem is RoemMode.DECLARED and game.can_claim() and rng.random() < claim_rate:
                game.apply(Claim(Seat(rng.randrange(4))))
                continue
            legal = game.legal_actions()
            assert legal, f"no legal action in phase {game.phase} for {game.to_act}"
            action = rng.choice(legal)
            game.apply(action, game.to_act)
    return game


def first_hand_game(rules: Rules, deal: dict[str, list[str]], dealer: str, bids: list[str],
                    plays: list[str] = ()) -> Game:
    """A game whose first hand has this deal, bids and plays (through the record rebuild)."""
    from engine.record import game_from_record

    data = record([{"dealer": dealer, "deal": deal, "bids": list(bids), "plays": list(plays)}], **rules.to_dict())
    return game_from_record(data)


def call(text: str) -> Call:
    return Call.parse(text)
