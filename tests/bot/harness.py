"""The offline harness the bot's tests use: the real KlaverjasBot with a fake Discord.

It lives in the package (``bot.fake_discord``) so ``klaverjas bench load`` can drive it too; this
module keeps the names the tests import.
"""

from bot.fake_discord.discord_side import FakeDiscord, StoredMessage, User
from bot.fake_discord.interactions import RawOption
from bot.fake_discord.offline_bot import OfflineBot as Harness
from bot.fake_discord.wire import (
    ALL_PERMISSIONS,
    APP_ID,
    BOT_USER_ID,
    CHANNEL_ID,
    COMMAND_ID,
    EPHEMERAL,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    TIMESTAMP,
    Request,
    _error,
    discord_error,
    next_id,
)

__all__ = ["ALL_PERMISSIONS", "APP_ID", "BOT_USER_ID", "CHANNEL_ID", "COMMAND_ID", "EPHEMERAL", "GUILD_ID",
           "MEMBER_PERMISSIONS", "TIMESTAMP", "FakeDiscord", "Harness", "RawOption", "Request", "StoredMessage", "User",
           "_error", "discord_error", "next_id"]
