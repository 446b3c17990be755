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


def test_a_state_encoded_from_its_shared_part_is_the_state_frame_encoded_whole() -> None:
    import json
    import random

    from bot.tables.model import SeatInfo, SeatKind, Table, TableSettings
    from bot.web.frames import encode, encoded_event, encoded_state, shared_view, state_view

    table = Table(id=7, host_id=1, settings=TableSettings(), seed=5)
    table.seats[Seat.S] = SeatInfo(SeatKind.HUMAN, 1, "Zoë ♥")  # sent as it is, not escaped
    game = table.game
    rng = random.Random(2)
    game.deal_random(rng)
    while game.hand is None or len(game.hand.tricks) < 3 or game.hand.trick_cards:
        if game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
        else:
            game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])  # and a trick under way
    for seat in (*Seat, None):
        view = table.view(seat) if seat is not None else table.public_view()
        whole = encode({"type": "state", "seq": 4, "version": table.version, "view": state_view(table, view, 12.5)})
        shared = encode(shared_view(table, table.public_view(), 12.5))
        me = seat_part(table.view(seat)) if seat is not None else None
        assert encoded_state(4, table.version, shared, me) == whole
        assert json.loads(whole)["view"]["table"]["seats"]["S"]["name"] == "Zoë ♥" and "Zoë ♥" in whole
    event = {"kind": "card", "hand": 0, "trick": 1, "seat": "N", "card": "JH"}
    assert encoded_event(9, encode(event)) == encode({"type": "event", "seq": 9, "event": event})
