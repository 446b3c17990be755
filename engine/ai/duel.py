"""Duplicate matches between two players: every deal is played twice with the teams' seats swapped.

Deal ``i`` of seed ``S`` is the same cards, dealer and turned suits in both games; player A holds
N+S in the first game and E+W in the second, so the luck of the cards cancels out and the paired
difference per deal measures skill. A deal is one hand (bidding and play), scored by the hand's
settlement. The work per deal is a pure function of (players, rules, seed, index), so results do
not depend on how the deals are spread over processes; ``duel`` takes the ``map`` to use.

``paired_duel`` compares two players A and V by their duels against one opponent B on the same deals: every
player is made afresh for each decision, seeded by its seat's seed and what it sees (``situation_seed``), so
wherever A and V face the same situation they (and B) decide alike, and the deal's two differences differ only
by what A and V did differently. A player paired with itself scores exactly 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from engine.actions import Choice
from engine.ai.base import Player
from engine.ai.players import make_player, situation_seed
from engine.cards import SEATS, Team
from engine.events import HandSettled, TrumpChosen
from engine.game import Game, Phase, random_deal
from engine.randomness import SeededRandom
from engine.settings import Rules
from engine.view import SeatView, seat_view

PlayerFactory = Callable[[int], Player]  # seed -> player
MapFn = Callable[[Callable[[int], "DealOutcome"], Iterable[int]], Iterator["DealOutcome"]]
PairedMapFn = Callable[[Callable[[int], "PairedOutcome"], Iterable[int]], Iterator["PairedOutcome"]]


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One of the two games of a deal, from A's side."""

    a_score: int
    b_score: int
    a_played: bool  # A's team was the playing team
    forced: bool  # the playing seat had to play
    nat: bool
    pit_a: bool
    pit_b: bool


@dataclass(frozen=True, slots=True)
class DealOutcome:
    index: int
    games: tuple[GameOutcome, GameOutcome]  # A as NS, then A as EW

    @property
    def diff(self) -> float:
        """A minus B per hand, averaged over the two seatings."""
        return sum(g.a_score - g.b_score for g in self.games) / 2


@dataclass(frozen=True, slots=True)
class SideStats:
    hands: int  # hands this side played in (2 per deal)
    played: int  # hands where this side was the playing team
    chose: int  # of those, the hands where it chose to play (not forced)
    nat: int
    pit: int
    points: int  # this side's settled score summed over its hands

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    @property
    def play_rate(self) -> float:
        return self.played / self.hands if self.hands else 0.0

    @property
    def chose_rate(self) -> float:
        return self.chose / self.hands if self.hands else 0.0

    @property
    def nat_rate(self) -> float:
        """Share of the hands this side played that went nat."""
        return self.nat / self.played if self.played else 0.0

    def to_dict(self) -> dict[str, float | int]:
        return {"played": self.played, "chose": self.chose, "nat": self.nat, "pit": self.pit,
                "points_per_hand": round(self.points_per_hand, 3), "play_rate": round(self.play_rate, 4),
                "chose_rate": round(self.chose_rate, 4), "nat_rate": round(self.nat_rate, 4)}


@dataclass(frozen=True, slots=True)
class DuelResult:
    a: str
    b: str
    seed: int
    rules: Rules
    deals: int
    diff_per_hand: float
    ci95: tuple[float, float]
    stdev: float
    side_a: SideStats
    side_b: SideStats

    def to_dict(self) -> dict[str, object]:
        return {
            "a": self.a, "b": self.b, "seed": self.seed, "rules": self.rules.to_dict(),
            "deals": self.deals, "hands": 2 * self.deals,
            "diff_per_hand": round(self.diff_per_hand, 3),
            "ci95": [round(self.ci95[0], 3), round(self.ci95[1], 3)],
            "stdev": round(self.stdev, 3),
            "a_stats": self.side_a.to_dict(), "b_stats": self.side_b.to_dict(),
        }

    def describe(self) -> str:
        low, high = self.ci95
        lines = [
            f"{self.a} vs {self.b}: {self.deals} deals x 2 seatings, seed {self.seed}",
            f"{self.a} minus {self.b}: {self.diff_per_hand:+.1f} points per hand "
            f"(95% interval {low:+.1f} .. {high:+.1f})",
        ]
        for name, side in ((self.a, self.side_a), (self.b, self.side_b)):
            lines.append(f"  {name}: {side.points_per_hand:.1f} points a hand; played {side.play_rate:.1%} of hands "
                         f"({side.chose_rate:.1%} by choice, the rest as the forced seat), "
                         f"nat {side.nat_rate:.1%} of those, pit {side.pit}")
        return "\n".join(lines)


def _mix(*values: int) -> int:
    """A seed for one sub-stream from several ints (SplitMix finaliser)."""
    state = 0x243F6A8885A308D3
    for value in values:
        state = (state ^ (value & 0xFFFFFFFFFFFFFFFF)) * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF
        state ^= state >> 29
    return state


def play_hand(players: list[Player], rules: Rules, seed: int, index: int) -> tuple[tuple[int, int], Team, bool, bool,
                                                                                      Team | None]:
    """One hand of deal ``index``: (score NS/EW, playing team, forced, nat, pit team)."""
    game = Game(rules)
    deal_rng = SeededRandom(_mix(seed, index, 1))
    turn_rng = SeededRandom(_mix(seed, index, 2))  # its own stream: both games turn the same suits
    game.apply(random_deal(deal_rng, SEATS[index % 4]))
    forced = False
    while True:
        if game.phase is Phase.TURN_UP:
            events = game.turn_up_random(turn_rng)
        else:
            seat = game.to_act
            assert seat is not None
            events = game.apply(players[seat].choose(seat_view(game, seat)), seat)
        for event in events:
            if isinstance(event, TrumpChosen):
                forced = event.forced
            elif isinstance(event, HandSettled):
                result = event.result
                return result.score, result.playing, forced, result.nat, result.pit


def play_deal(make_a: PlayerFactory, make_b: PlayerFactory, rules: Rules, seed: int, index: int) -> DealOutcome:
    games: list[GameOutcome] = []
    for swap in (0, 1):
        a_team = Team.NS if swap == 0 else Team.EW
        players: list[Player] = []
        for seat in SEATS:
            factory = make_a if seat.team is a_team else make_b
            players.append(factory(_mix(seed, index, 10 + seat)))  # same seat seeds in both games
        score, playing, forced, nat, pit = play_hand(players, rules, seed, index)
        games.append(GameOutcome(
            a_score=score[a_team], b_score=score[a_team.other], a_played=playing is a_team, forced=forced,
            nat=nat, pit_a=pit is a_team, pit_b=pit is a_team.other))
    return DealOutcome(index, (games[0], games[1]))


def _interval(diffs: list[float]) -> tuple[float, tuple[float, float], float]:
    """The mean, its 95% interval and the standard deviation of per-deal differences."""
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    stdev = math.sqrt(var)
    half = 1.96 * stdev / math.sqrt(n) if n else 0.0
    return mean, (mean - half, mean + half), stdev


def summarize(a: str, b: str, seed: int, rules: Rules, outcomes: list[DealOutcome]) -> DuelResult:
    n = len(outcomes)
    mean, ci95, stdev = _interval([o.diff for o in outcomes])
    games = [g for o in outcomes for g in o.games]

    def side(is_a: bool) -> SideStats:
        mine = [g for g in games if g.a_played == is_a]
        return SideStats(hands=len(games), played=len(mine), chose=sum(1 for g in mine if not g.forced),
                         nat=sum(1 for g in mine if g.nat),
                         pit=sum(1 for g in games if (g.pit_a if is_a else g.pit_b)),
                         points=sum(g.a_score if is_a else g.b_score for g in games))

    return DuelResult(a, b, seed, rules, n, mean, ci95, stdev, side(True), side(False))


def duel(a: str, b: str, deals: int, seed: int = 1, rules: Rules | None = None, map_fn: MapFn | None = None,
         make_a: PlayerFactory | None = None, make_b: PlayerFactory | None = None) -> DuelResult:
    """Play ``deals`` duplicate deals between player kinds ``a`` and ``b`` (see ``make_player``).

    ``map_fn`` runs the deals (``map`` by default, a process pool's ``imap`` for speed); it must keep
    the order. ``make_a``/``make_b`` replace the kinds' factories (for experiments); they must be
    picklable to run in other processes.
    """
    rules = rules or Rules()
    work = partial(play_deal, make_a or partial(make_player, a), make_b or partial(make_player, b), rules, seed)
    runner: MapFn = map_fn or map
    outcomes = sorted(runner(work, range(deals)), key=lambda o: o.index)
    return summarize(a, b, seed, rules, outcomes)


@dataclass(slots=True)
class Reseeded:
    """A player made afresh by ``factory`` for each decision, seeded by ``seed`` and what the seat sees."""

    factory: PlayerFactory
    seed: int
    name: str = "reseeded"

    def choose(self, view: SeatView) -> Choice:
        return self.factory(situation_seed(self.seed, view)).choose(view)


def reseeded(factory: PlayerFactory) -> PlayerFactory:
    """``factory``'s players, each reseeded for every decision (``Reseeded``)."""
    return partial(Reseeded, factory)


@dataclass(frozen=True, slots=True)
class PairedOutcome:
    index: int
    first: DealOutcome  # A against B
    second: DealOutcome  # V against B

    @property
    def diff(self) -> float:
        """A minus V per hand: (A minus B) minus (V minus B)."""
        return self.first.diff - self.second.diff


@dataclass(frozen=True, slots=True)
class PairedResult:
    first: DuelResult  # A against B
    second: DuelResult  # V against B
    diff_per_hand: float
    ci95: tuple[float, float]
    stdev: float

    def to_dict(self) -> dict[str, object]:
        return {"a": self.first.a, "variant": self.second.a, "b": self.first.b, "seed": self.first.seed,
                "deals": self.first.deals, "diff_per_hand": round(self.diff_per_hand, 3),
                "ci95": [round(self.ci95[0], 3), round(self.ci95[1], 3)], "stdev": round(self.stdev, 3),
                "a_vs_b": self.first.to_dict(), "variant_vs_b": self.second.to_dict()}

    def describe(self) -> str:
        low, high = self.ci95
        a, v, b = self.first.a, self.second.a, self.first.b
        return "\n".join([
            self.first.describe(), self.second.describe(),
            f"{a} minus {v}, paired (each against {b} on the same deals, every decision seeded by what the seat "
            f"sees): {self.diff_per_hand:+.1f} points per hand (95% interval {low:+.1f} .. {high:+.1f})"])


def play_paired_deal(make_a: PlayerFactory, make_v: PlayerFactory, make_b: PlayerFactory, rules: Rules, seed: int,
                     index: int) -> PairedOutcome:
    opponent = reseeded(make_b)
    return PairedOutcome(index, play_deal(reseeded(make_a), opponent, rules, seed, index),
                         play_deal(reseeded(make_v), opponent, rules, seed, index))


def paired_duel(a: str, variant: str, b: str, deals: int, seed: int = 1, rules: Rules | None = None,
                map_fn: PairedMapFn | None = None, make_a: PlayerFactory | None = None,
                make_v: PlayerFactory | None = None, make_b: PlayerFactory | None = None) -> PairedResult:
    """A against B and ``variant`` against B on the same ``deals`` deals, each decision reseeded (see the module);
    the paired difference is A's minus the variant's. ``map_fn`` and the factories as for ``duel``."""
    rules = rules or Rules()
    work = partial(play_paired_deal, make_a or partial(make_player, a), make_v or partial(make_player, variant),
                   make_b or partial(make_player, b), rules, seed)
    runner: PairedMapFn = map_fn or map
    outcomes = sorted(runner(work, range(deals)), key=lambda o: o.index)
    mean, ci95, stdev = _interval([o.diff for o in outcomes])
    return PairedResult(summarize(a, b, seed, rules, [o.first for o in outcomes]),
                        summarize(variant, b, seed, rules, [o.second for o in outcomes]), mean, ci95, stdev)
