"""Two table services in one test, as two bot processes on one PostgreSQL database (``bot.tables.shared``): the
owner by guild shard plays the AI and runs the driver, the other takes clicks on a copy that is brought up to date
under the table's lock; a stale click is refused and changes nothing. Fast: no Discord, no subprocesses (the real
processes are tests/bot/test_shards.py)."""

from __future__ import annotations

import pytest
from waiting import until

from bot.store.base import SqlStore
from bot.store.postgres import PostgresStore
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.events import (
    CopyChanged,
    GameProgress,
    LobbyChanged,
    SeatChange,
    SeatChanged,
    ServiceEvent,
    TableStarted,
)
from bot.tables.model import TableSettings, TableStatus
from bot.tables.service import ServiceConfig, TableService
from bot.tables.shards import Shards, parse_shards, shard_of
from engine.actions import Call
from engine.ai.players import Level, make_player
from engine.cards import Card, Seat
from engine.view import SeatView

GUILD = (6 << 22) | 5  # shard 0 of 2
HOST = 501


def choose(level: Level, seed: int, view: SeatView) -> Card | Call:
    return make_player(Level.NORMAL, seed).choose(view)


class Process:
    """One "process": a store of its own on the shared database, a service and its part in the sharing."""

    def __init__(self, url: str, shard: int) -> None:
        self.store: SqlStore = PostgresStore(url)
        self.heard: list[ServiceEvent] = []
        self.shard = shard

    async def __aenter__(self) -> Process:
        await self.store.open()
        config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=3600, reviews=False)
        self.service = TableService(self.store, config, choose=choose, shards=Shards(2, frozenset({self.shard})),
                                    shared_store=self.store, poll_seconds=0.2)
        self.service.subscribe(self.listen)
        assert self.service.shared is not None
        self.shared = self.service.shared
        await self.shared.start()
        return self

    async def listen(self, event: ServiceEvent) -> None:
        self.heard.append(event)

    async def __aexit__(self, *exc: object) -> None:
        await self.shared.close()
        await self.service.close()
        await self.store.close()


async def test_the_other_process_takes_clicks_and_the_owner_plays_and_announces(pg_url: str) -> None:
    async with Process(pg_url, 0) as owner, Process(pg_url, 1) as other:
        table = await owner.service.create_table(host_id=HOST, host_name="Host", settings=TableSettings(),
                                                 guild_id=GUILD, channel_id=77)
        await owner.service.start(table.id, HOST)
        seat = table.seat_of(HOST)
        await until(lambda: table.game.to_act is seat)  # the owner dealt, and the AI players called or played
        await other.service.fetch(table.id)
        copy = other.service.get(table.id)
        assert copy is not table and not other.service.owns(table.id) and owner.service.owns(table.id)

        for _ in range(6):  # the human's calls and cards, each taken by the other process
            await until(lambda: table.game.to_act is seat and not table.lock.locked())
            version = table.version
            action = table.view(seat).legal[0]
            assert isinstance(action, Card | Call)
            stale = version - 1
            with pytest.raises(ServiceError) as refused:  # a button of an earlier moment
                await other.service.act(table.id, HOST, action, stale)
            assert refused.value.code is ServiceErrorCode.STALE, refused.value.code
            assert await other.store.revision(table.id) == copy.revision  # nothing stored
            await other.service.act(table.id, HOST, action, version)  # the copy was brought up to date first
            await until(lambda v=version: table.version > v)  # the owner heard of it
            assert table.game.actions[version] == action
        # The owner announced the other's actions in order, once each; the other announced nothing.
        versions = [e.version for e in owner.heard if isinstance(e, GameProgress)]
        assert versions == list(range(1, len(versions) + 1))
        assert not [e for e in other.heard if isinstance(e, GameProgress)]
        stored = [action for action, _ in await owner.store.actions_from(table.id, 0)]
        assert stored == table.game.actions[:len(stored)]


async def test_a_stop_in_the_other_process_reaches_the_owner(pg_url: str) -> None:
    async with Process(pg_url, 0) as owner, Process(pg_url, 1) as other:
        table = await owner.service.create_table(host_id=HOST, host_name="Host", settings=TableSettings(),
                                                 guild_id=GUILD, channel_id=78)
        await other.service.fetch(table.id)
        await other.service.join(table.id, 502, "Guest")
        await until(lambda: table.seat_of(502) is not None)  # the owner's copy, from the notice
        assert await other.service.stop(table.id, HOST)
        await until(lambda: table.status is TableStatus.STOPPED)
        await until(lambda: any(type(e).__name__ == "TableStopped" for e in owner.heard))
        # The other announced nothing: its subscribers heard of the table's changes as a copy's only.
        assert other.heard and all(isinstance(e, CopyChanged) for e in other.heard)


async def test_the_other_process_tells_its_subscribers_each_action_once_and_what_its_copy_shows(pg_url: str) -> None:
    async with Process(pg_url, 0) as owner, Process(pg_url, 1) as other:
        table = await owner.service.create_table(host_id=HOST, host_name="Host", settings=TableSettings(),
                                                 guild_id=GUILD, channel_id=79)
        await owner.service.join(table.id, 502, "Guest")
        await other.service.fetch(table.id)
        await owner.service.start(table.id, HOST)
        guest = table.seat_of(502)
        assert guest is not None
        # A person's turn (the AI players wait for it): nothing moves but what the test does.
        await until(lambda: table.game.to_act in (guest, table.seat_of(HOST)) and not table.lock.locked())
        await owner.service.idle()
        await until(lambda: other.service.get(table.id).version == table.version)  # the other's copy caught up
        await owner.service.leave(table.id, 502)
        await owner.service.take_over(table.id, 503, "Third", guest)

        def told() -> list[ServiceEvent]:
            return [event for copy in other.heard if isinstance(copy, CopyChanged) for event in copy.events]

        def seats() -> list[tuple[Seat, SeatChange, int | None]]:
            return [(e.seat, e.change, e.user_id) for e in told() if isinstance(e, SeatChanged)]

        await until(lambda: len(seats()) >= 2)
        assert seats() == [(guest, SeatChange.LEFT, 502), (guest, SeatChange.WILL_TAKE_OVER, 503)], (
            seats(), [type(e).__name__ for e in told()], table.seats)
        assert isinstance(next(e for e in told() if not isinstance(e, LobbyChanged)), TableStarted)
        await until(lambda: other.service.get(table.id).version == table.version and not table.lock.locked())
        versions = [e.version for e in told() if isinstance(e, GameProgress)]
        assert versions == list(range(1, table.version + 1))  # every action once, in order, none of its own
        assert all(isinstance(e, CopyChanged) for e in other.heard)


def test_shards_by_guild_and_their_notation() -> None:
    assert shard_of(None, 8) == 0 and shard_of(GUILD, 2) == 0 and shard_of((7 << 22) | 3, 2) == 1
    assert parse_shards("0-3", 8) == frozenset({0, 1, 2, 3})
    assert parse_shards("0,2,4-5", 8) == frozenset({0, 2, 4, 5})
    for bad, why in [("3-1", "backwards"), ("x", "not a list"), ("8", "does not exist"), ("1-", "not a list")]:
        with pytest.raises(ValueError, match=why):
            parse_shards(bad, 8)
    assert Shards(2, frozenset({1})).owns((7 << 22) | 3) and not Shards(2, frozenset({1})).owns(None)
