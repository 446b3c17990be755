"""Regenerate the golden playthroughs in tests/golden/playthroughs/ (``make golden``, which runs
``python -m tests.golden.regen_playthroughs`` from the repository root).

Each is a seeded match played by random legal players through the public Game API, written as
readable text (deal, bids, every trick with leader, cards, winner, points and roem parts, claims,
settlement, totals), so that any change of engine behaviour shows in review as a diff.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from bot.texts.catalog import roem_text
from engine.actions import Call, Claim
from engine.cards import SEATS, cards_of, format_cards
from engine.events import (
    BidMade,
    HandDealt,
    HandSettled,
    MatchOver,
    RoemClaimed,
    StukScored,
    SuitTurned,
    TrickWon,
    TrumpChosen,
)
from engine.game import Game, Phase
from engine.settings import RoemMode, Rules

GOLDEN_DIR = Path(__file__).resolve().parent / "playthroughs"

# name -> (rules, seed, most hands to play)
GAMES: dict[str, tuple[dict[str, object], int, int]] = {
    "rotterdam_vrij_default": ({"length": {"hands": 2}}, 1, 2),
    "amsterdam_draaien_declared_held": (
        {"play": "amsterdam", "bidding": "draaien", "roem": "declared", "stuk": "held", "length": {"hands": 2}},
        2, 2),
    "rotterdam_forbidden_dealer_target": (
        {"undertrump": "forbidden", "forced": "dealer", "length": {"target": 300}}, 3, 6),
    "verplicht_held_stuk": ({"bidding": "verplicht", "stuk": "held", "length": {"hands": 1}}, 4, 1),
}


def render(name: str) -> str:
    raw_rules, seed, max_hands = GAMES[name]
    rules = Rules.from_dict(raw_rules)
    rng = random.Random(seed)
    game = Game(rules)
    out = [f"# golden playthrough {name} (seed {seed})",
           "rules: " + ", ".join(f"{k}={v}" for k, v in rules.to_dict().items()), ""]
    while game.phase is not Phase.OVER:
        if game.phase is Phase.DEAL:
            if len(game.hands) >= max_hands:
                break
            events = game.deal_random(rng, None if game.hands else SEATS[seed % 4])
        elif game.phase is Phase.TURN_UP:
            events = game.turn_up_random(rng)
        elif rules.roem is RoemMode.DECLARED and game.can_claim() and rng.random() < 0.5:
            events = game.apply(Claim(SEATS[rng.randrange(4)]))
        else:
            legal = game.legal_actions()
            if Call.PASS in legal and rng.random() < 0.6:
                action = Call.PASS
            else:
                action = rng.choice(legal)
            events = game.apply(action, game.to_act)
        for event in events:
            out.extend(describe(game, event))
    out.append(f"totals: NS {game.totals[0]}, EW {game.totals[1]}; phase {game.phase.value}")
    return "\n".join(out) + "\n"


def describe(game: Game, event: object) -> list[str]:
    if isinstance(event, HandDealt):
        hand = game.hands[event.hand]
        lines = [f"== hand {event.hand + 1}: dealer {event.dealer}, elder {event.dealer.next}"]
        lines += [f"  {seat}: {format_cards(hand_cards)}" for seat, hand_cards in
                  ((s, cards_of(hand.deal[s])) for s in SEATS)]
        return lines
    if isinstance(event, SuitTurned):
        return [f"  turned: {event.suit}"]
    if isinstance(event, BidMade):
        return [f"  bid {event.seat}: {event.call}"]
    if isinstance(event, TrumpChosen):
        forced = " (forced)" if event.forced else ""
        return [f"  trump {event.trump}, player {event.player} ({event.player.team}){forced}"]
    if isinstance(event, StukScored):
        return [f"  stuk (held) for {event.seat} ({event.team}): {event.points}"]
    if isinstance(event, TrickWon):
        plays = ", ".join(f"{SEATS[(event.leader + i) & 3]} {card}" for i, card in enumerate(event.cards))
        roem = f", roem {roem_text(event.roem_parts, 'en')}" if event.roem else ""
        claim = " (to be claimed)" if event.needs_claim else ""
        return [f"  trick {event.trick + 1}: {event.leader} leads: {plays} -> {event.winner} ({event.team}) "
                f"{event.points} points{roem}{claim}"]
    if isinstance(event, RoemClaimed):
        return [f"  claim by {event.seat} for trick {event.trick + 1}: {event.points}"]
    if isinstance(event, HandSettled):
        r = event.result
        pit = f", pit {r.pit}" if r.pit is not None else ""
        return [f"  settled: points NS {r.points[0]} EW {r.points[1]}; roem NS {r.roem[0]} EW {r.roem[1]}{pit}; "
                f"{'nat' if r.nat else 'made'}; score NS {r.score[0]} EW {r.score[1]}; "
                f"totals NS {game.totals[0]} EW {game.totals[1]}"]
    if isinstance(event, MatchOver):
        return [f"== match over: {event.winner if event.winner is not None else 'draw'} "
                f"(NS {event.totals[0]}, EW {event.totals[1]})"]
    return []


def main() -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name in GAMES:
        (GOLDEN_DIR / f"{name}.txt").write_text(render(name), encoding="utf-8")
        print(f"wrote {GOLDEN_DIR / (name + '.txt')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
