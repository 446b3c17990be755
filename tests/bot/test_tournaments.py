"""Tournaments through the offline harness: real payloads in, every request recorded.

Two scripted participants get identical deals and turned suits; the standings are worked out by hand from the
stored games; closing finishes an unfinished table with the AI; hostile input and Discord's refusals change
nothing and lose nothing.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from harness import ALL_PERMISSIONS, CHANNEL_ID, Harness, StoredMessage, User
from test_forget import traces
from test_stats_discord import followups, user_option

from bot.discord_app import tournament_messages
from bot.discord_app.client import KlaverjasBot
from bot.fake_discord.discord_side import Role
from bot.tables.model import Table, TableStatus
from bot.tables.service import ServiceConfig
from bot.texts.catalog import score_number
from bot.tournaments.model import Entry, Tournament, TournamentStatus
from bot.tournaments.scheduler import TournamentScheduler
from engine.actions import Deal, TurnUp
from engine.cards import Seat, Team

ANNA = User(2001, "Anna")  # creates (Manage Server)
BERT = User(2002, "Bert")
CHRIS = User(2003, "Chris", locale="nl")
DORA = User(2004, "Dora")
EVA = User(2005, "Eva")
TOURNAMENT_ID = re.compile(r"#(\d+)\)")


def bot_of(h: Harness) -> KlaverjasBot:
    assert h.bot is not None
    return h.bot


async def create(h: Harness, **options: object) -> Tournament:
    token = await h.command(ANNA, "tournament create", permissions=ALL_PERMISSIONS,
                            **{"name": "Vrijdagavond", "hands": 2, "bidding": "draaien", "ai": "normal", **options})
    [callback] = h.responses_to(token)
    assert not callback.ephemeral, callback.content
    found = TOURNAMENT_ID.search(callback.content)
    assert found, callback.content
    tournament = await bot_of(h).tournaments.store.tournament(int(found.group(1)))
    assert tournament is not None
    return tournament


async def entry_of(h: Harness, tournament: Tournament, user: User) -> Entry:
    entry = await bot_of(h).tournaments.store.entry_of(tournament.id, user.id)
    assert entry is not None
    return entry


async def table_of(h: Harness, tournament: Tournament, user: User) -> Table:
    entry = await entry_of(h, tournament, user)
    assert entry.table_id is not None
    return bot_of(h).service.get(entry.table_id)


def prompts(h: Harness, table: Table) -> list[StoredMessage]:
    assert table.thread_id is not None
    return [m for m in h.fake.in_channel(table.thread_id)
            if any(i.startswith(f"kj:b:{table.id}:{table.version}:") for i in m.enabled_ids())]


Pick = int | Callable[[int], int]


async def play(h: Harness, table: Table, user: User, pick: Pick, *, hands: int | None = None,
               others: list[tuple[User, Pick]] | None = None) -> None:
    """``user`` (and ``others`` at the same table, a pair's partner) play their seats through the buttons they see:
    ``pick`` chooses among the enabled bids and cards (0: the first, -1: the last; or a function of the hand's
    number); ``hands``: stop once that many hands are complete."""
    players = [(user, pick), *(others or [])]
    for _ in range(2000):
        await h.settle()
        if not table.running or (hands is not None and len(table.game.results) >= hands):
            return
        [(user, pick)] = [(u, p) for u, p in players if table.game.to_act is table.seat_of(u.id)]
        seat = table.seat_of(user.id)
        assert seat is not None
        pick = pick if isinstance(pick, int) else pick(table.game.hand_number)
        if table.game.phase.value == "bidding":
            [prompt] = prompts(h, table)[-1:]
            ids = [i for i in prompt.enabled_ids() if i.startswith(f"kj:b:{table.id}:{table.version}:")]
            await h.click(user, prompt, ids[pick])
        else:
            info = table.seats[seat]
            assert info.hand_message_id is not None
            hand = h.fake.messages[info.hand_message_id]
            cards = [i for i in hand.enabled_ids() if i.startswith(f"kj:c:{table.id}:{table.version}:")]
            assert cards, hand.content
            await h.click(user, hand, cards[pick])
    raise AssertionError("the table did not end")


def chance(table: Table) -> list[tuple[Deal, list[TurnUp]]]:
    out: list[tuple[Deal, list[TurnUp]]] = []
    for action in table.game.actions:
        if isinstance(action, Deal):
            out.append((action, []))
        elif isinstance(action, TurnUp):
            out[-1][1].append(action)
    return out


def ns_scores(table: Table) -> list[int]:
    return [result.score[Team.NS] for result in table.game.results]


async def test_two_participants_play_the_same_deals_and_the_standings_add_up(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        tournament = await create(h)
        assert tournament.hands == 2 and tournament.max_participants == 10 and tournament.is_open
        token = await h.command(BERT, "tournament join")
        [joined] = h.private_replies(token)[-1:]
        bert = await table_of(h, tournament, BERT)
        assert bert.tournament_id == tournament.id and f"<#{bert.thread_id}>" in joined
        # A private thread of the channel, with Bert added; he sits South against three AI players.
        [create_thread] = [r for r in h.fake.requests if r.path == "/channels/{channel_id}/threads"]
        assert create_thread.json is not None and create_thread.json["type"] == 12
        assert create_thread.json["invitable"] is False and create_thread.params["channel_id"] == str(CHANNEL_ID)
        assert h.fake.thread_members[bert.thread_id or 0] == {BERT.id}
        assert bert.seat_of(BERT.id) is Seat.S and [s.kind.value for s in bert.seats].count("ai") == 3
        await h.command(CHRIS, "tournament join", tournament=str(tournament.id))
        chris = await table_of(h, tournament, CHRIS)
        assert chris.thread_id != bert.thread_id and h.fake.thread_members[chris.thread_id or 0] == {CHRIS.id}
        # Nothing of one table is posted in the other's thread or the channel.
        assert not [m for m in h.fake.in_channel(CHANNEL_ID) if "kj:c:" in str(m.components)]

        await play(h, bert, BERT, 0)  # passes and plays low
        await play(h, chris, CHRIS, -1)  # plays on the first suit offered
        assert bert.status is TableStatus.FINISHED and chris.status is TableStatus.FINISHED
        assert bert.game.actions != chris.game.actions  # they played differently ...
        deals_b, deals_c = chance(bert), chance(chris)
        assert [d for d, _ in deals_b] == [d for d, _ in deals_c]  # ... the same cards, dealer and seats
        for (_, turned_b), (_, turned_c) in zip(deals_b, deals_c, strict=True):
            common = min(len(turned_b), len(turned_c))
            assert common and turned_b[:common] == turned_c[:common]

        # Standings worked out by hand from the two games.
        token = await h.command(BERT, "tournament standings")
        [answer] = [r for r in h.responses_to(token) if r.method == "POST" and "/webhooks/" in r.path]
        assert answer.ephemeral and answer.files == ["standings.png"]
        b, c = ns_scores(bert), ns_scores(chris)
        for hand in range(2):
            best, average = max(b[hand], c[hand]), score_number((b[hand] + c[hand]) / 2, "en")
            assert f"hand {hand + 1}: you {b[hand]}, best {best}, average {average}" in answer.content
        first, second = sorted([(sum(b), BERT.name), (sum(c), CHRIS.name)], reverse=True)
        rank_two = 1 if first[0] == second[0] else 2
        assert f"1. {first[1]} — {first[0]}" in answer.content
        assert f"{rank_two}. {second[1]} — {second[0]}" in answer.content
        # Chris reads Dutch: the same figures in his words.
        token = await h.command(CHRIS, "tournament standings", tournament=str(tournament.id))
        [dutch] = [r for r in h.responses_to(token) if r.method == "POST" and "/webhooks/" in r.path]
        assert f"ronde 1: jij {c[0]}, beste {max(b[0], c[0])}" in dutch.content
        # The deals stay hidden while the tournament is open: no replay of a finished table.
        token = await h.command(BERT, "replay", match=str(chris.id))
        assert "still open" in h.private_replies(token)[0]

        # Anna closes it: nothing left to finish; the winner is announced with the final standings image.
        token = await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        assert "closed" in h.private_replies(token)[0]
        await h.settle()
        stored = await bot.tournaments.store.tournament(tournament.id)
        assert stored is not None and stored.status is TournamentStatus.CLOSED and stored.announced
        [final] = [m for m in h.fake.in_channel(CHANNEL_ID) if "is over" in m.content]
        # A shared first place names every winner, in the order they entered.
        winners = ", ".join(name for total, name in ((sum(b), BERT.name), (sum(c), CHRIS.name)) if total == first[0])
        assert final.attachments == ["standings.png"] and f"Winner: {winners} with {first[0]}" in final.content
        entries = await bot.tournaments.store.entries(tournament.id)
        assert {(e.user_id, e.total, e.finished_by_ai) for e in entries} == {(BERT.id, sum(b), False),
                                                                           (CHRIS.id, sum(c), False)}
        token = await h.command(BERT, "replay", match=str(chris.id))  # closed: now it may be seen
        assert not h.private_replies(token) or "still open" not in h.private_replies(token)[0]


async def test_closing_finishes_unfinished_tables_with_the_ai_and_marks_them(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        tournament = await create(h, hands=3)
        await h.command(BERT, "tournament join")
        await h.command(DORA, "tournament join")
        bert, dora = await table_of(h, tournament, BERT), await table_of(h, tournament, DORA)
        await play(h, bert, BERT, 0)
        await play(h, dora, DORA, 0, hands=1)  # one hand of three, then Dora stops playing
        assert dora.running and len(dora.game.results) == 1
        token = await h.command(DORA, "tournament standings")
        [answer] = [r for r in h.responses_to(token) if r.method == "POST" and "/webhooks/" in r.path]
        # Open: Dora sees Bert's figures over the one hand she played, and how far each entry is.
        assert f"Bert — {ns_scores(bert)[0]} · 3/3 hands played" in answer.content
        assert "Dora — " in answer.content and " · 1/3 hands played" in answer.content
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        await h.settle()
        assert dora.status is TableStatus.FINISHED and len(dora.game.results) == 3
        # Played out by the AI without a word per card: one notice, then the end.
        assert dora.thread_id is not None
        said = [m.content for m in h.fake.in_channel(dora.thread_id)]
        assert any("the AI plays this table to its end" in text for text in said)
        assert any("Finished by the AI" in text for text in said)
        entry = await entry_of(h, tournament, DORA)
        assert entry.finished and entry.finished_by_ai and entry.total == sum(ns_scores(dora))
        assert entry.hand_scores is not None and entry.hand_scores[:1] == tuple(ns_scores(dora)[:1])
        [final] = [m for m in h.fake.in_channel(CHANNEL_ID) if "is over" in m.content]
        assert "Dora" in final.content and "(finished by the AI)" in final.content
        # Her late click is refused: the table is over.
        assert (await bot.tournaments.store.tournament(tournament.id)).status is TournamentStatus.CLOSED  # type: ignore[union-attr]


async def test_hostile_input_changes_nothing(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        # Without Manage Server or the chosen role: refused, nothing made.
        token = await h.command(BERT, "tournament create", name="Mine")
        assert "Manage Server" in h.private_replies(token)[0]
        assert await bot.tournaments.store.tournaments(910000000000000001) == []
        # A huge name is refused with its limit; a name with mentions pings nobody.
        token = await h.command(ANNA, "tournament create", permissions=ALL_PERMISSIONS, name="x" * 500)
        assert "name must be from 1 to 80" in h.private_replies(token)[0]
        tournament = await create(h, name="@everyone <@2002> **bold**", max_participants=2)
        [posted] = [r for r in h.fake.requests if r.json and "everyone" in str(r.json.get("data", {}))]
        assert posted.data["allowed_mentions"]["parse"] == []
        # Join twice: the second is refused, one table.
        await h.command(BERT, "tournament join")
        token = await h.command(BERT, "tournament join")
        assert "already play" in h.private_replies(token)[-1]
        assert len([t for t in bot.service.tables.values() if t.tournament_id == tournament.id]) == 1
        # Forged ids: a tournament that does not exist, text for a number.
        for forged in ("999", "#0", "1; DROP TABLE", "٣"):
            token = await h.command(DORA, "tournament join", tournament=forged)
            assert "no tournament" in h.private_replies(token)[-1]
        # Full (max 2): Dora gets the second place, Eva is refused.
        await h.command(DORA, "tournament join")
        token = await h.command(EVA, "tournament join", tournament=str(tournament.id))
        assert "is full (2 entries)" in h.private_replies(token)[-1]
        # Only the creator or a manager closes it.
        token = await h.command(BERT, "tournament close", tournament=str(tournament.id))
        assert "Only the creator" in h.private_replies(token)[0]
        # A tournament table keeps its player: no stop, leave or take-over.
        bert = await table_of(h, tournament, BERT)
        token = await h.command(BERT, "stop", channel_id=bert.thread_id or 0)
        assert "tournament table" in h.private_replies(token)[0] and bert.running
        token = await h.command(EVA, "join", channel_id=bert.thread_id or 0)
        assert "tournament table" in h.private_replies(token)[0]
        # The list offers the open tournament; a closed one is offered for its standings only.
        [offered] = await h.autocomplete(EVA, "tournament join", "tournament", "bold", CHANNEL_ID)
        assert offered["value"] == str(tournament.id) and offered["name"].endswith("· open")
        # Join a closed one.
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        await h.settle()
        token = await h.command(EVA, "tournament join", tournament=str(tournament.id))
        assert "is closed" in h.private_replies(token)[-1]
        assert await h.autocomplete(EVA, "tournament join", "tournament", "", CHANNEL_ID) == []
        [closed] = await h.autocomplete(EVA, "tournament standings", "tournament", "", CHANNEL_ID)
        assert closed["name"].endswith("· final standings")
        assert await bot.tournaments.store.entry_of(tournament.id, EVA.id) is None


async def test_the_server_role_may_create(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        jury = Role(970000000000000001, "Jury")
        token = await h.command(BERT, "tournament config", role=jury)
        assert "Manage Server" in h.private_replies(token)[0]  # config needs Manage Server
        token = await h.command(ANNA, "tournament config", permissions=ALL_PERMISSIONS, role=jury)
        assert f"<@&{jury.id}>" in h.private_replies(token)[0]
        token = await h.command(BERT, "tournament create", name="Jury cup", roles=(jury.id,))
        assert not h.private_replies(token)
        assert [t.name for t in await bot.tournaments.store.tournaments(910000000000000001)] == ["Jury cup"]


@pytest.mark.parametrize("code", [50013, 160006])
async def test_no_private_thread_plays_in_direct_messages(tmp_path: Path, code: int) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        tournament = await create(h)
        h.fake.fail_next(lambda r: r.path == "/channels/{channel_id}/threads", 403 if code == 50013 else 400, code,
                         "refused")
        token = await h.command(BERT, "tournament join")
        assert "direct messages" in h.private_replies(token)[-1]
        bert = await table_of(h, tournament, BERT)
        dm = h.fake.dms_of(BERT.id)
        assert dm and bert.thread_id == dm[0].channel_id and "you sit South" in dm[0].content
        await play(h, bert, BERT, 0, hands=1)  # the bidding prompts come in the DM too
        assert len(bert.game.results) == 1


async def test_no_thread_and_closed_dms_refuse_the_entry_and_keep_nothing(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        tournament = await create(h)
        h.fake.private_threads_allowed = False
        closed = User(2009, "Closed", dm_closed=True)
        token = await h.command(closed, "tournament join")
        assert "cannot open a private thread" in h.private_replies(token)[-1]
        assert await bot.tournaments.store.entry_of(tournament.id, closed.id) is None
        assert not [t for t in bot.service.tables.values() if t.tournament_id == tournament.id]
        h.fake.private_threads_allowed = True  # fixed: the same person joins
        token = await h.command(closed, "tournament join")
        assert "Your table" in h.private_replies(token)[-1]


async def test_an_expired_answer_or_a_rate_limit_loses_no_entry(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        tournament = await create(h)
        # Discord says the interaction expired (10062) when the join is answered: the entry and table stand,
        # and the thread's greeting tells Bert where to play.
        h.fake.fail_next(lambda r: r.via == "webhook" and r.path.endswith("/callback"), 404, 10062,
                         "Unknown interaction")
        await h.command(BERT, "tournament join")
        bert = await table_of(h, tournament, BERT)
        assert any(f"<@{BERT.id}>" in m.content for m in h.fake.in_channel(bert.thread_id or 0))
        # A 429 on making the thread is waited out and tried again: one thread, one table.
        h.fake.fail_next(lambda r: r.path == "/channels/{channel_id}/threads", 429, 0, "rate limited")
        token = await h.command(DORA, "tournament join")
        dora = await table_of(h, tournament, DORA)
        assert f"<#{dora.thread_id}>" in h.private_replies(token)[-1]
        assert len([r for r in h.fake.requests if r.path == "/channels/{channel_id}/threads"]) == 3
        assert len([t for t in bot.service.tables.values() if t.tournament_id == tournament.id]) == 2


async def test_the_ai_answers_alike_in_equal_situations_whatever_came_before(tmp_path: Path) -> None:
    """Hard AI players: Bert and Chris play the first hand differently and the second alike; every AI decision of
    the second hand is then the same at both tables (seeded by the situation, node budgets only)."""
    async with Harness(tmp_path / "k.sqlite3") as h:
        tournament = await create(h, ai="hard", bidding="vrij")
        await h.command(BERT, "tournament join")
        await h.command(CHRIS, "tournament join")
        bert, chris = await table_of(h, tournament, BERT), await table_of(h, tournament, CHRIS)
        await play(h, bert, BERT, lambda hand: 0)
        await play(h, chris, CHRIS, lambda hand: -1 if hand == 0 else 0)
        first_b, first_c = (t.game.hands[0] for t in (bert, chris))
        assert (first_b.bids, first_b.tricks) != (first_c.bids, first_c.tricks)  # hand 1 went differently
        second = [(t.game.actions[_hand_start(t, 1):], t.actors[_hand_start(t, 1):]) for t in (bert, chris)]
        assert second[0][0] == second[1][0]  # every call and card of hand 2, the AI's included
        assert second[0][1].count("ai") >= 20  # and most of them the AI's


def _hand_start(table: Table, hand: int) -> int:
    return [i for i, action in enumerate(table.game.actions) if isinstance(action, Deal)][hand]


async def test_a_pair_enters_when_the_partner_confirms(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        tournament = await create(h, hands=1)
        token = await h.command(BERT, "tournament join", partner=CHRIS)
        assert "when Chris confirms" in h.private_replies(token)[-1]
        [invite] = [m for m in h.fake.in_channel(CHANNEL_ID) if f"<@{CHRIS.id}>" in m.content and m.custom_ids()]
        [confirm] = invite.custom_ids()
        assert confirm.startswith("kj:tp:")
        # Someone else presses Confirm: refused, nothing opens.
        token = await h.click(DORA, invite, confirm)
        assert "no invitation for you" in h.private_replies(token)[-1]
        assert not [t for t in bot.service.tables.values() if t.tournament_id == tournament.id]
        # Chris confirms: the pair's table opens in a private thread for both.
        token = await h.click(CHRIS, invite, confirm)
        pair = await table_of(h, tournament, BERT)
        assert pair.seat_of(BERT.id) is Seat.S and pair.seat_of(CHRIS.id) is Seat.N
        assert h.fake.thread_members[pair.thread_id or 0] == {BERT.id, CHRIS.id}
        token = await h.click(CHRIS, invite, confirm)  # a second press: no second table
        assert len([t for t in bot.service.tables.values() if t.tournament_id == tournament.id]) == 1
        token = await h.command(CHRIS, "tournament join")  # Chris reads Dutch
        assert "Je speelt al mee" in h.private_replies(token)[-1]
        await h.command(EVA, "tournament join")
        eva = await table_of(h, tournament, EVA)
        await play(h, pair, BERT, 0, others=[(CHRIS, -1)])
        await play(h, eva, EVA, 0)
        final = await bot.tournaments.standings(tournament)
        assert [r.entry.label for r in final.pairs.rows] == ["Bert & Chris"]
        assert [r.entry.user_id for r in final.solo.rows] == [EVA.id]
        assert final.pairs.rows[0].rank == 1 and final.solo.rows[0].rank == 1  # ranked apart
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        await h.settle()
        [done] = [m for m in h.fake.in_channel(CHANNEL_ID) if "is over" in m.content]
        assert "Best pair: Bert & Chris" in done.content and "Winner: Eva" in done.content


class FakeClock:
    def __init__(self, at: datetime) -> None:
        self.now = at.timestamp()

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += hours * 3600


def dailies(h: Harness) -> list[StoredMessage]:
    return [m for m in h.fake.in_channel(CHANNEL_ID) if m.content.startswith("🏆 The daily tournament")]


async def test_the_daily_tournament_opens_and_closes_on_the_clock_and_resumes_after_a_restart(tmp_path: Path) -> None:
    clock = FakeClock(datetime(2025, 3, 1, 18, 0, tzinfo=UTC))
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        bot.tournaments.clock = clock
        token = await h.command(ANNA, "tournament config", permissions=ALL_PERMISSIONS, daily=True, hour=19)
        assert "19:00 UTC" in h.private_replies(token)[0]
        # 18:00: yesterday's (opened at 19:00 on 28 February) is still open, so it is made now, with its own times.
        [yesterday] = await bot.tournaments.store.tournaments(910000000000000001)
        assert yesterday.daily == "2025-02-28" and yesterday.max_participants == 0 and yesterday.hands == 16
        assert yesterday.closes_at == datetime(2025, 3, 1, 19, 0, tzinfo=UTC).timestamp()
        await bot.tournaments.run_due()  # looking again changes nothing
        assert len(await bot.tournaments.store.tournaments(910000000000000001)) == 1 and len(dailies(h)) == 1
        clock.advance(1)  # 19:00: yesterday's closes, today's opens
        await bot.tournaments.run_due()
        today = (await bot.tournaments.store.tournaments(910000000000000001, open_only=True))[0]
        assert today.daily == "2025-03-01" and len(dailies(h)) == 2
        closed = await bot.tournaments.store.tournament(yesterday.id)
        assert closed is not None and closed.status is TournamentStatus.CLOSED and closed.announced
        # Bert plays today's shortened to one hand... the daily has 16: he plays two of them and stops.
        await h.command(BERT, "tournament join")
        bert = await table_of(h, today, BERT)
        await play(h, bert, BERT, 0, hands=2)
    # The bot stops; it starts again two days later (the table and the schedule come back from the store).
    clock.advance(48)
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        bot.tournaments.clock = clock
        scheduler = TournamentScheduler(bot.tournaments, clock)
        wait = await scheduler.tick()
        await h.settle()
        after = await bot.tournaments.store.tournament(today.id)
        assert after is not None and after.status is TournamentStatus.CLOSED and after.announced
        entry = await entry_of(h, today, BERT)
        assert entry.finished and entry.finished_by_ai and entry.hand_scores is not None \
            and len(entry.hand_scores) == 16
        days = sorted(t.daily or "" for t in await bot.tournaments.store.tournaments(910000000000000001))
        # Missed days are not made up: the one open now (3 March, 19:00 + 48 h = 3 March 19:00) is made.
        assert days == ["2025-02-28", "2025-03-01", "2025-03-03"]
        assert 1.0 <= wait <= 60.0  # the next look: within a minute
        token = await h.command(DORA, "tournament winners")
        assert "1. Bert — 1 win" in h.private_replies(token)[0]


async def test_tournament_games_count_their_hands_not_ratings_and_forget_me_anonymises_the_entry(
        tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    async with Harness(path) as h:
        tournament = await create(h, hands=2)
        await h.command(BERT, "tournament join")
        bert = await table_of(h, tournament, BERT)
        await play(h, bert, BERT, 0)
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        await h.settle()
        with sqlite3.connect(path) as db:
            hands = db.execute("SELECT count(*) FROM hand_stats WHERE table_id = ? AND player = ?",
                               (bert.id, f"u:{BERT.id}")).fetchone()[0]
            rated = db.execute("SELECT count(*) FROM rating_changes WHERE table_id = ?", (bert.id,)).fetchone()[0]
            matches = db.execute("SELECT count(*) FROM match_stats WHERE table_id = ?", (bert.id,)).fetchone()[0]
        assert (hands, rated, matches) == (2, 0, 0)
        # /stats counts the tournament and Bert's place in it (alone in his field: first of one).
        token = await h.slash(BERT, "stats")
        [answer] = [r for r in h.responses_to(token) if r.method == "POST" and "/webhooks/" in r.path]
        assert "Tournaments: 1 · best placing 1 of 1" in answer.content and "Hands: 2" in answer.content
        before = await entry_of(h, tournament, BERT)
        await h.command(BERT, "forget-me")
        [question] = [m for m in h.fake.messages.values() if f"kj:fm:{BERT.id}" in m.custom_ids()]
        await h.click(BERT, question, f"kj:fm:{BERT.id}")
        assert traces(path, str(BERT.id), BERT.name) == []
        # The entry keeps its place and its scores in the standings, with nobody's name on it.
        [entry] = await bot_of(h).tournaments.store.entries(tournament.id)
        assert entry.user_id < 0 and entry.name == "" and entry.total == before.total


async def test_the_standings_show_the_points_each_hand_lost_once_the_table_is_reviewed(tmp_path: Path) -> None:
    config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=600, reviews=True)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        tournament = await create(h, hands=2)
        await h.command(BERT, "tournament join")
        bert = await table_of(h, tournament, BERT)
        await play(h, bert, BERT, 0)
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        await h.settle()
        await bot_of(h).service.reviews.idle()
        review = await bot_of(h).store.review(bert.id)
        assert review is not None
        [mine] = [p for p in review.review.players if p.player == BERT.id]
        token = await h.command(BERT, "tournament standings")
        [answer] = [r for r in h.responses_to(token) if r.method == "POST" and "/webhooks/" in r.path]
        for hand, lost in enumerate(mine.lost_by_hand, start=1):
            assert f"hand {hand}: you " in answer.content
            line = next(x for x in answer.content.splitlines() if f"hand {hand}: you " in x)
            assert line.endswith(f"points lost per decision {score_number(lost, 'en')}")


def standings_answer(h: Harness, token: str) -> str:
    [answer] = [r for r in h.responses_to(token) if r.method == "POST" and "/webhooks/" in r.path]
    assert answer.files == ["standings.png"]
    return answer.content


def ranking(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^(\d+\.|·) ", line)]


async def test_an_open_tournament_shows_each_reader_only_the_hands_they_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deals are the same at every table: while the tournament is open, the field's figures of a hand are
    shown only to who played that hand; outsiders and the channel see the order by hands played, no figures."""
    drawn: list[dict[str, Any]] = []
    original = tournament_messages.render_standings

    def recording(**kwargs: Any) -> bytes:
        drawn.append(kwargs)
        return original(**kwargs)

    monkeypatch.setattr(tournament_messages, "render_standings", recording)
    async with Harness(tmp_path / "k.sqlite3") as h:
        tournament = await create(h, hands=2)
        for user in (BERT, CHRIS, DORA):
            await h.command(user, "tournament join")
        bert, dora = await table_of(h, tournament, BERT), await table_of(h, tournament, DORA)
        await play(h, bert, BERT, -1, hands=1)  # Bert plays hand 1 and is still playing
        b = ns_scores(bert)
        assert bert.running and len(b) == 1

        # Dora has played nothing: no total and no hand of anyone, only who is how far.
        text = standings_answer(h, await h.command(DORA, "tournament standings"))
        assert ranking(text) == ["1. Bert — 1/2 hands played", "2. Chris — 0/2 hands played",
                                 "2. Dora — 0/2 hands played"], text
        assert "hand 1:" not in text and "until you have played a hand" in text
        assert all(row.total is None for _, rows in drawn[-1]["fields"] for row in rows)
        assert not drawn[-1]["grid"] and set(drawn[-1]["best"]) == {None} and set(drawn[-1]["average"]) == {None}
        # Eva has no entry: the same ranking by hands played, nothing per hand, in the text and the image.
        text = standings_answer(h, await h.command(EVA, "tournament standings"))
        assert ranking(text)[0] == "1. Bert — 1/2 hands played" and not re.search(r"hand \d+:", text)
        assert drawn[-1]["you"] is None and not drawn[-1]["grid"]
        assert all(row.total is None for _, rows in drawn[-1]["fields"] for row in rows)
        # Bert sees his hand 1 against the field (only he played it), nothing of hand 2.
        text = standings_answer(h, await h.command(BERT, "tournament standings"))
        assert f"hand 1: you {b[0]}, best {b[0]}, average {b[0]}" in text and "hand 2:" not in text
        assert drawn[-1]["best"] == (b[0], None) and drawn[-1]["grid"]

        # Dora plays hand 1: now she sees Bert's score on it, never more than that hand.
        await play(h, dora, DORA, 0, hands=1)
        c = ns_scores(dora)
        text = standings_answer(h, await h.command(DORA, "tournament standings"))
        assert f"Bert — {b[0]} · 1/2 hands played" in text and f"Dora — {c[0]} · 1/2 hands played" in text
        assert f"hand 1: you {c[0]}, best {max(b[0], c[0])}" in text and "hand 2:" not in text
        await play(h, bert, BERT, -1)  # Bert finishes: Dora still sees hand 1 only
        b = ns_scores(bert)
        text = standings_answer(h, await h.command(DORA, "tournament standings"))
        assert f"Bert — {b[0]} · 2/2 hands played" in text
        assert b[1] == 0 or f"Bert — {sum(b)}" not in text  # his second hand's points stay out
        assert drawn[-1]["best"][1] is None and drawn[-1]["average"][1] is None

        # Closed: everything, for everyone, and in the channel.
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        await h.settle()
        entries = {e.user_id: e for e in await bot_of(h).tournaments.store.entries(tournament.id)}
        totals = {user.name: entries[user.id].total for user in (BERT, CHRIS, DORA)}
        [final] = [m for m in h.fake.in_channel(CHANNEL_ID) if "is over" in m.content]
        assert drawn[-1]["grid"] and all(row.total is not None for _, rows in drawn[-1]["fields"] for row in rows)
        text = standings_answer(h, await h.command(EVA, "tournament standings"))
        for name, total in totals.items():
            assert f"{name} — {total}" in text and f"{name} — {total}" in final.content
        assert drawn[-1]["best"][1] is not None


async def test_an_open_tournaments_hands_count_in_the_statistics_once_it_closes(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        tournament = await create(h, hands=2)
        await h.command(BERT, "tournament join")
        bert = await table_of(h, tournament, BERT)
        await play(h, bert, BERT, -1, hands=1)
        options, resolved = user_option("player", BERT)
        ai = [{"name": "ai", "type": 3, "value": "normal"}]
        # Open: neither Bert's hand nor the AI's hands of it show anywhere in /stats.
        [answer] = followups(h, await h.slash(EVA, "stats", options=options, resolved=resolved))
        assert "Hands:" not in answer.content and "not played" in answer.content
        [answer] = followups(h, await h.slash(EVA, "stats", options=ai))
        assert "Hands:" not in answer.content and "chose trump" not in answer.content
        [answer] = followups(h, await h.slash(BERT, "stats"))
        assert "Hands:" not in answer.content
        # Closed (the AI finishes Bert's table): all its hands count.
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        await h.settle()
        [answer] = followups(h, await h.slash(EVA, "stats", options=options, resolved=resolved))
        assert "Hands: 2" in answer.content
        [answer] = followups(h, await h.slash(EVA, "stats", options=ai))
        assert "Hands: 6" in answer.content  # three AI seats, two hands


async def test_an_open_tournaments_table_is_seen_whole_only_by_who_played_it_to_the_end(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        tournament = await create(h, hands=1)
        await h.command(BERT, "tournament join")
        await h.command(DORA, "tournament join")
        bert = await table_of(h, tournament, BERT)
        await play(h, bert, BERT, 0)
        assert bert.status is TableStatus.FINISHED
        # Dora has still to play the same deal: no replay, export or review of Bert's table, nor is it offered.
        for command, option in (("replay", "match"), ("export", "match"), ("review", "match")):
            token = await h.command(DORA, command, **{option: str(bert.id)})
            [refusal] = h.private_replies(token)[-1:]
            assert "still open" in refusal, (command, refusal)
            assert not [r for r in h.responses_to(token) if r.files]
            assert await h.autocomplete(DORA, command, option, str(bert.id), CHANNEL_ID) == []
        # Bert played all of it: he may see his own table's record now.
        token = await h.command(BERT, "replay", match=str(bert.id))
        assert not any("still open" in text for text in h.private_replies(token))
        assert [r for r in h.responses_to(token) if r.files]
        [offered] = await h.autocomplete(BERT, "replay", "match", "", CHANNEL_ID)
        assert offered["value"] == str(bert.id)
        # Closed: everyone in the server.
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        await h.settle()
        token = await h.command(DORA, "export", match=str(bert.id))
        assert [r for r in h.responses_to(token) if r.files]


async def test_a_reviewed_tournament_table_counts_in_the_accuracy_once_the_tournament_closes(tmp_path: Path) -> None:
    config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=600, reviews=True)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        tournament = await create(h, hands=1)
        await h.command(BERT, "tournament join")
        bert = await table_of(h, tournament, BERT)
        await play(h, bert, BERT, 0)
        await bot_of(h).service.reviews.idle()
        assert await bot_of(h).store.review(bert.id) is not None  # reviewed while the tournament is open ...
        options, resolved = user_option("player", BERT)
        [answer] = followups(h, await h.slash(EVA, "stats", options=options, resolved=resolved))
        assert "Accuracy" not in answer.content or "Accuracy: not reviewed yet" in answer.content
        assert await bot_of(h).store.accuracy(BERT.id) == []
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournament.id))
        await h.settle()
        [answer] = followups(h, await h.slash(EVA, "stats", options=options, resolved=resolved))
        assert "Accuracy: " in answer.content and "not reviewed yet" not in answer.content  # ... counted once closed
        assert [point.table_id for point in await bot_of(h).store.accuracy(BERT.id)] == [bert.id]


async def test_an_upgrade_takes_the_hands_of_a_tournament_not_closed_out_of_the_statistics(tmp_path: Path) -> None:
    """A bot before this rule wrote a tournament's hands as they settled: its open tournaments' rows go at the
    upgrade (their closing writes them again), a closed one's stay."""
    path = tmp_path / "k.sqlite3"
    async with Harness(path) as h:
        closed, still_open = await create(h, hands=1), await create(h, hands=1)
        await h.command(BERT, "tournament join", tournament=str(closed.id))
        await play(h, await table_of(h, closed, BERT), BERT, 0)
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(closed.id))
        await h.settle()
        await h.command(BERT, "tournament join", tournament=str(still_open.id))
        table = await table_of(h, still_open, BERT)
        await play(h, table, BERT, 0)
    with sqlite3.connect(path) as db:
        counted = db.execute("SELECT count(*) FROM hand_stats").fetchone()[0]
        assert counted == 4 and not db.execute("SELECT 1 FROM hand_stats WHERE table_id = ?", (table.id,)).fetchall()
        # As the bot before stored it: the open tournament's hand counted as it settled, at schema 9.
        db.execute("INSERT INTO hand_stats SELECT ? AS table_id, hand, seat, guild_id, player, team, chose, trump, "
                   "playing, made, nat, pit, points, roem, score, settled_at FROM hand_stats", (table.id,))
        db.execute("PRAGMA user_version = 9")
        for column in ("language", "pending_language"):  # added by a later migration, applied again at the upgrade
            db.execute(f"ALTER TABLE seats DROP COLUMN {column}")
        # And the reviews as a later migration found them: no stakes, the count of accurate decisions.
        db.execute("ALTER TABLE review_decisions DROP COLUMN spread")
        for column in ("stake", "kept"):
            db.execute(f"ALTER TABLE review_players DROP COLUMN {column}")
        db.execute("ALTER TABLE review_players ADD COLUMN accurate INTEGER NOT NULL DEFAULT 0")
    async with Harness(path) as h:
        [answer] = followups(h, await h.slash(BERT, "stats"))
        assert "Hands: 1 " in answer.content  # the closed tournament's hand only
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM hand_stats").fetchone()[0] == counted
