"""``klaverjas bench web --clients N``: N browser-less pages in one process, each playing one seat by WebSocket at a
table of its own with three AI seats, through the real web server (``bot.web``) and table service.

The AI seats choose their first legal action (a chooser that takes no time: the figures are the web table's, not
the AI's), after the bot's usual pause (``ServiceConfig.ai_pause``). Each page plays its seat as a person would,
``think_ms`` after its turn shows, and declines the claim question of declared roem. Printed figures:

- ``click_p50_ms``/``click_p99_ms``: from a page sending its card or call to the state that shows it applied (the
  state comes before any AI seat thinks, so no AI time is in it);
- ``mb_per_client``: the process's RSS growth over the run per client (the pages' sockets are in this process too,
  so it is an upper bound of the server's share);
- ``discord_requests_per_trick``: Discord requests per trick; 0, no Discord front end is attached (a table played
  only from the web costs Discord nothing);
- ``cpu_ms_per_click``: the whole process's CPU time (server, service, store calls and the pages) per click;
- ``clicks``, ``tricks``, ``seconds``, ``errors`` (error frames the pages got: none expected).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, ClientTimeout, TCPConnector, WSMsgType

from bot.cli.bench_load import percentile, rss_bytes
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


class Page:
    """One browser-less page at one seat."""

    def __init__(self, run: WebLoadRun, person: int, table_id: int) -> None:
        self.run, self.person, self.table_id = run, person, table_id
        self.clicks: list[float] = []  # seconds, click to state
        self.errors = 0
        self.tricks = 0

    async def play(self, http: ClientSession, url: str) -> None:
        token = sign(self.run.config.secret, self.person, TokenKind.SEAT, self.table_id, ttl=SEAT_TTL)
        async with http.ws_connect(url, headers={"Origin": ORIGIN}, max_msg_size=0) as ws:
            await ws.send_str(json.dumps({"type": "hello", "token": token}))
            await self.run.started(self.table_id)
            sent: tuple[int, float] | None = None  # the version clicked at, and when
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    break
                frame = json.loads(message.data)
                kind = frame["type"]
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
                    self.clicks.append(time.perf_counter() - sent[1])
                    sent = None
                view = frame["view"]
                if view["table"]["status"] in ("finished", "stopped"):
                    return
                choice = self.choice(view.get("me") or {})
                if choice is None or sent is not None:
                    continue
                if self.run.options.think_ms:
                    await asyncio.sleep(self.run.options.think_ms / 1000)
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


class WebLoadRun:
    def __init__(self, options: WebLoadOptions, db: Path) -> None:
        self.options = options
        self.db = db
        self.config = WebConfig(secret=secrets.token_urlsafe(24), public_url=ORIGIN, host="127.0.0.1", port=0)
        self.service: TableService | None = None
        self._connected: dict[int, asyncio.Event] = {}

    async def started(self, table_id: int) -> None:
        """The page said hello: its table may start."""
        self._connected[table_id].set()

    async def run(self) -> dict[str, Any]:
        options = self.options
        before = rss_bytes()
        cpu = time.process_time()
        async with SqliteStore(self.db) as store:
            # The bot's own pauses (an AI seat waits ``ai_pause`` before it acts, a hand ``deal_pause`` before the
            # next deal): tables play at the pace people see, not as fast as the store can write.
            config = ServiceConfig(turn_time=600, reviews=False, tables_per_host=1)
            if options.ai_pause is not None:
                config.ai_pause = config.deal_pause = options.ai_pause
            service = TableService(store if options.store else None, config, choose=first_legal)
            self.service = service
            server = WebServer(service, self.config)
            await server.start()
            url = f"http://127.0.0.1:{server.port}/ws"
            settings = TableSettings(Rules().with_changes(length=str(options.hands)), ai_level=Level.EASY)
            pages = []
            for i in range(options.clients):
                person = FIRST_PERSON + i
                table = await service.create_table(host_id=person, host_name=f"P{i}", settings=settings,
                                                   guild_id=1, channel_id=100_000 + i, seed=i)
                pages.append(Page(self, person, table.id))
                self._connected[table.id] = asyncio.Event()
            began = time.perf_counter()
            async with ClientSession(connector=TCPConnector(limit=0), timeout=ClientTimeout(total=None)) as http:
                tasks = []
                for i, page in enumerate(pages):
                    tasks.append(asyncio.create_task(page.play(http, url)))
                    tasks.append(asyncio.create_task(self._start(page.table_id, page.person,
                                                                 options.ramp_s * i / max(1, options.clients))))
                await asyncio.gather(*tasks)
            seconds = time.perf_counter() - began
            cpu = time.process_time() - cpu
            peak = rss_bytes()
            await server.close()
            await service.close()
        clicks = sorted(c * 1000 for page in pages for c in page.clicks)
        tricks = sum(page.tricks for page in pages)
        return {
            "clients": options.clients,
            "click_p50_ms": round(statistics.median(clicks), 1) if clicks else None,
            "click_p99_ms": percentile(clicks, 0.99),
            "mb_per_client": round((peak - before) / options.clients / 1e6, 2),
            "discord_requests_per_trick": 0,
            "clicks": len(clicks),
            "tricks": tricks,
            "errors": sum(page.errors for page in pages),
            "seconds": round(seconds, 1),
            # The whole process's CPU (server, table service, store calls and the pages themselves) per click: what
            # the run cost whatever else the machine was doing.
            "cpu_ms_per_click": round(cpu * 1000 / len(clicks), 2) if clicks else None,
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
