"""A page and chat players at one table: the real bot on the offline harness (real gateway payloads, a fake
Discord) serves its web table on a port, and Chromium plays one seat from the link ``/klaverjas web`` gave, while
two people play theirs with the chat's buttons and the fourth seat is an AI. The person at the page also plays a
card from the chat mid-match and goes back to the page. The whole match is played; the page is sent no card of
another seat; the thread announces every trick as it does for a chat-only table."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from test_browser import (
    CHROMIUM,
    PHONE,
    Watched,
    _missing,
    async_playwright,
    check_dom,
    free_port,
    shot_path,
    step,
    watch_frames,
)

from bot.fake_discord.discord_side import StoredMessage, User
from bot.fake_discord.offline_bot import OfflineBot
from bot.fake_discord.scripted import scripted_click
from bot.fake_discord.wire import CHANNEL_ID
from bot.tables.model import SeatKind, Table
from bot.tables.service import ServiceConfig
from bot.texts.catalog import seat_name, t
from bot.web.config import WebConfig
from engine.cards import SEATS

pytestmark = pytest.mark.skipif(_missing() is not None, reason=str(_missing()))

ANNA, BERT, CHRIS = User(1001, "Anna"), User(1002, "Bert"), User(1003, "Chris")
SECRET = "browser-chat-secret-0123456789"


class HarnessTable:
    """What ``test_browser.step`` asks of its rig: the table as the bot has it now."""

    def __init__(self, h: OfflineBot, table_id: int) -> None:
        self.h, self.table_id = h, table_id

    @property
    def table(self) -> Table:
        assert self.h.bot is not None
        return self.h.bot.service.get(self.table_id)


@asynccontextmanager
async def bot_serving_the_web(tmp_path: Path) -> AsyncIterator[tuple[OfflineBot, str]]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    web = WebConfig(secret=SECRET, public_url=url, port=port, host="127.0.0.1")
    # Turn clocks long and no pauses: the test's own pace decides; the AI seat plays as soon as it is its turn.
    config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=600, reviews=False)
    async with OfflineBot(tmp_path / "k.sqlite3", config=config, web=web, serve_web=True) as h:
        yield h, url


def latest_offer(h: OfflineBot, user: User, channel: int) -> tuple[StoredMessage, str] | None:
    """The newest message offering ``user`` a card (their DM hand) or a call (a prompt naming them)."""
    candidates = h.fake.dms_of(user.id) + h.fake.in_channel(channel)
    for message in sorted(candidates, key=lambda m: m.id, reverse=True):
        choice = scripted_click(message, user.id)
        if choice is not None:
            return message, choice
    return None


async def chat_turn(h: OfflineBot, table: Table, user: User, standing: set[asyncio.Task[Any]]) -> bool:
    """``user`` acts with the chat's buttons if it is their turn; True when they did. ``standing``: the tasks that
    never end while the page is open (the browser's pipe, the page's socket), which settling does not wait for."""
    seat = table.seat_of(user.id)
    if seat is None or table.game.to_act is not seat or not table.running:
        return False
    await h.settle(standing)
    offer = latest_offer(h, user, table.thread_id or CHANNEL_ID)
    if offer is None:
        return False
    message, choice = offer
    version = table.version
    await h.click(user, message, choice)
    await h.settle(standing)
    return table.version > version


async def test_a_page_plays_a_whole_match_beside_two_chat_players_and_switches_to_the_chat_and_back(
        tmp_path: Path) -> None:
    assert async_playwright is not None
    async with bot_serving_the_web(tmp_path) as (h, url), async_playwright() as playwright:
        assert h.bot is not None
        await h.command(ANNA, "start", length="1", ai="easy")
        lobby = [m for m in h.fake.in_channel(CHANNEL_ID) if m.content.startswith("🃏")][-1]
        table_id = int(lobby.custom_ids()[0].split(":")[2])
        for guest in (BERT, CHRIS):
            await h.click(guest, lobby, f"kj:l:{table_id}:join")
        await h.click(ANNA, lobby, f"kj:l:{table_id}:start")
        rig = HarnessTable(h, table_id)
        table = rig.table
        assert table.running

        # Chris asks for his link in the table's thread and opens it on a phone.
        token = await h.command(CHRIS, "web", channel_id=table.thread_id or CHANNEL_ID)
        [answer] = [r for r in h.responses_to(token) if r.ephemeral]
        [link] = [c["url"] for row in answer.data["components"] for c in row["components"] if c.get("style") == 5]
        assert link.startswith(url + "/")
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport=PHONE)
            page = await context.new_page()
            watched = Watched(page, table.seat_of(CHRIS.id))
            watch_frames(watched, lambda: rig.table)
            page.on("pageerror", lambda error: watched.leaks.append(f"page error: {error}"))
            await page.goto(link)
            await page.wait_for_selector("#app[data-version]")
            standing = set(asyncio.all_tasks())

            from_chat = 0  # cards Chris played from his DM hand
            from_page = 0
            loop = asyncio.get_running_loop()
            end = loop.time() + 90
            while not table.game.finished:
                assert loop.time() < end, f"the match did not finish (phase {table.game.phase})"
                acted = False
                for user in (ANNA, BERT):
                    acted = await chat_turn(h, table, user, standing) or acted
                chris_to_act = table.game.to_act is watched.seat and table.running
                if chris_to_act and from_page >= 3 and from_chat == 0 and table.game.hand is not None \
                        and table.game.hand.plays:
                    # Mid-match Chris picks up his phone's chat instead, plays one card there, then goes back.
                    acted = await chat_turn(h, table, CHRIS, standing) or acted
                    from_chat += 1
                elif chris_to_act:
                    shown = table.version
                    await page.wait_for_selector(f"#app[data-version='{shown}']", state="attached")
                    if await step(rig, watched):  # type: ignore[arg-type]
                        from_page += 1
                        acted = True
                        await page.wait_for_selector(f"#app:not([data-version='{shown}'])", state="attached")
                await check_dom(watched, table)
                if not acted:
                    await h.settle(standing)
                    await asyncio.sleep(0.02)
            await h.settle(standing)
            await check_dom(watched, table)
            await page.screenshot(path=shot_path("chat-and-page-phone"))
        finally:
            await browser.close()

        assert from_chat == 1 and from_page >= 6
        # The AI seat has the name the chat gives it ("AI West"), not a bare seat letter.
        [ai_seat] = [seat for seat in SEATS if table.seats[seat].kind is SeatKind.AI]
        welcome = next(f for f in watched.frames if f["type"] == "welcome")
        assert welcome["names"][str(ai_seat)] == t("ai.name", "en", seat=seat_name(ai_seat, "en"))
        assert not watched.leaks, watched.leaks
        # The page showed every trick and the end of the match; the thread told them as it does without a page:
        # the table message was brought up to date at every trick, and the hand's settlement was posted.
        events: list[Any] = [f["event"]["kind"] for f in watched.frames if f["type"] == "event"]
        assert events.count("trick") == 8 and "over" in events
        assert table.table_message_id is not None
        assert h.fake.messages[table.table_message_id].edits >= 8
        thread = h.fake.in_channel(table.thread_id or CHANNEL_ID)
        assert any(m.content.startswith("Hand 1:") for m in thread), [m.content for m in thread]
