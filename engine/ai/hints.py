"""Hints: the action the strong player would choose, with a short reason in English and Dutch.

The action comes from the strong player (``pimc`` when it is installed, else the heuristic); the
reason from the situation: who heads the trick, whether we must follow, whether our team pulls
trumps, what a signal says. When the heuristic agrees with the action, its own reason is used.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import rulebook
from engine.actions import Call, Choice, Claim, Decline
from engine.ai.base import Player
from engine.ai.heuristic import (
    LOW_RANKS,
    PICTURE_RANKS,
    Decision,
    HeuristicPlayer,
    Knowledge,
    describe_hand,
    hand_evaluation,
    points,
)
from engine.ai.players import UnknownPlayerError, make_player
from engine.cards import SEATS, SUITS, Card, Suit
from engine.game import Phase
from engine.view import SeatView

SUIT_NAMES = {"en": ("clubs", "diamonds", "hearts", "spades"),
              "nl": ("klaveren", "ruiten", "harten", "schoppen")}
HONOUR_NAMES = {"en": {"J": "J", "9": "9", "A": "A", "T": "10"},
                "nl": {"J": "boer", "9": "nel", "A": "aas", "T": "tien"}}

# Reason templates by code; fields: card, head, suit (a suit name), led (a suit name), hand (bid facts), points.
REASONS: dict[str, tuple[str, str]] = {
    "only": ("{card} is your only legal card", "{card} is je enige speelbare kaart"),
    "random": ("any card will do here", "elke kaart is hier goed"),
    "bid_play": ("you hold {hand}: strong enough to play {suit}",
                 "je hebt {hand}: sterk genoeg om {suit} te spelen"),
    "bid_pass": ("your best suit is {suit}, with {hand}; too weak to play",
                 "je beste kleur is {suit}, met {hand}; te zwak om te spelen"),
    "bid_forced": ("you must choose trump: {suit} is your best suit ({hand})",
                   "je moet troef kiezen: {suit} is je beste kleur ({hand})"),
    "pull_trumps": ("your team plays: lead trump to pull the opponents' trumps",
                    "jullie spelen: kom uit met troef om de troeven van de tegenpartij te trekken"),
    "cash": ("{card} is the highest {suit} left: take the trick with it",
             "{card} is de hoogste {suit} die nog in het spel is: haal er de slag mee"),
    "lead_signal": ("partner asked for {suit} (a signal): lead it", "je maat seinde {suit}: kom daarmee uit"),
    "lead_low": ("lead a low card and keep your high cards and guarded tens",
                 "kom uit met een lage kaart en bewaar je hoge kaarten en gedekte tienen"),
    "spek": ("partner's {head} wins; give your {card} (spekken)", "{head} van je maat wint; spek je {card}"),
    "spek_ace": ("partner's {head} wins; give your {card}: partner then knows your 10 is boss (seinen)",
                 "{head} van je maat wint; gooi je {card} bij: dan weet je maat dat je tien de baas is (seinen)"),
    "signal_up": ("partner's {head} wins; a low {suit} card asks partner to lead {suit} (opseinen)",
                  "{head} van je maat wint; een lage {suit} vraagt je maat om {suit} (opseinen)"),
    "signal_down": ("partner's {head} wins; a picture card says you have nothing in {suit} (afseinen)",
                    "{head} van je maat wint; een plaatje zegt dat je niets hebt in {suit} (afseinen)"),
    "keep_trumps": ("partner's {head} wins: no need to trump it; keep your trumps",
                    "{head} van je maat wint: niet introeven, bewaar je troeven"),
    "discard": ("partner's {head} wins; throw {card}", "{head} van je maat wint; gooi {card} bij"),
    "follow_trump": ("partner's {head} wins; follow with your cheapest trump",
                     "{head} van je maat wint; beken met je goedkoopste troef"),
    "follow_cheap": ("partner's {head} wins; follow suit cheaply with {card}",
                     "{head} van je maat wint; beken goedkoop met {card}"),
    "overtake": ("you take over partner's trick with {card}", "je neemt de slag van je maat over met {card}"),
    "win": ("{card} beats {head} and takes the trick", "{card} slaat {head} en haalt de slag"),
    "trump_in": ("you have no {led}: trump in with {card}", "je hebt geen {led}: troef in met {card}"),
    "duck": ("you cannot take this trick safely: play your cheapest card, {card}",
             "deze slag haal je niet veilig: gooi je goedkoopste kaart, {card}"),
    "duck_partner": ("partner's {head} leads but may be beaten; play cheap: {card}",
                     "{head} van je maat ligt voor maar kan nog geslagen worden; gooi goedkoop: {card}"),
    "lead": ("lead {card}", "kom uit met {card}"),
    "claim": ("your team is owed {points} roem for the last trick: claim it",
              "jullie hebben {points} roem in de laatste slag: claim die"),
    "decline": ("your team is owed no roem for the last trick", "jullie hebben geen roem in de laatste slag"),
    "decline_owed": ("not claiming gives up {points} roem", "niet claimen kost jullie {points} roem"),
    "claim_nothing": ("a claim scores nothing now", "claimen levert nu niets op"),
    "follow": ("play {card}", "speel {card}"),
}


@dataclass(frozen=True, slots=True)
class Hint:
    action: Choice
    code: str
    reason_en: str
    reason_nl: str

    def reason(self, lang: str = "en") -> str:
        return self.reason_nl if lang == "nl" else self.reason_en

    def message(self, lang: str = "en") -> str:
        """``Play 10♠: partner's A♠ wins; give your 10♠ (spekken)``."""
        return f"{action_label(self.action, lang)}: {self.reason(lang)}"


def action_label(action: Choice, lang: str = "en") -> str:
    nl = lang == "nl"
    if isinstance(action, Claim):
        return "Roem!"
    if isinstance(action, Decline):
        return "Geen roem" if nl else "No roem"
    if isinstance(action, Card):
        return f"{'Speel' if nl else 'Play'} {action.symbol}"
    if action is Call.PASS:
        return "Pas" if nl else "Pass"
    if action is Call.PLAY:
        return "Speel" if nl else "Play"
    suit = action.suit
    assert suit is not None
    return f"{'Troef' if nl else 'Trump'} {suit.symbol} ({SUIT_NAMES[lang if nl else 'en'][suit]})"


def strong_player(seed: int = 0) -> Player:
    """The player hints follow: ``pimc`` when available, else the heuristic."""
    try:
        return make_player("pimc", seed)
    except UnknownPlayerError:
        return HeuristicPlayer(seed=seed)


def hint(view: SeatView, player: Player | None = None) -> Hint:
    """The action ``player`` (default: the strong player) would choose now, with a reason."""
    if not view.my_turn or not view.legal:
        raise ValueError(f"no hint: it is not {view.seat.letter}'s turn")
    chooser = player or strong_player()
    action = chooser.choose(view)
    decision = HeuristicPlayer().decide(view)
    if decision.action != action or decision.reason == "random":
        decision = explain(view, action)
    return render(view, decision)


def explain(view: SeatView, action: Choice) -> Decision:
    """A reason code for any legal action, read off the situation."""
    if isinstance(action, Claim | Decline):
        owed = view.claim_value(view.team)
        if isinstance(action, Claim):
            return Decision(action, "claim" if owed else "claim_nothing", {"points": str(owed)})
        return Decision(action, "decline_owed" if owed else "decline", {"points": str(owed)})
    if view.phase is Phase.BIDDING:
        return _explain_call(view, action)
    assert isinstance(action, Card)
    name = str(action)
    if len(view.legal) == 1:
        return Decision(action, "only", {"card": name})
    k = Knowledge(view)
    trump = k.trump
    card = int(action)
    if not view.trick:
        playing = view.player is not None and view.player.team is view.team
        if card >> 3 == trump and playing:
            return Decision(action, "pull_trumps", {"card": name})
        if card >> 3 != trump and k.is_boss(card) and rulebook.PLAIN_STRENGTH[card & 7] >= 6:
            return Decision(action, "cash", {"card": name, "suit": SUITS[card >> 3].letter})
        if k.signal_up >> (card >> 3) & 1:
            return Decision(action, "lead_signal", {"card": name, "suit": SUITS[card >> 3].letter})
        if points(card, trump) <= 4:
            return Decision(action, "lead_low", {"card": name})
        return Decision(action, "lead", {"card": name})
    plays = view.trick_plays
    led = plays[0][1] >> 3
    head = view.trick_head()
    assert head is not None
    head_seat, head_card = head
    head_power = rulebook.card_power(head_card, trump, led)
    params = {"card": name, "head": str(head_card), "led": SUITS[led].letter, "suit": SUITS[card >> 3].letter}
    wins = rulebook.card_power(card, trump, led) > head_power
    legal_trumps = any(isinstance(c, Card) and c >> 3 == trump for c in view.legal)
    if head_seat is view.partner and not wins:
        if card >> 3 == trump:
            return Decision(action, "follow_trump", params)
        if card >> 3 != led and legal_trumps:
            return Decision(action, "keep_trumps", params)
        if points(card, trump) >= 10:
            return Decision(action, "spek", params)
        if card >> 3 != led and card & 7 in LOW_RANKS:
            return Decision(action, "signal_up", params)
        if card >> 3 != led and card & 7 in PICTURE_RANKS:
            return Decision(action, "signal_down", params)
        return Decision(action, "follow_cheap" if card >> 3 == led else "discard", params)
    if wins and head_seat is view.partner:
        return Decision(action, "overtake", params)
    if wins:
        after = [SEATS[(view.seat + i) & 3] for i in range(1, 4 - len(plays))]
        if card >> 3 == trump and led != trump:
            return Decision(action, "trump_in", params)
        if k.sure(card, led, after):
            return Decision(action, "win", params)
        return Decision(action, "follow", params)
    return Decision(action, "duck", params)


def _explain_call(view: SeatView, action: Choice) -> Decision:
    assert isinstance(action, Call)
    hand = view.hand_mask
    if action is Call.PLAY or (action is Call.PASS and Call.PLAY in view.legal):
        suit = view.turned[-1]
    elif action.suit is not None:
        suit = action.suit
    else:
        suit = max(SUITS, key=lambda s: (hand_evaluation(hand, s), -s))
    params = {"suit": suit.letter, **describe_hand(hand, suit)}
    if action is Call.PASS:
        return Decision(action, "bid_pass", params)
    if Call.PASS not in view.legal:
        return Decision(action, "bid_forced", params)
    return Decision(action, "bid_play", params)


def render(view: SeatView, decision: Decision) -> Hint:
    texts = REASONS.get(decision.reason, REASONS["follow"])
    return Hint(decision.action, decision.reason, _fill(texts[0], decision.params, "en"),
                _fill(texts[1], decision.params, "nl"))


def _fill(template: str, params: dict[str, str], lang: str) -> str:
    values: dict[str, str] = {}
    for key in ("card", "head"):
        if key in params:
            values[key] = Card.parse(params[key]).symbol
    for key in ("suit", "led"):
        if key in params:
            suit = Suit.parse(params[key])
            values[key] = f"{SUIT_NAMES[lang][suit]} {suit.symbol}"
    if "trumps" in params:
        values["hand"] = _hand_words(params, lang)
    if "points" in params:
        values["points"] = params["points"]
    return template.format_map(_Default(values))


def _hand_words(params: dict[str, str], lang: str) -> str:
    trumps = int(params["trumps"])
    honours = [HONOUR_NAMES[lang][h] for h in params.get("honours", "")]
    aces = int(params.get("aces", "0"))
    if lang == "nl":
        text = f"{trumps} {'troef' if trumps == 1 else 'troeven'}"
        if honours:
            text += " met " + ", ".join(honours)
        if aces:
            text += f" en {aces} {'aas' if aces == 1 else 'azen'} ernaast"
        return text
    text = f"{trumps} {'trump' if trumps == 1 else 'trumps'}"
    if honours:
        text += " with " + ", ".join(honours)
    if aces:
        text += f" and {aces} {'ace' if aces == 1 else 'aces'} beside them"
    return text


class _Default(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "?"
