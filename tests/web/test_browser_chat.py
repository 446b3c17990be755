"""A page and chat players at one table: the real bot on the offline harness (real gateway payloads, a fake
Discord) serves its web table on a port, and Chromium plays one seat, while two people play theirs with the chat's
buttons and the fourth seat is an AI. The page is opened from the link ``/klaverjas web`` gave, or launched as the
Activity in the table's thread (a fake Discord client around it, fake OAuth and activity-instance endpoints). The
person at the page also plays a card from the chat mid-match and goes back to the page. The whole match is played;
the page is sent no card of another seat; the thread announces every trick as it does for a chat-only table."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from test_browser import (
    CHROMIUM,
    CLIENT_ID,
    FAKE_DISCORD,
    PHONE,
    Watched,
    _missing,
    async_playwright,
    check_dom,
    fake_oauth,
    free_port,
    shot_path,
    step,
    watch_frames,
)
from web_kit import BOT_TOKEN, FakeInstances, fake_instances

from bot.fake_discord.discord_side import StoredMessage, User
from bot.fake_discord.offline_bot import OfflineBot
from bot.fake_discord.scripted import scripted_click
from bot.fake_discord.wire import CHANNEL_ID
from bot.tables.model import SeatKind, Table
from bot.tables.service import ServiceConfig
from bot.texts.catalog import seat_name, t
from bot.web.config import WebConfig
from engine.cards import SEATS

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page

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
async def bot_serving_the_web(tmp_path: Path, **web_options: str) -> AsyncIterator[tuple[OfflineBot, str]]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    web = WebConfig(secret=SECRET, public_url=url, port=port, host="127.0.0.1", **web_options)
    # Turn clocks long and no pauses: the test's own pace decides; the AI seat plays as soon as it is its turn.
    config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=600, reviews=False)
    async with OfflineBot(tmp_path / "k.sqlite3", config=config, web=web, serve_web=True) as h:
        assert h.bot is not None
        h.bot.http.token = BOT_TOKEN  # what the bot would have logged in with: its Activity check asks Discord
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


@asynccontextmanager
async def activity_endpoints(tmp_path: Path) -> AsyncIterator[tuple[OfflineBot, str, FakeInstances]]:
    """The bot with its Activity set up, beside Discord's OAuth and activity-instance endpoints (fakes)."""
    async with fake_oauth() as (oauth, _), fake_instances(CLIENT_ID) as (instances, api), bot_serving_the_web(
            tmp_path, client_id=CLIENT_ID, client_secret="client-secret", token_url=f"{oauth}/token",
            user_url=f"{oauth}/me", api_url=api) as (h, url):
        yield h, url, instances


async def open_by_link(h: OfflineBot, url: str, person: User, table: Table, page: Page) -> Frame:
    """``person`` asks for their link in the table's thread and opens it."""
    token = await h.command(person, "web", channel_id=table.thread_id or CHANNEL_ID)
    [answer] = [r for r in h.responses_to(token) if r.ephemeral]
    [link] = [c["url"] for row in answer.data["components"] for c in row["components"] if c.get("style") == 5]
    assert link.startswith(url + "/")
    await page.goto(link)
    return page.main_frame


async def launch_activity(url: str, table: Table, instances: FakeInstances, page: Page) -> Frame:
    """Discord launches the Activity in the table's thread for person 1001 (whom the fake OAuth logs in): a fake
    Discord client frames the page, and Discord's record of the instance says where it runs and who is in it."""
    thread = table.thread_id
    assert thread is not None
    instances.known["i-1"] = (thread, (ANNA.id,))
    client = FAKE_DISCORD.replace("channel_id=777", f"channel_id={thread}")
    await page.route(f"{url}/discord-client.html", lambda route: route.fulfill(
        status=200, content_type="text/html", body=client))
    await page.goto(f"{url}/discord-client.html")
    frame = page.frame_locator("#app")
    await frame.locator("#app[data-version]").wait_for(state="attached")
    [app] = [f for f in page.frames if f is not page.main_frame]
    return app


@pytest.mark.parametrize("launch", ["link", "activity"])
async def test_a_page_plays_a_whole_match_beside_two_chat_players_and_switches_to_the_chat_and_back(
        tmp_path: Path, launch: str) -> None:
    assert async_playwright is not None
    # The Activity logs in as Anna (the fake OAuth's person); a link is Chris's.
    at_page = ANNA if launch == "activity" else CHRIS
    in_chat = [u for u in (ANNA, BERT, CHRIS) if u is not at_page]
    async with activity_endpoints(tmp_path) as (h, url, instances), async_playwright() as playwright:
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

        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport=PHONE)
            page = await context.new_page()
            seat = table.seat_of(at_page.id)
            listened = Watched(page, seat)  # the frames are heard on the page, whichever frame plays
            watch_frames(listened, lambda: rig.table)
            page.on("pageerror", lambda error: listened.leaks.append(f"page error: {error}"))
            if launch == "link":
                app = await open_by_link(h, url, at_page, table, page)
            else:
                app = await launch_activity(url, table, instances, page)
                assert [asked for asked, _ in instances.asked] == ["i-1"]
            watched = Watched(app, seat, listened.frames, listened.sent, listened.leaks)  # type: ignore[arg-type]
            await app.wait_for_selector("#app[data-version]")
            standing = set(asyncio.all_tasks())

            from_chat = 0  # cards the page's person played from their DM hand
            from_page = 0
            loop = asyncio.get_running_loop()
            end = loop.time() + 90
            while not table.game.finished:
                assert loop.time() < end, f"the match did not finish (phase {table.game.phase})"
                acted = False
                for user in in_chat:
                    acted = await chat_turn(h, table, user, standing) or acted
                page_to_act = table.game.to_act is seat and table.running
                if page_to_act and from_page >= 3 and from_chat == 0 and table.game.hand is not None \
                        and table.game.hand.plays:
                    # Mid-match they pick up their phone's chat instead, play one card there, then go back.
                    acted = await chat_turn(h, table, at_page, standing) or acted
                    from_chat += 1
                elif page_to_act:
                    shown = table.version
                    await app.wait_for_selector(f"#app[data-version='{shown}']", state="attached")
                    if await step(rig, watched):  # type: ignore[arg-type]
                        from_page += 1
                        acted = True
                        await app.wait_for_selector(f"#app:not([data-version='{shown}'])", state="attached")
                await check_dom(watched, table)
                if not acted:
                    await h.settle(standing)
                    await asyncio.sleep(0.02)
            await h.settle(standing)
            await app.wait_for_selector(".middle .over")  # the page shows the match's end
            await check_dom(watched, table)
            await page.screenshot(path=shot_path(f"chat-and-{launch}-phone"))
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
