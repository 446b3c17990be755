"""Every click on one of the bot's buttons and menus (``bot.discord_app.views``), one way: the check of where it
comes from that the item's ``place`` asks for, then what the item does, and any refusal or failure answered by
the one error path (``bot.discord_app.failures``).

What an item does is given once, by the room it belongs to, next to the rest of that room's behaviour::

    @on_click(RoemButton)
    async def roem_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: RoemButton) -> None: ...

The item classes sit below the messages that show them and their behaviour above the messages it answers with,
so the behaviour names its item here rather than the item importing its behaviour (that would be an import
cycle). The client registers the items only once every one has its behaviour (``clickable_items``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.discord_app.context import KlaverjasApp, check_place
from bot.discord_app.failures import UnknownComponent, answer_failure
from bot.discord_app.views import CUSTOM_ID_PREFIX, DYNAMIC_ITEMS, KlaverjasItem, Place, reaches_an_item
from bot.tables.errors import ServiceError

log = logging.getLogger(__name__)

ItemT = TypeVar("ItemT", bound=KlaverjasItem[Any])
Behaviour = Callable[[KlaverjasApp, discord.Interaction[Any], ItemT], Awaitable[None]]
BEHAVIOURS: dict[type[KlaverjasItem[Any]], Behaviour[Any]] = {}


def on_click(kind: type[ItemT]) -> Callable[[Behaviour[ItemT]], Behaviour[ItemT]]:
    """What a click on ``kind`` does, given once: the decorated function, called after the place check."""
    def register(behaviour: Behaviour[ItemT]) -> Behaviour[ItemT]:
        if kind in BEHAVIOURS:
            raise TypeError(f"{kind.__name__} already does {BEHAVIOURS[kind].__qualname__}")
        BEHAVIOURS[kind] = behaviour
        return behaviour
    return register


def clickable_items() -> list[type[KlaverjasItem[Any]]]:
    """The items to register with discord.py, once every room is loaded: all of them, each with its behaviour
    (an item without one would be shown and then do nothing, so the bot does not start)."""
    missing = [kind.__name__ for kind in DYNAMIC_ITEMS if kind not in BEHAVIOURS]
    if missing:
        raise TypeError(f"no behaviour for {', '.join(missing)}: give one with @on_click in its room")
    return list(DYNAMIC_ITEMS)


async def handle_click(app: KlaverjasApp, interaction: discord.Interaction[Any], item: KlaverjasItem[Any]) -> None:
    """Every button and menu of the bot: do what it says, or answer privately why not."""
    try:
        await check_click_place(app, interaction, item)
    except Exception as error:
        await answer_failure(interaction, error)
        return
    try:
        await BEHAVIOURS[type(item)](app, interaction, item)
    except Exception as error:
        table_id = item.table_id
        table = app.service.tables.get(table_id) if item.live and table_id is not None else None
        await answer_failure(interaction, error, table)


async def check_click_place(app: KlaverjasApp, interaction: discord.Interaction[Any],
                            item: KlaverjasItem[Any]) -> None:
    """The one check of where a click comes from (``context.at_home``): another server's table, or one clicked
    in a DM that is not the clicker's own for it, is refused as a missing one would be (a match's buttons as a
    missing match), and nothing is done; a server's figures are refused in a DM."""
    place, table_id = item.place, item.table_id
    if place is Place.SERVER and interaction.guild_id is None:
        raise ServiceError(Place.SERVER.value)
    if place not in (Place.TABLE, Place.MATCH) or table_id is None:
        return  # no table: the clicker's own data, or the figures of the server clicked in
    if item.live:
        await app.service.fetch(table_id)  # opened by another process a moment ago: kept here from now on
    table = app.service.tables.get(table_id) or await app.store.load_table(table_id)
    if table is None:
        return  # refused as unknown by what handles the click
    check_place(interaction, table, place.value)


async def unknown_click(interaction: discord.Interaction[Any]) -> None:
    """A click on one of the bot's ids that no item will handle: discord.py drops it without a word (the
    player would see "This interaction failed"), so it is answered here, privately."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id.startswith(CUSTOM_ID_PREFIX):
        return  # not the bot's
    if reaches_an_item(custom_id, data.get("component_type"), interaction.message):
        return  # handle_click answers it
    log.info("a click on an id no button handles: %.100r", custom_id)
    await answer_failure(interaction, UnknownComponent(custom_id))
