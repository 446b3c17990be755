"""Who may see what: the one place that decides it, for every answer the bot gives.

Pure decisions over plain data (a person's id, a table, a tournament's status, the standings): no Discord, no
store. Every answer that shows game information asks here first: a seat's private view (the hand in a DM or
an ephemeral message, the card autocomplete, a hint, the score sheet's own side), a match's full record
(replay, export, review and the lists that offer them), a tournament's figures (standings, their image, the
final results, the winners), and whether a tournament's hands count in the statistics. ``tests/bot/
test_access.py`` checks that the modules building answers get these only through here.

Why tournaments need care: every entry plays the same deals, so anything about a deal (its cards, or only how
the field scored on it) tells a participant something of a hand they have still to play. While a tournament is
not closed, a person sees a hand's figures only once they finished that hand themselves, and nobody sees the
cards of a tournament table but the people who played all of it.
"""

from __future__ import annotations

from bot.tables.errors import ServiceErrorCode
from bot.tables.model import SeatKind, Table, TableStatus
from bot.tournaments.model import TournamentStatus
from bot.tournaments.standings import Standings, seen_over
from engine.cards import Seat
from engine.view import SeatView

OVER = (TableStatus.FINISHED, TableStatus.STOPPED)


def private_seat(table: Table, person: int) -> Seat | None:
    """The seat whose private view this person may see now: the one they sit at as a human; None for anyone
    else (onlookers, people who left, another account)."""
    return table.seat_of(person)


def private_view(table: Table, person: int) -> tuple[Seat, SeatView] | None:
    """This person's seat and what it sees (its hand, its legal moves); None when they may see no seat's."""
    seat = private_seat(table, person)
    return (seat, table.view(seat)) if seat is not None else None


def seat_view(table: Table, seat: Seat) -> SeatView:
    """The seat's private view for the person sitting there (a DM of their hand); refused for a seat no person
    sits at, whose hand nobody may be sent."""
    info = table.seats[seat]
    if info.kind is not SeatKind.HUMAN or info.user_id is None or private_seat(table, info.user_id) is not seat:
        raise PermissionError(f"table {table.id}: seat {seat} has no person to see its hand")
    return table.view(seat)


def record_refusal(person: int | None, table: Table, status: TableStatus,
                   tournament: TournamentStatus | None) -> ServiceErrorCode | None:
    """Why this person may not see the match's full record (replay, export, review: every seat's cards), or None
    when they may. ``status`` is the table's status now; ``tournament`` the status of its tournament (None: not
    a tournament table).

    Over (finished or stopped) is needed: a running match's cards are secret. A tournament's table, while the
    tournament is not closed, only for a person who played it to its end: they saw every card of every deal in it
    already, and nobody else may learn a deal they have still to play."""
    if status not in OVER:
        return ServiceErrorCode.MATCH_NOT_OVER
    if tournament is None or tournament is TournamentStatus.CLOSED:
        return None
    if status is TableStatus.FINISHED and person is not None and private_seat(table, person) is not None:
        return None
    return ServiceErrorCode.TOURNAMENT_SEALED


def hands_seen(standings: Standings, person: int | None, tournament: TournamentStatus) -> int:
    """How many hands' figures (from the first) this person may see: all once the tournament is closed; while
    not, the hands their own entry finished (none for someone without an entry)."""
    if tournament is TournamentStatus.CLOSED:
        return standings.hands
    row = standings.row_of(person) if person is not None else None
    return row.hands_played if row is not None else 0


def tournament_figures(standings: Standings, person: int | None, tournament: TournamentStatus) -> Standings:
    """The standings as this person may see them (``person`` None: anyone, as a post in a channel is seen)."""
    return seen_over(standings, hands_seen(standings, person, tournament))


def counts_in_stats(tournament: TournamentStatus | None) -> bool:
    """Whether a table's hands count in the statistics (players, AI levels, accuracy, and what lists them): a
    tournament's only once it is closed, when no deal of it is left to play."""
    return tournament is None or tournament is TournamentStatus.CLOSED
