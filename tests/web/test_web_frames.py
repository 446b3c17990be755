"""Frames from views and events: pure, and silent on declared roem until it is claimed."""

from __future__ import annotations

from bot.web.frames import game_event, public_part, seat_part
from engine.cards import Card, Seat, Team
from engine.events import TrickWon
from engine.game import Game, Phase
from engine.roem import RoemKind, RoemPart
from engine.settings import RoemMode, Rules
from engine.view import public_view, seat_view


def trick_won(roem: int) -> TrickWon:
    cards = (Card.parse("7H"), Card.parse("8H"), Card.parse("9H"), Card.parse("AS"))
    return TrickWon(hand=0, trick=3, leader=Seat.N, cards=cards, winner=Seat.W, winning_card=cards[3], team=Team.EW,
                    points=11, roem=roem, roem_parts=(RoemPart(RoemKind.DRIEKAART, roem),), needs_claim=True)


def test_a_trick_won_tells_its_roem_only_with_automatic_roem() -> None:
    auto = game_event(trick_won(20), RoemMode.AUTO)
    declared = game_event(trick_won(20), RoemMode.DECLARED)
    assert auto is not None and declared is not None
    assert auto["roem"] == 20 and auto["roem_parts"][0]["kind"] == "driekaart"
    assert declared["roem"] == 0 and declared["roem_parts"] == []
    assert declared["cards"] == ["7H", "8H", "9H", "AS"] and declared["winner"] == "W"


def test_a_seats_part_holds_its_own_hand_and_the_public_part_none() -> None:
    import random

    game = Game(Rules())
    game.deal_random(random.Random(3))
    while game.phase is Phase.TURN_UP:
        game.turn_up_random(random.Random(4))
    seat = game.to_act
    assert seat is not None
    view = seat_view(game, seat)
    mine = seat_part(view)
    assert sorted(mine["hand"]) == sorted(str(c) for c in view.hand) and mine["my_turn"]
    assert mine["legal_calls"] and not mine["legal_cards"]
    public = public_part(public_view(game))
    shown = {value for value in str(public).replace("'", " ").split() if len(value) == 2}
    assert not shown & {str(c) for s in Seat for c in seat_view(game, s).hand}
