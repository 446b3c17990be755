"""mc, the Monte Carlo sparring partner: legal, seeded, blind to hidden cards, its roll-outs follow the rules and
settle as the game does; the paired duel and the duel's --rollouts."""

from __future__ import annotations

import argparse
import io
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.duel import run_duel
from bot.cli.main import build_parser
from engine.actions import SUIT_CALLS, Deal
from engine.ai.base import Player
from engine.ai.bench import bench_mc
from engine.ai.duel import paired_duel
from engine.ai.mc import BIDDING_HEURISTIC, MonteCarloPlayer
from engine.ai.players import make_player
from engine.ai.rollout import _policy
from engine.cards import Card, Seat, Suit
from engine.events import HandSettled
from engine.game import Game, Phase, random_deal
from engine.randomness import SeededRandom
from engine.settings import Rules
from engine.view import seat_view
from tests.ai.test_players import RULE_COMBOS, play_hands

FEW = 24  # roll-outs a card: enough to exercise everything, cheap


@pytest.mark.parametrize("rules", RULE_COMBOS[::3], ids=lambda r: "-".join(str(v) for v in r.to_dict().values())[:60])
def test_mc_only_chooses_legal_actions(rules: Rules) -> None:
    players: list[Player] = [MonteCarloPlayer(FEW, seed=1), make_player("heuristic", 2),
                             MonteCarloPlayer(FEW, seed=3, bidding=BIDDING_HEURISTIC), make_player("random", 4)]
    assert play_hands(players, rules, seed=len(str(rules.to_dict())), hands=2) >= 64


def _decisions(seed: int) -> list[str]:
    """Every action of a hand where mc holds all four seats."""
    game = Game(Rules().with_changes(bidding="draaien"))
    rng = SeededRandom(11)
    players = [MonteCarloPlayer(FEW, seed=seed * 4 + s) for s in range(4)]
    actions: list[str] = []
    while not game.results:
        if game.phase is Phase.DEAL:
            game.deal_random(rng)
        elif game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
        else:
            seat = game.to_act
            assert seat is not None
            action = players[seat].choose(seat_view(game, seat))
            actions.append(str(action))
            game.apply(action, seat)
    return actions


def test_mc_is_deterministic_given_its_seed() -> None:
    assert _decisions(5) == _decisions(5)
    assert any(_decisions(seed) != _decisions(5) for seed in (6, 7, 8))  # the seed matters


def test_mc_sees_no_hidden_card() -> None:
    """Two deals that differ only in cards E cannot see (one swapped between N and S): E's view is the same, so
    mc's choice from it is too, whatever its seed, at the opening lead and after a trick."""
    deal = random_deal(SeededRandom(3), Seat.N).hands
    n_card = deal[0] & -deal[0]
    s_card = deal[2] & -deal[2]
    swapped = ((deal[0] ^ n_card) | s_card, deal[1], (deal[2] ^ s_card) | n_card, deal[3])
    games = []
    for hands in (deal, swapped):
        game = Game(Rules())
        game.apply(Deal(Seat.N, hands))
        game.apply(SUIT_CALLS[Suit.H], Seat.E)  # vrij: E, the elder hand, names trump and leads
        games.append(game)
    for _ in range(2):
        views = [seat_view(game, Seat.E) for game in games]
        assert views[0] == views[1] and views[0].my_turn
        for seed in range(3):
            choices = {MonteCarloPlayer(FEW, seed=seed).choose(view) for view in views}
            assert len(choices) == 1
        card = MonteCarloPlayer(FEW).choose(views[0])
        for game in games:  # E leads; the others follow with the lowest legal card each (the same in both games
            game.apply(card, Seat.E)  # unless a swapped card is the lowest: then the trick differs, as it should)
            for seat in (Seat.S, Seat.W, Seat.N):
                legal = [c for c in game.legal_actions() if isinstance(c, Card)]
                game.apply(min(legal, key=lambda c: (c & 7, c)), seat)
        if games[0].to_act is not Seat.E or games[1].to_act is not Seat.E or \
                seat_view(games[0], Seat.E) != seat_view(games[1], Seat.E):
            break


def test_a_rollout_is_settled_as_the_game_settles() -> None:
    """The last card of a hand: no card is unseen, so each roll-out is the hand's own end, settled."""
    for rules in (Rules(), Rules().with_changes(stuk="held", play="amsterdam", bidding="draaien")):
        for seed in range(6):
            game = Game(rules)
            rng = random.Random(seed)
            heuristic = [make_player("heuristic", s) for s in range(4)]
            while True:
                if game.phase is Phase.DEAL:
                    game.deal_random(rng)
                    continue
                if game.phase is Phase.TURN_UP:
                    game.turn_up_random(rng)
                    continue
                seat = game.to_act
                assert seat is not None
                view = seat_view(game, seat)
                if game.phase is Phase.PLAY and len(game.hand.tricks) == 7 and len(game.hand.trick_cards) == 3:
                    break
                game.apply(heuristic[seat].choose(view), seat)
            means = MonteCarloPlayer(3, seed=seed).means(view)
            (card, mean), = means.items()
            events = game.apply(Card(card), seat)
            while game.phase is Phase.CLAIM:  # roem: auto in these rules, but a claim phase is settled all the same
                asked = game.to_act
                assert asked is not None
                events += game.apply(make_player("heuristic").choose(seat_view(game, asked)), asked)
            result = next(e.result for e in events if isinstance(e, HandSettled))
            team = seat.team
            assert mean == result.score[team] - result.score[team.other]


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


@SETTINGS
@given(seed=st.integers(0, 2**32), plays=st.integers(0, 31), noise=st.sampled_from([0, 1 << 29, 1 << 31]),
       rules=st.sampled_from(RULE_COMBOS))
def test_the_rollout_policy_follows_the_rules(seed: int, plays: int, noise: int, rules: Rules) -> None:
    """At any position of a random game, the policy's card is one the engine allows."""
    game = Game(rules)
    rng = random.Random(seed)
    game.deal_random(rng)
    while game.phase is not Phase.PLAY:
        if game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
            continue
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))], seat)
    for _ in range(plays):
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))], seat)
        if game.phase is not Phase.PLAY:
            return
    seat = game.to_act
    assert seat is not None
    hand = game.hand
    assert hand.trump is not None
    trick = (*hand.trick_cards, 0, 0, 0)
    out = hand.hands[0] | hand.hands[1] | hand.hands[2] | hand.hands[3]
    card, _ = _policy(hand.hands[seat], out, trick[0], trick[1], trick[2], len(hand.trick_cards), int(hand.trump),
                      rules.amsterdam, rules.undertrump_forced, noise, seed)
    assert Card(card) in game.legal_actions()


def test_mc_needs_a_rollout() -> None:
    with pytest.raises(ValueError, match="at least 1 roll-out"):
        MonteCarloPlayer(0)
    assert isinstance(make_player("mc", 1, rollouts=7), MonteCarloPlayer)
    player = make_player("mc", 1, rollouts=7)
    assert isinstance(player, MonteCarloPlayer) and player.rollouts == 7


def test_duel_refuses_zero_rollouts(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["duel", "mc", "heuristic", "--rollouts", "0"])
    assert exit_.value.code == 2
    assert "argument --rollouts: must be at least 1, not 0" in capsys.readouterr().err
    args = argparse.Namespace(a="mc", b="heuristic", deals=1, seed=1, json=False, rules="rotterdam", bidding="vrij",
                              workers=1, untimed=False, rollouts=0, paired_with=None)
    assert run_duel(args, io.StringIO()) == 2
    assert "--rollouts must be at least 1" in capsys.readouterr().err


def test_the_duel_passes_its_rollouts_to_mc() -> None:
    out = io.StringIO()
    args = argparse.Namespace(a="mc", b="heuristic", deals=2, seed=1, json=True, rules="rotterdam", bidding="vrij",
                              workers=1, untimed=False, rollouts=5, paired_with=None)
    assert run_duel(args, out) == 0
    data = json.loads(out.getvalue())
    assert data["rollouts"] == 5 and data["a"] == "mc" and data["deals"] == 2


@pytest.mark.parametrize("kind", ["heuristic", "mc"])
def test_a_player_paired_with_itself_differs_by_exactly_zero(kind: str) -> None:
    def factory(seed: int) -> Player:
        return make_player(kind, seed, rollouts=FEW)

    result = paired_duel(kind, kind, "random", deals=4, seed=2, rules=Rules().with_changes(bidding="draaien"),
                         make_a=factory, make_v=factory)
    assert result.diff_per_hand == 0 and result.ci95 == (0.0, 0.0)
    assert result.first == result.second


def test_a_paired_duel_tells_two_players_apart_on_the_same_deals() -> None:
    result = paired_duel("heuristic", "random", "easy", deals=6, seed=3)
    assert result.first.a == "heuristic" and result.second.a == "random" and result.first.b == "easy"
    assert result.diff_per_hand == pytest.approx(result.first.diff_per_hand - result.second.diff_per_hand)
    assert result.diff_per_hand > 0
    assert "paired" in result.describe()
    again = paired_duel("heuristic", "random", "easy", deals=6, seed=3)
    assert again == result  # the same deals and seeds: anyone can rerun it


def test_cli_paired_with_json() -> None:
    out = io.StringIO()
    args = argparse.Namespace(a="heuristic", b="random", deals=3, seed=1, json=True, rules="rotterdam",
                              bidding="draaien", workers=1, untimed=False, rollouts=None, paired_with="heuristic")
    assert run_duel(args, out) == 0
    data = json.loads(out.getvalue())
    assert data["variant"] == "heuristic" and data["diff_per_hand"] == 0
    assert data["a_vs_b"]["a_stats"]["nat_rate"] == data["variant_vs_b"]["a_stats"]["nat_rate"]


def test_the_duel_pairs_a_variant_of_a_kind_and_refuses_a_wrong_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert build_parser().parse_args(["duel", "MC:rollouts=3", "random", "--paired-with", "mc"]).a == "mc:rollouts=3"
    out = io.StringIO()
    args = argparse.Namespace(a="mc:rollouts=3", b="random", deals=2, seed=1, json=True, rules="rotterdam",
                              bidding="vrij", workers=1, untimed=True, rollouts=None, paired_with="mc:rollouts=3")
    assert run_duel(args, out) == 0
    data = json.loads(out.getvalue())
    assert data["a"] == "mc:rollouts=3" and data["variant"] == "mc:rollouts=3" and data["diff_per_hand"] == 0
    wrong = argparse.Namespace(**{**vars(args), "paired_with": "mc:rollout=3"})
    assert run_duel(wrong, io.StringIO()) == 2
    assert "mc has no setting 'rollout': choose from" in capsys.readouterr().err


def test_bench_ai_times_mc_decisions() -> None:
    figures = bench_mc(0.0)  # one hand
    assert figures["mc_hands"] == 1 and isinstance(figures["mc_card_decisions"], int)
    assert figures["mc_card_decisions"] > 0 and figures["mc_rollouts_setting"] == 1000
    assert {"mc_card_median_ms", "mc_card_p95_ms", "mc_call_median_ms"} <= set(figures)
