"""Discord's side: the users, roles and messages it knows, and ``FakeDiscord``, which answers the bot's requests
the way Discord does (and can refuse them the way Discord does)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import discord

from bot.fake_discord.wire import (
    APP_ID,
    BOT_USER_ID,
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    THREAD,
    TIMESTAMP,
    DiscordError,
    Request,
    discord_error,
    next_id,
)


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
    requests_by_route: dict[str, int] = field(default_factory=dict)  # ``route_of`` -> requests, counted
    arrived: dict[str, float] = field(default_factory=dict)  # interaction token -> when the bot got it
    kinds: dict[str, str] = field(default_factory=dict)  # interaction token -> ``interaction_kind``
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

    async def answer(self, request: Request) -> Any:
        """A request of the bot (REST, or an interaction's callback, followup or edit through the webhook
        adapter): apply it now and answer it (or raise ``DiscordError``) after ``delay``."""
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
        route = self.route_of(request)
        self.requests_by_route[route] = self.requests_by_route.get(route, 0) + 1
        self._refuse_if_asked(request)
        if request.via == "webhook":
            return self._webhook(request)
        return self._rest(request)

    def route_of(self, request: Request) -> str:
        """``request``'s route as Discord counts it, with where it went: "REST POST /channels/{channel_id}/messages
        (DM)"; an interaction's answers (its callback, followups and edits through its token) start with
        "interaction". Only REST requests count against the bot's global limit of requests per second."""
        if request.via == "webhook":
            kind = (request.json or {}).get("type") if request.path.endswith("/callback") else None
            return f"interaction {request.method} {request.path}" + (f" type {kind}" if kind is not None else "")
        channel = request.params.get("channel_id")
        place = ""
        if channel is not None:
            place = " (DM)" if int(channel) in self.dm_channels else " (thread)" if int(channel) in self.threads \
                else " (channel)"
        return f"REST {request.method} {request.path}{place}"

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
            # As Discord: the thread has its starter message's id, and a message starts one thread at most.
            thread_id = int(params["message_id"])
            if thread_id not in self.messages:
                raise DiscordError(404, 10008, "Unknown Message")
            if thread_id in self.threads:
                raise DiscordError(400, 160004, "A thread has already been created for this message")
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

    def latencies_by_kind(self) -> dict[str, list[float]]:
        """``latencies`` apart for each kind of interaction (``interaction_kind``)."""
        split: dict[str, list[float]] = {}
        for token, arrived in self.arrived.items():
            if token in self.first_response:
                split.setdefault(self.kinds.get(token, "other"), []).append(self.first_response[token] - arrived)
        return split


def interaction_kind(payload: dict[str, Any]) -> str:
    """What an INTERACTION_CREATE payload asks, for telling latencies apart: "/klaverjas start", "click b" (a
    bid), "click c" (a card), "click l start" (a lobby's button)..."""
    data = payload.get("data") or {}
    if payload.get("type") == 3:
        parts = str(data.get("custom_id", "")).split(":")
        kind = parts[1] if len(parts) > 1 else "?"
        return f"click {kind} {parts[-1]}" if kind == "l" else f"click {kind}"
    words = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group): its name, then its own options
        words.append(str(options[0]["name"]))
        options = options[0].get("options") or []
    return "/" + " ".join(words)

