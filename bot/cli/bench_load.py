"""``klaverjas bench load``: many tables at once in one bot process, against the offline fake Discord.

Each table is opened with ``/klaverjas start`` in a channel of its own, its scripted humans join and
the host starts it; from then on they click what Discord shows them (an enabled card of their DM hand,
a bid on a prompt naming them), as soon as it shows, and the other seats are AI players. The fake
Discord answers every request ``discord_delay_ms`` after it arrives. Printed figures:

- ``interactions_per_s``: interactions the bot received per second, from the first to the last table's end;
- ``p50_ms``/``p99_ms``: from an interaction's arrival to its first answer (a scripted human asks for no
  hints, so no answer waits for an AI player);
- ``latency_by_kind``: the same apart for each kind of interaction ("/klaverjas start", "click c" a card,
  "click b" a bid, "click l start" a lobby's Start button), each with its count ``n``;
- ``loop_lag_p99_ms``: how late a 20 ms sleep on the bot's event loop wakes up, sampled while AI players think;
- ``mb_per_table``: the process's peak RSS growth over the run per table (the fake Discord's messages
  are in that process too, so it is an upper bound);
- ``db_kb_per_match``: growth of the data in the SQLite file per finished match (of ``hands`` hands);
- ``requests_per_trick``: Discord requests per trick, over whole matches (lobby and deals included);
- ``global_requests_per_trick``: those of them that count against the bot's global limit (every REST request;
  an interaction's callback, followups and edits through its token do not), and ``requests_by_route`` the same per
  route and place;
- ``tables_per_token``: busy tables (a trick every ``TRICK_SECONDS``) one bot token carries within the global limit.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.fake_discord.discord_side import FakeDiscord, StoredMessage, User
from bot.fake_discord.interactions import Interactions
from bot.fake_discord.offline_bot import OfflineBot
from bot.fake_discord.scripted import button_version, scripted_click
from bot.fake_discord.wire import next_id
from bot.store.backend import is_postgres_url
from bot.store.base import SqlStore
from bot.tables.service import ServiceConfig
from bot.workers import Lane
from engine.ai.players import Level
from engine.record import score_record

TICK = 0.02  # the loop-lag probe's sleep
GLOBAL_LIMIT = 50  # REST requests a second one bot token may make, however many processes share it
TRICK_SECONDS = 15  # a busy table: four people play a trick in about this long
RESPONSE_POLL = 0.01


@dataclass(frozen=True)
class LoadOptions:
    tables: int = 20
    humans_per_table: int = 1
    discord_delay_ms: float = 20.0
    hands: int = 1  # the match length of every table
    ai_level: Level = Level.HARD
    ai_workers: int = 1
    think_ms: float = 0.0  # how long a scripted human looks before clicking
    ramp_s: float = 2.0  # table starts are spread over this long
    timeout_s: float = 3600.0
    db: Path | str | None = None  # a SQLite file, or a PostgreSQL URL (DATABASE_URL)


@dataclass
class LoadTable:
    index: int
    channel_id: int
    humans: list[User]
    table_id: int | None = None
    lobby: StoredMessage | None = None
    lobby_seen: asyncio.Event = field(default_factory=asyncio.Event)
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    last_click: dict[int, int] = field(default_factory=dict)  # user id -> version of their last click

    @property
    def host(self) -> User:
        return self.humans[0]


class LoadRun:
    def __init__(self, options: LoadOptions, db: Path | str) -> None:
        self.options = options
        self.db = db
        self.fake = FakeDiscord(delay=options.discord_delay_ms / 1000, keep_requests=False)
        self.fake.watchers.append(self.on_message)
        # Play only: the match reviews that follow each match have a benchmark of their own (bench review).
        config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=3600, reviews=False)
        self.offline = OfflineBot(db, self.fake, config, ai_workers=options.ai_workers, warm_up=True,
                                  drawing_workers=1)
        self.interactions = Interactions(self.fake)
        self.tables: list[LoadTable] = []
        self.by_channel: dict[int, LoadTable] = {}
        self.by_user: dict[int, LoadTable] = {}
        self.interaction_count = 0
        self.thinking = 0
        self.decision_ms: list[float] = []
        self.lags_while_thinking: list[float] = []
        self.peak_rss = 0
        self._running = True

    # ------------------------------------------------------------ the scripted people

    def on_message(self, message: StoredMessage) -> None:
        """Discord shows a message: a lobby to remember, a match's end, or something to click."""
        channel = self.fake.thread_parent.get(message.channel_id, message.channel_id)
        table = self.by_user.get(message.dm_user) if message.dm_user is not None else self.by_channel.get(channel)
        if table is None:
            return
        ids = message.custom_ids()
        if table.lobby is None and any(i.startswith("kj:l:") for i in ids):
            table.lobby = message
            table.table_id = int(ids[0].split(":")[2])
            table.lobby_seen.set()
        if any(i.startswith("kj:rm:") for i in ids):
            table.finished.set()
        for user in table.humans:
            choice = scripted_click(message, user.id)
            version = button_version(choice) if choice is not None else None
            if choice is None or version is None or version <= table.last_click.get(user.id, -1):
                continue
            table.last_click[user.id] = version
            loop = asyncio.get_running_loop()
            loop.call_later(self.options.think_ms / 1000, self.click, user, message, choice)

    def click(self, user: User, message: StoredMessage, custom_id: str) -> str:
        self.interaction_count += 1
        return self.offline.dispatch(self.interactions.click(user, message, custom_id))

    async def answered(self, token: str) -> None:
        while token not in self.fake.first_response:
            await asyncio.sleep(RESPONSE_POLL)

    async def play_table(self, table: LoadTable, start_after: float) -> None:
        await asyncio.sleep(start_after)
        self.interaction_count += 1
        self.offline.dispatch(self.interactions.command(table.host, "start", table.channel_id,
                                                        ai=self.options.ai_level.value, length=str(self.options.hands)))
        await table.lobby_seen.wait()
        assert table.lobby is not None and table.table_id is not None
        for guest in table.humans[1:]:
            await self.answered(self.click(guest, table.lobby, f"kj:l:{table.table_id}:join"))
        self.click(table.host, table.lobby, f"kj:l:{table.table_id}:start")
        await table.finished.wait()

    # ------------------------------------------------------------ probes

    def count_thinking(self) -> None:
        """Count the AI decisions under way (the loop-lag probe samples only while there are some)."""
        assert self.offline.bot is not None
        thinker = self.offline.bot.thinker
        choose = thinker.choose

        async def counted(level: Level, seed: int, view: Any, timed: bool = True) -> Any:
            self.thinking += 1
            started = time.perf_counter()
            try:
                return await choose(level, seed, view, timed)
            finally:
                self.thinking -= 1
                self.decision_ms.append((time.perf_counter() - started) * 1000)

        thinker.choose = counted  # type: ignore[method-assign]

    async def probe(self) -> None:
        while self._running:
            started = time.perf_counter()
            thinking = self.thinking > 0
            await asyncio.sleep(TICK)
            if thinking and self.thinking > 0:
                self.lags_while_thinking.append(max(0.0, time.perf_counter() - started - TICK))
            self.peak_rss = max(self.peak_rss, rss_bytes())

    # ------------------------------------------------------------ the run

    async def run(self) -> dict[str, Any]:
        options = self.options
        async with self.offline as offline:
            bot = offline.bot
            assert bot is not None
            if bot._warm_task is not None:
                await bot._warm_task  # the AI workers compile before anything is measured
            self.count_thinking()
            # One table first, not counted: the first images load fonts and the first decisions fill caches.
            await self.play_table(self.new_table(), 0.0)
            await offline.settle()
            self.forget_warm_up()
            self.tables = [self.new_table() for _ in range(options.tables)]
            db_before = await db_bytes(bot.store)
            rss_before = self.peak_rss = rss_bytes()
            cpu_before = self.cpu_seconds()
            probe = asyncio.get_running_loop().create_task(self.probe())
            started = time.perf_counter()
            spread = options.ramp_s / max(1, options.tables - 1)
            plays = [self.play_table(table, index * spread) for index, table in enumerate(self.tables)]
            try:
                await asyncio.wait_for(asyncio.gather(*plays), options.timeout_s)
                timed_out = False
            except TimeoutError:
                timed_out = True
            elapsed = time.perf_counter() - started
            cpu = tuple(after - before for after, before in zip(self.cpu_seconds(), cpu_before, strict=True))
            self._running = False
            await probe
            if not timed_out:
                await offline.settle()  # the last announcements, before the fake is taken away
            finished = [t for t in self.tables if t.finished.is_set() and t.table_id is not None]
            records = [await bot.store.record(t.table_id) for t in finished if t.table_id is not None]
            db_growth = await db_bytes(bot.store) - db_before
        return self.figures(elapsed, rss_before, db_growth, records, finished, timed_out, cpu)

    def new_table(self) -> LoadTable:
        index = len(self.by_channel)
        humans = [User(next_id(), f"P{index}.{seat}") for seat in range(self.options.humans_per_table)]
        table = LoadTable(index, next_id(), humans)
        self.by_channel[table.channel_id] = table
        for human in humans:
            self.by_user[human.id] = table
        return table

    def forget_warm_up(self) -> None:
        self.fake.arrived.clear()
        self.fake.first_response.clear()
        self.fake.request_count = 0
        self.fake.requests_by_route.clear()
        self.interaction_count = 0
        self.decision_ms.clear()

    def cpu_seconds(self) -> tuple[float, float, float]:
        """CPU seconds used so far by this process (the bot, every thread), by the AI worker processes and by the
        images' drawing process."""
        assert self.offline.bot is not None
        thinker = self.offline.bot.thinker

        def used(lanes: tuple[Lane, ...]) -> float:
            return sum(process_cpu_seconds(pid) for lane in lanes  # private, but only a benchmark reads it
                       for pid in (getattr(lane._executor, "_processes", None) or {}))

        return time.process_time(), used((thinker.moves, thinker.hints)), used((self.offline.bot.announcer.drawing,))

    def figures(self, elapsed: float, rss_before: int, db_growth: int, records: list[dict[str, Any]],
                finished: list[LoadTable], timed_out: bool, cpu: tuple[float, ...]) -> dict[str, Any]:
        options = self.options
        latencies = sorted(ms * 1000 for ms in self.fake.latencies())
        tricks = sum(len(hand["plays"]) // 4 for record in records for hand in record["hands"])
        requests = sum(self.requests_of(t) for t in finished)
        by_route = self.fake.requests_by_route
        global_requests = sum(count for route, count in by_route.items() if route.startswith("REST"))
        global_per_trick = global_requests / tricks if tricks else None
        return {
            "tables": options.tables,
            "interactions_per_s": round(self.interaction_count / elapsed, 1) if elapsed else 0.0,
            "p50_ms": percentile(latencies, 0.50),
            "p99_ms": percentile(latencies, 0.99),
            "loop_lag_p99_ms": percentile(sorted(lag * 1000 for lag in self.lags_while_thinking), 0.99),
            "mb_per_table": round((self.peak_rss - rss_before) / options.tables / 2**20, 2),
            "db_kb_per_match": round(db_growth / len(records) / 1024, 1) if records else None,
            "requests_per_trick": round(requests / tricks, 2) if tricks else None,
            "global_requests_per_trick": round(global_per_trick, 2) if global_per_trick is not None else None,
            "tables_per_token": int(GLOBAL_LIMIT * TRICK_SECONDS / global_per_trick) if global_per_trick else None,
            # Which interactions are slow: the start burst's commands, or the clicks of tables in play.
            "latency_by_kind": {kind: {"n": len(ms), "p50_ms": percentile(ms, 0.50), "p99_ms": percentile(ms, 0.99)}
                                for kind, ms in sorted((kind, sorted(s * 1000 for s in seconds)) for kind, seconds
                                                       in self.fake.latencies_by_kind().items())},
            "requests_by_route": {route: round(count / tricks, 3) for route, count
                                  in sorted(by_route.items(), key=lambda item: -item[1])} if tricks else {},
            # The conditions, and what else was seen.
            "store": "postgres" if is_postgres_url(str(self.db)) else "sqlite",
            "humans_per_table": options.humans_per_table,
            "hands_per_match": options.hands,
            "ai_level": options.ai_level.value,
            "ai_workers": options.ai_workers,
            "discord_delay_ms": options.discord_delay_ms,
            "seconds": round(elapsed, 1),
            "interactions": self.interaction_count,
            "requests": self.fake.request_count,
            "finished": len(finished),
            "valid_records": sum(1 for record in records if score_record(record)["ok"]),
            "timed_out": timed_out,
            "ai_decisions": len(self.decision_ms),
            "ai_decision_p50_ms": round(statistics.median(self.decision_ms), 1) if self.decision_ms else None,
            "loop_lag_max_ms": round(max(self.lags_while_thinking, default=0.0) * 1000, 1),
            # Where the time goes: the bot process (all its threads) and the AI workers, per trick played.
            "bot_cpu_ms_per_trick": round(cpu[0] * 1000 / tricks, 1) if tricks else None,
            "ai_cpu_ms_per_trick": round(cpu[1] * 1000 / tricks, 1) if tricks else None,
            "drawing_cpu_ms_per_trick": round(cpu[2] * 1000 / tricks, 1) if tricks else None,
        }

    def requests_of(self, table: LoadTable) -> int:
        """Requests about one table: its channel, its thread and its players' DMs."""
        places = {table.channel_id}
        places.update(thread for thread, parent in self.fake.thread_parent.items() if parent == table.channel_id)
        humans = {human.id for human in table.humans}
        places.update(channel for channel, user in self.fake.dm_channels.items() if user in humans)
        return sum(self.fake.requests_by_channel.get(place, 0) for place in places)


def percentile(ordered: list[float], q: float) -> float | None:
    if not ordered:
        return None
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def rss_bytes() -> int:
    """This process's resident memory now (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def process_cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of another process (Linux); 0 where /proc cannot tell."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def db_bytes(store: SqlStore) -> int:
    """Bytes in use in the database, the write-ahead log's pages included (one match fills part of a page, so
    counting whole pages would say 0 for a small run); whole pages where SQLite lacks the dbstat table, and in
    PostgreSQL (the database's size on disk)."""
    if store.dialect.name == "postgres":
        async with store.db.execute("SELECT pg_database_size(current_database())") as cursor:
            row = await cursor.fetchone()
        return int(row[0])
    try:
        async with store.db.execute("SELECT sum(pgsize - unused) FROM dbstat") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row is not None else 0
    except sqlite3.OperationalError:
        pass
    sizes = []
    for pragma in ("page_count", "page_size"):
        async with store.db.execute(f"PRAGMA {pragma}") as cursor:
            row = await cursor.fetchone()
        sizes.append(int(row[0]) if row is not None else 0)
    return sizes[0] * sizes[1]


def bench_load(options: LoadOptions) -> dict[str, Any]:
    if options.db is not None:
        return asyncio.run(LoadRun(options, options.db).run())
    with tempfile.TemporaryDirectory(prefix="klaverjas-load-") as folder:
        return asyncio.run(LoadRun(options, Path(folder) / "load.sqlite3").run())

