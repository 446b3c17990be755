"""Buttons and menus. Each is a DynamicItem whose custom id carries the table (and, for game actions, the
state version), so it keeps working after a restart. Each is one class that says everything about its id once:
its ``template`` (``kj:c:{table}:{version}:{card}``: ``{name}`` a value spelled as ``SLOTS`` says, ``(a|b)``
alternatives, the first whose values are all given being written, the rest as written) is both how the id is
written and how a click's id is read, and the regex discord.py matches clicks with. Defining the class registers
it (``DYNAMIC_ITEMS``). Where a click may come from is its ``place``, checked alike for all; what a click does
is its behaviour, given by its room (``bot.discord_app.clicks.on_click``). No rule of the game is decided here.
Every id stays far below Discord's 100 characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

import discord

from bot.discord_app.options import SNOWFLAKE
from bot.tables.errors import ServiceErrorCode
from bot.texts.catalog import card_text, t
from bot.texts.language import Language
from engine.actions import Call
from engine.ai.players import LEVELS
from engine.cards import SEATS, Card, Seat

CUSTOM_ID_PREFIX = "kj:"
CUSTOM_ID_LIMIT = 100  # Discord's maximum length of a custom id


class LobbyOp(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    AI = "ai"
    START = "start"


LOBBY_LABELS = {LobbyOp.JOIN: "button.join", LobbyOp.LEAVE: "button.leave", LobbyOp.AI: "button.add_ai",
                LobbyOp.START: "button.start"}
LOBBY_STYLES = {LobbyOp.JOIN: discord.ButtonStyle.primary, LobbyOp.START: discord.ButtonStyle.success}


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

# ------------------------------------------------------------------ the values in custom ids

V = TypeVar("V")


@dataclass(frozen=True)
class Slot(Generic[V]):
    """One value in a custom id: its spelling (a regex without capturing groups), and how it is read and written."""

    pattern: str
    read: Callable[[str], V]
    write: Callable[[V], str] = str


def choice_of(values: type[StrEnum]) -> str:
    """A regex taking exactly the values of ``values``."""
    return "|".join(re.escape(value) for value in values)


def read_position(text: str) -> Position:
    hand, _, step = text.partition("-")
    return None if text == "s" else (int(hand), int(step))


def write_position(position: Position) -> str:
    return "s" if position is None else f"{position[0]}-{position[1]}"


# Numbers in custom ids are written one way only, as the bot writes them: ASCII digits (``\d`` would take
# Arabic-Indic and other digits, which int() reads), no leading zeros, and within sane bounds. A click with
# any other spelling matches no template and is answered as an invalid button (``clicks.unknown_click``).
TABLE: Slot[int] = Slot(r"[1-9][0-9]{0,11}", int)  # table ids (and tournament entries) count from 1
VERSION: Slot[int] = Slot(r"0|[1-9][0-9]{0,5}", int)  # actions in one match: a few hundred
# A Discord id as the store keeps it (a signed 64-bit integer): a longer one would reach the store and fail there.
USER: Slot[int] = Slot(SNOWFLAKE, int)
LEVEL: Slot[str] = Slot('|'.join(LEVELS), str)
SLOTS: dict[str, Slot[Any]] = {
    "table": TABLE,
    "entry": TABLE,
    "version": VERSION,
    "user": USER,
    "viewer": USER,
    "op": Slot(choice_of(LobbyOp), LobbyOp),
    "call": Slot(choice_of(Call), Call),
    "card": Slot(r"[789TJQKA][CDHS]", Card.parse, lambda card: card.notation),
    # A replay's position: the score sheet, or a hand (a race to a high target can be long) and its step (0: the
    # deal and bidding, 1-8: its tricks).
    "position": Slot(r"s|(?:0|[1-9][0-9]{0,4})-[0-8]", read_position, write_position),
    "nav": Slot(choice_of(ReplayNav), ReplayNav),
    "level": LEVEL,
    "scope": Slot(r"s|g", str),
    "period": Slot(r"all|month|week", str),
    "page": Slot(r"0|[1-9][0-9]{0,4}", int),
}


@dataclass(frozen=True)
class Value:
    """``{name}`` in a template: the value ``SLOTS[name]`` spells."""

    name: str


@dataclass(frozen=True)
class Either:
    """``(a|b)`` in a template: one of its options (the first whose values are all given is written)."""

    options: tuple[tuple[Part, ...], ...]


Part = str | Value | Either


class IdTemplate:
    """A custom id's one description, read from its template text: the regex discord.py matches clicks with,
    the values of a match, and the id of given values."""

    TOKEN = re.compile(r"\{(\w+)\}|[(|)]|[^{}(|)]+")

    def __init__(self, text: str) -> None:
        self.text = text
        self.parts = self._parse(text)
        self.names = names_in(self.parts)
        self.regex = re.compile(regex_of(self.parts))

    @classmethod
    def _parse(cls, text: str) -> tuple[Part, ...]:
        sequences: list[list[Part]] = [[]]  # the innermost last: the sequence being read in each open "("
        options: list[list[tuple[Part, ...]]] = []  # the options read so far of each open "("
        end = 0
        for token in cls.TOKEN.finditer(text):
            if token.start() != end:
                break
            end = token.end()
            word = token.group()
            if token.group(1) is not None:
                if token.group(1) not in SLOTS:
                    raise ValueError(f"template {text!r}: no value named {token.group(1)!r} in SLOTS")
                sequences[-1].append(Value(token.group(1)))
            elif word == "(":
                options.append([])
                sequences.append([])
            elif word in ("|", ")"):
                if not options:
                    raise ValueError(f"template {text!r}: {word!r} outside parentheses")
                options[-1].append(tuple(sequences.pop()))
                if word == "|":
                    sequences.append([])
                else:
                    sequences[-1].append(Either(tuple(options.pop())))
            else:
                sequences[-1].append(word)
        if end != len(text) or options:
            raise ValueError(f"unreadable template {text!r}")
        return tuple(sequences[0])

    def read(self, match: re.Match[str]) -> dict[str, Any]:
        """The values of a matched id (None for those of an option not taken)."""
        return {name: None if match[name] is None else SLOTS[name].read(match[name]) for name in self.names}

    def write(self, values: Mapping[str, Any]) -> str:
        """The id of ``values``. It must read back as them, as every id the bot writes does."""
        custom_id = write_parts(self.parts, values)
        if self.regex.fullmatch(custom_id) is None:
            raise ValueError(f"{custom_id!r} is no id of the template {self.text!r}")
        return custom_id


def names_in(parts: Sequence[Part]) -> list[str]:
    names: list[str] = []
    for part in parts:
        if isinstance(part, Value):
            names.append(part.name)
        elif isinstance(part, Either):
            names.extend(name for option in part.options for name in names_in(option))
    return names


def regex_of(parts: Sequence[Part]) -> str:
    def one(part: Part) -> str:
        if isinstance(part, Value):
            return f"(?P<{part.name}>{SLOTS[part.name].pattern})"
        if isinstance(part, Either):
            return "(?:" + "|".join(regex_of(option) for option in part.options) + ")"
        return re.escape(part)
    return "".join(one(part) for part in parts)


def write_parts(parts: Sequence[Part], values: Mapping[str, Any]) -> str:
    def one(part: Part) -> str:
        if isinstance(part, Value):
            return SLOTS[part.name].write(values[part.name])
        if isinstance(part, Either):
            for option in part.options:
                if all(values.get(name) is not None for name in names_in(option)):
                    return write_parts(option, values)
            raise ValueError(f"none of {part.options!r} has all its values in {dict(values)!r}")
        return part
    return "".join(one(part) for part in parts)


# ------------------------------------------------------------------ the items


class Place(Enum):
    """Where a click on an item may come from: checked for every item alike before its behaviour runs
    (``bot.discord_app.clicks``); the value is the refusal from anywhere else."""

    ANYWHERE = None  # the clicker's own business (their data, their invitation): no table, a DM will do
    SERVER = ServiceErrorCode.NOT_HERE  # a server's figures: not from a DM
    TABLE = ServiceErrorCode.NO_TABLE  # a table's: from anywhere but its own place, as if there were no such table
    MATCH = ServiceErrorCode.NO_MATCH  # a match's that is over: likewise, as if there were no such match


class ClickHandler(Protocol):
    """The bot object, as the items see it: where a click goes."""

    async def on_click(self, interaction: discord.Interaction[Any], item: KlaverjasItem[Any], /) -> None: ...


ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any], covariant=True)
DYNAMIC_ITEMS: list[type[KlaverjasItem[Any]]] = []  # every item class, in the order they are defined
NO_ID = r"(?!)"  # the base class is no item of its own: its template matches nothing


class KlaverjasItem(discord.ui.DynamicItem[ItemT], template=NO_ID):
    """One of the bot's buttons or menus. A subclass gives its id's ``template`` (the one place its id is spelled:
    the constructor writes ``custom_id_for(...)``, a click is read back into the constructor's arguments by
    name), its ``place`` and, for a table's item, whether the table may be live. Defining the class registers it
    (``DYNAMIC_ITEMS``); its room says what a click on it does (``bot.discord_app.clicks.on_click``)."""

    id_template: ClassVar[IdTemplate]
    place: ClassVar[Place] = Place.TABLE
    # A live table's item: the table (which another process may have opened a moment ago) is fetched before the
    # check, and a refusal names its people. False for the match-end items read from the store.
    live: ClassVar[bool] = True

    def __init_subclass__(cls, *, template: str, **kwargs: Any) -> None:
        if not template.startswith(CUSTOM_ID_PREFIX):
            raise TypeError(f"{cls.__name__}: a template starts with {CUSTOM_ID_PREFIX!r}")
        cls.id_template = IdTemplate(template)
        if cls.place in (Place.TABLE, Place.MATCH) and "table" not in cls.id_template.names:
            raise TypeError(f"{cls.__name__}: a table's item names its table in its id")
        super().__init_subclass__(template=cls.id_template.regex, **kwargs)
        DYNAMIC_ITEMS.append(cls)

    @classmethod
    def custom_id_for(cls, **values: Any) -> str:
        return cls.id_template.write(values)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(**cls.id_template.read(match))

    @property
    def table_id(self) -> int | None:
        """The table the click is about, for an item whose place is a table's."""
        table = getattr(self, "table", None)
        return table if isinstance(table, int) else None

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler: ClickHandler = interaction.client
        await handler.on_click(interaction, self)


class LobbyButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:l:{table}:{op}"):
    def __init__(self, table: int, op: LobbyOp, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t(LOBBY_LABELS[op], lang),
                                           style=LOBBY_STYLES.get(op, discord.ButtonStyle.secondary),
                                           custom_id=self.custom_id_for(table=table, op=op)))
        self.table = table
        self.op = op


class BidButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:b:{table}:{version}:{call}"):
    def __init__(self, table: int, version: int, call: Call, lang: Language = Language.EN) -> None:
        if call is Call.PASS:
            label, style = t("button.pass", lang), discord.ButtonStyle.secondary
        elif call is Call.PLAY:
            label, style = t("button.play", lang), discord.ButtonStyle.success
        else:
            suit = call.suit
            assert suit is not None
            label, style = suit.symbol, discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=self.custom_id_for(table=table, version=version, call=call)))
        self.table = table
        self.version = version
        self.call = call


class CardButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:c:{table}:{version}:{card}"):
    def __init__(self, table: int, version: int, card: Card, number: int = 0, enabled: bool = True,
                 lang: str = "en") -> None:
        # The rank letter as the reader's language writes it (B♥ for a Dutch player), like the hand image.
        label = f"{number} · {card_text(card, lang)}" if number else card_text(card, lang)
        super().__init__(discord.ui.Button(label=label, disabled=not enabled,
                                           style=discord.ButtonStyle.primary if enabled
                                           else discord.ButtonStyle.secondary,
                                           custom_id=self.custom_id_for(table=table, version=version, card=card)))
        self.table = table
        self.version = version
        self.card = card


class RoemButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:r:{table}:{version}"):
    def __init__(self, table: int, version: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.roem", lang), style=discord.ButtonStyle.success,
                                           custom_id=self.custom_id_for(table=table, version=version)))
        self.table = table
        self.version = version


class DeclineButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:nr:{table}:{version}"):
    """No roem: after the last trick, the seat the engine asks lets its claim go and the hand settles."""

    def __init__(self, table: int, version: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.no_roem", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=self.custom_id_for(table=table, version=version)))
        self.table = table
        self.version = version


class BackButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:back:{table}"):
    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.back", lang), style=discord.ButtonStyle.success,
                                           custom_id=self.custom_id_for(table=table)))
        self.table = table


class ShowHandButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:h:{table}"):
    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.show_hand", lang), style=discord.ButtonStyle.primary,
                                           custom_id=self.custom_id_for(table=table)))
        self.table = table


class SeatSelect(KlaverjasItem[discord.ui.Select[Any]], template="kj:seat:{table}"):
    """The lobby's seat menu: one option per seat, saying who sits there."""

    def __init__(self, table: int, options: Sequence[discord.SelectOption] = (),
                 lang: Language = Language.EN) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=self.custom_id_for(table=table), placeholder=t("seat.menu", lang), min_values=1, max_values=1,
            options=list(options) or [discord.SelectOption(label=seat.letter, value=seat.letter) for seat in SEATS])
        super().__init__(select)
        self.table = table

    @property
    def seat(self) -> Seat | None:
        """The seat chosen in this click."""
        values = self.item.values
        return Seat.parse(values[0]) if len(values) == 1 and values[0] in {s.letter for s in SEATS} else None


class TakeSeatButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:take:{table}"):
    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.take_seat", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=self.custom_id_for(table=table)))
        self.table = table


class PlayHereButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:act:{table}"):
    """"Play here": the table as an Activity in this channel (answered with Discord's launch of the Activity)."""

    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.play_here", lang), style=discord.ButtonStyle.primary,
                                           custom_id=self.custom_id_for(table=table)))
        self.table = table


class RematchButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:rm:{table}"):
    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.rematch", lang), style=discord.ButtonStyle.success,
                                           custom_id=self.custom_id_for(table=table)))
        self.table = table


class ReplayButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:rp:{table}"):
    """On the match-end message: the match's replay, privately, for whoever presses it."""

    place = Place.MATCH

    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.replay", lang), style=discord.ButtonStyle.primary,
                                           custom_id=self.custom_id_for(table=table)))
        self.table = table


class ExportButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:ex:{table}"):
    """On the match-end message: the match's record as a file, privately."""

    place = Place.MATCH

    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.export", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=self.custom_id_for(table=table)))
        self.table = table


class ReplayStepButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:rs:{table}:{viewer}:{position}:{nav}"):
    """A private replay's button: shows ``position`` of the match to ``viewer``, the one it was made for.

    Everything needed is in the id, so a replay opened before a restart steps on after it; ``nav`` names the
    button, so no two buttons of a message share an id."""

    place = Place.MATCH

    def __init__(self, table: int, viewer: int, position: Position, nav: ReplayNav, lang: Language = Language.EN,
                 enabled: bool = True) -> None:
        super().__init__(discord.ui.Button(label=t(REPLAY_LABELS[nav], lang), disabled=not enabled,
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=self.custom_id_for(table=table, viewer=viewer,
                                                                        position=position, nav=nav)))
        self.table = table
        self.viewer = viewer
        self.position = position
        self.nav = nav


class ShareStatsButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:ss:(u:{user}|ai:{level})"):
    """Under a private /stats answer: post the same statistics in the channel, for everyone."""

    place = Place.SERVER

    def __init__(self, user: int | None, level: str | None, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.share", lang), style=discord.ButtonStyle.primary,
                                           custom_id=self.custom_id_for(user=user, level=level)))
        self.user = user
        self.level = level


class BoardPageButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:lb:{scope}:{period}:{page}"):
    """/leaderboard's previous and next page: the scope (this server or global), the period and the page."""

    place = Place.SERVER

    def __init__(self, scope: str, period: str, page: int, label: str = "", enabled: bool = True) -> None:
        super().__init__(discord.ui.Button(label=label or str(page + 1), style=discord.ButtonStyle.secondary,
                                           disabled=not enabled,
                                           custom_id=self.custom_id_for(scope=scope, period=period, page=page)))
        self.scope = scope
        self.period = period
        self.page = page


class MyStatsButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:ms:{table}"):
    """On the match-end message: the presser's own statistics, privately (the match just played included)."""

    live = False

    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.stats", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=self.custom_id_for(table=table)))
        self.table = table


class ReviewButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:rv:{table}"):
    """On the match-end message: the match's review, privately, for whoever presses it."""

    place = Place.MATCH
    live = False

    def __init__(self, table: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.review", lang), style=discord.ButtonStyle.secondary,
                                           custom_id=self.custom_id_for(table=table)))
        self.table = table


class ForgetMeButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:fm:{user}"):
    """Under the private ``forget-me`` question: go ahead. Only the user it names may press it."""

    place = Place.ANYWHERE

    def __init__(self, user: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.forget", lang), style=discord.ButtonStyle.danger,
                                           custom_id=self.custom_id_for(user=user)))
        self.user = user


class ConfirmPairButton(KlaverjasItem[discord.ui.Button[Any]], template="kj:tp:{entry}"):
    """On a tournament pair's invitation: the invited partner confirms (anyone else is told it is not theirs)."""

    place = Place.ANYWHERE

    def __init__(self, entry: int, lang: Language = Language.EN) -> None:
        super().__init__(discord.ui.Button(label=t("button.confirm_pair", lang), style=discord.ButtonStyle.success,
                                           custom_id=self.custom_id_for(entry=entry)))
        self.entry = entry


def item_class(custom_id: str) -> type[KlaverjasItem[Any]] | None:
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


def browser_button(url: str, lang: Language, key: str = "button.open_browser") -> discord.ui.Button[Any]:
    """"Open in browser" (``key``: another label): a link button (Discord opens it; no click reaches the bot), on
    the last row."""
    return discord.ui.Button(label=t(key, lang), style=discord.ButtonStyle.link, url=url, row=4)
