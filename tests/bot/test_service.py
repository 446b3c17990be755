"""The table service and the SQLite store, without Discord."""

from __future__ import annotations

import asyncio

import pytest
from pg_server import StoreMaker

from bot.store.sqlite import migrations
from bot.tables.errors import ServiceError
from bot.tables.events import GameProgress, SeatAway, ServiceEvent, TurnReminder
from bot.tables.model import Actor, SeatKind, Table, TableSettings, TableStatus
from bot.tables.service import ServiceConfig, TableService
from engine.actions import Call
from engine.cards import Card, Seat
from engine.errors import IllegalActionError, NotYourTurnError
from engine.game import Phase
from engine.record import export_record
from engine.settings import Rules
from engine.view import SeatView

HOST = 1001
LOBBY_MESSAGE = 4242
FAST = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=60)


def first_legal(level: str, seed: int, view: SeatView) -> Card | Call:
    return view.legal[0]


def settings(hands: int = 1, **changes: str) -> TableSettings:
    return TableSettings(Rules().with_changes(length=str(hands), **changes), ai_level="normal")


async def wait_for_turn(service: TableService, table_id: int, seat: Seat) -> None:
    table = service.get(table_id)
    for _ in range(3000):
        if table.game.to_act is seat or not table.running:
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"seat {seat} never got the turn; phase {table.game.phase}")


async def play_out(service: TableService, table_id: int, humans: dict[Seat, int]) -> None:
    """Every human plays its first legal action whenever it is its turn, to the match end."""
    table = service.get(table_id)
    while table.running:
        await service.idle()
        seat = table.game.to_act
        if seat in humans and not table.seats[seat].away:
            legal = table.game.legal_actions()
            await service.act(table_id, humans[seat], legal[0], table.version)
        else:
            await asyncio.sleep(0.005)


async def test_one_human_three_ai_plays_a_match_and_stores_it(new_store: StoreMaker) -> None:
    events: list[ServiceEvent] = []
    async with new_store() as store:
        service = TableService(store, FAST, choose=first_legal)

        async def collect(event: ServiceEvent) -> None:
            events.append(event)

        service.subscribe(collect)
        table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(2), seed=7)
        assert table.seats[Seat.S].user_id == HOST
        await service.start(table.id, HOST)
        assert [s.kind for s in table.seats].count(SeatKind.AI) == 3
        await play_out(service, table.id, {Seat.S: HOST})
        assert table.status is TableStatus.FINISHED
        assert len(table.game.results) == 2
        stored = await store.record(table.id)
        assert stored == export_record(table.game)
        versions = [e.version for e in events if isinstance(e, GameProgress)]
        assert versions == list(range(1, table.version + 1))
        await service.close()


async def test_a_lobby_message_learnt_twice_is_stored_once(new_store: StoreMaker) -> None:
    """The start's post and a click on the lobby that came before the post's answer both learn its message id:
    the second has nothing to store."""
    async with new_store() as store:
        service = TableService(store, FAST, choose=first_legal)
        saved: list[int | None] = []
        save = store.save_table

        async def counted(table: Table) -> None:
            saved.append(table.lobby_message_id)
            await save(table)

        store.save_table = counted  # type: ignore[method-assign]

        async def post_clicked_first(table: Table) -> int:
            await service.keep_lobby_message(table, LOBBY_MESSAGE)  # the click on it, before the post's answer
            return LOBBY_MESSAGE

        table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(), seed=7,
                                           post=post_clicked_first)
        assert saved == [LOBBY_MESSAGE]
        stored = await store.load_table(table.id)
        assert stored is not None and stored.lobby_message_id == LOBBY_MESSAGE
        await service.close()


async def test_refusals_change_nothing() -> None:
    service = TableService(None, FAST, choose=first_legal)
    table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(1), seed=3)
    with pytest.raises(ServiceError) as error:
        await service.act(table.id, HOST, Call.PASS)
    assert error.value.code == "not_started"
    await service.join(table.id, 2002, "Bert")
    with pytest.raises(ServiceError) as error:
        await service.start(table.id, 2002)
    assert error.value.code == "not_host"
    await service.start(table.id, HOST)
    await service.idle()
    bert = table.seat_of(2002)
    game = table.game
    # Wait until it is someone's human turn, then have the other human try.
    while game.to_act not in (Seat.S, bert):
        await asyncio.sleep(0.005)
    mover = HOST if game.to_act is Seat.S else 2002
    other = 2002 if mover == HOST else HOST
    before = table.version
    with pytest.raises(NotYourTurnError):
        await service.act(table.id, other, game.legal_actions()[0], table.version)
    with pytest.raises(ServiceError) as error:
        await service.act(table.id, mover, game.legal_actions()[0], table.version - 1)
    assert error.value.code == "stale"
    with pytest.raises(ServiceError) as error:
        await service.act(table.id, 999, game.legal_actions()[0])
    assert error.value.code == "not_seated"
    assert table.version == before
    # A double click: the same version twice counts once.
    version = table.version
    await service.act(table.id, mover, game.legal_actions()[0], version)
    with pytest.raises(ServiceError) as error:
        await service.act(table.id, mover, Call.PASS, version)
    assert error.value.code == "stale"
    await service.close()


async def test_illegal_card_is_refused_with_the_rule() -> None:
    service = TableService(None, FAST, choose=first_legal)
    table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(1), seed=11)
    await service.start(table.id, HOST)
    game = table.game
    found = False
    while table.running and not found:
        await service.idle()
        if game.to_act is Seat.S:
            if game.phase is Phase.PLAY:
                legal = set(game.legal_actions())
                illegal = [c for c in game.cards_in_hand(Seat.S) if c not in legal]
                if illegal:
                    before = table.version
                    with pytest.raises(IllegalActionError) as error:
                        await service.act(table.id, HOST, illegal[0], table.version)
                    assert error.value.code in ("follow_suit", "overtrump", "must_trump", "no_undertrump")
                    assert table.version == before
                    found = True
                    break
            await service.act(table.id, HOST, game.legal_actions()[0], table.version)
        else:
            await asyncio.sleep(0.005)
    assert found
    await service.close()


async def test_timer_reminds_then_plays_and_ai_keeps_seat_after_two_misses() -> None:
    service = TableService(None, ServiceConfig(ai_pause=0, deal_pause=0, turn_time=0.1), choose=first_legal)
    events: list[ServiceEvent] = []

    async def collect(event: ServiceEvent) -> None:
        events.append(event)

    service.subscribe(collect)
    table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(16), seed=5)
    await service.start(table.id, HOST)
    for _ in range(400):
        if any(isinstance(e, SeatAway) for e in events):
            break
        await asyncio.sleep(0.01)
    assert any(isinstance(e, TurnReminder) and e.user_id == HOST for e in events)
    timed = [e for e in events if isinstance(e, GameProgress) and e.actor is Actor.TIMER]
    assert len(timed) == 2
    assert table.seats[Seat.S].away
    await service.back(table.id, HOST)
    assert not table.seats[Seat.S].away
    await service.stop(table.id, HOST)
    assert table.status is TableStatus.STOPPED
    await service.close()


async def test_restart_replays_every_stored_action(new_store: StoreMaker) -> None:
    async with new_store() as store:
        service = TableService(store, FAST, choose=first_legal)
        table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(1), seed=9)
        await service.start(table.id, HOST)
        # Play until the middle of a trick, then "crash".
        while True:
            await service.idle()
            game = table.game
            assert table.running
            if game.phase is Phase.PLAY and game.to_act is Seat.S and game.hand is not None and game.hand.trick_cards:
                break
            if table.game.to_act is Seat.S:
                await service.act(table.id, HOST, table.game.legal_actions()[0], table.version)
            else:
                await asyncio.sleep(0.005)
        before = list(table.game.actions)
        await service.close()
    async with new_store() as store:
        service = TableService(store, FAST, choose=first_legal)
        [restored] = await service.restore()
        assert restored.game.actions == before
        await play_out(service, restored.id, {Seat.S: HOST})
        assert restored.status is TableStatus.FINISHED
        # The same seed and choices without a restart give the same record.
        plain = TableService(None, FAST, choose=first_legal)
        other = await plain.create_table(host_id=HOST, host_name="Anna", settings=settings(1), seed=9)
        await plain.start(other.id, HOST)
        await play_out(plain, other.id, {Seat.S: HOST})
        assert export_record(other.game) == await store.record(restored.id)
        await service.close()
        await plain.close()


async def test_migrations_are_applied_once(new_store: StoreMaker) -> None:
    async with new_store() as store:
        assert await store.schema_version() == len(migrations(store.dialect.name))
        await store.set_meta("x", "1")
    async with new_store() as store:
        assert await store.schema_version() == len(migrations(store.dialect.name))
        assert await store.get_meta("x") == "1"
        if store.dialect.name == "sqlite":
            async with store.db.execute("PRAGMA journal_mode") as cursor:
                row = await cursor.fetchone()
            assert row is not None and row[0] == "wal"


async def test_a_tables_next_change_wakes_who_waits_for_it() -> None:
    """What ``finish_by_ai`` waits on instead of polling: an event of the table, or the table leaving memory."""
    service = TableService(None, FAST, choose=first_legal)
    table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(), seed=7)
    joined = asyncio.get_running_loop().create_task(service.registry.next_change(table))
    await asyncio.sleep(0.01)
    assert not joined.done()  # nothing happened yet
    await service.join(table.id, HOST + 1, "Bert")
    await asyncio.wait_for(joined, 1)
    evicted = asyncio.get_running_loop().create_task(service.registry.next_change(table))
    await asyncio.sleep(0)
    service.registry.evict(table)
    await asyncio.wait_for(evicted, 1)
    await service.close()


async def test_a_start_in_a_plain_channel_does_not_ask_the_store_for_a_tables_thread(new_store: StoreMaker) -> None:
    """A table's thread (also one whose table left memory) takes no second table; a channel the front end knows is
    no thread cannot be one, so the store is not asked."""
    async with new_store() as store:
        service = TableService(store, FAST, choose=first_legal)
        first = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(), channel_id=77)
        first.thread_id = 78
        await service.registry.save(first)
        service.registry.evict(first)  # over and retired: only the store knows its thread
        asked: list[int] = []
        lookup = store.table_in_thread

        async def counted(thread_id: int) -> int | None:
            asked.append(thread_id)
            return await lookup(thread_id)

        store.table_in_thread = counted  # type: ignore[method-assign]
        with pytest.raises(ServiceError) as refused:
            await service.create_table(host_id=HOST + 1, host_name="Bert", settings=settings(), channel_id=78)
        assert refused.value.code.value == "thread_has_table" and asked == [78]
        await service.create_table(host_id=HOST + 2, host_name="Cor", settings=settings(), channel_id=79,
                                   plain_channel=True)
        assert asked == [78]
        await service.close()


@pytest.mark.parametrize("on_loop", [False, True])
async def test_a_chooser_runs_in_a_thread_unless_it_takes_no_time(on_loop: bool) -> None:
    import threading

    threads: set[threading.Thread] = set()

    def choose(level: str, seed: int, view: SeatView) -> Card | Call:
        threads.add(threading.current_thread())
        return first_legal(level, seed, view)

    service = TableService(None, FAST, choose=choose, choose_on_loop=on_loop)
    table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(1), seed=11)
    await service.start(table.id, HOST)
    await play_out(service, table.id, {Seat.S: HOST})
    assert table.game.finished and table.actors.count(Actor.AI) >= 24
    assert (threads == {threading.current_thread()}) is on_loop
    await service.close()
