"""``klaverjas play``: a match in the terminal. You sit South with three AI players.

Input and output are injectable (``ask`` returns a line for a prompt, ``say`` prints a line), so a
test drives a whole scripted game. Ctrl-C or end of input leaves with a goodbye and exit status 0;
``--record FILE`` then (and at the match's end) writes the match's klaverjas-record/1 to FILE.
Every word comes from ``bot.texts`` in the table's language (``--lang nl``: Dutch words and cards).
"""

from __future__ import annotations

import argparse
import json
import random
import textwrap
from collections.abc import Callable
from itertools import groupby

from bot.texts.catalog import (
    TEXTS,
    call_text,
    card_text,
    claim_key,
    hint_text,
    illegal_text,
    parse_call_text,
    parse_card_text,
    parse_setting_value,
    roem_text,
    seat_name,
    setting_value,
    settings_line,
    suit_letter,
    suit_name,
    t,
    team_word,
)
from bot.texts.language import Language
from engine.actions import CALLS, Call, Claim, Decline
from engine.ai.base import Player
from engine.ai.claims import claim_for
from engine.ai.hints import hint, strong_player
from engine.ai.players import PlayerOptions, UnknownPlayerError, find_player_kind
from engine.cards import SEATS, Card, Seat, Suit, Team
from engine.errors import IllegalActionError, KlaverjasError, ParseError
from engine.events import (
    BidMade,
    CardPlayed,
    Event,
    HandDealt,
    HandResult,
    HandSettled,
    MatchOver,
    RoemClaimed,
    StukScored,
    SuitTurned,
    TrickWon,
    TrumpChosen,
)
from engine.game import Game, Phase
from engine.order import sort_cards
from engine.record import export_record
from engine.settings import SETTINGS, Rules
from engine.view import SeatView, seat_view

Ask = Callable[[str], str]
Say = Callable[[str], None]
HUMAN = Seat.S
TERMINAL_WIDTH = 80  # the long lines (welcome, status) are folded to fit

QUIT_WORDS = ("q", "quit", "exit", "stop", "stoppen")
CLAIM_WORDS = ("r", "roem")
HINT_WORDS = ("?", "hint", "tip")


class Quit(Exception):
    """The player typed q."""


class TerminalGame:
    def __init__(self, args: argparse.Namespace, ask: Ask, say: Say) -> None:
        self.args = args
        self.ask = ask
        self.say = say
        self.lang = Language.of(str(getattr(args, "language", "en")))
        self.auto = bool(getattr(args, "auto", False))
        self.show_hints = bool(getattr(args, "hint", False))
        self.rules = build_rules(args)
        seed = getattr(args, "seed", None)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
        self.rng = random.Random(self.seed)
        level = str(getattr(args, "ai", "hard"))
        # Levels in either language (moeilijk = hard); the AI's own kinds (random, pimc) as they are.
        self.level = parse_setting_value("ai", level) or level.strip().lower()
        self.players: dict[Seat, Player] = {}
        self.hint_player: Player | None = None
        self.game = Game(self.rules)

    # ----------------------------------------------------------------- setup

    def make_players(self) -> None:
        kind = find_player_kind(self.level)  # an unknown one is refused before any seat is filled
        for seat in SEATS:
            if seat is HUMAN and not self.auto:
                continue
            self.players[seat] = kind.build(self.seed * 4 + seat, PlayerOptions())
        if self.show_hints and not self.auto:
            self.hint_player = strong_player(self.seed)

    # ----------------------------------------------------------------- naming

    def text(self, key: str, **params: object) -> str:
        """A terminal text (``terminal.<key>``) of the catalog in the table's language."""
        return t(f"terminal.{key}", self.lang, **params)

    def say_wrapped(self, text: str) -> None:
        """A line that may run long, folded to fit an 80-column terminal."""
        for line in textwrap.wrap(text, TERMINAL_WIDTH, subsequent_indent="  ", break_on_hyphens=False):
            self.say(line)

    def seat_name(self, seat: Seat) -> str:
        if seat is HUMAN and not self.auto:
            return self.text("you")
        return seat_name(seat, self.lang)

    def about(self, key: str, seat: Seat, **params: object) -> str:
        """The text ``key`` about what ``seat`` did, in the ``_you`` form when it is the player at the keyboard."""
        if seat is HUMAN and not self.auto and f"{key}_you" in TEXTS:
            key = f"{key}_you"
        return t(key, self.lang, name=self.seat_name(seat), **params)

    def team_name(self, team: Team) -> str:
        """Wij (your side) and Zij; with ``--auto`` nobody is "we": the teams by seat, NS and EW."""
        return team_word(team, None if self.auto else HUMAN.team, self.lang)

    def score(self, ns: int, ew: int) -> str:
        return self.text("score", ns_team=self.team_name(Team.NS), ns=ns, ew_team=self.team_name(Team.EW), ew=ew)

    def suit_name(self, suit: Suit) -> str:
        return f"{suit.symbol} ({suit_name(suit, self.lang)})"

    def call_name(self, call: Call) -> str:
        return call_text(call, self.lang)

    def level_name(self, level: str) -> str:
        return setting_value("ai", level, self.lang)

    # ----------------------------------------------------------------- the match

    def run(self) -> int:
        if self.auto:
            rules = settings_line(self.rules, self.lang) + "."
            self.say_wrapped(self.text("auto", level=self.level_name(self.level), rules=rules))
        else:
            self.say_wrapped(self.text("welcome", rules=settings_line(self.rules, self.lang, ai=self.level,
                                                                      forced=True) + "."))
            self.say_wrapped(self.text("help"))
        self.make_players()
        game = self.game
        while game.phase is not Phase.OVER:
            if game.phase is Phase.DEAL:
                events = game.deal_random(self.rng)
            elif game.phase is Phase.TURN_UP:
                events = game.turn_up_random(self.rng)
            else:
                seat = game.to_act
                assert seat is not None
                # The player melds for their side: after the last trick they answer for their partner too.
                ours = seat is HUMAN or (game.phase is Phase.CLAIM and seat.team is HUMAN.team)
                if ours and not self.auto:
                    events = self.human_turn()
                else:
                    events = game.apply(self.players[seat].choose(seat_view(game, seat)), seat)
            self.show(events)
        return 0

    def human_turn(self) -> list[Event]:
        game = self.game
        if game.phase is Phase.CLAIM:  # the engine asks: claim the last trick's roem, or let it go
            return self.ask_claim("claim_prompt_last", decline=True)
        view = seat_view(game, HUMAN)
        bidding = view.phase is Phase.BIDDING
        if bidding:  # the turned suit was said when it was turned
            if not view.bids and view.elder is not None:
                first = "terminal.first_call_turned" if view.turned else "terminal.first_call"
                self.say(self.about(first, view.elder))
        else:
            self.show_status(view)
        numbered = self.show_hand(view)
        if self.show_hints:
            self.show_hint(view)
        while True:
            text = self.ask(self.prompt(view, numbered)).strip()
            low = text.lower()
            if not text:
                continue  # an empty line asks again, without a complaint
            if low in QUIT_WORDS:
                raise Quit
            if low in HINT_WORDS:
                self.show_hint(view)
                continue
            try:
                action = self.parse(view, numbered, text)
            except ParseError as error:
                self.say(str(error))
                continue
            try:
                return game.apply(action, HUMAN)
            except IllegalActionError as error:
                self.say(illegal_text(error, self.lang))

    def prompt(self, view: SeatView, numbered: list[Card]) -> str:
        if view.phase is Phase.BIDDING:
            return self.text("call_prompt", choices=self.call_choices(view))
        numbers = " ".join(str(i + 1) for i, card in enumerate(numbered) if card in view.legal)
        return self.text("card_prompt", numbers=numbers)

    def call_choices(self, view: SeatView) -> str:
        """``[1=pass 2=C …]``: the words to type; Dutch suit letters in Dutch (K R H S)."""
        return "[" + " ".join(f"{i + 1}={call_word(c, self.lang)}" for i, c in enumerate(self.calls(view))) + "]"

    @staticmethod
    def calls(view: SeatView) -> list[Call]:
        return [c for c in CALLS if c in view.legal]

    def parse(self, view: SeatView, numbered: list[Card], text: str) -> Card | Call:
        low = text.lower()
        if view.phase is Phase.BIDDING:
            calls = self.calls(view)
            if low.isdigit() and 1 <= int(low) <= len(calls):
                return calls[int(low) - 1]
            call = parse_call_text(text)
            if call is None or call not in calls:
                raise ParseError(self.text("bad_call", text=text, choices=self.call_choices(view)))
            return call
        if low.isdigit() and len(low) <= 2 and low != "10":
            numbers = " ".join(str(i + 1) for i, card in enumerate(numbered) if card in view.legal)
            if not 1 <= int(low) <= len(numbered):
                raise ParseError(self.text("bad_number", text=text, numbers=numbers))
            return numbered[int(low) - 1]
        card = parse_card_text(text)
        if card is None:
            raise ParseError(self.text("bad_input", text=text))
        if card not in view.hand:
            raise ParseError(t("error.not_in_hand", self.lang, card=card_text(card, self.lang)))
        return card

    def show_hint(self, view: SeatView) -> None:
        result = hint(view, self.hint_player)
        self.say_wrapped(self.text("hint", text=hint_text(result, self.lang)))

    def show_status(self, view: SeatView) -> None:
        """Trump and its player, the trick, this hand's points and roem, and the match so far."""
        assert view.trump is not None and view.player is not None
        ns, ew = view.points[0] + view.roem[0], view.points[1] + view.roem[1]
        self.say(self.about("terminal.status", view.player, trump=self.suit_name(view.trump), n=view.trick_number + 1))
        self.say(self.text("status_score", score=self.score(ns, ew), total=self.score(view.totals[0], view.totals[1])))
        if view.trick_plays:
            cards = ", ".join(f"{self.seat_name(s)} {card_text(c, self.lang)}" for s, c in view.trick_plays)
            self.say(self.text("table", cards=cards))

    def show_hand(self, view: SeatView) -> list[Card]:
        """Print the hand by suit, numbered, legal cards starred while playing; the numbering in that order."""
        numbered = sort_cards(view.hand, view.trump)
        playing = view.phase is Phase.PLAY
        self.say(self.text("your_hand" if playing else "your_hand_bidding"))
        number = 0
        for suit, group in groupby(numbered, key=lambda card: card.suit):
            cards = list(group)
            parts = []
            for card in cards:
                number += 1
                mark = "*" if playing and card in view.legal else " "
                parts.append(f"{number:>2} {card_text(card, self.lang)}{mark}")
            trump = " " + self.text("trump_suit") if view.trump is suit else ""
            self.say(f"  {suit.symbol}{trump}: " + "  ".join(parts).rstrip())
        return numbered

    # ----------------------------------------------------------------- events

    def show(self, events: list[Event]) -> None:
        for event in events:
            self.show_event(event)
        if any(isinstance(event, TrickWon) for event in events):
            self.show(self.offer_claims())

    def offer_claims(self) -> list[Event]:
        """Declared roem, after a trick: the one place that claims. You may claim (r) after every trick your
        side may claim (``Game.may_claim``: it won it, or with held stuk played a trump king or queen in it);
        nobody tells you whether it holds roem, since spotting it is the point of melden, and a claim that
        finds nothing scores nothing. The AI seats claim what the engine says their team is owed
        (``claim_for``). After the last trick the engine asks in its claim phase instead (``human_turn``)."""
        game = self.game
        if not game.can_claim():
            return []
        events: list[Event] = []
        to_act = game.to_act
        asked_anyway = game.phase is Phase.CLAIM and to_act is not None and to_act.team is HUMAN.team
        prompt = None if self.auto or asked_anyway else self.claim_prompt()
        if prompt is not None:
            events += self.ask_claim(prompt, decline=False)
        for seat in SEATS:
            if seat.team is HUMAN.team and not self.auto:
                continue  # melding for your side is yours: the AI partner leaves it to you
            claim = claim_for(seat_view(game, seat)) if game.can_claim() else None
            if claim is not None:
                events += game.apply(claim)
        return events

    def claim_prompt(self) -> str | None:
        """The question after a trick your side may claim (asked whether or not it holds roem), or None."""
        game = self.game
        hand = game.hand
        assert hand is not None
        if game.has_claimed(HUMAN.team) or not game.may_claim(HUMAN.team):
            return None
        return "claim_prompt" if hand.tricks[-1].winner.team is HUMAN.team else "claim_prompt_stuk"

    def ask_claim(self, key: str, *, decline: bool) -> list[Event]:
        """r claims, Enter goes on; in the engine's claim phase (``decline``) Enter lets the roem go for the
        seat the engine asks (you, or your partner on your word)."""
        while True:
            answer = self.ask(self.text(key)).strip().lower()
            if answer in QUIT_WORDS:
                raise Quit
            if answer in CLAIM_WORDS:
                return self.game.apply(Claim(HUMAN))
            if answer in HINT_WORDS:  # spotting roem is the players' part of the game: no hint here
                self.say(t("error.no_hint_roem", self.lang))
                continue
            if answer:
                self.say(self.text("bad_claim", text=answer))
                continue
            if not answer:
                if not decline:
                    return []
                asked = self.game.to_act
                assert asked is not None
                return self.game.apply(Decline(asked), asked)

    def show_event(self, event: Event) -> None:
        lang = self.lang
        if isinstance(event, HandDealt):
            length = self.rules.length.hands
            of = f"/{length}" if length is not None else ""
            self.say("")
            dealer = (self.text("you_in_sentence") if event.dealer is HUMAN and not self.auto
                      else self.seat_name(event.dealer))
            self.say(self.text("hand", n=event.hand + 1, of=of, dealer=dealer))
            if self.auto:
                for seat in SEATS:
                    cards = sort_cards(self.game.cards_in_hand(seat), None)
                    self.say(self.text("seat_line", seat=self.seat_name(seat),
                                       text=" ".join(card_text(c, lang) for c in cards)))
        elif isinstance(event, SuitTurned):
            self.say(t("bid.turned", lang, suit=self.suit_name(event.suit)))
        elif isinstance(event, BidMade):
            self.say(self.text("seat_line", seat=self.seat_name(event.seat), text=self.call_name(event.call)))
        elif isinstance(event, TrumpChosen):
            hand = self.game.hand
            elder = hand.elder if hand is not None else event.player
            trump = self.about("terminal.trump", event.player, suit=self.suit_name(event.trump),
                               forced=self.text("forced") if event.forced else "")
            self.say(f"{trump} {self.about('terminal.leads', elder)}")
        elif isinstance(event, CardPlayed):
            self.say("  " + self.text("seat_line", seat=self.seat_name(event.seat), text=card_text(event.card, lang)))
        elif isinstance(event, StukScored):
            self.say("  " + self.about("stuk", event.seat, team=self.team_name(event.team)))
        elif isinstance(event, TrickWon):
            card = card_text(event.winning_card, lang)
            self.say(self.about("trick", event.winner, n=event.trick + 1, card=card, points=event.points))
            if event.roem and not event.needs_claim:
                self.say("  " + t("trick.roem", lang, parts=roem_text(event.roem_parts, lang),
                                  team=self.team_name(event.team)))
        elif isinstance(event, RoemClaimed):
            key = claim_key(event)
            self.say("  " + self.about(key, event.seat, points=event.points, team=self.team_name(event.seat.team)))
        elif isinstance(event, HandSettled):
            self.show_settlement(event.result)
        elif isinstance(event, MatchOver):
            ns, ew = event.totals
            n = len(self.game.results)
            if event.winner is None:
                self.say(t("match.draw", lang, ns=ns, ew=ew, hands=n))
            else:
                self.say(t("match.won", lang, team=self.team_name(event.winner), won=max(ns, ew), lost=min(ns, ew),
                           hands=n))

    def show_settlement(self, result: HandResult) -> None:
        team = result.playing
        other = team.other
        key = "terminal.nat" if result.nat else "terminal.made"
        self.say(self.about(key, result.player, n=result.hand + 1, score=self.score(*result.score),
                            pp=result.points[team], pr=result.roem[team], dp=result.points[other],
                            dr=result.roem[other]))
        if result.pit is not None:
            self.say(self.text("pit", team=self.team_name(result.pit)))
        neutral = self.auto
        for line in score_sheet(self.game.results, self.lang, neutral=neutral):
            self.say(line)
        self.say_wrapped(sheet_legend(self.lang, neutral=neutral))

    def write_record(self, path: str) -> None:
        """The match so far as one klaverjas-record/1 line (``klaverjas score`` reads it)."""
        with open(path, "w", encoding="utf-8") as out:
            out.write(json.dumps(export_record(self.game), separators=(",", ":")) + "\n")
        self.say(self.text("recorded", path=path))


def call_word(call: Call, lang: str) -> str:
    """What to type for a call: ``pass``/``passen``, ``play``/``spelen``, a suit letter (Dutch: K R H S)."""
    if call in (Call.PASS, Call.PLAY):
        return call_text(call, lang).lower()
    suit = call.suit
    assert suit is not None
    return suit_letter(suit, lang)


def _team_names(lang: str, neutral: bool) -> tuple[str, str]:
    viewer = None if neutral else HUMAN.team
    return team_word(Team.NS, viewer, lang), team_word(Team.EW, viewer, lang)


def score_sheet(results: list[HandResult], lang: str = Language.EN, *, neutral: bool = False) -> list[str]:
    """The boompje so far: one row per hand, Wij (NS) and Zij (EW) (``neutral``: NS and EW), roem in
    brackets, nat/pit marked, ``*`` on the hands NS played."""
    ns_team, ew_team = _team_names(lang, neutral)
    lines = [t("terminal.sheet", lang), f"  {'#':>6}  {ns_team:>11}  {ew_team:>11}"]
    totals = [0, 0]
    for result in results:
        cells = []
        for team in (Team.NS, Team.EW):
            score = result.score[team]
            roem = result.roem[team] if score else 0
            text = f"{score}" + (f" ({roem})" if roem else "")
            cells.append(f"{text:>11}")
            totals[team] += score
        marks = []
        if result.nat:
            marks.append(f"{t('label.nat', lang).lower()} ({ns_team if result.playing is Team.NS else ew_team})")
        if result.pit is not None:
            marks.append(f"{t('label.pit', lang).lower()} ({ns_team if result.pit is Team.NS else ew_team})")
        star = "*" if result.playing is Team.NS else " "
        lines.append(f"  {result.hand + 1:>5}{star}  {cells[0]}  {cells[1]}  {' '.join(marks)}".rstrip())
    lines.append(f"  {t('label.total', lang).lower():>6}  {totals[0]:>11}  {totals[1]:>11}")
    return lines


def sheet_legend(lang: str = Language.EN, *, neutral: bool = False) -> str:
    """What the score sheet's marks mean."""
    return t("terminal.sheet_legend", lang, ns_team=_team_names(lang, neutral)[0])


def build_rules(args: argparse.Namespace) -> Rules:
    changes: dict[str, object] = {}
    for setting in SETTINGS:
        value = getattr(args, setting.name, None)
        if setting.is_rule and value is not None:
            # Dutch words work too (rotterdams, melden, tot 1001); what no language knows, the rules refuse.
            changes[setting.key] = parse_setting_value(setting.name, str(value)) or value
    return Rules().with_changes(**changes)


def run_play(args: argparse.Namespace, ask: Ask | None = None, say: Say | None = None) -> int:
    """Play a match in the terminal; ``ask``/``say`` default to ``input``/``print``."""
    reader: Ask = ask or input
    writer: Say = say or print
    try:
        table = TerminalGame(args, reader, writer)
    except KlaverjasError as error:
        writer(f"klaverjas play: {error}")
        return 2
    record: str | None = getattr(args, "record", None)
    try:
        return table.run()
    except UnknownPlayerError as error:
        writer(f"klaverjas play: {error}")
        return 2
    except (Quit, EOFError, KeyboardInterrupt):
        writer("")
        writer(table.text("bye"))
        return 0
    finally:
        if record:
            table.write_record(record)
