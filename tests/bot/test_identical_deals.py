"""Identical deals: chance depends on the seed, the hand and the draw within it, and an AI decision on
the seed and what the seat sees, so tables that share a seed meet the same cards and the same answers."""

from __future__ import annotations

import asyncio
import random

from pg_server import StoreMaker

from bot.tables.driver import chance_rng
from bot.tables.model import Table, TableSettings
from bot.tables.service import ServiceConfig, TableService
from bot.tables.thinking import choose_action
from engine.actions import Call, Deal, TurnUp
from engine.ai.pimc import PimcPlayer
from engine.ai.players import Level, situation_seed
from engine.cards import Card, Seat
from engine.game import Game, Phase, random_deal
from engine.settings import Rules
from engine.view import SeatView, seat_view

HOST = 1001
FAST = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=60)
SEED = 424242


def first_legal(level: str, seed: int, view: SeatView) -> Card | Call:
    return view.legal[0]


async def play(service: TableService, table: Table, pick: int) -> None:
    """South plays ``legal[pick]`` at every turn (0: passes whenever it may; -1: plays and takes the last card)."""
    while table.running:
        await service.idle()
        if table.game.to_act is Seat.S:
            await service.act(table.id, HOST, table.game.legal_actions()[pick], table.version)
        else:
            await asyncio.sleep(0.002)


def chance_by_hand(table: Table) -> list[tuple[Deal, list[TurnUp]]]:
    out: list[tuple[Deal, list[TurnUp]]] = []
    for action in table.game.actions:
        if isinstance(action, Deal):
            out.append((action, []))
        elif isinstance(action, TurnUp):
            out[-1][1].append(action)
    return out


async def test_two_tables_with_one_seed_get_the_same_deals_and_turned_suits_however_they_bid(
        new_store: StoreMaker) -> None:
    settings = TableSettings(Rules().with_changes(length="6", bidding="draaien"), ai_level="normal")
    async with new_store() as store:
        service = TableService(store, FAST, choose=first_legal)
        tables = []
        for pick in (0, -1):
            table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings, seed=SEED)
            await service.start(table.id, HOST)
            await play(service, table, pick)
            tables.append(table)
        first, second = (chance_by_hand(t) for t in tables)
        assert len(tables[0].game.actions) != len(tables[1].game.actions)  # they played differently
        assert len(first) == len(second) == 6
        assert [deal for deal, _ in first] == [deal for deal, _ in second]  # dealer and all four hands
        for (_, turned_a), (_, turned_b) in zip(first, second, strict=True):
            common = min(len(turned_a), len(turned_b))
            assert common >= 1 and turned_a[:common] == turned_b[:common]
        # The passing South saw more turned suits somewhere: the same suits, one draw further.
        assert sum(len(t) for _, t in first) > sum(len(t) for _, t in second)
        assert tables[0].game.totals != tables[1].game.totals
        await service.close()


def test_the_chance_of_a_hand_ignores_what_was_played_before() -> None:
    game_a, game_b = Game(Rules()), Game(Rules())
    table_a = Table(1, HOST, TableSettings(), SEED, game=game_a)
    table_b = Table(2, HOST, TableSettings(), SEED + 1, game=game_b)
    assert random_deal(chance_rng(table_a), Seat.N) != random_deal(chance_rng(table_b), Seat.N)
    table_b.seed = SEED
    # Hand 0 draw 0 is the same generator, before anything happened at either table.
    assert chance_rng(table_a).random() == chance_rng(table_b).random()


def _same_hand_two_ways() -> tuple[SeatView, SeatView, Game, Game]:
    """Two games whose first hands went differently and whose second hands are dealt alike; East's view on
    its turn in the second trick of hand 2 at each, after the same bids and cards in that hand."""
    rules = Rules().with_changes(length="2")
    games = [Game(rules), Game(rules)]
    deals = random.Random(5)
    first = random_deal(deals, Seat.W)
    second = random_deal(deals, Seat.N)
    for index, game in enumerate(games):
        game.apply(first)
        while game.phase is not Phase.DEAL:
            legal = game.legal_actions()
            game.apply(legal[0] if index == 0 else legal[-1])
        game.apply(second)
    views = []
    for game in games:
        while not (game.to_act is Seat.E and game.phase is Phase.PLAY and game.hand is not None
                   and len(game.hand.tricks) == 1):
            game.apply(game.legal_actions()[0])
        views.append(seat_view(game, Seat.E))
    return views[0], views[1], games[0], games[1]


def test_equal_situations_get_equal_seeds_and_equal_answers_from_the_strong_player() -> None:
    view_a, view_b, game_a, game_b = _same_hand_two_ways()
    assert game_a.totals != game_b.totals  # the first hand went differently
    assert len(view_a.legal) > 1  # a real choice
    assert situation_seed(SEED, view_a) == situation_seed(SEED, view_b)
    assert situation_seed(SEED, view_a) != situation_seed(SEED + 1, view_a)
    answers = {choose_action(Level.HARD, situation_seed(SEED, view), view, False) for view in (view_a, view_b)}
    assert len(answers) == 1
    # Untimed, the time cap plays no part: a budget of a microsecond gives the same card.
    rushed = PimcPlayer(seed=situation_seed(SEED, view_a), time_budget_ms=0.001, timed=False)
    assert rushed.choose(view_a) in answers and rushed.last_source == "search"


def test_the_situation_seed_changes_with_anything_the_seat_sees_of_the_hand() -> None:
    view_a, _, game_a, _ = _same_hand_two_ways()
    seed = situation_seed(SEED, view_a)
    card = game_a.legal_actions()[0]
    game_a.apply(card)
    assert isinstance(card, Card)
    assert situation_seed(SEED, seat_view(game_a, Seat.E)) != seed
