"""Every button and menu is one class: its template alone writes and reads its ids, defining it registers it,
and its room gives its behaviour. Checked for every item there is, so a new one is held to it without being
listed here; and every item, clicked with an id it never wrote, is answered cleanly."""

from __future__ import annotations

import asyncio
import importlib
import logging
from pathlib import Path
from typing import Any

import discord
import pytest
from harness import CHANNEL_ID, Harness, StoredMessage, next_id
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from test_custom_ids import INVALID_BUTTON
from test_discord import ANNA

from bot.discord_app.clicks import BEHAVIOURS, clickable_items
from bot.discord_app.client import EXTENSIONS
from bot.discord_app.views import CUSTOM_ID_LIMIT, DYNAMIC_ITEMS, SLOTS, KlaverjasItem, item_class
from bot.texts.catalog import t
from bot.texts.language import Language

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
KINDS = [pytest.param(kind, id=kind.__name__) for kind in DYNAMIC_ITEMS]
SOMETHING_WENT_WRONG = t("error.unknown", Language.EN)


async def built(kind: type[KlaverjasItem[Any]], custom_id: str) -> KlaverjasItem[Any]:
    """The item discord.py builds for a click on ``custom_id``."""
    match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    return await kind.from_custom_id(None, None, match)  # type: ignore[arg-type]


def read(kind: type[KlaverjasItem[Any]], custom_id: str) -> KlaverjasItem[Any]:
    return asyncio.run(built(kind, custom_id))


def sample_id(kind: type[KlaverjasItem[Any]]) -> str:
    """The simplest id ``kind``'s template takes."""
    return find(st.from_regex(kind.__discord_ui_compiled_template__, fullmatch=True), lambda _: True)


def test_there_are_items_and_the_base_is_none_of_them() -> None:
    assert len(DYNAMIC_ITEMS) >= 19 and KlaverjasItem not in DYNAMIC_ITEMS
    assert len({kind.__discord_ui_compiled_template__.pattern for kind in DYNAMIC_ITEMS}) == len(DYNAMIC_ITEMS)


@pytest.mark.parametrize("kind", KINDS)
@SETTINGS
@given(data=st.data())
def test_every_id_a_template_takes_reads_into_the_constructor_and_writes_back_the_same(
        kind: type[KlaverjasItem[Any]], data: st.DataObject) -> None:
    # Any id the template takes (not only the ones a test thought of) is read by name into the constructor, and
    # the item it makes writes exactly that id again: one template, both directions.
    custom_id = data.draw(st.from_regex(kind.__discord_ui_compiled_template__, fullmatch=True))
    item = read(kind, custom_id)
    assert type(item) is kind and item.custom_id == custom_id
    assert len(custom_id) <= CUSTOM_ID_LIMIT and custom_id.isascii()
    assert item_class(custom_id) is kind  # no other item's template takes it
    values = kind.id_template.read(kind.__discord_ui_compiled_template__.fullmatch(custom_id))  # type: ignore[arg-type]
    assert {name: getattr(item, name) for name in values} == values  # the values are the item's attributes
    assert kind.custom_id_for(**values) == custom_id


@pytest.mark.parametrize("kind", KINDS)
def test_a_value_the_template_cannot_take_is_never_written(kind: type[KlaverjasItem[Any]]) -> None:
    values = kind.id_template.read(kind.__discord_ui_compiled_template__.fullmatch(sample_id(kind)))  # type: ignore[arg-type]
    name = next(name for name, value in values.items() if value is not None)
    with pytest.raises(ValueError):
        kind.custom_id_for(**{**values, name: "x:y"})


def test_every_value_a_template_names_is_one_of_the_slots() -> None:
    for kind in DYNAMIC_ITEMS:
        assert set(kind.id_template.names) <= set(SLOTS), kind.__name__
        assert kind.id_template.text.startswith("kj:")


def test_every_item_has_one_behaviour_once_the_cogs_are_loaded() -> None:
    for extension in EXTENSIONS:
        importlib.import_module(extension)
    assert clickable_items() == DYNAMIC_ITEMS
    assert set(BEHAVIOURS) == set(DYNAMIC_ITEMS)


def message_with(item: KlaverjasItem[Any], custom_id: str, dm_user: int | None) -> StoredMessage:
    """A message of the bot carrying ``item``, its id replaced by ``custom_id`` (as a forging client sends it)."""
    component = {**item.to_component_dict(), "custom_id": custom_id}
    return StoredMessage(next_id(), CHANNEL_ID, "", [{"type": 1, "components": [component]}], 0, [], dm_user=dm_user)


def leading_zero(custom_id: str) -> str:
    """``custom_id`` with a zero before its first number (its meaning the same, its spelling not the bot's)."""
    parts = custom_id.split(":")
    first = next((i for i, part in enumerate(parts) if part.isdigit()), len(parts) - 1)
    parts[first] = "0" + parts[first]
    return ":".join(parts)


async def press(h: Harness, item: KlaverjasItem[Any], custom_id: str, *, dm: bool = False) -> str:
    message = message_with(item, custom_id, ANNA.id if dm else None)
    if isinstance(item.item, discord.ui.Select):
        return await h.select(ANNA, message, custom_id, ["N"])
    return await h.click(ANNA, message, custom_id)


@pytest.mark.parametrize("kind", KINDS)
async def test_a_forged_id_of_every_item_is_answered_cleanly(
        kind: type[KlaverjasItem[Any]], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    written = sample_id(kind)  # well formed, for a table, person or entry the bot never wrote it for
    item = await built(kind, written)
    async with Harness(tmp_path / "k.sqlite3") as h:
        with caplog.at_level(logging.WARNING):
            # Spelled another way than the bot writes ids: no item's, answered as an invalid button.
            for forged in (written + ":0", written + "x", leading_zero(written)):
                if item_class(forged) is not None:
                    continue  # that spelling happens to be another id the template takes
                token = await press(h, item, forged)
                assert h.private_replies(token) == [INVALID_BUTTON["en-US"]], forged
            # Well formed but never written, from a server and from a DM: answered, nothing breaks.
            for dm in (False, True):
                token = await press(h, item, written, dm=dm)
                answers = [r.content for r in h.responses_to(token)]
                assert SOMETHING_WENT_WRONG not in answers, (written, dm)
                assert h.responses_to(token), (written, dm)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
