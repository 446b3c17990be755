"""Discord's limits, enforced where messages leave the bot, and user text made safe to show back.

``fit`` is the boundary: every message the handlers and the announcer send or edit passes through it
(``Payload.send_kwargs``/``edit_kwargs`` and ``context.reply``), so nothing is over 2,000 characters or
over an embed's limits, which Discord would refuse (and the player would see nothing). ``tame`` is for
text a user chose (what they typed, a display name) inside one of our sentences.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import discord

MESSAGE_LIMIT = 2000  # characters of a message's content
ECHO_LIMIT = 40  # characters of a user's input shown back to them
ELLIPSIS = "…"

# An embed's limits (Discord's "Embed Limits"): each field, and all of an embed's text together.
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
EMBEDS_PER_MESSAGE = 10


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, with an ellipsis when something was cut."""
    if len(text) <= limit:
        return text
    return text[:max(limit - len(ELLIPSIS), 0)].rstrip() + ELLIPSIS


def visible(text: str) -> str:
    """What a person sees of ``text``, on one line: control and format characters dropped (zero-width and
    right-to-left marks would hide or reverse what follows), any run of white space one space."""
    kept = "".join(" " if char.isspace() else char for char in text
                   if char.isspace() or not unicodedata.category(char).startswith("C"))
    return " ".join(kept.split())


def tame(text: str, limit: int = ECHO_LIMIT) -> str:
    """User-chosen text for inside a sentence: its visible part, at most ``limit`` characters, with
    markdown and mentions escaped, so ``**``, a backtick or ``@everyone`` shows as typed and does nothing.

    Every ``@`` gets a zero-width space after it: that breaks @everyone, @here and ``<@…>`` of any
    length (discord.utils.escape_mentions leaves ``<@1001>`` alone).
    """
    return discord.utils.escape_markdown(shorten(visible(text), limit)).replace("@", "@\u200b")


def fit(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Send/edit keyword arguments within Discord's limits: the content and any embeds shortened."""
    content = kwargs.get("content")
    if isinstance(content, str) and len(content) > MESSAGE_LIMIT:
        kwargs["content"] = shorten(content, MESSAGE_LIMIT)
    if isinstance(kwargs.get("embed"), discord.Embed):
        kwargs["embed"] = fit_embed(kwargs["embed"])
    if isinstance(kwargs.get("embeds"), list):
        kwargs["embeds"] = [fit_embed(embed) for embed in kwargs["embeds"][:EMBEDS_PER_MESSAGE]]
    return kwargs


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """A copy of ``embed`` within each field's limit and the 6,000 characters of all its text."""
    data: dict[str, Any] = dict(embed.to_dict())
    if "title" in data:
        data["title"] = shorten(data["title"], EMBED_TITLE)
    if "description" in data:
        data["description"] = shorten(data["description"], EMBED_DESCRIPTION)
    if "footer" in data and "text" in data["footer"]:
        data["footer"]["text"] = shorten(data["footer"]["text"], EMBED_FOOTER)
    if "author" in data and "name" in data["author"]:
        data["author"]["name"] = shorten(data["author"]["name"], EMBED_AUTHOR)
    fields = [{**field, "name": shorten(field["name"], EMBED_FIELD_NAME),
               "value": shorten(field["value"], EMBED_FIELD_VALUE)} for field in data.get("fields", [])[:EMBED_FIELDS]]
    # Over the total: the last fields go first, then the description gives way.
    while fields and _embed_length(data, fields) > EMBED_TOTAL:
        fields.pop()
    if fields or "fields" in data:
        data["fields"] = fields
    excess = _embed_length(data, fields) - EMBED_TOTAL
    if excess > 0 and "description" in data:
        data["description"] = shorten(data["description"], max(len(data["description"]) - excess, 0))
    return discord.Embed.from_dict(data)


def _embed_length(data: dict[str, Any], fields: list[dict[str, Any]]) -> int:
    return (len(data.get("title", "")) + len(data.get("description", ""))
            + len(data.get("footer", {}).get("text", "")) + len(data.get("author", {}).get("name", ""))
            + sum(len(field["name"]) + len(field["value"]) for field in fields))
