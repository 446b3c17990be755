"""``klaverjas play``: a match in the terminal. You sit South with three AI players.

Input and output are injectable (``ask`` returns a line for a prompt, ``say`` prints a line), so a
test drives a whole scripted game. Ctrl-C or end of input leaves with a goodbye and exit status 0.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from itertools import groupby

from bot.texts.catalog import illegal_text, settings_line
from engine.actions import CALLS, Call, Claim, Decline
from engine.ai.base import Player
from engine.ai.hints import Hint, hint, strong_player
from engine.ai.players import LEVELS, UnknownPlayerError, make_player
from engine.cards import SEATS, Card, Rank, Seat, Suit, Team
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
from engine.roem import RoemKind, RoemPart, describe_parts
from engine.settings import Rules
from engine.view import SeatView, seat_view

Ask = Callable[[str], str]
Say = Callable[[str], None]
HUMAN = Seat.S

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "welcome": "Klaverjas: you sit South; North is your partner. {rules}",
        "auto": "Klaverjas: four AI players ({level}). {rules}",
        "help": "Type a number or a card (JH, 10h) to play, pass/play or a suit (C D H S) to bid, "
                "? for a hint, q to quit.",
        "hand": "Hand {n}{of}, dealer: {dealer}.",
        "your_hand": "Your hand (* = you may play it):",
        "hand_of": "{seat}: {cards}",
        "turned": "Turned: {suit}",
        "bid": "{seat}: {call}",
        "pass": "pass",
        "play": "play",
        "trump": "{seat} {plays} {suit} as trump{forced}. {elder} to lead.",
        "plays_verb": "plays",
        "plays_verb_you": "play",
        "forced": " (forced)",
        "card": "  {seat}: {card}",
        "table": "On the table: {cards}",
        "trick": "Trick {n}: {winner} {wins} with {card}, {points} points.",
        "wins_verb": "wins",
        "wins_verb_you": "win",
        "roem": "  Roem: {parts} for {team}.",
        "roem_claim": "  Roem in this trick: {parts}. Declared roem counts only when claimed.",
        "claim_ask": "Claim the roem ({parts})? [y/n]: ",
        "claimed": "  {seat} claims roem: {points}.",
        "stuk": "  {seat}: stuk, 20 roem for {team}.",
        "status": "Trump {trump} ({player} plays) · trick {n}/8 · Wij {we} – Zij {they}",
        "bid_status": "{elder} to call first.",
        "call_prompt": "Your call {choices}: ",
        "card_prompt": "Your card (number or card) [{numbers}]: ",
        "hint": "Hint: {text}",
        "settled_made": "Hand {n}: Wij {we} — Zij {they}. {player} made it ({pp} points + {pr} roem against "
                        "{dp} + {dr}).",
        "settled_nat": "Hand {n}: Wij {we} — Zij {they}. {player} is NAT ({pp} points + {pr} roem against "
                       "{dp} + {dr}).",
        "pit": "PIT for {team}! 100 roem extra.",
        "sheet": "Score sheet:",
        "total": "total",
        "nat": "nat",
        "pit_mark": "pit",
        "won": "{team} win {a} – {b} after {n} hands.",
        "draw": "A draw: {a} – {b} after {n} hands.",
        "bye": "Goodbye!",
        "bad_input": "Not understood: {text!r}. Type a card number from the list, or a card like JH or 10h.",
        "bad_call": "Not a call here: {text!r}. Choose one of: {choices}.",
        "bad_number": "No card number {text} here: use one of {numbers}.",
        "not_held": "You do not hold {card}.",
        "level_fallback": "The {level} player is not available; playing against level normal.",
        "you": "You",
        "wij": "Wij",
        "zij": "Zij",
    },
    "nl": {
        "welcome": "Klaverjassen: jij zit Zuid; Noord is je maat. {rules}",
        "auto": "Klaverjassen: vier AI-spelers ({level}). {rules}",
        "help": "Typ een nummer of een kaart (JH, 10h) om te spelen, pas/speel of een kleur (C D H S) "
                "om te bieden, ? voor een tip, q om te stoppen.",
        "hand": "Spel {n}{of}, deler: {dealer}.",
        "your_hand": "Je kaarten (* = speelbaar):",
        "hand_of": "{seat}: {cards}",
        "turned": "Gedraaid: {suit}",
        "bid": "{seat}: {call}",
        "pass": "pas",
        "play": "speel",
        "trump": "{seat} {plays} {suit} als troef{forced}. {elder} komt uit.",
        "plays_verb": "speelt",
        "plays_verb_you": "speelt",
        "forced": " (verplicht)",
        "card": "  {seat}: {card}",
        "table": "Op tafel: {cards}",
        "trick": "Slag {n}: {winner} {wins} met {card}, {points} punten.",
        "wins_verb": "wint",
        "wins_verb_you": "wint",
        "roem": "  Roem: {parts} voor {team}.",
        "roem_claim": "  Roem in deze slag: {parts}. Roem telt alleen als je hem meldt.",
        "claim_ask": "Roem melden ({parts})? [j/n]: ",
        "claimed": "  {seat} meldt roem: {points}.",
        "stuk": "  {seat}: stuk, 20 roem voor {team}.",
        "status": "Troef {trump} ({player} speelt) · slag {n}/8 · Wij {we} – Zij {they}",
        "bid_status": "{elder} mag als eerste bieden.",
        "call_prompt": "Jouw keuze {choices}: ",
        "card_prompt": "Jouw kaart (nummer of kaart) [{numbers}]: ",
        "hint": "Tip: {text}",
        "settled_made": "Spel {n}: Wij {we} — Zij {they}. {player} haalt het ({pp} punten + {pr} roem tegen "
                        "{dp} + {dr}).",
        "settled_nat": "Spel {n}: Wij {we} — Zij {they}. {player} is NAT ({pp} punten + {pr} roem tegen "
                       "{dp} + {dr}).",
        "pit": "PIT voor {team}! 100 roem extra.",
        "sheet": "Scoreblad:",
        "total": "totaal",
        "nat": "nat",
        "pit_mark": "pit",
        "won": "{team} winnen met {a} – {b} na {n} spellen.",
        "draw": "Gelijkspel: {a} – {b} na {n} spellen.",
        "bye": "Tot ziens!",
        "bad_input": "Niet begrepen: {text!r}. Typ het nummer van een kaart of een kaart zoals JH of 10h.",
        "bad_call": "Dat kan hier niet: {text!r}. Kies uit: {choices}.",
        "bad_number": "Geen kaart met nummer {text}: kies uit {numbers}.",
        "not_held": "Je hebt {card} niet.",
        "level_fallback": "De speler {level} is er niet; je speelt tegen niveau normal.",
        "you": "Jij",
        "wij": "Wij",
        "zij": "Zij",
    },
}
SEAT_NAMES = {"en": ("North", "East", "South", "West"), "nl": ("Noord", "Oost", "Zuid", "West")}
SUIT_WORDS = {"en": ("clubs", "diamonds", "hearts", "spades"), "nl": ("klaveren", "ruiten", "harten", "schoppen")}
# Words accepted for calls besides the notation (pass, play, C D H S).
CALL_WORDS: dict[str, Call] = {
    "pas": Call.PASS, "p": Call.PASS, "speel": Call.PLAY, "spelen": Call.PLAY,
    "klaver": Call.C, "klaveren": Call.C, "clubs": Call.C, "♣": Call.C,
    "ruiten": Call.D, "diamonds": Call.D, "♦": Call.D,
    "harten": Call.H, "hearts": Call.H, "♥": Call.H,
    "schoppen": Call.S, "spades": Call.S, "♠": Call.S,
}
FOUR_NL = {Rank.TEN: "vier tienen", Rank.JACK: "vier boeren", Rank.QUEEN: "vier vrouwen", Rank.KING: "vier heren",
           Rank.ACE: "vier azen"}
QUIT_WORDS = ("q", "quit", "exit", "stop", "stoppen")
HINT_WORDS = ("?", "hint", "tip")


class Quit(Exception):
    """The player typed q."""


class Table:
    def __init__(self, args: argparse.Namespace, ask: Ask, say: Say) -> None:
        self.args = args
        self.ask = ask
        self.say = say
        self.lang = "nl" if str(getattr(args, "lang", "en")).lower().startswith("nl") else "en"
        self.t = TEXTS[self.lang]
        self.auto = bool(getattr(args, "auto", False))
        self.show_hints = bool(getattr(args, "hint", False))
        self.rules = build_rules(args)
        seed = getattr(args, "seed", None)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
        self.rng = random.Random(self.seed)
        self.level = str(getattr(args, "level", "hard")).lower()
        self.players: dict[Seat, Player] = {}
        self.hint_player: Player | None = None
        self.game = Game(self.rules)

    # ----------------------------------------------------------------- setup

    def make_players(self) -> None:
        if self.level not in LEVELS and self.level not in ("random", "heuristic", "pimc"):
            raise UnknownPlayerError(f"unknown level {self.level!r}: choose easy, normal or hard")
        for seat in SEATS:
            if seat is HUMAN and not self.auto:
                continue
            try:
                self.players[seat] = make_player(self.level, self.seed * 4 + seat)
            except UnknownPlayerError:
                if seat is SEATS[0] or (seat is Seat.E and not self.players):
                    self.say(self.t["level_fallback"].format(level=self.level))
                self.level = "normal"
                self.players[seat] = make_player("normal", self.seed * 4 + seat)
        if self.show_hints and not self.auto:
            self.hint_player = strong_player(self.seed)

    # ----------------------------------------------------------------- naming

    def seat_name(self, seat: Seat) -> str:
        if seat is HUMAN and not self.auto:
            return self.t["you"]
        return SEAT_NAMES[self.lang][seat]

    def team_name(self, team: Team) -> str:
        return self.t["wij"] if team is Team.NS else self.t["zij"]

    def suit_name(self, suit: Suit) -> str:
        return f"{suit.symbol} ({SUIT_WORDS[self.lang][suit]})"

    def call_name(self, call: Call) -> str:
        if call is Call.PASS:
            return self.t["pass"]
        if call is Call.PLAY:
            return self.t["play"]
        suit = call.suit
        assert suit is not None
        return self.suit_name(suit)

    def roem_words(self, parts: tuple[RoemPart, ...]) -> str:
        if self.lang == "en":
            return describe_parts(parts)
        words = [FOUR_NL.get(p.rank or Rank.ACE, "vier") if p.kind is RoemKind.FOUR_OF_A_KIND else p.kind.value
                 for p in parts]
        return " + ".join(words) + f": {sum(p.points for p in parts)}"

    # ----------------------------------------------------------------- the match

    def run(self) -> int:
        rules = settings_line(self.rules, self.lang) + "."
        if self.auto:
            self.say(self.t["auto"].format(level=self.level, rules=rules))
        else:
            self.say(self.t["welcome"].format(rules=rules))
            self.say(self.t["help"])
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
                if seat is HUMAN and not self.auto:
                    events = self.human_turn()
                else:
                    events = game.apply(self.players[seat].choose(seat_view(game, seat)), seat)
            self.show(events)
        return 0

    def human_turn(self) -> list[Event]:
        game = self.game
        if game.phase is Phase.CLAIM:  # the engine asks: claim the last trick's roem, or let it go
            return self.ask_claim(str(game.claim_value(HUMAN.team)))
        view = seat_view(game, HUMAN)
        bidding = view.phase is Phase.BIDDING
        if bidding:
            if not view.bids and view.elder is not None:
                self.say(self.t["bid_status"].format(elder=self.seat_name(view.elder)))
            if view.turned:
                self.say(self.t["turned"].format(suit=self.suit_name(view.turned[-1])))
        else:
            self.show_status(view)
        numbered = self.show_hand(view)
        if self.show_hints:
            self.show_hint(view)
        while True:
            text = self.ask(self.prompt(view, numbered)).strip()
            low = text.lower()
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
                self.say(self.illegal_message(error))

    def prompt(self, view: SeatView, numbered: list[Card]) -> str:
        if view.phase is Phase.BIDDING:
            return self.t["call_prompt"].format(choices=self.call_choices(view))
        numbers = " ".join(str(i + 1) for i, card in enumerate(numbered) if card in view.legal)
        return self.t["card_prompt"].format(numbers=numbers)

    def call_choices(self, view: SeatView) -> str:
        return "[" + " ".join(f"{i + 1}={self.call_name(c) if c in (Call.PASS, Call.PLAY) else c.value}"
                              for i, c in enumerate(self.calls(view))) + "]"

    @staticmethod
    def calls(view: SeatView) -> list[Call]:
        return [c for c in CALLS if c in view.legal]

    def parse(self, view: SeatView, numbered: list[Card], text: str) -> Card | Call:
        low = text.lower()
        if view.phase is Phase.BIDDING:
            calls = self.calls(view)
            if low.isdigit() and 1 <= int(low) <= len(calls):
                return calls[int(low) - 1]
            call = CALL_WORDS.get(low)
            if call is None:
                try:
                    call = Call.parse(text)
                except ParseError:
                    call = None
            if call is None or call not in calls:
                raise ParseError(self.t["bad_call"].format(text=text, choices=self.call_choices(view)))
            return call
        if low.isdigit() and len(low) <= 2 and low != "10":
            numbers = " ".join(str(i + 1) for i, card in enumerate(numbered) if card in view.legal)
            if not 1 <= int(low) <= len(numbered):
                raise ParseError(self.t["bad_number"].format(text=text, numbers=numbers))
            return numbered[int(low) - 1]
        try:
            card = Card.parse(text)
        except ParseError:
            raise ParseError(self.t["bad_input"].format(text=text)) from None
        if card not in view.hand:
            raise ParseError(self.t["not_held"].format(card=card.symbol))
        return card

    def illegal_message(self, error: IllegalActionError) -> str:
        return illegal_text(error, self.lang)

    def show_hint(self, view: SeatView) -> None:
        result: Hint = hint(view, self.hint_player)
        self.say(self.t["hint"].format(text=result.message(self.lang)))

    def show_status(self, view: SeatView) -> None:
        assert view.trump is not None and view.player is not None
        we, they = view.points[0] + view.roem[0], view.points[1] + view.roem[1]
        self.say(self.t["status"].format(trump=self.suit_name(view.trump), player=self.seat_name(view.player),
                                         n=view.trick_number + 1, we=we, they=they))
        if view.trick_plays:
            cards = ", ".join(f"{self.seat_name(s)} {c.symbol}" for s, c in view.trick_plays)
            self.say(self.t["table"].format(cards=cards))

    def show_hand(self, view: SeatView) -> list[Card]:
        """Print the hand by suit, numbered, legal cards starred; the numbering in that order."""
        numbered = sort_cards(view.hand, view.trump)
        self.say(self.t["your_hand"])
        playing = view.phase is Phase.PLAY
        number = 0
        for suit, group in groupby(numbered, key=lambda card: card.suit):
            cards = list(group)
            parts = []
            for card in cards:
                number += 1
                mark = "*" if playing and card in view.legal else " "
                parts.append(f"{number:>2} {card.symbol}{mark}")
            trump = " troef" if view.trump is suit and self.lang == "nl" else " trump" if view.trump is suit else ""
            self.say(f"  {suit.symbol}{trump}: " + "  ".join(parts))
        return numbered

    # ----------------------------------------------------------------- events

    def show(self, events: list[Event]) -> None:
        pending = list(events)
        while pending:
            event = pending.pop(0)
            self.show_event(event)
            if isinstance(event, TrickWon) and event.needs_claim:
                claimed = self.maybe_claim(event)
                if any(isinstance(e, HandSettled) for e in claimed):
                    # The claim re-settled the hand: its settlement replaces the one already queued.
                    pending = [e for e in pending if not isinstance(e, HandSettled | MatchOver)]
                pending = claimed + pending

    def maybe_claim(self, event: TrickWon) -> list[Event]:
        parts = self.roem_words(event.roem_parts)
        if event.team is HUMAN.team and not self.auto:
            self.say(self.t["roem_claim"].format(parts=parts))
            return self.ask_claim(parts)
        # AI teams always claim their roem.
        return self.game.apply(Claim(event.winner))

    def ask_claim(self, parts: str) -> list[Event]:
        while True:
            answer = self.ask(self.t["claim_ask"].format(parts=parts)).strip().lower()
            if answer in QUIT_WORDS:
                raise Quit
            if answer in ("y", "yes", "j", "ja"):
                return self.game.apply(Claim(HUMAN))
            if answer in ("n", "no", "nee", ""):
                # After the last trick the engine waits for an answer: decline when it asks this seat.
                asked = self.game.phase is Phase.CLAIM and self.game.to_act is HUMAN
                return self.game.apply(Decline(HUMAN), HUMAN) if asked else []

    def show_event(self, event: Event) -> None:
        t = self.t
        if isinstance(event, HandDealt):
            length = self.rules.length.hands
            of = f"/{length}" if length is not None else ""
            self.say("")
            self.say(t["hand"].format(n=event.hand + 1, of=of, dealer=self.seat_name(event.dealer)))
            if self.auto:
                for seat in SEATS:
                    cards = sort_cards(self.game.cards_in_hand(seat), None)
                    self.say(t["hand_of"].format(seat=self.seat_name(seat), cards=" ".join(c.symbol for c in cards)))
        elif isinstance(event, SuitTurned):
            self.say(t["turned"].format(suit=self.suit_name(event.suit)))
        elif isinstance(event, BidMade):
            self.say(t["bid"].format(seat=self.seat_name(event.seat), call=self.call_name(event.call)))
        elif isinstance(event, TrumpChosen):
            you = event.player is HUMAN and not self.auto
            hand = self.game.hand
            elder = hand.elder if hand is not None else event.player
            self.say(t["trump"].format(seat=self.seat_name(event.player),
                                       plays=t["plays_verb_you" if you else "plays_verb"],
                                       suit=self.suit_name(event.trump), forced=t["forced"] if event.forced else "",
                                       elder=self.seat_name(elder)))
        elif isinstance(event, CardPlayed):
            self.say(t["card"].format(seat=self.seat_name(event.seat), card=event.card.symbol))
        elif isinstance(event, StukScored):
            self.say(t["stuk"].format(seat=self.seat_name(event.seat), team=self.team_name(event.team)))
        elif isinstance(event, TrickWon):
            you = event.winner is HUMAN and not self.auto
            card = event.cards[(event.winner - event.leader) & 3]
            self.say(t["trick"].format(n=event.trick + 1, winner=self.seat_name(event.winner),
                                       wins=t["wins_verb_you" if you else "wins_verb"], card=card.symbol,
                                       points=event.points))
            if event.roem and not event.needs_claim:
                self.say(t["roem"].format(parts=self.roem_words(event.roem_parts), team=self.team_name(event.team)))
        elif isinstance(event, RoemClaimed):
            self.say(t["claimed"].format(seat=self.seat_name(event.seat), points=event.points))
        elif isinstance(event, HandSettled):
            self.show_settlement(event.result)
        elif isinstance(event, MatchOver):
            a, b = event.totals
            n = len(self.game.results)
            if event.winner is None:
                self.say(t["draw"].format(a=a, b=b, n=n))
            else:
                self.say(t["won"].format(team=self.team_name(event.winner), a=max(a, b), b=min(a, b), n=n))

    def show_settlement(self, result: HandResult) -> None:
        t = self.t
        team = result.playing
        other = team.other
        key = "settled_nat" if result.nat else "settled_made"
        self.say(t[key].format(n=result.hand + 1, we=result.score[0], they=result.score[1],
                               player=self.seat_name(result.player), pp=result.points[team],
                               pr=result.roem[team], dp=result.points[other], dr=result.roem[other]))
        if result.pit is not None:
            self.say(t["pit"].format(team=self.team_name(result.pit)))
        for line in score_sheet(self.game.results, self.lang):
            self.say(line)


def score_sheet(results: list[HandResult], lang: str = "en") -> list[str]:
    """The boompje so far: one row per hand, Wij (NS) and Zij (EW), roem in brackets, nat/pit marked."""
    t = TEXTS[lang]
    lines = [t["sheet"], f"  {'#':>6}  {t['wij']:>11}  {t['zij']:>11}"]
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
            marks.append(f"{t['nat']} ({t['wij'] if result.playing is Team.NS else t['zij']})")
        if result.pit is not None:
            marks.append(f"{t['pit_mark']} ({t['wij'] if result.pit is Team.NS else t['zij']})")
        star = "*" if result.playing is Team.NS else " "
        lines.append(f"  {result.hand + 1:>5}{star} {cells[0]}  {cells[1]}  {' '.join(marks)}".rstrip())
    lines.append(f"  {t['total']:>6}  {totals[0]:>11}  {totals[1]:>11}")
    return lines


def build_rules(args: argparse.Namespace) -> Rules:
    changes: dict[str, object] = {}
    for key in ("play", "undertrump", "bidding", "forced", "roem", "stuk", "length"):
        attr = "rules" if key == "play" else key
        value = getattr(args, attr, None)
        if value is not None:
            changes[key] = value
    return Rules().with_changes(**changes)


def run_play(args: argparse.Namespace, ask: Ask | None = None, say: Say | None = None) -> int:
    """Play a match in the terminal; ``ask``/``say`` default to ``input``/``print``."""
    reader: Ask = ask or input
    writer: Say = say or print
    try:
        table = Table(args, reader, writer)
    except KlaverjasError as error:
        writer(f"klaverjas play: {error}")
        return 2
    try:
        return table.run()
    except UnknownPlayerError as error:
        writer(f"klaverjas play: {error}")
        return 2
    except (Quit, EOFError, KeyboardInterrupt):
        writer("")
        writer(table.t["bye"])
        return 0
