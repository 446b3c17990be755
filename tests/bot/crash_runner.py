"""The bot as a real process for the crash test (tests/bot/test_crash.py), which kills it with SIGKILL.

The real KlaverjasBot on an on-disk SQLite database; Discord is the parent process, over this process's
standard input and output, one JSON object per line:

- parent to bot: ``{"kind": "interaction", "payload": {...}}`` (an INTERACTION_CREATE payload) and
  ``{"kind": "reply", "id": N, "result": ...}`` or ``{"kind": "reply", "id": N, "error": {...}}``;
- bot to parent: ``{"kind": "http", "id": N, "request": {...}}`` for every request discord.py makes,
  ``{"kind": "ready"}`` once the tables are restored, and ``{"kind": "think", "n": 1 | -1}`` when an AI
  decision starts and ends.

Repeatable: a table's seed comes from its channel (a rematch's is fixed) and the AI players choose with
the normal level (the hard one cuts its search by the clock), after a short pause so that kills can
land while an AI player thinks. Run: ``python tests/bot/crash_runner.py DB`` from the repository root; DB is a
SQLite file or a PostgreSQL URL. ``python tests/bot/crash_runner.py URL SHARD COUNT`` runs shard SHARD of COUNT,
sharing the PostgreSQL database with the processes of the other shards (tests/bot/test_shards.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.discord_app.client import KlaverjasBot  # noqa: E402
from bot.fake_discord.offline_bot import connect_offline, dispatch, install  # noqa: E402
from bot.fake_discord.wire import DiscordError, Request  # noqa: E402
from bot.store.choose import store_at  # noqa: E402
from bot.tables.service import ServiceConfig  # noqa: E402
from bot.tables.shards import Shards  # noqa: E402
from engine.actions import Call  # noqa: E402
from engine.ai.players import Level, make_player  # noqa: E402
from engine.cards import Card  # noqa: E402
from engine.view import SeatView  # noqa: E402

THINK_SECONDS = 0.03
REMATCH_SEED = 77
_out = threading.Lock()


def send(message: dict[str, Any]) -> None:
    line = (json.dumps(message) + "\n").encode()
    with _out:  # AI threads write too
        os.write(1, line)


def table_seed(channel_id: int | None) -> int:
    return zlib.crc32(str(channel_id).encode())


def choose(level: Level, seed: int, view: SeatView) -> Card | Call:
    send({"kind": "think", "n": 1})
    try:
        time.sleep(THINK_SECONDS)
        return make_player(Level.NORMAL, seed).choose(view)
    finally:
        send({"kind": "think", "n": -1})


class Discord:
    """The parent process, as the bot's HTTP sees it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.count = 0

    async def answer(self, request: Request) -> Any:
        self.count += 1
        number = self.count
        future: asyncio.Future[dict[str, Any]] = self.loop.create_future()
        self.waiting[number] = future
        send({"kind": "http", "id": number, "request": request.to_wire()})
        reply = await future
        if "error" in reply:
            raise DiscordError(**reply["error"])
        return reply["result"]

    def replied(self, reply: dict[str, Any]) -> None:
        future = self.waiting.pop(int(reply["id"]), None)
        if future is not None and not future.done():
            future.set_result(reply)


async def main(db: str, shards: Shards | None) -> None:
    if os.environ.get("KLAVERJAS_RUNNER_LOG"):
        import logging

        logging.basicConfig(level=os.environ["KLAVERJAS_RUNNER_LOG"],
                            format=f"%(asctime)s {sys.argv[2:]} %(name)s: %(message)s")
    loop = asyncio.get_running_loop()
    discord_side = Discord(loop)
    store = await store_at(db).open()
    # Sharded: no match reviews (two processes reviewing on two cores would only slow the games down).
    bot = KlaverjasBot(store, ServiceConfig(ai_pause=0, deal_pause=0, turn_time=3600, reviews=shards is None),
                       sync_commands=False, choose=choose, shards=shards, drawing_workers=1)
    if bot.shared is not None:
        bot.shared.poll_seconds = 0.5
    service = bot.service
    create_table = service.create_table

    async def seeded_table(**kwargs: Any) -> Any:
        kwargs["seed"] = table_seed(kwargs.get("channel_id"))
        return await create_table(**kwargs)

    service.create_table = seeded_table  # type: ignore[method-assign]
    service.new_seed = lambda: REMATCH_SEED
    stopped = asyncio.Event()

    def received(line: bytes) -> None:
        message = json.loads(line)
        if message["kind"] == "reply":
            discord_side.replied(message)
        elif message["kind"] == "interaction":
            dispatch(bot, message["payload"])

    def read_input() -> None:
        for line in sys.stdin.buffer:
            loop.call_soon_threadsafe(received, line)
        loop.call_soon_threadsafe(stopped.set)

    await bot.__aenter__()
    connect_offline(bot)
    install(bot, discord_side.answer)
    threading.Thread(target=read_input, daemon=True).start()
    await bot.setup_hook()
    send({"kind": "ready"})
    await stopped.wait()
    await bot.service.close()
    await store.close()


if __name__ == "__main__":
    sharded = Shards(int(sys.argv[3]), frozenset({int(sys.argv[2])})) if len(sys.argv) > 3 else None
    asyncio.run(main(sys.argv[1], sharded))
