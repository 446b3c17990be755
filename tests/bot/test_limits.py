"""Discord's limits at the boundary: whatever text goes in, what is sent fits, and user text shown
back is one short line that pings and formats nothing."""

from __future__ import annotations

import re
import unicodedata

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord_app.limits import (
    ECHO_LIMIT,
    EMBED_AUTHOR,
    EMBED_DESCRIPTION,
    EMBED_FIELD_NAME,
    EMBED_FIELD_VALUE,
    EMBED_FIELDS,
    EMBED_FOOTER,
    EMBED_TITLE,
    EMBED_TOTAL,
    EMBEDS_PER_MESSAGE,
    MESSAGE_LIMIT,
    fit,
    tame,
    visible,
)
from bot.discord_app.messages import Payload

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
# Text as a hostile or unlucky user types it: mentions, markdown, invisible and reordering marks, emoji, lines.
ODD = st.lists(st.one_of(
    st.sampled_from(["@everyone", "@here", "<@&960000000000000001>", "<@1001>", "`", "```", "*", "_", "~", "|",
                     ">", "#", "-", "[x](https://evil.example)", "\\", "\n", "\r\n", "\u200b", "\u200d", "\u202e",
                     "\u2066", "\ufeff", "\x00", "\x1b", "🃏", "👨‍👩‍👧", "ﷺ", "Zalgo\u0336\u0336"]),
    st.characters()), max_size=100).map("".join)
LONG = st.text(max_size=10).map(lambda s: s * 700)


@SETTINGS
@given(st.one_of(ODD, LONG))
def test_user_text_is_shown_back_as_one_short_harmless_line(text: str) -> None:
    shown = tame(text)
    unescaped = re.sub(r"\\(.)", r"\1", shown).replace("\u200b", "")
    assert len(unescaped) <= ECHO_LIMIT
    assert "\n" not in shown and "\r" not in shown
    assert not re.search(r"@(everyone|here)|<@[&!]?\d", shown)
    assert not re.search(r"(?<!\\)[`*_~|]", shown)
    assert not any(unicodedata.category(c).startswith("C") and c != "\u200b" for c in shown)
    assert unescaped.rstrip("…") in visible(text) or unescaped.endswith("…")


def test_what_is_kept_of_user_text() -> None:
    assert tame("  J\u200bH \n") == "JH"
    assert tame("x" * 100) == "x" * 39 + "…"
    assert tame("**hi** `x`") == "\\*\\*hi\\*\\* \\`x\\`"
    assert tame("@everyone <@&960000000000000001>") == "@\u200beveryone <@\u200b&960000000000000001>"
    assert visible("\u202eA\u2028B\tC") == "A B C"


@SETTINGS
@given(st.one_of(ODD, LONG, st.text(min_size=1990, max_size=2100)))
def test_no_message_content_is_over_2000_characters(text: str) -> None:
    payload = Payload(text * 3)
    for kwargs in (payload.send_kwargs(), payload.edit_kwargs(), fit({"content": text * 3})):
        assert len(kwargs["content"]) <= MESSAGE_LIMIT
        assert kwargs["content"] == text * 3 or kwargs["content"].endswith("…")
    assert Payload("short").send_kwargs()["content"] == "short"


LONG_TEXT = st.text(max_size=5000)


@st.composite
def embeds(draw: st.DrawFn) -> discord.Embed:
    embed = discord.Embed(title=draw(LONG_TEXT) or None, description=draw(LONG_TEXT) or None)
    for _ in range(draw(st.integers(0, 40))):
        embed.add_field(name=draw(st.text(max_size=400)) or "n", value=draw(st.text(max_size=2000)) or "v")
    if draw(st.booleans()):
        embed.set_footer(text=draw(LONG_TEXT))
    if draw(st.booleans()):
        embed.set_author(name=draw(st.text(max_size=500)) or "a")
    return embed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
          derandomize=True)
@given(st.lists(embeds(), max_size=12))
def test_no_embed_is_over_its_limits(given_embeds: list[discord.Embed]) -> None:
    sent = fit({"embeds": given_embeds})["embeds"]
    assert len(sent) == min(len(given_embeds), EMBEDS_PER_MESSAGE)
    for embed in sent:
        assert len(embed.title or "") <= EMBED_TITLE
        assert len(embed.description or "") <= EMBED_DESCRIPTION
        assert len(embed.fields) <= EMBED_FIELDS
        assert all(len(f.name or "") <= EMBED_FIELD_NAME and len(f.value or "") <= EMBED_FIELD_VALUE
                   for f in embed.fields)
        assert len(embed.footer.text or "") <= EMBED_FOOTER
        assert len(embed.author.name or "") <= EMBED_AUTHOR
        assert len(embed) <= EMBED_TOTAL


def test_an_embed_within_its_limits_is_sent_as_it_is() -> None:
    embed = discord.Embed(title="Score", description="NS 82 – EW 80").add_field(name="Hand 1", value="82 – 80")
    assert fit({"embed": embed})["embed"].to_dict() == embed.to_dict()
