"""What the engine tells front ends so they need not re-derive rules: the winning card of a trick, what
a roem claim would score, the AI's claim policy, and the public view observers' images are drawn from."""

from __future__ import annotations

import dataclasses
import random

import pytest
from klaverjas_test_helpers import notation, one_suit_each_hand, random_game, record

from engine.actions import Claim
from engine.ai.claims import claim_for
from engine.cards import Card, Seat, Team
from engine.events import RoemClaimed, StukScored, TrickWon
from engine.game import Game, Phase
from engine.record import game_from_record
from engine.settings import Rules
from engine.view import PublicView, SeatView, public_view, seat_view
from tests.referee import referee

PIT_NS = {"N": "C", "E": "D", "S": "H", "W": "S"}  # S holds every trump and wins every trick
FOUR_OF_A_KIND = one_suit_each_hand(PIT_NS, "W", ["pass", "pass", "H"], "S", same_rank=True)  # trick k: rank k


def declared_after(tricks: int, **rules: str) -> Game:
    """FOUR_OF_A_KIND with roem: declared, stopped right after ``tricks`` tricks."""
    hand = {**FOUR_OF_A_KIND, "plays": FOUR_OF_A_KIND["plays"][:4 * tricks]}
    return game_from_record(record([hand], roem="declared", **rules))


@pytest.mark.parametrize("raw", [{}, {"play": "amsterdam"}, {"stuk": "held", "bidding": "draaien"}])
def test_trick_won_names_the_card_that_took_the_trick(raw: dict[str, str]) -> None:
    rng = random.Random(7)
    game = Game(Rules.from_dict({**raw, "length": {"hands": 2}}))
    seen = 0
    while game.phase is not Phase.OVER:
        if game.phase is Phase.DEAL:
            events = game.deal_random(rng)
        elif game.phase is Phase.TURN_UP:
            events = game.turn_up_random(rng)
        else:
            events = game.apply(rng.choice(game.legal_actions()), game.to_act)
        for event in events:
            if isinstance(event, TrickWon):
                hand = game.hands[event.hand]
                assert hand.trump is not None
                heading = referee.trick_winner_index(notation(event.cards), hand.trump.letter)
                assert event.winning_card is event.cards[heading]
                assert (event.winner, event.winning_card) in hand.tricks[event.trick].plays
                assert hand.tricks[event.trick].winning_card is event.winning_card
                seen += 1
    assert seen == 16


def test_claim_value_is_the_roem_owed_to_the_team_that_won_the_trick() -> None:
    game = declared_after(5)  # trick 4: four jacks, won by South
    assert (game.claim_value(Team.NS), game.claim_value(Team.EW)) == (200, 0)
    assert not game.has_claimed(Team.NS) and not game.has_claimed(Team.EW)
    game.apply(Claim(Seat.E))  # the other team's claim scores nothing and closes nothing
    assert (game.claim_value(Team.NS), game.claim_value(Team.EW)) == (200, 0)
    assert game.has_claimed(Team.EW) and not game.has_claimed(Team.NS)
    game.apply(Claim(Seat.N))
    assert (game.claim_value(Team.NS), game.claim_value(Team.EW)) == (0, 0)
    assert game.has_claimed(Team.NS)
    game.apply(game.legal_actions()[0], game.to_act)  # the next trick starts: the window is closed
    assert (game.claim_value(Team.NS), game.claim_value(Team.EW)) == (0, 0)


def test_nothing_to_claim_without_roem_or_with_automatic_roem() -> None:
    assert declared_after(1).claim_value(Team.NS) == 0  # four sevens: no roem
    hand = {**FOUR_OF_A_KIND, "plays": FOUR_OF_A_KIND["plays"][:20]}
    auto = game_from_record(record([hand]))
    assert (auto.claim_value(Team.NS), auto.has_claimed(Team.NS)) == (0, False)


def test_views_carry_the_claim_facts_and_the_ai_claims_what_it_is_owed() -> None:
    game = declared_after(4)  # trick 3: four tens, 100 for NS
    views = {seat: seat_view(game, seat) for seat in Seat}
    assert all(view.claim_value(Team.NS) == 100 and view.claim_value(Team.EW) == 0 for view in views.values())
    assert {seat: claim_for(view) for seat, view in views.items()} == {
        Seat.N: Claim(Seat.N), Seat.E: None, Seat.S: Claim(Seat.S), Seat.W: None}
    game.apply(Claim(Seat.S))
    assert all(claim_for(seat_view(game, seat)) is None for seat in Seat)
    assert seat_view(game, Seat.N).has_claimed(Team.NS)


def test_the_public_view_is_every_seat_view_without_its_private_side() -> None:
    game = random_game(random.Random(3), Rules(), max_actions=60)
    public = public_view(game)
    names = {field.name for field in dataclasses.fields(PublicView)}
    assert not names & {"seat", "hand", "legal"}
    for seat in Seat:
        view = seat_view(game, seat)
        assert isinstance(view, SeatView) and isinstance(view, PublicView)
        assert PublicView(**{name: getattr(view, name) for name in names}) == public
        assert view.hand == tuple(game.cards_in_hand(seat))


# stuk: held under declared roem. North holds K and Q of hearts; East wins both tricks, the second with
# North's queen in it, so North's stuk falls in a trick won by the other team.
STUK_DEAL = {
    "N": ["KH", "QH", "AC", "7C", "8C", "9C", "TC", "JC"],
    "E": ["JH", "9H", "AH", "TH", "7D", "8D", "9D", "TD"],
    "S": ["7H", "8H", "QC", "KC", "AD", "KD", "QD", "JD"],
    "W": ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
}
STUK_PLAYS = ["KH", "TH", "7H", "7S", "AH", "8H", "8S", "QH"]


def stuk_game(roem: str, plays: int) -> Game:
    hand = {"dealer": "W", "deal": STUK_DEAL, "bids": ["H"], "plays": STUK_PLAYS[:plays]}
    return game_from_record(record([hand], bidding="verplicht", stuk="held", roem=roem))


def test_declared_held_stuk_is_owed_to_the_holders_team_for_the_trick_its_second_card_fell_in() -> None:
    game = stuk_game("declared", 4)
    assert (game.claim_value(Team.NS), game.claim_value(Team.EW)) == (0, 0)  # only the king has fallen
    game.apply_all([Card.parse("AH"), Card.parse("8H"), Card.parse("8S")])
    events = game.apply(Card.parse("QH"), Seat.N)
    assert not any(isinstance(e, StukScored) for e in events)  # not scored before it is claimed
    hand = game.hands[-1]
    assert hand.tricks[-1].winner is Seat.E and hand.tricks[-1].roem == 0
    assert (game.claim_value(Team.NS), game.claim_value(Team.EW)) == (20, 0)  # won by EW, owed to NS
    assert {seat: claim_for(seat_view(game, seat)) for seat in Seat} == {
        Seat.N: Claim(Seat.N), Seat.E: None, Seat.S: Claim(Seat.S), Seat.W: None}
    assert game.hand_points_so_far(hand)[1] == [0, 0]
    events = game.apply(Claim(Seat.S))  # the holder's partner may claim it
    assert [type(e) for e in events] == [StukScored, RoemClaimed]
    assert (events[0].seat, events[0].points, events[1].points) == (Seat.N, 20, 20)
    assert hand.held_stuk == [Seat.N] and game.hand_points_so_far(hand)[1] == [20, 0]
    assert game.claim_value(Team.NS) == 0 and game.apply(Claim(Seat.N))[-1].points == 0  # once


def test_declared_held_stuk_without_its_claim_does_not_count() -> None:
    game = stuk_game("declared", 8)
    game.apply(Claim(Seat.E))  # the trick's winners claim: nothing for them, and not the stuk
    assert game.claim_value(Team.NS) == 20
    game.apply(Card.parse("JH"), Seat.E)  # the next trick starts: the window is closed
    hand = game.hands[-1]
    assert game.claim_value(Team.NS) == 0 and hand.held_stuk == []
    assert game.hand_points_so_far(hand)[1] == [0, 0]


def test_automatic_roem_scores_a_held_stuk_when_its_second_card_is_played() -> None:
    game = stuk_game("auto", 7)
    events = game.apply(Card.parse("QH"), Seat.N)
    assert [(e.seat, e.team, e.points) for e in events if isinstance(e, StukScored)] == [(Seat.N, Team.NS, 20)]
    assert game.claim_value(Team.NS) == 0
