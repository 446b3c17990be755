"""Matches that are over, read back from the store for replays, exports and the lists that offer them.

A match is shown only once it is over (finished or stopped), and a tournament's only as ``bot.access`` allows: a
replay shows every seat's cards, which a running match (or a deal others have still to play) must not reveal.
It is found by its table id within one server: the same refusal for an unknown id and for another server's
match, so neither is told apart. Its results, needed for the lists,
are worked out by replaying the match once and then remembered (a match that is over never changes).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.access import record_refusal
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import Actor, Table, TableStatus
from bot.tournaments.model import TournamentStatus
from engine.actions import Action
from engine.cards import Team
from engine.replay import Replay

RESULTS_KEPT = 1024  # matches whose totals are remembered


class ArchiveStore(Protocol):
    """What the archive reads (``bot.store.base.SqlStore`` implements it)."""

    async def load_table(self, table_id: int) -> Table | None: ...

    async def actions(self, table_id: int) -> list[tuple[Action, Actor]]: ...

    async def recent_matches(self, guild_id: int, user_id: int, limit: int) -> list[tuple[Table, str]]: ...

    async def updated_at(self, table_id: int) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Match:
    """A match that is over: its table as stored (seats, settings, server) and its actions."""

    table: Table
    replay: Replay

    @property
    def id(self) -> int:
        return self.table.id


@dataclass(frozen=True, slots=True)
class Outcome:
    totals: tuple[int, int]  # NS, EW
    finished: bool  # played to the end (not stopped)
    winner: Team | None  # None: a draw, or stopped


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One line of a list of matches."""

    table: Table
    ended: str  # when the match was last changed (its end), ISO 8601 as stored
    outcome: Outcome


class MatchArchive:
    def __init__(self, store: ArchiveStore | None, live: Callable[[int], Table | None],
                 tournament: Callable[[int], Awaitable[tuple[str, TournamentStatus] | None]] | None = None) -> None:
        self.store = store
        self.live = live  # a table the service keeps in memory, whose status is newer than the store's
        # A tournament table's deals are every entry's: the name and status of its tournament (None: no such
        # tournament), for bot.access to decide who may see its record (``TournamentService.name_and_status``).
        self.tournament = tournament
        self._outcomes: OrderedDict[int, Outcome] = OrderedDict()

    def status(self, table: Table) -> TableStatus:
        """The table's status now: a finished game is stored as finished only once its end is announced."""
        kept = self.live(table.id)
        return kept.status if kept is not None else table.status

    async def match(self, table_id: int, guild_id: int | None, viewer: int | None) -> Match:
        """The match with this id in this server, when ``viewer`` may see its record (``bot.access``); refused
        (ServiceError) otherwise."""
        table = await self.store.load_table(table_id) if self.store is not None else None
        if table is None or guild_id is None or table.guild_id != guild_id:
            raise ServiceError(ServiceErrorCode.NO_MATCH, {"table": table_id})
        status = self.status(table)
        await self._check(table, status, viewer)
        assert self.store is not None
        replay = Replay(table.rules, [action for action, _ in await self.store.actions(table_id)])
        if not replay.hands:
            raise ServiceError(ServiceErrorCode.MATCH_EMPTY, {"table": table_id})
        table.status = status
        return Match(table, replay)

    async def _check(self, table: Table, status: TableStatus, viewer: int | None) -> None:
        """Refused (ServiceError) unless ``bot.access`` lets the viewer see the table's record."""
        name, tournament = "", None
        if table.tournament_id is not None:
            found = await self.tournament(table.tournament_id) if self.tournament is not None else None
            # A tournament table whose tournament cannot be read stays sealed.
            name, tournament = found if found is not None else ("?", TournamentStatus.OPEN)
        refusal = record_refusal(viewer, table, status, tournament)
        if refusal is not None:
            raise ServiceError(refusal, {"table": table.id, "tournament": name})

    async def may_see(self, table: Table, viewer: int) -> bool:
        """Whether the viewer may see this stored table's record (for the lists that offer matches)."""
        try:
            await self._check(table, self.status(table), viewer)
        except ServiceError:
            return False
        return True

    @staticmethod
    def work_out(match: Match) -> Outcome:
        """The match's totals and winner, by replaying it (a few milliseconds of pure Python)."""
        game = match.replay.final()
        return Outcome((game.totals[0], game.totals[1]), game.finished, game.winner if game.finished else None)

    async def outcome(self, match: Match) -> Outcome:
        """The match's totals and winner: worked out off the event loop (which serves the tables), then
        remembered."""
        known = self._outcomes.get(match.id)
        if known is not None:
            self._outcomes.move_to_end(match.id)
            return known
        known = await asyncio.to_thread(self.work_out, match)
        self._outcomes[match.id] = known
        while len(self._outcomes) > RESULTS_KEPT:
            self._outcomes.popitem(last=False)
        return known

    async def summary(self, table_id: int, guild_id: int, viewer: int) -> MatchSummary | None:
        """The list line of one match of this server the viewer may see; None for any other id."""
        try:
            match = await self.match(table_id, guild_id, viewer)
        except ServiceError:
            return None
        assert self.store is not None
        return MatchSummary(match.table, await self.store.updated_at(table_id) or "", await self.outcome(match))

    async def recent(self, guild_id: int, user_id: int, limit: int = 25) -> list[MatchSummary]:
        """The matches over in this server that ``user_id`` hosted or sat at and may see, newest first."""
        if self.store is None:
            return []
        out: list[MatchSummary] = []
        for table, ended in await self.store.recent_matches(guild_id, user_id, limit):
            if not await self.may_see(table, user_id):
                continue
            known = self._outcomes.get(table.id)
            if known is None:
                actions = [action for action, _ in await self.store.actions(table.id)]
                known = await self.outcome(Match(table, Replay(table.rules, actions)))
            out.append(MatchSummary(table, ended, known))
        return out
