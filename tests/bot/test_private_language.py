"""Private messages speak the person's language (their Discord client's), public ones the table's."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from harness import Harness, StoredMessage, User
from test_discord import ANNA, CHRIS, DORA, play_to_end
from test_scenarios import bot_of, started, thread_of, until

from bot.discord_app import messages
from bot.discord_app.messages import status_line, theme_of
from bot.fake_discord.wire import EPHEMERAL, Request
from bot.store.base import migrations
from bot.store.sqlite import SqliteStore
from bot.tables.model import Delivery
from bot.texts.catalog import card_text, t
from bot.texts.labels import names_of
from bot.texts.language import Language
from engine.cards import Card, Seat

DAAN = User(1007, "Daan", locale="nl", dm_closed=True)  # a Dutch player whose hand comes in the thread

STATUS_KEYS = ("hand.your_turn_bid", "hand.your_turn_lead", "hand.your_turn_follow", "hand.waiting",
               "hand.between", "hand.over")


def status_key(status: str, lang: Language) -> str | None:
    """The catalog key of a hand status as ``lang`` says it (a name or suit in it matching anything)."""
    for key in STATUS_KEYS:
        pattern = ".+".join(re.escape(part) for part in t(key, lang, suit="\0", name="\0").split("\0"))
        if re.fullmatch(pattern, status):
            return key
    return None


def check_hand(content: str, buttons: list[dict[str, object]], table_id: int, lang: Language) -> list[Card]:
    """A hand message wholly in ``lang``: its header, its status and its card labels; returns its cards."""
    header = t("hand.header", lang, table=table_id, place="{", status="{").split("{")[0]
    assert content.startswith(header), content
    status = content.rsplit(" — ", 1)[1]
    assert status_key(status, lang) is not None, status
    cards = []
    for item in buttons:
        custom_id = str(item.get("custom_id", ""))
        if custom_id.startswith("kj:c:"):
            card = Card.parse(custom_id.rsplit(":", 1)[1])
            assert str(item["label"]).endswith(card_text(card, lang)), (item["label"], lang)
            cards.append(card)
    return cards


@pytest.mark.parametrize(("host", "guests", "table_lang", "reader_lang"), [
    (ANNA, [CHRIS, DAAN], Language.EN, Language.NL),  # Dutch players at an English table
    (CHRIS, [ANNA, DORA], Language.NL, Language.EN),  # English players at a Dutch table
])
async def test_hands_speak_the_players_language_and_the_thread_the_tables(
        tmp_path: Path, host: User, guests: list[User], table_lang: Language, reader_lang: Language) -> None:
    dm_reader, thread_reader = guests
    async with Harness(tmp_path / "k.sqlite3") as h:
        hand_dms: list[tuple[str, list[dict[str, object]]]] = []

        def watch(message: StoredMessage) -> None:
            if message.dm_user == dm_reader.id and message.content.startswith(("Table #", "Tafel #")):
                hand_dms.append((message.content, message.buttons()))

        h.fake.watchers.append(watch)
        # A fixed deal: the reader's hand must hold a card that reads differently in the two languages (a J, Q
        # or K), which about one random deal in a hundred lacks.
        bot_of(h).service.new_seed = lambda: 7
        table_id = await started(h, host, guests, length="1")
        table = bot_of(h).service.get(table_id)
        assert table.settings.language is table_lang
        dm_seat, thread_seat = table.seat_of(dm_reader.id), table.seat_of(thread_reader.id)
        assert dm_seat is not None and thread_seat is not None
        assert table.seats[thread_seat].delivery is Delivery.THREAD
        await play_to_end(h, table_id, [host, *guests])

        # The DM hand through the bidding, the play and the end: the reader's language throughout.
        assert len(hand_dms) > 3
        cards = {card for content, buttons in hand_dms for card in check_hand(content, buttons, table_id, reader_lang)}
        keys = {status_key(content.rsplit(" — ", 1)[1], reader_lang) for content, _ in hand_dms}
        assert {"hand.waiting", "hand.over"} <= keys and keys & {"hand.your_turn_lead", "hand.your_turn_follow"}
        # Some card reads differently in the two languages (B/J, V/Q, H/K), so the labels are a real check.
        assert any(card_text(card, reader_lang) != card_text(card, table_lang) for card in cards)
        # The hand image's words (Wij/Zij, We/They) are the reader's too.
        theme = bot_of(h).announcer.hand_payload(table, dm_seat).draw.keywords["theme"]  # type: ignore[union-attr]
        assert theme == theme_of(table, lang=reader_lang) != theme_of(table)

        # The ephemeral hands the thread reader asked for: their language too.
        def private(request: Request) -> bool:  # sent as, or answering a click on, an ephemeral message
            clicked = h.fake.messages.get(h.fake.clicked.get(request.token or "", 0))
            return request.ephemeral or (clicked is not None and bool(clicked.flags & EPHEMERAL))

        ephemeral = [r for r in h.fake.requests if r.via == "webhook" and private(r)
                     and r.content.startswith(("Table #", "Tafel #"))]
        assert len(ephemeral) > 1
        for request in ephemeral:
            check_hand(request.content, [c for row in request.data.get("components") or []
                                         for c in row.get("components", [])], table_id, reader_lang)

        # The thread is public: the table's language.
        thread = [m for m in h.fake.in_channel(thread_of(h, table_id)) if not m.flags & EPHEMERAL]
        assert t("table.over", table_lang) in status_line(table)
        assert any(m.content == status_line(table) for m in thread)
        assert not any(m.content.startswith(("Table #", "Tafel #")) for m in thread)


async def test_a_seats_language_is_stored_and_a_seat_stored_before_speaks_the_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        for number, _, sql in migrations():
            if number <= 10:
                old.executescript(sql)
        old.execute("PRAGMA user_version = 10")
        old.execute("INSERT INTO tables (id, host_id, status, settings, seed) "
                    "VALUES (1, 7, 'lobby', '{\"language\": \"nl\"}', 5)")
        old.execute("INSERT INTO seats (table_id, seat, kind, user_id, name) VALUES (1, 'S', 'human', 7, 'Anna')")
    async with SqliteStore(path) as store:
        table = await store.load_table(1)
        assert table is not None and table.seats[Seat.S].user_id == 7
        assert table.seats[Seat.S].language is None and table.private_language(Seat.S) is Language.NL
        # A seat's language once set is kept.
        table.seats[Seat.S].language = Language.EN
        await store.save_table(table)
        again = await store.load_table(1)
        assert again is not None and again.private_language(Seat.S) is Language.EN


async def test_a_dutch_player_taking_a_seat_or_asking_a_rematch_keeps_their_language(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [], length="2")  # an English table
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await until(h, lambda: table.game.phase.value == "play", [ANNA])
        [table_message] = [m for m in h.fake.in_channel(thread) if m.id == table.table_message_id]
        await h.click(CHRIS, table_message, f"kj:take:{table_id}")  # from the next hand
        seat = table.pending_seat_of(CHRIS.id)
        assert seat is not None
        stored = await bot_of(h).store.load_table(table_id)
        assert stored is not None and stored.seats[seat].pending_language is Language.NL
        await until(h, lambda: table.seat_of(CHRIS.id) is seat, [ANNA])
        await h.settle()
        [hand] = [m for m in h.fake.dms_of(CHRIS.id) if m.content.startswith(("Table #", "Tafel #"))]
        check_hand(hand.content, hand.buttons(), table_id, Language.NL)
        await play_to_end(h, table_id, [ANNA, CHRIS])
        [end] = [m for m in h.fake.in_channel(thread) if f"kj:rm:{table_id}" in m.custom_ids()]
        await h.click(ANNA, end, f"kj:rm:{table_id}")
        rematch = bot_of(h).service.get(max(bot_of(h).service.tables))
        assert rematch.id != table_id and rematch.settings.language is Language.EN
        assert rematch.private_language(seat) is Language.NL  # the seat keeps its person's language
        assert rematch.private_language(Seat.S) is Language.EN


async def test_the_score_sheet_answered_privately_is_drawn_in_the_askers_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[dict[str, Any]] = []
    real = messages.render_sheet

    def render_sheet(*args: Any, **kwargs: Any) -> bytes:
        drawn.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(messages, "render_sheet", render_sheet)
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [CHRIS])  # an English table
        table = bot_of(h).service.get(table_id)
        drawn.clear()
        token = await h.command(CHRIS, "score", channel_id=thread_of(h, table_id))
        assert any(r.files == ["sheet.png"] for r in h.responses_to(token))
        [sheet] = drawn
        assert sheet["theme"] == theme_of(table, lang=Language.NL) != theme_of(table)
        assert sheet["names"] == names_of(table, Language.NL) != names_of(table)  # AI Oost
