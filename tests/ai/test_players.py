"""Players return only legal actions, see only their view, and the level names map to players."""

from __future__ import annotations

import dataclasses
import itertools
import random
import re

import pytest

from engine.actions import Call
from engine.ai.base import Player
from engine.ai.easy import EasyPlayer
from engine.ai.heuristic import HeuristicPlayer
from engine.ai.mc import MonteCarloPlayer
from engine.ai.pimc import PimcPlayer
from engine.ai.players import (
    PLAYER_KINDS,
    RandomPlayer,
    UnknownPlayerError,
    make_player,
)
from engine.cards import SEATS, Card
from engine.game import Game, HandState, Phase
from engine.randomness import SeededRandom
from engine.settings import Rules
from engine.view import SeatView, seat_view


def play_hands(players: list[Player], rules: Rules, seed: int, hands: int = 1) -> int:
    """Play ``hands`` hands; every action must be among the view's legal actions. Returns decisions."""
    rng = random.Random(seed)
    game = Game(rules)
    decisions = 0
    while game.phase is not Phase.OVER and len(game.results) < hands:
        if game.phase is Phase.DEAL:
            game.deal_random(rng)
        elif game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
        else:
            seat = game.to_act
            assert seat is not None
            view = seat_view(game, seat)
            action = players[seat].choose(view)
            assert action in view.legal, (action, view.legal)
            game.apply(action, seat)
            decisions += 1
    return decisions


RULE_COMBOS = [
    Rules().with_changes(play=play, undertrump=under, bidding=bidding, forced=forced, stuk=stuk, roem=roem)
    for play, under, bidding, forced, stuk, roem in itertools.product(
        ("rotterdam", "amsterdam"), ("forced", "forbidden"), ("vrij", "verplicht", "draaien"),
        ("elder", "dealer"), ("trick", "held"), ("auto",))
]


@pytest.mark.parametrize("rules", RULE_COMBOS, ids=lambda r: "-".join(str(v) for v in r.to_dict().values())[:60])
def test_random_and_heuristic_players_only_choose_legal_actions(rules: Rules) -> None:
    for seed in range(3):
        players: list[Player] = [HeuristicPlayer(seed=seed), RandomPlayer(seed), make_player("easy", seed),
                                 RandomPlayer(seed + 7)]
        assert play_hands(players, rules, seed) >= 32


def test_heuristic_against_itself_over_many_hands_stays_legal() -> None:
    rules = Rules().with_changes(play="amsterdam", bidding="draaien")
    players: list[Player] = [make_player("normal", s) for s in range(4)]
    for seed in range(10):
        play_hands(players, rules, 100 + seed, hands=2)


def _reachable(value: object, seen: set[int]) -> list[object]:
    """Everything reachable from a view through dataclass fields and containers."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    found = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            found += _reachable(getattr(value, field.name), seen)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            found += _reachable(item, seen)
    elif isinstance(value, dict):
        for item in value.items():
            found += _reachable(item, seen)
    return found


class Spy:
    name = "spy"

    def __init__(self) -> None:
        self.inputs: list[object] = []

    def choose(self, view: SeatView) -> Card | Call:
        self.inputs.append(view)
        return view.legal[0]


def test_a_player_is_handed_only_its_seat_view() -> None:
    spies = [Spy() for _ in SEATS]
    play_hands(list(spies), Rules().with_changes(bidding="draaien"), seed=4)
    for seat, spy in zip(SEATS, spies, strict=True):
        assert spy.inputs
        for view in spy.inputs:
            assert type(view) is SeatView
            assert isinstance(view, SeatView) and view.seat is seat
            reachable = _reachable(view, set())
            assert not any(isinstance(item, Game | HandState) for item in reachable)
            # Only its own cards: the hand is the seat's, nothing else holds unplayed cards.
            assert view.hand_mask & view.played_mask == 0


def test_make_player_kinds_and_levels() -> None:
    assert make_player("random", 1).name == "random"
    assert isinstance(make_player("heuristic", 1), HeuristicPlayer)
    normal = make_player("normal", 1)
    easy = make_player("easy", 1)
    assert isinstance(normal, HeuristicPlayer) and normal.noise == 0
    assert isinstance(easy, EasyPlayer) and easy.noise == 0  # people's mistakes, not random cards
    assert {kind.name for kind in PLAYER_KINDS} == {"random", "heuristic", "pimc", "mc", "easy", "normal",
                                                      "hard"}
    with pytest.raises(UnknownPlayerError, match="unknown player 'genius'"):
        make_player("genius", 1)


def test_a_variant_changes_the_settings_it_names_and_nothing_else() -> None:
    plain = make_player("pimc", 4, timed=False)
    variant = make_player("PIMC: prune=off, stop_from=0", 4, timed=False)
    assert isinstance(plain, PimcPlayer) and isinstance(variant, PimcPlayer)
    assert (variant.prune, variant.stop_from) == (False, 0) and (plain.prune, plain.stop_from) != (False, 0)
    assert variant.seed == 4 and not variant.timed and variant.samples == plain.samples
    hard = make_player("hard:samples=12,time_budget_ms=50", 1)
    assert isinstance(hard, PimcPlayer) and hard.samples == 12 and hard.time_budget_ms == 50.0
    mc = make_player("mc:rollouts=9", 1)
    assert isinstance(mc, MonteCarloPlayer) and mc.rollouts == 9


@pytest.mark.parametrize(("text", "message"), [
    ("pimc:prune=maybe", "'prune' takes on or off, not 'maybe'"),
    ("pimc:samples=-3", "'samples' takes a number from 0, like 48, not '-3'"),
    ("pimc:samples=ten", "'samples' takes a number from 0"),
    ("pimc:rollouts=5", "pimc has no setting 'rollouts': choose from horizon_node_budget"),
    ("pimc:seed=5", "pimc has no setting 'seed'"),
    ("pimc:_rng=5", "pimc has no setting '_rng'"),
    ("pimc:last_samples=5", "pimc has no setting 'last_samples'"),
    ("heuristic:noise=1", "heuristic has no settings to change"),
    ("pimc:", "write a variant as kind:setting=value"),
    ("pimc:prune", "write a variant as kind:setting=value"),
    ("genius:prune=off", "unknown player 'genius'"),
])
def test_a_wrong_variant_is_named_and_refused(text: str, message: str) -> None:
    with pytest.raises(UnknownPlayerError, match=re.escape(message)):
        make_player(text, 1)


def test_hard_is_pimc() -> None:
    assert isinstance(make_player("hard", 1), PimcPlayer) and isinstance(make_player("pimc", 1), PimcPlayer)


def test_seeded_players_are_reproducible() -> None:
    rules = Rules()
    first = [RandomPlayer(5) for _ in SEATS]
    second = [RandomPlayer(5) for _ in SEATS]
    assert play_hands(list(first), rules, 9) == play_hands(list(second), rules, 9)
    a, b = SeededRandom(42), SeededRandom(42)
    assert [a.randrange(10) for _ in range(50)] == [b.randrange(10) for _ in range(50)]
    values = [a.random() for _ in range(1000)]
    assert all(0 <= v < 1 for v in values) and 0.4 < sum(values) / 1000 < 0.6
    deck = list(range(32))
    a.shuffle(deck)
    assert sorted(deck) == list(range(32)) and deck != list(range(32))
