"""A hostile session, through the offline harness: random people send random commands and forged clicks throughout
whole matches and a tournament, while the seated players play their turns; after every step the test checks that
nobody saw a card they should not, that nothing changed that the actor had no right to change, and at the end that
every table's stored record replays to the same match.

The people: Anna (hosts the table, creates the tournament), Bert and Chris (seated at the start), Eva (an onlooker in
the same server), Alt (a second account of Anna: to the bot just another member), Olaf (a member of another server:
every interaction of his comes from that server). Anyone may also act from a direct message with the bot. Who is
"seated" or "left" follows from what they do: any of them may join, leave, take seats, vote, start tables, enter the
tournament. The steps (drawn by hypothesis): a seated player playing a turn through the buttons they see (a bid, a
card, Roem!/No roem), every ``/klaverjas`` subcommand, ``/stats``, ``/leaderboard`` and the tournament commands with
random or forged options, autocomplete, and clicks on custom ids the bot wrote — real ones and forged ones: another
table's id, another version (old and new), another card or seat, ids from messages that were sent to someone else
(another player's DM or ephemeral hand), from another server or a DM. Two moves a cheat makes on purpose are steps
of their own: leave and take another seat the moment a hand is dealt, and vote to stop then leave.

How cards are recognised (``Witness``). Every request the bot makes goes through the fake Discord; each is given an
audience: everyone (a post or edit in a channel or thread), or the people who see it (a DM's owner; an ephemeral
answer's or an interaction update's clicker; an autocomplete's typer). A message carries cards in three ways:

- card buttons ``kj:c:<table>:<version>:<card>``: the table and, from the version, the hand, exactly;
- images: the renderer is instrumented (``rendering.images``): each card face drawn into an image is recorded
  with the view it was drawn from (a seat's own hand, the deal, or the public view) and the PNG's bytes, so the
  cards of every attached image are known exactly without reading pixels (images are attributed to the hand of a
  table whose deal they match);
- card names in text (``J♥``, ``10♠``, Dutch ``B♥``): attributed to the table of the message (its ids, its
  thread, the interaction's thread, else any table) and to any hand that table was in during the step;
  a card the person typed themselves (``play card:``) may be echoed back.

A card of hand ``k`` of table ``T`` may go to everyone once it was played; to a person privately when it was played,
or when it is in the hand of the one seat that person sat in during hand ``k`` (a person who sees cards of two
seats of one hand has seen a hand that is not theirs, whatever seat they hold now). A table that is over is public,
except a tournament table while its tournament is open (everyone plays the same deals).

What someone may change (``Rights``): only a table of the server they act in (a click from a DM only on their own
DM hand); a human action only from the seat they held; seats only their own (sitting in an empty or AI seat,
leaving theirs); the host starts, adds AI players and stops; a stop by votes needs a majority of the humans now
seated (votes of people who left count no more); new tables are hosted by the actor; tournament entries are the
actor's own. Every step is checked against the state before it.

Also checked: under declared roem nothing says a trick holds roem before a claim, and the question after the last
trick comes after every hand or none; an open tournament's standings show another entry's total only over the hands
the viewer has finished; an exported record file counts as showing every card of its deals; at the end every
table's stored record replays (``engine.record``) to the same actions.

Runs a few hundred steps in CI. A long run, with hypothesis's shrinking, on demand::

    KLAVERJAS_HOSTILE_STEPS=5000 KLAVERJAS_HOSTILE_EXAMPLES=20 pytest -q tests/bot/test_hostile_session.py

(``KLAVERJAS_HOSTILE_STEPS``: the steps of all examples together; ``KLAVERJAS_HOSTILE_EXAMPLES``: how many
sessions; either set also turns on shrinking and random seeds.) To explore, ``KLAVERJAS_HOSTILE_COLLECT=1`` goes on
after a violation and lists each kind once at the end, and ``KLAVERJAS_HOSTILE_ONLY=seat,"two hands"`` looks for
those kinds alone, so that hypothesis shrinks an example of each; ``KLAVERJAS_HOSTILE_VERBOSE=1`` prints what each
session checked. The kinds: card, two hands, card in
text, other server, seat, actions, status, stop, votes kept, new table, tournament, roem, roem question, standings,
witness (the test's own bookkeeping).
"""

from __future__ import annotations

import asyncio
import bisect
import copy
import hashlib
import itertools
import json
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import ALL_PERMISSIONS, CHANNEL_ID, EPHEMERAL, GUILD_ID, FakeDiscord, Harness, Request, StoredMessage, User
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

import rendering.images as images
import rendering.review
import rendering.standings
import rendering.stats
from bot.fake_discord.wire import THREAD
from bot.tables.model import Actor, SeatKind, Table, TableStatus
from bot.texts.catalog import parse_card_text
from bot.tournaments.model import TournamentStatus
from engine.actions import Claim, Deal, Decline
from engine.cards import DECK, SEATS, Card, Seat, cards_of
from engine.game import Game
from engine.record import export_record, game_from_record

ANNA = User(3001, "Anna")
BERT = User(3002, "Bert")
CHRIS = User(3003, "Chris", locale="nl")
EVA = User(3004, "Eva")
ALT = User(3005, "Anna")  # Anna's second account
OLAF = User(3006, "Olaf")  # a member of another server
CAST = (ANNA, BERT, CHRIS, EVA, ALT, OLAF)
BY_ID = {user.id: user for user in CAST}
OTHER_GUILD = 915000000000000001
OTHER_CHANNEL = 925000000000000001
DM_BASE = 945000000000000000  # a person's DM channel with the bot: DM_BASE + their id

TOTAL_STEPS = int(os.environ.get("KLAVERJAS_HOSTILE_STEPS", "480"))
EXAMPLES = int(os.environ.get("KLAVERJAS_HOSTILE_EXAMPLES", "3"))
LONG_RUN = "KLAVERJAS_HOSTILE_STEPS" in os.environ or "KLAVERJAS_HOSTILE_EXAMPLES" in os.environ
# Exploring: COLLECT goes on after a violation and reports each kind once at the end; ONLY (comma-separated kinds,
# e.g. "seat,two hands") looks for those alone, so hypothesis shrinks an example of each.
COLLECT = os.environ.get("KLAVERJAS_HOSTILE_COLLECT") == "1"
ONLY = {kind for kind in os.environ.get("KLAVERJAS_HOSTILE_ONLY", "").split(",") if kind}
SHRINK = os.environ.get("KLAVERJAS_HOSTILE_SHRINK", "1" if LONG_RUN else "0") == "1"
STEPS = max(20, TOTAL_STEPS // EXAMPLES)

PUBLIC = -1  # the audience of a post in a channel or thread
# The catalog's words for "this trick holds roem, claim it" (trick.roem_claim), in English and Dutch.
ROEM_HINT = re.compile(r"if they claim it|als ze die melden")
# A standings row with a total (tournament.row, tournament.row_playing): "1. Bert — 73", "· Bert — 63 after 1 hand".
STANDINGS_ROW = re.compile(r"^(?:\d+\.|·) (.+?) — (-?\d+)(?=$| \(| after | na )", re.MULTILINE)
CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(10|[789JQKABVH])([♣♦♥♠])")
SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
DUTCH = {"B": "J", "V": "Q", "H": "K"}


def cards_in_text(text: str) -> set[Card]:
    found = set()
    for rank, suit in CARD_TEXT.findall(text):
        letter = "T" if rank == "10" else rank
        for candidate in {letter, DUTCH.get(letter, letter)}:  # H♥ is a Dutch king; no English rank is H
            if candidate in "789TJQKA":
                found.add(Card.parse(candidate + SUITS[suit]))
    return found


# ------------------------------------------------------------------ what was drawn into each image


@dataclass(frozen=True)
class Drawn:
    hand_number: int | None  # None: unknown (any hand)
    private: dict[Seat, frozenset[Card]]  # the seats' own cards the image was drawn from (hand, deal)
    cards: frozenset[Card]  # every card face drawn


class Drawings:
    """Instruments ``rendering.images``: each PNG it encodes is remembered with the cards drawn into it."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.by_digest: dict[str, Drawn] = {}
        self.lock = threading.Lock()

    def of(self, data: bytes) -> Drawn | None:
        with self.lock:
            return self.by_digest.get(hashlib.sha256(data).hexdigest())

    @contextmanager
    def installed(self) -> Iterator[None]:
        local = self.local
        saved = {name: getattr(images, name) for name in ("_place_card", "_palette_sample", "to_png",
                                                          "render_hand_image", "render_trick_image",
                                                          "render_table_image", "render_deal_image")}

        def place(img: Any, card: Card, *args: Any, **kwargs: Any) -> None:
            if not getattr(local, "sampling", False):
                local.cards = [*(getattr(local, "cards", None) or []), card]
            saved["_place_card"](img, card, *args, **kwargs)

        def palette(theme: Any) -> Any:  # the theme's colour sample draws every card: not part of any image
            local.sampling = True
            try:
                return saved["_palette_sample"](theme)
            finally:
                local.sampling = False

        def context(name: str, private_of: Callable[[Any], dict[Seat, frozenset[Card]]]) -> Callable[..., Any]:
            def render(view: Any, *args: Any, **kwargs: Any) -> Any:
                first = view[0] if isinstance(view, list | tuple) else view
                local.context = (first.hand_number, private_of(view))
                local.cards = []
                return saved[name](view, *args, **kwargs)
            return render

        def to_png(img: Any, *args: Any, **kwargs: Any) -> bytes:
            data: bytes = saved["to_png"](img, *args, **kwargs)
            # An image drawn by a renderer not wrapped here has no context: its cards are checked against every hand.
            context = getattr(local, "context", None) or (None, {})
            drawn = Drawn(context[0], context[1], frozenset(getattr(local, "cards", None) or ()))
            with self.lock:
                self.by_digest[hashlib.sha256(data).hexdigest()] = drawn
            local.context, local.cards = None, None
            return data

        replaced = {
            "_place_card": place, "_palette_sample": palette, "to_png": to_png,
            "render_hand_image": context("render_hand_image", lambda v: {v.seat: frozenset(v.hand)}),
            "render_deal_image": context("render_deal_image", lambda vs: {v.seat: frozenset(v.hand) for v in vs}),
            "render_trick_image": context("render_trick_image", lambda v: {}),
            "render_table_image": context("render_table_image", lambda v: {}),
        }
        for name, function in replaced.items():
            setattr(images, name, function)
        # The other renderers (standings, statistics, review) draw no card faces; their images are known too.
        others = [rendering.standings, rendering.stats, rendering.review]
        for module in others:
            module.to_png = to_png  # type: ignore[attr-defined]
        try:
            yield
        finally:
            for name, function in saved.items():
                setattr(images, name, function)
            for module in others:
                module.to_png = saved["to_png"]  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the tables as the test knows them


def deal_starts(table: Table) -> list[int]:
    return [i for i, action in enumerate(table.game.actions) if isinstance(action, Deal)]


def hand_at(table: Table, version: int) -> int:
    """The hand a button made at ``version`` belongs to (-1: before the first deal)."""
    return bisect.bisect_left(deal_starts(table), version) - 1


def played(table: Table, hand: int) -> set[Card]:
    starts = deal_starts(table)
    if not 0 <= hand < len(starts):
        return set()
    end = starts[hand + 1] if hand + 1 < len(starts) else len(table.game.actions)
    return {a for a in table.game.actions[starts[hand]:end] if isinstance(a, Card)}


def dealt(table: Table, hand: int) -> dict[Seat, set[Card]]:
    if not 0 <= hand < len(table.game.hands):
        return {}
    deal = table.game.hands[hand].deal
    return {seat: set(cards_of(deal[seat])) for seat in SEATS}


def seat_acting(table: Table, index: int) -> Seat | None:
    """The seat whose action ``table.game.actions[index]`` is."""
    action = table.game.actions[index]
    if isinstance(action, Claim | Decline):
        return action.seat
    game = Game(table.game.rules)
    game.apply_all(table.game.actions[:index])
    return game.to_act


@dataclass(frozen=True)
class SeatSnap:
    kind: SeatKind
    user_id: int | None
    pending: int | None
    away: bool
    delivery: str


@dataclass(frozen=True)
class TableSnap:
    guild: int | None
    status: TableStatus
    version: int
    hand: int
    host: int
    seats: tuple[SeatSnap, ...]
    votes: frozenset[int]
    tournament: int | None
    paused: bool  # nobody plays in person (Table.deserted): a seat taken or "I'm back" lets the AI play on

    @property
    def humans(self) -> set[int]:
        return {s.user_id for s in self.seats if s.kind is SeatKind.HUMAN and s.user_id is not None}

    def seat_of(self, user_id: int) -> Seat | None:
        for seat, info in zip(SEATS, self.seats, strict=True):
            if info.kind is SeatKind.HUMAN and info.user_id == user_id:
                return seat
        return None


def snap(table: Table) -> TableSnap:
    return TableSnap(table.guild_id, table.status, table.version, len(table.game.hands), table.host_id,
                     tuple(SeatSnap(i.kind, i.user_id, i.pending_user_id, i.away, str(i.delivery))
                           for i in table.seats), frozenset(table.stop_votes), table.tournament_id, table.deserted)


@dataclass
class Step:
    """One thing a person does; ``where``: "guild", "dm" or "other" (another server)."""

    kind: str
    actor: User
    where: str = "guild"
    detail: str = ""
    typed: set[Card] = field(default_factory=set)
    own_dm: bool = False  # a click on the actor's own DM message
    closes: int | None = None  # a tournament the actor (its creator) closes

    def __str__(self) -> str:
        return f"{self.actor.name}({self.actor.id})@{self.where} {self.kind} {self.detail}"


# ------------------------------------------------------------------ the witness: audiences and cards


class Watched(FakeDiscord):
    """The fake Discord, telling the witness of every request the bot makes."""

    witness: Witness | None = None

    def handle(self, request: Request) -> Any:
        result = super().handle(request)
        if self.witness is not None:
            self.witness.delivered(request, result)
        return result


class Witness:
    def __init__(self, h: Harness, fake: Watched, drawings: Drawings) -> None:
        self.h = h
        self.fake = fake
        self.drawings = drawings
        self.token_user: dict[str, int] = {}
        self.owner: dict[int, int] = {}  # ephemeral message -> the one who sees it
        self.tables: dict[int, Table] = {}
        self.open_tournaments: set[int] = set()
        self.hand_before: dict[int, int] = {}  # table -> its hand when the step began
        self.sat: dict[tuple[int, int], dict[int, set[Seat]]] = {}  # (table, hand) -> user -> seats held
        self.seen_seat: dict[tuple[int, int, int], Seat] = {}  # (table, hand, user) -> the seat whose cards
        self.violations: list[str] = []
        self.step: Step | None = None
        self.ids: dict[str, int | None] = {}  # every custom id the bot wrote -> a message it was on
        self.counts: dict[str, int] = {}  # what was checked, for the session's summary
        self.found: dict[str, str] = {}  # category -> its first violation (KLAVERJAS_HOSTILE_COLLECT)

    # ------------------------------------------------------------ bookkeeping

    def refresh(self) -> None:
        assert self.h.bot is not None
        for table_id, table in self.h.bot.service.tables.items():
            self.tables[table_id] = table
        for table in self.tables.values():
            hand = len(table.game.hands) - 1
            for seat in SEATS:
                info = table.seats[seat]
                if info.kind is SeatKind.HUMAN and info.user_id is not None and hand >= 0:
                    self.sat.setdefault((table.id, hand), {}).setdefault(info.user_id, set()).add(seat)

    def public(self, table: Table) -> bool:
        return table.closed and (table.tournament_id is None or table.tournament_id not in self.open_tournaments)

    def violation(self, category: str, text: str) -> None:
        if ONLY and category not in ONLY:
            return
        self.violations.append(f"{category}: {text} [step: {self.step}]")
        self.found.setdefault(category, f"{text} [step: {self.step}]")

    # ------------------------------------------------------------ audiences

    def audience_of(self, message_id: int | None, clicker: int | None) -> set[int]:
        message = self.fake.messages.get(message_id) if message_id is not None else None
        if message is None:
            return {clicker} if clicker is not None else set()
        if message.flags & EPHEMERAL:
            return {clicker} if clicker is not None else {self.owner.get(message.id, PUBLIC)}
        if message.dm_user is not None:
            return {message.dm_user} | ({clicker} if clicker is not None else set())
        return {PUBLIC}

    def delivered(self, request: Request, result: Any) -> None:
        try:
            self._delivered(request, result)
        except Exception as error:  # a bug of the witness must fail the test, not vanish in the bot's error path
            self.violation("witness", f"the witness failed on {request.method} {request.path}: {error!r}")

    def _delivered(self, request: Request, result: Any) -> None:
        self.refresh()
        body = request.json or {}
        message_id: int | None = None
        channel: int | None = None
        clicker = self.token_user.get(request.token or "")
        if request.via == "rest":
            params = request.params
            if request.method == "POST" and request.path == "/channels/{channel_id}/messages":
                channel = int(params["channel_id"])
                message_id = int(result["id"])
                dm = self.fake.dm_channels.get(channel)
                audience = {dm} if dm is not None else {PUBLIC}
            elif request.method == "PATCH" and request.path == "/channels/{channel_id}/messages/{message_id}":
                channel = int(params["channel_id"])
                message_id = int(params["message_id"])
                audience = self.audience_of(message_id, None)
            else:
                return
        else:
            token = request.token or ""
            channel = self.fake.channel_of.get(token)
            if request.path.endswith("/callback"):
                kind = body.get("type")
                if kind == 4:
                    message_id = int(result["resource"]["message"]["id"])
                    if request.ephemeral and clicker is not None:
                        self.owner[message_id] = clicker
                    audience = {clicker} if request.ephemeral and clicker is not None else {PUBLIC}
                elif kind == 7:
                    message_id = self.fake.clicked.get(token)
                    audience = self.audience_of(message_id, clicker)
                elif kind == 8:
                    audience = {clicker} if clicker is not None else {PUBLIC}
                else:
                    return
            elif request.method == "POST":
                message_id = int(result["id"])
                if request.ephemeral and clicker is not None:
                    self.owner[message_id] = clicker
                audience = {clicker} if request.ephemeral and clicker is not None else {PUBLIC}
            elif request.method == "PATCH":
                ref = request.url.rsplit("/", 1)[-1].split("?")[0]
                message_id = self.fake._message_ref(token, ref)
                audience = self.audience_of(message_id, clicker)
            else:
                return
        self.examine(request, audience, message_id, channel)

    # ------------------------------------------------------------ what a message shows

    def examine(self, request: Request, audience: set[int], message_id: int | None, channel: int | None) -> None:
        self.count("messages")
        data = request.data
        components = [c for row in data.get("components") or [] for c in row.get("components", [])]
        ids = [c["custom_id"] for c in components if "custom_id" in c]
        for custom_id in ids:
            self.ids.setdefault(custom_id, message_id)
        texts = [str(data.get("content") or ""), json.dumps(data.get("embeds") or [], ensure_ascii=False)]
        texts += [str(c.get("label", "")) for c in components if not str(c.get("custom_id", "")).startswith("kj:c:")]
        texts += [str(o.get("label", "")) + " " + str(o.get("description", "")) for c in components
                  for o in c.get("options") or []]
        texts += [str(choice.get("name", "")) for choice in data.get("choices") or []]
        where = self.tables_of(ids, channel)
        for custom_id in ids:
            parts = custom_id.split(":")
            if parts[:2] == ["kj", "c"] and len(parts) == 5:
                table = self.tables.get(int(parts[2]))
                if table is None:
                    self.violation("witness", f"a card button of an unknown table: {custom_id}")
                    continue
                hand = hand_at(table, int(parts[3]))
                for who in audience:
                    self.check(who, table, hand, {Card.parse(parts[4])}, f"card button {custom_id}")
        for blob in request.file_data:
            drawn = self.drawings.of(blob)
            if drawn is None and not blob.startswith(b"\x89PNG"):
                self.check_file(audience, blob)
                continue
            self.count("images" if drawn is not None else "images not drawn here")
            if drawn is None:
                self.violation("witness", f"an image the renderer did not draw here: {request.files}")
            if drawn is not None and drawn.cards:
                for who in audience:
                    self.check_image(who, drawn)
        self.check_roem_text(where, texts[0])
        self.check_standings(audience, texts[0])
        text_cards = set().union(*(cards_in_text(text) for text in texts))
        for who in audience:
            mine = self.step.typed if self.step is not None and who == self.step.actor.id else set()
            shown = text_cards - mine
            if shown:
                self.count("texts with cards")
                self.check_text(who, where, shown, " | ".join(t for t in texts if t)[:300])

    def check_file(self, audience: set[int], blob: bytes) -> None:
        """A file (an exported record: every deal of a match) shows the cards of each hand it holds."""
        self.count("files")
        for line in blob.decode("utf-8", "replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            for hand, entry in enumerate(record.get("hands") or [] if isinstance(record, dict) else []):
                deal = {Seat.parse(seat): {Card.parse(c) for c in held} for seat, held in entry["deal"].items()}
                cards = set().union(*deal.values())
                tables = [t for t in self.tables.values() if dealt(t, hand) == deal]
                if not tables:
                    self.violation("witness", f"a file holds a deal of no table (hand {hand + 1})")
                    continue
                for who in audience:
                    if not any(all(self.allowed(who, t, hand, c)[0] for c in cards) for t in tables):
                        self.check(who, tables[0], hand, cards, "a file")

    def check_roem_text(self, where: list[Table], text: str) -> None:
        """Under declared roem a team must spot its roem itself: nothing says a trick holds roem before a claim."""
        if ROEM_HINT.search(text) and any(t.rules.roem.value == "declared" for t in where):
            self.violation("roem", f"a message tells where the roem is: {text[:200]!r}")

    def check_standings(self, audience: set[int], text: str) -> None:
        """While a tournament is open, an entry's total is shown to a viewer only over the hands the viewer has
        finished (an outsider: none): the field's scores on deals not yet played stay hidden."""
        rows = STANDINGS_ROW.findall(text)
        if not rows:
            return
        tables = [t for t in self.tables.values()
                  if t.tournament_id is not None and t.tournament_id in self.open_tournaments]
        names = [t.seats[Seat.S].name for t in tables]
        entrants = {t.seats[Seat.S].name: t for t in tables if names.count(t.seats[Seat.S].name) == 1}
        for who in audience:
            own = next((t for t in tables if t.seats[Seat.S].user_id == who), None)
            finished = len(own.game.results) if own is not None else 0
            for name, total in rows:
                table = entrants.get(name)
                if table is None or table is own:
                    continue
                scores = [r.score[Seat.S.team] for r in table.game.results]
                allowed = {sum(scores[:j]) for j in range(min(finished, len(scores)) + 1)}
                if int(total) not in allowed:
                    viewer = "everyone" if who == PUBLIC else BY_ID.get(who, User(who, str(who))).name
                    self.violation("standings", f"{viewer} (finished {finished} hands) sees {name} — {total} "
                                   f"(hand scores {scores}) in {text[:200]!r}")

    def tables_of(self, ids: list[str], channel: int | None) -> list[Table]:
        """The tables a public message is about: its ids', its thread's; else any."""
        found: dict[int, Table] = {}
        for custom_id in ids:
            parts = custom_id.split(":")
            if len(parts) >= 3 and parts[2].isdigit() and int(parts[2]) in self.tables:
                found[int(parts[2])] = self.tables[int(parts[2])]
        for table in self.tables.values():
            if channel is not None and channel in (table.thread_id, ):
                found[table.id] = table
        return list(found.values()) or list(self.tables.values())

    def hands_of_step(self, table: Table) -> range:
        now = len(table.game.hands) - 1
        return range(min(self.hand_before.get(table.id, now), now), now + 1)

    def allowed(self, who: int, table: Table, hand: int, card: Card) -> tuple[bool, Seat | None]:
        """Whether ``who`` may see ``card`` of ``hand`` at ``table``; the seat whose hand it is (when private)."""
        if self.public(table) or card in played(table, hand):
            return True, None
        if who == PUBLIC:
            return False, None
        owner = next((seat for seat, cards in dealt(table, hand).items() if card in cards), None)
        held = self.sat.get((table.id, hand), {}).get(who, set())
        return owner is not None and owner in held, owner

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def check(self, who: int, table: Table, hand: int, cards: set[Card], what: str) -> bool:
        """Cards shown exactly (a button, an image); the first seat a person sees private cards of is theirs."""
        self.count("private cards" if who != PUBLIC else "public cards", len(cards))
        for card in sorted(cards):
            ok, owner = self.allowed(who, table, hand, card)
            name = "everyone" if who == PUBLIC else BY_ID.get(who, User(who, str(who))).name
            if not ok:
                held = self.sat.get((table.id, hand), {}).get(who, set())
                seats = sorted(s.letter for s in held)
                self.violation("card", f"{name} got {card} of table {table.id} hand {hand + 1} ({what}): it is "
                               f"{owner.letter if owner else '?'}'s, unplayed; they sat {seats}")
                return False
            if owner is not None:
                first = self.seen_seat.setdefault((table.id, hand, who), owner)
                if first is not owner:
                    self.violation("two hands", f"{name} saw the hands of two seats of table {table.id} hand "
                                   f"{hand + 1}: {first.letter} and then {owner.letter} ({what}: {card})")
                    return False
        return True

    def check_image(self, who: int, drawn: Drawn) -> None:
        """An image matches the hand of a table whose deal holds its seats' cards (identical deals: any of them)."""
        candidates: list[tuple[Table, int]] = []
        for table in self.tables.values():
            number = drawn.hand_number
            for hand in range(len(table.game.hands)) if number is None else (number, number - 1):
                deal = dealt(table, hand)
                if deal and all(cards <= deal[seat] for seat, cards in drawn.private.items()):
                    candidates.append((table, hand))
        for table, hand in candidates:
            if all(self.allowed(who, table, hand, card)[0] for card in drawn.cards):
                self.check(who, table, hand, set(drawn.cards), "image")  # commits the seat seen
                return
        if not candidates:
            shown = sorted(c.notation for c in drawn.cards)
            self.violation("witness", f"an image of cards {shown} matches no table's deal")
            return
        table, hand = candidates[0]
        self.check(who, table, hand, set(drawn.cards), "image")

    def check_text(self, who: int, where: list[Table], cards: set[Card], text: str) -> None:
        for card in cards:
            # A private answer may be about the person's own table wherever they asked: any table.
            tables = where if who == PUBLIC else list(self.tables.values())
            hands = [(table, hand) for table in tables for hand in self.hands_of_step(table)]
            if not any(self.allowed(who, table, hand, card)[0] for table, hand in hands):
                name = "everyone" if who == PUBLIC else BY_ID.get(who, User(who, str(who))).name
                self.violation("card in text", f"{name} read {card} in {text!r}")


# ------------------------------------------------------------------ rights


class Rights:
    """Compares the tables (and tournaments) before and after a step with what its actor may change."""

    def __init__(self, witness: Witness) -> None:
        self.witness = witness

    def check(self, step: Step, before: dict[int, TableSnap], after: dict[int, TableSnap],
              entries_before: dict[int, set[int]], entries_after: dict[int, set[int]],
              status_before: dict[int, TournamentStatus], status_after: dict[int, TournamentStatus]) -> None:
        user = step.actor.id
        guild = {"guild": GUILD_ID, "other": OTHER_GUILD}.get(step.where)
        bad = self.witness.violation
        for table_id, a in after.items():
            b = before.get(table_id)
            table = self.witness.tables[table_id]
            if a.status not in (TableStatus.FINISHED, TableStatus.STOPPED) and not a.votes <= a.humans:
                bad("votes kept", f"table {table_id}: stop votes {sorted(a.votes)} of people not seated "
                    f"({sorted(a.humans)})")
            if b is None:
                if a.host != user or (a.guild is not None and a.guild != guild):
                    bad("new table", f"a new table {table_id} (host {a.host}, server {a.guild}) by {step.actor.name} "
                        f"from {step.where}")
                continue
            if a == b:
                continue
            if not b.humans and all(s.pending is None for s in b.seats) and a.seats == b.seats:
                continue  # nobody's seat: a table left to the AI may end on its own, whoever acts meanwhile
            closing = step.closes is not None and b.tournament == step.closes
            if guild != b.guild and not (step.where == "dm" and step.own_dm) and not closing:
                bad("other server", f"table {table_id} of server {b.guild} changed by a step from {step.where}: "
                    f"{diff(b, a)}")
                continue
            own = b.seat_of(user)
            humans_acted = [i for i in range(b.version, a.version) if table.actors[i] is Actor.HUMAN]
            if len(humans_acted) > 1:
                bad("actions", f"table {table_id}: {len(humans_acted)} human actions in one step")
            for index in humans_acted:
                seat = seat_acting(table, index)
                if seat is None or seat is not own:
                    bad("actions", f"table {table_id}: {table.game.actions[index]} played for seat "
                        f"{seat.letter if seat else '?'} by {step.actor.name} (seat {own.letter if own else '-'})")
            if a.version > b.version and not humans_acted and b.status is TableStatus.PLAYING and not closing \
                    and not (b.paused and not a.paused):  # a paused table that someone sat down at plays on
                left = own is not None and a.seat_of(user) is None
                if not left:
                    bad("actions", f"table {table_id}: the AI acted after {step.actor.name}'s step without a human "
                        "action")
            if a.status is not b.status:
                self.status_change(step, table_id, b, a, closing)
            for seat, sb, sa in zip(SEATS, b.seats, a.seats, strict=True):
                if sb != sa and not self.seat_change_ok(user, b, a, sb, sa, closing):
                    bad("seat", f"table {table_id} seat {seat.letter}: {sb} -> {sa} by {step.actor.name} from "
                        f"{step.where}")
        for tournament, users in entries_after.items():
            before_users = entries_before.get(tournament, set())
            new = users - before_users
            if new and all(i < 0 for i in new) and before_users - users == {user}:
                continue  # forget-me: one's own entry, anonymised
            if new - {user} or (new and guild != GUILD_ID):
                bad("tournament", f"tournament {tournament}: entries {sorted(new)} by {step.actor.name} from "
                    f"{step.where}")
        for tournament, status in status_after.items():
            if status_before.get(tournament, status) is not status and step.closes != tournament:
                bad("tournament", f"tournament {tournament} became {status} by {step.actor.name} from {step.where}")

    def status_change(self, step: Step, table_id: int, b: TableSnap, a: TableSnap, closing: bool) -> None:
        user = step.actor.id
        if a.status is TableStatus.FINISHED and a.version > b.version:
            return
        if a.status is TableStatus.PLAYING and b.status is TableStatus.LOBBY and user == b.host:
            return
        if a.status is TableStatus.STOPPED:
            if user == b.host:
                return
            counted = (b.votes & b.humans) | ({user} & b.humans)
            if len(counted) * 2 > len(b.humans):
                return
            self.witness.violation("stop", f"table {table_id} stopped by {step.actor.name} with the votes of "
                                   f"{sorted(counted)} of the seated {sorted(b.humans)} "
                                   f"(votes kept: {sorted(b.votes)})")
            return
        if closing:
            return
        self.witness.violation("status", f"table {table_id}: {b.status} -> {a.status} by {step.actor.name}")

    @staticmethod
    def seat_change_ok(user: int, b: TableSnap, a: TableSnap, sb: SeatSnap, sa: SeatSnap, closing: bool) -> bool:
        if a.hand > b.hand and sb.pending is not None and sa.user_id == sb.pending and sa.pending is None:
            return True  # a take-over waiting for the next deal, done at that deal
        if user in (sb.user_id, sb.pending) and sa.user_id in (sb.user_id, None) and sa.pending in (sb.pending, None):
            return True  # one's own seat: left (an AI takes it), away or back, delivery, reservation withdrawn
        if sa.user_id == user and sa.kind is SeatKind.HUMAN and sb.kind in (SeatKind.EMPTY, SeatKind.AI) \
                and sb.pending in (None, user):
            return True  # sat down in an empty or AI seat
        if sa.pending == user and sb.pending is None and sb.kind is SeatKind.AI and sa.user_id == sb.user_id:
            return True  # reserved an AI seat for the next deal
        if b.seat_of(user) is not None and b.status is TableStatus.LOBBY and sb.kind is SeatKind.EMPTY \
                and sa.kind is SeatKind.AI:
            return True  # someone seated at a lobby adds an AI player
        return closing and sb.user_id == sa.user_id


def diff(b: TableSnap, a: TableSnap) -> str:
    return "; ".join(f"{name}: {getattr(b, name)} -> {getattr(a, name)}" for name in
                     ("status", "version", "seats", "votes", "host") if getattr(b, name) != getattr(a, name))


# ------------------------------------------------------------------ the session

KINDS = ["play"] * 5 + ["command"] * 3 + ["click"] * 3 + ["autocomplete", "hop", "vote and leave"]
JUNK = ["", "X", "JH10", "nesw", "٣", "0", "-1", "99999999999999", "@everyone", "J♥", "10♠", "B♥"]
# Taking seats, leaving, voting and asking for one's hand are where hands and seats change owners: drawn more often.
SUBCOMMANDS = ["join"] * 4 + ["leave"] * 3 + ["hand"] * 2 + ["play"] * 2 + [
               "stop", "start", "settings", "rules", "hint", "score", "replay",
               "export", "history", "review", "forget-me", "tournament join", "tournament standings",
               "tournament close", "tournament winners", "tournament config", "tournament create", "stats",
               "leaderboard", "web"]
AUTOCOMPLETE = [("play", "card"), ("replay", "match"), ("export", "match"), ("review", "match"),
                ("tournament join", "tournament"), ("tournament standings", "tournament")]


class Session:
    def __init__(self, h: Harness, fake: Watched, witness: Witness, data: st.DataObject) -> None:
        self.h = h
        self.fake = fake
        self.witness = witness
        self.rights = Rights(witness)
        self.data = data
        self.tournament_id: int | None = None
        self.log: list[str] = []

    @property
    def bot(self) -> Any:
        assert self.h.bot is not None
        return self.h.bot

    def draw(self, strategy: st.SearchStrategy[Any], label: str) -> Any:
        return self.data.draw(strategy, label=label)

    def pick(self, options: list[Any], label: str) -> Any:
        return options[self.draw(st.integers(0, len(options) - 1), label)]

    # ------------------------------------------------------------ feeding the bot as someone, from somewhere

    def located(self, payload: dict[str, Any], user: User, where: str) -> dict[str, Any]:
        """A payload built for this server, moved to another server or a DM."""
        if where == "other":
            payload["guild_id"] = str(OTHER_GUILD)
            payload["channel"]["guild_id"] = str(OTHER_GUILD)
        elif where == "dm":
            channel = DM_BASE + user.id
            payload.pop("guild_id", None)
            payload.pop("guild_locale", None)
            payload.pop("member", None)
            payload["user"] = user.payload()
            payload["channel"] = {"id": str(channel), "type": 1}
            payload["channel_id"] = str(channel)
            payload["context"] = 1
            self.fake.channel_of[payload["token"]] = channel
        return payload

    def channels(self, where: str) -> list[int]:
        if where == "other":
            return [OTHER_CHANNEL] + [t.thread_id for t in self.witness.tables.values()
                                      if t.guild_id == OTHER_GUILD and t.thread_id]
        if where == "dm":
            return [0]
        return [CHANNEL_ID] + [t.thread_id for t in self.witness.tables.values()
                               if t.guild_id == GUILD_ID and t.thread_id]

    async def feed(self, payload: dict[str, Any], user: User) -> str:
        self.witness.token_user[payload["token"]] = user.id
        return await self.h.feed(payload)

    async def command(self, user: User, sub: str, where: str, channel: int, permissions: str | None = None,
                      **options: Any) -> str:
        interactions = self.h.interactions
        if sub in ("stats", "leaderboard"):
            resolved: dict[str, Any] = {}
            raw = [interactions._option(name, value, resolved) for name, value in options.items()]
            payload = interactions.slash(user, sub, channel, options=raw, resolved=resolved or None)
        else:
            extra = {"permissions": permissions} if permissions else {}
            payload = interactions.command(user, sub, channel, **extra, **options)
        return await self.feed(self.located(payload, user, where), user)

    async def click(self, user: User, message: StoredMessage, custom_id: str, where: str,
                    values: list[str] | None = None) -> str:
        channel = message.channel_id if where != "other" else OTHER_CHANNEL
        base = self.h.interactions.base(user, channel, dm=message.dm_user is not None and where == "dm",
                                        channel_type=THREAD if channel in self.fake.thread_parent else 0)
        kind = 3 if values is not None else 2
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = values
        base.update(type=3, data=data, message=message.payload())
        self.fake.clicked[base["token"]] = message.id
        if not (where == "dm" and message.dm_user is not None):
            base = self.located(base, user, where)
        return await self.feed(base, user)

    # ------------------------------------------------------------ bookkeeping around a step

    async def tournaments(self) -> tuple[dict[int, set[int]], dict[int, TournamentStatus]]:
        store = self.bot.tournaments.store
        entries: dict[int, set[int]] = {}
        status: dict[int, TournamentStatus] = {}
        for guild in (GUILD_ID, OTHER_GUILD):
            for tournament in await store.tournaments(guild):
                status[tournament.id] = tournament.status
                entries[tournament.id] = {e.user_id for e in await store.entries(tournament.id)}
        self.witness.open_tournaments = {i for i, s in status.items() if s is not TournamentStatus.CLOSED}
        return entries, status

    async def run(self, step: Step, action: Callable[[], Any]) -> None:
        witness = self.witness
        await self.h.settle()
        witness.refresh()
        before = {i: snap(t) for i, t in witness.tables.items()}
        witness.hand_before = {i: len(t.game.hands) - 1 for i, t in witness.tables.items()}
        entries, status = await self.tournaments()
        witness.step = step
        if step.closes is not None:  # its final standings go out during this step
            witness.open_tournaments.discard(step.closes)
        self.log.append(str(step))
        note(str(step))
        await action()
        await self.h.settle()
        witness.refresh()
        after = {i: snap(t) for i, t in witness.tables.items()}
        entries_after, status_after = await self.tournaments()
        self.rights.check(step, before, after, entries, entries_after, status, status_after)
        witness.step = None
        if witness.violations and not COLLECT:
            raise AssertionError("\n".join(witness.violations) + "\nsteps:\n" + "\n".join(self.log[-40:]))

    # ------------------------------------------------------------ the steps

    async def setup(self) -> None:
        # The deals come from the drawn seed: the same draws replay the same session (hypothesis needs that).
        seeds = itertools.count(self.draw(st.integers(1, 2**40), "seed"))
        self.bot.service.new_seed = lambda: next(seeds)
        self.bot.tournaments.new_seed = lambda: next(seeds)
        roem = self.draw(st.sampled_from(["auto", "declared"]), "roem")
        bidding = self.draw(st.sampled_from(["vrij", "verplicht", "draaien"]), "bidding")

        async def open_table() -> None:
            await self.command(ANNA, "start", "guild", CHANNEL_ID, length="4", ai="easy", roem=roem,
                               bidding=bidding)
        await self.run(Step("command", ANNA, detail=f"start length:4 roem:{roem} bidding:{bidding}"), open_table)
        table = max(self.witness.tables.values(), key=lambda t: t.id)
        lobby = self.fake.messages[table.lobby_message_id or 0]
        for user in (BERT, CHRIS):
            await self.run(Step("click", user, detail="Join"),
                           lambda user=user: self.click(user, lobby, f"kj:l:{table.id}:join", "guild"))
        await self.run(Step("click", ANNA, detail="Start"),
                       lambda: self.click(ANNA, lobby, f"kj:l:{table.id}:start", "guild"))
        assert table.running

        async def create() -> None:
            token = await self.command(ANNA, "tournament create", "guild", CHANNEL_ID, permissions=ALL_PERMISSIONS,
                                       name="Cup", hands=2, ai="easy", pairs=False)
            found = re.search(r"#(\d+)\)", " ".join(r.content for r in self.h.responses_to(token)))
            assert found, [r.content for r in self.h.responses_to(token)]
            self.tournament_id = int(found.group(1))
        await self.run(Step("command", ANNA, detail="tournament create hands:2"), create)
        await self.run(Step("command", EVA, detail="tournament join"),
                       lambda: self.command(EVA, "tournament join", "guild", CHANNEL_ID))

    async def step(self) -> None:
        kind = self.draw(st.sampled_from(KINDS), "kind")
        if kind == "play":
            await self.play()
            return
        actor = self.draw(st.sampled_from(CAST), "actor")
        where = "other" if actor is OLAF else self.draw(st.sampled_from(["guild"] * 4 + ["dm"]), "where")
        if kind in ("hop", "vote and leave"):
            await self.macro(kind, actor)
        elif kind == "command":
            await self.hostile_command(actor, where)
        elif kind == "click":
            await self.hostile_click(actor, where)
        else:
            sub, option = self.draw(st.sampled_from(AUTOCOMPLETE), "autocomplete")
            value = self.draw(st.sampled_from(["", "J", "1", "10", "H"]), "typed")
            channel = self.pick(self.channels(where), "channel")
            payload = self.h.interactions.autocomplete(actor, sub, option, value, channel)
            await self.run(Step("autocomplete", actor, where, f"{sub} {option}:{value!r} in {channel}"),
                           lambda: self.feed(self.located(payload, actor, where), actor))

    def options_for(self, sub: str) -> dict[str, Any]:
        tables = [str(i) for i in self.witness.tables] or ["1"]
        tournaments = [str(self.tournament_id or 1), "999"]
        cards = [c.notation for c in DECK] + JUNK
        seats = ["N", "E", "S", "W", "O", "Z", "X"]
        choices: dict[str, list[dict[str, Any]]] = {
            "start": [{"length": "1", "ai": "easy"}],
            "settings": [{"bidding": "draaien"}],
            "join": [{}] + [{"seat": seat} for seat in seats],
            "hand": [{}, {"delivery": "dm"}, {"delivery": "thread"}],
            "play": [{"card": card} for card in cards],
            "replay": [{"match": match} for match in tables + JUNK[:3]],
            "export": [{"match": match} for match in tables + JUNK[:3]],
            "review": [{"match": match} for match in tables],
            "history": [{}] + [{"player": user} for user in CAST],
            "tournament join": [{}] + [{"tournament": i} for i in tournaments],
            "tournament standings": [{}] + [{"tournament": i} for i in tournaments],
            "tournament close": [{"tournament": i} for i in tournaments],
            "tournament config": [{"daily": True}],
            "tournament create": [{"name": "Mine", "hands": 1}],
            "stats": [{}] + [{"player": user} for user in CAST] + [{"ai": level} for level in ("easy", "normal")],
        }
        options = choices.get(sub)
        return dict(self.pick(options, "options")) if options else {}

    async def macro(self, kind: str, actor: User) -> None:
        """What a cheat tries on purpose, as two steps (each checked): leave and take another seat of the same
        table (seat hopping), or vote to stop and leave (does the vote stay?)."""
        # A vote is a guest's (the host stops at once, which would only end the match early).
        tables = [t for t in self.witness.tables.values() if t.seat_of(actor.id) is not None and t.running
                  and t.guild_id == GUILD_ID and (kind == "hop" or t.host_id != actor.id)]
        if not tables:
            return
        table = self.pick(tables, "table")
        thread = table.thread_id or CHANNEL_ID
        if kind == "hop":
            # The cheat waits for the moment a seat may change hands at once: dealt, nobody has bid yet.
            for _ in range(60):
                hand = table.game.hand
                if table.game.phase.value in ("bidding", "turn") and hand is not None and not hand.bids:
                    break
                if table.seat_of(actor.id) is None or not await self.play(table):
                    break
            if table.seat_of(actor.id) is None:
                return
        first = "stop" if kind == "vote and leave" else "leave"
        await self.run(Step("command", actor, detail=f"/{first} in table {table.id}'s thread ({kind})"),
                       lambda: self.command(actor, first, "guild", thread))
        if kind == "vote and leave":
            await self.run(Step("command", actor, detail=f"/leave table {table.id} ({kind})"),
                           lambda: self.command(actor, "leave", "guild", thread))
            return
        seat = self.pick(list(SEATS), "seat")
        step = Step("command", actor, detail=f"/join seat:{seat.letter} in table {table.id}'s thread (hop)")
        await self.run(step, lambda: self.command(actor, "join", "guild", thread, seat=seat.letter))

    async def hostile_command(self, actor: User, where: str) -> None:
        sub = self.draw(st.sampled_from(SUBCOMMANDS), "subcommand")
        options = self.options_for(sub)
        channels = self.channels(where)
        # Half the time in the thread of a table of one's own (where seats and hands are), else anywhere.
        own = [t.thread_id for t in self.witness.tables.values() if t.thread_id in channels and (
            t.seat_of(actor.id) is not None or t.pending_seat_of(actor.id) is not None)]
        in_own = bool(own) and self.draw(st.sampled_from([True, False]), "own")
        channel = self.pick(own, "own thread") if in_own else self.pick(channels, "channel")
        typed = set().union(*(cards_in_text(str(v)) for v in options.values()))
        typed |= {c for c in (parse_card_text(str(options.get("card", ""))),) if c is not None}
        closes = None
        if sub == "tournament close" and actor is ANNA and where == "guild":
            closes = int(options["tournament"]) if options["tournament"].isdigit() else None
        step = Step("command", actor, where, f"/{sub} {options} in {channel}", typed=typed, closes=closes)
        await self.run(step, lambda: self.command(actor, sub, where, channel, **options))

    def forged_id(self, custom_id: str) -> str:
        """``custom_id`` as a hostile client rewrites it: another table, version, card, seat or person."""
        parts = custom_id.split(":")
        how = self.draw(st.sampled_from(["as is", "table", "version", "card", "user"]), "forge")
        numbers = [i for i, part in enumerate(parts) if part.isdigit()]
        if how == "table" and len(parts) > 2 and parts[2].isdigit():
            parts[2] = str(self.pick(sorted(self.witness.tables), "other table"))
        elif how == "version" and parts[1] in ("b", "c", "r", "nr") and len(parts) > 3:
            version = int(parts[3])
            parts[3] = str(max(0, self.draw(st.sampled_from([version - 1, version + 1, version - 5, version + 2, 0]),
                                            "version")))
        elif how == "card" and parts[1] == "c":
            parts[4] = self.pick(DECK, "card").notation
        elif how == "user" and parts[1] in ("fm", "rs", "ss") and numbers:
            index = 3 if parts[1] == "rs" else (3 if parts[1] == "ss" else 2)
            if index < len(parts) and parts[index].isdigit():
                parts[index] = str(self.pick(CAST, "user").id)
        return ":".join(parts)

    async def hostile_click(self, actor: User, where: str) -> None:
        # The ids on the messages as they are now (which earlier edits Discord saw depends on the announcer's
        # timing; old versions are forged below): a kind of button first, every kind alike, then one of its ids.
        on: dict[str, StoredMessage] = {}
        for message in sorted(self.fake.messages.values(), key=lambda m: m.id):
            for custom_id in message.custom_ids():
                on.setdefault(custom_id, message)
        kinds = sorted({i.split(":")[1] for i in on if i.count(":") >= 2})
        if not kinds:
            return
        kind = self.pick(kinds, "button kind")
        original = self.pick(sorted(i for i in on if i.split(":")[1] == kind), "id")
        custom_id = self.forged_id(original)
        message = on[original]
        select = custom_id.startswith("kj:seat:")
        if custom_id not in message.custom_ids():
            message = copy.deepcopy(message)
            component: dict[str, Any] = {"type": 2, "style": 1, "label": "?", "custom_id": custom_id}
            if select:
                component = {"type": 3, "custom_id": custom_id, "options": [
                    {"label": s.letter, "value": s.letter} for s in SEATS], "min_values": 1, "max_values": 1}
            message.components = [*message.components[:4], {"type": 1, "components": [component]}]
        values = [self.pick([s.letter for s in SEATS], "seat")] if select else None
        own_dm = message.dm_user == actor.id and where == "dm"
        parts = custom_id.split(":")
        # The card of a card button one sends may be echoed back ("You do not hold J♣"): it is the sender's own.
        typed = {Card.parse(parts[4])} if parts[1] == "c" and len(parts) == 5 else set()
        step = Step("click", actor, where, f"{custom_id} (written {original}) on message {message.id}"
                    f"{' of ' + str(message.dm_user) + ' DM' if message.dm_user else ''} values={values}",
                    typed=typed, own_dm=own_dm)
        await self.run(step, lambda: self.click(actor, message, custom_id, where, values))

    # ------------------------------------------------------------ the seated players' own turns

    def turns(self) -> list[tuple[Table, User]]:
        found = []
        for table in self.witness.tables.values():
            seat = table.game.to_act
            if not table.running or seat is None or table.guild_id != GUILD_ID:
                continue
            info = table.seats[seat]
            if info.kind is SeatKind.HUMAN and not info.away and info.user_id in BY_ID:
                found.append((table, BY_ID[info.user_id]))
        return found

    async def play(self, only: Table | None = None) -> bool:
        await self.h.settle()
        self.witness.refresh()
        turns = [(t, u) for t, u in self.turns() if only is None or t is only]
        if not turns:
            return False
        table, user = self.pick(turns, "turn")
        seat = table.seat_of(user.id)
        assert seat is not None
        version = table.version
        thread = table.thread_id or table.channel_id or CHANNEL_ID
        phase = table.game.phase.value
        prefixes = (f"kj:b:{table.id}:{version}:", f"kj:r:{table.id}:{version}", f"kj:nr:{table.id}:{version}")
        options: list[tuple[StoredMessage, str]] = [
            (m, i) for m in self.fake.in_channel(thread) for i in m.enabled_ids() if i.startswith(prefixes)
            and not m.flags & EPHEMERAL]
        if phase == "play":
            info = table.seats[seat]
            hand = self.fake.messages.get(info.hand_message_id or 0) if str(info.delivery) == "dm" else None
            if hand is None:
                await self.run(Step("command", user, detail="/hand (to play)"),
                               lambda: self.command(user, "hand", "guild", thread))
                shown = [m for m in self.fake.messages.values() if m.flags & EPHEMERAL
                         and self.witness.owner.get(m.id) == user.id
                         and any(i.startswith(f"kj:c:{table.id}:{version}:") for i in m.enabled_ids())]
                hand = shown[-1] if shown else None
            if hand is not None:
                options += [(hand, i) for i in hand.enabled_ids() if i.startswith(f"kj:c:{table.id}:{version}:")]
        if not options:
            return False
        message, custom_id = self.pick(options, "choice")
        where = "dm" if message.dm_user == user.id else "guild"
        await self.run(Step("play", user, where, f"{custom_id} at table {table.id}", own_dm=where == "dm"),
                       lambda: self.click(user, message, custom_id, where))
        return True

    async def finish(self) -> None:
        """Play every table to its end, close the tournament, and check every stored record."""
        for _ in range(600):
            if not await self.play():
                await self.h.settle()
                if not self.turns():
                    break
        if self.tournament_id is not None:
            tournament = self.tournament_id
            await self.run(Step("command", ANNA, detail="tournament close", closes=tournament),
                           lambda: self.command(ANNA, "tournament close", "guild", CHANNEL_ID,
                                                permissions=ALL_PERMISSIONS, tournament=str(tournament)))
        for table in self.witness.tables.values():
            if table.rules.roem.value == "declared":
                self.last_trick_question(table)
            if not table.game.actions:
                continue
            record = await self.bot.store.record(table.id)
            rebuilt = game_from_record(record)
            assert rebuilt.actions == table.game.actions, f"table {table.id}: the record replays to another match"
            assert export_record(rebuilt) == export_record(table.game)


    def last_trick_question(self, table: Table) -> None:
        """Under declared roem the question after the last trick (Roem! or No roem) must not tell whether the
        last trick holds roem: it comes after every hand or after none."""
        starts = deal_starts(table)
        asked = []
        for index, start in enumerate(starts):
            end = starts[index + 1] if index + 1 < len(starts) else len(table.game.actions)
            actions = table.game.actions[start:end]
            cards = [i for i, a in enumerate(actions) if isinstance(a, Card)]
            if len(cards) == 32:
                asked.append(any(isinstance(a, Claim | Decline) for a in actions[cards[-1] + 1:]))
        if len(set(asked)) > 1:
            self.witness.step = Step("end", ANNA)
            self.witness.violation("roem question", f"table {table.id}: the last trick's question came after hands "
                                   f"{[i + 1 for i, a in enumerate(asked) if a]} of {len(asked)} only")
            if not COLLECT:
                raise AssertionError("\n".join(self.witness.violations))


async def session(data: st.DataObject, steps: int) -> None:
    drawings = Drawings()
    fake = Watched()
    with tempfile.TemporaryDirectory() as folder, drawings.installed():
        async with Harness(Path(folder) / "k.sqlite3", fake) as h:
            witness = Witness(h, fake, drawings)
            fake.witness = witness
            run = Session(h, fake, witness, data)
            await run.setup()
            for _ in range(steps):
                await run.step()
            await run.finish()
            tables = {str(t.status): 0 for t in witness.tables.values()}
            for t in witness.tables.values():
                tables[str(t.status)] += 1
            summary = f"steps {len(run.log)}, tables {tables}, checked {witness.counts}"
            note(summary)
            if os.environ.get("KLAVERJAS_HOSTILE_VERBOSE"):
                print(summary)
            if witness.found:
                raise AssertionError("\n".join(f"{k}: {v}" for k, v in sorted(witness.found.items())))


HOSTILE = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not LONG_RUN,
                   phases=list(Phase) if SHRINK else [Phase.explicit, Phase.generate],
                   suppress_health_check=list(HealthCheck))


@HOSTILE
@given(data=st.data())
def test_a_hostile_session_sees_no_card_and_changes_nothing_it_may_not(data: st.DataObject) -> None:
    asyncio.run(session(data, STEPS))
