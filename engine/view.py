"""What the table and one seat may know of a game: the only input of AI players, hints and images.

A ``PublicView`` is what everybody at the table sees: the dealer, the bidding, trump, every card
played and by whom, the scores, the claims. A ``SeatView`` adds one seat's private side: its own
hand and what it may do now. It holds nothing of the other hands, so a player built on it cannot
cheat; observer images are drawn from a ``PublicView`` (``public_view``), which holds no hand at all.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter

from engine import rulebook
from engine.actions import Call, Choice
from engine.cards import Card, Seat, Suit, Team, cards_of, seat_after, suit_of
from engine.events import HandResult
from engine.game import Game, HandState, Phase, Trick, may_claim_trick
from engine.settings import RoemMode, Rules, StukMode


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everybody at the table sees; observers' images are drawn from it."""

    rules: Rules
    phase: Phase
    hand_number: int  # index of the current hand
    to_act: Seat | None
    dealer: Seat | None
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
    claim_values: tuple[int, int]  # per team (NS, EW): what a claim would score now (Game.claim_value)
    claimed: tuple[bool, bool]  # per team: whether it claimed the trick just completed (Game.has_claimed)

    @property
    def elder(self) -> Seat | None:
        return self.dealer.next if self.dealer is not None else None

    @property
    def trick_plays(self) -> tuple[tuple[Seat, Card], ...]:
        """The trick in progress as (seat, card) pairs."""
        if self.trick_leader is None:
            return ()
        return tuple((seat_after(self.trick_leader, i), card) for i, card in enumerate(self.trick))

    def trick_head(self) -> tuple[Seat, Card] | None:
        """The seat and card heading the trick in progress (None before its first card)."""
        plays = self.trick_plays
        if not plays or self.trump is None:
            return None
        led = suit_of(plays[0][1])
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
    def trick_number(self) -> int:
        return len(self.tricks)

    def may_claim(self, team: Team) -> bool:
        """Declared roem: whether ``team`` may claim the trick just completed, on what everybody sees
        (``Game.may_claim``); whether the trick holds anything for it is not part of it."""
        if not self.can_claim or not self.tricks or self.trump is None:
            return False
        return may_claim_trick(self.tricks[-1], self.trump, team, self.rules.stuk is StukMode.HELD)

    def shown_roem(self, trick: Trick) -> int:
        """The roem of a completed trick as the table may be told it: all of it with automatic roem; with
        declared roem only once its winners claimed it (until then nobody is told that it holds any)."""
        if self.rules.roem is RoemMode.AUTO:
            return trick.roem
        team = trick.winner.team
        return trick.roem if any(t == trick.index and s.team is team for t, s in self.claims) else 0

    def claim_value(self, team: Team) -> int:
        """Declared roem: what a claim by a seat of ``team`` would score now (0: nothing to claim)."""
        return self.claim_values[team]

    def has_claimed(self, team: Team) -> bool:
        """Declared roem: whether ``team`` already claimed the trick just completed."""
        return self.claimed[team]


@dataclass(frozen=True, slots=True)
class SeatView(PublicView):
    """The public view and one seat's private side: the only input of AI players and hints."""

    seat: Seat
    hand: tuple[Card, ...]  # this seat's cards, in index order
    legal: tuple[Choice, ...]  # what this seat may do now; empty when it is not its turn

    @property
    def team(self) -> Team:
        return self.seat.team

    @property
    def partner(self) -> Seat:
        return self.seat.partner

    @property
    def my_turn(self) -> bool:
        return self.to_act is self.seat

    @property
    def hand_mask(self) -> int:
        mask = 0
        for card in self.hand:
            mask |= 1 << card
        return mask


# A ``SeatView``'s fields are the ``PublicView``'s, in order, then its own: read all at once (a view is built for every
# seat at every change of every table).
_public_fields = attrgetter(*(f.name for f in fields(PublicView)))


def _shown_hand(game: Game) -> HandState | None:
    """The hand a view shows: the current one; none between hands (its result is on the sheet)."""
    return None if game.phase is Phase.DEAL else game.hand


def public_view(game: Game) -> PublicView:
    """What everybody at the table sees now."""
    hand = _shown_hand(game)
    claim_values = (game.claim_value(Team.NS), game.claim_value(Team.EW))
    claimed = (game.has_claimed(Team.NS), game.has_claimed(Team.EW))
    if hand is None:
        return PublicView(game.rules, game.phase, game.hand_number, game.to_act, game.next_dealer, (), (), None,
                          None, (), None, (), (0, 0), (0, 0), (), (), (game.totals[0], game.totals[1]),
                          tuple(game.results), game.can_claim(), claim_values, claimed)
    points, roem = game.hand_points_so_far(hand)
    return PublicView(
        rules=game.rules,
        phase=game.phase,
        hand_number=hand.index,
        to_act=game.to_act,
        dealer=hand.dealer,
        turned=tuple(hand.turned),
        bids=tuple(hand.bids),
        trump=hand.trump,
        player=hand.player,
        tricks=tuple(hand.tricks),
        trick_leader=hand.leader if hand.trump is not None and not hand.complete else None,
        trick=tuple(Card(c) for c in hand.trick_cards),
        points=(points[0], points[1]),
        roem=(roem[0], roem[1]),
        held_stuk=tuple(hand.held_stuk),
        claims=tuple(hand.claims),
        totals=(game.totals[0], game.totals[1]),
        results=tuple(game.results),
        can_claim=game.can_claim(),
        claim_values=claim_values,
        claimed=claimed,
    )


def seat_view(game: Game, seat: Seat, public: PublicView | None = None) -> SeatView:
    """What ``seat`` knows: the public view, its own cards and, on its turn, its legal actions. ``public``: the
    game's ``public_view`` now, when the caller has it already (every seat's view of one state shares it)."""
    hand = _shown_hand(game)
    own = tuple(cards_of(hand.hands[seat])) if hand is not None else ()
    legal: tuple[Choice, ...] = tuple(game.legal_actions()) if game.to_act is seat else ()
    return seat_view_of(public if public is not None else public_view(game), seat, own, legal)


def seat_view_of(public: PublicView, seat: Seat, hand: tuple[Card, ...], legal: tuple[Choice, ...]) -> SeatView:
    """A seat's view: the public view and the seat's private side (its cards, what it may do now)."""
    values: tuple[object, ...] = (*_public_fields(public), seat, hand, legal)
    return SeatView(*values)  # type: ignore[arg-type]  # the fields' types are PublicView's, read from one
