"""What crosses the wire between the bot and the fake Discord: its fixed ids, the requests discord.py makes, and
Discord's refusals as discord.py raises them."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import discord

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

