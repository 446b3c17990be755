"""More scenarios through the offline harness: roem, draaien, commands, timers, seats, rematch, delivery."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from pathlib import Path

from discord import Locale, app_commands
from harness import ALL_PERMISSIONS, CHANNEL_ID, FakeDiscord, Harness, StoredMessage, User
from test_discord import ANNA, BERT, CHRIS, SEED, enabled_cards, hand_message, lobby, open_table, play_to_end, play_turn

from bot.tables.model import Delivery, SeatKind, TableSettings, TableStatus
from bot.tables.service import ServiceConfig
from bot.texts.catalog import COMMAND_TEXTS
from engine.cards import Card, Seat
from engine.settings import Rules

EVA = User(1005, "Eva")
FRANK = User(1006, "Frank")
MANAGE_MESSAGES = str(1 << 13)


def bot_of(h: Harness):  # type: ignore[no-untyped-def]
    assert h.bot is not None
    return h.bot


def thread_of(h: Harness, table_id: int) -> int:
    return bot_of(h).service.get(table_id).thread_id or CHANNEL_ID


def with_button(h: Harness, channel: int, prefix: str) -> list[StoredMessage]:
    return [m for m in h.fake.in_channel(channel) if any(i.startswith(prefix) for i in m.custom_ids())]


async def seat_all(h: Harness, table_id: int, users: list[User]) -> None:
    for user in users:
        await h.click(user, lobby(h), f"kj:l:{table_id}:join")


async def started(h: Harness, host: User, guests: list[User], **options: str) -> int:
    table_id = await open_table(h, host, **options)
    await seat_all(h, table_id, guests)
    await h.click(host, lobby(h), f"kj:l:{table_id}:start")
    assert bot_of(h).service.get(table_id).running
    return table_id


async def until(h: Harness, condition, users: list[User], limit: int = 400) -> None:  # type: ignore[no-untyped-def]
    """Play (first enabled button) for ``users`` until ``condition()`` holds."""
    for _ in range(limit):
        if condition():
            return
        acted = False
        for user in users:
            if condition():
                return
            acted = await play_turn(h, table_id_of(h), user) or acted
        if not acted:
            await h.settle()
    raise AssertionError("the condition never held")


def table_id_of(h: Harness) -> int:
    return max(bot_of(h).service.tables)


# ------------------------------------------------------------------ declared roem


async def test_declared_roem_button_for_the_winning_team_only(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: SEED
        users = [ANNA, BERT, CHRIS, EVA]
        table_id = await started(h, ANNA, users[1:], roem="declared", length="16")
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        await until(h, lambda: bool(with_button(h, thread, "kj:r:")), users)
        [message] = with_button(h, thread, "kj:r:")
        # The button comes with every trick the team may claim; the text does not say whether it holds roem.
        assert "roem" not in message.content.lower() and message.attachments == ["trick.png"]
        hand = table.game.hand
        assert hand is not None
        winners = hand.tricks[-1].winner.team
        by_seat = {table.seat_of(u.id): u for u in users}
        claimer = next(u for s, u in by_seat.items() if s is not None and s.team is winners)
        other = next(u for s, u in by_seat.items() if s is not None and s.team is not winners)
        version = table.version
        token = await h.click(other, message, message.custom_ids()[0])
        assert any(r.startswith(("Only the team that won the trick", "Alleen het team dat de slag won"))
                   for r in h.private_replies(token))
        assert table.version == version
        await h.click(claimer, message, message.custom_ids()[0])
        assert table.version == version + 1
        assert any("claims roem" in m.content for m in h.fake.in_channel(thread))
        assert message.custom_ids() == []  # the button is gone once claimed
        # The record keeps the claim; the store replays to the same game.
        assert (await bot_of(h).store.record(table_id))["hands"][-1]["claims"]


async def wait_for(h: Harness, condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Real time passes (turn timers, the pause before a deal); the bot settles in between and after."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "timed out"
        await h.settle()
        await asyncio.sleep(0.02)
    await h.settle()


# ------------------------------------------------------------------ draaien


async def test_draaien_play_or_pass_on_the_turned_suit(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [BERT], bidding="draaien")
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        # On a busy machine the deal may still be on its way once the start has settled. The turned suit is said in
        # a post of its own, or in the table message's lines when an AI seat took it before the table was opened.

        def turned_lines() -> list[str]:
            return [line for m in h.fake.in_channel(thread) for line in m.content.splitlines()
                    if line.startswith("Turned: ")]

        await wait_for(h, lambda: bool(turned_lines()))
        assert any(line.startswith("Turned: ♣") for line in turned_lines())
        # Pass for whoever is asked until a human has the Play/Pass prompt.
        for _ in range(20):
            if table.game.phase.value == "play":
                break
            prompts = with_button(h, thread, "kj:b:")
            mover = next((u for u in (ANNA, BERT) if table.seat_of(u.id) is table.game.to_act), None)
            if mover is None:
                await h.settle()
                continue
            prompt = prompts[-1]
            ids = prompt.custom_ids()
            assert ids == [f"kj:b:{table_id}:{table.version}:pass", f"kj:b:{table_id}:{table.version}:play"]
            assert "play or pass?" in prompt.content and f"<@{mover.id}>" in prompt.content
            other = BERT if mover is ANNA else ANNA
            token = await h.click(other, prompt, ids[1])
            assert any("turn" in r for r in h.private_replies(token))
            turned = table.game.hand.turned[-1]  # type: ignore[union-attr]
            await h.click(mover, prompt, ids[1])
            assert prompt.custom_ids() == []  # an answered prompt loses its buttons
            assert any(f"plays {turned.symbol}" in m.content for m in h.fake.in_channel(thread))
            break
        assert table.game.hand is not None and table.game.hand.trump is not None


# ------------------------------------------------------------------ /klaverjas play, hint, score, rules


async def test_play_command_autocomplete_hint_score_rules_in_dutch(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, CHRIS, [ANNA], rules="amsterdam")  # Chris's locale is nl: a Dutch table
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        seat = table.seat_of(CHRIS.id)
        # Out of turn (Anna's): no hint, no choices.
        await until(h, lambda: table.game.phase.value == "play" and table.game.to_act is table.seat_of(ANNA.id),
                    [CHRIS, ANNA])
        assert await h.autocomplete(CHRIS, "play", "card", "", thread) == []
        token = await h.command(CHRIS, "hint", channel_id=thread)
        assert h.private_replies(token) == ["Een tip is er alleen voor je eigen beurt."]
        # Chris's turn to play.
        await until(h, lambda: table.game.phase.value == "play" and table.game.to_act is seat, [CHRIS, ANNA])
        legal = [c for c in table.game.legal_actions() if isinstance(c, Card)]
        choices = await h.autocomplete(CHRIS, "play", "card", "", thread)
        assert sorted(c["value"] for c in choices) == sorted(c.notation for c in legal)
        assert all(" — " in c["name"] for c in choices)
        jack = [c for c in choices if c["value"].startswith("J")]
        assert all("boer" in c["name"] and c["name"].startswith("B") for c in jack)
        token = await h.command(CHRIS, "hint", channel_id=thread)
        [hint] = [r for r in h.private_replies(token) if r]
        assert hint.startswith(("Speel", "Troef", "Pas"))  # with its reason after a colon, where it has one
        # An illegal card: refused privately with the rule, nothing changes.
        version = table.version
        illegal = [c for c in table.game.cards_in_hand(seat) if c not in legal]  # type: ignore[arg-type]
        if illegal:
            token = await h.command(CHRIS, "play", channel_id=thread, card=illegal[0].notation)
            assert any(r.startswith("Je moet") for r in h.private_replies(token)), h.private_replies(token)
            assert table.version == version
        token = await h.command(CHRIS, "play", channel_id=thread, card="xx")
        assert h.private_replies(token) == [
            "“xx” is geen kaart: typ er een als BH of 10S, of kies er een uit de lijst."]
        # A legal card, typed the Dutch way (B = boer, V = vrouw, H = heer; K = klaveren, R = ruiten).
        card = legal[0]
        dutch = {"J": "B", "Q": "V", "K": "H"}.get(card.notation[0], card.notation[0]) + \
            {"C": "K", "D": "R"}.get(card.notation[1], card.notation[1])
        token = await h.command(CHRIS, "play", channel_id=thread, card=dutch)
        assert table.version > version
        assert any("gespeeld" in r for r in h.private_replies(token))
        # Score (private, from Chris's side) and rules (private: in the asker's language, at a Dutch table).
        token = await h.command(CHRIS, "score", channel_id=thread)
        [answer] = [r for r in h.responses_to(token) if r.files]
        assert answer.ephemeral and answer.files == ["sheet.png"] and answer.content.startswith("Wij (NZ)")
        token = await h.command(CHRIS, "rules", channel_id=thread)
        [rules] = h.private_replies(token)
        assert "Amsterdams" in rules and "Ondertroeven verboden" in rules and "Tafel #" in rules
        token = await h.command(ANNA, "rules", channel_id=thread)
        [rules] = h.private_replies(token)
        assert "**Amsterdam**" in rules and "undertrump forbidden" in rules and "Table #" in rules
        await play_to_end(h, table_id, [CHRIS, ANNA])
        assert table.status is TableStatus.FINISHED


# ------------------------------------------------------------------ settings, leave, stop


async def test_settings_need_manage_server_and_feed_start(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        token = await h.command(ANNA, "settings", bidding="draaien")
        assert h.private_replies(token) == ["You need the Manage Server permission for this."]
        assert await bot_of(h).store.guild_defaults(910000000000000001) is None
        token = await h.command(ANNA, "settings", permissions=ALL_PERMISSIONS, bidding="draaien", length="8",
                                roem="declared")
        [saved] = h.private_replies(token)
        assert saved.startswith("Server defaults saved.") and "draaien" in saved
        token = await h.command(BERT, "start")
        table = bot_of(h).service.get(table_id_of(h))
        rules = table.rules
        assert (rules.bidding.value, rules.length.hands, rules.roem.value) == ("draaien", 8, "declared")
        assert "draaien" in lobby(h).content


async def test_start_takes_the_server_defaults_and_the_hosts_delivery_in_one_read(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        store = bot_of(h).store
        await store.set_guild_defaults(910000000000000001, TableSettings(Rules().with_changes(bidding="draaien")))
        await store.set_user_delivery(ANNA.id, Delivery.THREAD)

        async def one_by_one(_: int) -> object:
            raise AssertionError("a start reads both in one statement (start_preferences)")

        store.guild_defaults = one_by_one  # type: ignore[assignment]
        store.user_delivery = one_by_one  # type: ignore[assignment]
        await h.command(ANNA, "start")
        table = bot_of(h).service.get(table_id_of(h))
        assert table.host_id == ANNA.id and "Anna" in lobby(h).content
        assert table.rules.bidding.value == "draaien" and table.seats[Seat.S].delivery is Delivery.THREAD


async def test_leave_gives_the_seat_to_an_ai(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [BERT])
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        seat = table.seat_of(BERT.id)
        old_hand = hand_message(h, table_id, BERT)
        token = await h.command(BERT, "leave", channel_id=thread)
        assert h.private_replies(token) == ["You left; an AI player takes your seat."]
        assert seat is not None and table.seats[seat].kind is SeatKind.AI
        assert any("an AI player takes the seat" in m.content for m in h.fake.in_channel(thread))
        token = await h.click(BERT, old_hand, old_hand.custom_ids()[0])
        assert any("do not sit" in r for r in h.private_replies(token))
        await play_to_end(h, table_id, [ANNA])
        assert table.status is TableStatus.FINISHED


async def test_stop_by_host_majority_or_moderator(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        # A majority of the humans: Bert alone is not enough of three, Bert and Chris are.
        table_id = await started(h, ANNA, [BERT, CHRIS])
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        token = await h.command(FRANK, "stop", channel_id=thread)
        assert any("Only the host" in r for r in h.private_replies(token))
        token = await h.command(BERT, "stop", channel_id=thread)
        assert any("majority" in r for r in h.private_replies(token))
        assert table.running
        await h.command(CHRIS, "stop", channel_id=thread)
        assert table.status is TableStatus.STOPPED
        assert any(m.content == "The table was stopped." for m in h.fake.in_channel(thread))
        assert "stopped" in lobby_of(h, table_id).content
        # Someone with Manage Messages stops at once; the host too.
        second = await started(h, EVA, [])
        await h.command(FRANK, "stop", channel_id=thread_of(h, second), permissions=MANAGE_MESSAGES)
        assert bot_of(h).service.get(second).status is TableStatus.STOPPED
        third = await started(h, EVA, [])
        await h.command(EVA, "stop", channel_id=thread_of(h, third))
        assert bot_of(h).service.get(third).status is TableStatus.STOPPED


def lobby_of(h: Harness, table_id: int) -> StoredMessage:
    lobby_id = bot_of(h).service.get(table_id).lobby_message_id
    assert lobby_id is not None
    return h.fake.messages[lobby_id]


# ------------------------------------------------------------------ turn timer


async def test_turn_timer_reminds_plays_for_and_keeps_the_seat(tmp_path: Path) -> None:
    config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=0.3)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        table_id = await started(h, ANNA, [BERT], length="4")
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        seat = table.seat_of(ANNA.id)
        assert seat is not None
        # Bert plays at once; Anna never does: reminded, the AI plays for her, twice, then it keeps her seat.
        for _ in range(500):
            if table.seats[seat].away or not table.running:
                break
            await h.settle()  # a timer's action may be being announced right now
            if not await play_turn(h, table_id, BERT):
                await asyncio.sleep(0.02)
        await h.settle()  # the second miss is being announced
        assert table.seats[seat].away, (table.status, table.game.phase, table.game.to_act, table.actors)
        pings = [r for r in h.fake.requests if r.content == f"<@{ANNA.id}>, your turn."]
        assert len(pings) == 2
        assert pings[0].json is not None and pings[0].json["allowed_mentions"]["users"] == [ANNA.id]
        played_for = [m.content for m in h.fake.in_channel(thread) if m.content.startswith("The AI played")]
        assert len(played_for) == 2 and all(c.endswith("for Anna.") for c in played_for)
        assert [a.value for a in table.actors].count("timer") == 2
        [away] = with_button(h, thread, "kj:back:")
        assert f"<@{ANNA.id}>" in away.content and "missed two turns" in away.content
        # While she is away the AI plays her turns without waiting for the timer.
        await h.settle()
        assert table.running and table.game.to_act is not seat
        token = await h.click(EVA, away, f"kj:back:{table_id}")
        assert any("do not sit" in r for r in h.private_replies(token)), (h.private_replies(token), table.status)
        token = await h.click(ANNA, away, f"kj:back:{table_id}")
        assert not table.seats[seat].away
        assert any(m.content == "Anna is back." for m in h.fake.in_channel(thread))
        token = await h.click(ANNA, away, f"kj:back:{table_id}")
        assert any("already playing" in r for r in h.private_replies(token))
        await until(h, lambda: table.game.to_act is seat, [BERT])
        version = table.version
        assert await play_turn(h, table_id, ANNA)
        assert table.actors[version].value == "human"


# ------------------------------------------------------------------ seat menu, take-over, rematch


async def test_seat_menu_take_over_between_hands_and_rematch(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await open_table(h, ANNA, length="2")
        token = await h.select(BERT, lobby(h), f"kj:seat:{table_id}", ["W"])
        assert h.private_replies(token) == ["You sit West."]
        token = await h.select(EVA, lobby(h), f"kj:seat:{table_id}", ["W"])
        assert h.private_replies(token) == ["Seat W is taken by Bert."]
        await h.click(CHRIS, lobby(h), f"kj:l:{table_id}:join")  # Join alone: the first free seat
        table = bot_of(h).service.get(table_id)
        assert [table.seat_of(u.id) for u in (ANNA, BERT, CHRIS)] == [Seat.S, Seat.W, Seat.N]
        menu = lobby(h).components[1]["components"][0]
        assert menu["type"] == 3 and [o["value"] for o in menu["options"]] == ["N", "E", "S", "W"]
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        thread = thread_of(h, table_id)
        assert table.seats[Seat.E].kind is SeatKind.AI
        # Eva, not at the table, asks for the AI seat during the first hand: she gets it at the next deal.
        await until(h, lambda: table.game.phase.value == "play", [ANNA, BERT, CHRIS])
        [table_message] = [m for m in h.fake.in_channel(thread) if m.id == table.table_message_id]
        seen = copy.deepcopy(table_message)  # as Frank saw it: the button goes once Eva has the seat
        token = await h.click(EVA, table_message, f"kj:take:{table_id}")
        assert h.private_replies(token) == ["Seat East is yours from the next hand."]
        assert table_message.custom_ids() == []
        token = await h.click(FRANK, seen, f"kj:take:{table_id}")
        assert h.private_replies(token) == ["There is no AI seat to take over."]
        assert table.seats[Seat.E].kind is SeatKind.AI
        stored = await bot_of(h).store.load_table(table_id)
        assert stored is not None and stored.seats[Seat.E].pending_user_id == EVA.id
        await until(h, lambda: len(table.game.hands) == 2 or not table.running, [ANNA, BERT, CHRIS])
        assert table.seat_of(EVA.id) is Seat.E
        assert h.fake.dms_of(EVA.id) and any("takes over seat East" in m.content for m in h.fake.in_channel(thread))
        stored = await bot_of(h).store.load_table(table_id)
        assert stored is not None and stored.seats[Seat.E].user_id == EVA.id
        await play_to_end(h, table_id, [ANNA, BERT, CHRIS, EVA])
        assert table.status is TableStatus.FINISHED
        [end] = with_button(h, thread, "kj:rm:")
        token = await h.click(FRANK, end, f"kj:rm:{table_id}")
        assert any("do not sit" in r for r in h.private_replies(token))
        token = await h.click(BERT, end, f"kj:rm:{table_id}")
        rematch = bot_of(h).service.get(table_id_of(h))
        assert rematch.id != table_id and rematch.status is TableStatus.LOBBY and rematch.host_id == BERT.id
        assert [rematch.seat_of(u.id) for u in (ANNA, BERT, CHRIS, EVA)] == [Seat.S, Seat.W, Seat.N, Seat.E]
        assert rematch.settings == table.settings
        assert any(f"table #{rematch.id}" in r for r in h.private_replies(token))
        assert rematch.lobby_message_id in h.fake.messages
        assert h.fake.messages[rematch.lobby_message_id].channel_id == CHANNEL_ID
        token = await h.click(ANNA, end, f"kj:rm:{table_id}")
        assert any("already open" in r for r in h.private_replies(token))
        await h.click(BERT, h.fake.messages[rematch.lobby_message_id], f"kj:l:{rematch.id}:start")
        assert rematch.running


async def test_join_command_takes_over_an_ai_seat(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await open_table(h, ANNA)
        token = await h.command(BERT, "join", seat="O")  # Dutch O (oost) is East
        assert h.private_replies(token) == ["You sit East."]
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        thread = thread_of(h, table_id)
        token = await h.command(EVA, "join", channel_id=thread, seat="X")
        assert h.private_replies(token) == ["Not a seat: X. Use N, E, S or W."]
        token = await h.command(EVA, "join", channel_id=thread, seat="E")
        assert any("taken by Bert" in r for r in h.private_replies(token))
        token = await h.command(EVA, "join", channel_id=thread, seat="N")
        assert h.private_replies(token)[0] in ("You sit North now.", "Seat North is yours from the next hand.")


# ------------------------------------------------------------------ hand delivery


async def test_hand_delivery_choice_per_player(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        token = await h.command(ANNA, "hand", delivery="thread")
        assert h.private_replies(token) == ["Saved: your hand comes by the table's thread at your next tables."]
        table_id = await started(h, ANNA, [BERT])
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        assert not h.fake.dms_of(ANNA.id) and h.fake.dms_of(BERT.id)
        assert table.seats[table.seat_of(ANNA.id)].delivery == "thread"  # type: ignore[index]
        # Bert moves to the thread mid-game: his hand comes at once, privately.
        token = await h.command(BERT, "hand", channel_id=thread, delivery="thread")
        [hand] = [r for r in h.responses_to(token) if r.files]
        assert hand.ephemeral and hand.files == ["hand.png"] and hand.content.startswith("Your hand now comes here")
        # Anna moves back to direct messages: the DM arrives.
        token = await h.command(ANNA, "hand", channel_id=thread, delivery="dm")
        assert h.private_replies(token) == ["Your hand now comes by direct message."]
        dm = h.fake.dms_of(ANNA.id)
        assert dm and dm[-1].attachments == ["hand.png"] and any(i.startswith("kj:c:") for i in dm[-1].custom_ids())
        await play_to_end(h, table_id, [ANNA, BERT])
        assert table.status is TableStatus.FINISHED


# ------------------------------------------------------------------ restart during bidding


async def test_restart_edits_the_bidding_prompt_instead_of_posting_again(tmp_path: Path) -> None:
    fake = FakeDiscord()
    db = tmp_path / "k.sqlite3"
    async with Harness(db, fake) as h:
        table_id = await started(h, ANNA, [BERT, CHRIS, EVA], bidding="verplicht")
        table = bot_of(h).service.get(table_id)
        thread = thread_of(h, table_id)
        [prompt] = with_button(h, thread, "kj:b:")
        assert table.prompt_message_id == prompt.id
        posted = len(fake.in_channel(thread))
    async with Harness(db, fake) as h2:
        table2 = bot_of(h2).service.get(table_id)
        assert table2.prompt_message_id == prompt.id
        new = fake.in_channel(thread)[posted:]
        assert [m.content for m in new] == ["The bot restarted: the game continues where it was."]
        assert prompt.edits >= 1 and len(prompt.custom_ids()) == 4
        mover = next(u for u in (ANNA, BERT, CHRIS, EVA) if table2.seat_of(u.id) is table2.game.to_act)
        await h2.click(mover, prompt, prompt.custom_ids()[0])
        assert table2.game.phase.value == "play" and prompt.custom_ids() == []
        assert enabled_cards(hand_message(h2, table_id, ANNA)) or table2.game.to_act is not table2.seat_of(ANNA.id)


# ------------------------------------------------------------------ Dutch command names


async def test_every_command_text_has_a_dutch_translation(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        missing: list[str] = []
        tree = bot_of(h).tree
        assert tree.translator is not None
        payload = [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]

        def walk(node: dict) -> None:  # type: ignore[type-arg]
            for key in ("name", "description"):
                if key in node and not node.get(f"{key}_localizations", {}).get(Locale.dutch.value):
                    missing.append(str(node[key]))
            for child in node.get("options", []) + node.get("choices", []):
                walk(child)

        for command in payload:
            walk(command)
        assert not missing, missing
        assert isinstance(COMMAND_TEXTS, dict) and app_commands.locale_str("play").message in COMMAND_TEXTS


async def test_a_start_in_a_plain_channel_reads_no_thread_from_the_store(tmp_path: Path) -> None:
    """A burst of starts costs no store read each to find out that a plain channel is no table's thread; in a
    table's thread the check still runs and refuses a second table."""
    async with Harness(tmp_path / "k.sqlite3") as h:
        store = bot_of(h).store
        looked_up: list[int] = []
        lookup = store.table_in_thread

        async def counted(channel_id: int) -> int | None:
            looked_up.append(channel_id)
            return await lookup(channel_id)

        store.table_in_thread = counted  # type: ignore[method-assign]
        table_id = await open_table(h, ANNA)
        assert looked_up == []
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        thread = thread_of(h, table_id)
        await h.command(BERT, "start", channel_id=thread)
        assert len(bot_of(h).service.tables) == 1  # refused: the thread is table 1's
