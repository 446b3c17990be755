"""Game records (``klaverjas-record/1``): export, rebuild by replay, and the ``score`` result.

A record is the persistence format: export a game, rebuild it by replaying the record through the
engine, and the export of the rebuilt game is identical. Errors in a record are ``RecordError`` with
the hand, play index, card and seat where they apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Call, Claim, Deal, Decline, TurnUp
from engine.cards import DECK, SEATS, Card, Seat, Suit, cards_of
from engine.errors import IllegalActionError, KlaverjasError, ParseError, RecordError
from engine.game import Game, HandState, Phase, scored_trick_roem
from engine.settings import Bidding, RoemMode, Rules

FORMAT = "klaverjas-record/1"


def export_record(game: Game) -> dict[str, Any]:
    """The record of a game as it stands."""
    hands: list[dict[str, Any]] = []
    for hand in game.hands:
        entry: dict[str, Any] = {
            "dealer": hand.dealer.letter,
            "deal": {seat.letter: [card.notation for card in cards_of(hand.deal[seat])] for seat in SEATS},
        }
        if game.rules.bidding is Bidding.DRAAIEN:
            entry["turned"] = [suit.letter for suit in hand.turned]
        entry["bids"] = [call.value for _, call in hand.bids]
        entry["plays"] = [card.notation for card in hand.plays]
        if game.rules.roem is RoemMode.DECLARED:
            entry["claims"] = [{"trick": trick, "seat": seat.letter} for trick, seat in hand.claims]
        hands.append(entry)
    return {"format": FORMAT, "rules": game.rules.to_dict(), "hands": hands}


def game_from_record(data: object) -> Game:
    """Rebuild a game by replaying a record; raises ``RecordError`` saying where it goes wrong."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"unknown format {data.get('format')!r}: expected {FORMAT!r}")
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except KlaverjasError as exc:
        raise RecordError(f"bad rules: {exc}") from None
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise RecordError("a record needs a list of hands")
    game = Game(rules)
    for index, hand in enumerate(hands):
        if game.phase is Phase.OVER:
            raise RecordError("the match was already over; no further hand can be played", hand=index)
        _replay_hand(game, index, hand)
        if index < len(hands) - 1 and game.phase not in (Phase.DEAL, Phase.OVER):
            raise RecordError("only the last hand of a record may be unfinished", hand=index)
    return game


def _replay_hand(game: Game, index: int, data: object) -> None:
    if not isinstance(data, Mapping):
        raise RecordError("a hand must be a JSON object", hand=index)
    rules = game.rules
    try:
        dealer = Seat.parse(data.get("dealer"))  # type: ignore[arg-type]
    except ParseError as exc:
        raise RecordError(f"bad dealer: {exc}", hand=index) from None
    deal = _parse_deal(data.get("deal"), dealer, index)
    try:
        game.apply(deal)
    except IllegalActionError as exc:
        raise RecordError(exc.reason, hand=index) from None

    turned = _list(data, "turned", index)
    bids = _list(data, "bids", index)
    plays = _list(data, "plays", index)
    claims = _list(data, "claims", index)
    if turned and rules.bidding is not Bidding.DRAAIEN:
        raise RecordError("turned suits are only part of a record with bidding: draaien", hand=index)
    if claims and rules.roem is not RoemMode.DECLARED:
        raise RecordError("claims are only possible with roem: declared", hand=index)
    claims_by_trick = _parse_claims(claims, index)

    next_turn = next_bid = 0
    while game.phase is Phase.TURN_UP or game.phase is Phase.BIDDING:
        if game.phase is Phase.TURN_UP:
            if next_turn == len(turned):
                if next_bid < len(bids) or plays:
                    raise RecordError("a suit must be turned here, but turned lists no more suits", hand=index)
                _no_claims_left(claims_by_trick, index)
                return
            try:
                game.apply(TurnUp(Suit.parse(turned[next_turn])))
            except (ParseError, IllegalActionError) as exc:
                raise RecordError(f"turned suit {next_turn + 1}: {exc}", hand=index) from None
            next_turn += 1
            continue
        seat = game.to_act
        assert seat is not None
        if next_bid == len(bids):
            if plays:
                raise RecordError("the bidding is not finished, so no card can be played yet", hand=index,
                                  play=0, seat=seat.letter)
            if next_turn < len(turned):
                raise RecordError("more suits turned than the bidding used", hand=index)
            _no_claims_left(claims_by_trick, index)
            return
        try:
            game.apply(Call.parse(bids[next_bid]), seat)
        except (ParseError, IllegalActionError) as exc:
            raise RecordError(f"bid {next_bid + 1}: {exc}", hand=index, seat=seat.letter) from None
        next_bid += 1
    if next_bid < len(bids):
        raise RecordError(f"bid {next_bid + 1} comes after the bidding ended", hand=index)
    if next_turn < len(turned):
        raise RecordError("more suits turned than the bidding used", hand=index)

    hand = game.hands[-1]
    for play_index, text in enumerate(plays):
        seat = game.to_act
        if game.phase is not Phase.PLAY or seat is None:
            raise RecordError("all 32 cards of this hand are already played", hand=index, play=play_index,
                              card=text if isinstance(text, str) else None)
        try:
            card = Card.parse(text)
        except ParseError as exc:
            raise RecordError(str(exc), hand=index, play=play_index,
                              card=text if isinstance(text, str) else None, seat=seat.letter) from None
        try:
            game.apply(card, seat)
        except IllegalActionError as exc:
            raise RecordError(exc.reason, hand=index, play=play_index, card=card.notation,
                              seat=seat.letter) from None
        if not hand.trick_cards:
            _apply_claims(game, hand, claims_by_trick, index)
    _no_claims_left(claims_by_trick, index)
    # A record holds no declines: a complete hand's claim window closes after the claims it lists.
    while game.phase is Phase.CLAIM and game.to_act is not None:
        game.apply(Decline(game.to_act))


def _no_claims_left(claims_by_trick: dict[int, list[Seat]], index: int) -> None:
    if claims_by_trick:
        trick = min(claims_by_trick)
        raise RecordError(f"a claim for trick {trick}, which has not been played", hand=index,
                          seat=claims_by_trick[trick][0].letter)


def _apply_claims(game: Game, hand: HandState, claims_by_trick: dict[int, list[Seat]], index: int) -> None:
    trick = len(hand.tricks) - 1
    for seat in claims_by_trick.pop(trick, []):
        try:
            game.apply(Claim(seat))
        except IllegalActionError as exc:
            raise RecordError(exc.reason, hand=index, seat=seat.letter) from None


def _list(data: Mapping[str, Any], key: str, index: int) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise RecordError(f"{key} must be a list", hand=index)
    return value


def _parse_deal(data: object, dealer: Seat, index: int) -> Deal:
    if not isinstance(data, Mapping):
        raise RecordError("deal must be an object with the cards of N, E, S and W", hand=index)
    masks = [0, 0, 0, 0]
    seen = 0
    for seat in SEATS:
        cards = data.get(seat.letter)
        if not isinstance(cards, list) or len(cards) != 8:
            raise RecordError(f"the deal must give {seat.letter} 8 cards", hand=index, seat=seat.letter)
        for text in cards:
            try:
                card = Card.parse(text)
            except ParseError as exc:
                raise RecordError(f"bad deal: {exc}", hand=index, card=text if isinstance(text, str) else None,
                                  seat=seat.letter) from None
            if seen & card.bit:
                raise RecordError(f"the deal is not 32 distinct cards: {card} is dealt twice", hand=index,
                                  card=card.notation, seat=seat.letter)
            seen |= card.bit
            masks[seat] |= card.bit
    return Deal(dealer, (masks[0], masks[1], masks[2], masks[3]))


def _parse_claims(claims: list[Any], index: int) -> dict[int, list[Seat]]:
    by_trick: dict[int, list[Seat]] = {}
    for claim in claims:
        if not isinstance(claim, Mapping):
            raise RecordError('a claim must be an object like {"trick": 0, "seat": "N"}', hand=index)
        trick = claim.get("trick")
        if not isinstance(trick, int) or isinstance(trick, bool) or not 0 <= trick <= 7:
            raise RecordError(f"a claim's trick must be 0 to 7, not {trick!r}", hand=index)
        try:
            seat = Seat.parse(claim.get("seat"))  # type: ignore[arg-type]
        except ParseError as exc:
            raise RecordError(f"bad claim: {exc}", hand=index) from None
        by_trick.setdefault(trick, []).append(seat)
    return by_trick


def score_record(data: object) -> dict[str, Any]:
    """The ``klaverjas score`` result for one parsed record (record-format.md)."""
    try:
        game = game_from_record(data)
    except RecordError as exc:
        return {"ok": False, "error": exc.as_dict()}
    return {"ok": True, **game_summary(game)}


def game_summary(game: Game) -> dict[str, Any]:
    """Per-hand results, totals and what comes next, as in ``klaverjas score``."""
    declared = game.rules.roem is RoemMode.DECLARED
    hands: list[dict[str, Any]] = []
    for hand in game.hands:
        entry: dict[str, Any] = {"dealer": hand.dealer.letter}
        if hand.player is not None and hand.trump is not None:
            entry.update(trump=hand.trump.letter, player=hand.player.letter, playing=hand.player.team.name)
        tricks: list[dict[str, Any]] = [
            {"leader": trick.leader.letter, "cards": [card.notation for card in trick.cards],
             "winner": trick.winner.letter, "points": trick.points, "roem": scored_trick_roem(hand, trick, declared)}
            for trick in hand.tricks
        ]
        if hand.trick_cards:
            tricks.append({"leader": hand.leader.letter, "cards": [DECK[c].notation for c in hand.trick_cards]})
        entry["tricks"] = tricks
        result = hand.result
        if result is not None:
            entry.update(
                points={"NS": result.points[0], "EW": result.points[1]},
                roem={"NS": result.roem[0], "EW": result.roem[1]},
                nat=result.nat,
                pit=result.pit is not None,
                score={"NS": result.score[0], "EW": result.score[1]},
            )
        hands.append(entry)
    return {
        "hands": hands,
        "total": {"NS": game.totals[0], "EW": game.totals[1]},
        "finished": game.finished,
        "winner": None if not game.finished else (game.winner.name if game.winner is not None else "draw"),
        "next": _next(game),
    }


def _next(game: Game) -> dict[str, Any] | None:
    phase = game.phase
    if phase is Phase.OVER:
        return None
    out: dict[str, Any] = {"hand": game.hand_number, "phase": phase.value}
    # Phase.CLAIM only in a live game: a replayed record has closed every claim window.
    if phase is Phase.BIDDING or phase is Phase.PLAY or phase is Phase.CLAIM:
        assert game.to_act is not None
        out["seat"] = game.to_act.letter
        out["legal"] = [str(action) for action in game.legal_actions()]
    return out
