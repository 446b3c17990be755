"""What the engine tells front ends so they need not re-derive rules: the winning card of a trick, what
a roem claim would score, the AI's claim policy, and the public view observers' images are drawn from."""

from __future__ import annotations

import dataclasses
import random

import pytest
from klaverjas_test_helpers import notation, one_suit_each_hand, random_game, record

from engine.actions import Claim, Deal, Decline
from engine.ai.claims import claim_for, claim_or_decline
from engine.ai.players import make_player
from engine.cards import Card, Seat, Team
from engine.errors import ErrorCode, IllegalActionError, NotYourTurnError
from engine.events import (
    ClaimDeclined,
    Event,
    HandDealt,
    HandSettled,
    MatchOver,
    RoemClaimed,
    StukScored,
    TrickWon,
)
from engine.game import Game, Phase
from engine.record import export_record, game_from_record, score_record
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
    claimed = events[1]
    assert isinstance(claimed, RoemClaimed) and claimed.stuk == 20  # the claim's 20 is that stuk, not 20 more
    assert hand.held_stuk == [Seat.N] and game.hand_points_so_far(hand)[1] == [20, 0]
    assert game.claim_value(Team.NS) == 0 and game.apply(Claim(Seat.N))[-1].points == 0  # once


def test_declared_held_stuk_without_its_claim_does_not_count() -> None:
    game = stuk_game("declared", 8)
    events = game.apply(Claim(Seat.E))  # the trick's winners claim: nothing for them, and not the stuk
    assert isinstance(events[-1], RoemClaimed) and events[-1].points == 0
    assert game.claim_value(Team.NS) == 20
    game.apply(Card.parse("JH"), Seat.E)  # the next trick starts: the window is closed
    hand = game.hands[-1]
    assert game.claim_value(Team.NS) == 0 and hand.held_stuk == []
    assert game.hand_points_so_far(hand)[1] == [0, 0]  # not the stuk, and EW's claim of nothing costs nothing


def test_automatic_roem_scores_a_held_stuk_when_its_second_card_is_played() -> None:
    game = stuk_game("auto", 7)
    events = game.apply(Card.parse("QH"), Seat.N)
    assert [(e.seat, e.team, e.points) for e in events if isinstance(e, StukScored)] == [(Seat.N, Team.NS, 20)]
    assert game.claim_value(Team.NS) == 0


# ------------------------------------------------------------------ the last trick's claim phase


def in_claim_phase() -> tuple[Game, list[Event]]:
    """FOUR_OF_A_KIND with declared roem, the last trick (four aces, 100 for NS: South wins) just played."""
    game = declared_after(7)
    events = game.apply_all(Card.parse(text) for text in FOUR_OF_A_KIND["plays"][28:])
    return game, events


def test_after_the_last_trick_the_owed_team_is_asked_before_the_hand_is_settled() -> None:
    game, events = in_claim_phase()
    assert not any(isinstance(e, HandSettled) for e in events)
    assert (game.phase, game.to_act) == (Phase.CLAIM, Seat.S)  # the winner of the last trick
    assert game.legal_actions() == [Claim(Seat.S), Decline(Seat.S)]
    assert seat_view(game, Seat.S).legal == (Claim(Seat.S), Decline(Seat.S)) and seat_view(game, Seat.N).legal == ()
    assert game.claim_value(Team.NS) == 100 and public_view(game).phase is Phase.CLAIM
    assert [type(e) for e in game.apply(Claim(Seat.W))] == [RoemClaimed]  # another team's claim: nothing
    assert (game.phase, game.to_act) == (Phase.CLAIM, Seat.S)
    events = game.apply(Claim(Seat.N))  # the partner may claim, out of turn
    assert [type(e) for e in events] == [RoemClaimed, HandSettled]
    assert events[0].points == 100 and game.phase is Phase.DEAL
    assert game.results[0].roem == (100 + 100, 0)  # the aces and the pit (four sevens to kings: not claimed)


def test_declining_closes_the_window_and_settles_once_without_the_roem() -> None:
    game, _ = in_claim_phase()
    events = game.apply(Decline(Seat.S), Seat.S)
    assert [type(e) for e in events] == [ClaimDeclined, HandSettled]
    assert game.results[0].roem == (100, 0)  # the pit only
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Claim(Seat.N))  # a record keeps no declines: replayed, this claim would score
    assert refused.value.code is ErrorCode.CLAIM_DECLINED
    assert [type(e) for e in game.apply(Claim(Seat.E))] == [RoemClaimed]  # scores nothing, settles nothing
    assert len(game.results) == 1 and game.results[0].roem == (100, 0)


def test_only_the_seat_asked_declines_and_only_in_the_claim_phase() -> None:
    game, _ = in_claim_phase()
    with pytest.raises(NotYourTurnError):
        game.apply(Decline(Seat.N))
    with pytest.raises(IllegalActionError) as wrong:
        game.apply(Card.parse("7C"), Seat.S)
    assert wrong.value.code is ErrorCode.WRONG_PHASE
    with pytest.raises(IllegalActionError) as early:
        declared_after(5).apply(Decline(Seat.S))
    assert early.value.code is ErrorCode.WRONG_PHASE


def test_a_record_keeps_the_claims_and_replaying_it_closes_the_window() -> None:
    game, _ = in_claim_phase()
    data = export_record(game)
    assert data["hands"][0]["claims"] == []
    rebuilt = game_from_record(data)  # as if the seat asked had declined
    assert rebuilt.phase is Phase.DEAL and rebuilt.results[0].roem == (100, 0)
    game.apply(Claim(Seat.S))
    data = export_record(game)
    assert data["hands"][0]["claims"] == [{"trick": 7, "seat": "S"}]
    assert game_from_record(data).results == game.results
    assert score_record(data)["hands"][0]["roem"] == {"NS": 200, "EW": 0}


def test_ai_players_claim_in_the_claim_phase() -> None:
    game, _ = in_claim_phase()
    view = seat_view(game, Seat.S)
    assert claim_or_decline(view) == Claim(Seat.S)
    for kind in ("heuristic", "easy"):
        assert make_player(kind, seed=3).choose(view) == Claim(Seat.S)
    assert make_player("random", seed=3).choose(view) in view.legal


# West wins the last trick with the jack of hearts over North's queen and East's ten: a driekaart for EW,
# and North's held stuk (its king fell in the first trick) for NS, both owed for the last trick.
BOTH_OWED = {
    "dealer": "S",
    "deal": {"W": ["AH", "JH", "AC", "TC", "AD", "TD", "AS", "TS"],
             "N": ["KH", "QH", "JC", "KC", "JD", "KD", "JS", "KS"],
             "E": ["9H", "TH", "8C", "QC", "8D", "QD", "8S", "QS"],
             "S": ["8H", "7H", "7C", "9C", "7D", "9D", "7S", "9S"]},
    "bids": ["H"],
    "plays": ["AH", "KH", "9H", "8H", "8C", "7C", "AC", "JC", "TC", "KC", "QC", "9C", "AD", "JD", "8D", "7D",
              "TD", "KD", "QD", "9D", "AS", "JS", "8S", "7S", "TS", "KS", "QS", "9S", "JH", "QH", "TH", "7H"],
}


def test_both_teams_owed_for_the_last_trick_are_asked_in_turn() -> None:
    """Trick roem for the winners and a held stuk for the other team, both in the last trick."""
    hand = {**BOTH_OWED, "plays": BOTH_OWED["plays"][:28]}
    game = game_from_record(record([hand], bidding="verplicht", stuk="held", roem="declared", length={"hands": 1}))
    game.apply_all(Card.parse(text) for text in BOTH_OWED["plays"][28:])
    assert (game.claim_value(Team.EW), game.claim_value(Team.NS)) == (20, 20)
    assert (game.phase, game.to_act) == (Phase.CLAIM, Seat.W)  # the trick's winners first
    assert [type(e) for e in game.apply(Decline(Seat.W), Seat.W)] == [ClaimDeclined]
    assert game.to_act is Seat.N  # then the stuk's holder
    events = game.apply(claim_or_decline(seat_view(game, Seat.N)))
    assert [type(e) for e in events] == [StukScored, RoemClaimed, HandSettled, MatchOver]
    assert game.results[0].roem == (20, 100)  # the stuk for NS; EW's pit, not its declined driekaart


# ------------------------------------------------------------------ declared roem gives nothing away

NO_ROEM = one_suit_each_hand(PIT_NS, "W", ["pass", "pass", "H"], "S")  # four suits and ranks a trick: no roem


def no_roem_after(plays: int, **rules: object) -> Game:
    return game_from_record(record([{**NO_ROEM, "plays": NO_ROEM["plays"][:plays]}], roem="declared", **rules))


def test_every_last_trick_opens_the_claim_window_under_declared_roem_whether_or_not_it_holds_roem() -> None:
    game = no_roem_after(28)
    events = game.apply_all(Card.parse(text) for text in NO_ROEM["plays"][28:])
    assert (game.phase, game.to_act) == (Phase.CLAIM, Seat.S)  # asked although nothing is owed
    assert game.claim_value(Team.NS) == 0 and not any(isinstance(e, HandSettled) for e in events)
    assert (game.may_claim(Team.NS), game.may_claim(Team.EW)) == (True, False)
    view = public_view(game)
    assert (view.may_claim(Team.NS), view.may_claim(Team.EW)) == (True, False)
    assert claim_or_decline(seat_view(game, Seat.S)) == Decline(Seat.S)  # the AI counts its own roem
    assert [type(e) for e in game.apply(Decline(Seat.S), Seat.S)] == [ClaimDeclined, HandSettled]
    assert game.results[0].roem == (100, 0)  # the pit only


def test_a_claim_of_nothing_scores_nothing_and_changes_no_score() -> None:
    # The rules: a claim for a trick without roem, or by the other team, scores nothing (and costs nothing).
    game = no_roem_after(4)
    events = game.apply(Claim(Seat.N))  # NS won the trick, so may claim it; it holds nothing
    assert [e.points for e in events if isinstance(e, RoemClaimed)] == [0]
    assert game.apply(Claim(Seat.S))[-1].points == 0  # once a trick for a team
    assert game.apply(Claim(Seat.E))[-1].points == 0  # EW lost it (stuk in the trick): nothing there is theirs
    assert game.hand_points_so_far(game.hands[-1])[1] == [0, 0] and game.totals == [0, 0]
    whole = {**NO_ROEM, "claims": [{"trick": 0, "seat": "N"}, {"trick": 0, "seat": "E"}]}
    data = record([whole], roem="declared")
    assert game_from_record(data).results == game_from_record(record([NO_ROEM], roem="declared")).results
    assert game_from_record(data).results[0].roem == (100, 0)  # the pit only
    assert score_record(data) == referee.score_record(data)


def test_with_held_stuk_a_team_that_played_a_trump_king_or_queen_may_claim_and_is_judged_on_it() -> None:
    game = stuk_game("declared", 4)  # N led its trump king (the first of its stuk); E won the trick
    assert (game.may_claim(Team.NS), game.may_claim(Team.EW)) == (True, True) and game.claim_value(Team.NS) == 0
    before = game.hand_points_so_far(game.hands[-1])
    assert game.apply(Claim(Seat.S))[-1].points == 0  # the stuk is not out yet: nothing, for either team
    assert game.hand_points_so_far(game.hands[-1]) == before
    game = stuk_game("declared", 8)  # N's queen, the second, in a trick E won: owed to NS
    assert game.may_claim(Team.NS) and public_view(game).may_claim(Team.NS)
    assert game.apply(Claim(Seat.S))[-1].points == 20


def test_a_deal_stored_straight_after_a_last_trick_by_an_older_version_closes_the_claim_window() -> None:
    """Stored games from before every last trick opened the claim window still replay."""
    finished = no_roem_after(32)
    old = [action for action in finished.actions if not isinstance(action, Decline)]
    game = Game(finished.rules)
    game.apply_all(old)
    assert finished.phase is Phase.DEAL and game.phase is Phase.CLAIM
    with pytest.raises(IllegalActionError):
        game.apply(Deal(Seat.S, (0, 0, 0, 0)))
    assert game.phase is Phase.CLAIM and game.results == []  # refused: nothing changed
    events = game.apply(Deal(Seat.N, finished.hands[0].deal))
    assert [type(e) for e in events] == [ClaimDeclined, HandSettled, HandDealt]
    assert game.phase is Phase.BIDDING and game.results == finished.results
    last = Game(Rules.from_dict({"roem": "declared", "length": {"hands": 1}}))
    last.apply_all(old)  # the match ends with this hand: no deal may follow it
    with pytest.raises(IllegalActionError):
        last.apply(Deal(Seat.N, finished.hands[0].deal))
    assert last.phase is Phase.CLAIM and last.results == []
