"""engine.replay: every step of a game rebuilt from its actions agrees with the game as it was played."""

from __future__ import annotations

import random

import pytest
from klaverjas_test_helpers import random_game

from engine.cards import cards_of
from engine.game import Game, Phase
from engine.replay import Replay
from engine.settings import Rules
from engine.view import public_view

VARIANTS = [
    {"length": {"hands": 4}},
    {"length": {"hands": 3}, "bidding": "draaien", "roem": "declared", "stuk": "held"},
    {"length": {"hands": 3}, "play": "amsterdam", "bidding": "verplicht", "roem": "declared"},
    {"length": {"target": 500}},
]


def played(seed: int, rules: dict[str, object], stop_after: int | None = None) -> Game:
    rng = random.Random(seed)
    full = random_game(rng, Rules.from_dict(rules))
    if stop_after is None:
        return full
    game = Game(full.rules)
    game.apply_all(full.actions[:stop_after])
    return game


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_step_shows_the_game_as_it_was_played(rules: dict[str, object], seed: int) -> None:
    game = played(seed, rules)
    assert game.phase is Phase.OVER
    replay = Replay(game.rules, game.actions)
    assert replay.hands == len(game.hands)
    final = replay.final()
    assert final.totals == game.totals and final.results == game.results
    for index, hand in enumerate(game.hands):
        assert replay.steps(index) == 8
        deal = replay.step(index, 0)
        # After the bidding: the dealer, the calls and trump, and not a card played yet.
        assert (deal.view.dealer, deal.view.trump, deal.view.player) == (hand.dealer, hand.trump, hand.player)
        assert deal.view.bids == tuple(hand.bids) and deal.view.phase is Phase.PLAY and not deal.view.trick
        assert deal.trick is None and deal.hand.deal == hand.deal
        for number in range(1, 9):
            step = replay.step(index, number)
            assert step.trick == hand.tricks[number - 1]
            # The view is of this hand, with the trick's first three cards on the table.
            assert step.view.hand_number == index and step.view.trump == hand.trump
            assert step.view.trick == step.trick.cards[:3] and len(step.view.tricks) == number - 1
            # The step ends before the next card: this trick's claims are in, the next card is not.
            assert len(step.hand.plays) == 4 * number
            assert [c for c in step.hand.claims if c[0] < number] == [c for c in hand.claims if c[0] < number]
        assert replay.step(index, 8).hand.result == hand.result
        assert not replay.valid(index, 9) and not replay.valid(index, -1)
    assert not replay.valid(len(game.hands), 0)
    with pytest.raises(ValueError):
        replay.step(len(game.hands), 0)


@pytest.mark.parametrize("cut", range(1, 36))
def test_a_game_stopped_anywhere_ends_in_its_last_step(cut: int) -> None:
    """Stopped in the bidding, in a trick, or between tricks of the second hand (which has at least 35 actions:
    its deal, a turned suit, a call and 32 cards)."""
    full = played(7, {"length": {"hands": 4}, "bidding": "draaien"})
    first_hand = next(i for i, a in enumerate(full.actions) if i > 0 and type(a).__name__ == "Deal")
    game = played(7, {"length": {"hands": 4}, "bidding": "draaien"}, stop_after=first_hand + cut)
    replay = Replay(game.rules, game.actions)
    hand = game.hands[-1]
    assert replay.hands == 2
    last = replay.steps(1)
    assert last == (len(hand.plays) + 3) // 4
    end = replay.step(1, last)
    # The last step shows everything played, and the game it ends in is the stopped game.
    assert end.game.actions == game.actions
    if last == 0:
        assert end.view.bids == tuple(hand.bids) and end.view.turned == tuple(hand.turned)
    elif len(hand.plays) % 4:
        assert end.trick is None and end.view.trick == tuple(hand.plays[4 * (last - 1):])
    else:
        assert end.trick == hand.tricks[-1]
    assert public_view(end.game) == public_view(game)
    assert all(cards_of(end.hand.deal[s]) == cards_of(hand.deal[s]) for s in range(4))
