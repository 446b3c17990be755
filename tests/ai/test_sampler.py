"""Sampled deals agree with everything the seat knows, and what it knows is true of the real deal."""

from __future__ import annotations

import random

import pytest

from engine import rulebook
from engine.ai.heuristic import HeuristicPlayer
from engine.ai.players import make_player
from engine.ai.reveals import ducked_below, play_inference
from engine.ai.sampler import bid_checks, knowledge, sample_biased, sample_deals
from engine.cards import SEATS, Card
from engine.game import Game, Phase
from engine.settings import Rules
from engine.view import seat_view

RULES = [Rules().with_changes(play=play, undertrump=under) for play in ("rotterdam", "amsterdam")
         for under in ("forced", "forbidden")]


def current_hands(game: Game) -> tuple[int, int, int, int]:
    hand = game.hand
    assert hand is not None
    return hand.hands[0], hand.hands[1], hand.hands[2], hand.hands[3]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.play.value}-{r.undertrump_rule.value}")
def test_sampled_deals_agree_with_what_the_seat_knows(rules: Rules) -> None:
    rng = random.Random(7)
    checked_voids = 0
    for _ in range(6):
        game = Game(rules.with_changes(bidding="verplicht", length="1"))
        game.deal_random(rng)
        while game.phase is Phase.BIDDING:
            game.apply(rng.choice(game.legal_actions()))
        while game.phase is Phase.PLAY:
            truth = current_hands(game)
            for seat in SEATS:
                view = seat_view(game, seat)
                know = knowledge(view)
                # What the seat infers is true of the real deal (no wrong inference).
                assert know.allows(truth), (seat, view.tricks, view.trick)
                checked_voids += sum(1 for s in SEATS if s != seat and know.forbidden[s])
                for deal in sample_deals(view, rng, 3):
                    assert know.allows(deal)
                    assert deal[seat] == view.hand_mask  # own hand fixed
                    union = 0
                    for s in SEATS:
                        assert not deal[s] & union  # no card twice
                        union |= deal[s]
                        assert rulebook.popcount(deal[s]) == rulebook.popcount(truth[s])  # hand sizes
                        assert not deal[s] & know.forbidden[s]  # voids and trump limits respected
                    assert union | view.played_mask == (1 << 32) - 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked_voids > 0  # the games did reveal something


def test_inference_reads_the_table_rules() -> None:
    trump = 0  # clubs
    hearts = rulebook.SUIT_MASK[2]
    clubs = rulebook.SUIT_MASK[0]
    # Hearts led, partner (two seats back) heads with the ace, a diamond discarded.
    trick = (int(Card.HA), int(Card.H7))
    ams = play_inference(trick, int(Card.D7), trump, amsterdam=True, undertrump_forced=False)
    rot = play_inference(trick, int(Card.D7), trump, amsterdam=False, undertrump_forced=True)
    assert ams == hearts  # amsterdam: may decline to trump, so no evidence about clubs
    assert rot == hearts | clubs  # rotterdam: had to trump, so holds none
    # An opponent trumped with the jack; a heart discard under forbidden undertrump shows no trump above it.
    trick = (int(Card.HA), int(Card.CJ))
    above_jack = play_inference(trick, int(Card.D7), trump, amsterdam=False, undertrump_forced=False)
    assert above_jack == hearts  # nothing beats the jack of trumps: no trump is excluded
    trick = (int(Card.HA), int(Card.CQ))
    shown = play_inference(trick, int(Card.D7), trump, amsterdam=False, undertrump_forced=False)
    assert shown & clubs == rulebook.TRUMP_ABOVE[trump * 9 + rulebook.TRUMP_STRENGTH[int(Card.CQ) & 7] + 1]
    # Undertrumping when it is forbidden shows a hand of nothing but trumps.
    low = play_inference(trick, int(Card.C7), trump, amsterdam=False, undertrump_forced=False)
    assert low & ~clubs == (1 << 32) - 1 & ~clubs
    # Under the partner's heading trump, amsterdam allows a lower trump only from a hand of nothing but
    # trumps, and then any trump: no other suit, but higher trumps may still be held.
    trick = (int(Card.H7), int(Card.CQ), int(Card.H8))
    ams_under = play_inference(trick, int(Card.C7), trump, amsterdam=True, undertrump_forced=False)
    assert ams_under == (1 << 32) - 1 & ~clubs
    rot_under = play_inference(trick, int(Card.C7), trump, amsterdam=False, undertrump_forced=True)
    assert rot_under == hearts | rulebook.TRUMP_ABOVE[trump * 9 + rulebook.TRUMP_STRENGTH[int(Card.CQ) & 7] + 1]
    # Following trump without overtrumping shows no higher trump.
    follow = play_inference((int(Card.C9),), int(Card.C7), trump, amsterdam=False, undertrump_forced=True)
    assert follow == rulebook.TRUMP_ABOVE[trump * 9 + rulebook.TRUMP_STRENGTH[int(Card.C9) & 7] + 1]


@pytest.mark.parametrize("bidding", ["vrij", "draaien"])
def test_the_bidding_read_is_true_of_heuristic_bidders_and_tilts_the_samples(bidding: str) -> None:
    rng = random.Random(11)
    checked = agreeing = agreeing_plain = drawn = 0
    for _ in range(12):
        game = Game(Rules().with_changes(bidding=bidding, length="1"))
        game.deal_random(rng)
        truth = current_hands(game)
        bots = [HeuristicPlayer(seed=i) for i in range(4)]
        while game.phase in (Phase.BIDDING, Phase.TURN_UP):
            if game.phase is Phase.TURN_UP:
                game.turn_up_random(rng)
                continue
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(seat_view(game, seat)), seat)
        if game.phase is not Phase.PLAY:
            continue
        for seat in SEATS:
            view = seat_view(game, seat)
            checks = bid_checks(view)
            assert all(check.seat != seat for check in checks)
            # The heuristic bids by exactly this yardstick: every check holds for the real hands.
            assert all(check.agrees(truth[check.seat]) for check in checks)
            checked += len(checks)
            know = knowledge(view)
            for _ in range(4):
                deal = sample_biased(know, rng, view)
                assert know.allows(deal)
                drawn += len(checks)
                agreeing += sum(1 for check in checks if check.agrees(deal[check.seat]))
                plain = sample_biased(know, rng, view, bias=False)
                agreeing_plain += sum(1 for check in checks if check.agrees(plain[check.seat]))
    assert checked > 20
    # A soft tilt (a few draws per sample), clearly towards what the bidding said.
    assert agreeing >= 0.75 * drawn
    assert agreeing - agreeing_plain >= 0.1 * drawn


def test_a_card_given_to_a_lost_trick_reads_as_no_cheaper_card_of_its_suit() -> None:
    trump = 0  # clubs
    below_king = sum(1 << int(c) for c in (Card.HQ, Card.HJ, Card.H9, Card.H8, Card.H7))
    # An opponent leads the ace of hearts; the king beside it gives 4 points it need not have given.
    assert ducked_below((int(Card.HA),), int(Card.HK), trump) == below_king
    # Last to play, the opponents' trump heads the trick: the king is lost whatever it is.
    assert ducked_below((int(Card.H7), int(Card.H8), int(Card.C7)), int(Card.HK), trump) == below_king
    # A seven, eight or nine gives nothing: no card is cheaper.
    assert ducked_below((int(Card.HA),), int(Card.H9), trump) == 0
    # Partner heads the trick (two seats back): points there are a gift, not a loss.
    assert ducked_below((int(Card.HA), int(Card.H7)), int(Card.HK), trump) == 0
    # The card beats the trick, trumps are led, or the seat did not follow suit: none of it is a duck.
    assert ducked_below((int(Card.HK),), int(Card.HA), trump) == 0
    assert ducked_below((int(Card.CJ),), int(Card.C7), trump) == 0
    assert ducked_below((int(Card.HA),), int(Card.DK), trump) == 0
    assert ducked_below((), int(Card.HK), trump) == 0


@pytest.mark.parametrize("kind", ["heuristic", "mc"])
def test_the_play_read_holds_for_club_rules_and_tilts_the_samples(kind: str) -> None:
    """The heuristic gives its cheapest card to a lost trick, so the reading is never wrong about it; mc's
    roll-outs hold to it less (a leaning, not a rule). Either way the samples lean to it."""
    rng = random.Random(5)
    flagged = held = free = free_held = in_samples = in_plain = 0
    for deal_index in range(16):
        game = Game(Rules().with_changes(bidding="verplicht", length="1"))
        game.deal_random(rng)
        bots = [make_player(kind, seed=deal_index * 4 + i) for i in range(4)]
        while game.phase in (Phase.BIDDING, Phase.PLAY):
            seat = game.to_act
            assert seat is not None
            view = seat_view(game, seat)
            if game.phase is Phase.PLAY:
                truth = current_hands(game)
                know = knowledge(view)
                for other in SEATS:
                    if other == seat:
                        continue
                    assert not know.unlikely[other] & (know.forbidden[other] | ~know.unseen)  # only cards in doubt
                    flagged += rulebook.popcount(know.unlikely[other])
                    held += rulebook.popcount(know.unlikely[other] & truth[other])
                    possible = know.unseen & ~know.forbidden[other]
                    free += rulebook.popcount(possible)
                    free_held += rulebook.popcount(possible & truth[other])
                if any(know.unlikely):
                    deal = sample_biased(know, rng, view)
                    plain = sample_biased(know, rng, view, read_plays=False)
                    assert know.allows(deal)
                    in_samples += sum(rulebook.popcount(deal[s] & know.unlikely[s]) for s in SEATS)
                    in_plain += sum(rulebook.popcount(plain[s] & know.unlikely[s]) for s in SEATS)
            game.apply(bots[seat].choose(view), seat)
    assert flagged > 50
    share, base = held / flagged, free_held / free
    if kind == "heuristic":
        assert held == 0
    assert share < base - 0.05
    assert in_samples < 0.5 * in_plain
