"""Hints name the strong player's action and a reason code; the catalog words it in English and Dutch."""

from __future__ import annotations

import pytest

from bot.texts.catalog import card_text, hint_reason, hint_text
from engine.actions import Call, Claim, Deal, Decline, TurnUp
from engine.ai.heuristic import Decision, HeuristicPlayer
from engine.ai.hints import Hint, HintCode, explain, hint, honest, reason, render
from engine.ai.players import RandomPlayer
from engine.cards import DECK, Card, Seat, Suit, parse_cards
from engine.game import Game, Phase
from engine.record import game_from_record
from engine.settings import Rules
from engine.view import seat_view
from tests.ai.positions import position


def test_spek_hint_in_both_languages() -> None:
    # South plays last, so nobody can beat North's A♠ any more: "wins" is a fact.
    game = position({Seat.N: "AS KS QS", Seat.E: "7S 8S 9S", Seat.S: "7H 8H TD 7D 8C 9C 7C KC",
                     Seat.W: "AD JS"}, Suit.H, elder=Seat.W, plays="JS AS 7S", play="amsterdam")
    result = hint(seat_view(game, Seat.S), HeuristicPlayer())
    assert result.action is Card.DT
    assert hint_reason(result, "en") == "partner's A♠ wins; give your 10♦ (spekken)"
    assert hint_reason(result, "nl") == "A♠ van je maat wint; spek je 10♦"
    assert hint_text(result, "en").startswith("Play 10♦: ")
    assert hint_text(result, "nl").startswith("Speel 10♦: ")


def test_pull_trumps_hint() -> None:
    game = position({Seat.S: "JH 9H 7H AC 7C 8D 9D 7S"}, Suit.H, elder=Seat.S)
    result = hint(seat_view(game, Seat.S), HeuristicPlayer())
    assert result.action is Card.HJ and result.code == "pull_trumps"
    assert "trump" in hint_reason(result, "en") and "troef" in hint_reason(result, "nl")


def test_bidding_hints_say_why() -> None:
    hand = parse_cards("7C 8C 7D 8D 7H 8H 7S 9S")
    rest = [c for c in DECK if c not in hand]
    game = Game(Rules())
    game.apply(Deal.from_cards(Seat.E, {Seat.S: hand, Seat.W: rest[:8], Seat.N: rest[8:16], Seat.E: rest[16:]}))
    result = hint(seat_view(game, Seat.S), HeuristicPlayer())
    assert result.action is Call.PASS
    assert "too weak" in hint_reason(result, "en") and "te zwak" in hint_reason(result, "nl")
    strong = explain(seat_view(game, Seat.S), Call.H)
    assert strong.reason == "bid_play"


def test_a_hint_for_another_players_choice_is_explained_from_the_situation() -> None:
    game = position({Seat.N: "AS KS QS", Seat.E: "7S 8S 9S", Seat.S: "7H 8H TD 7D 8C 9C 7C KC",
                     Seat.W: "AD JS"}, Suit.H, elder=Seat.N, plays="AS 7S", play="amsterdam")
    view = seat_view(game, Seat.S)
    decision = explain(view, Card.H7)
    assert decision.reason == "overtake"
    decision = explain(view, Card.C7)
    assert decision.reason == "keep_trumps"


def test_hints_over_random_games_are_legal_and_worded() -> None:
    import random

    rng = random.Random(11)
    chooser = RandomPlayer(3)
    for bidding in ("vrij", "draaien"):
        game = Game(Rules().with_changes(bidding=bidding, play="amsterdam", length="1"))
        while game.phase is not Phase.OVER:
            if game.phase is Phase.DEAL:
                game.deal_random(rng)
            elif game.phase is Phase.TURN_UP:
                game.turn_up_random(rng)
            else:
                seat = game.to_act
                assert seat is not None
                view = seat_view(game, seat)
                result = hint(view, chooser if rng.random() < 0.5 else HeuristicPlayer())
                assert result.action in view.legal
                assert result.code in HintCode
                for lang in ("en", "nl"):
                    assert "{" not in hint_text(result, lang) and "?" not in hint_reason(result, lang)
                game.apply(result.action, seat)


def test_no_hint_when_it_is_not_your_turn() -> None:
    game = position({Seat.S: "JH"}, Suit.H, elder=Seat.S)
    with pytest.raises(ValueError, match="not N's turn"):
        hint(seat_view(game, Seat.N))


def test_default_hint_uses_the_strong_player() -> None:
    game = position({Seat.S: "JH 9H 7H AC 7C 8D 9D 7S"}, Suit.H, elder=Seat.S)
    view = seat_view(game, Seat.S)
    assert hint(view).action in view.legal


def test_partner_is_not_said_to_win_while_the_trump_maker_may_still_ruff() -> None:
    # Hearts trump, West made it and holds J♥ 9♥; North's A♣ heads trick 2, West plays after South.
    game = position({Seat.W: "7S JH 9H 8H AH 7D 8D 9D", Seat.N: "AS AC", Seat.E: "8S 7C",
                     Seat.S: "9S JS QS KS TS TD QD KD"}, Suit.H, elder=Seat.W, plays="7S AS 8S 9S AC 7C")
    view = seat_view(game, Seat.S)
    result = hint(view, HeuristicPlayer())
    for lang in ("en", "nl"):
        assert "wins" not in hint_reason(result, "en") and "wint" not in hint_reason(result, "nl"), lang
    assert result.code in (HintCode.PARTNER_AHEAD, HintCode.DUCK_PARTNER)
    assert hint_reason(result, "en").startswith("partner's A♣ is ahead but can still be beaten")


def test_a_ten_is_not_the_highest_left_when_you_hold_the_ace() -> None:
    game = position({Seat.S: "TD AD 7C 8C 9C 7S 8S 9S"}, Suit.H, elder=Seat.S)
    view = seat_view(game, Seat.S)
    assert explain(view, Card.DT).reason != "cash"
    assert explain(view, Card.DA).reason == "cash"
    assert hint_reason(render(view, explain(view, Card.DA)), "en") == (
        "A♦ is the highest diamond left: take the trick with it")


def test_taking_the_trick_is_promised_only_when_no_opponent_can_go_higher() -> None:
    # East leads 7♦; South's A♦ heads it, but West (after South) may have no diamonds and ruff.
    game = position({Seat.E: "7D 8C 9C TC JC QC KC AC", Seat.S: "AD 7S 8S 9S TS JS QS KS"}, Suit.H,
                    elder=Seat.E, plays="7D")
    view = seat_view(game, Seat.S)
    decision = honest(view, Decision(Card.DA, "win", {"card": "AD", "head": "7D", "led": "D"}))
    assert decision.reason == "beat"
    assert hint_reason(render(view, decision), "en") == "A♦ beats 7♦ for now (an opponent still to play may go higher)"


def test_hint_texts_name_a_suit_in_the_singular() -> None:
    for code in ("cash", "signal_up", "signal_down", "trump_in", "lead_signal"):
        text = hint_reason(Hint(Card.DT, HintCode(code), {"card": "TD", "head": "AS", "suit": "D", "led": "C"}), "en")
        assert "diamonds" not in text and "clubs" not in text, text


def test_claim_phase_hint_says_what_the_claim_is_worth() -> None:
    # Every seat holds one suit, hearts (South's) are trump; trick k is four cards of rank k: the last
    # trick, four aces, gives NS 100 roem to claim.
    suits = {"N": "C", "E": "D", "S": "H", "W": "S"}
    deal = {seat: [rank + suit for rank in "789TJQKA"] for seat, suit in suits.items()}
    plays = [rank + suits[seat] for k, rank in enumerate("789TJQKA")
             for seat in (("N", "E", "S", "W") if k == 0 else ("S", "W", "N", "E"))]
    data = {"format": "klaverjas-record/1", "rules": {"roem": "declared"},
            "hands": [{"dealer": "W", "deal": deal, "bids": ["pass", "pass", "H"], "plays": plays[:28]}]}
    game = game_from_record(data)
    game.apply_all(Card.parse(text) for text in plays[28:])
    assert game.phase is Phase.CLAIM and game.to_act is Seat.S
    result = hint(seat_view(game, Seat.S), HeuristicPlayer())
    assert result.action == Claim(Seat.S) and result.code is HintCode.CLAIM
    assert "100" in hint_reason(result, "en") and "100" in hint_reason(result, "nl")
    assert hint_text(result, "nl").startswith("Roem!: ")
    assert explain(seat_view(game, Seat.S), Decline(Seat.S)).reason == "decline_owed"


def test_under_draaien_the_call_is_about_the_turned_suit_not_the_best_one() -> None:
    hand = parse_cards("JD 9D AD TD 7C 8H 9S 7S")  # strong in diamonds; clubs are turned
    rest = [c for c in DECK if c not in hand]
    game = Game(Rules().with_changes(bidding="draaien"))
    game.apply(Deal.from_cards(Seat.E, {Seat.S: hand, Seat.W: rest[:8], Seat.N: rest[8:16], Seat.E: rest[16:]}))
    game.apply(TurnUp(Suit.C))
    view = seat_view(game, Seat.S)
    for action in (Call.PASS, Call.PLAY):  # the heuristic's own reason and one read off the situation
        result = reason(view, action)
        assert result.params["suit"] == "C"
        assert "turned club suit" in hint_reason(result, "en") and "gedraaide kleur klaver:" in hint_reason(result,
                                                                                                            "nl")
        assert "best" not in hint_reason(result, "en") and "beste" not in hint_reason(result, "nl")


def test_a_card_is_called_the_cheapest_only_when_no_cheaper_one_is_in_the_hand() -> None:
    # East leads the ace of clubs; South holds the jack and the seven of clubs and cannot win the trick.
    game = position({Seat.E: "AC", Seat.S: "JC 7C 8H 9H TH KH QS KS"}, Suit.D, elder=Seat.E, plays="AC")
    view = seat_view(game, Seat.S)
    assert reason(view, Card.C7).code is HintCode.DUCK
    kept_back = reason(view, Card.CJ)
    assert kept_back.code is HintCode.FOLLOW
    assert hint_text(kept_back, "en") == "Play J♣" and hint_text(kept_back, "nl") == "Speel B♣"  # nothing false


def test_no_reason_repeats_the_card() -> None:
    game = position({Seat.S: "JC 7C 8H 9H TH KH QS KS"}, Suit.D, elder=Seat.S)
    view = seat_view(game, Seat.S)
    for card in (c for c in view.legal if isinstance(c, Card)):
        result = reason(view, card)
        for lang in ("en", "nl"):
            words = hint_reason(result, lang)
            assert words == "" or card_text(card, lang) not in words.split(":")[0].split()[-1:], words


def test_only_a_seven_eight_or_plain_nine_is_called_a_low_lead() -> None:
    game = position({Seat.S: "JC 7C 8H 9H TH KH QS KS"}, Suit.D, elder=Seat.S)
    view = seat_view(game, Seat.S)
    assert explain(view, Card.C7).reason == "lead_low"
    assert explain(view, Card.H9).reason == "lead_low"
    for picture in (Card.CJ, Card.SQ, Card.HK):
        assert explain(view, picture).reason != "lead_low", picture
