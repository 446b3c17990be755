"""Scripted players: the choice a person makes from what Discord shows them, the same however often the bot
restarts."""

from __future__ import annotations

import zlib

from bot.fake_discord.discord_side import StoredMessage


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
