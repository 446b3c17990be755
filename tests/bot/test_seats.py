"""Who sits where, through the offline harness: a seat changes hands only between hands, so nobody sees a second
hand by hopping seats; a vote to stop leaves with the voter; a table nobody plays at in person ends."""

from __future__ import annotations

import asyncio
import copy
import random
from pathlib import Path

import pytest
from harness import GUILD_ID, Harness, Request, StoredMessage, User
from test_discord import ANNA, BERT, CHRIS, lobby, open_table
from test_scenarios import bot_of, started, thread_of, until

from bot.discord_app.config import ConfigError, load_config
from bot.stats.facts import human_key
from bot.tables.model import Table, TableSettings, TableStatus
from bot.tables.service import ServiceConfig
from bot.texts.catalog import seat_name, t
from bot.texts.language import Language
from engine.actions import Choice
from engine.ai.players import Level
from engine.cards import Card, Seat, cards_of
from engine.game import Phase, random_deal
from engine.record import game_from_record
from engine.view import SeatView

# A seed whose first hand South (the host) bids first: after the deal nobody acts until she does, the moment
# a seat hopper looks for.
SOUTH_FIRST = 2


def requests_to(h: Harness, user: User, tokens: list[str]) -> list[Request]:
    """Everything the bot sent ``user`` alone: their direct messages and the answers to their interactions."""
    dm_channels = {channel for channel, owner in h.fake.dm_channels.items() if owner == user.id}
    return [r for r in h.fake.requests
            if (r.via == "rest" and r.params.get("channel_id") in {str(c) for c in dm_channels})
            or (r.token is not None and r.token in tokens)]


def cards_shown(request: Request) -> set[Card]:
    """The cards of a message's card buttons (a hand's)."""
    return {Card.parse(i.rsplit(":", 1)[1]) for i in request.custom_ids() if i.startswith("kj:c:")}


def dealt(table: Table, hand: int, seat: Seat) -> set[Card]:
    return set(cards_of(table.game.hands[hand].deal[seat]))


async def hop(h: Harness, user: User, table: Table, route: str, seat: Seat, menu: StoredMessage) -> str:
    """``user`` asks for ``seat`` of a running table: by ``/klaverjas join``, the table message's Take seat button
    (the first AI seat, whichever it is) or the seat menu of the lobby ``menu`` as it was before the start."""
    thread = thread_of(h, table.id)
    if route == "command":
        return await h.command(user, "join", channel_id=thread, seat=seat.letter)
    if route == "button":
        assert table.table_message_id is not None
        return await h.click(user, h.fake.messages[table.table_message_id], f"kj:take:{table.id}")
    return await h.select(user, menu, f"kj:seat:{table.id}", [seat.letter])


@pytest.mark.parametrize("route", ["command", "button", "menu"])
async def test_hopping_seats_after_the_deal_shows_no_other_hand(tmp_path: Path, route: str) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: SOUTH_FIRST
        # Bert sits North, leaves, and asks for East, West and North again, leaving each time, before the first
        # bid. The Take seat button gives the first AI seat (North once he left it): by the button he starts West.
        start, hops = (Seat.W, (Seat.E, Seat.N, Seat.W)) if route == "button" else (Seat.N, (Seat.E, Seat.W, Seat.N))
        table_id = await open_table(h, ANNA, length="2")
        await h.select(BERT, lobby(h), f"kj:seat:{table_id}", [start.letter])
        menu = copy.deepcopy(lobby(h))  # the lobby as Bert saw it, with its seat menu
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        own = table.seat_of(BERT.id)
        assert own is start and table.game.to_act is Seat.S and not table.game.hand.bids  # type: ignore[union-attr]
        mine = dealt(table, 0, own)
        before = len(h.fake.requests)
        tokens: list[str] = []
        for seat in hops:
            tokens.append(await h.command(BERT, "leave", channel_id=thread))
            tokens.append(await hop(h, BERT, table, route, seat, menu))
        assert not table.game.hand.bids  # type: ignore[union-attr]  # still the first hand, before any bid
        seen = [r for r in requests_to(h, BERT, tokens) if r in h.fake.requests[before:]]
        assert all(cards_shown(r) <= mine for r in seen), [sorted(map(str, cards_shown(r))) for r in seen]
        assert not any(r.files for r in seen)  # no hand image either: the only hand he had is his first seat's
        # He sits nowhere now; the first seat he asked for is his from the next deal, the others are refused.
        reserved = table.pending_seat_of(BERT.id)
        assert table.seat_of(BERT.id) is None and reserved is not None
        replies = [text for token in tokens for text in h.private_replies(token)]
        assert replies.count(f"Seat {seat_name(reserved, Language.EN)} is yours from the next hand.") == 1, replies
        assert sum(text.startswith("You already take over seat") for text in replies) == 2, replies
        # Only at the next deal does he sit in the seat he reserved, and sees that hand alone.
        await until(h, lambda: len(table.game.hands) == 2, [ANNA])
        assert table.seat_of(BERT.id) is reserved and table.pending_seat_of(BERT.id) is None
        await h.settle()
        later = [r for r in requests_to(h, BERT, tokens) if r in h.fake.requests[before:]]
        shown = set().union(*(cards_shown(r) for r in later))
        assert shown and shown <= mine | dealt(table, 1, reserved)


def test_a_seat_changes_hands_only_before_a_deal() -> None:
    table = Table(id=1, host_id=ANNA.id, settings=TableSettings(), seed=SOUTH_FIRST, status=TableStatus.PLAYING)
    assert table.between_hands  # nothing dealt yet
    table.game.apply(random_deal(random.Random(1), Seat.W))
    assert table.game.hand is not None and not table.game.hand.bids
    assert not table.between_hands  # dealt: every seat's cards are known to whoever sits there
    while table.game.phase is not Phase.DEAL:
        table.game.apply(table.game.legal_actions()[0])
    assert table.between_hands  # settled, the next hand not dealt: the moment a seat may change hands


# ------------------------------------------------------------------ votes to stop


async def test_a_vote_to_stop_leaves_with_the_voter(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [BERT, CHRIS])
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        token = await h.command(BERT, "stop", channel_id=thread)
        assert any("majority" in r for r in h.private_replies(token))
        await h.command(BERT, "leave", channel_id=thread)
        # Two humans are left: Chris's vote alone is not a majority of them; Bert's went with his seat.
        token = await h.command(CHRIS, "stop", channel_id=thread)
        assert h.private_replies(token) == [t("stop.voted", Language.NL)]
        assert table.running and table.stop_votes == {CHRIS.id}
        # Bert comes back (from the next deal): his old vote does not count again.
        await h.command(BERT, "join", channel_id=thread)
        assert table.running and table.stop_votes == {CHRIS.id}


# ------------------------------------------------------------------ a table nobody plays at in person


def grace(seconds: float, turn_time: float = 600.0) -> ServiceConfig:
    return ServiceConfig(ai_pause=0, deal_pause=0, turn_time=turn_time, reviews=False, deserted_grace=seconds)


def first_choice(level: Level, seed: int, view: SeatView) -> Choice:
    """A quick AI for seats the timer plays (the hard player would take seconds a move on a busy machine)."""
    return view.legal[0]


async def until_over(table: Table, seconds: float = 30.0) -> None:
    """Wait (in real time: the grace and turn timers run) until the table is over."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while table.running and loop.time() < deadline:
        await asyncio.sleep(0.02)


async def assert_ended_deserted(h: Harness, table: Table) -> None:
    """Stopped by nobody, with the note in its language, and stored as a stopped match whose record replays."""
    await h.settle()
    store = bot_of(h).store
    assert table.status is TableStatus.STOPPED and table.stopped_by is None
    lang = table.settings.language
    said = [m.content for m in h.fake.in_channel(thread_of(h, table.id))]
    assert said.count(t("deserted.waiting", lang, minutes=1)) == 1  # it said it waits, once
    note = t("deserted", lang)
    notes = [m for m in h.fake.in_channel(thread_of(h, table.id)) if m.content == note]
    assert len(notes) == 1 and notes[0].custom_ids() == [f"kj:rp:{table.id}", f"kj:ex:{table.id}"]
    assert said.index(t("deserted.waiting", lang, minutes=1)) < said.index(note)
    stored = await store.load_table(table.id)
    assert stored is not None and stored.status is TableStatus.STOPPED
    assert game_from_record(await store.record(table.id)).actions == table.game.actions


async def test_a_table_its_only_human_left_pauses_then_ends_with_a_note(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", config=grace(1.5)) as h:
        table_id = await started(h, ANNA, [], length="16")
        table = bot_of(h).service.get(table_id)
        await until(h, lambda: len(table.game.results) == 1 and table.game.to_act is Seat.S, [ANNA])
        await h.command(ANNA, "leave", channel_id=thread_of(h, table_id))
        version = table.version
        await h.settle()
        await asyncio.sleep(0.3)
        assert table.running and table.version == version  # the AI players wait: nobody watches them play
        await until_over(table)
        assert table.version == version
        await assert_ended_deserted(h, table)
        stats = await bot_of(h).store.player_stats(human_key(ANNA.id), GUILD_ID)
        assert (stats.abandoned, stats.played) == (1, 1)  # she left it: abandoned, as after any stop


async def test_taking_a_seat_in_the_grace_period_resumes_play(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", config=grace(2.0)) as h:
        table_id = await started(h, ANNA, [], length="16")
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await h.command(ANNA, "leave", channel_id=thread)
        left = asyncio.get_running_loop().time()
        version = table.version
        token = await h.command(CHRIS, "join", channel_id=thread, seat="E")
        assert h.private_replies(token) == [t("reserved_seat", Language.NL, seat=seat_name(Seat.E, Language.NL))]
        # The hand is played out by the AI players; at the next deal Chris sits East and the game waits for him.
        await until(h, lambda: table.seat_of(CHRIS.id) is Seat.E, [])
        await asyncio.sleep(max(0.0, left + 2.2 - asyncio.get_running_loop().time()))  # past the grace period
        assert table.running and table.version > version


async def test_a_table_everyone_was_away_from_for_a_whole_hand_ends(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", config=grace(0.3, turn_time=0.1), choose=first_choice) as h:
        table_id = await started(h, ANNA, [BERT], length="16", language="nl")
        table = bot_of(h).service.get(table_id)
        # Nobody plays: the timer plays their turns, then the AI keeps their seats; after a whole hand of that the
        # table waits, then ends.
        await until_over(table)
        assert [table.seats[s].away for s in (table.seat_of(ANNA.id), table.seat_of(BERT.id))] == [True, True]
        assert len(table.game.hands) <= 3 and table.game.phase is Phase.DEAL
        await assert_ended_deserted(h, table)
        for user in (ANNA, BERT):  # they let it go: abandoned, not a match without a result
            stats = await bot_of(h).store.player_stats(human_key(user.id), GUILD_ID)
            assert (stats.abandoned, stats.unfinished) == (1, 0)


async def test_im_back_in_the_grace_period_resumes_play(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", config=grace(3.0, turn_time=0.1), choose=first_choice) as h:
        table_id = await started(h, ANNA, [], length="16")
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while not (table.deserted or loop.time() > deadline):
            await asyncio.sleep(0.02)
        assert table.deserted and table.running
        version = table.version
        [away] = [m for m in h.fake.in_channel(thread) if f"kj:back:{table_id}" in m.custom_ids()]
        bot_of(h).service.driver.config.turn_time = 600  # back for good: her turns wait for her now
        await h.click(ANNA, away, f"kj:back:{table_id}")
        await until(h, lambda: table.version > version and table.game.to_act is table.seat_of(ANNA.id), [])
        await asyncio.sleep(3.1)  # past the grace period the pause had
        assert table.running


def test_the_deserted_grace_setting() -> None:
    assert load_config({}, dotenv=None).service_config().deserted_grace == 300
    assert load_config({"KLAVERJAS_DESERTED_GRACE": "60"}, dotenv=None).service_config().deserted_grace == 60
    with pytest.raises(ConfigError, match="KLAVERJAS_DESERTED_GRACE must be at least 30 seconds"):
        load_config({"KLAVERJAS_DESERTED_GRACE": "1"}, dotenv=None)
