"""A fake Discord for tests and benchmarks: the real KlaverjasBot with no network.

Raw INTERACTION_CREATE payloads go into the client's connection state; every HTTP request discord.py
makes (REST through the client's HTTPClient, interaction callbacks and followups through the webhook
adapter) becomes a ``Request`` answered by ``FakeDiscord``, which remembers the messages it "posted".
The private discord.py attributes this needs are used in this module only: discord.py has no public way to
feed a gateway event to a client that never logged in (``_connection.parse_interaction_create``) or to answer
its HTTP without a network, and ready-made fakes such as dpytest know no interactions (slash commands,
buttons, ephemeral answers), so this is the narrowest way in.

The pieces stand alone so they can live in different processes: ``FakeDiscord`` is Discord's side (a
crash test keeps it in the parent while the bot is killed and restarted), ``Interactions`` builds what
a person's client would send, ``install`` routes a bot's HTTP to any answering coroutine, and
``OfflineBot`` puts them together in one process. ``scripted_click`` is the choice a scripted player
makes from what Discord shows them.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import zlib
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from unittest import mock

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord_app.client import KlaverjasBot
from bot.discord_app.outbox import DeliveryConfig
from bot.store.choose import store_at
from bot.tables.driver import ChooseFn
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
THREAD = 11  # Discord's channel type of a public thread

_ids = itertools.count(950000000000000001)


def next_id() -> int:
    return next(_ids)


# ------------------------------------------------------------------ what the bot sends


@dataclass
class Request:
    method: str
    path: str  # the route template, e.g. /channels/{channel_id}/messages
    url: str
    json: dict[str, Any] | None
    files: list[str]  # attachment file names
    via: str  # "rest" or "webhook"
    at: float = 0.0  # time.perf_counter() when Discord received it
    file_data: list[bytes] = field(default_factory=list, repr=False)  # the attachments' bytes (not sent on the wire)

    @property
    def flags(self) -> int:
        return int(self.data.get("flags", 0) or 0)

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

    @property
    def params(self) -> dict[str, str]:
        """The values of the route's template parameters, read back from its URL."""
        template = self.path.strip("/").split("/")
        actual = self.url.split("?")[0].split("/api/v10/", 1)[-1].strip("/").split("/")
        return {part[1:-1]: value for part, value in zip(template, actual, strict=False) if part.startswith("{")}

    @property
    def token(self) -> str | None:
        """The interaction token of a callback, followup or edit of a response."""
        return self.params.get("webhook_token") if self.via == "webhook" else None

    def to_wire(self) -> dict[str, Any]:
        return {"method": self.method, "path": self.path, "url": self.url, "json": self.json, "files": self.files,
                "via": self.via}

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Request:
        return cls(data["method"], data["path"], data["url"], data["json"], list(data["files"]), data["via"])


def request_of(route: Any, via: str, kwargs: dict[str, Any]) -> Request:
    """A discord.py route and its keyword arguments (json=, or a multipart form with payload_json) as a Request."""
    attached = [f for f in kwargs.get("files") or [] if f is not None]
    files = [f.filename for f in attached]
    body: dict[str, Any] | None = None
    if kwargs.get("json") is not None:
        body = kwargs["json"]
    elif kwargs.get("payload") is not None:
        body = kwargs["payload"]
    else:
        for part in kwargs.get("form") or kwargs.get("multipart") or []:
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
    return Request(route.method, route.path, route.url, body, files, via, file_data=[_read(f) for f in attached])


def _read(file: discord.File) -> bytes:
    """An attachment's bytes, leaving the file where discord.py expects it (it may send the request again)."""
    where = file.fp.tell()
    file.fp.seek(0)
    data = file.fp.read()
    file.fp.seek(where)
    return data


class _NoRoute:
    method = path = url = ""


_NO_ROUTE = _NoRoute()


class DiscordError(Exception):
    """Discord's refusal of a request, in a form that crosses a pipe; ``exception`` is how discord.py raises it."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message

    def exception(self) -> discord.HTTPException:
        return discord_error(self.status, self.code, self.message)


class _Response:
    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def _error(kind: type[discord.HTTPException], status: int, code: int, message: str) -> discord.HTTPException:
    return kind(_Response(status, message), {"code": code, "message": message})


def discord_error(status: int, code: int = 0, message: str = "failed") -> discord.HTTPException:
    """The exception discord.py raises for this answer of Discord's."""
    kind: type[discord.HTTPException] = {403: discord.Forbidden, 404: discord.NotFound}.get(
        status, discord.HTTPException)
    if status >= 500:
        kind = discord.DiscordServerError
    return _error(kind, status, code, message)


# ------------------------------------------------------------------ Discord's side


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
class Role:
    id: int
    name: str

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "color": 0, "hoist": False, "position": 1,
                "permissions": "0", "managed": False, "mentionable": True, "flags": 0}


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

    def enabled_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.buttons() if "custom_id" in c and not c.get("disabled")]


MessageWatcher = Callable[[StoredMessage], None]


@dataclass
class FakeDiscord:
    """Discord as the bot sees it: answers requests after ``delay`` seconds and keeps the messages.

    A request changes Discord's state when it arrives; the answer comes ``delay`` later (a bot that dies
    meanwhile has still posted). ``keep_requests=False`` counts requests instead of keeping them (long
    benchmarks). ``watchers`` hear of every message posted or edited.
    """

    users: dict[int, User] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    messages: dict[int, StoredMessage] = field(default_factory=dict)
    originals: dict[str, int] = field(default_factory=dict)  # interaction token -> original response message id
    dm_channels: dict[int, int] = field(default_factory=dict)  # dm channel id -> user id
    threads: list[int] = field(default_factory=list)
    thread_parent: dict[int, int] = field(default_factory=dict)  # thread id -> the channel it was started in
    threads_allowed: bool = True
    # Private threads (POST /channels/{id}/threads, type 12): refused with 50013 when False, as in a channel where
    # the bot may not create them.
    private_threads_allowed: bool = True
    thread_members: dict[int, set[int]] = field(default_factory=dict)  # thread id -> users added to it
    deleted_channels: list[int] = field(default_factory=list)
    channel_of: dict[str, int] = field(default_factory=dict)  # interaction token -> channel
    clicked: dict[str, int] = field(default_factory=dict)  # interaction token -> clicked message
    delay: float = 0.0
    keep_requests: bool = True
    request_count: int = 0
    requests_by_channel: dict[int, int] = field(default_factory=dict)  # where each request went, counted
    arrived: dict[str, float] = field(default_factory=dict)  # interaction token -> when the bot got it
    first_response: dict[str, float] = field(default_factory=dict)  # interaction token -> its first answer
    watchers: list[MessageWatcher] = field(default_factory=list)
    held: set[asyncio.Task[Any]] = field(default_factory=set)  # tasks a test holds (a slow Discord, a hint)
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

    # ------------------------------------------------------------ the bot's requests arrive here

    @staticmethod
    def _body(kwargs: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str]]:
        """A request's JSON body and attachment names, from discord.py's keyword arguments."""
        request = request_of(_NO_ROUTE, "", kwargs)
        return request.json, request.files

    async def rest(self, route: Any, **kwargs: Any) -> Any:
        """A REST request of the bot (``HTTPClient.request``)."""
        return await self._answer_raising(request_of(route, "rest", kwargs))

    async def webhook(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        """An interaction callback, followup or response edit of the bot (the webhook adapter)."""
        return await self._answer_raising(request_of(route, "webhook", kwargs))

    async def _answer_raising(self, request: Request) -> Any:
        try:
            return await self.answer(request)
        except DiscordError as error:
            raise error.exception() from None

    async def answer(self, request: Request) -> Any:
        """Apply ``request`` now and answer it (or raise ``DiscordError``) after ``delay``."""
        request.at = time.perf_counter()
        try:
            result = self.handle(request)
        except DiscordError:
            if self.delay:
                await asyncio.sleep(self.delay)
            raise
        if self.delay:
            await asyncio.sleep(self.delay)
        return result

    def handle(self, request: Request) -> Any:
        """Record ``request`` and change Discord's state; the answer discord.py expects, or ``DiscordError``."""
        self.request_count += 1
        if self.keep_requests:
            self.requests.append(request)
        token = request.token
        if token is not None and token not in self.first_response:
            self.first_response[token] = request.at or time.perf_counter()
        channel = self._channel_of(request)
        if channel is not None:
            self.requests_by_channel[channel] = self.requests_by_channel.get(channel, 0) + 1
        self._refuse_if_asked(request)
        if request.via == "webhook":
            return self._webhook(request)
        return self._rest(request)

    def _channel_of(self, request: Request) -> int | None:
        params = request.params
        if "channel_id" in params:
            return int(params["channel_id"])
        if request.token is not None:
            return self.channel_of.get(request.token)
        return None

    # ------------------------------------------------------------ messages

    def _message(self, channel_id: int, body: dict[str, Any], files: list[str]) -> StoredMessage:
        message = StoredMessage(next_id(), channel_id, body.get("content") or "", body.get("components") or [],
                                int(body.get("flags") or 0), files)
        if channel_id in self.dm_channels:
            message.dm_user = self.dm_channels[channel_id]
        self.messages[message.id] = message
        self._changed(message)
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
        self._changed(message)
        return message

    def _changed(self, message: StoredMessage) -> None:
        for watcher in self.watchers:
            watcher(message)

    # ------------------------------------------------------------ REST

    def _rest(self, request: Request) -> Any:
        method, path, body, files = request.method, request.path, request.json, request.files
        params = request.params
        if method == "POST" and path == "/users/@me/channels":
            user_id = int((body or {})["recipient_id"])
            channel_id = next((c for c, u in self.dm_channels.items() if u == user_id), None) or next_id()
            self.dm_channels[channel_id] = user_id
            return {"id": str(channel_id), "type": 1, "recipients": [self.users[user_id].payload()],
                    "last_message_id": None}
        if method == "POST" and path == "/channels/{channel_id}/messages":
            channel_id = int(params["channel_id"])
            recipient = self.dm_channels.get(channel_id)
            if recipient is not None and self.users[recipient].dm_closed:
                raise DiscordError(403, 50007, "Cannot send messages to this user")
            return self._message(channel_id, body or {}, files).payload()
        if method == "GET" and path == "/channels/{channel_id}/messages":
            # The channel's history, newest first (Discord's most per request); private answers are not in it.
            channel_id = int(params["channel_id"])
            found = [m for m in self.messages.values() if m.channel_id == channel_id and not m.flags & EPHEMERAL]
            return [m.payload() for m in sorted(found, key=lambda m: m.id, reverse=True)[:100]]
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            message = self.messages.get(int(params["message_id"]))
            if message is None:
                raise DiscordError(404, 10008, "Unknown Message")
            return self._edit(message, body or {}, files).payload()
        if method == "POST" and path == "/channels/{channel_id}/messages/{message_id}/threads":
            if not self.threads_allowed:
                raise DiscordError(403, 50013, "Missing Permissions")
            thread_id = next_id()
            self.threads.append(thread_id)
            self.thread_parent[thread_id] = int(params["channel_id"])
            return {"id": str(thread_id), "type": THREAD, "guild_id": str(GUILD_ID), "parent_id": params["channel_id"],
                    "name": (body or {}).get("name", ""), "owner_id": str(BOT_USER_ID),
                    "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                        "archive_timestamp": TIMESTAMP, "locked": False}}
        if method == "POST" and path == "/channels/{channel_id}/threads":
            if not self.private_threads_allowed:
                raise DiscordError(403, 50013, "Missing Permissions")
            thread_id = next_id()
            kind = int((body or {}).get("type", 12))
            self.threads.append(thread_id)
            self.thread_parent[thread_id] = int(params["channel_id"])
            self.thread_members[thread_id] = set()
            return {"id": str(thread_id), "type": kind, "guild_id": str(GUILD_ID), "parent_id": params["channel_id"],
                    "name": (body or {}).get("name", ""), "owner_id": str(BOT_USER_ID),
                    "thread_metadata": {"archived": False, "auto_archive_duration": 10080,
                                        "archive_timestamp": TIMESTAMP, "locked": False, "invitable": False}}
        if method == "PUT" and path == "/channels/{channel_id}/thread-members/{user_id}":
            self.thread_members.setdefault(int(params["channel_id"]), set()).add(int(params["user_id"]))
            return None
        if method == "DELETE" and path == "/channels/{channel_id}":
            self.deleted_channels.append(int(params["channel_id"]))
            return {"id": params["channel_id"], "type": 12}
        if method == "PUT" and path.startswith("/applications/") and path.endswith("/commands"):
            # The command sync: Discord answers with the commands as it registered them.
            commands: list[dict[str, Any]] = cast(Any, body) or []
            return [{**command, "id": str(next_id()), "application_id": str(APP_ID), "version": "1"}
                    for command in commands]
        if path.startswith("/applications/"):
            return body or []
        raise AssertionError(f"the fake Discord does not know {method} {path}")

    # ------------------------------------------------------------ interaction callbacks and webhooks

    def _webhook(self, request: Request) -> Any:
        method, path, files = request.method, request.path, request.files
        token = request.token or ""
        body = request.json or {}
        if path == "/interactions/{webhook_id}/{webhook_token}/callback":
            kind = body.get("type")
            interaction: dict[str, Any] = {"id": request.params["webhook_id"], "type": kind}
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
            message_id = self._message_ref(token, request.url.rsplit("/", 1)[-1].split("?")[0])
            target = self.messages.get(message_id) if message_id is not None else None
            if target is None:
                raise DiscordError(404, 10008, "Unknown Message")
            if method == "PATCH":
                self._edit(target, body, files)
            return target.payload()
        raise AssertionError(f"the fake Discord does not know webhook {method} {path}")

    def _message_ref(self, token: str, ref: str) -> int | None:
        if ref == "@original":
            original = self.originals.get(token)
            if original is None and token in self.clicked:
                return self.clicked[token]  # deferred update of a component: the original is the clicked message
            return original
        return int(ref)

    # ------------------------------------------------------------ queries

    def in_channel(self, channel_id: int) -> list[StoredMessage]:
        return [m for m in self.messages.values() if m.channel_id == channel_id]

    def dms_of(self, user_id: int) -> list[StoredMessage]:
        return [m for m in self.messages.values() if m.dm_user == user_id]

    def find(self, predicate: Callable[[Request], bool]) -> Iterator[Request]:
        return (r for r in self.requests if predicate(r))

    def latencies(self) -> list[float]:
        """Seconds from each answered interaction's arrival to its first answer."""
        return [self.first_response[token] - arrived for token, arrived in self.arrived.items()
                if token in self.first_response]


# ------------------------------------------------------------------ a person's client


@dataclass(frozen=True, slots=True)
class RawOption:
    """An option as a modified client may send it: any type code (3 text, 4 integer, 5 boolean, 6 user, 10 number)
    with any value, not resolved."""

    type: int
    value: Any


class Interactions:
    """Builds INTERACTION_CREATE payloads exactly as Discord sends them, and tells ``fake`` what they are."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def base(self, user: User, channel_id: int, *, dm: bool = False, channel_type: int = 0,
             permissions: str = MEMBER_PERMISSIONS, roles: tuple[int, ...] = ()) -> dict[str, Any]:
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
            return payload
        payload["guild_id"] = str(GUILD_ID)
        payload["guild_locale"] = "en-US"
        channel: dict[str, Any] = {"id": str(channel_id), "type": channel_type, "guild_id": str(GUILD_ID),
                                   "name": "kaarten", "position": 0, "permission_overwrites": [], "nsfw": False,
                                   "rate_limit_per_user": 0, "parent_id": None, "flags": 0}
        if channel_type == THREAD:
            parent = self.fake.thread_parent.get(channel_id, CHANNEL_ID)
            channel.update(parent_id=str(parent), owner_id=str(BOT_USER_ID), message_count=0, member_count=0,
                           thread_metadata={"archived": False, "auto_archive_duration": 1440,
                                            "archive_timestamp": TIMESTAMP, "locked": False})
        payload["channel"] = channel
        payload["member"] = {"user": user.payload(), "roles": [str(r) for r in roles], "joined_at": TIMESTAMP,
                             "deaf": False,
                             "mute": False, "flags": 0, "permissions": permissions}
        return payload

    def _channel_type(self, channel_id: int) -> int:
        return THREAD if channel_id in self.fake.thread_parent else 0

    def command(self, user: User, sub: str, channel_id: int = CHANNEL_ID, *, permissions: str = MEMBER_PERMISSIONS,
                dm: bool = False, roles: tuple[int, ...] = (), **options: Any) -> dict[str, Any]:
        """A slash subcommand (``"tournament join"``: a subcommand of a group); ``dm``: typed in a direct message
        with the bot (``user`` and no guild). Option values: str, int, float, bool, a ``User`` (a user option) or
        ``Role`` (a role option); users and roles come with Discord's ``resolved`` data; a ``RawOption`` as it is."""
        payload = self.base(user, channel_id, dm=dm, channel_type=self._channel_type(channel_id),
                            permissions=permissions, roles=roles)
        resolved: dict[str, dict[str, Any]] = {}
        opts = [self._option(name, value, resolved) for name, value in options.items()]
        *group, name = sub.split()
        tree: list[dict[str, Any]] = [{"name": name, "type": 1, "options": opts}]
        if group:
            tree = [{"name": group[0], "type": 2, "options": tree}]
        data: dict[str, Any] = {"id": str(COMMAND_ID), "name": "klaverjas", "type": 1, "options": tree}
        if resolved:
            data["resolved"] = resolved
        payload.update(type=2, data=data)
        return payload

    def slash(self, user: User, name: str, channel_id: int = CHANNEL_ID, *, sub: str | None = None,
              dm: bool = False, options: list[dict[str, Any]] | None = None,
              resolved: dict[str, Any] | None = None) -> dict[str, Any]:
        """Any slash command: top-level (``/stats``) or with ``sub`` (``/klaverjas history``); ``options`` as
        Discord sends them (type 6 for a user), ``resolved`` the users and members they name."""
        payload = self.base(user, channel_id, dm=dm, channel_type=self._channel_type(channel_id))
        given = list(options or [])
        data: dict[str, Any] = {"id": str(COMMAND_ID), "name": name, "type": 1,
                                "options": [{"name": sub, "type": 1, "options": given}] if sub else given}
        if resolved:
            data["resolved"] = resolved
        payload.update(type=2, data=data)
        return payload
    def _option(self, name: str, value: Any, resolved: dict[str, dict[str, Any]]) -> dict[str, Any]:
        if isinstance(value, RawOption):
            return {"name": name, "type": value.type, "value": value.value}
        if isinstance(value, User):
            self.fake.users[value.id] = value
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            resolved.setdefault("members", {})[str(value.id)] = {
                "roles": [], "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0,
                "permissions": MEMBER_PERMISSIONS}
            return {"name": name, "type": 6, "value": str(value.id)}
        if isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return {"name": name, "type": 8, "value": str(value.id)}
        kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 10 if isinstance(value, float) \
            else 3
        return {"name": name, "type": kind, "value": value}

    def autocomplete(self, user: User, sub: str, option: str, value: str, channel_id: int, *,
                     dm: bool = False) -> dict[str, Any]:
        payload = self.base(user, channel_id, dm=dm, channel_type=self._channel_type(channel_id))
        *group, name = sub.split()
        tree: list[dict[str, Any]] = [
            {"name": name, "type": 1, "options": [{"name": option, "type": 3, "value": value, "focused": True}]}]
        if group:
            tree = [{"name": group[0], "type": 2, "options": tree}]
        payload.update(type=4, data={"id": str(COMMAND_ID), "name": "klaverjas", "type": 1, "options": tree})
        return payload

    def click(self, user: User, message: StoredMessage, custom_id: str) -> dict[str, Any]:
        """A button on ``message`` (without the message in the payload, discord.py would ignore the click)."""
        payload = self.base(user, message.channel_id, dm=message.dm_user is not None, channel_type=THREAD)
        payload.update(type=3, data={"custom_id": custom_id, "component_type": 2}, message=message.payload())
        self.fake.clicked[payload["token"]] = message.id
        return payload

    def select(self, user: User, message: StoredMessage, custom_id: str, values: list[str]) -> dict[str, Any]:
        """A choice in a select menu (component type 3) on ``message``."""
        payload = self.base(user, message.channel_id, dm=message.dm_user is not None, channel_type=THREAD)
        payload.update(type=3, data={"custom_id": custom_id, "component_type": 3, "values": values},
                       message=message.payload())
        self.fake.clicked[payload["token"]] = message.id
        return payload


# ------------------------------------------------------------------ scripted players


def button_version(custom_id: str) -> int | None:
    """The table version a card or bid button was made for (``kj:c:<table>:<version>:<card>``)."""
    parts = custom_id.split(":")
    if len(parts) == 5 and parts[1] in ("c", "b") and parts[3].isdigit():
        return int(parts[3])
    return None


def scripted_click(message: StoredMessage, user_id: int) -> str | None:
    """The card or call a scripted player picks on ``message``, or None when it offers them nothing.

    Only the enabled buttons of their own hand (a DM) or of a bidding prompt naming them count. The pick
    depends on what the buttons say (version and card or call), never on ids that differ between runs,
    so the same game is played the same way however often the bot restarts.
    """
    if message.dm_user == user_id:
        options = [i for i in message.enabled_ids() if i.startswith("kj:c:")]
    elif f"<@{user_id}>" in message.content:
        options = [i for i in message.enabled_ids() if i.startswith("kj:b:")]
    else:
        return None
    if not options:
        return None
    options.sort(key=lambda i: i.split(":", 3)[3])
    key = f"{user_id}|" + "|".join(i.split(":", 3)[3] for i in options)
    return options[zlib.crc32(key.encode()) % len(options)]


# ------------------------------------------------------------------ the bot, wired to a fake


Answer = Callable[[Request], Awaitable[Any]]


def install(bot: discord.Client, answer: Answer) -> list[Any]:
    """Route every HTTP request of ``bot`` to ``answer``; returns the started patches (stop them in reverse)."""

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


def install_fake(bot: discord.Client, fake: FakeDiscord) -> list[Any]:
    """Route every HTTP request of ``bot`` to ``fake.rest`` and ``fake.webhook`` (looked up per request, so a
    test may replace or override them)."""

    async def rest_request(route: Any, **kwargs: Any) -> Any:
        return await fake.rest(route, **kwargs)

    async def webhook_request(adapter: AsyncWebhookAdapter, route: Any, session: Any, **kwargs: Any) -> Any:
        return await fake.webhook(route, session, **kwargs)

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
                 warm_up: bool = False, drawing_workers: int = 0) -> None:
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
        self.interactions = Interactions(self.fake)
        self.bot: KlaverjasBot | None = None
        self._patches: list[Any] = []

    async def __aenter__(self) -> OfflineBot:
        store = await store_at(self.db).open()
        bot = KlaverjasBot(store, self.config, sync_commands=False, ai_workers=self.ai_workers, choose=self.choose,
                           warm_up=self.warm_up, schedule_tournaments=False, drawing_workers=self.drawing_workers,
                           delivery=self.delivery)
        self.bot = bot
        await bot.__aenter__()  # wires the loop without connecting
        connect_offline(bot)
        self._patches = install_fake(bot, self.fake)
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
