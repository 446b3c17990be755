"""Declared roem on Discord, as the engine decides it: the Roem! button for a held stuk's team, and the last
trick's claim question (Roem! / No roem) that closes before the hand is settled, once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from harness import Harness, StoredMessage, User
from test_discord import ANNA, BERT
from test_scenarios import CHRIS, EVA, bot_of, started, thread_of, wait_for, with_button

from bot.store.codec import encode_action
from bot.store.sqlite import SqliteStore, migrations
from bot.tables import driver
from bot.tables.model import Actor, Table
from engine.actions import Call, Deal, Decline
from engine.cards import SEATS, Card, Seat
from engine.game import Phase

# Dealer W, so North is the elder hand. Each seat holds one suit and South (hearts) takes trump: trick k is the
# four cards of rank k, all won by South's trump, and the last is four aces: 100 roem for NS to claim.
ONE_SUIT_EACH = Deal.from_cards(Seat.W, {
    Seat.N: [Card.parse(r + "C") for r in "789TJQKA"], Seat.E: [Card.parse(r + "D") for r in "789TJQKA"],
    Seat.S: [Card.parse(r + "H") for r in "789TJQKA"], Seat.W: [Card.parse(r + "S") for r in "789TJQKA"]})
ONE_SUIT_PLAYS = [rank + suit for k, rank in enumerate("789TJQKA")
                  for suit in (("C", "D", "H", "S") if k == 0 else ("H", "S", "C", "D"))]

# South holds K and Q of trump (hearts) and plays the second in trick 2, which West wins with 9♥: the stuk
# is NS's to claim in a trick EW won.
HELD_STUK = Deal.from_cards(Seat.W, {
    Seat.S: [Card.parse(c) for c in ["KH", "QH", "7C", "8C", "9C", "TC", "JC", "QC"]],
    Seat.W: [Card.parse(c) for c in ["JH", "9H", "AH", "TH", "7S", "8S", "9S", "TS"]],
    Seat.N: [Card.parse(c) for c in ["7H", "8H", "KC", "AC", "AS", "KS", "QS", "JS"]],
    Seat.E: [Card.parse(r + "D") for r in "789TJQKA"]})
HELD_STUK_PLAYS = ["7H", "7D", "QH", "JH", "9H", "8H", "8D", "KH"]


async def four_humans_with_deal(h: Harness, deal: Deal, monkeypatch: pytest.MonkeyPatch, **options: str) -> int:
    monkeypatch.setattr(driver, "random_deal", lambda rng, dealer: deal)
    table_id = await started(h, ANNA, [BERT, CHRIS, EVA], roem="declared", length="1", **options)
    await h.settle()
    return table_id


async def act_by_seat(h: Harness, table_id: int, actions: list[Call | Card]) -> None:
    """Each action for whichever seat is to act, through the service (the buttons are tested elsewhere)."""
    service = bot_of(h).service
    table = service.get(table_id)
    for action in actions:
        seat = table.game.to_act
        assert seat is not None
        user_id = table.seats[seat].user_id
        assert user_id is not None
        await service.act(table_id, user_id, action)
        await h.settle()


def hand_results(h: Harness, thread: int) -> list[StoredMessage]:
    return [m for m in h.fake.in_channel(thread) if m.content.startswith("Hand 1:")]


@pytest.mark.parametrize("answer", ["kj:nr:", "kj:r:"])
async def test_the_last_tricks_roem_is_asked_for_before_the_hand_is_settled_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await four_humans_with_deal(h, ONE_SUIT_EACH, monkeypatch)
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await act_by_seat(h, table_id, [Call.PASS, Call.PASS, Call.H, *(Card.parse(c) for c in ONE_SUIT_PLAYS)])
        assert table.game.phase is Phase.CLAIM and table.game.to_act is Seat.S
        assert hand_results(h, thread) == []  # not settled while the question is open
        [prompt] = [m for m in with_button(h, thread, "kj:nr:") if f"<@{ANNA.id}>" in m.content]
        assert any(i.startswith("kj:r:") for i in prompt.custom_ids())
        version = table.version
        token = await h.click(BERT, prompt, next(i for i in prompt.custom_ids() if i.startswith("kj:nr:")))
        assert table.version == version and h.private_replies(token)  # East is not asked: refused privately
        await h.click(ANNA, prompt, next(i for i in prompt.custom_ids() if i.startswith(answer)))
        await h.settle()
        [result] = table.game.results
        claimed = answer == "kj:r:"
        assert result.roem[0] == 100 + (100 if claimed else 0)  # pit, and the four aces when claimed
        assert len(hand_results(h, thread)) == 1
        assert prompt.custom_ids() == []  # the question's buttons are gone once answered
        record = await bot_of(h).store.record(table_id)
        assert record["hands"][0].get("claims", []) == ([{"trick": 7, "seat": "S"}] if claimed else [])


async def test_a_held_stuk_is_offered_to_its_team_when_the_other_team_won_the_trick(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await four_humans_with_deal(h, HELD_STUK, monkeypatch, stuk="held")
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await act_by_seat(h, table_id, [Call.PASS, Call.PASS, Call.H, *(Card.parse(c) for c in HELD_STUK_PLAYS)])
        hand = table.game.hand
        assert hand is not None and hand.tricks[1].winner is Seat.W
        [message] = [m for m in with_button(h, thread, "kj:r:") if m.content.startswith("Trick 2")]
        version = table.version
        await h.click(ANNA, message, message.custom_ids()[0])
        assert table.version == version + 1
        assert any("claims roem: 20" in m.content for m in h.fake.in_channel(thread))
        assert table.game.hand_points_so_far(hand)[1][0] == 20  # NS's roem: the stuk


async def test_a_database_from_before_the_claim_phase_keeps_its_actions_and_takes_declines(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        for number, _, sql in migrations():
            if number <= 3:
                old.executescript(sql)
        old.execute("PRAGMA user_version = 3")
        old.execute("INSERT INTO tables (id, host_id, status, settings, seed) VALUES (1, 7, 'playing', '{}', 5)")
        kind, data = encode_action(Call.PASS)
        old.execute("INSERT INTO actions (table_id, seq, kind, data, seat, actor) VALUES (1, 0, ?, ?, 'N', 'human')",
                    (kind, data))
    async with SqliteStore(path) as store:
        assert await store.schema_version() == len(migrations())
        kind, data = encode_action(Decline(Seat.S))
        await store.db.execute("INSERT INTO actions (table_id, seq, kind, data, seat, actor) "
                               "VALUES (1, 1, ?, ?, 'S', 'human')", (kind, data))
        assert [action for action, _ in await store.actions(1)] == [Call.PASS, Decline(Seat.S)]


def no_roem_plays() -> list[str]:
    """ONE_SUIT_EACH played so that seat i plays rank k + i in trick k: four suits and four ranks a trick, no roem
    anywhere; South's trump wins every trick."""
    suits = {Seat.N: "C", Seat.E: "D", Seat.S: "H", Seat.W: "S"}
    plays: list[str] = []
    leader = Seat.N
    for k in range(8):
        for i in range(4):
            seat = SEATS[(leader + i) & 3]
            plays.append("789TJQKA"[(k + seat) % 8] + suits[seat])
        leader = Seat.S
    return plays


def user_at(table: Table, seat: Seat) -> User:
    return next(u for u in (ANNA, BERT, CHRIS, EVA) if u.id == table.seats[seat].user_id)


async def test_declared_trick_messages_name_no_roem_before_a_claim(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await four_humans_with_deal(h, ONE_SUIT_EACH, monkeypatch)
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await act_by_seat(h, table_id, [Call.PASS, Call.PASS, Call.H, *(Card.parse(c) for c in ONE_SUIT_PLAYS[:28])])
        hand = table.game.hand
        assert hand is not None and [t.roem for t in hand.tricks] == [0, 0, 0, 100, 200, 100, 100]
        tricks = [m for m in h.fake.in_channel(thread) if m.content.startswith("Trick ")]
        assert len(tricks) == 7
        for message in tricks:  # four tens, jacks, queens and kings went by unclaimed: nobody was told
            assert "roem" not in message.content.lower() and "claim" not in message.content.lower()


async def test_roem_is_offered_after_a_trick_without_roem_and_a_claim_of_nothing_scores_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await four_humans_with_deal(h, ONE_SUIT_EACH, monkeypatch)
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await act_by_seat(h, table_id, [Call.PASS, Call.PASS, Call.H, *(Card.parse(c) for c in no_roem_plays()[:4])])
        hand = table.game.hand
        assert hand is not None and hand.tricks[0].roem == 0 and hand.tricks[0].winner is Seat.S
        [message] = [m for m in with_button(h, thread, "kj:r:") if m.content.startswith("Trick 1")]
        button = message.custom_ids()[0]
        version = table.version
        token = await h.click(user_at(table, Seat.E), message, button)  # EW lost the trick: plainly not theirs
        assert table.version == version and h.private_replies(token)
        await h.click(user_at(table, Seat.N), message, button)  # NS won it: a claim, judged in public
        await h.settle()
        assert table.version == version + 1
        # Said in public, and it scores nothing for either team: the rules give no penalty for it.
        assert any(m.content.endswith("claims roem: there is none, so it scores nothing.")
                   for m in h.fake.in_channel(thread))
        assert table.game.hand_points_so_far(hand)[1] == [0, 0] and table.game.totals == [0, 0]


async def test_the_last_trick_question_is_asked_when_the_last_trick_holds_no_roem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await four_humans_with_deal(h, ONE_SUIT_EACH, monkeypatch)
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await act_by_seat(h, table_id, [Call.PASS, Call.PASS, Call.H, *(Card.parse(c) for c in no_roem_plays())])
        assert table.game.claim_value(Seat.S.team) == 0
        assert (table.game.phase, table.game.to_act) == (Phase.CLAIM, Seat.S)
        assert hand_results(h, thread) == []
        south = user_at(table, Seat.S)
        [prompt] = [m for m in with_button(h, thread, "kj:nr:") if f"<@{south.id}>" in m.content]
        await h.click(south, prompt, next(i for i in prompt.custom_ids() if i.startswith("kj:nr:")))
        await h.settle()
        [result] = table.game.results
        assert result.roem == (100, 0) and len(hand_results(h, thread)) == 1  # the pit only


async def test_the_last_trick_question_gets_no_hint_and_the_clock_lets_the_roem_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both would spot the roem for the player: the strong player claims what it counts in the trick."""
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await four_humans_with_deal(h, ONE_SUIT_EACH, monkeypatch)
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await act_by_seat(h, table_id, [Call.PASS, Call.PASS, Call.H, *(Card.parse(c) for c in ONE_SUIT_PLAYS)])
        assert (table.game.phase, table.game.to_act) == (Phase.CLAIM, Seat.S)  # four aces: 100 for NS
        south = user_at(table, Seat.S)
        token = await h.command(south, "hint", channel_id=thread)
        assert h.private_replies(token) == ["Spotting roem is up to you: there is no hint for a claim."]
        driver_ = bot_of(h).service.driver
        driver_.config.turn_time = 0.2
        driver_.schedule(table)  # the clock runs out on the question
        await wait_for(h, lambda: bool(table.game.results))
        assert table.actors[-1] is Actor.TIMER and isinstance(table.game.actions[-1], Decline)
        assert table.game.results[0].roem == (100, 0)  # the pit only: the aces were not claimed for her
