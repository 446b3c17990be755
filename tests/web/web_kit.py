"""What the web server's tests share: a table service with fast AI seats, the server on aiohttp's test server,
a socket client that reads frames, and Discord's Activity instance endpoint faked."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientWebSocketResponse, WSMsgType, web
from aiohttp.test_utils import TestClient, TestServer

from bot.tables.model import TableSettings
from bot.tables.service import ServiceConfig, TableService
from bot.web.config import WebConfig
from bot.web.server import WebServer
from bot.web.tokens import ANYONE, SEAT_TTL, WATCH_TTL, TokenKind, sign
from engine.actions import Call
from engine.cards import Card
from engine.settings import Rules
from engine.view import SeatView

SECRET = "test-secret-0123456789abcdef"
PUBLIC = "https://klaverjas.example"
ORIGIN = {"Origin": PUBLIC}
HOST = 1001
BOT_TOKEN = "bot-token-of-the-test"
FAST = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=600)


def first_legal(level: str, seed: int, view: SeatView) -> Card | Call:
    return view.legal[0]


def web_config(**changes: Any) -> WebConfig:
    return WebConfig(**{"secret": SECRET, "public_url": PUBLIC, "client_id": "123456", **changes})


def settings(hands: int = 1, **changes: str) -> TableSettings:
    return TableSettings(Rules().with_changes(length=str(hands), **changes), ai_level="normal")


def seat_token(person: int, table: int, **kwargs: Any) -> str:
    return sign(SECRET, person, TokenKind.SEAT, table, ttl=kwargs.pop("ttl", SEAT_TTL), **kwargs)


@dataclass
class Socket:
    """A page's socket: every frame it got, in order."""

    ws: ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    closed_with: int | None = None  # the close code the server sent

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def next(self, kind: str | None = None, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame (of ``kind``), reading on."""
        while True:
            message = await asyncio.wait_for(self.ws.receive(), timeout)
            if message.type is not WSMsgType.TEXT:
                self.closed_with = message.data if message.type is WSMsgType.CLOSE else self.ws.close_code
                raise ConnectionError(f"socket closed: {message.type} {message.data}")
            frame = json.loads(message.data)
            self.frames.append(frame)
            if kind is None or frame["type"] == kind:
                return frame

    async def state(self, after: int = -1, timeout: float = 10.0) -> dict[str, Any]:
        """The next state whose version is above ``after``."""
        while True:
            frame = await self.next("state", timeout)
            if frame["version"] > after:
                return frame

    async def hello(self, **frame: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        await self.send({"type": "hello", **frame})
        welcome = await self.next()
        if welcome["type"] != "welcome":
            return welcome, {}
        return welcome, await self.next("state")

    async def drain(self, quiet: float = 0.2) -> None:
        """Read every frame until none comes for ``quiet`` seconds."""
        while True:
            try:
                await self.next(timeout=quiet)
            except TimeoutError:
                return


@dataclass
class Rig:
    service: TableService
    server: WebServer
    client: TestClient[Any, Any]

    async def socket(self, headers: dict[str, str] | None = None) -> Socket:
        return Socket(await self.client.ws_connect("/ws", headers=ORIGIN if headers is None else headers))

    async def table(self, hands: int = 1, humans: tuple[int, ...] = (), **changes: str) -> int:
        """A started table: HOST South, ``humans`` in the next seats, AI players in the rest."""
        table = await self.service.create_table(host_id=HOST, host_name="Anna", settings=settings(hands, **changes),
                                                seed=7, guild_id=1, channel_id=500)
        for i, person in enumerate(humans):
            await self.service.join(table.id, person, f"P{i}")
        await self.service.start(table.id, HOST)
        return table.id


    async def playing(self) -> tuple[int, Socket]:
        """A started one-hand table once its AI seats have moved, and HOST's page at it, welcomed."""
        table_id = await self.table()
        await self.service.idle()
        page = await self.socket()
        welcome, _ = await page.hello(token=seat_token(HOST, table_id))
        assert welcome["type"] == "welcome", welcome
        return table_id, page


@dataclass
class FakeInstances:
    """Discord's ``GET /applications/{id}/activity-instances/{instance}``: ``known`` instance id -> (channel,
    people in it); any other id is a 404. ``status`` makes it answer that instead (429, 500), ``delay`` makes it
    slow. Every request's instance id and Authorization header are kept."""

    application_id: str = "123456"
    known: dict[str, tuple[int, tuple[int, ...]]] = field(default_factory=dict)
    status: int | None = None
    retry_after: float = 0.5
    delay: float = 0.0
    asked: list[tuple[str, str]] = field(default_factory=list)

    def app(self) -> web.Application:
        async def instance(request: web.Request) -> web.Response:
            instance_id = request.match_info["instance"]
            self.asked.append((instance_id, request.headers.get("Authorization", "")))
            if self.delay:
                await asyncio.sleep(self.delay)
            if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}" \
                    or request.match_info["app"] != self.application_id:
                return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
            if self.status == 429:
                return web.json_response({"message": "You are being rate limited.", "retry_after": self.retry_after,
                                          "global": False}, status=429)
            if self.status is not None:
                return web.json_response({"message": "Internal Server Error"}, status=self.status)
            if instance_id not in self.known:
                return web.json_response({"message": "Unknown Activity Instance", "code": 10036}, status=404)
            channel, users = self.known[instance_id]
            return web.json_response({
                "application_id": self.application_id, "instance_id": instance_id, "launch_id": "1300",
                "location": {"id": f"gc-1-{channel}", "kind": "gc", "channel_id": str(channel), "guild_id": "1"},
                "users": [str(u) for u in users]})

        app = web.Application()
        app.router.add_get("/api/v10/applications/{app}/activity-instances/{instance}", instance)
        return app


@asynccontextmanager
async def fake_instances(application_id: str = "123456", /, **known: tuple[int, tuple[int, ...]]
                         ) -> AsyncIterator[tuple[FakeInstances, str]]:
    """The fake instance endpoint on a port of its own, and the API base to configure (``WebConfig.api_url``)."""
    fake = FakeInstances(application_id, dict(known))
    server = TestServer(fake.app())
    await server.start_server()
    try:
        yield fake, str(server.make_url("/api/v10"))
    finally:
        await server.close()


@asynccontextmanager
async def rig(config: WebConfig | None = None, service: TableService | None = None,
              **server_args: Any) -> AsyncIterator[Rig]:
    service = service or TableService(None, FAST, choose=first_legal)
    server = WebServer(service, config or web_config(), **{"bot_token": lambda: BOT_TOKEN, **server_args})
    client: TestClient[Any, Any] = TestClient(TestServer(server.app()))
    await client.start_server()
    try:
        yield Rig(service, server, client)
    finally:
        await client.close()
        await service.close()


def watch_token(table: int, person: int = ANYONE, **kwargs: Any) -> str:
    return sign(SECRET, person, TokenKind.WATCH, table, ttl=kwargs.pop("ttl", WATCH_TTL), **kwargs)
