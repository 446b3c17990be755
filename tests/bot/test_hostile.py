"""Hostile input through the offline harness: commands from a DM, input over Discord's limits, names
that read like mentions (forged custom ids: test_custom_ids). Each with a Discord failure, and the game going on."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from harness import CHANNEL_ID, GUILD_ID, Harness, Request, User
from test_discord import ANNA, BERT, CHRIS, SEED, hand_message, lobby, play_turn
from test_scenarios import bot_of, started, thread_of, until

from bot.discord_app.limits import ECHO_LIMIT, MESSAGE_LIMIT, visible
from bot.tables.model import Delivery, TableStatus
from engine.cards import Card

DM_CHANNEL = 940000000000000001
NOT_HERE = {"en-US": "Use this in a server channel.", "nl": "Gebruik dit in een serverkanaal."}


def any_callback(request: Request) -> bool:
    return request.via == "webhook" and request.path.endswith("/callback")


def seat_turn(h: Harness, table_id: int, user: User) -> bool:
    table = bot_of(h).service.get(table_id)
    return table.game.phase.value == "play" and table.game.to_act is table.seat_of(user.id)


# ------------------------------------------------------------------ 1. commands from a DM


async def test_the_command_group_is_declared_for_servers_only(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        # Discord fails the first sync (503): nothing is remembered, so the next start syncs again.
        h.fake.fail_next(lambda r: r.method == "PUT" and r.path.endswith("/commands"), 503, 0, "Service Unavailable")
        with pytest.raises(Exception, match="503"):
            await bot.sync_if_changed()
        assert await bot.store.get_meta("commands_hash:global") is None
        assert await bot.sync_if_changed()
        syncs = [r for r in h.fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert len(syncs) == 2
        [group] = [c for c in syncs[-1].json or [] if c["name"] == "klaverjas"]  # type: ignore[union-attr]
        assert group["contexts"] == [0]  # guild only: no bot DM (1), no group DM (2)
        assert group["integration_types"] == [0]  # installed in servers, not as a user app
        assert group["dm_permission"] is False
        assert not await bot.sync_if_changed()  # unchanged: not synced again


async def test_every_subcommand_from_a_dm_is_refused_privately_and_changes_nothing(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        table_id = await started(h, ANNA, [])
        table = bot.service.get(table_id)
        await until(h, lambda: seat_turn(h, table_id, ANNA), [ANNA])
        legal = next(c for c in table.game.legal_actions() if isinstance(c, Card))
        tables, version, requests = len(bot.service.tables), table.version, len(h.fake.requests)
        asked = [("start", {}), ("settings", {"bidding": "draaien"}), ("join", {}), ("join", {"seat": "N"}),
                 ("leave", {}), ("stop", {}), ("rules", {}), ("hand", {}), ("hand", {"delivery": "thread"}),
                 ("play", {"card": legal.notation}), ("hint", {}), ("score", {}), ("replay", {"match": "1"}),
                 ("export", {"match": "1"}), ("history", {}), ("forget-me", {}), ("review", {"match": "1"}),
                 ("tournament create", {"name": "Cup"}), ("tournament join", {}),
                 ("tournament standings", {}), ("tournament close", {"tournament": "1"}),
                 ("tournament config", {"daily": True}), ("tournament winners", {}), ("web", {})]
        assert {sub.split()[0] for sub, _ in asked} == {c.name for c in bot.klaverjas.commands}  # every subcommand
        [group] = [c for c in bot.klaverjas.commands if c.name == "tournament"]
        assert {sub.split()[-1] for sub, _ in asked if sub.startswith("tournament ")} == {
            c.name for c in group.commands}  # type: ignore[attr-defined]
        for user in (ANNA, CHRIS):  # the host (seated, her turn) in English; someone else in Dutch
            for sub, options in asked:
                token = await h.command(user, sub, DM_CHANNEL, dm=True, **options)
                answers = h.responses_to(token)
                assert [r.content for r in answers] == [NOT_HERE[user.locale]], (sub, answers)
                assert all(r.ephemeral for r in answers)
        assert len(bot.service.tables) == tables and table.status is TableStatus.PLAYING
        assert table.version == version and table.seat_of(ANNA.id) is not None
        assert await bot.store.user_delivery(ANNA.id) is None
        assert await bot.store.guild_defaults(GUILD_ID) is None
        # Only the refusals went out: no DM, no post, no thread, no edit.
        assert all(any_callback(r) for r in h.fake.requests[requests:])
        assert await h.autocomplete(ANNA, "play", "card", "", DM_CHANNEL, dm=True) == []
        # The refusal itself can fail (the interaction expired: 10062): logged, and the game goes on.
        h.fake.fail_next(any_callback, 404, 10062, "Unknown interaction")
        await h.command(ANNA, "play", DM_CHANNEL, dm=True, card=legal.notation)
        assert table.version == version
        token = await h.command(ANNA, "play", thread_of(h, table_id), card=legal.notation)
        assert table.game.actions[version] == legal
        assert any("Played" in r for r in h.private_replies(token))


# ------------------------------------------------------------------ 2. input over Discord's limits

ROLE_ID = 960000000000000001
ODD_TEXTS = {
    "junk": "Q" * 1990,
    "zero-width": "\u200b\u200c\u200d\u2060\ufeff" * 300 + "X",
    "right-to-left": "\u202e" + "gnol " * 300 + "\u2066\u2069\u200f",
    "emoji": "🃏👨‍👩‍👧🏳️‍🌈" * 200,
    "mentions": f"@everyone @here <@&{ROLE_ID}> <@{ANNA.id}> " * 40,
    "backticks": "```py\nimport os``` `" * 100,
    "markdown": "**bold** __under__ ~~gone~~ ||spoiler|| > quote\n# Title\n-# small [link](https://evil.example) " * 20,
    "control": "\x00\x07\x1b[31m\r\n\t\x85\u2028" * 100,
}


def visible_excerpt(answer: str) -> str:
    """The user's input as shown inside an answer, with its escapes taken out."""
    quoted = re.search("“(.*)”", answer, re.DOTALL)
    assert quoted is not None, answer
    return re.sub(r"\\(.)", r"\1", quoted.group(1)).replace("\u200b", "")


def assert_tame(answer: str) -> None:
    """One line, no ping, no markdown breaking out, nothing invisible or reordering, within the limit."""
    assert len(answer) <= MESSAGE_LIMIT and "\n" not in answer and "\r" not in answer
    assert not re.search(r"@(everyone|here)|<@[&!]?\d", answer), answer
    assert not re.search(r"(?<!\\)[`*_~|]", answer), answer  # every markdown character escaped
    assert not re.search(r"(?<!\\)\[.*\]\(", answer), answer  # no masked link
    assert not any(unicodedata.category(c).startswith("C") and c != "\u200b" for c in answer), answer


@pytest.mark.parametrize("name", list(ODD_TEXTS))
async def test_a_junk_card_is_answered_with_a_short_clean_excerpt(tmp_path: Path, name: str) -> None:
    text = ODD_TEXTS[name]
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [])
        table = bot_of(h).service.get(table_id)
        version = table.version
        token = await h.command(ANNA, "play", thread_of(h, table_id), card=text)
        [answer] = h.private_replies(token)
        assert answer.endswith(" is not a card: type one like JH or 10S, or pick one from the list."), answer
        assert_tame(answer)
        shown = visible_excerpt(answer)
        assert 0 < len(shown) <= ECHO_LIMIT
        assert shown.endswith("…") == (len(visible(text)) > ECHO_LIMIT)
        assert table.version == version
        # The same junk as a seat: the same treatment.
        token = await h.command(BERT, "join", seat=text)
        [answer] = h.private_replies(token)
        assert answer.startswith("Not a seat: ") and len(answer) < 120, answer
        assert_tame(answer)


async def test_invisible_marks_around_a_card_still_play_it_and_the_echo_is_what_was_read(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [])
        table = bot_of(h).service.get(table_id)
        await until(h, lambda: seat_turn(h, table_id, ANNA), [ANNA])
        legal = next(c for c in table.game.legal_actions() if isinstance(c, Card))
        version = table.version
        token = await h.command(ANNA, "play", thread_of(h, table_id),
                                card=f"\u202e{legal.notation[0]}\u200b{legal.notation[1]}\n")
        assert table.game.actions[version] == legal
        assert any(r.startswith("Played") for r in h.private_replies(token))


async def test_no_answer_is_over_2000_characters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        table_id = await started(h, ANNA, [])
        await until(h, lambda: seat_turn(h, table_id, ANNA), [ANNA])

        async def long_hint(*args: object) -> str:
            return "Play J♥: " + "because " * 600 + "@everyone"

        monkeypatch.setattr(bot.thinker, "hint", long_hint)
        token = await h.command(ANNA, "hint", channel_id=thread_of(h, table_id))
        [answer] = [r for r in h.private_replies(token) if r]
        assert len(answer) == MESSAGE_LIMIT and answer.endswith("…")
        for request in h.fake.requests:
            assert len(request.content) <= MESSAGE_LIMIT


async def test_a_rate_limited_or_failed_answer_loses_no_card_and_plays_none_twice(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [])
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await until(h, lambda: seat_turn(h, table_id, ANNA), [ANNA])
        version = table.version
        # The junk card's answer is rate limited (429 after discord.py's retries): nothing changes.
        h.fake.fail_next(any_callback, 429, 0, "You are being rate limited.")
        await h.command(ANNA, "play", thread, card="Q" * 1990)
        assert table.version == version
        # A real card whose "Played" answer fails (Discord 500): the card is played once, not lost.
        legal = next(c for c in table.game.legal_actions() if isinstance(c, Card))
        h.fake.fail_next(lambda r: r.via == "webhook" and r.method == "POST" and "/webhooks/" in r.path, 500, 0,
                         "Internal Server Error")
        await h.command(ANNA, "play", thread, card=legal.notation)
        assert table.game.actions[version] == legal
        assert table.game.actions.count(legal) == 1
        await until(h, lambda: seat_turn(h, table_id, ANNA) or not table.running, [ANNA])
        assert await play_turn(h, table_id, ANNA) or not table.running


# ------------------------------------------------------------------ 4. names that read like mentions

EVERYONE = User(1010, "@everyone")
ROLE = User(1011, f"<@&{ROLE_ID}>", dm_closed=True)


def assert_pings_only(requests: list[Request], allowed: set[int]) -> None:
    """Every message that was sent or edited says whom it may ping: nobody by role or @everyone, and no user
    but ``allowed``."""
    checked = 0
    for request in requests:
        if "content" not in request.data:
            continue
        mentions = request.data.get("allowed_mentions")
        assert mentions is not None, request
        assert mentions.get("parse", []) == [] and not mentions.get("roles"), request
        assert set(mentions.get("users", [])) <= allowed, request
        checked += 1
    assert checked


async def test_names_that_read_like_mentions_ping_nobody(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        # Discord refuses threads here (50013) and DMs to the host (50007): the game is played in the channel.
        h.fake.threads_allowed = False
        bot_of(h).service.new_seed = lambda: SEED
        token = await h.command(ROLE, "start", length="1", ai="normal")
        assert any("cannot send you direct messages" in r for r in h.private_replies(token))
        table_id = max(bot_of(h).service.tables)
        table = bot_of(h).service.get(table_id)
        assert table.seats[table.seat_of(ROLE.id)].delivery is Delivery.THREAD  # type: ignore[index]
        token = await h.click(EVERYONE, lobby(h), f"kj:l:{table_id}:join")
        assert any(r.startswith("You sit") for r in h.private_replies(token))
        seat = table.seat_of(EVERYONE.id)
        assert seat is not None
        token = await h.select(BERT, lobby(h), f"kj:seat:{table_id}", [seat.letter])
        [taken] = h.private_replies(token)
        assert taken == f"Seat {seat.letter} is taken by @\u200beveryone."
        await h.click(ROLE, lobby(h), f"kj:l:{table_id}:start")
        assert table.running and table.thread_id is None
        # Out of turn: the refusal names the player to act, escaped.
        await until(h, lambda: seat_turn(h, table_id, ROLE), [EVERYONE, ROLE])
        hand = hand_message(h, table_id, EVERYONE)
        token = await h.click(EVERYONE, hand, hand.custom_ids()[0])
        assert h.private_replies(token) == [f"It is <@\u200b&{ROLE_ID}>'s turn."]
        # The game goes on: the host plays from the channel (no thread, no DM).
        version = table.version
        legal = next(c for c in table.game.legal_actions() if isinstance(c, Card))
        await h.command(ROLE, "play", CHANNEL_ID, card=legal.notation)
        assert table.game.actions[version] == legal
        assert_pings_only(h.fake.requests, {ROLE.id, EVERYONE.id})
        lobby_request = next(r for r in h.fake.requests if r.content.startswith("🃏"))
        assert lobby_request.data["allowed_mentions"] == {"parse": []}
