"""Standings of a tournament, worked out from each entry's score per hand: pure, no store, no Discord.

Entries alone and pairs are ranked apart (a pair has a human partner, the others an AI one). Within a field the
finished entries are ranked by their total, equal totals sharing a place (1, 1, 3); entries still playing
follow, unranked, with what they have so far. Per hand, every entry's score is set against the best and the
average score of its field on that hand, over the entries that completed it ("hand 5: you 112, best 140,
average 98").

While a tournament is open a reader sees only part of this (``seen_over``, as ``bot.access`` decides): the deals
are the same at every table, so a figure of a hand tells something of a deal the reader has still to play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.model import Entry


@dataclass(frozen=True, slots=True)
class Row:
    rank: int | None  # None: still playing
    entry: Entry
    total: int
    hands_played: int
    finished: bool
    finished_by_ai: bool


@dataclass(frozen=True, slots=True)
class HandLine:
    hand: int  # from 1
    score: int | None  # the entry's; None: not played (yet)
    best: int | None  # None: nobody in the field played it yet
    average: float | None


@dataclass(frozen=True, slots=True)
class Field:
    """One ranking: the entries alone, or the pairs."""

    rows: tuple[Row, ...]
    best: tuple[int | None, ...]  # per hand
    average: tuple[float | None, ...]

    def row_of(self, entry_id: int) -> Row | None:
        return next((row for row in self.rows if row.entry.id == entry_id), None)

    @property
    def winners(self) -> tuple[Row, ...]:
        """Every entry in first place (a shared first place has several)."""
        return tuple(row for row in self.rows if row.rank == 1)


@dataclass(frozen=True, slots=True)
class Standings:
    hands: int
    solo: Field
    pairs: Field
    # Every figure is over hands 1..counted only (``seen_over``: a reader of an open tournament); None: all hands.
    counted: int | None = None

    def field_of(self, entry: Entry) -> Field:
        return self.pairs if entry.pair else self.solo

    def hand_lines(self, entry: Entry) -> tuple[HandLine, ...]:
        """Hand by hand: the entry's score against the best and the average of its field."""
        field = self.field_of(entry)
        row = field.row_of(entry.id)
        scores = (row.entry.hand_scores or ()) if row is not None else ()
        return tuple(HandLine(i + 1, scores[i] if i < len(scores) else None, field.best[i], field.average[i])
                     for i in range(self.hands))

    def row_of(self, user_id: int) -> Row | None:
        """The row of the entry in which this person plays (alone or in a pair)."""
        for field in (self.solo, self.pairs):
            for row in field.rows:
                if user_id in row.entry.members:
                    return row
        return None


def standings(hands: int, entries: Sequence[Entry], live_scores: Mapping[int, Sequence[int]]) -> Standings:
    """The standings of entries that have a table (an unconfirmed pair or an entry without a table is left out).

    A finished entry's scores are its own ``hand_scores``; ``live_scores`` (entry id -> scores so far) gives
    those of the tables still playing.
    """
    playing = [e for e in entries if e.confirmed and e.table_id is not None]
    return Standings(hands, _field(hands, [e for e in playing if not e.pair], live_scores),
                     _field(hands, [e for e in playing if e.pair], live_scores))


def _field(hands: int, entries: Sequence[Entry], live: Mapping[int, Sequence[int]]) -> Field:
    scored: list[tuple[Entry, tuple[int, ...]]] = []
    for entry in entries:
        scores = entry.hand_scores if entry.finished and entry.hand_scores is not None \
            else tuple(live.get(entry.id, ()))
        scored.append((entry if entry.hand_scores == scores else _with_scores(entry, scores), scores))
    best: list[int | None] = []
    average: list[float | None] = []
    for hand in range(hands):
        played = [scores[hand] for _, scores in scored if hand < len(scores)]
        best.append(max(played) if played else None)
        average.append(sum(played) / len(played) if played else None)
    finished = sorted((pair for pair in scored if pair[0].finished), key=lambda pair: (-sum(pair[1]), pair[0].id))
    rows: list[Row] = []
    for position, (entry, scores) in enumerate(finished):
        total = sum(scores)
        shared = rows[-1].rank if rows and rows[-1].total == total else None
        rows.append(Row(shared or position + 1, entry, total, len(scores), True, entry.finished_by_ai))
    still = sorted((pair for pair in scored if not pair[0].finished), key=lambda pair: (-sum(pair[1]), pair[0].id))
    rows.extend(Row(None, entry, sum(scores), len(scores), False, False) for entry, scores in still)
    return Field(tuple(rows), tuple(best), tuple(average))


def seen_over(standings_: Standings, counted: int) -> Standings:
    """The standings as a reader who may see hands 1..``counted`` only sees them: every entry's scores and total
    over those hands, the best and average of those hands, and the entries ordered by that total, then by hands
    played (shared places for equal ones); nothing of a later hand is left in it, not even in the entries."""
    if counted >= standings_.hands:
        return standings_
    counted = max(counted, 0)
    return Standings(standings_.hands, _seen_field(standings_.solo, counted), _seen_field(standings_.pairs, counted),
                     counted)


def _seen_field(field: Field, counted: int) -> Field:
    cut = [(row, (row.entry.hand_scores or ())[:counted]) for row in field.rows]
    cut.sort(key=lambda pair: (-sum(pair[1]), -pair[0].hands_played, pair[0].entry.id))
    rows: list[Row] = []
    for position, (row, scores) in enumerate(cut):
        key = (sum(scores), row.hands_played)
        shared = rows[-1].rank if rows and (rows[-1].total, rows[-1].hands_played) == key else None
        rows.append(Row(shared or position + 1, _with_scores(row.entry, scores), sum(scores), row.hands_played,
                        row.finished, row.finished_by_ai))
    hidden = len(field.best) - counted
    return Field(tuple(rows), field.best[:counted] + (None,) * hidden, field.average[:counted] + (None,) * hidden)


def _with_scores(entry: Entry, scores: tuple[int, ...]) -> Entry:
    """The entry with its scores so far (a copy: the stored entry keeps what the store says)."""
    return Entry(entry.id, entry.tournament_id, entry.user_id, entry.name, entry.joined_at, entry.partner_id,
                 entry.partner_name, entry.confirmed, entry.table_id, entry.finished, entry.finished_by_ai,
                 sum(scores), scores)


def placing(standings_: Standings, user_id: int) -> tuple[int, int] | None:
    """This person's place and the size of their field, once their entry finished (for ``/stats``' best placing:
    see ``bot.store.tournaments.SqlTournamentStore.tournament_summary``)."""
    row = standings_.row_of(user_id)
    if row is None or row.rank is None:
        return None
    field = standings_.pairs if row.entry.pair else standings_.solo
    return row.rank, len(field.rows)
