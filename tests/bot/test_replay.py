"""Replays and exports of matches that are over, through the offline harness: /klaverjas replay and
export with their real payloads (ephemeral flags, attachments, buttons), their autocomplete, the match-end
message's buttons, in English and Dutch; forged ids, other people's replays, other servers' and running matches;
Discord failing the answers."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest
from harness import CHANNEL_ID, EPHEMERAL, FakeDiscord, Harness, Request, StoredMessage, User
from PIL import Image
from test_custom_ids import INVALID_BUTTON, forged
from test_discord import ANNA, BERT, CHRIS, SEED, lobby, open_table, play_to_end
from test_hostile import any_callback
from test_scenarios import bot_of, thread_of, until

from bot.cli.score import decode, score_text
from bot.discord_app.replay_messages import export_name
from bot.tables.model import Table, TableSettings, TableStatus
from bot.texts.catalog import card_text
from bot.texts.labels import names_of
from bot.texts.language import Language
from engine.cards import Seat
from engine.record import game_summary
from engine.replay import Replay

EVA = User(1005, "Eva", locale="nl")
OTHER_GUILD = 910000000000000099


async def finished_match(h: Harness, host: User, guests: list[User], hands: str = "1", **options: str) -> int:
    """A match played to its end by ``host`` and ``guests`` (AI players in the other seats)."""
    table_id = await open_table(h, host, length=hands, **options)
    for guest in guests:
        await h.click(guest, lobby(h), f"kj:l:{table_id}:join")
    await h.click(host, lobby(h), f"kj:l:{table_id}:start")
    await play_to_end(h, table_id, [host, *guests])
    table = bot_of(h).service.get(table_id)
    assert table.status is TableStatus.FINISHED
    await h.settle()
    return table_id


def answers(h: Harness, token: str) -> list[Request]:
    """What the bot sent in answer to one interaction, callbacks included."""
    return h.responses_to(token)


def the_message(h: Harness, token: str) -> StoredMessage:
    """The message an interaction's answer made (its followup, or its direct answer)."""
    made = [r for r in answers(h, token) if r.method == "POST" and "/webhooks/" in r.url]
    if made:
        return [m for m in h.fake.messages.values() if m.content == made[-1].content][-1]
    return h.fake.messages[h.fake.originals[token]]


def private_files(h: Harness, token: str) -> list[tuple[str, bytes]]:
    return [(name, data) for r in answers(h, token) if r.ephemeral for name, data in zip(r.files, r.file_data,
                                                                                        strict=True)]


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


# ------------------------------------------------------------------ export


@pytest.mark.parametrize("user", [ANNA, CHRIS], ids=["en", "nl"])
async def test_export_is_a_private_record_file_that_klaverjas_score_replays_to_the_live_game(
        tmp_path: Path, user: User) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await finished_match(h, user, [], hands="2")
        live = bot_of(h).service.get(table_id).game
        token = await h.command(user, "export", match=str(table_id))
        [answer] = answers(h, token)
        assert answer.json is not None and answer.json["type"] == 4 and answer.ephemeral
        [(name, data)] = private_files(h, token)
        assert name == f"klaverjas-table-{table_id}.jsonl"
        expected = {"en": f"The record of table #{table_id} (klaverjas-record/1): `klaverjas score {name}` checks "
                          "and scores it.",
                    "nl": f"Het verslag van tafel #{table_id} (klaverjas-record/1): `klaverjas score {name}` "
                          "controleert en telt het."}
        assert answer.content == expected[user.locale[:2]]
        # One record on one line, as `klaverjas score` reads it; its result is the live game's.
        assert data.endswith(b"\n") and data.count(b"\n") == 1
        out = io.StringIO()
        assert score_text(decode(data), out)
        [result] = [json.loads(line) for line in out.getvalue().splitlines()]
        assert result == {"ok": True, **game_summary(live)}
        assert result["finished"] and len(result["hands"]) == 2
        assert json.loads(data) == await bot_of(h).store.record(table_id)


def test_export_file_name_carries_the_server_name_plainly() -> None:
    table = Table(id=7, host_id=1, settings=TableSettings(), seed=1)
    assert export_name(table, "De Kaartclub 🃏 Utrecht!") == "klaverjas-de-kaartclub-utrecht-table-7.jsonl"
    assert export_name(table, "🃏🃏") == "klaverjas-table-7.jsonl"
    assert export_name(table, "x" * 200) == f"klaverjas-{'x' * 30}-table-7.jsonl"


# ------------------------------------------------------------------ replay


def step_button(message: StoredMessage, nav: str) -> dict[str, object]:
    [found] = [b for b in message.buttons() if str(b.get("custom_id")).endswith(f":{nav}")]
    return found


async def press(h: Harness, user: User, message: StoredMessage, nav: str) -> str:
    return await h.click(user, message, str(step_button(message, nav)["custom_id"]))


def trick_line(table: Table, hand: int, trick: int, lang: Language) -> str:
    """What the thread said of this trick, worded for ``lang``, from the live game."""
    done = table.game.hands[hand].tricks[trick]
    names = names_of(table, lang)
    if lang is Language.NL:
        return (f"Slag {trick + 1}: {names[done.winner]} wint met {card_text(done.winning_card, lang)} — "
                f"{done.points} punten.")
    return (f"Trick {trick + 1}: {names[done.winner]} wins with {card_text(done.winning_card, lang)} — "
            f"{done.points} points.")


@pytest.mark.parametrize("user", [ANNA, CHRIS], ids=["en", "nl"])
async def test_replay_steps_through_every_deal_and_trick_privately_and_back(tmp_path: Path, user: User) -> None:
    lang = Language.of(user.locale)
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await finished_match(h, user, [], hands="2")
        table = bot_of(h).service.get(table_id)
        replay = Replay(table.rules, table.game.actions)
        token = await h.command(user, "replay", match=str(table_id))
        # Answered at once, privately ("thinking"), then the replay itself as a private followup with its image.
        callback, followup = answers(h, token)
        assert callback.json is not None and callback.json["type"] == 5 and callback.ephemeral
        assert followup.ephemeral and followup.files == ["replay.png"]
        message = the_message(h, token)
        assert message.flags & EPHEMERAL
        first = {"en": f"Replay of table #{table_id} · Wij: ", "nl": f"Terugkijken: tafel #{table_id} · Wij: "}
        assert message.content.startswith(first[lang])
        assert step_button(message, "sh").get("disabled") and step_button(message, "pt").get("disabled")
        [(_, sheet)] = private_files(h, token)
        pages = [message.content]
        images = [sheet]
        while not step_button(message, "nt").get("disabled"):
            token = await press(h, user, message, "nt")
            update, edit = answers(h, token)
            assert update.json is not None and update.json["type"] == 6  # the clicked message is edited
            assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
            assert edit.files == ["replay.png"] and len(edit.file_data[0]) > 1000
            pages.append(message.content)
            images.append(edit.file_data[0])
        # The sheet, then each hand's deal and its eight tricks.
        assert len(pages) == 1 + sum(1 + replay.steps(hand) for hand in range(2)) == 19
        for hand in range(2):
            deal = pages[1 + 9 * hand]
            assert ("Hand" if lang is Language.EN else "Ronde") + f" {hand + 1}/2" in deal
            assert png_size(images[1 + 9 * hand])[1] > 4 * 180  # every seat's cards, a row each
            for trick in range(8):
                assert trick_line(table, hand, trick, lang) in pages[2 + 9 * hand + trick]
        result = table.game.results[1]
        assert ("Hand 2: " if lang is Language.EN else "Ronde 2: ") in pages[-1]
        assert str(result.score[0]) in pages[-1] and str(result.score[1]) in pages[-1]
        # Back, step by step, through the same pages.
        for expected in reversed(pages[:-1]):
            await press(h, user, message, "pt")
            assert message.content == expected
        assert step_button(message, "pt").get("disabled")
        # Hand by hand, and back to the sheet.
        await press(h, user, message, "nh")
        await press(h, user, message, "nh")
        assert message.content == pages[10]
        assert step_button(message, "nh").get("disabled")
        await press(h, user, message, "ph")
        assert message.content == pages[1]
        await press(h, user, message, "sh")
        assert message.content == pages[0]


async def test_someone_who_did_not_play_sees_ns_and_ew_and_the_replay_survives_a_restart(tmp_path: Path) -> None:
    db, fake = tmp_path / "k.sqlite3", FakeDiscord()
    async with Harness(db, fake) as h:
        table_id = await finished_match(h, ANNA, [])
        token = await h.command(BERT, "replay", match=str(table_id))
        message = the_message(h, token)
        assert message.content.startswith(f"Replay of table #{table_id} · NS: ")
        await press(h, BERT, message, "nt")
        deal = message.content
    async with Harness(db, fake) as h2:
        token = await press(h2, BERT, message, "nt")
        assert "**Hand 1/1, trick 1/8**" in message.content and message.content != deal
        await press(h2, BERT, message, "pt")
        assert message.content == deal


async def test_the_match_end_message_offers_replay_and_export_to_anyone(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await finished_match(h, CHRIS, [])
        thread = thread_of(h, table_id)
        [end] = [m for m in h.fake.in_channel(thread) if f"kj:rm:{table_id}" in m.custom_ids()]
        # Rematch, Replay, Export, Stats, Review.
        buttons = [f"kj:rm:{table_id}", f"kj:rp:{table_id}", f"kj:ex:{table_id}", f"kj:ms:{table_id}",
                   f"kj:rv:{table_id}"]
        assert end.custom_ids() == buttons
        assert [b["label"] for b in end.buttons()] == ["Revanche", "Terugkijken", "Exporteren", "Statistieken",
                                                       "Analyse"]  # Chris's table
        token = await h.click(ANNA, end, f"kj:rp:{table_id}")
        replay = the_message(h, token)
        assert replay.flags & EPHEMERAL and replay.content.startswith(f"Replay of table #{table_id} · NS: ")
        assert [b["label"] for b in replay.buttons()] == ["⏮ Previous hand", "◀ Previous trick", "Next trick ▶",
                                                          "Next hand ⏭", "Score sheet"]
        token = await h.click(ANNA, end, f"kj:ex:{table_id}")
        [(name, data)] = private_files(h, token)
        assert name == f"klaverjas-table-{table_id}.jsonl" and json.loads(data)["format"] == "klaverjas-record/1"
        assert end.custom_ids() == buttons  # unchanged


async def test_a_match_stopped_mid_trick_is_replayed_up_to_where_it_stopped(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: SEED
        table_id = await open_table(h, ANNA, length="2")
        await h.click(ANNA, lobby(h), f"kj:l:{table_id}:start")
        table = bot_of(h).service.get(table_id)
        # Anna's turn in a trick someone else led.
        await until(h, lambda: table.game.hand is not None and len(table.game.hand.plays) % 4 != 0, [ANNA])
        thread = thread_of(h, table_id)
        await h.command(ANNA, "stop", channel_id=thread)
        assert table.status is TableStatus.STOPPED
        await h.settle()
        [stopped] = [m for m in h.fake.in_channel(thread) if m.content == "The table was stopped."]
        assert stopped.custom_ids() == [f"kj:rp:{table_id}", f"kj:ex:{table_id}"]
        token = await h.click(ANNA, stopped, f"kj:rp:{table_id}")
        message = the_message(h, token)
        we, they = table.game.totals[Seat.S.team], table.game.totals[Seat.S.team.other]  # Anna hosts in the South
        assert f"Stopped during hand {len(table.game.hands)}: Wij {we} – Zij {they}." in message.content
        await press(h, ANNA, message, "nt")  # the deal
        while not step_button(message, "nt").get("disabled"):
            await press(h, ANNA, message, "nt")
        assert "The match was stopped during this trick." in message.content
        plays = table.game.hand.plays  # type: ignore[union-attr]
        assert card_text(plays[-1], Language.EN) in message.content.splitlines()[1]
        # Its record ends in the unfinished hand, which `klaverjas score` accepts as the last one.
        token = await h.command(ANNA, "export", match=str(table_id))
        [(_, data)] = private_files(h, token)
        out = io.StringIO()
        assert score_text(decode(data), out)
        assert json.loads(out.getvalue()) == {"ok": True, **game_summary(table.game)}


async def test_a_lobby_stopped_before_the_deal_has_nothing_to_show(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await open_table(h, ANNA)
        await h.command(ANNA, "stop")
        assert bot_of(h).service.get(table_id).status is TableStatus.STOPPED
        for sub in ("replay", "export"):
            token = await h.command(ANNA, sub, match=str(table_id))
            assert h.private_replies(token) == [f"Table #{table_id} stopped before the first deal: there is nothing "
                                                "to show."]
        assert await h.autocomplete(ANNA, "replay", "match", "", CHANNEL_ID) == []


# ------------------------------------------------------------------ autocomplete


async def test_autocomplete_offers_the_callers_matches_here_newest_first_and_a_typed_one(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        store = bot_of(h).store
        first = await finished_match(h, ANNA, [CHRIS])
        second = await finished_match(h, ANNA, [])
        bert = await finished_match(h, BERT, [])  # Anna was not at this one
        elsewhere = await finished_match(h, ANNA, [])
        await store.db.execute("UPDATE tables SET guild_id = ? WHERE id = ?", (OTHER_GUILD, elsewhere))
        running = await open_table(h, ANNA)
        await h.click(ANNA, lobby(h), f"kj:l:{running}:start")
        choices = await h.autocomplete(ANNA, "replay", "match", "", CHANNEL_ID)
        assert [c["value"] for c in choices] == [str(second), str(first)]
        for choice, table_id in zip(choices, (second, first), strict=True):
            game = bot_of(h).service.tables[table_id].game if table_id in bot_of(h).service.tables else None
            assert choice["name"].startswith(f"#{table_id} · 20") and " · Wij: " in choice["name"]
            assert "Anna – Zij: " in choice["name"]
            assert len(choice["name"]) <= 100
            if game is not None:
                ns, ew = game.totals
                assert f"{max(ns, ew)}–{min(ns, ew)}" in choice["name"]
        # In Dutch, from Chris's side (he sat with Anna at the first).
        [dutch] = await h.autocomplete(CHRIS, "export", "match", "", CHANNEL_ID)
        assert dutch["value"] == str(first) and ("wonnen" in dutch["name"] or "gelijkspel" in dutch["name"])
        # Filtered by what was typed; a number typed offers that match of this server, if it is over.
        assert [c["value"] for c in await h.autocomplete(ANNA, "replay", "match", "Chris", CHANNEL_ID)] == [str(first)]
        offered = await h.autocomplete(ANNA, "replay", "match", f"#{bert}", CHANNEL_ID)
        assert [c["value"] for c in offered] == [str(bert)] and "Bert – EW: " in offered[0]["name"]
        for typed in (str(running), str(elsewhere), "999", "x" * 6000, "\u202e@everyone", "0" * 50 + "1"):
            assert await h.autocomplete(ANNA, "replay", "match", typed, CHANNEL_ID) == [], typed


async def test_autocomplete_labels_stay_within_discord_limits(tmp_path: Path) -> None:
    long = User(1020, "W" * 32 + "\u202e\u200b")
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await finished_match(h, long, [])
        [choice] = await h.autocomplete(long, "replay", "match", "", CHANNEL_ID)
        assert choice["value"] == str(table_id) and len(choice["name"]) <= 100
        assert "\u202e" not in choice["name"] and "\u200b" not in choice["name"]


# ------------------------------------------------------------------ hostile input

NOT_OVER = {"en": "Match #{id} is still being played: its replay and record show every hand, so they come once it "
                  "is over.",
            "nl": "Partij #{id} wordt nog gespeeld: terugkijken en het verslag tonen alle kaarten, dus die komen als "
                  "de partij voorbij is."}
NO_MATCH = {"en": "There is no match #{id} in this server.", "nl": "In deze server is er geen partij #{id}."}


def no_files(h: Harness, token: str) -> bool:
    return all(not r.files for r in answers(h, token))


@pytest.mark.parametrize("user", [ANNA, CHRIS], ids=["en", "nl"])
async def test_matches_not_over_unknown_or_elsewhere_and_junk_are_refused_privately(tmp_path: Path,
                                                                                     user: User) -> None:
    lang = user.locale[:2]
    async with Harness(tmp_path / "k.sqlite3") as h:
        elsewhere = await finished_match(h, BERT, [])
        await bot_of(h).store.db.execute("UPDATE tables SET guild_id = ? WHERE id = ?", (OTHER_GUILD, elsewhere))
        running = await open_table(h, BERT)
        await h.click(BERT, lobby(h), f"kj:l:{running}:start")
        lobby_id = await open_table(h, EVA)  # a lobby in another channel would be the same: not played
        cases = {str(running): NOT_OVER[lang].format(id=running), f"#{lobby_id}": NOT_OVER[lang].format(id=lobby_id),
                 "999": NO_MATCH[lang].format(id=999), str(elsewhere): NO_MATCH[lang].format(id=elsewhere)}
        for sub in ("replay", "export"):
            for typed, refusal in cases.items():
                token = await h.command(user, sub, match=typed)
                assert h.private_replies(token) == [refusal], (sub, typed)
                assert no_files(h, token)
            for typed in ("x" * 6000, "@everyone <@1001>", "12abc", "0012", "-1", "١٢", "1" * 13, ""):
                token = await h.command(user, sub, match=typed)
                [answer] = h.private_replies(token)
                assert answer.startswith("“") and ("is not a match" in answer or "is geen partij" in answer), answer
                assert len(answer) < 200 and "@everyone" not in answer and "<@1001>" not in answer
                assert no_files(h, token)
        assert bot_of(h).service.get(running).running


async def test_forged_replay_buttons_show_nothing_they_should_not(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        done = await finished_match(h, ANNA, [])
        elsewhere = await finished_match(h, ANNA, [])
        await bot_of(h).store.db.execute("UPDATE tables SET guild_id = ? WHERE id = ?", (OTHER_GUILD, elsewhere))
        running = await open_table(h, BERT)
        await h.click(BERT, lobby(h), f"kj:l:{running}:start")
        token = await h.command(ANNA, "replay", match=str(done))
        message = the_message(h, token)
        real = str(step_button(message, "nt")["custom_id"])
        seen, edits = message.content, message.edits

        async def click_forged(user: User, custom_id: str) -> list[str]:
            token = await h.click(user, forged(message, real, custom_id), custom_id)
            assert no_files(h, token) and all(r.method != "PATCH" for r in answers(h, token)), custom_id
            return h.private_replies(token)

        # A running match's hands stay hidden, whoever asks; another server's match does not exist here.
        assert await click_forged(ANNA, f"kj:rs:{running}:{ANNA.id}:0-0:nt") == [NOT_OVER["en"].format(id=running)]
        assert await click_forged(BERT, f"kj:rs:{running}:{BERT.id}:0-1:nt") == [NOT_OVER["en"].format(id=running)]
        assert await click_forged(ANNA, f"kj:rs:{elsewhere}:{ANNA.id}:0-0:nt") == [NO_MATCH["en"].format(
            id=elsewhere)]
        # Someone else's replay (only possible by forging: a replay is private).
        assert await click_forged(CHRIS, real) == ["Deze herhaling is van iemand anders: open je eigen met "
                                                   "/klaverjas terugkijken."]
        # Steps the match does not have, and ids spelled in any way the bot does not write them.
        for custom_id in (f"kj:rs:{done}:{ANNA.id}:1-0:nt", f"kj:rs:{done}:{ANNA.id}:0-9:nt",
                          f"kj:rs:{done}:{ANNA.id}:00-1:nt", f"kj:rs:{done}:{ANNA.id}:0-1:xx",
                          f"kj:rs:{done}:0{ANNA.id}:0-1:nt", f"kj:rs:{done}:{ANNA.id}:0-1:nt:", f"kj:rp:0{done}",
                          f"kj:ex:{done}x", f"kj:rs:{done}:{'9' * 21}:0-1:nt"):
            assert await click_forged(ANNA, custom_id) == [INVALID_BUTTON["en-US"]], custom_id
        # Match-end buttons forged for a running match or an unknown one.
        assert await click_forged(ANNA, f"kj:rp:{running}") == [NOT_OVER["en"].format(id=running)]
        assert await click_forged(ANNA, f"kj:ex:{running}") == [NOT_OVER["en"].format(id=running)]
        assert await click_forged(ANNA, "kj:ex:4242") == [NO_MATCH["en"].format(id=4242)]
        assert (message.content, message.edits) == (seen, edits)
        # The real button still works.
        await h.click(ANNA, message, real)
        assert message.content != seen and message.edits == edits + 1


# ------------------------------------------------------------------ Discord failing


async def test_lost_answers_lose_no_step(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await finished_match(h, ANNA, [])
        # The command's first answer comes too late (10062): nothing follows, nothing breaks.
        h.fake.fail_next(any_callback, 404, 10062, "Unknown interaction")
        with caplog.at_level(logging.WARNING):
            token = await h.command(ANNA, "replay", match=str(table_id))
        assert all(r.path.endswith("/callback") for r in answers(h, token))
        token = await h.command(ANNA, "replay", match=str(table_id))
        message = the_message(h, token)
        sheet = message.content
        # A step's answer expires (10062): the replay stays where it was; the same button works next time.
        h.fake.fail_next(lambda r: any_callback(r) and (r.json or {}).get("type") == 6, 404, 10062,
                         "Unknown interaction")
        with caplog.at_level(logging.WARNING):
            token = await press(h, ANNA, message, "nt")
        assert message.content == sheet and all(r.method != "PATCH" for r in answers(h, token))
        await press(h, ANNA, message, "nt")
        deal = message.content
        assert "**Hand 1/1** —" in deal
        # Editing the replay is rate limited (429): it stays on the deal; the next click shows the trick it names.
        h.fake.fail_next(lambda r: r.method == "PATCH" and r.via == "webhook", 429, 0, "You are being rate limited.")
        with caplog.at_level(logging.WARNING):
            await press(h, ANNA, message, "nt")
        assert message.content == deal
        await press(h, ANNA, message, "nt")
        assert "**Hand 1/1, trick 1/8**" in message.content
        # The export's answer expires: no file went anywhere, and asking again works.
        h.fake.fail_next(any_callback, 404, 10062, "Unknown interaction")
        token = await h.command(ANNA, "export", match=str(table_id))
        token = await h.command(ANNA, "export", match=str(table_id))
        assert [name for name, _ in private_files(h, token)] == [f"klaverjas-table-{table_id}.jsonl"]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_match_end_that_cannot_be_posted_still_replays_and_exports(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        # Discord refuses the match-end message (50013: the bot lost its permission in the thread).
        h.fake.fail_next(lambda r: any(i.startswith("kj:rm:") for i in r.custom_ids()), 403, 50013,
                         "Missing Permissions")
        table_id = await finished_match(h, ANNA, [])
        assert not [m for m in h.fake.messages.values() if f"kj:rm:{table_id}" in m.custom_ids()]
        stored = await bot_of(h).store.load_table(table_id)
        assert stored is not None and stored.status is TableStatus.FINISHED
        [choice] = await h.autocomplete(ANNA, "replay", "match", "", CHANNEL_ID)
        token = await h.command(ANNA, "replay", match=choice["value"])
        assert the_message(h, token).content.startswith(f"Replay of table #{table_id}")
        token = await h.command(ANNA, "export", match=choice["value"])
        [(_, data)] = private_files(h, token)
        assert json.loads(data) == await bot_of(h).store.record(table_id)


async def test_the_match_end_stats_button_shows_the_pressers_own_statistics_privately(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await finished_match(h, ANNA, [])
        [end] = [m for m in h.fake.in_channel(thread_of(h, table_id)) if f"kj:rm:{table_id}" in m.custom_ids()]
        # The player of the match: their statistics, this match counted, with the Share button.
        token = await h.click(ANNA, end, f"kj:ms:{table_id}")
        stats = the_message(h, token)
        assert stats.flags & EPHEMERAL and stats.attachments == ["stats.png"]
        assert "**Statistics of Anna**" in stats.content and "Matches: 1 " in stats.content
        assert stats.custom_ids() == [f"kj:ss:u:{ANNA.id}"]
        # Someone who watched: their own (empty) statistics, not Anna's, in their language.
        token = await h.click(EVA, end, f"kj:ms:{table_id}")
        assert the_message(h, token).content == "Eva heeft nog geen partij gespeeld."
        # Discord lets the press expire (10062): nothing is posted in the thread, and the next press works.
        posted = len(h.fake.in_channel(thread_of(h, table_id)))
        h.fake.fail_next(any_callback, 404, 10062, "Unknown interaction")
        await h.click(ANNA, end, f"kj:ms:{table_id}")
        assert len(h.fake.in_channel(thread_of(h, table_id))) == posted
        token = await h.click(ANNA, end, f"kj:ms:{table_id}")
        assert "**Statistics of Anna**" in the_message(h, token).content
