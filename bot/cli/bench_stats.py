"""``klaverjas bench stats``: the statistics queries on a large scratch database.

Generated rows go straight into the tables of migration 0006 with SQL (no games are played): matches of 16
hands between players drawn from a pool, on a few servers over two years, one player (``u:1``) in every
hundredth match, so 1,000,000 hands give that player 10,000. Then the queries ``/stats``, ``/leaderboard``
and ``/klaverjas history`` run are timed through the store, as the bot calls them (median of a few runs).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.stats.ratings import GLOBAL_SCOPE, MIN_MATCHES
from bot.store.base import SqlStore
from bot.store.sqlite import SqliteStore

HANDS_PER_MATCH = 16
PLAYER = "u:1"
PLAYER_EVERY = 100  # the player sits North in every hundredth match
GUILDS = 20
POOL = 5000  # other people
START = 1_700_000_000  # the first match's end, seconds since 1970
SPAN_S = 2 * 365 * 24 * 3600  # the matches spread over two years
RUNS = 7
BOARD_PAGE = 10


def _generate(path: Path, hands: int) -> None:
    """Fill the statistics tables with ``hands`` hands (in whole matches) and their matches and ratings."""
    import sqlite3

    matches = max(1, hands // HANDS_PER_MATCH)
    step = SPAN_S / matches
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    # The indexes are built once after the rows are in (the migration's own definitions): much faster.
    indexes = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name "
                         "IN ('hand_stats', 'match_stats', 'ratings', 'rating_changes')").fetchall()
    for name, _ in indexes:
        db.execute(f"DROP INDEX {name}")
    # One row per match: its server, its end, its four players (AI levels among the people, as at real tables).
    db.execute(f"""
        CREATE TEMP TABLE m AS WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM n WHERE id < {matches})
        SELECT id, 900 + id % {GUILDS} AS guild,
               strftime('%Y-%m-%dT%H:%M:%fZ', {START} + id * {step}, 'unixepoch') AS ended,
               CASE WHEN id % {PLAYER_EVERY} = 0 THEN '{PLAYER}' ELSE 'u:' || (2 + (id * 7919) % {POOL}) END AS pn,
               CASE id % 3 WHEN 0 THEN 'ai:hard' ELSE 'u:' || (2 + (id * 104729 + 1) % {POOL}) END AS pe,
               'u:' || (2 + (id * 1299709 + 2) % {POOL}) AS ps,
               CASE id % 4 WHEN 0 THEN 'ai:normal' WHEN 1 THEN 'ai:easy'
                    ELSE 'u:' || (2 + (id * 15485863 + 3) % {POOL}) END AS pw
        FROM n""")
    db.execute("""INSERT INTO tables (id, guild_id, channel_id, thread_id, host_id, status, settings, seed)
                  SELECT id, guild, guild * 10, id * 10, 1, 'finished', '{}', id FROM m""")
    db.execute("CREATE TEMP TABLE s(seat, team, k)")
    db.executemany("INSERT INTO s VALUES (?, ?, ?)", [("N", "NS", 0), ("E", "EW", 1), ("S", "NS", 2), ("W", "EW", 3)])
    db.execute(f"CREATE TEMP TABLE h AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n "
               f"WHERE i < {HANDS_PER_MATCH - 1}) SELECT i FROM n")
    # The hand's facts from its numbers: who chose (seat i % 4), whether it was made (4 in 5), roem, pit.
    db.execute(f"""
        INSERT INTO hand_stats (table_id, hand, seat, guild_id, player, team, chose, trump, playing, made, nat, pit,
                                points, roem, score, settled_at)
        SELECT m.id, h.i, s.seat, m.guild,
               CASE s.k WHEN 0 THEN m.pn WHEN 1 THEN m.pe WHEN 2 THEN m.ps ELSE m.pw END, s.team,
               s.k = (m.id + h.i) % 4, substr('CDHS', 1 + (m.id * 3 + h.i) % 4, 1),
               s.k % 2 = (m.id + h.i) % 2,
               s.k % 2 = (m.id + h.i) % 2 AND (m.id + h.i) % 5 != 0,
               s.k % 2 = (m.id + h.i) % 2 AND (m.id + h.i) % 5 = 0,
               s.k % 2 = (m.id + h.i) % 2 AND (m.id * 7 + h.i) % 97 = 0,
               81 + (CASE WHEN s.k % 2 = 0 THEN 1 ELSE -1 END) * ((m.id * 31 + h.i * 17) % 60),
               (CASE WHEN (m.id + h.i + s.k % 2) % 6 = 0 THEN 20 ELSE 0 END),
               CASE WHEN (m.id + h.i) % 5 = 0 AND s.k % 2 = (m.id + h.i) % 2 THEN 0
                    ELSE 81 + (CASE WHEN s.k % 2 = 0 THEN 1 ELSE -1 END) * ((m.id * 31 + h.i * 17) % 60) END,
               strftime('%Y-%m-%dT%H:%M:%fZ', {START} + m.id * {step} - ({HANDS_PER_MATCH} - h.i) * 90, 'unixepoch')
        FROM m, h, s""")
    db.execute("""
        INSERT INTO match_stats (table_id, player, seat, team, partner, result, hands, team_total, other_total,
                                 rated, guild_id, channel_id, thread_id, settings, ended_at)
        SELECT m.id, CASE s.k WHEN 0 THEN m.pn WHEN 1 THEN m.pe WHEN 2 THEN m.ps ELSE m.pw END, s.seat, s.team,
               CASE s.k WHEN 0 THEN m.ps WHEN 1 THEN m.pw WHEN 2 THEN m.pn ELSE m.pe END,
               CASE WHEN m.id % 50 = 0 THEN 'drawn' WHEN (m.id + s.k) % 2 = 0 THEN 'won' ELSE 'lost' END,
               16, 1300 + m.id % 400, 1200 + m.id % 300, 1, m.guild, m.guild * 10, m.id * 10, '{}', m.ended
        FROM m, s WHERE true ON CONFLICT DO NOTHING""")
    for scope, group in (("0", "player"), ("m.guild", "m.guild, player")):
        db.execute(f"""
            INSERT INTO rating_changes (scope, player, table_id, mu_before, sigma_before, mu, sigma, at)
            SELECT {scope}, player, table_id, 25, 8, 25 + (table_id % 17) - 8, 3 + (table_id % 5), ended_at
            FROM match_stats JOIN m ON m.id = match_stats.table_id""")
        db.execute(f"""
            INSERT INTO ratings (scope, player, mu, sigma, conservative, matches, updated_at)
            SELECT {scope}, player, 20 + (count(*) % 13), 2 + 6.0 / count(*),
                   20 + (count(*) % 13) - 3 * (2 + 6.0 / count(*)), count(*), max(ended_at)
            FROM match_stats JOIN m ON m.id = match_stats.table_id GROUP BY {group}""")
    for _, sql in indexes:
        db.execute(sql)
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()


async def _median_ms(call: Callable[[], Awaitable[Any]]) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 2)


async def _measure(path: Path) -> dict[str, Any]:
    async with SqliteStore(path) as store:
        async with store.db.execute("SELECT guild_id FROM match_stats WHERE player = ? LIMIT 1", (PLAYER,)) as cursor:
            row = await cursor.fetchone()
        guild = int(row[0]) if row is not None else 0
        stats = await store.player_stats(PLAYER, guild)
        async with store.db.execute("SELECT max(at) FROM rating_changes") as cursor:
            row = await cursor.fetchone()
        last = str(row[0]) if row is not None else ""
        month = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(_epoch(last) - 30 * 24 * 3600))
        week = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(_epoch(last) - 7 * 24 * 3600))
        stats_ms = await _median_ms(lambda: store.player_stats(PLAYER, guild))
        boards = {}
        for scope_name, scope in (("global", GLOBAL_SCOPE), ("server", guild)):
            for period, since in (("all", None), ("month", month), ("week", week)):
                boards[f"{scope_name}_{period}"] = await _median_ms(_board(store, scope, since))
        history_ms = await _median_ms(lambda: store.history(guild, PLAYER, 10))
        board = await store.leaderboard(GLOBAL_SCOPE, None, 0, BOARD_PAGE)
        return {"stats_query_ms": stats_ms, "leaderboard_query_ms": max(boards.values()),
                "history_query_ms": history_ms, "leaderboard_ms_by_scope_and_period": boards,
                "player_hands": stats.hands, "player_matches": stats.played, "board_players": board.total}


def _board(store: SqlStore, scope: int, since: str | None) -> Callable[[], Awaitable[Any]]:
    return lambda: store.leaderboard(scope, since, 0, BOARD_PAGE, MIN_MATCHES)


def _epoch(at: str) -> float:
    import calendar

    return calendar.timegm(time.strptime(at[:19], "%Y-%m-%dT%H:%M:%S")) if at else time.time()


def bench_stats(hands: int = 1_000_000, db: Path | None = None) -> dict[str, Any]:
    """Generate the database (in ``db``, or a temporary file), then time the queries; one JSON-ready dict."""
    with tempfile.TemporaryDirectory(prefix="klaverjas-bench-stats-") as folder:
        path = db or Path(folder) / "stats.sqlite3"
        asyncio.run(_migrate(path))
        started = time.perf_counter()
        _generate(path, hands)
        generate_s = round(time.perf_counter() - started, 1)
        result = asyncio.run(_measure(path))
        size_mb = round(path.stat().st_size / 1e6, 1)
    matches = max(1, hands // HANDS_PER_MATCH)
    return {**result, "hands": matches * HANDS_PER_MATCH, "matches": matches, "generate_s": generate_s,
            "db_mb": size_mb, "runs": RUNS}


async def _migrate(path: Path) -> None:
    async with SqliteStore(path):
        pass
