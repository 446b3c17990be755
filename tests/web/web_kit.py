"""What the web server's tests share: a table service with fast AI seats, the server on aiohttp's test server,
and a socket client that reads frames."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientWebSocketResponse, WSMsgType
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


@asynccontextmanager
async def rig(config: WebConfig | None = None, service: TableService | None = None,
              **server_args: Any) -> AsyncIterator[Rig]:
    service = service or TableService(None, FAST, choose=first_legal)
    server = WebServer(service, config or web_config(), **server_args)
    client: TestClient[Any, Any] = TestClient(TestServer(server.app()))
    await client.start_server()
    try:
        yield Rig(service, server, client)
    finally:
        await client.close()
        await service.close()


def watch_token(table: int, person: int = ANYONE, **kwargs: Any) -> str:
    return sign(SECRET, person, TokenKind.WATCH, table, ttl=kwargs.pop("ttl", WATCH_TTL), **kwargs)
