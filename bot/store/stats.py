"""The statistics tables (migration 0006): their writes, the backfill of older games, and the queries.

The writes run inside the store's transactions (``SqliteStore.append_action`` for a hand that settles,
``SqliteStore.save_table`` for a match's end), so a hand or a match is counted exactly when it is stored.
What is written is worked out by ``bot.stats.facts`` and ``bot.stats.ratings``; this module only reads and
writes rows. The queries answer ``/stats``, ``/leaderboard`` and ``/klaverjas history`` from the indexes of
migration 0006, never by replaying games.

A tournament's hands count only once it is closed (``bot.access.counts_in_stats``): while it is open they are
not written, and its closing writes them all (``count_tournament``), so no query can show a deal others have
still to play.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.access import counts_in_stats
from bot.stats.facts import (
    HandRow,
    Logged,
    MatchFacts,
    ai_key,
    hand_players,
    hand_rows,
    human_key,
    match_facts,
    user_of,
)
from bot.stats.figures import BoardEntry, BoardPage, HistoryEntry, PartnerRecord, PlayerStats
from bot.stats.ratings import DEFAULT, GLOBAL_SCOPE, MIN_MATCHES, Rating, rate
from bot.store.backend import Connection, Many, Plan, Step, placeholders
from bot.store.codec import decode_action
from bot.tables.model import SeatKind, Table, TableStatus
from bot.tournaments.model import TournamentStatus
from engine.ai.review_summary import accuracy_of
from engine.cards import SEATS, Seat, Team
from engine.events import Event, HandSettled
from engine.game import Game

log = logging.getLogger(__name__)

MONTHS_SHOWN = 12
HISTORY_POINTS = 200  # rating changes drawn in the chart (the latest)


# ------------------------------------------------------------------ reading what the writes need


def action_log_plan(table_id: int) -> Plan[list[Logged]]:
    rows = yield Step("SELECT seq, kind, seat, user_id FROM actions WHERE table_id = ? ORDER BY seq", (table_id,))
    return [Logged(row[0], row[1], Seat.parse(row[2]) if row[2] else None, row[3]) for row in rows]


async def action_log(db: Connection, table_id: int) -> list[Logged]:
    return await db.run_plan(action_log_plan(table_id))


def occupants(table: Table) -> list[str]:
    """Each seat's player now; an empty seat (never while playing) counts as the table's AI."""
    out = []
    for info in table.seats:
        if info.kind is SeatKind.HUMAN and info.user_id is not None:
            out.append(human_key(info.user_id))
        elif info.kind is SeatKind.AI:
            out.append(ai_key(info.ai_level))
        else:
            out.append(ai_key(table.settings.ai_level))
    return out


async def _stored_game(db: Connection, table: Table) -> Game:
    """The table's game with every stored action: the one in memory when it is complete, else replayed."""
    async with db.execute("SELECT kind, data FROM actions WHERE table_id = ? ORDER BY seq", (table.id,)) as cursor:
        rows = list(await cursor.fetchall())
    if len(rows) == len(table.game.actions):
        return table.game
    game = Game(table.rules)
    game.apply_all(decode_action(row[0], row[1]) for row in rows)
    return game


# ------------------------------------------------------------------ writes


def hand_rows_insert(table: Table, rows: Iterable[HandRow], settled_at: str) -> Many:
    return Many(
        "INSERT INTO hand_stats (table_id, hand, seat, guild_id, player, team, chose, trump, playing, made, "
        "nat, pit, points, roem, score, settled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        [(table.id, r.hand, r.seat.letter, table.guild_id, r.player, r.team.name, int(r.chose), r.trump,
          int(r.playing), int(r.made), int(r.nat), int(r.pit), r.points, r.roem, r.score, settled_at) for r in rows])


def settled_hands(events: Sequence[Event]) -> list[HandSettled]:
    """The hands an action's events settle: what ``hand_rows_written`` counts (most actions settle none)."""
    return [event for event in events if isinstance(event, HandSettled)]


def has_ended(table: Table) -> bool:
    """Whether the table's stored state is a match's end, which ``write_match_end`` counts (once)."""
    return table.stored_status in (TableStatus.FINISHED, TableStatus.STOPPED)


def hand_rows_written(table: Table, seq: int, events: Sequence[Event]) -> Plan[None]:
    """The plan that writes the rows of the hand the action ``seq`` settled (if it settled one), in the action's
    transaction."""
    settled = settled_hands(events)
    if not settled:
        return
    if table.tournament_id is not None:
        status = yield Step("SELECT status FROM tournaments WHERE id = ?", (table.tournament_id,))
        # A tournament that cannot be found counts as open: its hands wait.
        if not counts_in_stats(TournamentStatus(status[0][0]) if status else TournamentStatus.OPEN):
            return  # written when the tournament closes (count_tournament)
    log = yield from action_log_plan(table.id)
    at = yield Step("SELECT at FROM actions WHERE table_id = ? AND seq = ?", (table.id, seq))
    settled_at = str(at[0][0]) if at else ""
    for event in settled:
        players = hand_players(log, event.hand, occupants(table), ai_key(table.settings.ai_level))
        yield hand_rows_insert(table, hand_rows(event.result, players), settled_at)


async def count_tournament(db: Connection, tournament_id: int, load_table: Any) -> None:
    """The hand rows of every table of a tournament that closes, in the transaction that closes it (the rows of a
    hand written already stay as they are). ``load_table`` is the store's table loader."""
    async with db.execute("SELECT id FROM tables WHERE tournament_id = ? ORDER BY id", (tournament_id,)) as cursor:
        ids = [row[0] for row in await cursor.fetchall()]
    for table_id in ids:
        await _hand_rows_of(db, table_id, load_table)


async def _hand_rows_of(db: Connection, table_id: int, load_table: Any) -> tuple[str, int, Table, Game] | None:
    """The table's hand rows from its stored game, or none when that does not replay (it never should: logged,
    and the caller's other writes go on)."""
    await db.execute("SAVEPOINT backfill")
    try:
        end = await _backfill_table(db, table_id, load_table)
    except Exception as error:
        await db.execute("ROLLBACK TO backfill")
        log.warning("table %s: its stored game does not replay (%s): no statistics for it", table_id, error)
        end = None
    await db.execute("RELEASE backfill")
    return end


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """What a match's end writes (``match_end_rows``), worked out from what is stored before the transaction
    that stores the end begins: a transaction that holds the database's writer only writes."""

    table: Table
    facts: MatchFacts
    ended_at: str


async def match_end(db: Connection, table: Table, stoppers: Collection[int] = (), ended_at: str | None = None,
                    game: Game | None = None) -> MatchEnd | None:
    """The match rows and ratings' teams of a match that ended (finished, or stopped); None for a table that never
    had a deal, a tournament's or one not ended. Reads only, under the table's lock, so what it reads (the table's
    actions and hand rows) cannot change before the end is stored."""
    if not has_ended(table):
        return None  # not ended, or its end not announced yet: the store still keeps it running
    if table.tournament_id is not None:
        return None  # a tournament's table: its hands count, its result goes to the standings, not the ratings
    log = await action_log(db, table.id)
    if not any(entry.kind == "deal" for entry in log):
        return None
    if game is None:
        game = await _stored_game(db, table)
    async with db.execute("SELECT hand, seat, player FROM hand_stats WHERE table_id = ?", (table.id,)) as cursor:
        played = [(row[0], Seat.parse(row[1]), row[2]) for row in await cursor.fetchall()]
    finished = table.status is TableStatus.FINISHED and game.finished
    totals = (game.totals[Team.NS], game.totals[Team.EW])
    facts = match_facts(played, log, occupants(table), totals, finished, game.winner, stoppers)
    if ended_at is None:
        async with db.execute(f"SELECT {db.dialect.now}") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        ended_at = str(row[0])
    return MatchEnd(table, facts, ended_at)


def match_end_rows(end: MatchEnd) -> Plan[MatchFacts | None]:
    """The plan that writes the match rows and rating updates of ``end``, once (a table that has them is left
    alone): inside the transaction that stores the end, a few statements whatever the number of players."""
    table, facts, ended_at = end.table, end.facts, end.ended_at
    if (yield Step("SELECT 1 FROM match_stats WHERE table_id = ? LIMIT 1", (table.id,))):
        return None
    settings = json.dumps(table.settings.to_dict())
    yield Many(
        "INSERT INTO match_stats (table_id, player, seat, team, partner, result, hands, team_total, other_total, "
        "rated, guild_id, channel_id, thread_id, settings, ended_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(table.id, r.player, r.seat.letter, r.team.name, r.partner, r.result.value, r.hands, r.team_total,
          r.other_total, int(r.rated), table.guild_id, table.channel_id, table.thread_id, settings, ended_at)
         for r in facts.rows])
    if facts.teams is not None:
        scopes = [GLOBAL_SCOPE] + ([table.guild_id] if table.guild_id is not None else [])
        yield from _rate(scopes, table.id, facts, ended_at)
    return facts


async def write_match_end(db: Connection, table: Table, stoppers: Collection[int] = (),
                          ended_at: str | None = None, game: Game | None = None) -> MatchFacts | None:
    """``match_end`` and its rows, in the caller's transaction (the backfill's)."""
    end = await match_end(db, table, stoppers, ended_at, game)
    return await db.run_plan(match_end_rows(end)) if end is not None else None


def _rate(scopes: Sequence[int], table_id: int, facts: MatchFacts, at: str) -> Plan[None]:
    """The rating updates of the match's rated players in each scope: one read, two writes."""
    assert facts.teams is not None
    players = sorted(set(facts.teams[0] + facts.teams[1]))
    current = yield from _ratings_in(scopes, players)
    rated = {row.player for row in facts.rows if row.rated}  # not who abandoned it, nor who played itself
    updates: list[tuple[Any, ...]] = []
    changes: list[tuple[Any, ...]] = []
    for scope in scopes:
        before = current.get(scope, {})
        for player, rating in rate(facts.teams, facts.winner, before).items():
            if player not in rated:
                continue
            start = before.get(player) or DEFAULT
            updates.append((scope, player, rating.mu, rating.sigma, rating.conservative, at))
            changes.append((scope, player, table_id, start.mu, start.sigma, rating.mu, rating.sigma, at))
    yield Many(
        "INSERT INTO ratings (scope, player, mu, sigma, conservative, matches, updated_at) "
        "VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (scope, player) DO UPDATE SET mu = excluded.mu, "
        "sigma = excluded.sigma, conservative = excluded.conservative, matches = ratings.matches + 1, "
        "updated_at = excluded.updated_at", updates)
    yield Many(
        "INSERT INTO rating_changes (scope, player, table_id, mu_before, sigma_before, mu, sigma, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", changes)


def _ratings_in(scopes: Sequence[int], players: Sequence[str]) -> Plan[dict[int, dict[str, Rating]]]:
    """The players' ratings in each of the scopes, in one read (a player without one is missing)."""
    out: dict[int, dict[str, Rating]] = {}
    if not players:
        return out
    rows = yield Step(f"SELECT scope, player, mu, sigma FROM ratings WHERE scope IN ({placeholders(len(scopes))}) "
                      f"AND player IN ({placeholders(len(players))})", (*scopes, *players))
    for row in rows:
        out.setdefault(int(row[0]), {})[row[1]] = Rating(row[2], row[3])
    return out


# ------------------------------------------------------------------ the backfill (a data step of migration 0006)


async def backfill(db: Connection, load_table: Any) -> int:
    """Rows for every game stored before migration 0006: hand rows of every table that played, match rows and
    ratings of the finished and stopped ones, rated in the order the matches ended. Runs in the migration's
    transaction; ``load_table`` is the store's table loader. Who stopped a match was never stored, so an older
    stopped match is abandoned only for those who left it. Returns the matches filled in."""
    async with db.execute("SELECT id FROM tables WHERE status IN ('playing', 'finished', 'stopped') "
                          "AND NOT EXISTS (SELECT 1 FROM hand_stats h WHERE h.table_id = tables.id) "
                          "AND NOT EXISTS (SELECT 1 FROM match_stats m WHERE m.table_id = tables.id) "
                          "ORDER BY id") as cursor:
        ids = [row[0] for row in await cursor.fetchall()]
    ends: list[tuple[str, int, Table, Game]] = []
    for table_id in ids:
        # A stored game that does not replay (it never should) is skipped, not a reason to refuse the migration.
        end = await _hand_rows_of(db, table_id, load_table)
        if end is not None:
            ends.append(end)
    ends.sort(key=lambda end: (end[0], end[1]))
    for ended, _, table, game in ends:
        await write_match_end(db, table, (), ended, game)
    return len(ends)


async def _backfill_table(db: Connection, table_id: int,
                          load_table: Any) -> tuple[str, int, Table, Game] | None:
    """One table's hand rows; its end (when, id, table, game) when it ended, for the ratings in order."""
    table: Table = await load_table(table_id)
    async with db.execute("SELECT kind, data, at FROM actions WHERE table_id = ? ORDER BY seq",
                          (table_id,)) as cursor:
        rows = list(await cursor.fetchall())
    if not rows:
        return None
    logged = await action_log(db, table_id)
    game = Game(table.rules)
    for kind, data, at in rows:
        for event in game.apply(decode_action(kind, data)):
            if isinstance(event, HandSettled):
                players = hand_players(logged, event.hand, occupants(table), ai_key(table.settings.ai_level))
                insert = hand_rows_insert(table, hand_rows(event.result, players), str(at))
                await db.executemany(insert.sql, insert.rows)
    if table.status not in (TableStatus.FINISHED, TableStatus.STOPPED):
        return None
    async with db.execute("SELECT updated_at FROM tables WHERE id = ?", (table_id,)) as cursor:
        row = await cursor.fetchone()
    ended = str(rows[-1][2]) if game.finished or row is None else str(row[0])
    return ended, table_id, table, game


# ------------------------------------------------------------------ queries


async def forget(db: Connection, player: str) -> None:
    """Delete a player's statistics and ratings (``forget-me``); inside the caller's transaction. The others'
    rows stay, without the partner they had: their figures do not change, only who it was is gone."""
    for table in ("hand_stats", "match_stats", "ratings", "rating_changes"):
        await db.execute(f"DELETE FROM {table} WHERE player = ?", (player,))
    await db.execute("UPDATE match_stats SET partner = NULL WHERE partner = ?", (player,))


async def player_stats(db: Connection, player: str, scope: int | None) -> PlayerStats:
    """Everything ``/stats`` shows of ``player``: over all their matches; the rating in ``scope`` (a server)
    and globally."""
    counts: dict[str, int] = {}
    async with db.execute("SELECT result, count(*) FROM match_stats WHERE player = ? GROUP BY result",
                          (player,)) as cursor:
        for result, count in await cursor.fetchall():
            counts[result] = count
    async with db.execute(
            "SELECT count(*), coalesce(sum(chose), 0), coalesce(sum(chose * made), 0), coalesce(sum(chose * nat), 0), "
            "coalesce(sum(pit), 0), coalesce(sum(roem), 0), coalesce(sum(score), 0) FROM hand_stats WHERE player = ?",
            (player,)) as cursor:
        hands_row = await cursor.fetchone()
    assert hands_row is not None
    async with db.execute("SELECT trump, count(*) AS n FROM hand_stats WHERE player = ? AND chose = 1 "
                          "GROUP BY trump ORDER BY n DESC, trump LIMIT 1", (player,)) as cursor:
        trump_row = await cursor.fetchone()
    # The partner they played most with, people before AI levels; their record together.
    async with db.execute(
            "SELECT partner, count(*) AS n, sum(CASE WHEN result = 'won' THEN 1 ELSE 0 END), "
            "sum(CASE WHEN result = 'drawn' THEN 1 ELSE 0 END), sum(CASE WHEN result = 'lost' THEN 1 ELSE 0 END) "
            "FROM match_stats WHERE player = ? AND partner IS NOT NULL AND partner != ? "
            "AND result IN ('won', 'drawn', 'lost') "
            "GROUP BY partner ORDER BY partner LIKE 'u:%' DESC, n DESC, partner LIMIT 1", (player, player)) as cursor:
        partner_row = await cursor.fetchone()
    scoped = await _rating_row(db, scope, player) if scope is not None else None
    global_row = await _rating_row(db, GLOBAL_SCOPE, player)
    chart_scope = scope if scoped is not None and scope is not None else GLOBAL_SCOPE
    async with db.execute(
            "SELECT at, mu, sigma FROM (SELECT at, mu, sigma FROM rating_changes WHERE scope = ? AND player = ? "
            "ORDER BY at DESC LIMIT ?) AS latest ORDER BY at", (chart_scope, player, HISTORY_POINTS)) as cursor:
        history = [(str(at), float(mu), float(sigma)) for at, mu, sigma in await cursor.fetchall()]
    async with db.execute(
            "SELECT substr(settled_at, 1, 7) AS month, avg(score), count(*) FROM hand_stats WHERE player = ? "
            "GROUP BY month ORDER BY month DESC LIMIT ?", (player, MONTHS_SHOWN)) as cursor:
        monthly = [(str(m), float(avg), int(n)) for m, avg, n in reversed(list(await cursor.fetchall()))]
    return PlayerStats(
        player=player, won=counts.get("won", 0), drawn=counts.get("drawn", 0), lost=counts.get("lost", 0),
        abandoned=counts.get("abandoned", 0), unfinished=counts.get("unfinished", 0), hands=hands_row[0],
        chose=hands_row[1], chose_made=hands_row[2], chose_nat=hands_row[3], pits=hands_row[4], roem=hands_row[5],
        score=hands_row[6], favourite_trump=trump_row[0] if trump_row is not None else None,
        partner=PartnerRecord(partner_row[0], partner_row[1], partner_row[2], partner_row[3], partner_row[4])
        if partner_row is not None else None,
        rating=scoped[0] if scoped is not None else None, rating_matches=scoped[1] if scoped is not None else 0,
        global_rating=global_row[0] if global_row is not None else None,
        accuracy=await accuracy(db, player), rating_history=history, monthly=monthly)


async def _rating_row(db: Connection, scope: int, player: str) -> tuple[Rating, int] | None:
    async with db.execute("SELECT mu, sigma, matches FROM ratings WHERE scope = ? AND player = ?",
                          (scope, player)) as cursor:
        row = await cursor.fetchone()
    return (Rating(row[0], row[1]), int(row[2])) if row is not None else None


async def accuracy(db: Connection, player: str) -> float | None:
    """The accuracy of the player's reviewed decisions (``engine.ai.review_summary.accuracy_of`` over all their
    reviewed matches, bot.tables.reviews); None while none of their matches is reviewed, and for AI levels, whose
    decisions are not reviewed. A tournament's matches count once it is closed (``bot.access.counts_in_stats``)."""
    user_id = user_of(player)
    if user_id is None:
        return None
    async with db.execute("SELECT rp.kept, rp.stake, tr.status FROM review_players rp JOIN reviews r "
                          "ON r.table_id = rp.table_id JOIN tables t ON t.id = rp.table_id LEFT JOIN tournaments tr "
                          "ON tr.id = t.tournament_id WHERE rp.user_id = ? AND r.status = 'done'",
                          (user_id,)) as cursor:
        rows = [row for row in await cursor.fetchall() if counts_in_stats(stored_status(row[2]))]
    if not rows:
        return None
    return accuracy_of(sum(float(row[0]) for row in rows), sum(float(row[1]) for row in rows))


def stored_status(status: str | None) -> TournamentStatus | None:
    """A tournament's status as a query with its tables reads it (None: the table is no tournament's)."""
    return TournamentStatus(status) if status is not None else None


async def leaderboard(db: Connection, scope: int, since: str | None, page: int, per_page: int,
                      min_matches: int = MIN_MATCHES) -> BoardPage:
    """One page of the players ranked by conservative rating in ``scope``; with ``since`` (an ISO time) only
    those with ``min_matches`` rated matches since then, counted in that period."""
    if since is None:
        async with db.execute("SELECT count(*) FROM ratings WHERE scope = ? AND matches >= ?",
                              (scope, min_matches)) as cursor:
            row = await cursor.fetchone()
        total = int(row[0]) if row is not None else 0
        pages = max(1, math.ceil(total / per_page))
        page = min(max(page, 0), pages - 1)
        async with db.execute(
                "SELECT player, mu, sigma, matches FROM ratings WHERE scope = ? AND matches >= ? "
                "ORDER BY conservative DESC, player LIMIT ? OFFSET ?",
                (scope, min_matches, per_page, page * per_page)) as cursor:
            rows = await cursor.fetchall()
    else:
        # The period's players from the index by time (not by player: a period is a small slice of the history);
        # the page and the number of players in one pass.
        period = ("WITH active AS (SELECT player, count(*) AS n FROM rating_changes"
                  f"{db.dialect.indexed_by('rating_changes_period')} "
                  "WHERE scope = ? AND at >= ? GROUP BY player HAVING count(*) >= ?) "
                  "SELECT r.player, r.mu, r.sigma, active.n, count(*) OVER () FROM active JOIN ratings r "
                  "ON r.scope = ? AND r.player = active.player ORDER BY r.conservative DESC, r.player LIMIT ? OFFSET ?")
        page = max(page, 0)
        async with db.execute(period, (scope, since, min_matches, scope, per_page, page * per_page)) as cursor:
            rows = list(await cursor.fetchall())
        if not rows and page > 0:  # past the last page (the board shrank): show the last one
            async with db.execute(period, (scope, since, min_matches, scope, 1, 0)) as cursor:
                first = await cursor.fetchone()
            if first is not None:
                last = (int(first[4]) - 1) // per_page
                return await leaderboard(db, scope, since, last, per_page, min_matches)
        total = int(rows[0][4]) if rows else 0
        pages = max(1, math.ceil(total / per_page))
    entries = [BoardEntry(page * per_page + i + 1, row[0], Rating(row[1], row[2]), int(row[3]))
               for i, row in enumerate(rows)]
    return BoardPage(entries, page, pages, total)


async def history(db: Connection, guild_id: int, player: str, limit: int) -> list[HistoryEntry]:
    """The player's latest matches in this server, newest first, with everyone who played in them."""
    async with db.execute(
            "SELECT table_id, ended_at, result, team, team_total, other_total, settings, guild_id, channel_id, "
            "thread_id FROM match_stats WHERE guild_id = ? AND player = ? ORDER BY ended_at DESC, table_id DESC "
            "LIMIT ?", (guild_id, player, limit)) as cursor:
        rows = await cursor.fetchall()
    if not rows:
        return []
    ids = [row[0] for row in rows]
    marks = placeholders(len(ids))
    teams: dict[int, dict[str, list[str]]] = {table_id: {"NS": [], "EW": []} for table_id in ids}
    order = {seat.letter: int(seat) for seat in SEATS}
    async with db.execute(f"SELECT table_id, player, team, seat FROM match_stats WHERE table_id IN ({marks})",
                          ids) as cursor:
        members = sorted(await cursor.fetchall(), key=lambda r: (r[0], order[r[3]], r[1]))
    for table_id, member, team, _seat in members:
        if member not in teams[table_id][team]:
            teams[table_id][team].append(member)
    return [HistoryEntry(table_id=row[0], ended_at=str(row[1]), result=row[2], team=row[3], players=teams[row[0]],
                         team_total=row[4], other_total=row[5], settings=json.loads(row[6]), guild_id=row[7],
                         channel_id=row[8], thread_id=row[9]) for row in rows]
