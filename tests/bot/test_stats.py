"""Statistics and ratings: scripted matches whose figures are worked out by hand, the rating update
against OpenSkill's own, and the backfill of games stored before migration 0006."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from openskill.models import PlackettLuce
from pg_server import StoreMaker

from bot.stats.facts import ai_key, human_key
from bot.stats.ratings import GLOBAL_SCOPE, Rating, conservative
from bot.store.backend import Plan, SqliteConnection, Step
from bot.store.base import SqlStore
from bot.store.sqlite import SqliteStore, migrations
from bot.store.tournaments import SqlTournamentStore
from bot.tables.model import Actor, SeatInfo, SeatKind, Table, TableSettings, TableStatus
from bot.tables.registry import TableRegistry
from bot.tables.service import ServiceConfig, TableService
from bot.tournaments.model import Tournament, TournamentStatus
from engine.actions import Call, Deal
from engine.ai.players import Level
from engine.cards import Card, Seat
from engine.game import Game
from engine.settings import Rules

ANNA, BERT, CHRIS, DORA = 1001, 1002, 1003, 1004
GUILD, CHANNEL, THREAD = 910000000000000001, 920000000000000001, 920000000000000002


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


# Hand 1, dealt by West: North holds every heart, calls hearts and leads one each trick; the others have none
# and throw their cards in order. Trick 1 holds 7♠ 8♠ 9♠ (a driekaart, 20 roem); no other trick holds roem.
# NS: 162 points + 20 roem + 100 pit = 282; EW 0.
HAND1 = {Seat.N: cards("JH 9H AH TH KH QH 8H 7H"), Seat.E: cards("7S TS QS AS 7D 9D JD KD"),
         Seat.S: cards("8S JS KS 8D TD QD AD 7C"), Seat.W: cards("9S 8C 9C TC JC QC KC AC")}
# Hand 2, dealt by North: East (elder) calls spades, but North holds every spade: North trumps East's lead and
# wins all eight tricks. EW are nat; NS get 162 + 100 pit = 262. No trick holds roem.
HAND2 = {Seat.N: cards("7S 8S 9S TS JS QS KS AS"), Seat.E: cards("AH KH QH JH TH 9H 8H 7H"),
         Seat.S: cards("8D 9D TD JD QD KD AD 7D"), Seat.W: cards("9C TC JC QC KC AC 7C 8C")}


def hand_tricks(hands: dict[Seat, list[Card]], first: Seat, then: Seat | None = None) -> list[tuple[Seat, Card]]:
    """Every seat plays its cards in the order listed; ``first`` leads the first trick, ``then`` (its winner)
    all the others (it wins every trick in these hands)."""
    plays = []
    for trick in range(8):
        leader = first if trick == 0 or then is None else then
        plays.extend((Seat((leader + i) % 4), hands[Seat((leader + i) % 4)][trick]) for i in range(4))
    return plays


class Script:
    """A table driven action by action through the registry, as the service and the driver would."""

    def __init__(self, store: SqlStore, seats: list[SeatInfo], hands: int = 2) -> None:
        self.store = store
        self.registry = TableRegistry(store)
        settings = TableSettings(Rules().with_changes(length=str(hands)), ai_level=Level.NORMAL)
        self.table = Table(id=0, host_id=ANNA, settings=settings, seed=1, guild_id=GUILD, channel_id=CHANNEL,
                           thread_id=THREAD, seats=seats, game=Game(settings.rules))

    async def start(self) -> Table:
        await self.registry.register(self.table)
        self.table.status = TableStatus.PLAYING
        await self.registry.save(self.table)
        return self.table

    async def act(self, seat: Seat | None, action: Any, actor: Actor | None = None) -> None:
        info = self.table.seats[seat] if seat is not None else None
        if actor is None:
            actor = Actor.CHANCE if info is None else (Actor.AI if info.ai_plays else Actor.HUMAN)
        user = info.user_id if info is not None and actor in (Actor.HUMAN, Actor.TIMER) else None
        await self.registry.apply(self.table, seat, action, actor, user)

    async def play(self, plays: list[tuple[Seat, Card]], actors: dict[int, Actor] | None = None) -> None:
        for index, (seat, card) in enumerate(plays):
            await self.act(seat, card, (actors or {}).get(index))


def seats_at_start() -> list[SeatInfo]:
    return [SeatInfo(SeatKind.HUMAN, ANNA, "Anna"), SeatInfo(SeatKind.AI, None, "", Level.EASY),
            SeatInfo(SeatKind.HUMAN, DORA, "Dora"), SeatInfo(SeatKind.AI, None, "", Level.NORMAL)]


async def scripted_match(store: SqlStore) -> Table:
    """Anna (N) and Dora (S) against the easy AI (E) and the normal AI (W). Between the hands Chris takes over
    West; in hand 2 the turn timer plays Anna's first card, and Dora leaves after her first card (the AI
    plays the rest of her hand)."""
    script = Script(store, seats_at_start())
    table = await script.start()
    await script.act(None, Deal.from_cards(Seat.W, HAND1))
    await script.act(Seat.N, Call.H)
    await script.play(hand_tricks(HAND1, Seat.N))
    assert table.game.results[0].score == (282, 0)
    table.seats[Seat.W] = SeatInfo(SeatKind.HUMAN, CHRIS, "Chris")  # took over between hands
    await script.registry.save(table)
    await script.act(None, Deal.from_cards(Seat.N, HAND2))
    await script.act(Seat.E, Call.S)
    plays = hand_tricks(HAND2, Seat.E, Seat.N)  # East leads, North trumps and leads from then on
    await script.play(plays[:1])
    await script.act(Seat.S, plays[1][1])  # Dora's one card
    table.seats[Seat.S] = SeatInfo(SeatKind.AI, None, "", Level.NORMAL)  # she leaves: the AI takes the seat
    await script.registry.save(table)
    await script.play(plays[2:4])  # Chris, then Anna
    await script.play(plays[4:], {0: Actor.TIMER})  # North's lead of trick 2 by the turn timer
    assert table.game.finished and table.game.results[1].score == (262, 0)
    await script.registry.save(table)  # the end is stored (the front end does this once it is announced)
    return table


async def rows(store: SqlStore, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    async with store.db.execute(sql, params) as cursor:
        return [tuple(row) for row in await cursor.fetchall()]


HAND_COLUMNS = "hand, seat, player, team, chose, trump, playing, made, nat, pit, points, roem, score"


async def test_hand_rows_of_a_scripted_match_are_the_hands_worked_out_by_hand(new_store: StoreMaker) -> None:
    async with new_store() as store:
        table = await scripted_match(store)
        got = await rows(store, f"SELECT {HAND_COLUMNS} FROM hand_stats WHERE table_id = ? ORDER BY hand, seat",
                         table.id)
        anna, dora, chris = human_key(ANNA), human_key(DORA), human_key(CHRIS)
        easy, normal = ai_key("easy"), ai_key("normal")
        assert sorted(got) == sorted([
            # hand 0: Anna chose hearts and made it with pit and a driekaart
            (0, "N", anna, "NS", 1, "H", 1, 1, 0, 1, 162, 20, 282),
            (0, "S", dora, "NS", 0, "H", 1, 1, 0, 1, 162, 20, 282),
            (0, "E", easy, "EW", 0, "H", 0, 0, 0, 0, 0, 0, 0),
            (0, "W", normal, "EW", 0, "H", 0, 0, 0, 0, 0, 0, 0),
            # hand 1: the easy AI chose spades and went nat; Anna's timer card is still hers, Dora played one
            # card of this hand before leaving (hers), Chris plays West now
            (1, "N", anna, "NS", 0, "S", 0, 0, 0, 1, 162, 0, 262),
            (1, "S", dora, "NS", 0, "S", 0, 0, 0, 1, 162, 0, 262),
            (1, "E", easy, "EW", 1, "S", 1, 0, 1, 0, 0, 0, 0),
            (1, "W", chris, "EW", 0, "S", 1, 0, 1, 0, 0, 0, 0),
        ])


async def test_match_rows_results_partners_and_ratings(new_store: StoreMaker) -> None:
    async with new_store() as store:
        table = await scripted_match(store)
        anna, dora, chris = human_key(ANNA), human_key(DORA), human_key(CHRIS)
        easy, normal = ai_key("easy"), ai_key("normal")
        got = await rows(store, "SELECT player, seat, team, partner, result, hands, team_total, other_total, rated, "
                         "guild_id, thread_id FROM match_stats WHERE table_id = ?", table.id)
        assert sorted(got) == sorted([
            (anna, "N", "NS", dora, "won", 2, 544, 0, 1, GUILD, THREAD),
            (dora, "S", "NS", anna, "abandoned", 2, 544, 0, 0, GUILD, THREAD),  # she left
            (easy, "E", "EW", chris, "lost", 2, 0, 544, 1, GUILD, THREAD),
            (chris, "W", "EW", easy, "lost", 1, 0, 544, 1, GUILD, THREAD),  # the later of West's two players
            (normal, "W", "EW", easy, "lost", 1, 0, 544, 0, GUILD, THREAD),
        ])
        # The library's own update: NS (Anna, Dora) beat EW (easy AI, Chris), everyone from the default rating.
        model = PlackettLuce()
        [[a, _d], [e, c]] = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]],
                                      ranks=[1, 2])
        for scope in (GLOBAL_SCOPE, GUILD):
            stored = {row[0]: row[1:] for row in await rows(
                store, "SELECT player, mu, sigma, conservative, matches FROM ratings WHERE scope = ?", scope)}
            assert set(stored) == {anna, easy, chris}  # Dora abandoned: not rated
            for player, expected in ((anna, a), (easy, e), (chris, c)):
                mu, sigma, cons, matches = stored[player]
                assert (mu, sigma, matches) == (pytest.approx(expected.mu), pytest.approx(expected.sigma), 1)
                assert cons == pytest.approx(expected.mu - 3 * expected.sigma)
        # Saving the finished table again (a rematch link, a restart) rates nothing twice.
        await store.save_table(table)
        assert await rows(store, "SELECT count(*) FROM rating_changes") == [(6,)]
        assert await rows(store, "SELECT count(*) FROM match_stats") == [(5,)]


async def test_a_second_match_rates_from_the_stored_ratings_as_the_library_does(new_store: StoreMaker) -> None:
    async with new_store() as store:
        await scripted_match(store)
        before = {row[0]: Rating(row[1], row[2]) for row in await rows(
            store, "SELECT player, mu, sigma FROM ratings WHERE scope = 0")}
        # The same two hands again with four different players: EW (Bert, hard AI) lose to NS (Anna, easy AI).
        seats = [SeatInfo(SeatKind.HUMAN, ANNA, "Anna"), SeatInfo(SeatKind.HUMAN, BERT, "Bert"),
                 SeatInfo(SeatKind.AI, None, "", Level.EASY), SeatInfo(SeatKind.AI, None, "", Level.HARD)]
        script = Script(store, seats)
        table = await script.start()
        await script.act(None, Deal.from_cards(Seat.W, HAND1))
        await script.act(Seat.N, Call.H)
        await script.play(hand_tricks(HAND1, Seat.N))
        await script.act(None, Deal.from_cards(Seat.N, HAND2))
        await script.act(Seat.E, Call.S)
        await script.play(hand_tricks(HAND2, Seat.E, Seat.N))
        await script.registry.save(table)
        model = PlackettLuce()

        def of(player: str) -> Any:
            known = before.get(player)
            return model.rating(known.mu, known.sigma) if known else model.rating()

        anna, bert, easy, hard = human_key(ANNA), human_key(BERT), ai_key("easy"), ai_key("hard")
        [[a, e], [b, h]] = model.rate([[of(anna), of(easy)], [of(bert), of(hard)]], ranks=[1, 2])
        after = {row[0]: row[1:] for row in await rows(
            store, "SELECT player, mu, sigma, matches FROM ratings WHERE scope = 0")}
        for player, expected, matches in ((anna, a, 2), (easy, e, 2), (bert, b, 1), (hard, h, 1)):
            assert after[player] == (pytest.approx(expected.mu), pytest.approx(expected.sigma), matches)
        change = await rows(store, "SELECT mu_before, sigma_before, mu, sigma FROM rating_changes "
                            "WHERE scope = 0 AND player = ? AND table_id = ?", anna, table.id)
        assert change == [(before[anna].mu, before[anna].sigma, pytest.approx(a.mu), pytest.approx(a.sigma))]


async def test_one_ai_level_on_both_teams_keeps_its_rating(new_store: StoreMaker) -> None:
    async with new_store() as store:
        seats = [SeatInfo(SeatKind.HUMAN, ANNA, "Anna"), SeatInfo(SeatKind.AI, None, "", Level.HARD),
                 SeatInfo(SeatKind.AI, None, "", Level.HARD), SeatInfo(SeatKind.AI, None, "", Level.HARD)]
        script = Script(store, seats, hands=1)
        table = await script.start()
        await script.act(None, Deal.from_cards(Seat.W, HAND1))
        await script.act(Seat.N, Call.H)
        await script.play(hand_tricks(HAND1, Seat.N))
        await script.registry.save(table)
        results = dict(await rows(store, "SELECT player, result FROM match_stats WHERE table_id = ?", table.id))
        # The hard AI played two seats for EW and one for NS: its result is EW's.
        assert results == {human_key(ANNA): "won", ai_key("hard"): "lost"}
        rated = await rows(store, "SELECT player FROM ratings WHERE scope = 0")
        assert rated == [(human_key(ANNA),)]  # the hard AI played itself: no update


async def test_a_stopped_match_is_abandoned_for_the_stoppers_only_and_not_rated(new_store: StoreMaker) -> None:
    async with new_store() as store:
        service = TableService(store, ServiceConfig(ai_pause=0, deal_pause=0, turn_time=600),
                               choose=lambda level, seed, view: view.legal[0])
        table = await service.create_table(host_id=ANNA, host_name="Anna", guild_id=GUILD, channel_id=CHANNEL,
                                           settings=TableSettings(Rules().with_changes(length="4")), seed=5)
        for user, name in ((BERT, "Bert"), (CHRIS, "Chris"), (DORA, "Dora")):
            await service.join(table.id, user, name)
        await service.start(table.id, ANNA)
        humans = {table.seat_of(u): u for u in (ANNA, BERT, CHRIS, DORA)}
        while len(table.game.results) < 1:  # everyone plays their first legal choice through one hand
            await service.idle()
            seat = table.game.to_act
            if seat is not None:
                choice = table.game.legal_actions()[0]
                assert isinstance(choice, Card | Call)
                await service.act(table.id, humans[seat], choice, table.version)
        assert not await service.stop(table.id, BERT)  # a vote, not yet a majority
        assert await rows(store, "SELECT count(*) FROM match_stats") == [(0,)]
        assert await service.stop(table.id, ANNA)  # the host stops
        got = dict(await rows(store, "SELECT player, result FROM match_stats WHERE table_id = ?", table.id))
        assert got == {human_key(ANNA): "abandoned", human_key(BERT): "abandoned",
                       human_key(CHRIS): "unfinished", human_key(DORA): "unfinished"}
        assert await rows(store, "SELECT count(*) FROM ratings") == [(0,)]
        assert await rows(store, "SELECT count(*) FROM hand_stats WHERE table_id = ?", table.id) == [(4,)]
        stats = await store.player_stats(human_key(CHRIS), GUILD)
        assert (stats.played, stats.unfinished, stats.win_rate, stats.hands) == (0, 1, None, 1)
        await service.close()


async def test_player_stats_read_the_rows(new_store: StoreMaker) -> None:
    async with new_store() as store:
        await scripted_match(store)
        anna = await store.player_stats(human_key(ANNA), GUILD)
        assert (anna.won, anna.drawn, anna.lost, anna.abandoned, anna.played) == (1, 0, 0, 0, 1)
        assert (anna.hands, anna.chose, anna.chose_made, anna.chose_nat, anna.pits) == (2, 1, 1, 0, 2)
        assert anna.roem_per_hand == 10 and anna.points_per_hand == (282 + 262) / 2
        assert anna.favourite_trump == "H"
        assert anna.partner is not None and (anna.partner.partner, anna.partner.matches) == (human_key(DORA), 1)
        assert anna.partner.won == 1
        assert anna.rating is not None and anna.global_rating == anna.rating
        assert [m for m, _, n in anna.monthly] == [anna.monthly[0][0]] and anna.monthly[0][2] == 2
        assert len(anna.rating_history) == 1 and anna.accuracy is None
        easy = await store.player_stats(ai_key("easy"), GUILD)
        assert (easy.lost, easy.chose, easy.chose_nat, easy.nat_rate, easy.made_rate) == (1, 1, 1, 1.0, 0.0)
        dora = await store.player_stats(human_key(DORA), GUILD)
        assert (dora.abandoned, dora.played, dora.win_rate, dora.rating) == (1, 1, 0.0, None)


async def test_leaderboard_and_history(new_store: StoreMaker) -> None:
    async with new_store() as store:
        table = await scripted_match(store)
        board = await store.leaderboard(GUILD, None, 0, 10, min_matches=1)
        # Anna won; the easy AI and Chris lost from the same start (equal ratings: by key).
        assert [e.player for e in board.entries] == [human_key(ANNA), ai_key("easy"), human_key(CHRIS)]
        assert [e.rank for e in board.entries] == [1, 2, 3] and board.pages == 1 and board.total == 3
        ranked = [e.rating.conservative for e in board.entries]
        assert ranked == sorted(ranked, reverse=True)
        assert (await store.leaderboard(GUILD, None, 0, 10)).total == 0  # nobody has 5 matches
        assert (await store.leaderboard(GUILD, "2000-01-01", 0, 2, min_matches=1)).pages == 2
        assert (await store.leaderboard(GUILD, "2999-01-01", 0, 2, min_matches=1)).total == 0
        [entry] = await store.history(GUILD, human_key(ANNA), 10)
        assert (entry.table_id, entry.result, entry.team, entry.team_total, entry.other_total) == (
            table.id, "won", "NS", 544, 0)
        assert entry.players == {"NS": [human_key(ANNA), human_key(DORA)],
                                 "EW": [ai_key("easy"), ai_key("normal"), human_key(CHRIS)]}  # by seat, E first
        assert entry.thread_id == THREAD
        assert await store.history(GUILD + 1, human_key(ANNA), 10) == []


# ------------------------------------------------------------------ the backfill


def schema_0005(path: Path) -> None:
    """A database made by the bot as it was before statistics: migrations 1 to 5."""
    db = sqlite3.connect(path)
    for number, _, sql in migrations():
        if number <= 5:
            db.executescript(sql)
    db.execute("PRAGMA user_version = 5")
    db.commit()
    db.close()


STAT_QUERIES = {
    "hand_stats": f"SELECT table_id, {HAND_COLUMNS}, guild_id, settled_at FROM hand_stats",
    "match_stats": "SELECT table_id, player, seat, team, partner, result, hands, team_total, other_total, rated, "
                   "guild_id, channel_id, thread_id, settings FROM match_stats",
    "ratings": "SELECT scope, player, mu, sigma, conservative, matches FROM ratings",
    "rating_changes": "SELECT scope, player, table_id, mu_before, sigma_before, mu, sigma FROM rating_changes",
}


async def test_backfill_gives_a_database_at_schema_0005_the_rows_of_live_play(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    async with SqliteStore(live) as store:
        await scripted_match(store)  # finished
        running = Script(store, seats_at_start(), hands=4)  # still playing: its settled hand counts already
        await running.start()
        await running.act(None, Deal.from_cards(Seat.W, HAND1))
        await running.act(Seat.N, Call.H)
        await running.play(hand_tricks(HAND1, Seat.N))
        expected = {name: sorted(await rows(store, sql)) for name, sql in STAT_QUERIES.items()}
    assert len(expected["hand_stats"]) == 12 and len(expected["ratings"]) == 6
    old = tmp_path / "old.sqlite3"
    schema_0005(old)
    with sqlite3.connect(old) as db:  # the games as a bot at schema 0005 stored them
        db.execute("ATTACH ? AS live", (str(live),))
        for name in ("tables", "seats", "actions"):
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({name})")]
            listed = ", ".join(columns)
            db.execute(f"INSERT INTO {name} ({listed}) SELECT {listed} FROM live.{name}")
        db.commit()
    async with SqliteStore(old) as store:
        assert await store.schema_version() == len(migrations())
        for name, sql in STAT_QUERIES.items():
            assert sorted(await rows(store, sql)) == expected[name], name
    async with SqliteStore(old) as store:  # opened again: nothing is filled twice
        assert len(await rows(store, STAT_QUERIES["hand_stats"])) == 12


async def test_a_failing_backfill_leaves_the_database_at_schema_0005(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    old = tmp_path / "old.sqlite3"
    schema_0005(old)

    async def broken(db: aiosqlite.Connection, load_table: Any) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr("bot.store.stats.backfill", broken)
    store = SqliteStore(old)
    with pytest.raises(Exception, match="boom"):
        await store.open()
    await store.close()
    with sqlite3.connect(old) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (5,)
        assert db.execute("SELECT name FROM sqlite_master WHERE name = 'hand_stats'").fetchone() is None


def test_conservative_rating_is_mu_minus_three_sigma() -> None:
    assert conservative(25.0, 8.0) == 1.0


def test_bench_stats_generates_the_player_and_times_the_three_queries(tmp_path: Path) -> None:
    from bot.cli.bench_stats import bench_stats

    result = bench_stats(16 * 300, tmp_path / "bench.sqlite3")
    assert (result["hands"], result["matches"]) == (4800, 300)
    assert (result["player_matches"], result["player_hands"]) == (3, 48)  # every hundredth match
    for key in ("stats_query_ms", "leaderboard_query_ms", "history_query_ms"):
        assert isinstance(result[key], float) and result[key] >= 0
    assert "review_hand_s" not in result  # the review's own benchmark adds it


def recorded(plan: Plan[Any], seen: list[str]) -> Plan[Any]:
    """``plan``, passing through, with each statement's SQL added to ``seen``."""
    try:
        statement = next(plan)
        while True:
            seen.append(statement.sql)
            try:
                rows = yield statement
            except Exception as error:
                statement = plan.throw(error)
            else:
                statement = plan.send(rows)
    except StopIteration as stop:
        return stop.value


async def test_a_hands_and_a_matchs_statistics_go_with_their_write_in_one_group(new_store: StoreMaker,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The end's reads (its actions, hand rows, the clock) come before its transaction; the hand's and the match's
    statistics go in one statement group with the action or the table's row (``atomic_plan``: in SQLite one trip to
    the writer's thread, which other tables' writes wait for), and the rating updates of every player and scope in
    one statement each."""
    async with new_store() as store:
        db = store.db
        groups: list[list[str]] = []
        transactions = 0
        real_atomic_plan, real_transaction = db.atomic_plan, db.transaction

        async def atomic_plan(plan: Plan[Any], *, heavy: bool = False) -> Any:
            groups.append([])
            return await real_atomic_plan(recorded(plan, groups[-1]), heavy=heavy)

        @contextlib.asynccontextmanager
        async def transaction() -> AsyncIterator[None]:
            nonlocal transactions
            transactions += 1
            async with real_transaction():
                yield

        monkeypatch.setattr(db, "atomic_plan", atomic_plan)
        monkeypatch.setattr(db, "transaction", transaction)
        table = await scripted_match(store)
        if isinstance(db, SqliteConnection):
            assert transactions == 0  # no write held SQLite's one writer over several trips
        ending = [statements for statements in groups if any("INSERT INTO match_stats" in sql for sql in statements)]
        assert len(ending) == 1
        # The table's row and seats (one statement in PostgreSQL, two in SQLite), the savepoint and its release,
        # the check that the match is not counted yet, its rows, the ratings read, their updates and changes.
        assert len(ending[0]) <= 9, ending[0]
        assert sum("INSERT INTO ratings" in sql for sql in ending[0]) == 1
        assert not any("FROM actions" in sql or "FROM hand_stats" in sql for sql in ending[0])
        hands = [statements for statements in groups if any("INSERT INTO hand_stats" in sql for sql in statements)]
        assert len(hands) == len(table.game.results)
        assert all(any("INSERT INTO actions" in sql for sql in statements) for statements in hands)
        ratings = await rows(store, "SELECT count(*) FROM rating_changes WHERE table_id = ?", table.id)
        assert ratings[0][0] >= 4  # two people rated in each of two scopes at least


@pytest.mark.parametrize(("end_part", "failure"), [("match_end", "python"), ("match_end_rows", "python"),
                                                    ("match_end_rows", "sql")])
async def test_a_failing_statistics_write_never_stops_the_game(new_store: StoreMaker, monkeypatch: pytest.MonkeyPatch,
                                                               caplog: pytest.LogCaptureFixture, end_part: str,
                                                               failure: str) -> None:
    async def broken(*args: Any) -> None:
        raise RuntimeError("boom")

    def broken_plan(*args: Any) -> Plan[None]:
        # A statement that is written, then a bug in Python, or a statement the database refuses (thrown into the
        # plan where it waits for that statement's rows).
        yield Step("INSERT INTO hand_stats (table_id) VALUES (-1)" if failure == "sql" else
                   "UPDATE ratings SET mu = 0")
        if failure == "python":
            raise RuntimeError("boom")

    monkeypatch.setattr("bot.store.stats.hand_rows_written", broken_plan)
    # The end's reads (before its transaction) or its writes (inside) fail.
    monkeypatch.setattr(f"bot.store.stats.{end_part}", broken if end_part == "match_end" else broken_plan)
    async with new_store() as store:
        table = await scripted_match(store)  # every action and the end are stored all the same
        assert await store.record(table.id) is not None
        assert await rows(store, "SELECT count(*) FROM actions WHERE table_id = ?", table.id) == [
            (len(table.game.actions),)]
        assert await rows(store, "SELECT status FROM tables WHERE id = ?", table.id) == [("finished",)]
        assert await rows(store, "SELECT count(*) FROM hand_stats") == [(0,)]
    assert any("statistics not written" in r.message for r in caplog.records)


def test_who_played_a_hand_the_ai_played_for_a_seat() -> None:
    from bot.stats.facts import Logged, hand_players

    def log(*entries: tuple[int, str, Seat | None, int | None]) -> list[Logged]:
        return [Logged(*entry) for entry in entries]

    occupants = [human_key(ANNA), ai_key("easy"), human_key(DORA), ai_key("hard")]
    # Hand 0: Anna plays; hand 1: the AI plays every turn for her while she is away (no user ids).
    actions = log((0, "deal", None, None), (1, "call", Seat.N, ANNA), (2, "card", Seat.N, ANNA),
                  (3, "deal", None, None), (4, "card", Seat.N, None), (5, "card", Seat.S, None))
    players = hand_players(actions, 1, occupants, ai_key("normal"))
    assert players[Seat.N] == human_key(ANNA)  # away: still hers
    assert players[Seat.S] == ai_key("normal")  # Dora sits there now, but no sign she played it: the table's AI
    assert players[Seat.E] == ai_key("easy") and players[Seat.W] == ai_key("hard")


async def test_a_tournaments_hands_are_counted_when_it_closes_not_before(new_store: StoreMaker) -> None:
    async with new_store() as store:
        tournaments = SqlTournamentStore(store)
        settings = TableSettings(Rules().with_changes(length="2"), ai_level=Level.NORMAL)
        tournament_id = await tournaments.create_tournament(
            Tournament(0, GUILD, CHANNEL, "Kerst", ANNA, settings, 5, 0.0, 3600.0))
        script = Script(store, seats_at_start())
        script.table.tournament_id = tournament_id
        table = await script.start()
        await script.act(None, Deal.from_cards(Seat.W, HAND1))
        await script.act(Seat.N, Call.H)
        await script.play(hand_tricks(HAND1, Seat.N))
        sql = f"SELECT {HAND_COLUMNS} FROM hand_stats WHERE table_id = ?"
        assert await rows(store, sql, table.id) == []  # open: the deal is still to be played at other tables
        assert (await store.player_stats(human_key(ANNA), GUILD)).hands == 0
        await tournaments.set_status(tournament_id, TournamentStatus.CLOSING)
        assert await rows(store, sql, table.id) == []
        await tournaments.set_status(tournament_id, TournamentStatus.CLOSED)
        anna, dora, easy, normal = human_key(ANNA), human_key(DORA), ai_key("easy"), ai_key("normal")
        assert sorted(await rows(store, sql, table.id)) == sorted([
            (0, "N", anna, "NS", 1, "H", 1, 1, 0, 1, 162, 20, 282),
            (0, "S", dora, "NS", 0, "H", 1, 1, 0, 1, 162, 20, 282),
            (0, "E", easy, "EW", 0, "H", 0, 0, 0, 0, 0, 0, 0),
            (0, "W", normal, "EW", 0, "H", 0, 0, 0, 0, 0, 0, 0)])
        assert (await store.player_stats(human_key(ANNA), GUILD)).hands == 1
        # A hand that settles after the closing counts at once.
        await script.act(None, Deal.from_cards(Seat.N, HAND2))
        await script.act(Seat.E, Call.S)
        await script.play(hand_tricks(HAND2, Seat.E, Seat.N))
        assert len(await rows(store, sql, table.id)) == 8
