"""Hints: the action the strong player would choose, with the reason as a code and its parameters.

The action comes from the strong player (``pimc`` when it is installed, else the heuristic); the
reason from the situation: who heads the trick, whether we must follow, whether our team pulls
trumps, what a signal says. When the heuristic agrees with the action, its own reason is used.
The words are ``bot.texts``' (``hint_text``): the engine holds no sentences.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from engine import rulebook
from engine.actions import Call, Choice, Claim, Decline
from engine.ai.base import Player
from engine.ai.heuristic import (
    LOW_RANKS,
    PICTURE_RANKS,
    Decision,
    HeuristicPlayer,
    Knowledge,
    describe_hand,
    hand_evaluation,
    points,
    strength,
)
from engine.ai.players import make_player
from engine.cards import SEATS, SUITS, Card, Seat, iter_bits, rank_of, seat_after, suit_of
from engine.game import Phase
from engine.view import SeatView


class HintCode(StrEnum):
    """Why a hint's action is good; ``bot.texts`` words each code (``hint.<code>``) with the hint's params."""

    ONLY = "only"
    RANDOM = "random"
    BID_PLAY = "bid_play"
    BID_PASS = "bid_pass"
    BID_FORCED = "bid_forced"
    BID_PLAY_TURNED = "bid_play_turned"  # draaien: play on the turned suit
    BID_PASS_TURNED = "bid_pass_turned"
    PULL_TRUMPS = "pull_trumps"
    CASH = "cash"
    LEAD_SIGNAL = "lead_signal"
    LEAD_LOW = "lead_low"
    SPEK = "spek"
    SPEK_ACE = "spek_ace"
    SIGNAL_UP = "signal_up"
    SIGNAL_DOWN = "signal_down"
    KEEP_TRUMPS = "keep_trumps"
    DISCARD = "discard"
    FOLLOW_TRUMP = "follow_trump"
    FOLLOW_CHEAP = "follow_cheap"
    OVERTAKE = "overtake"
    WIN = "win"
    TRUMP_IN = "trump_in"
    DUCK = "duck"
    DUCK_PARTNER = "duck_partner"
    LEAD = "lead"
    FOLLOW = "follow"
    PARTNER_AHEAD = "partner_ahead"  # partner heads the trick, but an opponent still to play may beat it
    BEAT = "beat"  # the card heads the trick for now; an opponent still to play may go higher
    CLAIM = "claim"  # the last trick's claim window: the team is owed roem
    CLAIM_NOTHING = "claim_nothing"
    DECLINE = "decline"
    DECLINE_OWED = "decline_owed"  # declining gives up owed roem


# Reasons that say partner's card wins the trick: only true when no opponent still to play can beat it.
PARTNER_WINS = frozenset({HintCode.SPEK, HintCode.SPEK_ACE, HintCode.SIGNAL_UP, HintCode.SIGNAL_DOWN,
                          HintCode.KEEP_TRUMPS, HintCode.DISCARD, HintCode.FOLLOW_TRUMP, HintCode.FOLLOW_CHEAP})


# Reasons that call the card the cheapest, and what to say instead when a cheaper card is in the hand.
CHEAPEST = {HintCode.DUCK: HintCode.FOLLOW, HintCode.DUCK_PARTNER: HintCode.PARTNER_AHEAD,
            HintCode.FOLLOW_CHEAP: HintCode.FOLLOW, HintCode.FOLLOW_TRUMP: HintCode.FOLLOW}


@dataclass(frozen=True, slots=True)
class Hint:
    """The strong player's action and why: a code and its parameters (cards and suits in notation:
    ``card``, ``head``; suit letters: ``suit``, ``led``; bid facts: ``trumps``, ``honours``, ``aces``)."""

    action: Choice
    code: HintCode
    params: Mapping[str, str] = field(default_factory=dict)


def strong_player(seed: int = 0) -> Player:
    """The player hints follow: the strong one."""
    return make_player("pimc", seed)


def hint(view: SeatView, player: Player | None = None) -> Hint:
    """The action ``player`` (default: the strong player) would choose now, with a reason."""
    if not view.my_turn or not view.legal:
        raise ValueError(f"no hint: it is not {view.seat.letter}'s turn")
    chooser = player or strong_player()
    return reason(view, chooser.choose(view))


def reason(view: SeatView, action: Choice) -> Hint:
    """Why ``action`` (a legal action of ``view.seat``) is good: the heuristic's own reason when it would
    choose the same, else one read off the situation; never claiming more than the seat can know."""
    decision = HeuristicPlayer().decide(view)
    if decision.action != action or decision.reason == "random":
        decision = explain(view, action)
    return render(view, honest(view, decision))


def honest(view: SeatView, decision: Decision) -> Decision:
    """The decision with a reason that claims no more than the seat can know.

    The heuristic plays on likelihoods ("an opponent with three clubs out will follow"); a hint's words
    state facts, so "partner's A wins" and "takes the trick" need every opponent still to play unable to
    beat the card, whatever they hold, and "the highest diamond left" needs no higher one in our own hand.
    """
    action = decision.action
    if view.phase is not Phase.PLAY or not isinstance(action, Card):
        return decision
    k = Knowledge(view)
    card = int(action)
    reason = decision.reason
    if not view.trick:
        if reason == HintCode.CASH and not _highest_left(k, card):
            return Decision(action, HintCode.LEAD, {"card": str(action)})
        if reason == HintCode.PULL_TRUMPS and not any(k.may_hold(seat, k.trump) for seat in SEATS
                                                      if seat.team is not view.team):
            return Decision(action, HintCode.LEAD, {"card": str(action)})
        return decision
    if reason in CHEAPEST and points(card, k.trump) > min(points(int(c), k.trump) for c in view.legal
                                                          if isinstance(c, Card)):
        # "your cheapest card" while a cheaper one is in the hand (kept back for later): say no more than "play".
        return Decision(action, CHEAPEST[HintCode(reason)], decision.params)
    led = suit_of(view.trick[0])
    head = view.trick_head()
    assert head is not None
    after = [seat_after(view.seat, i) for i in range(1, 4 - len(view.trick))]
    if reason in PARTNER_WINS and head[0] is view.partner and not certain(k, int(head[1]), led, after):
        cheap = suit_of(card) != k.trump and points(card, k.trump) < 10
        return Decision(action, HintCode.DUCK_PARTNER if cheap else HintCode.PARTNER_AHEAD, decision.params)
    if reason == HintCode.WIN and not certain(k, card, led, after):
        return Decision(action, HintCode.BEAT, decision.params)
    return decision


def certain(k: Knowledge, card: int, led: int, after: list[Seat]) -> bool:
    """``card`` heading a trick led in ``led`` stays there whatever the opponents in ``after`` hold."""
    trump = k.trump
    for seat in after:
        if seat.team is k.seat.team:
            continue
        if suit_of(card) == trump:
            if k.may_hold(seat, trump) and not k.is_boss(card):
                return False
        elif k.may_hold(seat, trump) or (k.may_hold(seat, led) and not k.is_boss(card)):
            return False  # it may be out of the led suit and trump, or hold a higher card of it
    return True


def _highest_left(k: Knowledge, card: int) -> bool:
    """No card of its suit, out or in our own hand, is higher."""
    suit = suit_of(card)
    mine = strength(card, k.trump)
    return k.is_boss(card) and all(strength(other, k.trump) <= mine
                                   for other in iter_bits(k.mine & rulebook.SUIT_MASK[suit]))


def explain(view: SeatView, action: Choice) -> Decision:
    """A reason code for any legal action, read off the situation."""
    if isinstance(action, Claim | Decline):
        owed = view.claim_value(view.team)
        if isinstance(action, Claim):
            return Decision(action, "claim" if owed else "claim_nothing", {"points": str(owed)})
        return Decision(action, "decline_owed" if owed else "decline", {"points": str(owed)})
    if view.phase is Phase.BIDDING:
        return _explain_call(view, action)
    assert isinstance(action, Card)
    name = str(action)
    if len(view.legal) == 1:
        return Decision(action, "only", {"card": name})
    k = Knowledge(view)
    trump = k.trump
    card = int(action)
    if not view.trick:
        playing = view.player is not None and view.player.team is view.team
        if suit_of(card) == trump and playing:
            return Decision(action, "pull_trumps", {"card": name})
        if suit_of(card) != trump and _highest_left(k, card) and rulebook.PLAIN_STRENGTH[rank_of(card)] >= 6:
            return Decision(action, "cash", {"card": name, "suit": SUITS[suit_of(card)].letter})
        if k.signal_up >> suit_of(card) & 1:
            return Decision(action, "lead_signal", {"card": name, "suit": SUITS[suit_of(card)].letter})
        # A seven, eight or plain nine: a club player calls no picture card low, however few its points.
        if rank_of(card) in LOW_RANKS and points(card, trump) <= 4:
            return Decision(action, "lead_low", {"card": name})
        return Decision(action, "lead", {"card": name})
    plays = view.trick_plays
    led = suit_of(plays[0][1])
    head = view.trick_head()
    assert head is not None
    head_seat, head_card = head
    head_power = rulebook.card_power(head_card, trump, led)
    params = {"card": name, "head": str(head_card), "led": SUITS[led].letter, "suit": SUITS[suit_of(card)].letter}
    wins = rulebook.card_power(card, trump, led) > head_power
    legal_trumps = any(isinstance(c, Card) and suit_of(c) == trump for c in view.legal)
    if head_seat is view.partner and not wins:
        if suit_of(card) == trump:
            return Decision(action, "follow_trump", params)
        if suit_of(card) != led and legal_trumps:
            return Decision(action, "keep_trumps", params)
        if points(card, trump) >= 10:
            return Decision(action, "spek", params)
        if suit_of(card) != led and rank_of(card) in LOW_RANKS:
            return Decision(action, "signal_up", params)
        if suit_of(card) != led and rank_of(card) in PICTURE_RANKS:
            return Decision(action, "signal_down", params)
        return Decision(action, "follow_cheap" if suit_of(card) == led else "discard", params)
    if wins and head_seat is view.partner:
        return Decision(action, "overtake", params)
    if wins:
        after = [seat_after(view.seat, i) for i in range(1, 4 - len(plays))]
        if suit_of(card) == trump and led != trump:
            return Decision(action, "trump_in", params)
        if k.sure(card, led, after):
            return Decision(action, "win", params)
        return Decision(action, "follow", params)
    return Decision(action, "duck", params)


def _explain_call(view: SeatView, action: Choice) -> Decision:
    assert isinstance(action, Call)
    hand = view.hand_mask
    if Call.PLAY in view.legal:  # draaien: the call is about the turned suit, not the seat's best one
        suit = view.turned[-1]
        params = {"suit": suit.letter, **describe_hand(hand, suit)}
        return Decision(action, "bid_play_turned" if action is Call.PLAY else "bid_pass_turned", params)
    if action.suit is not None:
        suit = action.suit
    else:
        suit = max(SUITS, key=lambda s: (hand_evaluation(hand, s), -s))
    params = {"suit": suit.letter, **describe_hand(hand, suit)}
    if action is Call.PASS:
        return Decision(action, "bid_pass", params)
    if Call.PASS not in view.legal:
        return Decision(action, "bid_forced", params)
    return Decision(action, "bid_play", params)


def render(view: SeatView, decision: Decision) -> Hint:
    try:
        code = HintCode(decision.reason)
    except ValueError:  # a reason the heuristic gained later: the plain words still fit
        code = HintCode.FOLLOW if view.trick else HintCode.LEAD
    return Hint(decision.action, code, dict(decision.params))
