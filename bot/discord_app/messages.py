"""What the bot says: pure functions from a table (and an event) to a message's text, buttons and image.

Nothing here sends or stores anything; the announcer and the handlers decide when and where. Images
take a while to draw: most builders leave the drawing to ``Payload.drawn`` (from a snapshot, so it can
run later), those marked "renders" draw at once; either way callers draw in a worker thread.
"""

from __future__ import annotations

import io
import json
import math
import zlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import discord

from bot.discord_app.limits import MESSAGE_LIMIT, fit
from bot.discord_app.views import (
    BackButton,
    BidButton,
    CardButton,
    DeclineButton,
    ExportButton,
    LobbyButton,
    LobbyOp,
    MyStatsButton,
    PlayHereButton,
    RematchButton,
    ReplayButton,
    ReviewButton,
    RoemButton,
    SeatSelect,
    ShowHandButton,
    TakeSeatButton,
    browser_button,
    rows_of,
    view_of,
)
from bot.tables.events import SeatChange, SeatChanged
from bot.tables.model import Actor, SeatKind, StoredReview, Table, TableSettings, TableStatus
from bot.texts.catalog import (
    action_text,
    call_text,
    card_text,
    claim_key,
    explain_rules,
    hint_reason,
    number,
    roem_text,
    seat_name,
    settings_line,
    suit_name,
    t,
    team_word,
)
from bot.texts.labels import names_of, table_theme
from bot.texts.language import Language
from engine.actions import Action, Call
from engine.ai.review_summary import (
    ACCURATE_WITHIN,
    REAL_CHOICE,
    WORST,
    DecisionReview,
    PlayerReview,
    accuracy_percent,
)
from engine.cards import SEATS, Card, Seat, Team
from engine.events import (
    BidMade,
    HandResult,
    HandSettled,
    MatchOver,
    RoemClaimed,
    StukScored,
    SuitTurned,
    TrickWon,
    TrumpChosen,
)
from engine.events import Event as EngineEvent
from engine.game import HandState, Phase, Trick
from engine.settings import Bidding, RoemMode
from engine.view import SeatView, public_view
from rendering import (
    ReviewChart,
    Theme,
    hand_order,
    render_hand,
    render_review,
    render_sheet,
    render_table,
    render_trick,
)

DM_CLOSED = 50007  # Discord's error code for a user who does not accept direct messages
THREAD_EXISTS = 160004  # Discord's error code for a second thread on one message


@dataclass(frozen=True, slots=True)
class Payload:
    """One message: its text, its buttons and at most one image.

    Builders that render leave the image to ``draw``: a function of a snapshot of the moment (frozen views,
    copied names), so it may run later, in a worker thread, while the table plays on (``drawn``).
    """

    content: str
    view: discord.ui.View | None = None
    image: bytes | None = None
    filename: str = "image.png"
    mention: int | None = None  # the one user this message may ping
    # The image's alt text: what a screen reader says, and where a name the image had to shorten is read in full.
    description: str = ""
    draw: Callable[[], bytes] | None = field(default=None, compare=False)

    def drawn(self) -> Payload:
        """This message with its image drawn; slow, so call it in a worker thread."""
        return self if self.draw is None else replace(self, image=self.draw(), draw=None)

    def send_kwargs(self) -> dict[str, Any]:
        """For ``send``: the text, and the buttons and the image when there are any."""
        kwargs: dict[str, Any] = {"content": self.content}
        if self.view is not None:
            kwargs["view"] = self.view
        if self.image is not None or self.draw is not None:
            kwargs["files"] = [self._file()]
        return fit(kwargs)

    def edit_kwargs(self) -> dict[str, Any]:
        """For ``edit``: the text and the buttons (None takes them away), and the image when there is one."""
        kwargs: dict[str, Any] = {"content": self.content, "view": self.view}
        if self.image is not None or self.draw is not None:
            kwargs["attachments"] = [self._file()]
        return fit(kwargs)

    def fingerprint(self) -> Hashable | None:
        """Equal for two payloads that show the same message (text, buttons, image); None when that cannot be
        told. The image is told by what it is drawn from (the drawing is a pure function of it), so a
        message is compared without drawing it."""
        image: Hashable | None = None
        if self.draw is not None:
            image = drawing_key(self.draw)
            if image is None:
                return None
        elif self.image is not None:
            image = (len(self.image), zlib.crc32(self.image))
        buttons = json.dumps(self.view.to_components(), sort_keys=True) if self.view is not None else None
        return self.content, buttons, self.filename, self.description, image

    def stop(self) -> None:
        """Once sent: the DynamicItems dispatch the clicks, so the view need not stay in memory."""
        if self.view is not None:
            self.view.stop()

    def _file(self) -> discord.File:
        assert self.image is not None and self.draw is None, "draw the image first (Payload.drawn)"
        return discord.File(io.BytesIO(self.image), filename=self.filename,
                            description=self.description[:ALT_TEXT_LIMIT] or None)


def drawing_key(draw: Callable[[], bytes]) -> Hashable | None:
    """What a drawing (a ``partial`` of a renderer) is drawn from, hashable; None when it cannot be told."""
    if not isinstance(draw, partial):
        return None
    frozen = tuple(sorted((name, _frozen(value)) for name, value in draw.keywords.items()))
    key = (draw.func.__module__, draw.func.__qualname__, tuple(_frozen(a) for a in draw.args), frozen)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _frozen(value: object) -> object:
    return tuple(sorted(value.items())) if isinstance(value, dict) else value


# ------------------------------------------------------------------ names and looks


ALT_TEXT_LIMIT = 1024  # Discord's limit on an attachment's description


def players_alt(table: Table) -> str:
    """The alt text of an image that shows the four seats: every player's full name (the image shortens long
    ones to fit)."""
    lang = table.settings.language
    names = names_of(table)
    seats = ", ".join(f"{seat_name(seat, lang)}: {names[seat]}" for seat in SEATS)
    return t("image.players", lang, seats=seats)


def theme_of(table: Table, *, public: bool = False, lang: Language | None = None) -> Theme:
    """The table's look; ``public`` images (thread) label the teams NS and EW, private ones Wij and Zij, in
    ``lang`` (default: the table's language)."""
    s = table.settings
    return table_theme(s.felt, s.four_colour, lang or s.language, neutral_teams=public)


def ping(user_id: int | None) -> str:
    return f"<@{user_id}>"


def describe_settings(settings: TableSettings, lang: Language, table: int | None = None) -> str:
    return explain_rules(settings.rules, lang, table=table, ai=settings.ai_level, felt=settings.felt,
                         language=settings.language)


# ------------------------------------------------------------------ the lobby


def lobby_text(table: Table) -> str:
    lang = table.settings.language
    names = names_of(table)
    host = names[Seat.S] if table.seats[Seat.S].user_id == table.host_id \
        else next((i.name for i in table.seats if i.user_id == table.host_id), "?")
    lines = [t("lobby.title", lang, table=table.id, host=host),
             settings_line(table.rules, lang, table.settings.ai_level)]
    for seat in SEATS:
        info = table.seats[seat]
        who = names[seat] if info.kind is not SeatKind.EMPTY else t("lobby.empty", lang)
        star = f"  {t('lobby.host', lang)}" if info.user_id == table.host_id else ""
        lines.append(f"`{seat_name(seat, lang):<6}` {who}{star}")
    lines.append(t("lobby.teams", lang))
    return "\n".join(lines)


def seat_options(table: Table) -> list[discord.SelectOption]:
    lang = table.settings.language
    names = names_of(table)
    options = []
    for seat in SEATS:
        info = table.seats[seat]
        if info.kind is SeatKind.EMPTY:
            state = t("seat.option_free", lang)
        elif info.kind is SeatKind.AI:
            state = t("seat.option_ai", lang)
        else:
            state = t("seat.option_human", lang, name=names[seat])
        options.append(discord.SelectOption(label=t("seat.option", lang, seat=seat_name(seat, lang)),
                                            value=seat.letter, description=state[:100]))
    return options


def lobby_view(table: Table, activity: bool = False) -> discord.ui.View:
    """Join, Leave, Add AI, Start (and Play here, with ``activity``: the Activity launched in the lobby's channel,
    ``bot.web.links.activity_here``), and below them the seat menu (Join alone takes the first free seat)."""
    lang = table.settings.language
    buttons: list[discord.ui.Item[Any]] = [LobbyButton(table.id, op, lang) for op in LobbyOp]
    if activity:
        buttons.append(PlayHereButton(table.id, lang))
    return rows_of(buttons, [SeatSelect(table.id, seat_options(table), lang)])


def lobby_message(table: Table, activity: bool = False) -> Payload:
    """The lobby while it is open; once started or stopped, without buttons and saying so."""
    lang = table.settings.language
    if table.status is TableStatus.LOBBY:
        return Payload(lobby_text(table), lobby_view(table, activity))
    if table.status is TableStatus.STOPPED:
        return Payload(lobby_text(table) + "\n" + t("lobby.stopped", lang))
    link = f"<#{table.thread_id}>" if table.thread_id else ""
    return Payload(lobby_text(table) + "\n" + t("lobby.started", lang, link=link))


def expired_lobby_message(table: Table) -> Payload:
    """The lobby nobody started in time: without buttons, saying so."""
    return Payload(lobby_text(table) + "\n" + t("lobby.expired", table.settings.language))


def thread_name(table: Table) -> str:
    names = names_of(table)
    if table.tournament_id is not None:
        humans = ", ".join(info.name for _, info in table.humans())
        return t("tournament.thread", table.settings.language, table=table.id, players=humans)[:100]
    ns = ", ".join(names[s] for s in (Seat.N, Seat.S))
    ew = ", ".join(names[s] for s in (Seat.E, Seat.W))
    return t("thread.name", table.settings.language, table=table.id, players=f"{ns} vs {ew}")[:100]


# ------------------------------------------------------------------ the table message


def status_line(table: Table) -> str:
    lang = table.settings.language
    game = table.game
    names = names_of(table)
    hand = game.hand
    if hand is not None and hand.trump is not None and hand.player is not None:
        trump = t("table.trump", lang, suit=hand.trump.symbol, player=names[hand.player])
    else:
        trump = t("table.no_trump", lang)
    if game.phase is Phase.OVER:
        turn = t("table.over", lang)
    elif game.to_act is not None:
        key = "table.to_bid" if game.phase is Phase.BIDDING else "table.to_play"
        turn = t(key, lang, name=names[game.to_act])
    else:
        turn = t("hand.between", lang)
    ns, ew = game.totals
    length = table.rules.length
    number = min(game.hand_number + 1, len(game.hands)) if game.hands else 1
    if length.hands is not None:
        return t("table.line", lang, hand=number, hands=length.hands, trump=trump, ns=ns, ew=ew, turn=turn)
    return t("table.line_target", lang, hand=number, target=length.target, trump=trump, ns=ns, ew=ew, turn=turn)


def table_view(table: Table) -> discord.ui.View | None:
    """The table message's button: someone not at the table can take over an AI seat (between hands)."""
    if not table.running or table.tournament_id is not None:  # a tournament table keeps its players
        return None
    if not any(info.kind is SeatKind.AI and info.pending_user_id is None for info in table.seats):
        return None
    return view_of([TakeSeatButton(table.id, table.settings.language)])


def table_message(table: Table, watch: str | None = None) -> Payload:
    """The status line and the hand's news (``table_news``) over the public table image (drawn later:
    ``Payload.drawn``). ``watch``: the table's public view on the web table, a "Watch in browser" button (the
    message's readers are the thread's, the audience the public view is for)."""
    draw = partial(render_table, public_view(table.game), names_of(table), seat=None,
                   theme=theme_of(table, public=True))
    text = "\n".join([status_line(table), *table_news(table)])
    view = table_view(table)
    if watch is not None:
        view = view or discord.ui.View(timeout=None)
        view.add_item(browser_button(watch, table.settings.language, "button.watch_browser"))
    return Payload(text, view, filename="table.png", draw=draw, description=players_alt(table))


def table_news(table: Table) -> list[str]:
    """What the table message tells of the hand besides its status, all of it public: the bidding so far until
    the first trick is in, then the last trick (``trick_lines``). Told here, the bids and tricks of a table with a
    person at it need no posts of their own (``tells_in_table_message``)."""
    hand = table.game.hand
    if hand is None or hand.result is not None:
        return []
    if hand.tricks:
        first, *rest = trick_lines(table, hand.tricks[-1])
        return [t("trick.last", table.settings.language, line=first), *rest]
    bidding = bidding_text(table, hand)
    return [bidding] if bidding else []


def tells_in_table_message(table: Table) -> bool:
    """Someone sits at the table in person, so its table message is edited at every trick (at their turn): the
    bids and the tricks are told there (``table_news``) and under the hand's result, not each in a post."""
    return any(info.kind is SeatKind.HUMAN for info in table.seats)


def bidding_text(table: Table, hand: HandState) -> str:
    """A hand's bidding in words: the turned suit (draaien), the passes, and who plays which trump."""
    lang = table.settings.language
    names = names_of(table)
    said = [t("bid.turned", lang, suit=suit.symbol) for suit in hand.turned[:1]]
    if passes_text(table, hand):
        said.append(passes_text(table, hand))
    if hand.trump is not None and hand.player is not None:
        said.append(t("bid.trump", lang, name=names[hand.player], suit=hand.trump.symbol,
                      suit_name=suit_name(hand.trump, lang), elder=names[hand.elder]))
    return " ".join(said)


def passes_text(table: Table, hand: HandState) -> str:
    """Who passed so far in the hand's bidding, in order."""
    names = names_of(table)
    lang = table.settings.language
    return " ".join(t("bid.passes", lang, name=names[seat]) for seat, call in hand.bids if call is Call.PASS)


def trick_lines(table: Table, trick: Trick) -> list[str]:
    """A completed trick in one line (who led, the cards in the order played, who won it, its points) and, when
    roem is scored at once, its roem (declared roem: none, spotting it is the players' job)."""
    lang = table.settings.language
    names = names_of(table)
    cards = " ".join(card_text(card, lang) for card in trick.cards)
    lines = [t("trick.line", lang, n=trick.index + 1, leader=names[trick.leader], cards=cards,
               name=names[trick.winner], points=trick.points)]
    if trick.roem and table.rules.roem is RoemMode.AUTO:
        lines.append(t("trick.roem", lang, parts=roem_text(trick.roem_parts, lang),
                       team=team_word(trick.winner.team, None, lang)))
    return lines


# ------------------------------------------------------------------ private hands


def hand_status(table: Table, view: SeatView, lang: Language | None = None) -> str:
    lang = lang or table.settings.language
    game = table.game
    if game.phase is Phase.OVER:
        return t("hand.over", lang)
    if view.my_turn:
        if view.phase is Phase.BIDDING:
            return t("hand.your_turn_bid", lang)
        if view.trick:
            return t("hand.your_turn_follow", lang, suit=view.trick[0].suit.symbol)
        return t("hand.your_turn_lead", lang)
    if game.to_act is not None:
        return t("hand.waiting", lang, name=names_of(table, lang)[game.to_act])
    return t("hand.between", lang)


def hand_message(table: Table, view: SeatView, server: str = "", lang: Language | None = None,
                 link: str | None = None) -> Payload:
    """``hand_draft`` with its image drawn; renders."""
    return hand_draft(table, view, server, lang, link).drawn()


def hand_draft(table: Table, view: SeatView, server: str = "", lang: Language | None = None,
               link: str | None = None) -> Payload:
    """Text, card buttons (legal ones enabled when it is this seat's turn) and the hand image (drawn later).

    ``server``: the server's name, for a DM (which otherwise does not say where the table is). ``lang``: the
    reader's language, as a private message speaks it (default: the table's). ``link``: the seat on the web table,
    an "Open in browser" button on a row of its own.
    """
    lang = lang or table.settings.language
    place = f"<#{table.thread_id}>" if table.thread_id else f"<#{table.channel_id}>"
    if server:
        place = f"{place} ({server})"
    text = t("hand.header", lang, table=table.id, place=place, status=hand_status(table, view, lang))
    legal = set(view.legal) if view.phase is Phase.PLAY else set()
    order = hand_order(view)
    buttons = [CardButton(table.id, table.version, card, i + 1, card in legal, lang) for i, card in enumerate(order)]
    draw = partial(render_hand, view, theme=theme_of(table, lang=lang), numbered=True)
    items = view_of(buttons)
    if link is not None:
        items.add_item(browser_button(link, lang))
    return Payload(text, items, filename="hand.png", draw=draw)


def show_hand_message(table: Table, key: str, user_id: int | None) -> Payload:
    """A ping with the Show my hand button, for a player whose hand comes in the thread."""
    lang = table.settings.language
    return Payload(t(key, lang, mention=ping(user_id)), view_of([ShowHandButton(table.id, lang)]), mention=user_id)


# ------------------------------------------------------------------ the game as it goes


def event_message(table: Table, event: EngineEvent) -> Payload | None:
    """The thread's one-line message for a bid, a turned suit, trump, stuk or claimed roem; None for the rest."""
    lang = table.settings.language
    names = names_of(table)
    if isinstance(event, SuitTurned):
        return Payload(t("bid.turned", lang, suit=event.suit.symbol))
    if isinstance(event, BidMade):
        return Payload(t("bid.passes", lang, name=names[event.seat])) if event.call is Call.PASS else None
    if isinstance(event, TrumpChosen):
        hand = table.game.hand
        elder = hand.elder if hand is not None else event.player
        return Payload(t("bid.trump", lang, name=names[event.player], suit=event.trump.symbol,
                         suit_name=suit_name(event.trump, lang), elder=names[elder]))
    if isinstance(event, StukScored):
        return Payload(t("stuk", lang, name=names[event.seat], team=team_word(event.team, None, lang)))
    if isinstance(event, RoemClaimed):
        return Payload(t(claim_key(event), lang, name=names[event.seat], points=event.points,
                         team=team_word(event.seat.team, None, lang)))
    return None


def timer_message(table: Table, seat: Seat | None, action: Action, actor: Actor) -> Payload | None:
    """Said when the turn timer played a human's card or call."""
    if actor is not Actor.TIMER or seat is None or not isinstance(action, Call | Card):
        return None
    lang = table.settings.language
    return Payload(t("timer.played", lang, action=action_text(action, lang), name=names_of(table)[seat]))


def trick_message(table: Table, event: TrickWon) -> Payload:
    """Who won the trick, its roem (declared roem: none, spotting it is the players' job), the Roem! button
    when a human's team may claim it; the image is drawn later."""
    lang = table.settings.language
    names = names_of(table)
    hand = table.game.hand
    assert hand is not None
    trick = hand.tricks[event.trick]
    draw = partial(render_trick, public_view(table.game), names, seat=None, trick=trick,
                   theme=theme_of(table, public=True))
    lines = [t("trick", lang, n=event.trick + 1, name=names[event.winner], card=card_text(event.winning_card, lang),
               points=event.points), *trick_lines(table, trick)[1:]]
    view = view_of([RoemButton(table.id, table.version, lang)]) if human_may_claim(table) else None
    return Payload("\n".join(lines), view, filename="trick.png", draw=draw, description=players_alt(table))


def human_may_claim(table: Table) -> bool:
    """Declared roem: a team with a player at the keyboard may claim the trick just completed and has not yet,
    so the Roem! button is offered. ``Game.may_claim`` judges on what everybody sees, never on the trick's roem:
    the button is there after every trick the team won, roem or not."""
    game = table.game
    if not game.can_claim():
        return False
    return any(game.may_claim(team) and not game.has_claimed(team)
               and any(table.seats[s].kind is SeatKind.HUMAN and not table.seats[s].ai_plays for s in team.seats)
               for team in Team)


def claim_prompt(table: Table, user_id: int | None) -> Payload:
    """After the last trick the engine asks this human: claim the roem (Roem!) or let it go (No roem)."""
    lang = table.settings.language
    buttons = [RoemButton(table.id, table.version, lang), DeclineButton(table.id, table.version, lang)]
    return Payload(t("claim.prompt", lang, mention=ping(user_id)), view_of(buttons), mention=user_id)


def sheet_drawing(table: Table, viewer_team: Team | None = None, lang: Language | None = None) -> Callable[[], bytes]:
    """Draws the score sheet as it is now, from ``viewer_team``'s side (None: neutral), in ``lang`` (default: the
    table's language; a private answer's is its reader's)."""
    game = table.game
    return partial(render_sheet, tuple(game.results), viewer_team=viewer_team, names=names_of(table, lang),
                   hands_total=table.rules.length.hands, finished=game.finished, winner=game.winner,
                   theme=theme_of(table, lang=lang))


def settlement_lines(result: HandResult, names: dict[Seat, str], lang: Language,
                     viewer: Team | None = None) -> list[str]:
    """Nat and pit of a settled hand, the teams named from ``viewer``'s side (None: NS and EW)."""
    lines = []
    playing = result.playing
    if result.nat:
        own = result.points[playing] + result.roem[playing]
        other = result.points[playing.other] + result.roem[playing.other]
        lines.append(t("hand.nat", lang, name=names[result.player], team=team_word(playing, viewer, lang), own=own,
                       other=other))
    if result.pit is not None:
        lines.append(t("hand.pit", lang, team=team_word(result.pit, viewer, lang), points=result.points[result.pit]))
    return lines


def hand_result_message(table: Table, event: HandSettled, tricks: bool = False) -> Payload:
    """The hand's score, nat and pit (``tricks``: then its bidding and tricks, where they had no posts of their
    own); with the sheet (drawn later) unless the match is over (the match message has it)."""
    text = "\n".join([hand_result_text(table, event), *(hand_story(table, event.result.hand) if tricks else [])])
    if table.game.finished:
        return Payload(text)
    return Payload(text, filename="sheet.png", draw=sheet_drawing(table))


def hand_result_text(table: Table, event: HandSettled) -> str:
    lang = table.settings.language
    result = event.result
    lines = [t("hand.result", lang, n=result.hand + 1, ns=result.score[0], ew=result.score[1]),
             *settlement_lines(result, names_of(table), lang)]
    return "\n".join(lines)


def hand_story(table: Table, index: int) -> list[str]:
    """A played hand's bidding and its tricks, a line each: what its posts would have told."""
    hand = table.game.hands[index]
    return [bidding_text(table, hand), *(line for trick in hand.tricks for line in trick_lines(table, trick))]


def match_message(table: Table, event: MatchOver, settled: HandSettled | None = None,
                  tricks: bool = False) -> Payload:
    """Who won, the Rematch button and the sheet (drawn later); ``settled``: the last hand's result first (one
    message for both; ``tricks`` as ``hand_result_message``)."""
    lang = table.settings.language
    ns, ew = event.totals
    hands = len(table.game.hands)
    if event.winner is None:
        text = t("match.draw", lang, ns=ns, ew=ew, hands=hands)
    else:
        text = t("match.won", lang, team=team_word(event.winner, None, lang), won=max(ns, ew), lost=min(ns, ew),
                 hands=hands)
    if settled is not None:
        story = hand_story(table, settled.result.hand) if tricks else []
        text = "\n".join([hand_result_text(table, settled), text, *story])
    if table.tournament_id is not None:
        # No rematch; the replay and record wait for the tournament's closing (the deals are everyone's).
        key = "tournament.table_done_ai" if table.autoplay else "tournament.table_done"
        text += "\n" + t(key, lang, total=ns)
        return Payload(text, filename="sheet.png", draw=sheet_drawing(table))
    return Payload(text, view_of(match_end_buttons(table)), filename="sheet.png", draw=sheet_drawing(table))


def match_end_buttons(table: Table) -> list[discord.ui.Item[Any]]:
    """The match-end message's buttons (the storyboard's end of the match): Rematch, Replay and Export, then
    whatever the hooks below give."""
    lang = table.settings.language
    buttons: list[discord.ui.Item[Any]] = [RematchButton(table.id, lang), ReplayButton(table.id, lang),
                                           ExportButton(table.id, lang)]
    for hook in (stats_button, review_button):
        button = hook(table)
        if button is not None:
            buttons.append(button)
    return buttons


def stats_button(table: Table) -> discord.ui.Item[Any] | None:
    """The storyboard's [Stats]: whoever presses it sees their own statistics privately."""
    return MyStatsButton(table.id, table.settings.language)


def review_button(table: Table) -> discord.ui.Item[Any] | None:
    """Review: the match's review privately for whoever presses it (while it is computed, how far it is)."""
    return ReviewButton(table.id, table.settings.language)


def stopped_message(table: Table, deserted: bool = False) -> Payload:
    """The table was stopped (``deserted``: as nobody played at it in person any more); once a hand was dealt, its
    replay and record are offered as for a finished match."""
    lang = table.settings.language
    played = bool(table.game.hands)
    view = view_of([ReplayButton(table.id, lang), ExportButton(table.id, lang)]) if played else None
    return Payload(t("deserted" if deserted else "stopped", lang), view)


def paused_message(table: Table, grace: float) -> Payload:
    """Nobody plays at the table in person any more: how long it waits for someone to take a seat or come back."""
    return Payload(t("deserted.waiting", table.settings.language, minutes=max(1, math.ceil(grace / 60))))


def bid_prompt(table: Table, user_id: int | None) -> Payload:
    """The bidding buttons for the human to call now, pinging them."""
    game = table.game
    hand = game.hand
    assert hand is not None
    lang = table.settings.language
    mention = ping(user_id)
    calls = [c for c in game.legal_actions() if isinstance(c, Call)]
    if table.rules.bidding is Bidding.DRAAIEN:
        text = t("bid.prompt_draaien", lang, suit=hand.turned[-1].symbol, mention=mention)
    elif Call.PASS not in calls:
        text = t("bid.prompt_forced", lang, mention=mention)
    else:
        text = t("bid.prompt_vrij", lang, mention=mention)
    # The bids so far are told here: the table message waits for the bidding's end (``Announcer.on_progress``).
    passes = passes_text(table, hand)
    text = f"{text}\n{passes}" if passes else text
    return Payload(text, view_of([BidButton(table.id, table.version, c, lang) for c in calls]), mention=user_id)


def seat_changed_text(event: SeatChanged) -> str:
    table = event.table
    lang = table.settings.language
    names = names_of(table)
    if event.change is SeatChange.LEFT:
        return t("seat.left", lang, name=ping(event.user_id), seat=seat_name(event.seat, lang))
    if event.change is SeatChange.BACK:
        return t("seat.back", lang, name=names[event.seat])
    if event.change is SeatChange.WILL_TAKE_OVER:
        return t("seat.will_take_over", lang, name=ping(event.user_id), seat=seat_name(event.seat, lang))
    return t("seat.took_over", lang, name=names[event.seat], seat=seat_name(event.seat, lang))


def reminder_message(table: Table, user_id: int) -> Payload:
    return Payload(t("reminder", table.settings.language, mention=ping(user_id)), mention=user_id)


def away_message(table: Table, user_id: int) -> Payload:
    lang = table.settings.language
    return Payload(t("away", lang, mention=ping(user_id)), view_of([BackButton(table.id, lang)]), mention=user_id)


# ------------------------------------------------------------------ answers to one player


def score_message(table: Table, seat: Seat | None, lang: Language) -> Payload:
    """The score from the asker's side (neutral for onlookers) with the sheet; renders."""
    game = table.game
    ns, ew = game.totals
    if seat is None:
        text = t("score.neutral", lang, ns=ns, ew=ew)
    else:
        team = seat.team
        text = t("score.line", lang, team=team_word(team, None, lang), other=team_word(team.other, None, lang),
                 we=game.totals[team], they=game.totals[team.other])
    image = sheet_drawing(table, seat.team if seat is not None else None, lang)()
    return Payload(text, image=image, filename="sheet.png")


# ------------------------------------------------------------------ the match review

BIG_MISTAKE = 20.0  # points: a decision that cost this much is marked on the review chart


def player_names(table: Table, players: Sequence[PlayerReview], lang: Language) -> dict[int, str]:
    """Who each reviewed person is: the name they sat with, else their seat."""
    names = {info.user_id: info.name for info in table.seats if info.user_id is not None and info.name}
    return {p.player: names.get(p.player) or seat_name(p.seat, lang) for p in players}


def review_message(table: Table, stored: StoredReview, viewer: int, lang: Language) -> Payload:
    """A finished match's review, privately for ``viewer``: each person's accuracy and points lost per hand,
    the three costliest decisions (the viewer's own when they played) with the better choice and why, and
    the chart of points lost per hand; renders."""
    review = stored.review
    if not review.players:
        return Payload(t("review.nobody", lang, table=table.id))
    names = player_names(table, review.players, lang)
    lines = [t("review.title", lang, table=table.id)]
    for p in review.players:
        lines.append(review_headline(p, names[p.player], lang))
    mine = next((p for p in review.players if p.player == viewer), None)
    if mine is not None:
        worst: Sequence[DecisionReview] = mine.worst
    else:
        worst = sorted((d for d in review.decisions if d.cost > 0), key=lambda d: (-d.cost, d.index))[:WORST]
    worst = [d for d in worst if not d.accurate]
    lines.append("")
    if not worst:
        lines.append(t("review.clean", lang))
    else:
        lines.append(t("review.yours" if mine is not None else "review.costliest", lang))
        for n, decision in enumerate(worst, start=1):
            lines.append(mistake_line(n, decision, names[decision.player], lang))
    # The note explains the figures alike in every review: when the whole note would take the message past
    # Discord's limit, one sentence on what accuracy is stands in for it, and failing that it goes, rather than be
    # cut off.
    content = "\n".join(lines)
    for note in ("review.note", "review.note_short"):
        noted = "\n".join([*lines, "", t(note, lang, real=f"{REAL_CHOICE:g}", within=f"{ACCURATE_WITHIN:g}")])
        if len(noted) <= MESSAGE_LIMIT:
            content = noted
            break
    chart = ReviewChart(
        title=t("review.chart_title", lang, table=table.id),
        caption=t("review.chart_caption", lang, hands=review.hands, big=f"{BIG_MISTAKE:g}"),
        legend=tuple(t("review.legend", lang, name=names[p.player], accuracy=accuracy_percent(p.accuracy),
                       lost=number(p.lost_per_decision, lang)) for p in review.players),
        lost=tuple(p.lost_by_hand for p in review.players),
        marks=frozenset((i, d.hand) for i, p in enumerate(review.players) for d in review.decisions
                        if d.player == p.player and d.cost >= BIG_MISTAKE))
    theme = table_theme(table.settings.felt, table.settings.four_colour, lang)
    return Payload(content, image=render_review(chart, theme=theme), filename="review.png")


def review_headline(p: PlayerReview, name: str, lang: Language) -> str:
    """One person's headline: accuracy (calls and cards together), then what their calls and their cards lost."""
    return t("review.player", lang, name=name, seat=seat_name(p.seat, lang), accuracy=accuracy_percent(p.accuracy),
             call_lost=number(p.lost_per_call, lang), calls=p.calls, card_lost=number(p.lost_per_card, lang),
             cards=p.cards)


def mistake_line(n: int, decision: DecisionReview, name: str, lang: Language) -> str:
    """``2. hand 5, trick 3: Anna chose J♥; 9♥ was better by 23 points: 9♥ beats …``."""
    if decision.trick is None:
        where = t("review.where_bid", lang, hand=decision.hand + 1)
    else:
        where = t("review.where_card", lang, hand=decision.hand + 1, trick=decision.trick + 1)
    reason = hint_reason(decision.reason, lang) if decision.reason is not None else ""
    line = t("review.mistake", lang, n=n, where=where, name=name, choice=choice_text(decision.choice, lang),
             best=choice_text(decision.best, lang), cost=f"{decision.cost:.0f}")
    return f"{line}: {reason}" if reason else line


def choice_text(choice: Card | Call, lang: Language) -> str:
    return card_text(choice, lang) if isinstance(choice, Card) else call_text(choice, lang)
