"""What the socket sends, as plain JSON-ready dicts: a table's state from one seat's side (or an onlooker's) and
the public happenings between two states. Pure functions of the engine's views and the service's events.

Nothing here reads a hand but the ``SeatView``'s own: a seat's frame is built from its ``SeatView`` (which
holds its hand only), an onlooker's from a ``PublicView`` (which holds none), and events carry only what was
played. Declared roem stays unsaid until it is claimed, as on the chat table: a completed trick shows the roem
the view says may be shown, and a trick won says nothing of roem before a claim.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from bot.tables.events import (
    AutoplayStarted,
    GameProgress,
    LobbyExpired,
    SeatAway,
    SeatChanged,
    ServiceEvent,
    TablePaused,
    TableStarted,
    TableStopped,
)
from bot.tables.model import SeatKind, Table
from bot.texts.labels import names_of
from engine.actions import Call, Claim, Decline
from engine.cards import DECK, SEATS, Card, Seat, Team
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
from engine.game import Trick
from engine.order import sort_cards
from engine.roem import RoemPart
from engine.settings import RoemMode, Rules
from engine.view import PublicView, SeatView

Frame = dict[str, Any]

# Every card and seat as a frame writes it, looked up rather than formatted: a table's every change writes them all.
_CARD_TEXT = tuple(str(card) for card in DECK)
_SEAT_TEXT = tuple(str(seat) for seat in SEATS)


def encode(frame: Frame) -> str:
    """A frame as the socket sends it: compact JSON, non-ASCII as it is."""
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def _seat(seat: Seat | None) -> str | None:
    return _SEAT_TEXT[seat] if seat is not None else None


def _parts(parts: tuple[RoemPart, ...]) -> list[Frame]:
    return [{"kind": part.kind.value, "points": part.points,
             "rank": part.rank.letter if part.rank is not None else None,
             "suit": str(part.suit) if part.suit is not None else None} for part in parts]


def _trick(view: PublicView, trick: Trick) -> Frame:
    roem = view.shown_roem(trick)
    return {"index": trick.index, "leader": _SEAT_TEXT[trick.leader], "cards": [_CARD_TEXT[c] for c in trick.cards],
            "winner": _SEAT_TEXT[trick.winner], "points": trick.points, "roem": roem,
            "roem_parts": _parts(trick.roem_parts) if roem else []}


def result_row(result: HandResult) -> Frame:
    """One row of the score sheet (the boompje)."""
    return {"hand": result.hand, "dealer": str(result.dealer), "trump": str(result.trump),
            "player": str(result.player), "points": list(result.points), "roem": list(result.roem),
            "pit": str(result.pit) if result.pit is not None else None, "nat": result.nat,
            "score": list(result.score)}


@functools.lru_cache(maxsize=256)
def _rules_part(rules: Rules) -> Frame:
    """``rules.to_dict()``, made once per set of rules (a frame's parts are only read, never changed)."""
    return rules.to_dict()


def table_part(table: Table) -> Frame:
    """Who sits where and how the table plays: the same for every viewer."""
    seats = {}
    names = names_of(table)
    for seat in SEATS:
        info = table.seats[seat]
        seats[str(seat)] = {"name": names[seat] if info.kind is not SeatKind.EMPTY else "",
                            "kind": info.kind.value, "away": info.away}
    return {"id": table.id, "status": table.status.value, "version": table.version, "seats": seats,
            "rules": _rules_part(table.rules), "felt": table.settings.felt, "four_colour": table.settings.four_colour,
            "tournament": table.tournament_id is not None}


def public_part(view: PublicView) -> Frame:
    """What everybody at the table sees."""
    return {
        "phase": view.phase.value,
        "hand": view.hand_number,
        "to_act": _seat(view.to_act),
        "dealer": _seat(view.dealer),
        "turned": [str(suit) for suit in view.turned],
        "bids": [[_SEAT_TEXT[seat], str(call)] for seat, call in view.bids],
        "trump": str(view.trump) if view.trump is not None else None,
        "player": _seat(view.player),
        "tricks": [_trick(view, trick) for trick in view.tricks],
        "trick": {"leader": _seat(view.trick_leader),
                  "plays": [[_SEAT_TEXT[seat], _CARD_TEXT[card]] for seat, card in view.trick_plays]},
        "points": list(view.points),
        "roem": list(view.roem),
        "totals": list(view.totals),
        "sheet": [result_row(result) for result in view.results],
        "can_claim": view.can_claim,
        "claimed": list(view.claimed),
        "may_claim": [view.may_claim(team) for team in (Team.NS, Team.EW)],
    }


def seat_part(view: SeatView) -> Frame:
    """The seat's private side: its own hand (sorted as the chat shows it) and what it may do now."""
    team = view.seat.team
    return {
        "seat": _SEAT_TEXT[view.seat],
        "hand": [_CARD_TEXT[card] for card in sort_cards(view.hand, view.trump)],
        "legal_cards": [_CARD_TEXT[c] for c in view.legal if isinstance(c, Card)],
        "legal_calls": [str(c) for c in view.legal if isinstance(c, Call)],
        # Declared roem: a claim is offered on what everybody sees (the team may claim the trick just taken),
        # never on whether the trick holds roem; the claim phase's decline is the engine's choice of the seat.
        "may_claim": any(isinstance(c, Claim) for c in view.legal) or (
            view.can_claim and view.may_claim(team) and not view.has_claimed(team)),
        "may_decline": any(isinstance(c, Decline) for c in view.legal),
        "my_turn": view.my_turn,
    }


def shared_view(table: Table, view: PublicView, deadline: float | None) -> Frame:
    """What the ``view`` of every state frame of one change holds, whoever it is for: the table, the public view
    and ``deadline``, when the turn's clock runs out (unix seconds; None without a clock)."""
    return {"table": table_part(table), **public_part(view), "deadline": deadline}


def state_view(table: Table, view: PublicView, deadline: float | None) -> Frame:
    """The ``view`` of a state frame: ``shared_view`` and, for a seat, its private side."""
    out = shared_view(table, view, deadline)
    if isinstance(view, SeatView):
        out["me"] = seat_part(view)
    return out


def encoded_state(seq: int, version: int, shared: str, me: Frame | None) -> str:
    """``encode`` of the state frame ``{"type": "state", "seq", "version", "view"}`` whose view is ``shared_view``
    (``shared``: encoded, as a table's sessions share it) with, for a seat, ``"me"``: its private side."""
    view = shared if me is None else f'{shared[:-1]},"me":{encode(me)}}}'
    return f'{{"type":"state","seq":{seq},"version":{version},"view":{view}}}'


def encoded_event(seq: int, event: str) -> str:
    """``encode`` of the event frame ``{"type": "event", "seq", "event"}`` (``event``: encoded)."""
    return f'{{"type":"event","seq":{seq},"event":{event}}}'


def game_event(event: Event, roem: RoemMode) -> Frame | None:
    """One engine event as the table is told it; None for what nobody is told on its own."""
    if isinstance(event, HandDealt):
        return {"kind": "dealt", "hand": event.hand, "dealer": str(event.dealer)}
    if isinstance(event, SuitTurned):
        return {"kind": "turned", "hand": event.hand, "suit": str(event.suit)}
    if isinstance(event, BidMade):
        return {"kind": "bid", "hand": event.hand, "seat": str(event.seat), "call": str(event.call)}
    if isinstance(event, TrumpChosen):
        return {"kind": "trump", "hand": event.hand, "trump": str(event.trump), "player": str(event.player),
                "forced": event.forced}
    if isinstance(event, CardPlayed):
        return {"kind": "card", "hand": event.hand, "trick": event.trick, "seat": str(event.seat),
                "card": str(event.card)}
    if isinstance(event, TrickWon):
        shown = roem is RoemMode.AUTO  # declared: nobody is told a trick's roem before its claim
        return {"kind": "trick", "hand": event.hand, "trick": event.trick, "winner": str(event.winner),
                "cards": [str(c) for c in event.cards], "points": event.points,
                "roem": event.roem if shown else 0, "roem_parts": _parts(event.roem_parts) if shown else []}
    if isinstance(event, StukScored):
        return {"kind": "stuk", "hand": event.hand, "seat": str(event.seat), "points": event.points}
    if isinstance(event, RoemClaimed):
        return {"kind": "claim", "hand": event.hand, "trick": event.trick, "seat": str(event.seat),
                "points": event.points, "stuk": event.stuk}
    if isinstance(event, ClaimDeclined):
        return {"kind": "decline", "hand": event.hand, "trick": event.trick, "seat": str(event.seat)}
    if isinstance(event, HandSettled):
        return {"kind": "settled", **result_row(event.result)}
    if isinstance(event, MatchOver):
        return {"kind": "over", "winner": str(event.winner) if event.winner is not None else None,
                "totals": list(event.totals)}
    return None


def service_events(event: ServiceEvent) -> list[Frame]:
    """The public happenings a service event brings (none for one that only changes the state)."""
    if isinstance(event, GameProgress):
        found = (game_event(e, event.table.rules.roem) for e in event.events)
        return [frame for frame in found if frame is not None]
    if isinstance(event, SeatAway):
        return [{"kind": "away", "seat": str(event.seat)}]
    if isinstance(event, SeatChanged):
        return [{"kind": f"seat_{event.change.value}", "seat": str(event.seat)}]
    if isinstance(event, TableStarted):
        return [{"kind": "started"}]
    if isinstance(event, TablePaused):
        return [{"kind": "paused", "grace": event.grace}]
    if isinstance(event, TableStopped):
        return [{"kind": "stopped", "deserted": event.deserted}]
    if isinstance(event, LobbyExpired):
        return [{"kind": "expired"}]
    if isinstance(event, AutoplayStarted):
        return [{"kind": "autoplay"}]
    return []
