"""Buttons. Each is a DynamicItem whose custom id carries the table (and, for game actions, the state
version), so it keeps working after a restart. A click only becomes a call into ``bot.discord_app.handlers``;
no rule of the game is decided here.

Custom ids (all far below Discord's 100 characters):
``kj:l:<table>:<join|leave|ai|start>``, ``kj:b:<table>:<version>:<call>``, ``kj:c:<table>:<version>:<card>``,
``kj:r:<table>:<version>`` (Roem!), ``kj:back:<table>``, ``kj:h:<table>`` (Show my hand),
``kj:seat:<table>`` (the lobby's seat menu), ``kj:take:<table>`` (take over an AI seat),
``kj:rm:<table>`` (Rematch).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.texts.catalog import t
from engine.actions import Call
from engine.cards import SEATS, Card, Seat

LOBBY_OPS = ("join", "leave", "ai", "start")


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kj:l:(?P<table>\d+):(?P<op>[a-z]+)"):
    def __init__(self, table: int, op: str, lang: str = "en") -> None:
        labels = {"join": "button.join", "leave": "button.leave", "ai": "button.add_ai", "start": "button.start"}
        styles = {"join": discord.ButtonStyle.primary, "start": discord.ButtonStyle.success}
        super().__init__(discord.ui.Button(label=t(labels.get(op, "button.join"), lang),
                                           style=styles.get(op, discord.ButtonStyle.secondary),
                                           custom_id=f"kj:l:{table}:{op}"))
        self.table = table
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["table"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import handlers

        await handlers.lobby_click(interaction, self.table, self.op)


class BidButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"kj:b:(?P<table>\d+):(?P<version>\d+):(?P<call>pass|play|[CDHS])"):
    def __init__(self, table: int, version: int, call: Call, lang: str = "en") -> None:
        if call is Call.PASS:
            label, emoji, style = t("button.pass", lang), None, discord.ButtonStyle.secondary
        elif call is Call.PLAY:
            label, emoji, style = t("button.play", lang), None, discord.ButtonStyle.success
        else:
            suit = call.suit
            assert suit is not None
            label, emoji, style = suit.symbol, None, discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=style,
                                           custom_id=f"kj:b:{table}:{version}:{call.value}"))
        self.table = table
        self.version = version
        self.call = call

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BidButton:
        return cls(int(match["table"]), int(match["version"]), Call.parse(match["call"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import handlers

        await handlers.action_click(interaction, self.table, self.version, self.call)


class CardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"kj:c:(?P<table>\d+):(?P<version>\d+):(?P<card>[789TJQKA][CDHS])"):
    def __init__(self, table: int, version: int, card: Card, number: int = 0, enabled: bool = True) -> None:
        label = f"{number} · {card.symbol}" if number else card.symbol
        super().__init__(discord.ui.Button(label=label, disabled=not enabled,
                                           style=discord.ButtonStyle.primary if enabled
                                           else discord.ButtonStyle.secondary,
                                           custom_id=f"kj:c:{table}:{version}:{card.notation}"))
        self.table = table
        self.version = version
        self.card = card

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CardButton:
        return cls(int(match["table"]), int(match["version"]), Card.parse(match["card"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import handlers

        await handlers.action_click(interaction, self.table, self.version, self.card)


class RoemButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kj:r:(?P<table>\d+):(?P<version>\d+)"):
    def __init__(self, table: int, version: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("button.roem", lang), style=discord.ButtonStyle.success,
                                           custom_id=f"kj:r:{table}:{version}"))
        self.table = table
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RoemButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import handlers

        await handlers.roem_click(interaction, self.table, self.version)


class BackButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kj:back:(?P<table>\d+)"):
    def __init__(self, table: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("button.back", lang), style=discord.ButtonStyle.success,
                                           custom_id=f"kj:back:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BackButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import handlers

        await handlers.back_click(interaction, self.table)


class ShowHandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kj:h:(?P<table>\d+)"):
    def __init__(self, table: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("button.show_hand", lang), style=discord.ButtonStyle.primary,
                                           custom_id=f"kj:h:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ShowHandButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import handlers

        await handlers.show_hand_click(interaction, self.table)


class SeatSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"kj:seat:(?P<table>\d+)"):
    """The lobby's seat menu: one option per seat, saying who sits there."""

    def __init__(self, table: int, options: Sequence[discord.SelectOption] = (), lang: str = "en") -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"kj:seat:{table}", placeholder=t("seat.menu", lang), min_values=1, max_values=1,
            options=list(options) or [discord.SelectOption(label=seat.letter, value=seat.letter) for seat in SEATS])
        super().__init__(select)
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SeatSelect:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import handlers

        values = self.item.values
        seat = Seat.parse(values[0]) if values and values[0] in "NESW" else None
        await handlers.seat_choice(interaction, self.table, seat)


class TakeSeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kj:take:(?P<table>\d+)"):
    def __init__(self, table: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("button.take_seat", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=f"kj:take:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TakeSeatButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import handlers

        await handlers.take_seat(interaction, self.table, None)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"kj:rm:(?P<table>\d+)"):
    def __init__(self, table: int, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(label=t("button.rematch", lang), style=discord.ButtonStyle.success,
                                           custom_id=f"kj:rm:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RematchButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import handlers

        await handlers.rematch_click(interaction, self.table)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, BidButton, CardButton, RoemButton, BackButton, ShowHandButton, SeatSelect, TakeSeatButton,
    RematchButton)


def view_of(items: Sequence[discord.ui.Item[Any]], per_row: int = 5) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for index, item in enumerate(items):
        item.row = index // per_row
        view.add_item(item)
    return view


def rows_of(*rows: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view with each sequence of items on its own row (a select fills a row alone)."""
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for item in row:
            item.row = number
            view.add_item(item)
    return view
