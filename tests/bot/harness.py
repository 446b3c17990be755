"""Runs the real KlaverjasBot with no network (see shared/notes/discord-offline-testing.md).

Raw INTERACTION_CREATE payloads go into the client's connection state; every HTTP request discord.py
makes (REST through the client's HTTPClient, interaction callbacks and followups through the webhook
adapter) is recorded and answered by a small fake Discord that remembers the messages it "posted".
The private discord.py attributes this needs are used here only.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.outbox import DeliveryConfig
from bot.store.sqlite import SqliteStore
from bot.tables.service import ServiceConfig

APP_ID = 900000000000000001
BOT_USER_ID = APP_ID
GUILD_ID = 910000000000000001
CHANNEL_ID = 920000000000000001
COMMAND_ID = 930000000000000001
TIMESTAMP = "2025-01-01T12:00:00.000000+00:00"
EPHEMERAL = 64
ALL_PERMISSIONS = str((1 << 50) - 1)
MEMBER_PERMISSIONS = str(discord.Permissions(send_messages=True, view_channel=True,
                                             use_application_commands=True).value)

_ids = itertools.count(950000000000000001)


def next_id() -> int:
    return next(_ids)


@dataclass
class Request:
    method: str
    path: str  # the route template, e.g. /channels/{channel_id}/messages
    url: str
    json: dict[str, Any] | None
    files: list[str]  # attachment file names
    via: str  # "rest" or "webhook"

    @property
    def flags(self) -> int:
        body = self.json or {}
        data = body.get("data", body) if isinstance(body.get("data"), dict) else body
        return int(data.get("flags", 0) or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def data(self) -> dict[str, Any]:
        """The message part of a request: the callback's ``data``, or the body itself."""
        body = self.json or {}
        return body["data"] if isinstance(body.get("data"), dict) else body

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.data.get("components") or [] for c in row.get("components", [])
                if "custom_id" in c]


@dataclass
class User:
    id: int
    name: str
    dm_closed: bool = False
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "global_name": self.name, "discriminator": "0",
                "avatar": None}


@dataclass
class StoredMessage:
    id: int
    channel_id: int
    content: str
    components: list[dict[str, Any]]
    flags: int
    attachments: list[str]
    dm_user: int | None = None
    edits: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "channel_id": str(self.channel_id), "type": 0, "content": self.content,
            "author": {"id": str(BOT_USER_ID), "username": "Klaverjas", "discriminator": "0", "avatar": None,
                       "bot": True},
            "attachments": [{"id": str(i + 1), "filename": name, "size": 1, "url": f"https://cdn/{name}",
                             "proxy_url": f"https://cdn/{name}"} for i, name in enumerate(self.attachments)],
            "embeds": [], "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False,
            "tts": False, "timestamp": TIMESTAMP, "edited_timestamp": None, "flags": self.flags,
            "components": self.components,
        }

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", []) if "custom_id" in c]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])]


@dataclass
class FakeDiscord:
    users: dict[int, User] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    messages: dict[int, StoredMessage] = field(default_factory=dict)
    originals: dict[str, int] = field(default_factory=dict)  # interaction token -> original response message id
    dm_channels: dict[int, int] = field(default_factory=dict)  # dm channel id -> user id
    threads: list[int] = field(default_factory=list)
    threads_allowed: bool = True
    held: set[asyncio.Task[Any]] = field(default_factory=set)  # tasks whose request a test holds (a slow Discord)
    # One-shot failures: the next request a predicate accepts is refused the way Discord refuses it.
    failures: list[tuple[Callable[[Request], bool], discord.HTTPException]] = field(default_factory=list)

    def fail_next(self, predicate: Callable[[Request], bool], status: int, code: int = 0,
                  message: str = "failed") -> None:
        """The next request matching ``predicate`` fails with ``status`` and Discord's error ``code``:
        429 (after discord.py's own retries), 5xx, 10062, 10008, 50007, 50013..."""
        self.failures.append((predicate, discord_error(status, code, message)))

    def _refuse_if_asked(self, request: Request) -> None:
        for index, (predicate, error) in enumerate(self.failures):
            if predicate(request):
                del self.failures[index]
                raise error

    # ------------------------------------------------------------ recording

    @staticmethod
    def _body(kwargs: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str]]:
        files = [f.filename for f in kwargs.get("files") or [] if f is not None]
        if kwargs.get("json") is not None:
            return kwargs["json"], files
        if kwargs.get("payload") is not None:
            return kwargs["payload"], files
        for part in kwargs.get("form") or kwargs.get("multipart") or []:
            if part.get("name") == "payload_json":
                return json.loads(part["value"]), files
        return None, files

    def _message(self, channel_id: int, body: dict[str, Any], files: list[str], message_id: int | None = None,
                 ) -> StoredMessage:
        message = StoredMessage(message_id or next_id(), channel_id, body.get("content") or "",
                                body.get("components") or [], int(body.get("flags") or 0), files)
        if channel_id in self.dm_channels:
            message.dm_user = self.dm_channels[channel_id]
        self.messages[message.id] = message
        return message

    def _edit(self, message: StoredMessage, body: dict[str, Any], files: list[str]) -> StoredMessage:
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = body["components"] or []
        if "attachments" in body or files:
            kept = [a.get("filename", "") for a in body.get("attachments") or [] if "filename" in a]
            message.attachments = kept or files
        message.edits += 1
        return message

    # ------------------------------------------------------------ REST

    async def rest(self, route: Any, **kwargs: Any) -> Any:
        body, files = self._body(kwargs)
        self.requests.append(Request(route.method, route.path, route.url, body, files, "rest"))
        self._refuse_if_asked(self.requests[-1])
        method, path = route.method, route.path
        params = _route_params(route)
        if method == "POST" and path == "/users/@me/channels":
            user_id = int((body or {})["recipient_id"])
            channel_id = next_id()
            self.dm_channels[channel_id] = user_id
            return {"id": str(channel_id), "type": 1, "recipients": [self.users[user_id].payload()],
                    "last_message_id": None}
        if method == "POST" and path == "/channels/{channel_id}/messages":
            channel_id = int(params["channel_id"])
            user_id = self.dm_channels.get(channel_id)
            if user_id is not None and self.users[user_id].dm_closed:
                raise _error(discord.Forbidden, 403, 50007, "Cannot send messages to this user")
            return self._message(channel_id, body or {}, files).payload()
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            message = self.messages.get(int(params["message_id"]))
            if message is None:
                raise _error(discord.NotFound, 404, 10008, "Unknown Message")
            return self._edit(message, body or {}, files).payload()
        if method == "POST" and path == "/channels/{channel_id}/messages/{message_id}/threads":
            if not self.threads_allowed:
                raise _error(discord.Forbidden, 403, 50013, "Missing Permissions")
            thread_id = next_id()
            self.threads.append(thread_id)
            return {"id": str(thread_id), "type": 11, "guild_id": str(GUILD_ID), "parent_id": params["channel_id"],
                    "name": (body or {}).get("name", ""), "owner_id": str(BOT_USER_ID),
                    "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                        "archive_timestamp": TIMESTAMP, "locked": False}}
        if method == "PUT" and path.startswith("/applications/") and path.endswith("/commands"):
            # The command sync: Discord answers with the commands as it registered them.
            return [{**command, "id": str(next_id()), "application_id": str(APP_ID), "version": "1"}
                    for command in body or []]
        if path.startswith("/applications/"):
            return body or []
        raise AssertionError(f"the fake Discord does not know {method} {path}")

    # ------------------------------------------------------------ interaction callbacks and webhooks

    async def webhook(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        body, files = self._body(kwargs)
        self.requests.append(Request(route.method, route.path, route.url, body, files, "webhook"))
        self._refuse_if_asked(self.requests[-1])
        method, path = route.method, route.path
        token = route.webhook_token
        body = body or {}
        if path == "/interactions/{webhook_id}/{webhook_token}/callback":
            kind = body.get("type")
            interaction = {"id": str(route.webhook_id), "type": kind}
            if kind == 4:  # a message
                channel_id = self.channel_of.get(token, CHANNEL_ID)
                message = self._message(channel_id, body.get("data") or {}, files)
                self.originals[token] = message.id
                interaction.update(response_message_id=str(message.id),
                                   response_message_ephemeral=bool(message.flags & EPHEMERAL))
                return {"interaction": interaction, "resource": {"type": 4, "message": message.payload()}}
            if kind == 7:  # update the clicked message
                message_id = self.clicked.get(token)
                if message_id is not None and message_id in self.messages:
                    self._edit(self.messages[message_id], body.get("data") or {}, files)
                    return {"interaction": interaction,
                            "resource": {"type": 7, "message": self.messages[message_id].payload()}}
            if kind == 5:
                interaction.update(response_message_loading=True)
            return {"interaction": interaction, "resource": {"type": kind}}
        if method == "POST" and path == "/webhooks/{webhook_id}/{webhook_token}":
            return self._message(self.channel_of.get(token, CHANNEL_ID), body, files).payload()
        if path.startswith("/webhooks/{webhook_id}/{webhook_token}/messages/"):
            message_id = self._message_ref(token, str(route.url).rsplit("/", 1)[-1].split("?")[0])
            message = self.messages.get(message_id) if message_id is not None else None
            if message is None:
                raise _error(discord.NotFound, 404, 10008, "Unknown Message")
            if method == "PATCH":
                self._edit(message, body, files)
            return message.payload()
        raise AssertionError(f"the fake Discord does not know webhook {method} {path}")

    channel_of: dict[str, int] = field(default_factory=dict)  # interaction token -> channel
    clicked: dict[str, int] = field(default_factory=dict)  # interaction token -> clicked message

    def _message_ref(self, token: str, ref: str) -> int | None:
        if ref == "@original":
            original = self.originals.get(token)
            if original is None and token in self.clicked:
                return self.clicked[token]  # deferred update of a component: the original is the clicked message
            return original
        return int(ref)

    # ------------------------------------------------------------ queries for tests

    def in_channel(self, channel_id: int) -> list[StoredMessage]:
        return [m for m in self.messages.values() if m.channel_id == channel_id]

    def dms_of(self, user_id: int) -> list[StoredMessage]:
        return [m for m in self.messages.values() if m.dm_user == user_id]

    def find(self, predicate: Any) -> Iterator[Request]:
        return (r for r in self.requests if predicate(r))


def _route_params(route: Any) -> dict[str, str]:
    """The values of the route's template parameters, read back from its URL."""
    template = route.path.strip("/").split("/")
    actual = route.url.split("?")[0].split("/api/v10/", 1)[-1].strip("/").split("/")
    return {part[1:-1]: value for part, value in zip(template, actual, strict=False) if part.startswith("{")}


class _Response:
    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def _error(kind: type[discord.HTTPException], status: int, code: int, message: str) -> discord.HTTPException:
    # Exactly how discord.py raises it: a response with status/reason and the JSON error body.
    return kind(_Response(status, message), {"code": code, "message": message})  # type: ignore[arg-type]


def discord_error(status: int, code: int = 0, message: str = "failed") -> discord.HTTPException:
    """The exception discord.py raises for this answer of Discord's."""
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        kind = discord.DiscordServerError
    return _error(kind, status, code, message)


class Harness:
    """One bot "process": a client on a database file, talking to a shared FakeDiscord."""

    def __init__(self, db: Path, fake: FakeDiscord | None = None, config: ServiceConfig | None = None,
                 ai_workers: int = 0, delivery: DeliveryConfig | None = None) -> None:
        self.db = db
        self.ai_workers = ai_workers
        self.fake = fake or FakeDiscord()
        self.config = config or ServiceConfig(ai_pause=0, deal_pause=0, turn_time=600)
        # Retries without real waiting: a test never sleeps beyond milliseconds.
        self.delivery = delivery or DeliveryConfig(request_timeout=5.0, backoff=(0.001,), max_retry_after=0.05)
        self.bot: KlaverjasBot | None = None
        self._patches: list[Any] = []

    async def __aenter__(self) -> Harness:
        store = await SqliteStore(self.db).open()
        bot = KlaverjasBot(store, self.config, sync_commands=False, ai_workers=self.ai_workers)
        bot.announcer.outbox.config = self.delivery
        self.bot = bot
        await bot.__aenter__()  # wires the loop without connecting
        state = bot._connection
        state.user = discord.ClientUser(state=state, data={**_bot_user(), "verified": True, "mfa_enabled": False,
                                                           "bot": True})
        state.application_id = APP_ID
        fake = self.fake

        async def webhook_request(adapter: AsyncWebhookAdapter, route: Any, session: Any, **kwargs: Any) -> Any:
            return await fake.webhook(route, session, **kwargs)

        patch_rest = mock.patch.object(bot.http, "request", new=fake.rest)
        patch_hook = mock.patch.object(AsyncWebhookAdapter, "request", new=webhook_request)
        self._patches = [patch_rest, patch_hook]
        for patch in self._patches:
            patch.start()
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

    def _base(self, user: User, channel_id: int, *, dm: bool = False, channel_type: int = 0,
              permissions: str = MEMBER_PERMISSIONS) -> dict[str, Any]:
        self.fake.users[user.id] = user
        token = f"token-{next_id()}"
        self.fake.channel_of[token] = channel_id
        payload: dict[str, Any] = {
            "id": str(next_id()), "application_id": str(APP_ID), "token": token, "version": 1,
            "channel_id": str(channel_id), "locale": user.locale, "app_permissions": ALL_PERMISSIONS,
            "entitlements": [], "authorizing_integration_owners": {}, "context": 1 if dm else 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if dm:
            payload["user"] = user.payload()
            payload["channel"] = {"id": str(channel_id), "type": 1}
        else:
            payload["guild_id"] = str(GUILD_ID)
            payload["guild_locale"] = "en-US"
            channel: dict[str, Any] = {"id": str(channel_id), "type": channel_type, "guild_id": str(GUILD_ID),
                                       "name": "kaarten", "position": 0, "permission_overwrites": [], "nsfw": False,
                                       "rate_limit_per_user": 0, "parent_id": None, "flags": 0}
            if channel_type == 11:
                channel.update(parent_id=str(CHANNEL_ID), owner_id=str(BOT_USER_ID), message_count=0,
                               member_count=0, thread_metadata={"archived": False, "auto_archive_duration": 1440,
                                                                "archive_timestamp": TIMESTAMP, "locked": False})
            payload["channel"] = channel
            payload["member"] = {"user": user.payload(), "roles": [], "joined_at": TIMESTAMP, "deaf": False,
                                 "mute": False, "flags": 0, "permissions": permissions}
        return payload

    async def command(self, user: User, sub: str, channel_id: int = CHANNEL_ID, *,
                      permissions: str = MEMBER_PERMISSIONS, dm: bool = False, **options: Any) -> str:
        """A slash subcommand; ``dm``: typed in a direct message with the bot (``user`` and no guild)."""
        payload = self._base(user, channel_id, dm=dm, channel_type=11 if channel_id != CHANNEL_ID else 0,
                             permissions=permissions)
        opts = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]
        payload.update(type=2, data={"id": str(COMMAND_ID), "name": "klaverjas", "type": 1,
                                     "options": [{"name": sub, "type": 1, "options": opts}]})
        await self.feed(payload)
        return str(payload["token"])

    async def autocomplete(self, user: User, sub: str, option: str, value: str, channel_id: int, *,
                           dm: bool = False) -> list[Any]:
        payload = self._base(user, channel_id, dm=dm, channel_type=11 if channel_id != CHANNEL_ID else 0)
        payload.update(type=4, data={"id": str(COMMAND_ID), "name": "klaverjas", "type": 1, "options": [
            {"name": sub, "type": 1, "options": [{"name": option, "type": 3, "value": value, "focused": True}]}]})
        await self.feed(payload)
        [request] = [r for r in self.fake.requests if r.url.endswith(f"{payload['id']}/{payload['token']}/callback")]
        choices: list[Any] = request.data.get("choices", [])
        return choices

    async def click(self, user: User, message: StoredMessage, custom_id: str) -> str:
        dm = message.dm_user is not None
        payload = self._base(user, message.channel_id, dm=dm, channel_type=11)
        payload.update(type=3, data={"custom_id": custom_id, "component_type": 2}, message=message.payload())
        self.fake.clicked[payload["token"]] = message.id
        await self.feed(payload)
        return str(payload["token"])

    async def select(self, user: User, message: StoredMessage, custom_id: str, values: list[str]) -> str:
        """A choice in a select menu (component type 3) on ``message``."""
        payload = self._base(user, message.channel_id, dm=message.dm_user is not None, channel_type=11)
        payload.update(type=3, data={"custom_id": custom_id, "component_type": 3, "values": values},
                       message=message.payload())
        self.fake.clicked[payload["token"]] = message.id
        await self.feed(payload)
        return str(payload["token"])

    async def feed(self, payload: dict[str, Any]) -> None:
        assert self.bot is not None
        before = asyncio.all_tasks()
        self.bot._connection.parse_interaction_create(payload)
        await self.settle(before)

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
        raise TimeoutError("the bot did not settle")

    def _busy(self, before: set[asyncio.Task[Any]], current: asyncio.Task[Any] | None) -> list[asyncio.Task[Any]]:
        """Tasks still working: not the tables' drivers (they wait for turns), not requests a test holds."""
        return [t for t in asyncio.all_tasks() - before
                if t is not current and not t.done() and not t.get_name().startswith("table-")
                and t not in self.fake.held]

    def responses_to(self, token: str) -> list[Request]:
        return [r for r in self.fake.requests if r.via == "webhook" and token in r.url]

    def private_replies(self, token: str) -> list[str]:
        """The texts of the ephemeral answers to one interaction."""
        return [r.content for r in self.responses_to(token) if r.ephemeral]


def _bot_user() -> dict[str, Any]:
    return {"id": str(BOT_USER_ID), "username": "Klaverjas", "discriminator": "0", "avatar": None, "bot": True}
