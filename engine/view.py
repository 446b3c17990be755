"""What one seat may know of a game: the only input of AI players, hints and hand images.

A ``SeatView`` holds its own hand and everything that was public (the deal's dealer, the bidding,
trump, every card played and by whom, the scores); it holds nothing of the other hands, so a player
built on it cannot cheat.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import rulebook
from engine.actions import Call
from engine.cards import SEATS, Card, Seat, Suit, Team, cards_of
from engine.events import HandResult
from engine.game import Game, HandState, Phase, Trick
from engine.settings import Rules


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: Seat
    rules: Rules
    phase: Phase
    hand_number: int  # index of the current hand
    to_act: Seat | None
    dealer: Seat | None
    hand: tuple[Card, ...]  # this seat's cards, in index order
    legal: tuple[Card | Call, ...]  # what this seat may do now; empty when it is not its turn
    turned: tuple[Suit, ...]
    bids: tuple[tuple[Seat, Call], ...]
    trump: Suit | None
    player: Seat | None
    tricks: tuple[Trick, ...]  # completed tricks of this hand
    trick_leader: Seat | None  # leader of the trick in progress
    trick: tuple[Card, ...]  # cards of the trick in progress, in play order
    points: tuple[int, int]  # card points per team (NS, EW) in this hand so far
    roem: tuple[int, int]  # counted roem per team in this hand so far
    held_stuk: tuple[Seat, ...]  # stuk: held, seats that scored it this hand
    claims: tuple[tuple[int, Seat], ...]
    totals: tuple[int, int]  # match totals of completed hands
    results: tuple[HandResult, ...]  # settled hands, for the score sheet
    can_claim: bool

    @property
    def team(self) -> Team:
        return self.seat.team

    @property
    def partner(self) -> Seat:
        return self.seat.partner

    @property
    def elder(self) -> Seat | None:
        return self.dealer.next if self.dealer is not None else None

    @property
    def my_turn(self) -> bool:
        return self.to_act is self.seat

    @property
    def trick_plays(self) -> tuple[tuple[Seat, Card], ...]:
        """The trick in progress as (seat, card) pairs."""
        if self.trick_leader is None:
            return ()
        return tuple((SEATS[(self.trick_leader + i) & 3], card) for i, card in enumerate(self.trick))

    def trick_head(self) -> tuple[Seat, Card] | None:
        """The seat and card heading the trick in progress (None before its first card)."""
        plays = self.trick_plays
        if not plays or self.trump is None:
            return None
        led = plays[0][1] >> 3
        head_seat, head_card = plays[0]
        head_power = rulebook.card_power(head_card, self.trump, led)
        for seat, card in plays[1:]:
            power = rulebook.card_power(card, self.trump, led)
            if power > head_power:
                head_seat, head_card, head_power = seat, card, power
        return head_seat, head_card

    @property
    def played_mask(self) -> int:
        """Every card already played this hand (completed tricks and the trick in progress)."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        for card in self.trick:
            mask |= 1 << card
        return mask

    @property
    def hand_mask(self) -> int:
        mask = 0
        for card in self.hand:
            mask |= 1 << card
        return mask

    @property
    def trick_number(self) -> int:
        return len(self.tricks)


def seat_view(game: Game, seat: Seat) -> SeatView:
    hand: HandState | None = game.hand if game.phase is not Phase.DEAL else None
    if game.phase is Phase.OVER:
        hand = game.hand
    legal: tuple[Card | Call, ...] = tuple(game.legal_actions()) if game.to_act is seat else ()
    if hand is None:
        return SeatView(seat, game.rules, game.phase, game.hand_number, game.to_act,
                        game.next_dealer, (), legal, (), (), None, None, (), None, (), (0, 0), (0, 0), (), (),
                        (game.totals[0], game.totals[1]), tuple(game.results), game.can_claim())
    points, roem = game.hand_points_so_far(hand)
    in_progress = hand.trick_cards
    return SeatView(
        seat=seat,
        rules=game.rules,
        phase=game.phase,
        hand_number=hand.index,
        to_act=game.to_act,
        dealer=hand.dealer,
        hand=tuple(cards_of(hand.hands[seat])),
        legal=legal,
        turned=tuple(hand.turned),
        bids=tuple(hand.bids),
        trump=hand.trump,
        player=hand.player,
        tricks=tuple(hand.tricks),
        trick_leader=hand.leader if hand.trump is not None and not hand.complete else None,
        trick=tuple(Card(c) for c in in_progress),
        points=(points[0], points[1]),
        roem=(roem[0], roem[1]),
        held_stuk=tuple(hand.held_stuk),
        claims=tuple(hand.claims),
        totals=(game.totals[0], game.totals[1]),
        results=tuple(game.results),
        can_claim=game.can_claim(),
    )
