"""AI decisions in worker processes: the same choice as in a thread, made in another process."""

from __future__ import annotations

import concurrent.futures.process
import contextlib
import os
import random

from bot.discord_app.config import load_config
from bot.tables.thinking import AI_NICENESS, REVIEW_NICENESS, Thinker, choose_action
from bot.workers import worker_pid
from engine.cards import Seat
from engine.game import Game, random_deal
from engine.view import SeatView, seat_view


def a_view() -> SeatView:
    game = Game()
    game.apply(random_deal(random.Random(7), Seat.N))
    while game.to_act is not None and len(game.actions) < 12:
        game.apply(game.legal_actions()[0], game.to_act)
    assert game.to_act is not None
    return seat_view(game, game.to_act)


async def test_process_pool_decides_like_a_thread() -> None:
    view = a_view()
    thinker = Thinker(1, warm=False)
    try:
        await thinker.start()
        pid = await thinker.run(worker_pid)
        assert pid != os.getpid()
        for seed in (1, 2, 3):
            assert await thinker.choose("normal", seed, view) == choose_action("normal", seed, view)
    finally:
        thinker.close()


async def test_threads_when_no_workers() -> None:
    thinker = Thinker(0, warm=False)
    assert thinker.pool is None
    assert await thinker.run(worker_pid) == os.getpid()
    view = a_view()
    assert await thinker.choose("easy", 5, view) in view.legal


def test_worker_count_from_the_environment() -> None:
    assert load_config({}, dotenv=None).ai_workers == 1
    assert load_config({"KLAVERJAS_AI_WORKERS": "0"}, dotenv=None).ai_workers == 0
    try:
        load_config({"KLAVERJAS_AI_WORKERS": "many"}, dotenv=None)
    except ValueError as error:
        assert "KLAVERJAS_AI_WORKERS" in str(error)
    else:
        raise AssertionError("a bad worker count was accepted")


def _die() -> int:
    os._exit(1)


async def test_a_dead_worker_is_replaced() -> None:
    thinker = Thinker(1, warm=False)
    try:
        # The retry dies the same way (BrokenProcessPool): the pool is replaced again for the next call.
        with contextlib.suppress(concurrent.futures.process.BrokenProcessPool):
            await thinker.run(_die)
        view = a_view()
        assert await thinker.choose("normal", 1, view) == choose_action("normal", 1, view)
    finally:
        thinker.close()


async def test_the_ai_workers_run_below_the_bot_and_the_reviews_below_them() -> None:
    """A busy machine slows the AI, not the event loop that answers clicks: the moves' and hints' workers are
    niced, the reviews' more."""
    thinker = Thinker(1, warm=False)
    try:
        mine = os.nice(0)
        moves, hints, reviews = [await lane.run(os.nice, 0) for lane in (thinker.moves, thinker.hints,
                                                                           thinker.reviews)]
        assert moves == hints == min(19, mine + AI_NICENESS) and AI_NICENESS > 0
        assert reviews == min(19, mine + REVIEW_NICENESS) and REVIEW_NICENESS > AI_NICENESS
    finally:
        thinker.close()
