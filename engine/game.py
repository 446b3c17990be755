"""The game state machine: a match of Klaverjas driven one action at a time.

A game is its rules plus the list of actions applied (chance actions included); everything else is
derived. Front ends ask ``phase``, ``to_act`` and ``legal_actions()`` and call ``apply``; an illegal
action raises a typed error and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from engine import rulebook
from engine.actions import SUIT_CALLS, Action, Call, Choice, Claim, Deal, Decline, TurnUp
from engine.cards import (
    DECK,
    FULL_DECK_MASK,
    SEATS,
    SUITS,
    TEAMS,
    Card,
    Seat,
    Suit,
    Team,
    cards_of,
    rank_of,
    seat_after,
    suit_of,
)
from engine.errors import ErrorCode, IllegalActionError, NotYourTurnError
from engine.events import (
    BidMade,
    CardPlayed,
    ClaimDeclined,
    Event,
    HandDealt,
    HandResult,
    HandSettled,
    MatchOver,
    RoemClaimed,
    StukScored,
    SuitTurned,
    TrickWon,
    TrumpChosen,
)
from engine.randomness import RandomSource
from engine.roem import RoemPart, trick_roem_parts
from engine.settings import Bidding, ForcedSeat, RoemMode, Rules, StukMode


class Phase(StrEnum):
    DEAL = "deal"  # the next hand has not been dealt
    TURN_UP = "turn"  # draaien: a suit must be turned up before the bidding goes on (the record's "turn")
    BIDDING = "bidding"
    PLAY = "play"
    # roem: declared, after every last trick, while a team that may claim it has neither claimed nor declined
    # (``Game.may_claim``: whether it holds anything is not asked, so the question gives nothing away): the
    # seat to act claims or declines; the hand is settled (once) when no team is left to ask
    CLAIM = "claim"
    OVER = "over"  # the match is finished


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick."""

    index: int
    leader: Seat
    cards: tuple[Card, Card, Card, Card]
    winner: Seat
    points: int  # with the last-trick 10
    roem: int  # roem in the trick, before claims
    roem_parts: tuple[RoemPart, ...]

    def seat_of(self, position: int) -> Seat:
        return seat_after(self.leader, position)

    @property
    def winning_card(self) -> Card:
        return self.cards[(self.winner - self.leader) & 3]

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple((seat_after(self.leader, i), card) for i, card in enumerate(self.cards))


@dataclass(slots=True)
class HandState:
    """One hand as it stands; mutable inside the game only."""

    index: int
    dealer: Seat
    deal: tuple[int, int, int, int]
    hands: list[int]
    turned: list[Suit] = field(default_factory=list)
    bids: list[tuple[Seat, Call]] = field(default_factory=list)
    trump: Suit | None = None
    player: Seat | None = None
    plays: list[Card] = field(default_factory=list)
    trick_cards: list[int] = field(default_factory=list)
    leader: Seat = Seat.N
    tricks: list[Trick] = field(default_factory=list)
    held_stuk: list[Seat] = field(default_factory=list)  # stuk: held, seats whose stuk counts (scored)
    # stuk: held, the holder and the trick in which the second of its K and Q fell (scored at once with
    # automatic roem; with declared roem only when the holder's team claims that trick)
    stuk_fell: tuple[Seat, int] | None = None
    claims: list[tuple[int, Seat]] = field(default_factory=list)
    declined: list[Seat] = field(default_factory=list)  # the claim phase: seats that declined to claim
    result: HandResult | None = None

    @property
    def elder(self) -> Seat:
        return seat_after(self.dealer, 1)

    @property
    def complete(self) -> bool:
        return len(self.plays) == 32

    @property
    def playing_team(self) -> Team | None:
        return self.player.team if self.player is not None else None


class Game:
    """A match. Build it with ``Game(rules)`` and drive it with ``apply``."""

    def __init__(self, rules: Rules | None = None) -> None:
        # Stored with the undertrump default written out, so a game equals its rebuilt record.
        self.rules = (rules or Rules()).resolved()
        self.actions: list[Action] = []
        self.hands: list[HandState] = []
        self.totals = [0, 0]
        self.phase = Phase.DEAL
        self.to_act: Seat | None = None
        self.winner: Team | None = None
        self._amsterdam = self.rules.amsterdam
        self._undertrump_forced = self.rules.undertrump_forced
        self._stuk_in_trick = self.rules.stuk is StukMode.TRICK
        self._declared = self.rules.roem is RoemMode.DECLARED
        # legal_mask() is asked before every play and checked again in apply: computed once per state.
        self._legal_stamp = -1
        self._legal = 0

    # ----------------------------------------------------------------- state questions

    @property
    def hand(self) -> HandState | None:
        return self.hands[-1] if self.hands else None

    @property
    def hand_number(self) -> int:
        """Index of the current hand (the next one to deal in the deal phase)."""
        if self.phase is Phase.DEAL or not self.hands:
            return len(self.hands)
        return len(self.hands) - 1

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def next_dealer(self) -> Seat | None:
        """The seat that must deal next; None before the first hand (any seat may)."""
        return self.hands[-1].dealer.next if self.hands else None

    @property
    def results(self) -> list[HandResult]:
        return [hand.result for hand in self.hands if hand.result is not None]

    def legal_actions(self) -> list[Choice]:
        """The calls, cards, or claim and decline the seat to act may choose, sorted; empty for chance phases."""
        if self.phase is Phase.PLAY:
            return list(cards_of(self.legal_mask()))
        if self.phase is Phase.BIDDING:
            return list(self._legal_calls())
        if self.phase is Phase.CLAIM and self.to_act is not None:
            return [Claim(self.to_act), Decline(self.to_act)]
        return []

    def legal_mask(self) -> int:
        """The legal cards of the seat to act as a mask (0 outside the play phase)."""
        if self.phase is not Phase.PLAY or self.to_act is None:
            return 0
        stamp = len(self.actions)
        if self._legal_stamp != stamp:
            hand = self.hands[-1]
            assert hand.trump is not None
            trick = hand.trick_cards
            count = len(trick)
            self._legal = rulebook.legal_mask(
                hand.hands[self.to_act],
                trick[0] if count > 0 else 0, trick[1] if count > 1 else 0, trick[2] if count > 2 else 0,
                count, hand.trump, self._amsterdam, self._undertrump_forced)
            self._legal_stamp = stamp
        return self._legal

    def cards_in_hand(self, seat: Seat) -> list[Card]:
        hand = self.hand
        return cards_of(hand.hands[seat]) if hand is not None else []

    def _legal_calls(self) -> list[Call]:
        hand = self.hands[-1]
        bidding = self.rules.bidding
        if bidding is Bidding.DRAAIEN:
            return [Call.PASS, Call.PLAY]
        if bidding is Bidding.VERPLICHT or len(hand.bids) >= 4:
            return list(SUIT_CALLS)
        return [Call.PASS, *SUIT_CALLS]

    def can_claim(self) -> bool:
        """Declared roem: whether a claim for the trick just completed may be made now (until the next card).

        The last trick's owed roem is claimed in the claim phase, before the hand is settled. A claim for
        it is still taken after that, until the next deal, and scores nothing (a record may list one: it
        lists claims, not declines), except from a team that declined, which is refused.
        """
        hand = self.hand
        return (self._declared and hand is not None and bool(hand.tricks) and not hand.trick_cards
                and self.phase in (Phase.PLAY, Phase.CLAIM, Phase.DEAL, Phase.OVER))

    def claim_value(self, team: Team) -> int:
        """Declared roem: what a claim by a seat of ``team`` would score now; 0 when nothing is owed to it.

        That is the roem of the trick just completed if ``team`` won it, plus (stuk: held) the stuk if
        its second card fell in that trick from a seat of ``team``, whoever won the trick. AI players
        claim on it (``engine.ai.claims``: a seat may count its own roem); front ends offer Roem! on
        ``may_claim``, which does not look at what the trick holds.
        """
        trick_roem, stuk_holder = self._owed(team)
        return trick_roem + (rulebook.STUK_ROEM if stuk_holder is not None else 0)

    def _owed(self, team: Team) -> tuple[int, Seat | None]:
        """What a claim by ``team`` would score now: the trick's roem, and the holder of a held stuk it scores."""
        if not self.can_claim() or self.has_claimed(team):
            return 0, None
        hand = self.hands[-1]
        if self._declined(hand, team):
            return 0, None
        trick = hand.tricks[-1]
        trick_roem = trick.roem if trick.winner.team is team else 0
        fell = hand.stuk_fell
        if fell is not None and fell[1] == trick.index and fell[0].team is team:
            return trick_roem, fell[0]
        return trick_roem, None

    def may_claim(self, team: Team) -> bool:
        """Declared roem: whether ``team`` may claim the trick just completed, judged on what everybody sees
        (``may_claim_trick``), never on what the trick holds. A claim that finds nothing for it scores
        nothing, as the rules say (rules.md section 6)."""
        hand = self.hand
        if not self.can_claim() or hand is None or hand.trump is None:
            return False
        return may_claim_trick(hand.tricks[-1], hand.trump, team, not self._stuk_in_trick)

    @staticmethod
    def _declined(hand: HandState, team: Team) -> bool:
        return any(seat.team is team for seat in hand.declined)

    def has_claimed(self, team: Team) -> bool:
        """Declared roem: whether a seat of ``team`` claimed the last trick completed in the current hand."""
        hand = self.hand
        if hand is None or not hand.tricks:
            return False
        index = hand.tricks[-1].index
        return any(trick == index and seat.team is team for trick, seat in hand.claims)

    # ----------------------------------------------------------------- acting

    def apply(self, action: Action, seat: Seat | None = None) -> list[Event]:
        """Apply one action; ``seat``, when given, must be the seat to act (any seat may claim: a claim names it)."""
        match action:
            case Card():
                events = self._play(action, seat)
            case Call():
                events = self._call(action, seat)
            case Deal():
                events = self._deal(action)
            case TurnUp():
                events = self._turn_up(action)
            case Claim():
                events = self._claim(action)
            case Decline():
                events = self._decline(action, seat)
            case _:
                raise IllegalActionError(f"not an action: {action!r}", code=ErrorCode.NOT_AN_ACTION)
        self.actions.append(action)
        return events

    def apply_all(self, actions: Iterable[Action]) -> list[Event]:
        events: list[Event] = []
        for action in actions:
            events.extend(self.apply(action))
        return events

    def deal_random(self, rng: RandomSource, dealer: Seat | None = None) -> list[Event]:
        """Shuffle with the given seeded generator and deal; the first dealer defaults to random."""
        if dealer is None:
            following = self.next_dealer
            dealer = following if following is not None else SEATS[rng.randrange(4)]
        return self.apply(random_deal(rng, dealer))

    def turn_up_random(self, rng: RandomSource) -> list[Event]:
        return self.apply(TurnUp(self.turnable_suits()[rng.randrange(len(self.turnable_suits()))]))

    def turnable_suits(self) -> list[Suit]:
        hand = self.hand
        if self.phase is not Phase.TURN_UP or hand is None:
            return []
        if hand.index == 0 and not hand.turned:
            return [Suit.C]
        return [suit for suit in SUITS if suit not in hand.turned]

    def _check_seat(self, seat: Seat | None, action: Choice) -> Seat:
        to_act = self.to_act
        assert to_act is not None
        if seat is not None and seat is not to_act:
            raise NotYourTurnError(f"it is {to_act.letter}'s turn, not {seat.letter}'s", seat=seat.letter,
                                   action=str(action), code=ErrorCode.NOT_YOUR_TURN, params={"seat": to_act.letter})
        return to_act

    def _wrong_phase(self, what: str, seat: Seat | None) -> IllegalActionError:
        expected = {
            Phase.DEAL: "the next hand must be dealt first",
            Phase.TURN_UP: "a suit must be turned first",
            Phase.BIDDING: "the bidding is not finished",
            Phase.PLAY: "the bidding is over; play a card",
            Phase.CLAIM: "the last trick's roem must be claimed or declined first",
            Phase.OVER: "the match is over",
        }[self.phase]
        return IllegalActionError(f"cannot {what} now: {expected}", seat=seat.letter if seat else None,
                                  code=ErrorCode.WRONG_PHASE, params={"phase": self.phase.value})

    def _deal(self, deal: Deal) -> list[Event]:
        # Games stored before every last trick opened the claim window went from a last trick without roem owed
        # straight to the next deal: such a deal closes the window as if each seat asked declined (checked first,
        # so a deal refused changes nothing).
        legacy = False
        if self.phase is Phase.CLAIM:
            score = settle_hand(self.hands[-1], self._declared).score
            legacy = not self._over(self.totals[0] + score[0], self.totals[1] + score[1])
        if self.phase is not Phase.DEAL and not legacy:
            raise self._wrong_phase("deal", None)
        expected = self.next_dealer
        if expected is not None and deal.dealer is not expected:
            raise IllegalActionError(f"the dealer must be {expected.letter} (the dealer moves clockwise), "
                                     f"not {deal.dealer.letter}", code=ErrorCode.DEALER)
        union = 0
        for seat in SEATS:
            count = rulebook.popcount(deal.hands[seat])
            if count != 8 or deal.hands[seat] & ~FULL_DECK_MASK:
                raise IllegalActionError(f"{seat.letter} must be dealt 8 cards, not {count}", code=ErrorCode.DEAL)
            if union & deal.hands[seat]:
                dupe = DECK[rulebook.lowest_card(union & deal.hands[seat])]
                raise IllegalActionError(f"{dupe} is dealt twice", code=ErrorCode.DEAL)
            union |= deal.hands[seat]
        events: list[Event] = []
        while self.phase is Phase.CLAIM and self.to_act is not None:
            events.extend(self._decline(Decline(self.to_act), self.to_act))
        hand = HandState(index=len(self.hands), dealer=deal.dealer, deal=deal.hands, hands=list(deal.hands))
        self.hands.append(hand)
        events.append(HandDealt(hand.index, hand.dealer))
        if self.rules.bidding is Bidding.DRAAIEN:
            self.phase = Phase.TURN_UP
            self.to_act = None
        else:
            self.phase = Phase.BIDDING
            self.to_act = hand.elder
        return events

    def _turn_up(self, turn: TurnUp) -> list[Event]:
        if self.phase is not Phase.TURN_UP:
            raise self._wrong_phase("turn a suit", None)
        hand = self.hands[-1]
        if turn.suit in hand.turned:
            raise IllegalActionError(f"{turn.suit.letter} was already turned this hand; turn another suit",
                                     code=ErrorCode.TURN)
        if hand.index == 0 and not hand.turned and turn.suit is not Suit.C:
            raise IllegalActionError("the first suit turned in a match is always clubs (C)", code=ErrorCode.TURN)
        hand.turned.append(turn.suit)
        events: list[Event] = [SuitTurned(hand.index, turn.suit)]
        if len(hand.turned) == 3:
            # Everyone passed twice: the elder hand must play on the third suit.
            events.extend(self._choose_trump(hand, hand.elder, turn.suit, forced=True))
        else:
            self.phase = Phase.BIDDING
            self.to_act = hand.elder
        return events

    def _call(self, call: Call, seat: Seat | None) -> list[Event]:
        if self.phase is not Phase.BIDDING:
            raise self._wrong_phase(f"call {call.value}", seat)
        caller = self._check_seat(seat, call)
        if call not in self._legal_calls():
            raise IllegalActionError(self._call_reason(call), seat=caller.letter, action=call.value,
                                     code=ErrorCode.BAD_CALL)
        hand = self.hands[-1]
        hand.bids.append((caller, call))
        events: list[Event] = [BidMade(hand.index, caller, call)]
        bidding = self.rules.bidding
        if call is Call.PASS:
            if bidding is Bidding.DRAAIEN and len(hand.bids) % 4 == 0:
                self.phase = Phase.TURN_UP
                self.to_act = None
            elif bidding is Bidding.VRIJ and len(hand.bids) == 4:
                self.to_act = hand.elder if self.rules.forced is ForcedSeat.ELDER else hand.dealer
            else:
                self.to_act = caller.next
            return events
        if call is Call.PLAY:
            trump = hand.turned[-1]
        else:
            suit = call.suit
            assert suit is not None
            trump = suit
        forced = bidding is Bidding.VERPLICHT or len(hand.bids) == 5
        events.extend(self._choose_trump(hand, caller, trump, forced))
        return events

    def _call_reason(self, call: Call) -> str:
        bidding = self.rules.bidding
        if bidding is Bidding.DRAAIEN:
            return f"with turned trump the calls are play or pass, not {call.value}"
        if call is Call.PASS:
            return "you must choose a trump suit (C, D, H or S): you may not pass"
        return f"{call.value} is not a call here: pass, or name a suit (C, D, H or S)"

    def _choose_trump(self, hand: HandState, player: Seat, trump: Suit, forced: bool) -> list[Event]:
        hand.trump = trump
        hand.player = player
        hand.leader = hand.elder
        self.phase = Phase.PLAY
        self.to_act = hand.elder
        return [TrumpChosen(hand.index, trump, player, forced)]

    def _play(self, card: Card, seat: Seat | None) -> list[Event]:
        if self.phase is not Phase.PLAY:
            raise self._wrong_phase(f"play {card.notation}", seat)
        player = self._check_seat(seat, card)
        hand = self.hands[-1]
        held = hand.hands[player]
        bit = 1 << card
        if not held & bit:
            raise IllegalActionError(f"{player.letter} does not hold {card.notation}", seat=player.letter,
                                     action=card.notation, code=ErrorCode.NOT_IN_HAND,
                                     params={"card": card.notation})
        trick = hand.trick_cards
        count = len(trick)
        trump = hand.trump
        assert trump is not None
        legal = self._legal if self._legal_stamp == len(self.actions) else self.legal_mask()
        if not legal & bit:
            raise explain_illegal(held, trick, trump, legal, card, player)
        hand.hands[player] = held ^ bit
        hand.plays.append(card)
        trick.append(card)
        events: list[Event] = [CardPlayed(hand.index, len(hand.tricks), player, card)]
        if (not self._stuk_in_trick and rank_of(card) in (rulebook.RANK_KING, rulebook.RANK_QUEEN)
                and suit_of(card) == trump):
            stuk = rulebook.stuk_mask(trump)
            if hand.deal[player] & stuk == stuk and not hand.hands[player] & stuk:
                hand.stuk_fell = (player, len(hand.tricks))
                if not self._declared:
                    hand.held_stuk.append(player)
                    events.append(StukScored(hand.index, player, player.team, rulebook.STUK_ROEM))
        if count < 3:
            self.to_act = seat_after(player, 1)
            return events
        return self._finish_trick(hand, trump, events)

    def _finish_trick(self, hand: HandState, trump: Suit, events: list[Event]) -> list[Event]:
        c0, c1, c2, c3 = hand.trick_cards
        position = rulebook.trick_winner(c0, c1, c2, c3, trump)
        winner = seat_after(hand.leader, position)
        index = len(hand.tricks)
        points = rulebook.trick_points(c0, c1, c2, c3, trump)
        if index == 7:
            points += rulebook.LAST_TRICK_BONUS
        roem = rulebook.trick_roem(c0, c1, c2, c3, trump, self._stuk_in_trick)
        cards = (DECK[c0], DECK[c1], DECK[c2], DECK[c3])
        parts = trick_roem_parts(cards, trump, self._stuk_in_trick) if roem else ()
        trick = Trick(index, hand.leader, cards, winner, points, roem, parts)
        hand.tricks.append(trick)
        hand.trick_cards = []
        hand.leader = winner
        events.append(TrickWon(hand.index, index, trick.leader, cards, winner, cards[position], winner.team, points,
                               roem, parts, self._declared and roem > 0))
        if index < 7:
            self.to_act = winner
            return events
        asked = self._asked_to_claim(hand) if self._declared else None
        if asked is not None:
            # The last trick's claim window closes before the hand is settled, so it is settled once.
            self.phase = Phase.CLAIM
            self.to_act = asked
            return events
        return self._settle(hand, events)

    def _asked_to_claim(self, hand: HandState) -> Seat | None:
        """The claim phase: the seat asked next, of a team that may claim the last trick and has neither
        claimed nor declined it: the winners first, through the trick's winner; then (stuk: held) the other
        team, through its seat that played a king or queen of trump in it. Whether a team is owed anything
        plays no part, so being asked tells nobody that the trick holds roem."""
        trick = hand.tricks[-1]
        for team in (trick.winner.team, trick.winner.team.other):
            if self.has_claimed(team) or self._declined(hand, team) or not self.may_claim(team):
                continue
            if team is trick.winner.team:
                return trick.winner
            assert hand.trump is not None
            stuk = rulebook.stuk_mask(hand.trump)
            return next(seat for seat, card in trick.plays if seat.team is team and stuk >> card & 1)
        return None

    def _after_claim_phase_action(self, hand: HandState) -> list[Event]:
        """A claim or decline in the claim phase: ask the next team still owed, or close the window and settle."""
        asked = self._asked_to_claim(hand)
        if asked is not None:
            self.to_act = asked
            return []
        return self._settle(hand, [])

    def _settle(self, hand: HandState, events: list[Event]) -> list[Event]:
        result = settle_hand(hand, self._declared)
        hand.result = result
        events.append(HandSettled(hand.index, result))
        self.totals[0] += result.score[0]
        self.totals[1] += result.score[1]
        self.to_act = None
        self.phase = Phase.DEAL
        if self._match_finished():
            events.append(self._end_match())
        return events

    def _match_finished(self) -> bool:
        return self._over(self.totals[0], self.totals[1])

    def _over(self, ns: int, ew: int) -> bool:
        """Whether the match is over after the hands dealt so far, at totals ``ns`` and ``ew``."""
        length = self.rules.length
        if length.hands is not None:
            return len(self.hands) >= length.hands
        target = length.target or 0
        return (ns >= target or ew >= target) and ns != ew

    def _end_match(self) -> MatchOver:
        ns, ew = self.totals
        self.winner = None if ns == ew else (Team.NS if ns > ew else Team.EW)
        self.phase = Phase.OVER
        return MatchOver(self.winner, (ns, ew))

    def _claim(self, claim: Claim) -> list[Event]:
        if not self._declared:
            raise IllegalActionError("roem is counted automatically at this table: there is nothing to claim",
                                     seat=claim.seat.letter, code=ErrorCode.CLAIM_AUTO)
        if not self.can_claim():
            raise IllegalActionError("roem can only be claimed after a trick, before the next card is played "
                                     "(the last trick's: before the hand is settled)",
                                     seat=claim.seat.letter, code=ErrorCode.CLAIM_LATE)
        hand = self.hands[-1]
        if self._declined(hand, claim.seat.team):
            # Refused, not taken for nothing: replayed from a record (which keeps no declines) it would score.
            raise IllegalActionError("your team declined to claim the last trick: its claim window is closed",
                                     seat=claim.seat.letter, code=ErrorCode.CLAIM_DECLINED)
        trick = hand.tricks[-1]
        trick_roem, stuk_holder = self._owed(claim.seat.team)
        hand.claims.append((trick.index, claim.seat))
        events: list[Event] = []
        scored = trick_roem
        stuk = 0
        if stuk_holder is not None:
            hand.held_stuk.append(stuk_holder)
            events.append(StukScored(hand.index, stuk_holder, stuk_holder.team, rulebook.STUK_ROEM))
            stuk = rulebook.STUK_ROEM
            scored += stuk
        events.append(RoemClaimed(hand.index, trick.index, claim.seat, scored, stuk))
        # Once the hand is settled every team owed roem has claimed or declined: no claim scores then.
        assert hand.result is None or not scored
        if self.phase is Phase.CLAIM:
            events.extend(self._after_claim_phase_action(hand))
        return events

    def _decline(self, decline: Decline, seat: Seat | None) -> list[Event]:
        if self.phase is not Phase.CLAIM:
            raise self._wrong_phase("decline a claim", decline.seat)
        self._check_seat(seat, decline)
        decliner = self._check_seat(decline.seat, decline)
        hand = self.hands[-1]
        hand.declined.append(decliner)
        events: list[Event] = [ClaimDeclined(hand.index, hand.tricks[-1].index, decliner)]
        events.extend(self._after_claim_phase_action(hand))
        return events

    # ----------------------------------------------------------------- derived facts

    def hand_points_so_far(self, hand: HandState) -> tuple[list[int], list[int]]:
        """Card points and counted roem per team for the tricks played so far."""
        points, roem, _ = tally_tricks(hand, self._declared)
        return points, roem

    def clone(self) -> Game:
        copy = Game(self.rules)
        copy.apply_all(self.actions)
        return copy

    def with_hands(self, hands: tuple[int, int, int, int]) -> Game:
        """A copy in which the cards still held in the current hand are ``hands`` (masks by seat): what if
        the unseen cards lay so. Each seat keeps its number of cards and everything already played; the
        copy's hand was dealt accordingly (its ``Deal`` action too, so its actions replay to it).

        For what-if questions about sampled deals (``engine.ai.review``); cheaper than replaying the
        match. Earlier hands are shared with this game: they are settled and never change.
        """
        hand = self.hands[-1] if self.hands else None
        if hand is None or self.phase not in (Phase.BIDDING, Phase.TURN_UP, Phase.PLAY):
            raise ValueError("no hand in progress to place cards in")
        union = 0
        for seat in SEATS:
            if hands[seat] & union or rulebook.popcount(hands[seat]) != rulebook.popcount(hand.hands[seat]):
                raise ValueError("the hands must hold as many cards as the seats do now, each card once")
            union |= hands[seat]
        if union != hand.hands[0] | hand.hands[1] | hand.hands[2] | hand.hands[3]:
            raise ValueError("the hands must hold exactly the cards not played yet")
        played = [hand.deal[seat] & ~hand.hands[seat] for seat in SEATS]
        deal = (hands[0] | played[0], hands[1] | played[1], hands[2] | played[2], hands[3] | played[3])
        copy = Game(self.rules)
        copy.actions = list(self.actions)
        last_deal = max(i for i, action in enumerate(self.actions) if isinstance(action, Deal))
        copy.actions[last_deal] = Deal(hand.dealer, deal)
        current = HandState(hand.index, hand.dealer, deal, list(hands), list(hand.turned), list(hand.bids), hand.trump,
                            hand.player, list(hand.plays), list(hand.trick_cards), hand.leader, list(hand.tricks),
                            list(hand.held_stuk), hand.stuk_fell, list(hand.claims), list(hand.declined), hand.result)
        copy.hands = [*self.hands[:-1], current]
        copy.totals = list(self.totals)
        copy.phase = self.phase
        copy.to_act = self.to_act
        copy.winner = self.winner
        return copy


def may_claim_trick(trick: Trick, trump: Suit, team: Team, stuk_held: bool) -> bool:
    """Declared roem: whether ``team`` may claim ``trick``, on what everybody at the table sees: it won the
    trick, or (``stuk_held``) one of its seats played the king or queen of trump in it (the second card of a
    held stuk is one of them). Front ends offer Roem! on this, so the button says nothing of the trick's roem."""
    if trick.winner.team is team:
        return True
    if not stuk_held:
        return False
    stuk = rulebook.stuk_mask(trump)
    return any(seat.team is team and stuk >> card & 1 for seat, card in trick.plays)


def scored_trick_roem(hand: HandState, trick: Trick, declared: bool) -> int:
    if not declared or not trick.roem:
        return trick.roem
    team = trick.winner.team
    return trick.roem if any(t == trick.index and s.team is team for t, s in hand.claims) else 0


def tally_tricks(hand: HandState, declared: bool) -> tuple[list[int], list[int], list[int]]:
    """Card points, counted roem (the held stuk's included) and tricks won per team, for the tricks played."""
    points = [0, 0]
    roem = [0, 0]
    tricks_won = [0, 0]
    for trick in hand.tricks:
        team = trick.winner.team
        points[team] += trick.points
        roem[team] += scored_trick_roem(hand, trick, declared)
        tricks_won[team] += 1
    for seat in hand.held_stuk:
        roem[seat.team] += rulebook.STUK_ROEM
    return points, roem, tricks_won


def settle_hand(hand: HandState, declared: bool) -> HandResult:
    points, roem, tricks_won = tally_tricks(hand, declared)
    pit: Team | None = None
    for team in TEAMS:
        if tricks_won[team] == 8:
            pit = team
            roem[team] += rulebook.PIT_BONUS
    assert hand.player is not None and hand.trump is not None
    ns, ew, nat = rulebook.settle(hand.player.team, points[0], points[1], roem[0], roem[1])
    return HandResult(hand.index, hand.dealer, hand.trump, hand.player, (points[0], points[1]),
                      (roem[0], roem[1]), pit, nat, (ns, ew))


def explain_illegal(held: int, trick: list[int], trump: Suit, legal: int, card: Card, seat: Seat) -> IllegalActionError:
    """Why ``card`` is not among the legal cards, in the words of rules.md section 4.

    Read off the legal cards, so it needs no play rules of its own: under amsterdam with the partner
    heading, a lower trump is refused only beside another suit (a hand of only trumps may play any).
    """
    led = SUITS[suit_of(trick[0])]
    legal_cards = cards_of(legal)
    listing = " ".join(c.notation for c in legal_cards)
    params = {"card": card.notation, "led": led.letter, "trump": trump.letter, "legal": listing}

    def error(code: ErrorCode, reason: str) -> IllegalActionError:
        return IllegalActionError(reason, seat=seat.letter, action=card.notation, code=code, params=params)

    holds_led = held & rulebook.SUIT_MASK[led]
    if holds_led and card.suit is not led:
        if led is trump and all(c.suit is trump for c in legal_cards) and legal != holds_led:
            return error(ErrorCode.OVERTRUMP, f"must follow trump and overtrump ({listing})")
        return error(ErrorCode.FOLLOW_SUIT, f"must follow suit ({led.letter})")
    if led is trump:
        return error(ErrorCode.OVERTRUMP, f"must overtrump when you can ({listing})")
    trump_in_trick = any(suit_of(c) == trump for c in trick)
    legal_trumps = legal & rulebook.SUIT_MASK[trump]
    if card.suit is trump:
        if not legal_trumps:
            return error(ErrorCode.NO_UNDERTRUMP, f"may not undertrump: play a card of another suit ({listing})")
        if legal & ~rulebook.SUIT_MASK[trump]:
            return error(ErrorCode.NO_UNDERTRUMP, f"may not play a trump lower than the trump in the trick ({listing})")
        return error(ErrorCode.OVERTRUMP, f"must overtrump when you can ({listing})")
    if trump_in_trick:
        top = max(rulebook.TRUMP_STRENGTH[rank_of(c)] for c in trick if suit_of(c) == trump)
        if legal_trumps & rulebook.TRUMP_ABOVE[trump * 9 + top + 1]:
            return error(ErrorCode.OVERTRUMP, f"must overtrump ({listing})")
        return error(ErrorCode.MUST_TRUMP, f"must trump, even below the trump in the trick ({listing})")
    return error(ErrorCode.MUST_TRUMP, f"must trump ({trump.letter})")


def random_deal(rng: RandomSource, dealer: Seat) -> Deal:
    cards = list(range(32))
    rng.shuffle(cards)
    masks = [0, 0, 0, 0]
    for i, card in enumerate(cards):
        masks[i >> 3] |= 1 << card
    return Deal(dealer, (masks[0], masks[1], masks[2], masks[3]))
