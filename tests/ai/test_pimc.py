"""The pimc player: legal actions in whole hands under every rule set, and sensible bids."""

from __future__ import annotations

import random

import pytest

from engine.actions import Call, Deal
from engine.ai.pimc import PimcPlayer, settled_diff
from engine.cards import Seat, mask_of, parse_cards
from engine.game import Game, Phase
from engine.rules import Rules
from engine.view import SeatView, seat_view

RULES = [
    Rules(),
    Rules().with_changes(play="amsterdam", bidding="draaien"),
    Rules().with_changes(play="rotterdam", undertrump="forbidden", stuk="held", bidding="verplicht"),
    Rules().with_changes(play="amsterdam", undertrump="forced", roem="declared"),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.play.value}-{r.undertrump_rule.value}-{r.bidding.value}")
def test_pimc_only_chooses_legal_actions(rules: Rules) -> None:
    rng = random.Random(3)
    players = [PimcPlayer(samples=4, time_budget_ms=60.0, seed=i) for i in range(4)]
    game = Game(rules.with_changes(length="1"))
    game.deal_random(rng)
    decisions = 0
    while game.phase is not Phase.OVER:
        if game.phase is Phase.TURN:
            game.turn_random(rng)
            continue
        if game.phase is Phase.DEAL:
            break
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        action = players[seat].choose(view)
        assert action in view.legal
        game.apply(action, seat)
        decisions += 1
    assert decisions >= 32


def _bid_view(hand: str) -> tuple[PimcPlayer, SeatView]:
    rng = random.Random(1)
    mine = mask_of(parse_cards(hand))
    rest = [c for c in range(32) if not mine >> c & 1]
    rng.shuffle(rest)
    others = [mask_of(rest[i * 8:(i + 1) * 8]) for i in range(3)]
    game = Game(Rules())
    game.apply(Deal(Seat.W, (mine, others[0], others[1], others[2])))  # N is the elder hand
    return PimcPlayer(samples=6, time_budget_ms=3000.0, seed=2), seat_view(game, Seat.N)


def test_pimc_bids_a_strong_trump_hand_and_passes_a_weak_one() -> None:
    player, view = _bid_view("JH 9H AH TH KH QH AS AD")
    assert player.choose(view) is Call.H
    player, view = _bid_view("7C 8C 7D 8D 7H 8H 7S 9S")
    assert player.choose(view) is Call.PASS


def test_settlement_of_an_outcome() -> None:
    assert settled_diff(20, playing=True, roem_total=0) == 20
    assert settled_diff(0, playing=True, roem_total=20) == -182  # a tie is nat
    assert settled_diff(30, playing=False, roem_total=0) == 162  # the defence beat the player
    assert settled_diff(-30, playing=False, roem_total=0) == -30
