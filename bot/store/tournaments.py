"""Tournaments in the store (migration 0008): tournaments, their entries, each server's tournament settings.

Built on the connection and transactions of ``SqlStore`` (a write must never land inside another
coroutine's transaction). The tables the entries play are ordinary tables with a ``tournament_id``.
"""

from __future__ import annotations

import json
from typing import Any

from bot.access import counts_in_stats
from bot.store import stats
from bot.store.backend import Conflict, Connection
from bot.store.base import SqlStore, upsert
from bot.tables.model import Actor, Table, TableSettings
from bot.tournaments.model import DuplicateEntry, Entry, Tournament, TournamentConfig, TournamentStatus
from engine.actions import Action


class SqlTournamentStore:
    def __init__(self, store: SqlStore) -> None:
        self.store = store

    @property
    def db(self) -> Connection:
        return self.store.db

    # ------------------------------------------------------------ the tables (read through the table store)

    async def load_table(self, table_id: int) -> Table | None:
        return await self.store.load_table(table_id)

    async def actions(self, table_id: int) -> list[tuple[Action, Actor]]:
        return await self.store.actions(table_id)

    async def guild_defaults(self, guild_id: int) -> TableSettings | None:
        return await self.store.guild_defaults(guild_id)

    # ------------------------------------------------------------ tournaments

    async def create_tournament(self, tournament: Tournament) -> int:
        """Store a new tournament and return its id; a second daily tournament for one server and day raises
        ``DuplicateEntry``."""
        try:
            async with self.store.transaction():
                cursor = await self.db.execute(
                    "INSERT INTO tournaments (guild_id, channel_id, name, creator_id, hands, settings, "
                    "max_participants, pairs, opened_at, closes_at, status, seed, daily, announced) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (tournament.guild_id, tournament.channel_id, tournament.name, tournament.creator_id,
                     tournament.hands, json.dumps(tournament.settings.to_dict()), tournament.max_participants,
                     int(tournament.pairs), tournament.opened_at, tournament.closes_at, tournament.status.value,
                     tournament.seed, tournament.daily, int(tournament.announced)))
                created = await cursor.fetchone()
        except Conflict as error:
            raise DuplicateEntry(str(error)) from None
        return int(created[0])

    async def tournament(self, tournament_id: int) -> Tournament | None:
        async with self.db.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)) as cursor:
            row = await cursor.fetchone()
        return _tournament(row) if row is not None else None

    async def tournaments(self, guild_id: int, *, open_only: bool = False, limit: int = 25) -> list[Tournament]:
        """A server's tournaments, newest first (``open_only``: those that take entries)."""
        status = " AND status = 'open'" if open_only else ""
        async with self.db.execute(f"SELECT * FROM tournaments WHERE guild_id = ?{status} ORDER BY id DESC LIMIT ?",
                                   (guild_id, limit)) as cursor:
            rows = await cursor.fetchall()
        return [_tournament(row) for row in rows]

    async def unsettled(self) -> list[Tournament]:
        """Tournaments the scheduler still has work for: open, closing, or closed and not yet announced."""
        async with self.db.execute("SELECT * FROM tournaments WHERE status != 'closed' OR announced = 0 "
                                   "ORDER BY id") as cursor:
            rows = await cursor.fetchall()
        return [_tournament(row) for row in rows]

    async def daily_exists(self, guild_id: int, day: str) -> bool:
        async with self.db.execute("SELECT 1 FROM tournaments WHERE guild_id = ? AND daily = ?",
                                   (guild_id, day)) as cursor:
            return await cursor.fetchone() is not None

    async def set_status(self, tournament_id: int, status: TournamentStatus) -> None:
        """The new status; a tournament that closes has its hands counted in the statistics in the same
        transaction (``bot.access.counts_in_stats``: not before)."""
        async with self.store.transaction():
            await self.db.execute("UPDATE tournaments SET status = ? WHERE id = ?", (status.value, tournament_id))
            if counts_in_stats(status):
                await stats.count_tournament(self.db, tournament_id, self.store.load_table)

    async def set_announced(self, tournament_id: int) -> None:
        await self.store.write("UPDATE tournaments SET announced = 1 WHERE id = ?", (tournament_id,))

    # ------------------------------------------------------------ entries

    async def add_entry(self, entry: Entry) -> int:
        """Store a new entry; raises ``DuplicateEntry`` when its person has one already."""
        try:
            async with self.store.transaction():
                cursor = await self.db.execute(
                    "INSERT INTO tournament_entries (tournament_id, user_id, name, partner_id, partner_name, "
                    "confirmed, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (entry.tournament_id, entry.user_id, entry.name, entry.partner_id, entry.partner_name,
                     int(entry.confirmed), entry.joined_at))
                created = await cursor.fetchone()
        except Conflict as error:
            raise DuplicateEntry(str(error)) from None
        return int(created[0])

    async def entries(self, tournament_id: int) -> list[Entry]:
        async with self.db.execute("SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY id",
                                   (tournament_id,)) as cursor:
            rows = await cursor.fetchall()
        return [_entry(row) for row in rows]

    async def entry_of(self, tournament_id: int, user_id: int) -> Entry | None:
        """The entry this person plays in (alone, as a pair's South or as a pair's North), confirmed or not."""
        async with self.db.execute("SELECT * FROM tournament_entries WHERE tournament_id = ? "
                                   "AND (user_id = ? OR partner_id = ?) ORDER BY id LIMIT 1",
                                   (tournament_id, user_id, user_id)) as cursor:
            row = await cursor.fetchone()
        return _entry(row) if row is not None else None

    async def entry(self, entry_id: int) -> Entry | None:
        async with self.db.execute("SELECT * FROM tournament_entries WHERE id = ?", (entry_id,)) as cursor:
            row = await cursor.fetchone()
        return _entry(row) if row is not None else None

    async def count_entries(self, tournament_id: int) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?",
                                   (tournament_id,)) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row is not None else 0

    async def confirm_entry(self, entry_id: int) -> None:
        await self.store.write("UPDATE tournament_entries SET confirmed = 1 WHERE id = ?", (entry_id,))

    async def set_entry_table(self, entry_id: int, table_id: int) -> None:
        await self.store.write("UPDATE tournament_entries SET table_id = ? WHERE id = ?", (table_id, entry_id))

    async def finish_entry(self, entry_id: int, hand_scores: tuple[int, ...], by_ai: bool) -> None:
        await self.store.write(
            "UPDATE tournament_entries SET finished = 1, finished_by_ai = ?, total = ?, hand_scores = ? WHERE id = ?",
            (int(by_ai), sum(hand_scores), json.dumps(list(hand_scores)), entry_id))

    async def delete_entry(self, entry_id: int) -> None:
        await self.store.write("DELETE FROM tournament_entries WHERE id = ? AND table_id IS NULL", (entry_id,))

    # ------------------------------------------------------------ server settings and records

    async def config(self, guild_id: int) -> TournamentConfig:
        async with self.db.execute("SELECT * FROM tournament_config WHERE guild_id = ?", (guild_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return TournamentConfig(guild_id)
        return TournamentConfig(guild_id, bool(row["daily"]), row["daily_hour"], row["channel_id"],
                                row["creator_role_id"])

    async def set_config(self, config: TournamentConfig) -> None:
        await self.store.write(
            upsert("tournament_config", ("guild_id", "daily", "daily_hour", "channel_id", "creator_role_id"),
                   ("guild_id",)),
            (config.guild_id, int(config.daily), config.daily_hour, config.channel_id, config.creator_role_id))

    async def daily_configs(self) -> list[TournamentConfig]:
        """The servers with the daily tournament switched on."""
        async with self.db.execute("SELECT guild_id FROM tournament_config WHERE daily = 1 AND channel_id IS NOT NULL "
                                   "ORDER BY guild_id") as cursor:
            rows = await cursor.fetchall()
        return [await self.config(row["guild_id"]) for row in rows]

    async def closed_daily(self, guild_id: int) -> list[tuple[Tournament, list[Entry]]]:
        """A server's daily tournaments that are over, with their entries (for the table of daily winners)."""
        async with self.db.execute("SELECT * FROM tournaments WHERE guild_id = ? AND daily IS NOT NULL "
                                   "AND status = 'closed' ORDER BY id", (guild_id,)) as cursor:
            rows = await cursor.fetchall()
        return [(t, await self.entries(t.id)) for t in (_tournament(row) for row in rows)]

    async def lost_by_hand(self, table_id: int, user_id: int) -> tuple[float, ...] | None:
        """Points this person lost per decision in each hand at this table, by its review (0 for a hand without
        a decision of theirs); None while it is not reviewed."""
        async with self.db.execute("SELECT hands FROM reviews WHERE table_id = ? AND status = 'done'",
                                   (table_id,)) as cursor:
            head = await cursor.fetchone()
        if head is None:
            return None
        async with self.db.execute("SELECT hand, AVG(cost) FROM review_decisions WHERE table_id = ? AND user_id = ? "
                                   "GROUP BY hand", (table_id, user_id)) as cursor:
            averages = {int(row[0]): float(row[1]) for row in await cursor.fetchall()}
        return tuple(round(averages.get(hand, 0.0), 1) for hand in range(int(head[0])))

    async def tournament_summary(self, guild_id: int, user_id: int) -> list[tuple[Tournament, list[Entry]]]:
        """The closed tournaments of a server in which ``user_id`` played, with all their entries: what ``/stats``
        needs for "tournaments played" and "best placing" (``bot.tournaments.standings.placings`` ranks them).
        The seam for the statistics feature, which shows them; nothing here writes statistics."""
        async with self.db.execute(
                "SELECT DISTINCT t.* FROM tournaments t JOIN tournament_entries e ON e.tournament_id = t.id "
                "WHERE t.guild_id = ? AND t.status = 'closed' AND (e.user_id = ? OR e.partner_id = ?) ORDER BY t.id",
                (guild_id, user_id, user_id)) as cursor:
            rows = await cursor.fetchall()
        return [(t, await self.entries(t.id)) for t in (_tournament(row) for row in rows)]


def _tournament(row: Any) -> Tournament:
    return Tournament(id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], name=row["name"],
                      creator_id=row["creator_id"], settings=TableSettings.from_dict(json.loads(row["settings"])),
                      seed=row["seed"], opened_at=row["opened_at"], closes_at=row["closes_at"],
                      max_participants=row["max_participants"], pairs=bool(row["pairs"]),
                      status=TournamentStatus(row["status"]), daily=row["daily"], announced=bool(row["announced"]))


def _entry(row: Any) -> Entry:
    scores = row["hand_scores"]
    return Entry(id=row["id"], tournament_id=row["tournament_id"], user_id=row["user_id"], name=row["name"],
                 joined_at=row["joined_at"], partner_id=row["partner_id"], partner_name=row["partner_name"],
                 confirmed=bool(row["confirmed"]), table_id=row["table_id"], finished=bool(row["finished"]),
                 finished_by_ai=bool(row["finished_by_ai"]), total=row["total"],
                 hand_scores=tuple(json.loads(scores)) if scores is not None else None)
