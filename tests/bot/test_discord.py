"""Scripted scenarios through the offline harness: real discord.py, fake Discord, real JSON payloads."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from harness import CHANNEL_ID, FakeDiscord, Harness, StoredMessage, User

from bot.tables.model import TableStatus
from bot.tables.service import ServiceConfig
from engine.game import Phase
from engine.record import export_record

ANNA = User(1001, "Anna")
BERT = User(1002, "Bert")
CHRIS = User(1003, "Chris", locale="nl")
DORA = User(1004, "Dora", dm_closed=True)

SEED = 20240601
CUSTOM_ID = re.compile(r"^kj:[a-z]+:\d+(:[A-Za-z0-9]+)*$")


def lobby(h: Harness) -> StoredMessage:
    # The latest lobby in the channel (a channel can hold several tables).
    return [m for m in h.fake.in_channel(CHANNEL_ID) if m.content.startswith("🃏")][-1]


def button(message: StoredMessage, prefix: str) -> str:
    ids = [c for c in message.custom_ids() if c.startswith(prefix)]
    assert ids, f"no {prefix} button in {message.custom_ids()}"
    return ids[0]


async def open_table(h: Harness, host: User, **options: str) -> int:
    token = await h.command(host, "start", **{"length": "1", "ai": "normal", **options})
    [callback] = h.responses_to(token)
    assert callback.json is not None and callback.json["type"] == 4
    assert not callback.ephemeral
    ids = callback.custom_ids()
    table_id = int(ids[0].split(":")[2])
    # (Play here, kj:act:, joins them where the Activity is set up: tests/bot/test_web_links.py.)
    assert [i for i in ids if not i.startswith("kj:act:")] == [
        f"kj:l:{table_id}:{op}" for op in ("join", "leave", "ai", "start")] + [f"kj:seat:{table_id}"]
    assert all(CUSTOM_ID.match(i) and len(i) <= 100 for i in ids)
    return table_id


def enabled_cards(message: StoredMessage) -> list[str]:
    return [b["custom_id"] for b in message.buttons()  # a link button (the web table's) has no custom id
            if b.get("custom_id", "").startswith("kj:c:") and not b.get("disabled")]


async def play_turn(h: Harness, table_id: int, user: User) -> bool:
    """If it is ``user``'s turn, act through the buttons they would see; True when something was done."""
    assert h.bot is not None
    await h.settle()  # an action of a timer or an AI may be being announced right now
    table = h.bot.service.get(table_id)
    seat = table.seat_of(user.id)
    if seat is None or table.game.to_act is not seat or not table.running:
        return False
    thread = table.thread_id or CHANNEL_ID
    prompts = [m for m in h.fake.in_channel(thread) if any(i.startswith("kj:b:") for i in m.custom_ids())]
    if table.game.phase.value == "bidding":
        prompt = prompts[-1]
        assert f"<@{user.id}>" in prompt.content
        choice = [i for i in prompt.custom_ids() if i.startswith(f"kj:b:{table_id}:{table.version}:")]
        await h.click(user, prompt, choice[-1] if len(choice) > 1 else choice[0])
        return True
    hand = hand_message(h, table_id, user)
    cards = enabled_cards(hand)
    assert cards, f"no enabled card for {user.name}: {hand.content}"
    await h.click(user, hand, cards[0])
    return True


def hand_message(h: Harness, table_id: int, user: User) -> StoredMessage:
    assert h.bot is not None
    table = h.bot.service.get(table_id)
    info = table.seats[table.seat_of(user.id)]  # type: ignore[index]
    if info.delivery == "dm":
        assert info.hand_message_id is not None
        return h.fake.messages[info.hand_message_id]
    # In-thread players: the latest ephemeral hand they asked for.
    thread = table.thread_id or CHANNEL_ID
    shows = [m for m in h.fake.in_channel(thread) if f"<@{user.id}>" in m.content and
             any(i.startswith("kj:h:") for i in m.custom_ids())]
    return shows[-1]


async def play_to_end(h: Harness, table_id: int, users: list[User], limit: int = 400) -> None:
    assert h.bot is not None
    table = h.bot.service.get(table_id)
    for _ in range(limit):
        if not table.running:
            return
        acted = False
        for user in users:
            await h.settle()
            seat = table.seat_of(user.id)
            in_thread = seat is not None and table.seats[seat].delivery == "thread"
            if in_thread and table.game.phase.value == "play" and table.game.to_act is seat and table.running:
                # Closed DMs: press "Show my hand" in the thread, then a card on the ephemeral answer; a player
                # who moved their hand to the thread during this turn asks with /klaverjas hand instead.
                thread = table.thread_id or CHANNEL_ID
                if any(f"<@{user.id}>" in m.content and m.custom_ids() for m in h.fake.in_channel(thread)):
                    show = hand_message(h, table_id, user)
                    token = await h.click(user, show, button(show, "kj:h:"))
                else:
                    token = await h.command(user, "hand", channel_id=thread)
                [followup] = [r for r in h.responses_to(token) if r.method == "POST" and "/webhooks/" in r.url]
                assert followup.ephemeral and followup.files == ["hand.png"]
                ephemeral = h.fake.messages[max(h.fake.originals.get(token, 0), _last_id(h))]
                await h.click(user, ephemeral, enabled_cards(ephemeral)[0])
                acted = True
            elif await play_turn(h, table_id, user):
                acted = True
        if not acted:
            await h.settle()
    raise AssertionError("the match did not end")


def _last_id(h: Harness) -> int:
    return max(h.fake.messages)


@pytest.mark.parametrize("workers", [0, 1], ids=["threads", "process-pool"])
async def test_one_human_with_three_ai_players(tmp_path: Path, workers: int) -> None:
    async with Harness(tmp_path / "k.sqlite3", ai_workers=workers) as h:
        assert h.bot is not None
        table_id = await open_table(h, ANNA)
        start = button(lobby(h), "kj:l:")
        start = start.rsplit(":", 1)[0] + ":start"
        await h.click(ANNA, lobby(h), start)
        table = h.bot.service.get(table_id)
        assert table.status is TableStatus.PLAYING
        assert table.thread_id in h.fake.threads
        assert f"<#{table.thread_id}>" in lobby(h).content
        # Sitting down was confirmed by DM (so a closed inbox shows at once); then the private hand arrived
        # by DM, with a PNG and one button per card.
        dm = h.fake.dms_of(ANNA.id)
        assert len(dm) == 2 and f"table #{table_id}" in dm[0].content and not dm[0].attachments
        assert dm[1].attachments == ["hand.png"]
        assert len([i for i in dm[1].custom_ids() if i.startswith("kj:c:")]) == 8
        await play_to_end(h, table_id, [ANNA])
        assert table.status is TableStatus.FINISHED
        thread = h.fake.in_channel(table.thread_id)
        # Every trick is told under the result (and each in turn by the table message, at Anna's turns).
        [end] = [m for m in thread if m.attachments == ["sheet.png"]]
        assert [line.split(".")[0] for line in end.content.splitlines() if line[:1].isdigit()] == \
            [str(n) for n in range(1, 9)]
        assert any(m.attachments == ["sheet.png"] for m in thread)
        assert any(" win " in m.content or "draw" in m.content.lower() for m in thread)
        assert export_record(table.game) == await h.bot.store.record(table_id)
        assert (h.bot.thinker.pool is not None) == bool(workers)


async def test_four_humans_one_with_closed_dms(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        assert h.bot is not None
        table_id = await open_table(h, ANNA)
        for user in (BERT, CHRIS, DORA):
            token = await h.click(user, lobby(h), f"kj:l:{table_id}:join")
            [update, note] = h.responses_to(token)
            assert update.json is not None and update.json["type"] == 7  # the lobby message, edited in place
            assert note.ephemeral
            # The closed inbox is found when Dora sits down and told to her alone.
            assert ("cannot send you direct messages" in note.content) == (user is DORA)
        assert "Dora" in lobby(h).content
        # Only the host may start.
        token = await h.click(BERT, lobby(h), f"kj:l:{table_id}:start")
        assert any(r.ephemeral and "host" in r.content for r in h.responses_to(token))
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        table = h.bot.service.get(table_id)
        assert table.running
        dora = table.seats[table.seat_of(DORA.id)]  # type: ignore[index]
        assert dora.delivery == "thread"
        closed = [m for m in h.fake.in_channel(table.thread_id or 0) if f"<@{DORA.id}>" in m.content]
        assert closed and any(i == f"kj:h:{table_id}" for i in closed[0].custom_ids())
        assert not any("direct message" in m.content for m in h.fake.in_channel(table.thread_id or 0))
        await play_to_end(h, table_id, [ANNA, BERT, CHRIS, DORA])
        assert table.status is TableStatus.FINISHED
        assert h.fake.dms_of(CHRIS.id) and not h.fake.dms_of(DORA.id)


async def test_refusals_are_private_and_change_nothing(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        assert h.bot is not None
        table_id = await open_table(h, ANNA)
        await h.click(BERT, lobby(h), f"kj:l:{table_id}:join")
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        table = h.bot.service.get(table_id)
        checked = {"not_your_turn": False, "stale": False, "illegal": False, "double": False}
        for _ in range(300):
            if not table.running or all(checked.values()):
                break
            game = table.game
            mover = next((u for u in (ANNA, BERT) if table.seat_of(u.id) is game.to_act), None)
            if mover is None:
                await h.settle()
                continue
            other = BERT if mover is ANNA else ANNA
            version = table.version
            if game.phase.value == "play":
                hand = hand_message(h, table_id, mover)
                if not checked["not_your_turn"]:
                    other_hand = hand_message(h, table_id, other)
                    token = await h.click(other, other_hand, other_hand.custom_ids()[0])
                    replies = [r for r in h.responses_to(token) if r.ephemeral]
                    assert replies and "turn" in replies[0].content, replies
                    checked["not_your_turn"] = True
                disabled = [b["custom_id"] for b in hand.buttons() if b.get("disabled")]
                if disabled and not checked["illegal"]:
                    token = await h.click(mover, hand, disabled[0])
                    replies = [r for r in h.responses_to(token) if r.ephemeral]
                    assert replies and "must" in replies[0].content, replies
                    assert table.version == version
                    checked["illegal"] = True
                card = enabled_cards(hand)[0]
                seen = copy.deepcopy(hand)  # the message as the player saw it before the click
                await h.click(mover, hand, card)
                assert table.version > version
                if not checked["double"]:
                    # The same button again: a double click counts once and is refused politely.
                    token = await h.click(mover, seen, card)
                    replies = [r for r in h.responses_to(token) if r.ephemeral]
                    assert replies and "earlier" in replies[0].content
                    checked["double"] = checked["stale"] = True
            else:
                await play_turn(h, table_id, mover)
        assert all(checked.values()), checked


async def test_restart_in_the_middle_of_a_trick(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite3"
    fake = FakeDiscord()
    async with Harness(db, fake) as h:
        assert h.bot is not None
        h.bot.service.new_seed = lambda: SEED
        table_id = await open_table(h, ANNA)
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        table = h.bot.service.get(table_id)
        while not (table.game.phase.value == "play" and table.game.hand is not None and table.game.hand.trick_cards
                   and table.game.to_act is table.seat_of(ANNA.id)):
            assert await play_turn(h, table_id, ANNA) or table.running
            await h.settle()
        before = list(table.game.actions)
        old_hand = hand_message(h, table_id, ANNA)
    # A new process on the same database: the old DM's buttons still work.
    async with Harness(db, fake) as h2:
        assert h2.bot is not None
        table2 = h2.bot.service.get(table_id)
        assert table2.game.actions == before
        assert any("restarted" in m.content for m in fake.in_channel(table2.thread_id or 0))
        await h2.click(ANNA, old_hand, enabled_cards(old_hand)[0])
        assert len(table2.game.actions) > len(before)
        await play_to_end(h2, table_id, [ANNA])
        assert table2.status is TableStatus.FINISHED
        restarted = await h2.bot.store.record(table_id)
    # The same seed and the same choices without a restart give the identical record.
    async with Harness(tmp_path / "plain.sqlite3") as h3:
        assert h3.bot is not None
        h3.bot.service.new_seed = lambda: SEED
        plain_id = await open_table(h3, ANNA)
        await h3.click(ANNA, lobby(h3), f"kj:l:{plain_id}:start")
        await play_to_end(h3, plain_id, [ANNA])
        assert await h3.bot.store.record(plain_id) == restarted
    assert len(restarted["hands"][0]["plays"]) == 32


@pytest.mark.parametrize(("reader", "language", "face_letters"), [(ANNA, "nl", "JQK"), (CHRIS, "en", "BVH")])
async def test_card_buttons_write_ranks_as_the_readers_language_does(tmp_path: Path, reader: User, language: str,
                                                                     face_letters: str) -> None:
    async with Harness(tmp_path / "k.sqlite3", ai_workers=0) as h:
        assert h.bot is not None
        table_id = await open_table(h, reader, language=language)  # a table in the other language
        await h.click(reader, lobby(h), f"kj:l:{table_id}:start")
        hand = h.fake.dms_of(reader.id)[-1]
        table = h.bot.service.get(table_id)
        seat = table.seat_of(reader.id)
        assert seat is not None
        held = table.game.cards_in_hand(seat)
        labels = [b["label"] for b in hand.buttons() if b["custom_id"].startswith("kj:c:")]
        # Every card is on a button, its rank letter from the reader's language: a Dutch player reads B♥, not J♥,
        # at any table.
        letters = dict(zip("JQK", face_letters, strict=True))
        expected = {f"{letters.get(c.notation[0], '10' if c.notation[0] == 'T' else c.notation[0])}{c.suit.symbol}"
                    for c in held}
        assert {label.split(" · ")[1] for label in labels} == expected


@pytest.mark.parametrize("moment", ["between hands", "after a trick"])
async def test_a_restart_repeats_no_announcement_the_store_says_went_out(tmp_path: Path, moment: str) -> None:
    """The store says every action was announced: the restart posts no trick and no hand result again (it brings
    the hands, the table message and the prompt up to date, and says it restarted)."""
    db = tmp_path / "k.sqlite3"
    fake = FakeDiscord()
    # Between hands the next deal waits, so the restart comes with the hand's last card as the last action.
    between = moment == "between hands"
    async with Harness(db, fake, config=ServiceConfig(ai_pause=0, deal_pause=3600 if between else 0, turn_time=600,
                                                      reviews=False)) as h:
        assert h.bot is not None
        if between:
            driver = h.bot.service.driver
            will_act = driver._will_act
            driver._will_act = lambda t: t.game.phase is not Phase.DEAL and will_act(t)  # type: ignore[method-assign]
        h.bot.service.new_seed = lambda: SEED
        table_id = await open_table(h, ANNA, length="4")
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        table = h.bot.service.get(table_id)

        def reached() -> bool:
            game = table.game
            if moment == "between hands":
                return game.phase is Phase.DEAL and len(game.results) == 1
            hand = game.hand
            return game.phase is Phase.PLAY and hand is not None and bool(hand.tricks) and not hand.trick_cards \
                and game.to_act is table.seat_of(ANNA.id)

        for _ in range(400):
            if reached():
                break
            assert await play_turn(h, table_id, ANNA) or table.running
            await h.settle()
        assert reached()
        thread = table.thread_id or CHANNEL_ID
        assert await h.bot.store.announced(table_id) == table.version  # the store knows all of it went out
        results = [m.content for m in fake.in_channel(thread) if re.match(r"Hand \d+:", m.content)]
        assert "\n8. " in results[0] and results[0].startswith("Hand 1:") if between else len(results) <= 1

        def counted() -> list[int]:
            shown = [m.content for m in fake.in_channel(thread)]
            return [shown.count(text) for text in results]

        assert counted() == [1] * len(results)
        posted = {m.id for m in fake.in_channel(thread)}
    async with Harness(db, fake) as h2:
        assert h2.bot is not None
        await h2.settle()
        # The restart's notice is all it posts: nothing that went out before is posted again.
        # (between hands, the next hand's first posts follow it)
        assert [m.content for m in fake.in_channel(thread) if m.id not in posted][:1] == \
            ["The bot restarted: the game continues where it was."]
        assert counted() == [1] * len(results)
        # The game goes on from where it was, with Anna's buttons current.
        table2 = h2.bot.service.get(table_id)
        await play_to_end(h2, table_id, [ANNA])
        assert table2.status is TableStatus.FINISHED
        assert counted() == [1] * len(results)


async def test_a_restart_after_the_end_went_out_but_was_not_stored_repeats_nothing(tmp_path: Path) -> None:
    """The match's end was announced in full (the store counts every action announced) and the bot stopped
    before storing it as finished: the restart stores it, and posts no end, trick or notice again."""
    db = tmp_path / "k.sqlite3"
    fake = FakeDiscord()
    async with Harness(db, fake) as h:
        assert h.bot is not None
        table_id = await open_table(h, ANNA)
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        await play_to_end(h, table_id, [ANNA])
        await h.settle()
        table = h.bot.service.get(table_id)
        assert await h.bot.store.announced(table_id) == table.version
        await h.bot.store.db.execute("UPDATE tables SET status = 'playing' WHERE id = ?", (table_id,))
        thread = table.thread_id or CHANNEL_ID
        shown = [m.content for m in fake.in_channel(thread)]
    async with Harness(db, fake) as h2:
        assert h2.bot is not None
        await h2.settle()
        assert [m.content for m in fake.in_channel(thread)] == shown
        stored = await h2.bot.store.load_table(table_id)
        assert stored is not None and stored.status is TableStatus.FINISHED


async def test_the_table_and_trick_images_name_every_player_in_full_in_their_alt_text(tmp_path: Path) -> None:
    """The images shorten a long name to fit its place; the attachment's description (what a screen reader reads,
    and a client shows on the image) has every name in full."""
    long_name = User(1009, "Wilhelmina-Sophie van Oranje-Nas")  # 32 characters, Discord's longest
    async with Harness(tmp_path / "k.sqlite3") as h:
        assert h.bot is not None
        h.bot.service.new_seed = lambda: SEED + 1  # a deal where the human's team wins a trick
        # Declared roem: a trick the human's team may claim is posted, with its image and the Roem! button.
        table_id = await open_table(h, long_name, roem="declared")
        start = button(lobby(h), "kj:l:").rsplit(":", 1)[0] + ":start"
        await h.click(long_name, lobby(h), start)
        await play_to_end(h, table_id, [long_name], limit=60)
        described = [(r.files[0], (r.json or {}).get("attachments", [{}])[0].get("description"))
                     for r in h.fake.requests if r.files and r.files[0] in ("table.png", "trick.png")]
        assert {name for name, _ in described} == {"table.png", "trick.png"}, described
        for _, description in described:
            assert description == ("The table. Players: North: AI North, East: AI East, "
                                   "South: Wilhelmina-Sophie van Oranje-Nas, West: AI West.")
