"""The easy level: the heuristic's game with the mistakes people make, never random cards.

Each mistake is a function of the seat's view and the heuristic's decision: where the situation
invites that mistake it returns the mistaken (always legal) action, otherwise ``None``. The player
makes it with the mistake's rate, drawn from its own seeded generator, so a seed gives the same game.
Besides these, it sometimes forgets cards of earlier tricks and plays as if they were still out.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from engine import rulebook
from engine.actions import SUIT_CALLS, Call
from engine.ai.heuristic import (
    BID_THRESHOLD,
    RANK_ACE,
    RANK_TEN,
    Decision,
    HeuristicPlayer,
    Knowledge,
    hand_evaluation,
    points,
    strength,
)
from engine.cards import DECK, Card, Suit, card_at, iter_bits, rank_of, suit_of
from engine.game import Phase
from engine.randomness import RandomSource
from engine.view import SeatView

Mistake = Callable[[SeatView, Decision], Decision | None]

# How far from the bidding threshold a hand still tempts an easy player to play (or to pass).
OVERBID_MARGIN = 24.0
UNDERBID_MARGIN = 20.0
# Share of card decisions made with a hazy memory, and the share of older cards forgotten then.
FORGET_RATE = 0.5
FORGET_SHARE = 0.5

# Reasons of the heuristic's that mean partner's trick is sure and the card goes onto it.
ON_PARTNERS_SURE_TRICK = frozenset({"spek", "spek_ace", "signal_up", "signal_down", "keep_trumps", "discard"})


def _cards(view: SeatView) -> list[int]:
    return [int(c) for c in view.legal if isinstance(c, Card)]


def _card_of(decision: Decision) -> int:
    assert isinstance(decision.action, Card), "a card decision"
    return int(decision.action)


def _mistake(name: str, card: int) -> Decision:
    return Decision(DECK[card], name, {"card": str(DECK[card])})


def _cheapest(cards: list[int], trump: int) -> int:
    return min(cards, key=lambda c: (points(c, trump), strength(c, trump), c))


# ----------------------------------------------------------------- bidding


def overbid(view: SeatView, decision: Decision) -> Decision | None:
    """Optimism: plays a hand a little too weak ("met de boer en een aas moet het lukken"), on the suit it
    would name or, under draaien, on the turned one."""
    if decision.reason not in ("bid_pass", "bid_pass_turned"):
        return None
    suit = Suit.parse(decision.params["suit"])
    if hand_evaluation(view.hand_mask, suit) < BID_THRESHOLD - OVERBID_MARGIN:
        return None
    call = Call.PLAY if Call.PLAY in view.legal else SUIT_CALLS[suit]
    return Decision(call, "overbid", decision.params) if call in view.legal else None


def underbid(view: SeatView, decision: Decision) -> Decision | None:
    """Timidity: passes a hand that should be played, afraid of going nat (the turned suit's too, under draaien)."""
    if decision.reason not in ("bid_play", "bid_play_turned") or Call.PASS not in view.legal:
        return None
    suit = Suit.parse(decision.params["suit"])
    if hand_evaluation(view.hand_mask, suit) >= BID_THRESHOLD + UNDERBID_MARGIN:
        return None
    return Decision(Call.PASS, "underbid", decision.params)


def _trump_instead(view: SeatView, decision: Decision, suit: Suit, mistake: str) -> Decision | None:
    """The mistake of naming ``suit`` trump, when that is another call than the heuristic's and a legal one."""
    call = SUIT_CALLS[suit]
    if call == decision.action or call not in view.legal:
        return None
    return Decision(call, mistake, decision.params)


def trump_by_length(view: SeatView, decision: Decision) -> Decision | None:
    """Naming the longest suit trump instead of the strongest (four small cards over jack-nine)."""
    if decision.reason not in ("bid_play", "bid_forced") or decision.action not in SUIT_CALLS:
        return None
    hand = view.hand_mask
    longest = max(Suit, key=lambda s: (rulebook.popcount(hand & s.mask), hand_evaluation(hand, s), -s))
    return _trump_instead(view, decision, longest, "trump_by_length")


def trump_by_honours(view: SeatView, decision: Decision) -> Decision | None:
    """Naming the suit of its aces and tens trump, as if they ruled there too, instead of the one with the jack and
    the nine (AH TH KH over JC 9C 7C). Only when it must name a suit (verplicht, or the forced seat): a player who
    chose to play did so for a suit it likes."""
    if decision.reason != "bid_forced" or decision.action not in SUIT_CALLS:
        return None
    hand = view.hand_mask

    def honours(suit: Suit) -> tuple[int, int]:
        cards = list(iter_bits(hand & suit.mask))
        return sum(rulebook.PLAIN_POINTS[rank_of(c)] for c in cards), len(cards)

    return _trump_instead(view, decision, max(Suit, key=lambda s: (*honours(s), -s)), "trump_by_honours")


# ----------------------------------------------------------------- play


def leave_trumps_out(view: SeatView, decision: Decision) -> Decision | None:
    """Not pulling trumps: the playing team cashes a side ace first (which then gets trumped) or leads
    a side suit, and the opponents keep their trumps."""
    if decision.reason != "pull_trumps":
        return None
    assert view.trump is not None
    trump = int(view.trump)
    plain = [c for c in _cards(view) if suit_of(c) != trump]
    if not plain:
        return None
    aces = [c for c in plain if rank_of(c) == RANK_ACE]
    return _mistake("leave_trumps_out", aces[0] if aces else _cheapest(plain, trump))


def ignore_partner_signal(view: SeatView, decision: Decision) -> Decision | None:
    """A signal missed: partner asked for a suit (opseinen) and another suit is led."""
    if decision.reason != "lead_signal":
        return None
    k = Knowledge(view)
    others = [c for c in _cards(view) if suit_of(c) != k.trump and not k.signal_up >> suit_of(c) & 1]
    return _mistake("ignore_partner_signal", _cheapest(others, k.trump)) if others else None


def lead_a_bare_ten(view: SeatView, decision: Decision) -> Decision | None:
    """Leading a ten while its ace is still out ("een tien voor de aas"): the opponents catch it."""
    if decision.reason != "lead_low":
        return None
    k = Knowledge(view)
    tens = [c for c in _cards(view) if suit_of(c) != k.trump and rank_of(c) == RANK_TEN
            and k.unseen >> card_at(suit_of(c), RANK_ACE) & 1]
    return _mistake("lead_a_bare_ten", tens[0]) if tens else None


def throw_ten_on_lost_trick(view: SeatView, decision: Decision) -> Decision | None:
    """"Een tien bijgooien": a ten (or an ace) thrown onto a trick the opponents take."""
    if decision.reason != "duck":
        return None
    head = view.trick_head()
    assert head is not None and view.trump is not None
    head_seat, head_card = head
    if head_seat.team is view.team:
        return None
    trump = int(view.trump)
    led = suit_of(view.trick[0])
    head_power = rulebook.card_power(head_card, trump, led)
    losing = [c for c in _cards(view) if suit_of(c) != trump and rulebook.card_power(c, trump, led) <= head_power]
    rich = [c for c in losing if points(c, trump) >= 10 and points(c, trump) > points(_card_of(decision), trump)]
    if not rich:
        return None
    return _mistake("throw_ten_on_lost_trick", max(rich, key=lambda c: (rank_of(c) == RANK_TEN, c)))


def forget_to_spek(view: SeatView, decision: Decision) -> Decision | None:
    """Not spekken: partner's trick is sure and a low card goes onto it instead of the ten."""
    if decision.reason not in ("spek", "spek_ace"):
        return None
    assert view.trump is not None
    trump = int(view.trump)
    cheap = [c for c in _cards(view) if suit_of(c) != trump and points(c, trump) < 10]
    return _mistake("forget_to_spek", _cheapest(cheap, trump)) if cheap else None


def trump_partners_trick(view: SeatView, decision: Decision) -> Decision | None:
    """Trumping the partner's sure trick (where the rules do not make you): a trump wasted."""
    if decision.reason not in ON_PARTNERS_SURE_TRICK:
        return None
    assert view.trump is not None
    trump = int(view.trump)
    if suit_of(view.trick[0]) == trump or suit_of(_card_of(decision)) == trump:
        return None
    trumps = [c for c in _cards(view) if suit_of(c) == trump]
    return _mistake("trump_partners_trick", min(trumps, key=lambda c: strength(c, trump))) if trumps else None


def spek_too_early(view: SeatView, decision: Decision) -> Decision | None:
    """Spekken too early: a ten onto partner's trick that an opponent still to play can take."""
    if decision.reason != "duck_partner" or not view.trick:
        return None
    assert view.trump is not None
    trump = int(view.trump)
    led = suit_of(view.trick[0])
    tens = [c for c in _cards(view) if suit_of(c) != trump and rank_of(c) == RANK_TEN]
    following = [c for c in tens if suit_of(c) == led]
    return _mistake("spek_too_early", (following or tens)[0]) if tens else None


def defenders_pull_trumps(view: SeatView, decision: Decision) -> Decision | None:
    """The defending team leads trumps, which only helps the playing team draw the rest."""
    if view.trick or view.player is None or view.player.team is view.team:
        return None
    assert view.trump is not None
    trump = int(view.trump)
    trumps = [c for c in _cards(view) if suit_of(c) == trump]
    if not trumps or suit_of(_card_of(decision)) == trump:
        return None
    return _mistake("defenders_pull_trumps", max(trumps, key=lambda c: strength(c, trump)))


def let_the_trick_go(view: SeatView, decision: Decision) -> Decision | None:
    """Not seeing that a card of one's own takes the trick: a cheap card and the trick goes to the opponents."""
    if decision.reason != "win":
        return None
    head = view.trick_head()
    assert head is not None and view.trump is not None
    trump = int(view.trump)
    led = suit_of(view.trick[0])
    head_power = rulebook.card_power(head[1], trump, led)
    losing = [c for c in _cards(view) if rulebook.card_power(c, trump, led) <= head_power]
    return _mistake("let_the_trick_go", _cheapest(losing, trump)) if losing else None


# Each with the share of its chances that the easy player takes; tuned by `klaverjas duel normal easy`.
BID_MISTAKES: tuple[tuple[Mistake, float], ...] = ((overbid, 0.5), (underbid, 0.5), (trump_by_length, 0.5),
                                                  (trump_by_honours, 0.5))
PLAY_MISTAKES: tuple[tuple[Mistake, float], ...] = (
    (leave_trumps_out, 0.6),
    (ignore_partner_signal, 0.5),
    (lead_a_bare_ten, 0.5),
    (defenders_pull_trumps, 0.4),
    (throw_ten_on_lost_trick, 0.7),
    (spek_too_early, 0.5),
    (forget_to_spek, 0.5),
    (trump_partners_trick, 0.5),
    (let_the_trick_go, 0.5),
)


def forget_played_cards(k: Knowledge, view: SeatView, rng: RandomSource, rate: float = FORGET_RATE) -> Knowledge:
    """A hazy memory: some cards of the tricks before the last one count as still out, so a ten whose
    ace has gone is not played as boss and trumps are pulled that nobody holds any more."""
    if rng.random() >= rate:
        return k
    forgotten = 0
    for trick in view.tricks[:-1]:
        for card in trick.cards:
            if rng.random() < FORGET_SHARE:
                forgotten |= 1 << card
    if not forgotten:
        return k
    hazy = copy.copy(k)
    hazy.played &= ~forgotten
    hazy.unseen |= forgotten
    return hazy


class EasyPlayer(HeuristicPlayer):
    """The easy level: plays as the heuristic, but makes people's mistakes (``BID_MISTAKES``,
    ``PLAY_MISTAKES``, ``forget_played_cards``) at their rates."""

    def __init__(self, seed: int | RandomSource = 0, name: str = "easy",
                 bid_mistakes: tuple[tuple[Mistake, float], ...] = BID_MISTAKES,
                 play_mistakes: tuple[tuple[Mistake, float], ...] = PLAY_MISTAKES,
                 forget_rate: float = FORGET_RATE) -> None:
        super().__init__(seed=seed, name=name)
        self.bid_mistakes = bid_mistakes
        self.play_mistakes = play_mistakes
        self.forget_rate = forget_rate

    def knowledge(self, view: SeatView) -> Knowledge:
        return forget_played_cards(Knowledge(view), view, self._rng, self.forget_rate)

    def decide(self, view: SeatView) -> Decision:
        decision = super().decide(view)
        if view.phase is Phase.CLAIM or len(view.legal) == 1:  # claims are owed; a forced card is no choice
            return decision
        for mistake, rate in self.bid_mistakes if view.phase is Phase.BIDDING else self.play_mistakes:
            wrong = mistake(view, decision)
            if wrong is not None and wrong.action in view.legal and self._rng.random() < rate:
                return wrong
        return decision
