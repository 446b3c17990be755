"""Match reviews in the service: computed after a match ends, stored, caught up after a restart, and a
broken review kept as failed instead of retried forever."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from pg_server import StoreMaker

from bot.store.codec import encode_action
from bot.store.schema import migrations
from bot.store.sqlite import SqliteStore
from bot.tables.model import ReviewStatus, TableStatus
from bot.tables.service import ServiceConfig, TableService
from bot.tables.thinking import Thinker
from engine.actions import Call
from engine.ai.review_summary import accuracy
from engine.cards import Seat
from engine.view import SeatView

HOST = 1001
CONFIG = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=60)


def first_legal(level: str, seed: int, view: SeatView) -> Any:
    return view.legal[0]


async def play_match(service: TableService, seed: int) -> int:
    """A one-hand match: the host in S plays its last legal action each turn (AI seats their first)."""
    from bot.tables.model import TableSettings
    from engine.settings import Rules

    table = await service.create_table(host_id=HOST, host_name="Anna", seed=seed,
                                       settings=TableSettings(Rules().with_changes(length="1")))
    await service.start(table.id, HOST)
    while table.running:
        await service.idle()
        if table.game.to_act is Seat.S:
            await service.act(table.id, HOST, table.game.legal_actions()[-1], table.version)
        else:
            await asyncio.sleep(0.005)
    assert table.status is TableStatus.FINISHED
    return table.id


async def test_a_finished_match_is_reviewed_and_stored(new_store: StoreMaker) -> None:
    async with new_store() as store:
        service = TableService(store, CONFIG, choose=first_legal)
        table_id = await play_match(service, 5)
        await service.reviews.idle()
        stored = await store.review(table_id)
        assert stored is not None and stored.status is ReviewStatus.DONE
        review = stored.review
        assert review.hands == 1 and review.decisions
        assert {d.player for d in review.decisions} == {HOST} and {d.seat for d in review.decisions} == {Seat.S}
        (anna,) = review.players
        assert anna.player == HOST and anna.hands == 1 and anna.decisions == len(review.decisions)
        assert anna.accuracy == accuracy(review.decisions)  # what the decisions kept of what they put at stake
        assert anna.worst == tuple(sorted((d for d in review.decisions if d.cost > 0),
                                          key=lambda d: (-d.cost, d.index))[:3])
        for decision in review.decisions:  # the store gives back what the review said
            assert (decision.reason is None) == (decision.cost == 0)
        points = await store.accuracy(HOST)
        assert [(p.table_id, p.decisions, p.accuracy) for p in points] == [(table_id, anna.decisions, anna.accuracy)]
        assert await store.accuracy(HOST, guild_id=12345) == []  # another server's: none
        assert await store.accuracy(HOST + 1) == []
        assert await store.unreviewed() == []
        await service.close()


async def test_a_review_missed_by_a_restart_is_made_at_the_next_start(new_store: StoreMaker) -> None:
    async with new_store() as store:
        # The bot stops before the review: here it never began (reviews off).
        service = TableService(store, ServiceConfig(ai_pause=0, deal_pause=0, turn_time=60, reviews=False),
                               choose=first_legal)
        table_id = await play_match(service, 6)
        await service.close()
        assert await store.review(table_id) is None
        assert await store.unreviewed() == [table_id]
    async with new_store() as store:
        service = TableService(store, CONFIG, choose=first_legal)
        await service.restore()
        assert service.reviews.progress(table_id) is not None  # queued at start
        await service.reviews.idle()
        stored = await store.review(table_id)
        assert stored is not None and stored.status is ReviewStatus.DONE and stored.review.decisions
        assert await store.unreviewed() == []
        await service.close()


class BrokenThinker(Thinker):
    async def review(self, *args: Any) -> Any:
        raise RuntimeError("the review broke")


async def test_a_broken_review_is_kept_as_failed_and_not_tried_again(new_store: StoreMaker) -> None:
    async with new_store() as store:
        service = TableService(store, CONFIG, choose=first_legal, thinker=BrokenThinker(0, warm=False))
        table_id = await play_match(service, 7)
        await service.reviews.idle()
        stored = await store.review(table_id)
        assert stored is not None and stored.status is ReviewStatus.FAILED and not stored.review.decisions
        assert await store.unreviewed() == []  # not queued again at the next start
        assert await store.accuracy(HOST) == []
        # The table itself is untouched: finished, every action kept.
        assert (await store.load_table(table_id)).status is TableStatus.FINISHED  # type: ignore[union-attr]
        await service.close()


async def test_a_review_in_its_worker_process_says_what_it_says_here() -> None:
    from engine.ai.bench import review_game
    from engine.ai.review import review_hand

    game, players = review_game(1, seed=4)
    thinker = Thinker(1, warm=False)
    try:
        there = await thinker.review(game.rules, game.actions, players, 99, 0)
        assert thinker.reviews.pool is not None  # a process of its own, not the moves' or the hints'
    finally:
        thinker.close()
    here = await asyncio.to_thread(review_hand, game.rules, game.actions, players, 99, 0)
    assert there == here and there


async def test_a_review_stored_before_accuracy_counted_stakes_is_made_again(tmp_path: Path) -> None:
    """A review stored under the earlier accuracy (decisions within a few points of the best) has no stakes to
    count: the upgrade removes it, so the next start reviews the match again, and /stats shows no figure meanwhile;
    a failed review stays failed."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        for number, _, sql in migrations():
            if number <= 11:
                old.executescript(sql)
        old.execute("PRAGMA user_version = 11")
        kind, data = encode_action(Call.PASS)
        for table_id, status in ((1, "done"), (2, "failed")):
            old.execute("INSERT INTO tables (id, host_id, status, settings, seed) VALUES (?, 7, 'finished', '{}', 5)",
                        (table_id,))
            old.execute("INSERT INTO actions (table_id, seq, kind, data, seat, actor, user_id) "
                        "VALUES (?, 0, ?, ?, 'N', 'human', 7)", (table_id, kind, data))
            old.execute("INSERT INTO reviews (table_id, status, hands) VALUES (?, ?, 1)", (table_id, status))
        old.execute("INSERT INTO review_decisions (table_id, seq, hand, trick, seat, user_id, choice, best, cost, "
                    "samples) VALUES (1, 0, 0, NULL, 'N', 7, 'pass', 'pass', 0, 0)")
        old.execute("INSERT INTO review_players (table_id, user_id, seat, decisions, accurate, lost, hands, "
                    "lost_by_hand) VALUES (1, 7, 'N', 1, 1, 0, 1, '[0]')")
    async with SqliteStore(path) as store:
        assert await store.review(1) is None and await store.unreviewed() == [1]
        assert await store.accuracy(7) == []
        failed = await store.review(2)
        assert failed is not None and failed.status is ReviewStatus.FAILED
