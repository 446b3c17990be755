"""The offline harness the bot's tests use: the real KlaverjasBot with a fake Discord.

It lives in the package (``bot.discord_app.offline``) so ``klaverjas bench load`` can drive it too; this
module keeps the names the tests import.
"""

from bot.discord_app.offline import (
    ALL_PERMISSIONS,
    APP_ID,
    BOT_USER_ID,
    CHANNEL_ID,
    COMMAND_ID,
    EPHEMERAL,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    TIMESTAMP,
    FakeDiscord,
    RawOption,
    Request,
    StoredMessage,
    User,
    _error,
    discord_error,
    next_id,
)
from bot.discord_app.offline import OfflineBot as Harness

__all__ = ["ALL_PERMISSIONS", "APP_ID", "BOT_USER_ID", "CHANNEL_ID", "COMMAND_ID", "EPHEMERAL", "GUILD_ID",
           "MEMBER_PERMISSIONS", "TIMESTAMP", "FakeDiscord", "Harness", "RawOption", "Request", "StoredMessage", "User",
           "_error", "discord_error", "next_id"]
