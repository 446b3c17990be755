"""Custom ids are read one way only: the ids the bot writes round-trip; any other spelling (leading
zeros, non-ASCII digits, out of bounds, over 100 characters, anything appended) is no button. Clicks on such
ids, or on ids no button takes, are answered privately through the offline harness."""

from __future__ import annotations

import asyncio
import copy
import logging
from pathlib import Path
from typing import Any

import pytest
from harness import Harness, StoredMessage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_discord import ANNA, CHRIS, enabled_cards, hand_message, lobby, open_table
from test_hostile import any_callback, seat_turn
from test_scenarios import bot_of, started, until

from bot.discord_app.views import (
    CUSTOM_ID_LIMIT,
    DYNAMIC_ITEMS,
    BackButton,
    BidButton,
    BoardPageButton,
    CardButton,
    ConfirmPairButton,
    DeclineButton,
    ExportButton,
    ForgetMeButton,
    LobbyButton,
    LobbyOp,
    MyStatsButton,
    PlayHereButton,
    RematchButton,
    ReplayButton,
    ReplayNav,
    ReplayStepButton,
    ReviewButton,
    RoemButton,
    SeatSelect,
    ShareStatsButton,
    ShowHandButton,
    TakeSeatButton,
    item_class,
)
from engine.actions import Call
from engine.cards import DECK

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
TABLES = st.integers(1, 10**12 - 1)
VERSIONS = st.integers(0, 10**6 - 1)
# Discord ids as the store keeps them (signed 64-bit): up to 19 digits, the bot's grammar stops short of 9 * 10**18.
USER_IDS = st.integers(1, 9 * 10**18 - 1)
BUILDS = {
    LobbyButton: st.builds(LobbyButton, TABLES, st.sampled_from(list(LobbyOp))),
    PlayHereButton: st.builds(PlayHereButton, TABLES),
    BidButton: st.builds(BidButton, TABLES, VERSIONS, st.sampled_from(list(Call))),
    CardButton: st.builds(CardButton, TABLES, VERSIONS, st.sampled_from(DECK)),
    RoemButton: st.builds(RoemButton, TABLES, VERSIONS),
    DeclineButton: st.builds(DeclineButton, TABLES, VERSIONS),
    **{kind: st.builds(kind, TABLES) for kind in (BackButton, ShowHandButton, SeatSelect, TakeSeatButton,
                                                  RematchButton, ReplayButton, ExportButton,
                                                  MyStatsButton, ReviewButton)},
    ForgetMeButton: st.builds(ForgetMeButton, USER_IDS),
    ReplayStepButton: st.builds(ReplayStepButton, TABLES, USER_IDS,
                                st.none() | st.tuples(st.integers(0, 99999), st.integers(0, 8)),
                                st.sampled_from(list(ReplayNav))),
    ShareStatsButton: st.one_of(st.builds(ShareStatsButton, USER_IDS, st.none()),
                                st.builds(ShareStatsButton, st.none(), st.sampled_from(["easy", "normal", "hard"]))),
    BoardPageButton: st.builds(BoardPageButton, st.sampled_from(["s", "g"]), st.sampled_from(["all", "month", "week"]),
                               st.integers(0, 10**5 - 1)),
    ConfirmPairButton: st.builds(ConfirmPairButton, TABLES),  # a tournament entry's id, bounded as a table's
}
TOO_BIG = {"ss": 9 * 10**18, "lb": 10**5, "fm": 9 * 10**18}  # the statistics' ids: a Discord id, a leaderboard page
ITEMS = st.one_of(*BUILDS.values())
INVALID_BUTTON = {"en-US": "This button is no longer valid: use the buttons on the table's latest messages.",
                  "nl": "Deze knop is niet meer geldig: gebruik de knoppen bij de nieuwste berichten van de tafel."}
# Digits that ``\d`` matches and int() reads, but the bot never writes: Arabic-Indic, Persian, Devanagari,
# fullwidth, mathematical bold.
OTHER_ZEROS = [0x0660, 0x06F0, 0x0966, 0xFF10, 0x1D7CE]


def parsed(custom_id: str) -> Any:
    """The item discord.py would build for a click on ``custom_id``, or None when no template takes it."""
    kind = item_class(custom_id)
    if kind is None:
        return None
    match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    return asyncio.run(kind.from_custom_id(None, None, match))  # type: ignore[arg-type]


def fields(item: Any) -> tuple[Any, ...]:
    return (type(item), *(getattr(item, name, None) for name in ("table", "version", "card", "call", "op", "viewer",
                                                                 "position", "nav", "user", "level", "scope",
                                                                 "period", "page", "entry")))


@SETTINGS
@given(ITEMS)
def test_every_id_the_bot_writes_reads_back_as_the_same_button(item: Any) -> None:
    custom_id = item.custom_id
    assert len(custom_id) <= CUSTOM_ID_LIMIT and custom_id.isascii()
    again = parsed(custom_id)
    assert fields(again) == fields(item) and again.custom_id == custom_id


def numbers_in(custom_id: str) -> list[int]:
    """The indexes of the parts of an id that are numbers."""
    return [i for i, part in enumerate(custom_id.split(":")) if part.isdigit()]


@st.composite
def misspelled(draw: st.DrawFn) -> str:
    """A canonical id spelled another way: its meaning may even be the same, but it is not how the bot writes it."""
    parts = draw(ITEMS.filter(lambda item: bool(numbers_in(item.custom_id)))).custom_id.split(":")
    index = draw(st.sampled_from(numbers_in(":".join(parts))))
    how = draw(st.sampled_from(["zeros", "digits", "too big", "sign", "space", "appended", "prefix", "case"]))
    number = parts[index]
    if how == "zeros":
        parts[index] = "0" * draw(st.integers(1, 120)) + number
    elif how == "digits":
        zero = draw(st.sampled_from(OTHER_ZEROS))
        position = draw(st.integers(0, len(number) - 1))
        parts[index] = number[:position] + chr(zero + int(number[position])) + number[position + 1:]
    elif how == "too big":
        # Past each number's bound: a table id has at most 12 digits, a user id is below 9 * 10**18, a version has 6.
        bound = TOO_BIG.get(parts[1]) or (10**12 if index == 2 else 9 * 10**18 if parts[1] == "rs" else 10**6)
        parts[index] = str(bound) + draw(st.sampled_from(["", "0", "123"]))
    elif how == "sign":
        parts[index] = draw(st.sampled_from(["+", "-"])) + number
    elif how == "space":
        space = draw(st.sampled_from([" ", "\n", "\t", "\u00a0"]))
        parts[index] = draw(st.sampled_from([space + number, number + space]))
    elif how == "appended":
        return ":".join(parts) + draw(st.sampled_from([":", "\n", " ", ":0", "x", "0" * 100]))
    elif how == "prefix":
        before = draw(st.sampled_from(["", " ", "x", "\n"]))
        cut = draw(st.integers(0 if before else 1, 1))  # something must change: add, cut, or both
        return before + ":".join(parts)[cut:]
    else:
        return ":".join(parts).upper()
    return ":".join(parts)


@SETTINGS
@given(misspelled())
def test_an_id_spelled_another_way_is_no_button(custom_id: str) -> None:
    assert item_class(custom_id) is None, custom_id


@pytest.mark.parametrize("custom_id", ["kj:ss:u:" + "9" * 20, f"kj:ss:u:{2**63}", f"kj:fm:{2**64 - 1}",
                                       f"kj:rs:1:{2**63}:s:nt", f"kj:ss:u:{9 * 10**18}"])
def test_a_user_id_the_store_cannot_hold_is_no_button(custom_id: str) -> None:
    # The store keeps ids as signed 64-bit integers: a longer one reached it and failed there (OverflowError).
    assert item_class(custom_id) is None
    assert parsed(f"kj:ss:u:{9 * 10**18 - 1}").user == 9 * 10**18 - 1  # the largest id the grammar takes


ID_LIKE = st.from_regex(r"kj:(l|b|c|r|nr|back|h|seat|take|rm|rp|ex|rs|ss|lb|ms|rv|fm|tp|x):[0-9٠-٩０-９+ -]{0,14}"
                        r"(:[0-9A-Za-z٣-]{0,22}){0,4}", fullmatch=True)


@SETTINGS
@given(st.one_of(ID_LIKE, st.text(max_size=150)))
def test_whatever_is_read_as_a_button_is_exactly_how_the_bot_writes_it(custom_id: str) -> None:
    item = parsed(custom_id)
    if item is not None:
        assert item.custom_id == custom_id and len(custom_id) <= CUSTOM_ID_LIMIT


def test_every_button_and_menu_is_generated() -> None:
    assert set(BUILDS) == set(DYNAMIC_ITEMS)


# ------------------------------------------------------------------ clicks through the harness


def forged(message: StoredMessage, old: str, new: str) -> StoredMessage:
    """``message`` as a client that rewrote one button's id would present it."""
    fake = copy.deepcopy(message)
    for row in fake.components:
        for component in row.get("components", []):
            if component.get("custom_id") == old:
                component["custom_id"] = new
    return fake


def other_digits(number: int, zero: int = OTHER_ZEROS[0]) -> str:
    return "".join(chr(zero + int(d)) for d in str(number))


async def test_a_forged_card_id_is_refused_privately_and_the_real_button_still_plays(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [])
        table = bot_of(h).service.get(table_id)
        await until(h, lambda: seat_turn(h, table_id, ANNA), [ANNA])
        hand = hand_message(h, table_id, ANNA)
        card_id = enabled_cards(hand)[0]
        _, _, table_part, version_part, card = card_id.split(":")
        version = table.version
        assert int(version_part) == version
        variants = {
            "leading zeros": f"kj:c:{table_part}:{'0' * (CUSTOM_ID_LIMIT - len(card_id) + 5)}{version_part}:{card}",
            "arabic-indic digits": f"kj:c:{table_part}:{other_digits(version)}:{card}",
            "fullwidth table": f"kj:c:{other_digits(table_id, 0xFF10)}:{version_part}:{card}",
            "unknown kind": f"kj:zz:{table_part}",
        }
        assert len(variants["leading zeros"]) > CUSTOM_ID_LIMIT
        for name, custom_id in variants.items():
            token = await h.click(ANNA, forged(hand, card_id, custom_id), custom_id)
            assert h.private_replies(token) == [INVALID_BUTTON["en-US"]], name
            assert table.version == version, name
        # In the clicker's language.
        token = await h.click(CHRIS, forged(hand, card_id, variants["arabic-indic digits"]),
                              variants["arabic-indic digits"])
        assert h.private_replies(token) == [INVALID_BUTTON["nl"]]
        # One of the bot's ids that is not on the clicked message: discord.py would drop it without a word.
        token = await h.click(ANNA, hand, f"kj:h:{table_id}")
        assert h.private_replies(token) == [INVALID_BUTTON["en-US"]]
        # Not the bot's id at all: left alone (another application's business, not ours to answer).
        token = await h.click(ANNA, forged(hand, card_id, "other:1"), "other:1")
        assert h.responses_to(token) == []
        # The answer itself fails (the interaction expired: 10062): a warning, no traceback; the game goes on.
        h.fake.fail_next(any_callback, 404, 10062, "Unknown interaction")
        with caplog.at_level(logging.WARNING):
            await h.click(ANNA, forged(hand, card_id, variants["leading zeros"]), variants["leading zeros"])
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert table.version == version
        await h.click(ANNA, hand, card_id)
        assert table.game.actions[version].notation == card  # type: ignore[union-attr]
        assert table.version > version


async def test_a_seat_menu_value_that_is_no_seat_is_refused_not_crashed(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await open_table(h, ANNA)
        for values in (["NE"], [""], ["n"], ["N", "S"]):
            token = await h.select(CHRIS, lobby(h), f"kj:seat:{table_id}", values)
            assert h.private_replies(token) == ["Geen plaats: ?. Gebruik N, O, Z of W."], values
        assert bot_of(h).service.get(table_id).seat_of(CHRIS.id) is None
        token = await h.select(CHRIS, lobby(h), f"kj:seat:{table_id}", ["N"])
        assert h.private_replies(token) == ["Je zit Noord."]
