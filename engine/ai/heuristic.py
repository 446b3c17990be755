"""A fast rule-based player, the way a club player thinks about a hand.

Bidding: a hand evaluation per suit (trump jack and nine, aces beside them, trump length). Play: the
playing team pulls trumps, a partner's sure trick is never trumped where the rules allow it and gets
points ("spekken"), tens stay guarded, and the signals of the Dutch club convention ("seinen",
seed 003) are given and read: on a partner's trick, a low card (7, 8, 9) asks for that suit
(opseinen), a picture (J, Q, K) says "not this suit" (afseinen), an ace from ace-ten says "my ten is
boss"; never with trumps. Everything comes from the ``SeatView``: cards played, voids shown.

``decide`` returns the action with a reason code and parameters, which ``engine.ai.hints`` turns
into words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import rulebook
from engine.actions import SUIT_CALLS, Call, Choice, Claim
from engine.ai.claims import claim_or_decline
from engine.ai.reveals import plays_seen, revealed, trick_so_far
from engine.cards import DECK, SEATS, SUITS, Card, Seat, Suit, card_at, iter_bits, rank_of, seat_after, suit_of
from engine.game import Phase
from engine.randomness import RandomSource, make_rng
from engine.view import SeatView

SUIT_MASK = rulebook.SUIT_MASK
LOW_RANKS = (0, 1, 2)  # 7 8 9: the cards that ask for a suit (opseinen)
PICTURE_RANKS = (4, 5, 6)  # J Q K: the cards that say "not this suit" (afseinen)
RANK_TEN = 3
RANK_ACE = 7
RANK_JACK = 4
RANK_NINE = 2

# The hand evaluation from which a player plays a hand: the heuristic's, pimc's (tuned by duels) and what
# the sampler reads into other seats' bids.
BID_THRESHOLD = 62.0
# Evaluation of a trump card by rank (7 8 9 T J Q K A) and of a side card.
TRUMP_VALUE = (5.0, 5.0, 22.0, 12.0, 30.0, 7.0, 8.0, 15.0)
SIDE_ACE = 12.0
SIDE_TEN_WITH_ACE = 8.0
SIDE_TEN_GUARDED = 3.0
EXTRA_TRUMP = 8.0  # each trump beyond the third
STUK_BONUS = 6.0
VOID_BONUS = 5.0


@dataclass(frozen=True, slots=True)
class Decision:
    """An action with the reason a person would give for it (a code and its parameters)."""

    action: Choice
    reason: str
    params: dict[str, str] = field(default_factory=dict)


def hand_evaluation(hand_mask: int, trump: int) -> float:
    """How well a hand plays with ``trump``; around ``BID_THRESHOLD`` a club player starts to play."""
    trumps = hand_mask & SUIT_MASK[trump]
    value = 0.0
    count = 0
    for card in iter_bits(trumps):
        value += TRUMP_VALUE[rank_of(card)]
        count += 1
    if count > 3:
        value += EXTRA_TRUMP * (count - 3)
    stuk = rulebook.stuk_mask(trump)
    if trumps & stuk == stuk:
        value += STUK_BONUS
    for suit in range(4):
        if suit == trump:
            continue
        cards = hand_mask & SUIT_MASK[suit]
        ace = cards >> card_at(suit, RANK_ACE) & 1
        ten = cards >> card_at(suit, RANK_TEN) & 1
        if ace:
            value += SIDE_ACE
        if ten and ace:
            value += SIDE_TEN_WITH_ACE
        elif ten and rulebook.popcount(cards) >= 2:
            value += SIDE_TEN_GUARDED
        if not cards and count >= 3:
            value += VOID_BONUS
    return value


def strength(card: int, trump: int) -> int:
    """Order within a suit: trump order for trumps, plain order otherwise."""
    if suit_of(card) == trump:
        return rulebook.TRUMP_STRENGTH[rank_of(card)]
    return rulebook.PLAIN_STRENGTH[rank_of(card)]


def points(card: int, trump: int) -> int:
    return rulebook.CARD_POINTS[trump * 32 + card]


class Knowledge:
    """What the seat can deduce: unseen cards, voids shown, partner's signals."""

    def __init__(self, view: SeatView) -> None:
        assert view.trump is not None
        self.seat = view.seat
        self.trump = int(view.trump)
        self.amsterdam = view.rules.amsterdam
        self.undertrump_forced = view.rules.undertrump_forced
        self.mine = view.hand_mask
        self.played = view.played_mask
        self.unseen = ((1 << 32) - 1) & ~self.mine & ~self.played
        self.void = [0, 0, 0, 0]  # per seat, a bit per suit
        self.signal_up = 0  # suits partner asked for
        self.signal_down = 0  # suits partner said no to
        for seat, before, card in plays_seen(view):
            if before:
                self._read_play(seat, before, card)

    def _read_play(self, seat: Seat, before: tuple[int, ...], card: int) -> None:
        trump = self.trump
        state = trick_so_far(before, trump)
        cannot_hold = revealed(state, len(before), card, trump, self.amsterdam, self.undertrump_forced)
        # The rule play reads only the voids a play shows in the led suit and trumps: it was tuned without an
        # undertrump's "nothing but trumps".
        for suit in (state.led, trump):
            if cannot_hold & SUIT_MASK[suit] == SUIT_MASK[suit]:
                self.void[seat] |= 1 << suit
        suit = suit_of(card)
        if suit == state.led or state.led == trump or suit == trump or seat is not self.seat.partner:
            return
        if seat_after(seat, state.head - len(before)) is self.seat:  # partner discards on my trick: a signal
            rank = rank_of(card)
            if rank in LOW_RANKS or rank == RANK_ACE:
                self.signal_up |= 1 << suit
            elif rank in PICTURE_RANKS:
                self.signal_down |= 1 << suit

    def is_boss(self, card: int) -> bool:
        """No card still in another hand beats it in its suit."""
        suit = suit_of(card)
        mine = strength(card, self.trump)
        return all(strength(other, self.trump) <= mine for other in iter_bits(self.unseen & SUIT_MASK[suit]))

    def may_hold(self, seat: Seat, suit: int) -> bool:
        return not self.void[seat] >> suit & 1 and bool(self.unseen & SUIT_MASK[suit])

    def can_beat(self, seat: Seat, card: int, led: int) -> bool:
        """Whether ``seat`` (to play after us) might beat ``card`` heading a trick led in ``led``."""
        trump = self.trump
        suit = suit_of(card)
        if suit == trump:
            if not self.may_hold(seat, trump):
                return False
            return not self.is_boss(card)
        if self.may_hold(seat, led):
            if not self.is_boss(card):
                return True
            # It holds the suit unless shown otherwise; with few cards of it left, it may be void.
            if rulebook.popcount(self.unseen & SUIT_MASK[led]) >= 3:
                return False
        return self.may_hold(seat, trump)

    def sure(self, card: int, led: int, after: list[Seat]) -> bool:
        """``card`` heading the trick stays there: no opponent to play can beat it."""
        return not any(seat.team is not self.seat.team and self.can_beat(seat, card, led) for seat in after)

    def top_cards(self, suit: int) -> int:
        """How many of my cards in ``suit`` are above every card still out (likely tricks)."""
        count = 0
        cards = sorted(iter_bits(self.mine & SUIT_MASK[suit]), key=lambda c: -strength(c, self.trump))
        best_out = max((strength(c, self.trump) for c in iter_bits(self.unseen & SUIT_MASK[suit])), default=-1)
        for card in cards:
            if strength(card, self.trump) > best_out:
                count += 1
        return count

    def keep_value(self, card: int) -> float:
        """What a card is worth to keep: trump control, a boss card, the guard of a ten."""
        trump = self.trump
        suit = suit_of(card)
        if suit == trump:
            return 12.0 + 4.0 * rulebook.TRUMP_STRENGTH[rank_of(card)]
        value = 0.0
        if self.is_boss(card) and rulebook.PLAIN_STRENGTH[rank_of(card)] >= 5:
            value += 9.0
        ten = card_at(suit, RANK_TEN)
        ace = card_at(suit, RANK_ACE)
        in_suit = self.mine & SUIT_MASK[suit]
        if card != ten and in_suit >> ten & 1 and self.unseen >> ace & 1 and rulebook.popcount(in_suit) == 2:
            value += 6.0  # the last guard of a ten while the ace is out
        return value


class HeuristicPlayer:
    """Rule-based player (the normal level); ``noise`` is a share of decisions made at random, for benchmarks'
    stand-in humans (the easy level makes people's mistakes instead: ``engine.ai.easy``)."""

    def __init__(self, noise: float = 0.0, seed: int | RandomSource = 0, name: str = "heuristic",
                 threshold: float = BID_THRESHOLD) -> None:
        self.name = name
        self.noise = noise
        self.threshold = threshold
        self._rng = make_rng(seed)

    def choose(self, view: SeatView) -> Choice:
        return self.decide(view).action

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        if not legal:
            raise ValueError(f"{view.seat.letter} has nothing to choose: it is not its turn")
        if view.phase is Phase.CLAIM:  # no noise: every AI claims what it is owed
            return claim_decision(view)
        if self.noise and self._rng.random() < self.noise:
            return Decision(legal[self._rng.randrange(len(legal))], "random")
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        if len(legal) == 1:
            return Decision(legal[0], "only", {"card": str(legal[0])})
        return self._play(view)

    # ----------------------------------------------------------------- bidding

    def _bid(self, view: SeatView) -> Decision:
        legal = view.legal
        hand = view.hand_mask
        if Call.PLAY in legal:
            suit = view.turned[-1]
            value = hand_evaluation(hand, suit)
            params = {"suit": suit.letter, **describe_hand(hand, suit)}
            if value >= self.threshold:
                return Decision(Call.PLAY, "bid_play_turned", params)
            return Decision(Call.PASS, "bid_pass_turned", params)
        best = max(SUITS, key=lambda s: (hand_evaluation(hand, s), -s))
        value = hand_evaluation(hand, best)
        params = {"suit": best.letter, **describe_hand(hand, best)}
        call = SUIT_CALLS[best]
        if Call.PASS not in legal:
            return Decision(call, "bid_forced", params)
        if value >= self.threshold:
            return Decision(call, "bid_play", params)
        return Decision(Call.PASS, "bid_pass", params)

    # ----------------------------------------------------------------- play

    def knowledge(self, view: SeatView) -> Knowledge:
        """What the player makes of the cards seen; the easy level forgets some of them."""
        return Knowledge(view)

    def _play(self, view: SeatView) -> Decision:
        k = self.knowledge(view)
        legal = [int(c) for c in view.legal if isinstance(c, Card)]
        if not view.trick:
            return self._lead(view, k, legal)
        return self._follow(view, k, legal)

    def _lead(self, view: SeatView, k: Knowledge, legal: list[int]) -> Decision:
        trump = k.trump
        my_trumps = [c for c in legal if suit_of(c) == trump]
        opponents = [s for s in SEATS if s.team is not view.team]
        opp_trumps = any(k.may_hold(s, trump) for s in opponents)
        playing = view.player is not None and view.player.team is view.team
        if playing and my_trumps and opp_trumps:
            best = max(my_trumps, key=lambda c: strength(c, trump))
            if k.is_boss(best):
                return Decision(DECK[best], "pull_trumps", {"card": str(DECK[best])})
            low = min(my_trumps, key=lambda c: strength(c, trump))
            if view.player is view.seat and len(my_trumps) >= 2 and points(low, trump) < 10:
                # Drive out the higher trumps with a small one; never lead a ten or ace into them.
                return Decision(DECK[low], "pull_trumps", {"card": str(DECK[low])})
        plain = [c for c in legal if suit_of(c) != trump]
        # Cash a boss card where the opponents are not known to ruff it.
        cash = []
        for card in plain:
            suit = suit_of(card)
            if not k.is_boss(card) or rulebook.PLAIN_STRENGTH[rank_of(card)] < 6:
                continue
            ruffed = any(k.void[s] >> suit & 1 and k.may_hold(s, trump) for s in opponents)
            few_left = rulebook.popcount(k.unseen & SUIT_MASK[suit]) < 3 and opp_trumps
            if not ruffed and not few_left:
                cash.append(card)
        if cash:
            card = max(cash, key=lambda c: points(c, trump))
            return Decision(DECK[card], "cash", {"card": str(DECK[card]), "suit": SUITS[suit_of(card)].letter})
        # Partner asked for a suit: lead it (low, so partner's high card wins).
        asked = [c for c in plain if k.signal_up >> suit_of(c) & 1]
        if asked:
            card = min(asked, key=lambda c: (points(c, trump), strength(c, trump)))
            return Decision(DECK[card], "lead_signal", {"card": str(DECK[card]), "suit": SUITS[suit_of(card)].letter})
        pool = plain or legal

        def lead_cost(card: int) -> float:
            suit = suit_of(card)
            cost = points(card, trump) + k.keep_value(card)
            if k.signal_down >> suit & 1:
                cost += 4.0
            ten = card_at(suit, RANK_TEN)
            if k.mine >> ten & 1 and card != ten and k.unseen >> card_at(suit, RANK_ACE) & 1:
                cost += 5.0  # leading from a ten without its ace sets the ten up to be caught
            return cost

        card = min(pool, key=lambda c: (lead_cost(c), strength(c, trump), c))
        return Decision(DECK[card], "lead_low", {"card": str(DECK[card])})

    def _follow(self, view: SeatView, k: Knowledge, legal: list[int]) -> Decision:
        trump = k.trump
        plays = view.trick_plays
        led = suit_of(plays[0][1])
        head = view.trick_head()
        assert head is not None
        head_seat, head_card = head
        head_power = rulebook.card_power(head_card, trump, led)
        after = [seat_after(view.seat, i) for i in range(1, 4 - len(plays))]
        winners = [c for c in legal if rulebook.card_power(c, trump, led) > head_power]
        params = {"head": str(head_card), "led": SUITS[led].letter}
        if head_seat is view.partner:
            if k.sure(int(head_card), led, after):
                return self._give(k, legal, led, params)
            safe = [c for c in winners if k.sure(c, led, after) and suit_of(c) != trump]
            if safe:
                card = max(safe, key=lambda c: (points(c, trump), -strength(c, trump)))
                return Decision(DECK[card], "win", {**params, "card": str(DECK[card])})
            return self._duck(k, legal, params, partner_heads=True)
        if winners:
            safe = [c for c in winners if k.sure(c, led, after)]
            if safe:
                return self._win(k, safe, led, params)
            trick_points = sum(points(c, trump) for _, c in plays)
            ruffs = [c for c in winners if suit_of(c) == trump and led != trump]
            if ruffs and (trick_points >= 10 or not after or len(ruffs) == len(legal)):
                card = min(ruffs, key=lambda c: strength(c, trump))
                return Decision(DECK[card], "trump_in", {**params, "card": str(DECK[card])})
        return self._duck(k, legal, params, partner_heads=False)

    def _win(self, k: Knowledge, winners: list[int], led: int, params: dict[str, str]) -> Decision:
        trump = k.trump
        trumps = [c for c in winners if suit_of(c) == trump]
        if len(trumps) == len(winners):
            card = min(trumps, key=lambda c: strength(c, trump))
            reason = "trump_in" if led != trump else "win"
        else:
            plain = [c for c in winners if suit_of(c) != trump]
            # Most points, but an ace that would stay boss beside a winning ten keeps its place.
            card = max(plain, key=lambda c: points(c, trump) - k.keep_value(c) / 2)
            reason = "win"
        return Decision(DECK[card], reason, {**params, "card": str(DECK[card])})

    def _give(self, k: Knowledge, legal: list[int], led: int, params: dict[str, str]) -> Decision:
        """Partner's trick is safe: give points (spekken) or a signal, never a trump if avoidable."""
        trump = k.trump
        plain = [c for c in legal if suit_of(c) != trump]
        following = any(suit_of(c) == led for c in legal)
        if not plain:
            card = min(legal, key=lambda c: (k.keep_value(c) - points(c, trump), strength(c, trump)))
            return Decision(DECK[card], "follow_trump", {**params, "card": str(DECK[card])})
        if following:
            # A sure trick of partner's is the place for points: a boss card is kept only when it is
            # worth more later than it gives now.
            card = max(plain, key=lambda c: (points(c, trump) - k.keep_value(c) * 0.5, -strength(c, trump)))
            reason = "spek" if points(card, trump) >= 10 else "follow_cheap"
            return Decision(DECK[card], reason, {**params, "card": str(DECK[card])})
        # Void in the led suit: spek a ten in danger, or signal.
        for card in sorted(plain, key=suit_of):
            suit = suit_of(card)
            if rank_of(card) == RANK_TEN and k.unseen >> card_at(suit, RANK_ACE) & 1:
                return Decision(DECK[card], "spek", {**params, "card": str(DECK[card])})
        for suit in range(4):
            if suit == trump:
                continue
            cards = k.mine & SUIT_MASK[suit]
            ace, ten = card_at(suit, RANK_ACE), card_at(suit, RANK_TEN)
            lows = [c for c in iter_bits(cards) if rank_of(c) in LOW_RANKS]
            if cards >> ace & 1 and cards >> ten & 1 and not lows:
                return Decision(DECK[ace], "spek_ace", {**params, "card": str(DECK[ace]), "suit": SUITS[suit].letter})
        strong = [s for s in range(4) if s != trump and k.top_cards(s) > 0]
        for suit in sorted(strong, key=lambda s: -k.top_cards(s)):
            lows = [c for c in iter_bits(k.mine & SUIT_MASK[suit]) if rank_of(c) in LOW_RANKS]
            if lows and not k.signal_up >> suit & 1:
                card = min(lows)
                return Decision(DECK[card], "signal_up", {**params, "card": str(DECK[card]),
                                                          "suit": SUITS[suit].letter})
        weak = [c for c in plain if rank_of(c) in PICTURE_RANKS and k.top_cards(suit_of(c)) == 0
                and not k.mine >> card_at(suit_of(c), RANK_TEN) & 1]
        if weak:
            card = max(weak, key=lambda c: points(c, trump))
            return Decision(DECK[card], "signal_down", {**params, "card": str(DECK[card]),
                                                        "suit": SUITS[suit_of(card)].letter})
        card = max(plain, key=lambda c: (points(c, trump) - k.keep_value(c), -strength(c, trump)))
        reason = "keep_trumps" if len(plain) < len(legal) else "discard"
        return Decision(DECK[card], reason, {**params, "card": str(DECK[card])})

    def _duck(self, k: Knowledge, legal: list[int], params: dict[str, str], partner_heads: bool) -> Decision:
        """We are not winning this trick: the card that costs least now and later."""
        trump = k.trump
        card = min(legal, key=lambda c: (points(c, trump) + k.keep_value(c), strength(c, trump), c))
        return Decision(DECK[card], "duck_partner" if partner_heads else "duck", {**params, "card": str(DECK[card])})


def claim_decision(view: SeatView) -> Decision:
    """The claim phase: the shared AI policy (``engine.ai.claims``), with what the claim is worth."""
    action = claim_or_decline(view)
    return Decision(action, "claim" if isinstance(action, Claim) else "decline",
                    {"points": str(view.claim_value(view.team))})


def describe_hand(hand_mask: int, trump: Suit | int) -> dict[str, str]:
    """The facts of a hand that a bid rests on, for the hint's words."""
    t = int(trump)
    trumps = hand_mask & SUIT_MASK[t]
    honours = "".join(DECK[card_at(t, r)].notation[0] for r in (RANK_JACK, RANK_NINE, RANK_ACE, RANK_TEN)
                      if trumps >> card_at(t, r) & 1)
    aces = sum(1 for s in range(4) if s != t and hand_mask >> card_at(s, RANK_ACE) & 1)
    return {"trumps": str(rulebook.popcount(trumps)), "honours": honours, "aces": str(aces)}
