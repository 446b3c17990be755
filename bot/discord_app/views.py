"""Buttons and menus. Each is a DynamicItem whose custom id carries the table (and, for game actions, the
state version), so it keeps working after a restart. A click is handed to the bot object
(``interaction.client.on_click``); no rule of the game is decided here.

Custom ids (all far below Discord's 100 characters; see ``TABLE`` and ``VERSION`` for their numbers):
``kj:l:<table>:<join|leave|ai|start>``, ``kj:b:<table>:<version>:<call>``, ``kj:c:<table>:<version>:<card>``,
``kj:r:<table>:<version>`` (Roem!), ``kj:nr:<table>:<version>`` (No roem, after the last trick),
``kj:back:<table>``, ``kj:h:<table>`` (Show my hand),
``kj:seat:<table>`` (the lobby's seat menu), ``kj:take:<table>`` (take over an AI seat),
``kj:rm:<table>`` (Rematch); on the match-end message ``kj:rp:<table>`` (Replay) and ``kj:ex:<table>``
(Export); on a private replay ``kj:rs:<table>:<viewer>:<position>:<nav>``, where the position is ``s`` (the
score sheet) or ``<hand>-<step>`` and ``nav`` names the button, so no two buttons of a message share an id;
the statistics' ``kj:ss:u:<user>`` or ``kj:ss:ai:<level>`` (share /stats in the channel) and
``kj:lb:<s|g>:<all|month|week>:<page>`` (a page of /leaderboard); ``kj:ms:<table>`` (the match end's Stats:
the presser's own statistics) and ``kj:rv:<table>`` (its Review); ``kj:fm:<user>`` (forget-me's confirmation,
for that user only); ``kj:tp:<entry>`` (a tournament pair's partner confirms the entry).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Protocol

import discord

from bot.discord_app.options import SNOWFLAKE
from bot.texts.catalog import card_text, t
from bot.texts.language import Language
from engine.actions import Call
from engine.ai.players import LEVELS
from engine.cards import SEATS, Card, Seat

CUSTOM_ID_PREFIX = "kj:"
CUSTOM_ID_LIMIT = 100  # Discord's maximum length of a custom id
# Numbers in custom ids are written one way only, as the bot writes them: ASCII digits (``\d`` would take
# Arabic-Indic and other digits, which int() reads), no leading zeros, and within sane bounds. A click with
# any other spelling matches no template and is answered as an invalid button (``handlers.unknown_click``).
TABLE = r"(?P<table>[1-9][0-9]{0,11})"  # table ids count from 1
VERSION = r"(?P<version>0|[1-9][0-9]{0,5})"  # actions in one match: a few hundred
# A Discord id as the store keeps it (a signed 64-bit integer): a longer one would reach the store and fail there.
USER = rf"(?P<user>{SNOWFLAKE})"
# A replay's position: the score sheet, or a hand (a race to a high target can be long) and its step (0: the
# deal and bidding, 1-8: its tricks).
POSITION = r"(?:s|(?P<hand>0|[1-9][0-9]{0,4})-(?P<step>[0-8]))"
LEVEL = rf"(?P<level>{'|'.join(LEVELS)})"
PAGE = r"(?P<page>0|[1-9][0-9]{0,4})"


class LobbyOp(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    AI = "ai"
    START = "start"


LOBBY_LABELS = {LobbyOp.JOIN: "button.join", LobbyOp.LEAVE: "button.leave", LobbyOp.AI: "button.add_ai",
                LobbyOp.START: "button.start"}
LOBBY_STYLES = {LobbyOp.JOIN: discord.ButtonStyle.primary, LobbyOp.START: discord.ButtonStyle.success}


class ClickHandler(Protocol):
    """The bot object, as the buttons see it: where a click goes."""

    async def on_click(self, interaction: discord.Interaction[Any], item: TableItem | StatsItem | ConfirmPairButton,
                       /) -> None: ...


async def clicked(interaction: discord.Interaction[Any], item: TableItem | StatsItem | ConfirmPairButton) -> None:
    handler: ClickHandler = interaction.client
    await handler.on_click(interaction, item)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"kj:l:{TABLE}:(?P<op>join|leave|ai|start)"):
    def __init__(self, table: int, op: LobbyOp, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t(LOBBY_LABELS[op], lang),
                                           style=LOBBY_STYLES.get(op, discord.ButtonStyle.secondary),
                                           custom_id=f"kj:l:{table}:{op}"))
        self.table = table
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["table"]), LobbyOp(match["op"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class BidButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=rf"kj:b:{TABLE}:{VERSION}:(?P<call>pass|play|[CDHS])"):
    def __init__(self, table: int, version: int, call: Call, lang: Language = Language.EN) -> None:
        if call is Call.PASS:
            label, style = t("button.pass", lang), discord.ButtonStyle.secondary
        elif call is Call.PLAY:
            label, style = t("button.play", lang), discord.ButtonStyle.success
        else:
            suit = call.suit
            assert suit is not None
            label, style = suit.symbol, discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"kj:b:{table}:{version}:{call.value}"))
        self.table = table
        self.version = version
        self.call = call

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BidButton:
        return cls(int(match["table"]), int(match["version"]), Call.parse(match["call"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class CardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"kj:c:{TABLE}:{VERSION}:(?P<card>[789TJQKA][CDHS])"):
    def __init__(self, table: int, version: int, card: Card, number: int = 0, enabled: bool = True,
                 lang: str = "en") -> None:
        # The rank letter as the reader's language writes it (B♥ for a Dutch player), like the hand image.
        label = f"{number} · {card_text(card, lang)}" if number else card_text(card, lang)
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
        await clicked(interaction, self)


class RoemButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:r:{TABLE}:{VERSION}"):
    def __init__(self, table: int, version: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.roem", lang), style=discord.ButtonStyle.success,
                                           custom_id=f"kj:r:{table}:{version}"))
        self.table = table
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RoemButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class DeclineButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=rf"kj:nr:{TABLE}:{VERSION}"):
    """No roem: after the last trick, the seat the engine asks lets its claim go and the hand settles."""

    def __init__(self, table: int, version: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.no_roem", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=f"kj:nr:{table}:{version}"))
        self.table = table
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DeclineButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class BackButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:back:{TABLE}"):
    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.back", lang), style=discord.ButtonStyle.success,
                                           custom_id=f"kj:back:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BackButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class ShowHandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:h:{TABLE}"):
    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.show_hand", lang), style=discord.ButtonStyle.primary,
                                           custom_id=f"kj:h:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ShowHandButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class SeatSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"kj:seat:{TABLE}"):
    """The lobby's seat menu: one option per seat, saying who sits there."""

    def __init__(self, table: int, options: Sequence[discord.SelectOption] = (),
                 lang: Language = Language.EN) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"kj:seat:{table}", placeholder=t("seat.menu", lang), min_values=1, max_values=1,
            options=list(options) or [discord.SelectOption(label=seat.letter, value=seat.letter) for seat in SEATS])
        super().__init__(select)
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SeatSelect:
        return cls(int(match["table"]))

    @property
    def seat(self) -> Seat | None:
        """The seat chosen in this click."""
        values = self.item.values
        return Seat.parse(values[0]) if len(values) == 1 and values[0] in {s.letter for s in SEATS} else None

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class TakeSeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:take:{TABLE}"):
    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.take_seat", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=f"kj:take:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TakeSeatButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:rm:{TABLE}"):
    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.rematch", lang), style=discord.ButtonStyle.success,
                                           custom_id=f"kj:rm:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RematchButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:rp:{TABLE}"):
    """On the match-end message: the match's replay, privately, for whoever presses it."""

    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.replay", lang), style=discord.ButtonStyle.primary,
                                           custom_id=f"kj:rp:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class ExportButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:ex:{TABLE}"):
    """On the match-end message: the match's record as a file, privately."""

    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.export", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=f"kj:ex:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ExportButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class ReplayNav(StrEnum):
    """The buttons of a private replay, in the order they are shown."""

    PREV_HAND = "ph"
    PREV = "pt"
    NEXT = "nt"
    NEXT_HAND = "nh"
    SHEET = "sh"


REPLAY_LABELS = {ReplayNav.PREV_HAND: "button.replay_prev_hand", ReplayNav.PREV: "button.replay_prev",
                 ReplayNav.NEXT: "button.replay_next", ReplayNav.NEXT_HAND: "button.replay_next_hand",
                 ReplayNav.SHEET: "button.replay_sheet"}
Position = tuple[int, int] | None  # (hand, step), or None for the score sheet


class ReplayStepButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=rf"kj:rs:{TABLE}:{USER}:{POSITION}:(?P<nav>ph|pt|nt|nh|sh)"):
    """A private replay's button: shows ``position`` of the match to ``viewer``, the one it was made for.

    Everything needed is in the id, so a replay opened before a restart steps on after it."""

    def __init__(self, table: int, viewer: int, position: Position, nav: ReplayNav, lang: Language = Language.EN,
                 enabled: bool = True) -> None:
        where = "s" if position is None else f"{position[0]}-{position[1]}"
        super().__init__(discord.ui.Button(label=t(REPLAY_LABELS[nav], lang), disabled=not enabled,
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"kj:rs:{table}:{viewer}:{where}:{nav}"))
        self.table = table
        self.viewer = viewer
        self.position = position
        self.nav = nav

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayStepButton:
        hand, step = match["hand"], match["step"]
        position = (int(hand), int(step)) if hand is not None and step is not None else None
        return cls(int(match["table"]), int(match["user"]), position, ReplayNav(match["nav"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class ShareStatsButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=rf"kj:ss:(?:u:{USER}|ai:{LEVEL})"):
    """Under a private /stats answer: post the same statistics in the channel, for everyone."""

    def __init__(self, user: int | None, level: str | None, lang: Language = Language.EN) -> None:
        who = f"u:{user}" if user is not None else f"ai:{level}"
        super().__init__(discord.ui.Button(label=t("button.share", lang), style=discord.ButtonStyle.primary,
                                           custom_id=f"kj:ss:{who}"))
        self.user = user
        self.level = level

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ShareStatsButton:
        return cls(int(match["user"]) if match["user"] else None, match["level"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class BoardPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=rf"kj:lb:(?P<scope>s|g):(?P<period>all|month|week):{PAGE}"):
    """/leaderboard's previous and next page: the scope (this server or global), the period and the page."""

    def __init__(self, scope: str, period: str, page: int, label: str = "", enabled: bool = True) -> None:
        super().__init__(discord.ui.Button(label=label or str(page + 1), style=discord.ButtonStyle.secondary,
                                           disabled=not enabled, custom_id=f"kj:lb:{scope}:{period}:{page}"))
        self.scope = scope
        self.period = period
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BoardPageButton:
        return cls(match["scope"], match["period"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class MyStatsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:ms:{TABLE}"):
    """On the match-end message: the presser's own statistics, privately (the match just played included)."""

    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.stats", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=f"kj:ms:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MyStatsButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:rv:{TABLE}"):
    """On the match-end message: the match's review, privately, for whoever presses it."""

    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.review", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=f"kj:rv:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReviewButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


class ForgetMeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:fm:{USER}"):
    """Under the private ``forget-me`` question: go ahead. Only the user it names may press it."""

    def __init__(self, user: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.forget", lang), style=discord.ButtonStyle.danger,
                                           custom_id=f"kj:fm:{user}"))
        self.user = user

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ForgetMeButton:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


ENTRY = r"(?P<entry>[1-9][0-9]{0,11})"  # tournament entry ids count from 1


class ConfirmPairButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"kj:tp:{ENTRY}"):
    """On a tournament pair's invitation: the invited partner confirms (anyone else is told it is not theirs)."""

    def __init__(self, entry: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.confirm_pair", lang), style=discord.ButtonStyle.success,
                                           custom_id=f"kj:tp:{entry}"))
        self.entry = entry

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ConfirmPairButton:
        return cls(int(match["entry"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self)


StatsItem = ShareStatsButton | BoardPageButton | MyStatsButton | ReviewButton | ForgetMeButton
TableItem = (LobbyButton | BidButton | CardButton | RoemButton | DeclineButton | BackButton | ShowHandButton
             | SeatSelect | TakeSeatButton | RematchButton | ReplayButton | ExportButton | ReplayStepButton)
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, BidButton, CardButton, RoemButton, DeclineButton, BackButton, ShowHandButton, SeatSelect,
    TakeSeatButton, RematchButton, ReplayButton, ExportButton, ReplayStepButton, ShareStatsButton, BoardPageButton,
    MyStatsButton, ReviewButton, ForgetMeButton, ConfirmPairButton)


def item_class(custom_id: str) -> type[discord.ui.DynamicItem[Any]] | None:
    """The button or menu whose template ``custom_id`` matches in full, as discord.py matches them; None
    for an id the bot does not write (the templates' bounded numbers keep every match short of 100
    characters)."""
    for item in DYNAMIC_ITEMS:
        if item.__discord_ui_compiled_template__.fullmatch(custom_id):
            return item
    return None


def reaches_an_item(custom_id: str, component_type: object, message: discord.Message | None) -> bool:
    """Whether discord.py hands this click to one of the items above: only when the id matches a template
    and the clicked message carries a component of that type with that id. Any other click it drops."""
    if item_class(custom_id) is None or message is None:
        return False
    components: list[Any] = []
    for component in message.components:
        components.extend(getattr(component, "children", [component]))
    return any(getattr(c, "custom_id", None) == custom_id and c.type.value == component_type for c in components)


def custom_ids_of(message: Mapping[str, Any]) -> list[str]:
    """The custom ids of a message as Discord's REST API returns it (a raw payload)."""
    return [component["custom_id"] for row in message.get("components") or []
            for component in row.get("components") or [] if "custom_id" in component]


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
