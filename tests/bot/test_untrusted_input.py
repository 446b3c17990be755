"""Odd input and unbounded work, through the offline harness: option values a modified client sends (the wrong
type, out of range, not a choice), lengths in other digits or thousands of digits long, felts that are no felt, ids
beyond 64 bits, and the limits on what one person or one server may open. Each is answered privately and clearly,
logs no traceback and changes nothing."""

from __future__ import annotations

import logging
from dataclasses import astuple
from pathlib import Path
from typing import Any

import pytest
from harness import ALL_PERMISSIONS, CHANNEL_ID, GUILD_ID, Harness, RawOption
from test_custom_ids import INVALID_BUTTON, forged
from test_discord import ANNA, BERT, CHRIS, open_table
from test_scenarios import bot_of, started, thread_of
from test_stats_discord import filled, followups, message_of

from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import TableSettings
from bot.tournaments.model import MAX_OPEN_TOURNAMENTS, MIN_HOURS
from engine.errors import SettingsError
from engine.settings import MAX_MATCH_HANDS, MAX_MATCH_TARGET, MIN_MATCH_TARGET, parse_length

UNKNOWN = ("Something went wrong", "Er ging iets mis")


async def state(h: Harness) -> tuple[Any, ...]:
    """Everything a command could have changed: the tables (seats, versions), the server's defaults, its tournaments
    and their settings, its tournament config."""
    bot = bot_of(h)
    tables = {i: (t.status, t.version, t.settings, [astuple(s) for s in t.seats])
              for i, t in bot.service.tables.items()}
    store = bot.tournaments.store
    return (tables, await bot.store.guild_defaults(GUILD_ID), await store.tournaments(GUILD_ID, limit=100),
            await store.config(GUILD_ID))


def refusal(h: Harness, token: str, caplog: pytest.LogCaptureFixture) -> str:
    """The one answer to ``token``: private, not "something went wrong", and no error logged."""
    answers = h.responses_to(token)
    texts = h.private_replies(token)
    assert len(texts) == 1 and len(answers) in (1, 2), [(r.content, r.ephemeral) for r in answers]
    assert all(r.ephemeral for r in answers if r.content)  # a deferral, then the private answer at most
    assert not any(word in texts[0] for word in UNKNOWN), texts[0]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
    return texts[0]


# ------------------------------------------------------------------ match lengths


ODD_LENGTHS = {"superscript two": "²", "superscript sixteen": "¹⁶", "to superscript two": "to²",
               "4,400 digits": "7" * 4400, "a 3,000-digit target": "to" + "9" * 3000,
               "a trillion points": "to1000000000000", "over the target": f"to{MAX_MATCH_TARGET + 1}",
               "arabic-indic sixteen": "١٦", "zero": "0"}


@pytest.mark.parametrize("name", list(ODD_LENGTHS))
async def test_an_odd_or_unbounded_length_is_refused_by_start_and_settings(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, name: str) -> None:
    text = ODD_LENGTHS[name]
    async with Harness(tmp_path / "k.sqlite3") as h:
        before = await state(h)
        with caplog.at_level(logging.WARNING):
            token = await h.command(ANNA, "start", length=text)
            answer = refusal(h, token, caplog)
            assert answer.startswith("Match length “") and f"from 1 to {MAX_MATCH_HANDS}" in answer, answer
            assert f"from {MIN_MATCH_TARGET} to {MAX_MATCH_TARGET} points" in answer and len(answer) < 300
            token = await h.command(CHRIS, "settings", permissions=ALL_PERMISSIONS, length=text)
            answer = refusal(h, token, caplog)
            assert answer.startswith("Lengte “") and f"van {MIN_MATCH_TARGET} tot {MAX_MATCH_TARGET} punten" in answer
        assert await state(h) == before


async def test_the_longest_lengths_are_taken_and_the_dutch_target_too(tmp_path: Path) -> None:
    assert parse_length(f"to{MAX_MATCH_TARGET}") == {"target": MAX_MATCH_TARGET}
    assert parse_length(str(MAX_MATCH_HANDS)) == {"hands": MAX_MATCH_HANDS}
    assert parse_length("tot1001") == {"target": 1001}  # as the option's Dutch description says it
    assert parse_length("tot 1001") == parse_length("to 1001") == {"target": 1001}  # as the game prints it
    for short in ("65", "to100", f"to{MIN_MATCH_TARGET - 1}"):  # one hand decides it: a typo, not a match
        with pytest.raises(SettingsError, match=f"a target from {MIN_MATCH_TARGET}"):
            parse_length(short)
    assert parse_length(f"to{MIN_MATCH_TARGET}") == {"target": MIN_MATCH_TARGET}
    async with Harness(tmp_path / "k.sqlite3") as h:
        token = await h.command(ANNA, "settings", permissions=ALL_PERMISSIONS, length=f"to{MAX_MATCH_TARGET}")
        assert h.private_replies(token)[0].startswith("Server defaults saved.")
        defaults = await bot_of(h).store.guild_defaults(GUILD_ID)
        assert defaults is not None and defaults.rules.length.target == MAX_MATCH_TARGET


# ------------------------------------------------------------------ felts, AI levels


@pytest.mark.parametrize("felt", ["x" * 3000, "@everyone", "Green", ""])
async def test_a_theme_that_is_no_felt_is_refused_and_stored_nowhere(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, felt: str) -> None:
    with pytest.raises(ServiceError) as refused:
        TableSettings().with_changes(felt=felt or " ")
    assert refused.value.code is ServiceErrorCode.BAD_SETTING
    async with Harness(tmp_path / "k.sqlite3") as h:
        before = await state(h)
        with caplog.at_level(logging.WARNING):
            for sub, options in (("tournament create", {"name": "Cup"}), ("start", {}), ("settings", {})):
                token = await h.command(ANNA, sub, permissions=ALL_PERMISSIONS, theme=felt, **options)
                answer = refusal(h, token, caplog)
                assert "`theme`" in answer and "green, navy, burgundy" in answer, answer
                assert "@everyone" not in answer and len(answer) < 200
        assert await state(h) == before


def test_a_felt_stored_before_felts_were_checked_is_drawn_as_the_default() -> None:
    # Such a row must not keep a table or a server's defaults from loading.
    assert TableSettings.from_dict({"felt": "x" * 3000}).felt == "green"
    assert TableSettings.from_dict({"felt": ["navy"]}).felt == "green"
    assert TableSettings.from_dict({"felt": "navy"}).felt == "navy"


async def test_stats_of_an_ai_level_that_does_not_exist_is_refused(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        await filled(h)
        with caplog.at_level(logging.WARNING):
            for user, expected in ((ANNA, "The option `ai` takes one of: easy, normal, hard"),
                                   (CHRIS, "Bij de optie `ai` hoort een van deze: makkelijk, normaal, moeilijk")):
                token = await h.slash(user, "stats", options=[{"name": "ai", "type": 3, "value": "expert"}])
                assert refusal(h, token, caplog).startswith(expected)
        token = await h.slash(ANNA, "stats", options=[{"name": "ai", "type": 3, "value": "easy"}])
        assert "Statistics of AI easy" in followups(h, token)[0].content


# ------------------------------------------------------------------ ids beyond 64 bits


async def test_a_share_button_with_an_id_beyond_64_bits_is_no_button(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        await filled(h)
        token = await h.slash(ANNA, "stats")
        [answer] = followups(h, token)
        private = message_of(h, answer)
        [share] = private.custom_ids()
        with caplog.at_level(logging.WARNING):
            for user_id in ("9" * 20, str(2**64), str(2**63), "9" * 19):
                custom_id = f"kj:ss:u:{user_id}"
                token = await h.click(ANNA, forged(private, share, custom_id), custom_id)
                assert refusal(h, token, caplog) == INVALID_BUTTON["en-US"], user_id
        token = await h.click(ANNA, private, share)  # the real one still shares
        assert not h.responses_to(token)[0].ephemeral


# ------------------------------------------------------------------ option values of the wrong type

TABLE_CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    # name: (subcommand, options, the option the answer names)
    "play card:<int>": ("play", {"card": 5}, "card"),
    "join seat:<int>": ("join", {"seat": 2}, "seat"),
    "play without its card": ("play", {}, "card"),
    "play card as a number": ("play", {"card": RawOption(10, "JH")}, "card"),
}
CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "replay match:<int>": ("replay", {"match": 1}, "match"),
    "export match:<bool>": ("export", {"match": False}, "match"),
    "review match:<bool>": ("review", {"match": True}, "match"),
    "tournament standings tournament:<float>": ("tournament standings", {"tournament": 1.5}, "tournament"),
    "tournament create hands:'sixteen'": ("tournament create", {"name": "Cup", "hands": "sixteen"}, "hands"),
    "tournament create pairs:'yes please'": ("tournament create", {"name": "Cup", "pairs": "yes please"}, "pairs"),
    "tournament create hands:33": ("tournament create", {"name": "Cup", "hands": 33}, "hands"),
    "tournament create hours:'abc' as a number": ("tournament create", {"name": "Cup", "hours": RawOption(10, "abc")},
                                                  "hours"),
    "tournament create hours:NaN": ("tournament create", {"name": "Cup", "hours": float("nan")}, "hours"),
    "tournament create max_participants:10**6": ("tournament create", {"name": "Cup", "max_participants": 10**6},
                                                 "max_participants"),
    "tournament create name:<int>": ("tournament create", {"name": 7}, "name"),
    "tournament config hour:-5": ("tournament config", {"hour": -5}, "hour"),
    "tournament config hour:24": ("tournament config", {"hour": 24}, "hour"),
    "tournament config daily:'yes'": ("tournament config", {"daily": "yes"}, "daily"),
    "tournament join partner:<25 digits>": ("tournament join", {"partner": RawOption(6, "1" * 25)}, "partner"),
    "tournament join partner not resolved": ("tournament join", {"partner": RawOption(6, str(BERT.id))}, "partner"),
    "history player:<text>": ("history", {"player": RawOption(6, "Bert")}, "player"),
    "hand delivery:'pigeon'": ("hand", {"delivery": "pigeon"}, "delivery"),
    "start ai:<int>": ("start", {"ai": 3}, "ai"),
    "start length:<int>": ("start", {"length": 16}, "length"),
}


@pytest.mark.parametrize("name", list(TABLE_CASES))
async def test_a_wrong_option_at_a_table_is_refused_and_plays_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, name: str) -> None:
    sub, options, option = TABLE_CASES[name]
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [])
        before = await state(h)
        with caplog.at_level(logging.WARNING):
            token = await h.command(ANNA, sub, thread_of(h, table_id), **options)
            answer = refusal(h, token, caplog)
        assert f"`{option}`" in answer, answer
        assert await state(h) == before


@pytest.mark.parametrize("name", list(CASES))
async def test_a_wrong_option_is_refused_privately_naming_it_and_changes_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, name: str) -> None:
    sub, options, option = CASES[name]
    async with Harness(tmp_path / "k.sqlite3") as h:
        await open_table(h, BERT)
        before = await state(h)
        with caplog.at_level(logging.WARNING):
            token = await h.command(ANNA, sub, permissions=ALL_PERMISSIONS, **options)
            answer = refusal(h, token, caplog)
            assert answer.startswith(f"The option `{option}` ") and answer.endswith("nothing was changed."), answer
            token = await h.command(CHRIS, sub, permissions=ALL_PERMISSIONS, **options)  # in Dutch, Dutch names
            answer = refusal(h, token, caplog)
            assert answer.startswith("Bij de optie `") and answer.endswith("er is niets veranderd."), answer
        assert await state(h) == before


async def test_an_autocomplete_with_a_value_of_the_wrong_type_offers_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [])
        payload = h.interactions.autocomplete(ANNA, "play", "card", "", thread_of(h, table_id))
        payload["data"]["options"][0]["options"][0]["value"] = 5
        with caplog.at_level(logging.WARNING):
            await h.feed(payload)
        [request] = [r for r in h.fake.requests if r.url.endswith(f"{payload['id']}/{payload['token']}/callback")]
        assert request.data.get("choices") == []
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ------------------------------------------------------------------ limits on what one person or one server opens

OTHER_CHANNELS = [CHANNEL_ID + n for n in range(1, 6)]


async def test_one_person_hosts_at_most_three_open_tables(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        limit = bot.service.driver.config.tables_per_host
        assert limit == 3
        opened = []
        for channel in OTHER_CHANNELS[:limit]:
            token = await h.command(ANNA, "start", channel, length="1")
            assert not h.responses_to(token)[0].ephemeral
            opened.append(max(bot.service.tables))
        await h.click(ANNA, [m for m in h.fake.in_channel(OTHER_CHANNELS[0]) if m.content.startswith("🃏")][-1],
                      f"kj:l:{opened[0]}:start")  # a table being played counts as one she hosts
        assert bot.service.get(opened[0]).running
        before = await state(h)
        with caplog.at_level(logging.WARNING):
            token = await h.command(ANNA, "start", OTHER_CHANNELS[limit], length="1")
            answer = refusal(h, token, caplog)
        assert answer == (f"You already host 3 tables that are open or being played (tables {opened[0]}, {opened[1]}, "
                          f"{opened[2]}): play one to its end or stop it before you open another.")
        token = await h.command(CHRIS, "start", OTHER_CHANNELS[limit])  # someone else may open one there
        assert not h.responses_to(token)[0].ephemeral
        after = await state(h)
        assert len(after[0]) == len(before[0]) + 1
        # Once one of hers is stopped she may open another.
        await bot.service.stop(opened[1], ANNA.id)
        token = await h.command(ANNA, "start", OTHER_CHANNELS[limit + 1], length="1")
        assert not h.responses_to(token)[0].ephemeral


async def create_tournament(h: Harness, name: str, **options: Any) -> str:
    token = await h.command(ANNA, "tournament create", permissions=ALL_PERMISSIONS, name=name, **options)
    [answer] = h.responses_to(token)
    return answer.content


async def test_a_server_has_at_most_five_open_tournaments(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        assert MAX_OPEN_TOURNAMENTS == 5
        for number in range(MAX_OPEN_TOURNAMENTS):
            await create_tournament(h, f"Cup {number}")
        tournaments = await bot.tournaments.store.tournaments(GUILD_ID, open_only=True)
        assert len(tournaments) == MAX_OPEN_TOURNAMENTS
        before = await state(h)
        with caplog.at_level(logging.WARNING):
            token = await h.command(ANNA, "tournament create", permissions=ALL_PERMISSIONS, name="One too many")
            answer = refusal(h, token, caplog)
            assert answer.startswith("This server already has 5 open tournaments")
            token = await h.command(CHRIS, "tournament create", permissions=ALL_PERMISSIONS, name="Een te veel")
            assert refusal(h, token, caplog).startswith("Deze server heeft al 5 open toernooien")
        assert await state(h) == before
        await h.command(ANNA, "tournament close", permissions=ALL_PERMISSIONS, tournament=str(tournaments[0].id))
        await h.settle()
        assert "One more" in await create_tournament(h, "One more")


async def test_a_tournament_is_open_at_least_six_minutes(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        before = await state(h)
        with caplog.at_level(logging.WARNING):
            token = await h.command(ANNA, "tournament create", permissions=ALL_PERMISSIONS, name="Flash", hours=0.01)
            answer = refusal(h, token, caplog)
        assert answer == f"The option `hours` takes a number from {MIN_HOURS:g} to 336; nothing was changed."
        assert await state(h) == before
        # The service holds the same bound for any front end.
        with pytest.raises(ServiceError) as refused:
            await bot.tournaments.create(guild_id=GUILD_ID, channel_id=CHANNEL_ID, creator_id=ANNA.id, name="Flash",
                                         settings=TableSettings(), hours=0.01)
        assert refused.value.params == {"key": "hours", "low": MIN_HOURS, "high": 336.0}
        assert await state(h) == before
        content = await create_tournament(h, "Short", hours=MIN_HOURS)
        assert "Short" in content

