"""A person's client: INTERACTION_CREATE payloads (slash commands, autocompletes, clicks, choices) exactly as
Discord sends them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.fake_discord.discord_side import FakeDiscord, Role, StoredMessage, User
from bot.fake_discord.wire import (
    ALL_PERMISSIONS,
    APP_ID,
    BOT_USER_ID,
    CHANNEL_ID,
    COMMAND_ID,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    THREAD,
    TIMESTAMP,
    next_id,
)


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
