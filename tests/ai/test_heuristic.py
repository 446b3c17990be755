"""The heuristic player does what a club player expects in clear situations."""

from __future__ import annotations

from engine.actions import Call, Deal
from engine.ai.heuristic import HeuristicPlayer, Knowledge, hand_evaluation
from engine.cards import DECK, Card, Seat, Suit, mask_of, parse_cards
from engine.game import Game
from engine.settings import Rules
from engine.view import seat_view
from tests.ai.positions import position


def decide(game: Game) -> tuple[Card | Call, str]:
    seat = game.to_act
    assert seat is not None
    decision = HeuristicPlayer().decide(seat_view(game, seat))
    return decision.action, decision.reason


def test_does_not_trump_partners_sure_trick_under_amsterdam() -> None:
    # North leads the ace of spades; South has no spades but trumps and small cards.
    game = position({Seat.N: "AS KS QS", Seat.E: "7S 8S 9S", Seat.S: "7H 8H JH 7C 8C 7D 8D KD"},
                    Suit.H, elder=Seat.N, plays="AS 7S", play="amsterdam")
    action, _ = decide(game)
    assert isinstance(action, Card) and action.suit is not Suit.H


def test_spekt_a_ten_on_partners_winning_ace() -> None:
    # Void in spades, holding the ten of diamonds while its ace is still out: give the ten.
    game = position({Seat.N: "AS KS QS", Seat.E: "7S 8S 9S", Seat.S: "7H 8H TD 7D 8C 9C 7C KC",
                     Seat.W: "AD JS"}, Suit.H, elder=Seat.N, plays="AS 7S", play="amsterdam")
    assert decide(game) == (Card.DT, "spek")


def test_gives_its_ten_under_partners_ace_as_last_seat() -> None:
    game = position({Seat.E: "AS", Seat.S: "9S", Seat.W: "TS 7S 7C 8C 9C 7D 8D 9D", Seat.N: "8S QS JS KS"},
                    Suit.H, elder=Seat.E, plays="AS 9S")
    # North must follow spades, so partner East's ace is sure: West gives its ten, not the seven.
    assert decide(game) == (Card.ST, "spek")


def test_signals_a_strong_suit_with_a_low_card() -> None:
    game = position({Seat.N: "AS KS QS", Seat.E: "7S 8S 9S", Seat.S: "7H 8H AC 7C QD KD JD 8C"},
                    Suit.H, elder=Seat.N, plays="AS 7S", play="amsterdam")
    action, reason = decide(game)
    assert (action, reason) == (Card.C7, "signal_up")
    game.apply(action)
    game.apply(Card.SJ if Card.SJ in game.legal_actions() else game.legal_actions()[0])
    knowledge = Knowledge(seat_view(game, Seat.N))
    assert knowledge.signal_up == 1 << Suit.C  # North reads: South asks for clubs


def test_reads_a_picture_card_as_no() -> None:
    game = position({Seat.N: "AS KS QS", Seat.E: "7S 8S 9S", Seat.S: "7H 8H QC 9D 8D 7D JD 8C"},
                    Suit.H, elder=Seat.N, plays="AS 7S QC", play="amsterdam")
    game.apply(game.legal_actions()[0])
    knowledge = Knowledge(seat_view(game, Seat.N))
    assert knowledge.signal_down == 1 << Suit.C


def test_the_playing_team_pulls_trumps_with_the_jack() -> None:
    game = position({Seat.S: "JH 9H 7H AC 7C 8D 9D 7S"}, Suit.H, elder=Seat.S)
    assert decide(game) == (Card.HJ, "pull_trumps")


def test_does_not_lead_a_ten_of_trump_into_the_nine() -> None:
    game = position({Seat.S: "TH AH AC 7C 8C 8D 9D 7S", Seat.E: "9H JH"}, Suit.H, elder=Seat.S)
    action, _ = decide(game)
    assert action not in (Card.HT, Card.HA)


def test_voids_are_read_from_the_tricks() -> None:
    game = position({Seat.N: "AS 7H", Seat.E: "7D 8D 9D TD", Seat.S: "8S"}, Suit.H, elder=Seat.N,
                    plays="AS")
    east_cards = game.cards_in_hand(Seat.E)
    if not any(card.suit is Suit.S for card in east_cards):
        game.apply(game.legal_actions()[0])
        knowledge = Knowledge(seat_view(game, Seat.S))
        assert knowledge.void[Seat.E] >> Suit.S & 1


def test_bids_with_jack_nine_ace_and_passes_with_nothing() -> None:
    strong = mask_of(parse_cards("JH 9H AH 7C 8D 9S 7D 8S"))
    weak = mask_of(parse_cards("7C 8C 7D 8D 7H 8H 7S 8S"))
    assert hand_evaluation(strong, Suit.H) > hand_evaluation(strong, Suit.C)
    for hand, expected in (("JH 9H AH 7C 8D 9S 7D 8S", Call.H), ("7C 8C 7D 8D 7H 8H 7S 9S", Call.PASS)):
        hands = {Seat.S: parse_cards(hand)}
        rest = [c for c in DECK if c not in hands[Seat.S]]
        deal = {Seat.S: hands[Seat.S], Seat.W: rest[:8], Seat.N: rest[8:16], Seat.E: rest[16:]}
        game = Game(Rules())
        game.apply(Deal.from_cards(Seat.E, deal))  # South is elder and calls first
        action, _ = decide(game)
        assert action == expected
    assert weak


def test_draaien_plays_on_a_strong_turned_suit() -> None:
    hand = parse_cards("JD 9D AD TD 7C 8H 9S 7S")
    rest = [c for c in DECK if c not in hand]
    game = Game(Rules().with_changes(bidding="draaien"))
    game.apply(Deal.from_cards(Seat.E, {Seat.S: hand, Seat.W: rest[:8], Seat.N: rest[8:16], Seat.E: rest[16:]}))
    from engine.actions import TurnUp

    game.apply(TurnUp(Suit.C))
    assert decide(game)[0] is Call.PASS  # nothing in clubs
    for _ in range(4):
        game.apply(Call.PASS)
    game.apply(TurnUp(Suit.D))
    assert decide(game)[0] is Call.PLAY


def test_forced_seat_names_its_best_suit() -> None:
    hand = parse_cards("7C 8C 9C JC 7D 8H 9S 7S")
    rest = [c for c in DECK if c not in hand]
    game = Game(Rules().with_changes(bidding="verplicht"))
    game.apply(Deal.from_cards(Seat.E, {Seat.S: hand, Seat.W: rest[:8], Seat.N: rest[8:16], Seat.E: rest[16:]}))
    assert decide(game) == (Call.C, "bid_forced")
