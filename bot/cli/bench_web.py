"""``klaverjas bench web --clients N``: N browser-less pages, each playing one seat by WebSocket at a table of its own
with three AI seats, through the real web server (``bot.web``) and table service.

What runs where: the benchmark's own process is the server, as the bot runs it: the web server, the table service
with its AI seats, and the SQLite store (whose writes go through aiosqlite's thread), in one process and one event
loop. The pages run in a second process (``multiprocessing``, spawned), as browsers are elsewhere: they connect to the
server's port, play, and send their click timings back. So the server's figures are the server's, not shared with
its clients' sockets and JSON.

The AI seats choose their first legal action (a chooser that takes no time, called on the server's event loop: the
figures are the web table's, not the AI's), after the bot's usual pause (``ServiceConfig.ai_pause``). Each page
plays its seat as a person would, ``think_ms`` after its turn shows, and declines the claim question of declared
roem. Printed figures:

- ``click_p50_ms``/``click_p99_ms``: from a page sending its card or call to the state that shows it applied (the
  state comes before any AI seat thinks, so no AI time is in it), timed in the pages' process;
- ``mb_per_client``: the server process's RSS growth over the run per client;
- ``discord_requests_per_trick``: Discord requests per trick; 0, no Discord front end is attached (a table played
  only from the web costs Discord nothing);
- ``server_cpu_ms_per_click``: the server process's CPU time (web server, table service, AI seats and the store,
  its thread included) per click;
- ``cpu_ms_per_click``: the whole benchmark's CPU time per click, the server's and the pages' processes together
  (what one process of both measured before the pages had a process of their own);
- ``clicks``, ``tricks``, ``seconds``, ``errors`` (error frames the pages got: none expected);
- what held the server up, to tell a slow click's cause: ``loop_lag_p99_ms``/``loop_lag_max_ms`` (how late a
  ``TICK`` sleep on the server's event loop wakes up), ``gc_pauses``/``gc_pause_max_ms`` (the server process's
  cyclic-collector pauses, in any of its threads), and ``slow_clicks`` (over ``SLOW_CLICK_MS``) with how many of
  them were under way during a collector pause (``slow_clicks_during_collection``) or a loop stall over
  ``STALL_MS`` (``slow_clicks_during_loop_stall``). The rest waited with the loop running: for the store's
  writes, or for the pages' own process.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import multiprocessing
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, ClientTimeout, TCPConnector, WSMsgType

from bot.cli.bench_load import TICK, percentile, rss_bytes
from bot.collector import quiet_collector
from bot.store.sqlite import SqliteStore
from bot.tables.model import TableSettings
from bot.tables.service import ServiceConfig, TableService
from bot.web.config import WebConfig
from bot.web.server import WebServer
from bot.web.tokens import SEAT_TTL, TokenKind, sign
from engine.actions import Call, Choice
from engine.ai.players import Level
from engine.settings import Rules
from engine.view import SeatView

ORIGIN = "http://127.0.0.1"
FIRST_PERSON = 10_000
PAGES_EXIT = 30.0  # seconds the pages' process gets to end once this run is over
SLOW_CLICK_MS = 50.0  # the target of a click's p99 at 1,000 pages: the clicks slower than this are looked into
STALL_MS = 20.0  # a loop lag over this counts as a stall


@dataclass(frozen=True)
class WebLoadOptions:
    clients: int = 100
    hands: int = 1
    think_ms: float = 500.0
    ramp_s: float = 2.0  # the pages connect and their tables start spread over this long
    db: Path | None = None  # SQLite file (default: a temporary one)
    ai_pause: float | None = None  # seconds before an AI seat acts and between hands (None: the bot's defaults)
    store: bool = True  # False: no store at all (to tell the store's share of the time apart)


def first_legal(level: Level, seed: int, view: SeatView) -> Choice:
    return view.legal[0]


@dataclass(frozen=True)
class PageSeat:
    """What a page is given: its person's seat token and the table."""

    person: int
    table_id: int
    token: str


class Page:
    """One browser-less page at one seat (in the pages' process)."""

    def __init__(self, seat: PageSeat, think_ms: float, said_hello: Callable[[int], None]) -> None:
        self.seat, self.think_ms, self.said_hello = seat, think_ms, said_hello
        # (sent at, seconds to the state): time.perf_counter, on Linux the machine's monotonic clock, which the
        # server's process reads too (``ServerStalls``)
        self.clicks: list[tuple[float, float]] = []
        self.errors = 0
        self.tricks = 0

    async def play(self, http: ClientSession, url: str) -> None:
        async with http.ws_connect(url, headers={"Origin": ORIGIN}, max_msg_size=0) as ws:
            await ws.send_str(json.dumps({"type": "hello", "token": self.seat.token}))
            sent: tuple[int, float] | None = None  # the version clicked at, and when
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    break
                frame = json.loads(message.data)
                kind = frame["type"]
                if kind == "welcome":
                    self.said_hello(self.seat.table_id)  # the server knows the page: its table may start
                    continue
                if kind == "error":
                    self.errors += 1
                    continue
                if kind == "event":
                    event = frame["event"]["kind"]
                    self.tricks += event == "trick"
                    if event == "over":
                        return
                    continue
                if kind != "state":
                    continue
                version = frame["version"]
                if sent is not None and version > sent[0]:
                    self.clicks.append((sent[1], time.perf_counter() - sent[1]))
                    sent = None
                view = frame["view"]
                if view["table"]["status"] in ("finished", "stopped"):
                    return
                choice = self.choice(view.get("me") or {})
                if choice is None or sent is not None:
                    continue
                if self.think_ms:
                    await asyncio.sleep(self.think_ms / 1000)
                sent = (version, time.perf_counter())
                await ws.send_str(json.dumps({**choice, "version": version}))

    @staticmethod
    def choice(me: dict[str, Any]) -> dict[str, Any] | None:
        if me.get("may_decline"):
            return {"type": "decline"}
        if not me.get("my_turn"):
            return None
        if me["legal_cards"]:
            return {"type": "act", "card": me["legal_cards"][0]}
        calls = me["legal_calls"]
        if not calls:
            return None
        # A person plays when they may (the bidding ends at once), else passes or names the first suit.
        call = Call.PLAY.value if Call.PLAY.value in calls else calls[0]
        return {"type": "act", "call": call}


def run_pages(url: str, seats: list[PageSeat], think_ms: float, server: Connection) -> None:
    """The pages' process: every page plays its seat to the end. Tells ``server`` ("ready"), each page's hello
    answered ("hello", table id), and at the end ("done", the pages' figures)."""
    # The pages stand for browsers, each with a heap of its own: one process's collector pausing a thousand of them
    # at once would time the benchmark, not the server.
    quiet_collector()
    asyncio.run(_play_pages(url, seats, think_ms, server))


async def _play_pages(url: str, seats: list[PageSeat], think_ms: float, server: Connection) -> None:
    cpu = time.process_time()
    pages = [Page(seat, think_ms, lambda table_id: server.send(("hello", table_id))) for seat in seats]
    server.send(("ready", None))
    async with ClientSession(connector=TCPConnector(limit=0), timeout=ClientTimeout(total=None)) as http:
        await asyncio.gather(*(page.play(http, url) for page in pages))
    server.send(("done", {"clicks": [c for page in pages for c in page.clicks],
                          "tricks": sum(page.tricks for page in pages), "errors": sum(page.errors for page in pages),
                          "cpu": time.process_time() - cpu}))


class ServerStalls:
    """What held up the server's process during a run, as intervals on ``time.perf_counter``'s clock: its event
    loop's lag (a ``TICK`` sleep woken late: from when it was due, how late) and the cyclic collector's pauses."""

    def __init__(self) -> None:
        self.lags: list[tuple[float, float]] = []  # (due, seconds late)
        self.pauses: list[tuple[float, float]] = []  # (began, seconds)
        self._collecting: float | None = None
        self._probe: asyncio.Task[None] | None = None

    def start(self) -> None:
        gc.callbacks.append(self._collected)
        self._probe = asyncio.get_running_loop().create_task(self._sample())

    async def stop(self) -> None:
        gc.callbacks.remove(self._collected)
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probe

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        # One collection at a time in the process, whichever thread runs it (the collector holds the GIL).
        now = time.perf_counter()
        if phase == "start":
            self._collecting = now
        elif self._collecting is not None:
            self.pauses.append((self._collecting, now - self._collecting))
            self._collecting = None

    async def _sample(self) -> None:
        while True:
            due = time.perf_counter() + TICK
            await asyncio.sleep(TICK)
            self.lags.append((due, max(0.0, time.perf_counter() - due)))

    def figures(self, clicks: list[tuple[float, float]]) -> dict[str, Any]:
        """The stalls' figures, and how many of the slow ``clicks`` (sent at, seconds) were under way during one."""
        lags = sorted(late * 1000 for _, late in self.lags)
        stalls = [(due, late) for due, late in self.lags if late * 1000 > STALL_MS]
        slow = [(sent, took) for sent, took in clicks if took * 1000 > SLOW_CLICK_MS]
        return {
            "loop_lag_p99_ms": percentile(lags, 0.99),
            "loop_lag_max_ms": round(lags[-1], 1) if lags else None,
            "gc_pauses": len(self.pauses),
            "gc_pause_max_ms": round(max((took for _, took in self.pauses), default=0.0) * 1000, 1),
            "slow_clicks": len(slow),
            "slow_clicks_during_collection": sum(_during(click, self.pauses) for click in slow),
            "slow_clicks_during_loop_stall": sum(_during(click, stalls) for click in slow),
        }


def _during(click: tuple[float, float], spans: list[tuple[float, float]]) -> bool:
    """Whether the click (sent at, seconds) was under way during any of ``spans`` (began, seconds)."""
    sent, took = click
    return any(began < sent + took and sent < began + length for began, length in spans)


class WebLoadRun:
    def __init__(self, options: WebLoadOptions, db: Path) -> None:
        self.options = options
        self.db = db
        self.config = WebConfig(secret=secrets.token_urlsafe(24), public_url=ORIGIN, host="127.0.0.1", port=0)
        self.service: TableService | None = None
        self._connected: dict[int, asyncio.Event] = {}
        self._ready: asyncio.Event | None = None
        self._done: asyncio.Future[dict[str, Any]] | None = None

    def _heard(self, pages: Connection) -> None:
        """A message from the pages' process (read as it comes, on the event loop)."""
        assert self._ready is not None and self._done is not None
        try:
            while pages.poll():
                what, data = pages.recv()
                if what == "hello":
                    self._connected[data].set()
                elif what == "ready":
                    self._ready.set()
                elif not self._done.done():
                    self._done.set_result(data)
        except (EOFError, OSError):  # the process ended without its figures
            asyncio.get_running_loop().remove_reader(pages.fileno())
            self._ready.set()
            if not self._done.done():
                self._done.set_exception(RuntimeError("the pages' process ended without its figures"))

    async def run(self) -> dict[str, Any]:
        options = self.options
        loop = asyncio.get_running_loop()
        self._ready, self._done = asyncio.Event(), loop.create_future()
        before = rss_bytes()
        cpu = time.process_time()
        async with SqliteStore(self.db) as store:
            # The bot's own pauses (an AI seat waits ``ai_pause`` before it acts, a hand ``deal_pause`` before the
            # next deal): tables play at the pace people see, not as fast as the store can write.
            config = ServiceConfig(turn_time=600, reviews=False, tables_per_host=1)
            if options.ai_pause is not None:
                config.ai_pause = config.deal_pause = options.ai_pause
            service = TableService(store if options.store else None, config, choose=first_legal, choose_on_loop=True)
            self.service = service
            server = WebServer(service, self.config)
            await server.start()
            url = f"http://127.0.0.1:{server.port}/ws"
            settings = TableSettings(Rules().with_changes(length=str(options.hands)), ai_level=Level.EASY)
            seats = []
            for i in range(options.clients):
                person = FIRST_PERSON + i
                table = await service.create_table(host_id=person, host_name=f"P{i}", settings=settings,
                                                   guild_id=1, channel_id=100_000 + i, seed=i)
                token = sign(self.config.secret, person, TokenKind.SEAT, table.id, ttl=SEAT_TTL)
                seats.append(PageSeat(person, table.id, token))
                self._connected[table.id] = asyncio.Event()
            mine, theirs = multiprocessing.get_context("spawn").Pipe()
            process = multiprocessing.get_context("spawn").Process(
                target=run_pages, args=(url, seats, options.think_ms, theirs), name="klaverjas-web-pages")
            process.start()
            theirs.close()
            loop.add_reader(mine.fileno(), self._heard, mine)
            stalls = ServerStalls()
            stalls.start()
            try:
                await self._ready.wait()
                began = time.perf_counter()
                starts = [asyncio.create_task(self._start(seat.table_id, seat.person,
                                                          options.ramp_s * i / max(1, options.clients)))
                          for i, seat in enumerate(seats)]
                pages = await self._done
                await asyncio.gather(*starts)
            finally:
                await stalls.stop()
                loop.remove_reader(mine.fileno())
                await asyncio.to_thread(process.join, PAGES_EXIT)
                if process.is_alive():  # this run failed before the pages were done: they stop with it
                    process.terminate()
                mine.close()
            seconds = time.perf_counter() - began
            cpu = time.process_time() - cpu
            peak = rss_bytes()
            await server.close()
            await service.close()
        clicks = sorted(took * 1000 for _, took in pages["clicks"])
        return {
            "clients": options.clients,
            "click_p50_ms": round(statistics.median(clicks), 1) if clicks else None,
            "click_p99_ms": percentile(clicks, 0.99),
            "mb_per_client": round((peak - before) / options.clients / 1e6, 2),
            "discord_requests_per_trick": 0,
            "clicks": len(clicks),
            "tricks": pages["tricks"],
            "errors": pages["errors"],
            "seconds": round(seconds, 1),
            # CPU per click, what the run cost whatever else the machine was doing: the server process's own (web
            # server, table service, AI seats, store) and, as before the pages had a process, the whole benchmark's.
            "server_cpu_ms_per_click": round(cpu * 1000 / len(clicks), 2) if clicks else None,
            "cpu_ms_per_click": round((cpu + pages["cpu"]) * 1000 / len(clicks), 2) if clicks else None,
            **stalls.figures(pages["clicks"]),
            "store": "sqlite" if options.store else "none",
            "ai": "first legal action (no thinking time)",
            "think_ms": options.think_ms,
        }

    async def _start(self, table_id: int, person: int, delay: float) -> None:
        await asyncio.sleep(delay)
        await self._connected[table_id].wait()
        assert self.service is not None
        await self.service.start(table_id, person)


def bench_web(options: WebLoadOptions) -> dict[str, Any]:
    if options.db is not None:
        return asyncio.run(WebLoadRun(options, options.db).run())
    with tempfile.TemporaryDirectory(prefix="klaverjas-web-") as folder:
        return asyncio.run(WebLoadRun(options, Path(folder) / "web.sqlite3").run())
