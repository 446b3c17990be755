"""The real KlaverjasBot with no network: its HTTP routed to an answering coroutine, gateway events handed to its
connection state, and ``OfflineBot``, one bot "process" wired to a ``FakeDiscord`` in this one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast
from unittest import mock

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.outbox import DeliveryConfig
from bot.fake_discord.discord_side import FakeDiscord, StoredMessage, User, interaction_kind
from bot.fake_discord.interactions import Interactions
from bot.fake_discord.wire import APP_ID, BOT_USER_ID, CHANNEL_ID, MEMBER_PERMISSIONS, DiscordError, Request, request_of
from bot.store.choose import store_at
from bot.tables.driver import ChooseFn
from bot.tables.service import ServiceConfig
from bot.web.config import WebConfig

Answer = Callable[[Request], Awaitable[Any]]


def install(bot: discord.Client, answer: Answer) -> list[Any]:
    """Route every HTTP request of ``bot`` to ``answer`` (a ``FakeDiscord``'s, or one across a pipe); returns the
    started patches (stop them in reverse)."""

    async def rest_request(route: Any, **kwargs: Any) -> Any:
        try:
            return await answer(request_of(route, "rest", kwargs))
        except DiscordError as error:
            raise error.exception() from None

    async def webhook_request(adapter: AsyncWebhookAdapter, route: Any, session: Any, **kwargs: Any) -> Any:
        try:
            return await answer(request_of(route, "webhook", kwargs))
        except DiscordError as error:
            raise error.exception() from None

    # The command tree keeps the HTTPClient instance, so its method is replaced, not the object; interaction
    # responses bypass it through the webhook adapter.
    patches = [mock.patch.object(bot.http, "request", new=rest_request),
               mock.patch.object(AsyncWebhookAdapter, "request", new=webhook_request)]
    for patch in patches:
        patch.start()
    return patches


def connect_offline(bot: discord.Client) -> None:
    """Give the connection state what READY would have: the bot's user and the application id."""
    state = bot._connection
    user: Any = {**_bot_user(), "verified": True, "mfa_enabled": False, "bot": True}
    state.user = discord.ClientUser(state=state, data=user)
    state.application_id = APP_ID


def dispatch(bot: discord.Client, payload: dict[str, Any]) -> None:
    """Hand one INTERACTION_CREATE payload to the client, as the gateway would."""
    bot._connection.parse_interaction_create(cast(Any, payload))


def _bot_user() -> dict[str, Any]:
    return {"id": str(BOT_USER_ID), "username": "Klaverjas", "discriminator": "0", "avatar": None, "bot": True}


class OfflineBot:
    """One bot "process" in this one: a KlaverjasBot on a database (a SQLite file or a PostgreSQL URL), talking to
    a FakeDiscord."""

    def __init__(self, db: Path | str, fake: FakeDiscord | None = None, config: ServiceConfig | None = None,
                 ai_workers: int = 0, delivery: DeliveryConfig | None = None, *, choose: ChooseFn | None = None,
                 warm_up: bool = False, drawing_workers: int = 0, web: WebConfig | None = None,
                 serve_web: bool = False) -> None:
        self.db = db
        self.ai_workers = ai_workers
        self.drawing_workers = drawing_workers
        self.fake = fake or FakeDiscord()
        # Match reviews off unless a test asks for them (config): they would only add work to other tests.
        self.config = config or ServiceConfig(ai_pause=0, deal_pause=0, turn_time=600, reviews=False)
        # Retries without real waiting: a test never sleeps beyond milliseconds.
        self.delivery = delivery or DeliveryConfig(request_timeout=5.0, backoff=(0.001,), max_retry_after=0.05)
        self.choose = choose
        self.warm_up = warm_up
        self.web = web  # the web table's links
        self.serve_web = serve_web  # and its server on the port ``web`` names (off: links only)
        self.interactions = Interactions(self.fake)
        self.bot: KlaverjasBot | None = None
        self._patches: list[Any] = []

    async def __aenter__(self) -> OfflineBot:
        store = await store_at(self.db).open()
        bot = KlaverjasBot(store, self.config, sync_commands=False, ai_workers=self.ai_workers, choose=self.choose,
                           warm_up=self.warm_up, schedule_tournaments=False, drawing_workers=self.drawing_workers,
                           delivery=self.delivery, web=self.web, serve_web=self.serve_web)
        self.bot = bot
        await bot.__aenter__()  # wires the loop without connecting
        connect_offline(bot)
        # Looked up per request, so a test may replace the fake's ``answer`` while the bot runs.
        self._patches = install(bot, lambda request: self.fake.answer(request))
        await bot.setup_hook()  # login() would call it: registers DynamicItems, cogs, restores tables
        await self.settle()
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.bot is not None
        await self.bot.service.close()
        await self.bot.announcer.close()
        self.bot.thinker.close()
        for patch in reversed(self._patches):
            patch.stop()
        await self.bot.store.close()

    # ------------------------------------------------------------ feeding interactions

    def dispatch(self, payload: dict[str, Any]) -> str:
        """Hand a payload to the bot without waiting for anything; its token."""
        assert self.bot is not None
        token = str(payload["token"])
        self.fake.arrived[token] = time.perf_counter()
        self.fake.kinds[token] = interaction_kind(payload)
        dispatch(self.bot, payload)
        return token

    async def feed(self, payload: dict[str, Any]) -> str:
        """Hand a payload to the bot and wait until everything it set off is done; its token."""
        before = asyncio.all_tasks()
        token = self.dispatch(payload)
        await self.settle(before)
        return token

    async def command(self, user: User, sub: str, channel_id: int = CHANNEL_ID, *,
                      permissions: str = MEMBER_PERMISSIONS, dm: bool = False, roles: tuple[int, ...] = (),
                      **options: Any) -> str:
        """A slash subcommand; ``dm``: typed in a direct message with the bot (``user`` and no guild)."""
        return await self.feed(self.interactions.command(user, sub, channel_id, permissions=permissions, dm=dm,
                                                         roles=roles, **options))

    async def slash(self, user: User, name: str, channel_id: int = CHANNEL_ID, *, sub: str | None = None,
                    dm: bool = False, options: list[dict[str, Any]] | None = None,
                    resolved: dict[str, Any] | None = None) -> str:
        """Any slash command (see ``Interactions.slash``); its token."""
        return await self.feed(self.interactions.slash(user, name, channel_id, sub=sub, dm=dm, options=options,
                                                       resolved=resolved))

    async def autocomplete(self, user: User, sub: str, option: str, value: str, channel_id: int, *,
                           dm: bool = False) -> list[Any]:
        payload = self.interactions.autocomplete(user, sub, option, value, channel_id, dm=dm)
        await self.feed(payload)
        [request] = [r for r in self.fake.requests if r.url.endswith(f"{payload['id']}/{payload['token']}/callback")]
        choices: list[Any] = request.data.get("choices", [])
        return choices

    async def click(self, user: User, message: StoredMessage, custom_id: str) -> str:
        return await self.feed(self.interactions.click(user, message, custom_id))

    async def select(self, user: User, message: StoredMessage, custom_id: str, values: list[str]) -> str:
        return await self.feed(self.interactions.select(user, message, custom_id, values))

    async def settle(self, before: set[asyncio.Task[Any]] | None = None) -> None:
        """Let dispatched tasks and the tables' AI players run until everything is quiet."""
        assert self.bot is not None
        before = before or set()
        current = asyncio.current_task()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120
        while loop.time() < deadline:
            await asyncio.sleep(0)
            pending = self._busy(before, current)
            if pending:
                await asyncio.wait(pending, timeout=0.05)  # short: a task may start waiting on a held request
                continue
            await self.bot.service.idle()
            await asyncio.sleep(0)
            pending = self._busy(before, current)
            if not pending and not any(t.lock.locked() for t in self.bot.service.tables.values()):
                return
        busy = self._busy(before, current)
        locked = [t.id for t in self.bot.service.tables.values() if t.lock.locked()]
        raise TimeoutError(f"the bot did not settle: tasks {busy}, tables locked {locked}")

    def _busy(self, before: set[asyncio.Task[Any]], current: asyncio.Task[Any] | None) -> list[asyncio.Task[Any]]:
        """Tasks still working: not the tables' drivers (they wait for turns), not the match reviews (minutes of
        work that answer nobody: ``bot.service.reviews.idle()`` waits for them), not the poll of a shared store
        (it never ends), not requests a test holds."""
        return [t for t in asyncio.all_tasks() - before
                if t is not current and not t.done()
                and not t.get_name().startswith(("table-", "match-reviews", "shared-poll"))
                and t not in self.fake.held]

    def responses_to(self, token: str) -> list[Request]:
        return [r for r in self.fake.requests if r.via == "webhook" and token in r.url]

    def private_replies(self, token: str) -> list[str]:
        """The texts of the ephemeral answers to one interaction."""
        return [r.content for r in self.responses_to(token) if r.ephemeral]
