"""The web table with several bot processes on one PostgreSQL database (``bot.tables.shared``), as
tests/bot/test_shared_tables.py runs them: two table services in one test, each with its web server. A page may
connect to either: at a table the other process owns, its process's copy (brought up to date from the store) feeds
it the same happenings and states, and its clicks go through the shared lock."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from test_web_socket import leaks
from waiting import until
from web_kit import HOST, ORIGIN, Socket, first_legal, seat_token, settings, watch_token, web_config

from bot.store.postgres import PostgresStore
from bot.tables.events import CopyChanged, GameProgress, ServiceEvent
from bot.tables.model import Actor, Table, TableStatus
from bot.tables.service import ServiceConfig, TableService
from bot.tables.shards import Shards
from bot.web.server import WebServer
from engine.cards import Card, Seat

GUILD = (6 << 22) | 5  # shard 0 of 2: the process running shard 0 owns its tables
GUEST = 2002
CONFIG = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=3600, reviews=False)
PACE = 1 / web_config().frames_per_second  # a page clicks no faster than its rate limit allows


class Process:
    """One bot process: its store on the shared database, its table service and its web server."""

    def __init__(self, url: str, shard: int) -> None:
        self.store = PostgresStore(url)
        self.shard = shard
        self.heard: list[ServiceEvent] = []
        self.stopped = False

    async def __aenter__(self) -> Process:
        await self.store.open()
        self.service = TableService(self.store, CONFIG, choose=first_legal, shards=Shards(2, frozenset({self.shard})),
                                    shared_store=self.store, poll_seconds=0.2)
        self.service.subscribe(self.listen)
        await self.service.restore()  # as the bot starts: what the store holds, then the notices
        assert self.service.shared is not None
        await self.service.shared.start()
        self.client: TestClient[Any, Any] = TestClient(TestServer(WebServer(self.service, web_config()).app()))
        await self.client.start_server()
        return self

    async def listen(self, event: ServiceEvent) -> None:
        self.heard.append(event)

    async def socket(self) -> Socket:
        return Socket(await self.client.ws_connect("/ws", headers=ORIGIN))

    async def stop(self) -> None:
        """The process ends (its connections with it, so its tables' locks)."""
        if self.stopped:
            return
        self.stopped = True
        await self.client.close()
        assert self.service.shared is not None
        await self.service.shared.close()
        await self.service.close()
        await self.store.close()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


async def new_table(owner: Process, humans: tuple[int, ...] = (), hands: int = 1) -> Table:
    table = await owner.service.create_table(host_id=HOST, host_name="Anna", settings=settings(hands), seed=7,
                                             guild_id=GUILD, channel_id=500)
    for person in humans:
        await owner.service.join(table.id, person, f"P{person}")
    return table


async def play_by_page(page: Socket) -> None:
    """The page plays its seat (first legal card or call) from the states it is sent, until the match is over."""
    acted = -1
    while True:
        frame = await page.next(timeout=20)
        if frame["type"] == "event" and frame["event"]["kind"] == "over":
            return
        if frame["type"] != "state" or frame["version"] <= acted or not frame["view"]["me"]["my_turn"]:
            continue
        me = frame["view"]["me"]
        sent: dict[str, Any] = {"type": "act", "version": frame["version"]}
        if me["legal_cards"]:
            sent["card"] = me["legal_cards"][0]
        else:
            sent["call"] = me["legal_calls"][-1]
        acted = frame["version"]
        await asyncio.sleep(PACE)
        await page.send(sent)


def events(page: Socket) -> list[dict[str, Any]]:
    return [frame["event"] for frame in page.frames if frame["type"] == "event"]


def without_clock(state: dict[str, Any]) -> dict[str, Any]:
    """A state frame's view without what differs between two processes by when each heard of the change."""
    return {key: value for key, value in state["view"].items() if key != "deadline"}


async def test_a_page_on_the_other_process_plays_and_sees_what_a_page_on_the_owner_sees(pg_url: str) -> None:
    async with Process(pg_url, 0) as owner, Process(pg_url, 1) as other:
        table = await new_table(owner, hands=2)
        # Both pages open in the lobby; the other process may not have heard of it yet: the hello takes its copy.
        page, tab, watcher = await other.socket(), await owner.socket(), await other.socket()
        welcome, _ = await page.hello(token=seat_token(HOST, table.id))
        assert welcome["seat"] == "S" and table.id in other.service.tables
        assert not other.service.owns(table.id)
        await tab.hello(token=seat_token(HOST, table.id))
        await watcher.hello(watch=watch_token(table.id))
        await owner.service.start(table.id, HOST)
        await asyncio.wait_for(play_by_page(page), 120)
        await until(lambda: not table.running)
        for socket in (page, tab, watcher):
            await socket.drain(0.5)
        copy = other.service.get(table.id)
        assert table.game.finished and copy.game.actions == table.game.actions
        # The page on the other process was told every happening the owner's page was, in the same order: the
        # start, the deals, the AI's bids and cards, the tricks, the hands' ends and the match's.
        assert events(page) == events(tab)
        kinds = {event["kind"] for event in events(page)}
        assert {"started", "dealt", "bid", "card", "trick", "settled", "over"} <= kinds
        assert any(event["kind"] == "card" and event["seat"] != "S" for event in events(page))
        assert events(watcher) == events(tab)
        last = [next(f for f in reversed(s.frames) if f["type"] == "state") for s in (page, tab)]
        assert without_clock(last[0]) == without_clock(last[1])
        # Its clicks were the seat's, taken by the other process, and the owner played on after each.
        assert table.actors.count(Actor.HUMAN) >= 16  # its eight cards a hand, and its calls
        deals = [tuple(hand.deal) for hand in table.game.hands]
        assert leaks(page.frames, deals, Seat.S) == []
        assert leaks(watcher.frames, deals, None) == []
        assert all("me" not in f["view"] for f in watcher.frames if f["type"] == "state")
        assert [f for s in (page, tab, watcher) for f in s.frames if f["type"] == "error"] == []
        # The owner announced (its subscribers heard the actions); the other only followed its copy.
        assert [e.version for e in owner.heard if isinstance(e, GameProgress)] == list(range(1, table.version + 1))
        assert not [e for e in other.heard if not isinstance(e, CopyChanged)]


async def test_a_click_on_each_process_at_once_is_applied_once(pg_url: str) -> None:
    async with Process(pg_url, 0) as owner, Process(pg_url, 1) as other:
        table = await new_table(owner)
        await owner.service.start(table.id, HOST)
        page = await other.socket()
        await page.hello(token=seat_token(HOST, table.id))
        raced = 0
        while raced < 6 and table.running:  # several turns: each race is won by one of the two
            await until(lambda: table.game.to_act is Seat.S and not table.lock.locked())
            await owner.service.idle()
            version = table.version
            choice = table.view(Seat.S).legal[0]
            frame = {"type": "act", "version": version, "card" if isinstance(choice, Card) else "call": str(choice)}
            page.frames.clear()
            results = await asyncio.gather(page.send(frame), owner.service.act(table.id, HOST, choice, version),
                                           return_exceptions=True)
            await until(lambda v=version: table.version > v)
            await page.drain(0.3)
            stored = await owner.store.actions_from(table.id, 0)
            assert [actor for _, actor in stored][version] is Actor.HUMAN
            assert [actor for _, actor in stored].count(Actor.HUMAN) == raced + 1
            assert table.actors.count(Actor.HUMAN) == raced + 1
            owner_lost = isinstance(results[1], Exception)
            page_lost = any(f["type"] == "error" for f in page.frames)
            assert owner_lost != page_lost, (results, page.frames)
            # Either way the page was shown the card (the event) and a state past it.
            assert any(f["type"] == "event" and f["event"]["kind"] in ("card", "bid") for f in page.frames)
            raced += 1
        assert raced == 6


async def test_leaving_on_one_process_cuts_off_the_seat_page_on_the_other(pg_url: str) -> None:
    async with Process(pg_url, 0) as owner, Process(pg_url, 1) as other:
        table = await new_table(owner, humans=(GUEST,))
        await owner.service.start(table.id, HOST)
        await owner.service.idle()
        guest_page, host_page = await other.socket(), await owner.socket()
        welcome, _ = await guest_page.hello(token=seat_token(GUEST, table.id))
        assert welcome["seat"] == str(table.seat_of(GUEST))
        await host_page.hello(token=seat_token(HOST, table.id))
        watcher = await other.socket()
        await watcher.hello(watch=watch_token(table.id))
        guest_seat = table.seat_of(GUEST)
        await owner.service.leave(table.id, GUEST)  # on the owner: the other's page is cut off
        await host_page.drain(0.3)
        await other.service.leave(table.id, HOST)  # on the other: the owner's page is cut off
        for page in (guest_page, host_page):
            tail: list[dict[str, Any]] = []
            with contextlib.suppress(ConnectionError):
                while True:
                    tail.append(await page.next(timeout=10))
            assert [f["code"] for f in tail if f["type"] == "error"] == ["not_seated"]
            assert page.closed_with == 4003
            assert all("me" not in f.get("view", {}) for f in tail)
        for process, person in ((other, GUEST), (owner, HOST)):
            again = await process.socket()
            answer, state = await again.hello(token=seat_token(person, table.id))
            assert answer["code"] == "not_seated" and state == {}
        # An onlooker on the other process was told of both, and of the stop the owner made.
        assert await owner.service.stop(table.id, 9, can_manage=True)
        await until(lambda: other.service.get(table.id).status is TableStatus.STOPPED)
        await watcher.drain(0.3)
        told = [(e["kind"], e.get("seat")) for e in events(watcher) if e["kind"].startswith(("seat_", "stop"))]
        assert told == [("seat_left", str(guest_seat)), ("seat_left", "S"), ("stopped", None)], told
        assert watcher.frames[-1]["view"]["table"]["status"] == "stopped"


async def test_a_page_on_the_other_process_outlives_the_owner_and_follows_its_successor(pg_url: str) -> None:
    async with Process(pg_url, 0) as owner, Process(pg_url, 1) as other:
        table = await new_table(owner)
        await owner.service.start(table.id, HOST)
        await until(lambda: table.game.to_act is Seat.S and not table.lock.locked())
        page = await other.socket()
        _, state = await page.hello(token=seat_token(HOST, table.id))  # the copy, brought up to date at once
        assert state["version"] == table.version and state["view"]["me"]["my_turn"]
        await owner.stop()
        # The owner is gone: the other process still takes the page's click (the lock was the dead one's).
        me = state["view"]["me"]
        sent = {"type": "act", "version": state["version"]}
        sent.update({"card": me["legal_cards"][0]} if me["legal_cards"] else {"call": me["legal_calls"][-1]})
        await page.send(sent)
        after = await page.state(state["version"])
        assert after["version"] == state["version"] + 1
        page.frames.clear()
        async with Process(pg_url, 0) as successor:  # another process starts with the dead one's shard
            # It restored the table and plays the AI seats on; the page, still on the other process, sees them.
            await asyncio.wait_for(_until_another_seat_acts(page), 20)
            assert [f for f in page.frames if f["type"] == "error"] == []
            assert successor.service.owns(table.id)
            assert other.service.get(table.id).version > after["version"]


async def _until_another_seat_acts(page: Socket) -> None:
    while True:
        frame = await page.next(timeout=20)
        if frame["type"] == "event" and frame["event"].get("seat") not in (None, "S"):
            return
