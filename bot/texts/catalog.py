"""Every text a Discord player sees, in English and Dutch.

``t(key, lang, **params)`` formats one text; ``lang_of(locale)`` maps a Discord locale to a language
(``nl`` is Dutch, everything else English). Error codes of the service and the engine have their own
keys (``error.<code>``), so refusals are phrased here, not in the views.
"""

from __future__ import annotations

from typing import Any

from discord import Locale, app_commands

from engine.actions import Call
from engine.cards import Card, Seat, Suit, Team
from engine.errors import IllegalActionError
from engine.settings import Bidding, ForcedSeat, PlayRules, RoemMode, Rules, StukMode, Undertrump

EN = "en"
NL = "nl"

TEXTS: dict[str, tuple[str, str]] = {
    # lobby
    "lobby.title": ("🃏 Klaverjas table #{table} — host: {host}", "🃏 Klaverjastafel #{table} — gastheer: {host}"),
    "lobby.empty": ("— empty —", "— leeg —"),
    "lobby.host": ("★ host", "★ gastheer"),
    "lobby.started": ("The game is on: {link}", "Het spel is begonnen: {link}"),
    "lobby.stopped": ("This table was stopped.", "Deze tafel is gestopt."),
    "lobby.teams": ("Teams: NS = North + South, EW = East + West (partners sit opposite).",
                    "Teams: NS = Noord + Zuid, EW = Oost + West (partners zitten tegenover elkaar)."),
    "seat.menu": ("Choose a seat…", "Kies een plaats…"),
    "seat.option": ("Sit {seat}", "Zit {seat}"),
    "seat.option_free": ("free", "vrij"),
    "seat.option_ai": ("AI player: you replace it", "AI-speler: je neemt de plaats over"),
    "seat.option_human": ("taken by {name}", "bezet door {name}"),
    "button.take_seat": ("Take an AI seat", "Neem een AI-plaats over"),
    "button.rematch": ("Rematch", "Revanche"),
    "took_seat": ("You sit {seat} now.", "Je zit nu {seat}."),
    "reserved_seat": ("Seat {seat} is yours from the next hand.", "Plaats {seat} is van jou vanaf de volgende hand."),
    "rematch.opened": ("Rematch: table #{table} is open in {place}; the host starts it.",
                       "Revanche: tafel #{table} staat klaar in {place}; de gastheer start hem."),

    "delivery.dm": ("Your hand now comes by direct message.", "Je hand komt nu per privébericht."),
    "delivery.thread": ("Your hand now comes here, visible only to you (use /klaverjas hand or Show my hand).",
                        "Je hand komt nu hier, alleen voor jou zichtbaar (gebruik /klaverjas hand of Toon mijn "
                        "hand)."),
    "delivery.saved": ("Saved: your hand comes by {where} at your next tables.",
                       "Opgeslagen: je hand komt aan je volgende tafels per {where}."),
    "delivery.where_dm": ("direct message", "privébericht"),
    "delivery.where_thread": ("the table's thread", "de draad van de tafel"),
    "button.join": ("Join", "Meedoen"),
    "button.leave": ("Leave", "Weggaan"),
    "button.add_ai": ("Add AI", "AI erbij"),
    "button.start": ("Start", "Start"),
    "button.pass": ("Pass", "Pas"),
    "button.play": ("Play", "Spelen"),
    "button.roem": ("Roem!", "Roem!"),
    "button.back": ("I'm back", "Ik ben terug"),
    "button.show_hand": ("Show my hand", "Toon mijn hand"),
    "joined": ("You sit {seat}.", "Je zit {seat}."),
    "left": ("You left the table.", "Je hebt de tafel verlaten."),
    "left_ai": ("You left; an AI player takes your seat.", "Je bent weg; een AI-speler neemt je plaats in."),
    "ai_added": ("An AI player sits {seat}.", "Een AI-speler zit {seat}."),
    "started": ("Started.", "Gestart."),
    "thread.name": ("Klaverjas #{table} — {players}", "Klaverjas #{table} — {players}"),
    "ai.name": ("AI {seat}", "AI {seat}"),
    # table line and announcements
    "table.line": ("Hand {hand}/{hands} · {trump} · NS {ns} – EW {ew} · {turn}",
                   "Hand {hand}/{hands} · {trump} · NS {ns} – EW {ew} · {turn}"),
    "table.line_target": ("Hand {hand} · to {target} · {trump} · NS {ns} – EW {ew} · {turn}",
                          "Hand {hand} · tot {target} · {trump} · NS {ns} – EW {ew} · {turn}"),
    "table.no_trump": ("bidding", "bieden"),
    "table.trump": ("trump {suit} ({player} plays)", "troef {suit} ({player} speelt)"),
    "table.to_play": ("{name} to play", "{name} is aan de beurt"),
    "table.to_bid": ("{name} to bid", "{name} moet bieden"),
    "table.over": ("match over", "partij voorbij"),
    "bid.prompt_vrij": ("{mention}, choose trump:", "{mention}, kies troef:"),
    "bid.prompt_forced": ("{mention}, everyone passed: you must choose trump.",
                          "{mention}, iedereen heeft gepast: jij moet troef kiezen."),
    "bid.prompt_draaien": ("Turned: {suit} — {mention}, play or pass?",
                           "Gedraaid: {suit} — {mention}, spelen of passen?"),
    "bid.passes": ("{name} passes.", "{name} past."),
    "bid.turned": ("Turned: {suit}.", "Gedraaid: {suit}."),
    "bid.trump": ("{name} plays {suit} (trump {suit_name}). {elder} leads.",
                  "{name} speelt {suit} (troef {suit_name}). {elder} komt uit."),
    "trick": ("Trick {n}: {name} wins with {card} — {points} points.",
              "Slag {n}: {name} wint met {card} — {points} punten."),
    "trick.roem": ("Roem: {parts} for {team}!", "Roem: {parts} voor {team}!"),
    "trick.roem_claim": ("Roem: {parts} for {team}, if they claim it: press Roem! before the next card.",
                         "Roem: {parts} voor {team}, als ze het melden: druk op Roem! voor de volgende kaart."),
    "roem.claimed": ("{name} claims roem: {points} for {team}.", "{name} meldt roem: {points} voor {team}."),
    "roem.claimed_nothing": ("{name} claims roem, but it scores nothing.", "{name} meldt roem, maar die telt niet."),
    "stuk": ("{name} shows stuk: 20 for {team}.", "{name} heeft stuk: 20 voor {team}."),
    "hand.result": ("Hand {n}: NS {ns} — EW {ew}.", "Hand {n}: NS {ns} — EW {ew}."),
    "hand.nat": ("{name} is NAT ({team} {own} against {other}).", "{name} is NAT ({team} {own} tegen {other})."),
    "hand.pit": ("PIT for {team}! {points} + 100.", "PIT voor {team}! {points} + 100."),
    "match.won": ("{team} win {ns} – {ew} after {hands} hands.", "{team} winnen met {ns} – {ew} na {hands} handen."),
    "match.draw": ("A draw: {ns} – {ew} after {hands} hands.", "Gelijkspel: {ns} – {ew} na {hands} handen."),
    "reminder": ("{mention}, your turn.", "{mention}, jij bent aan de beurt."),
    "timer.played": ("The AI played {action} for {name}.", "De AI speelde {action} voor {name}."),
    "away": ("{mention} missed two turns: the AI keeps the seat until you press I'm back.",
             "{mention} miste twee beurten: de AI houdt de plaats tot je op Ik ben terug drukt."),
    "seat.left": ("{name} left; an AI player takes the seat {seat}.",
                  "{name} is weg; een AI-speler neemt plaats {seat} in."),
    "seat.back": ("{name} is back.", "{name} is terug."),
    "seat.took_over": ("{name} takes over seat {seat}.", "{name} neemt plaats {seat} over."),
    "seat.will_take_over": ("{name} takes over seat {seat} from the next hand.",
                            "{name} neemt plaats {seat} over vanaf de volgende hand."),
    "score.line": ("Wij ({team}) {we} – Zij ({other}) {they}", "Wij ({team}) {we} – Zij ({other}) {they}"),
    "score.neutral": ("NS {ns} – EW {ew}", "NS {ns} – EW {ew}"),
    "stopped": ("The table was stopped.", "De tafel is gestopt."),
    "stop.voted": ("Your vote to stop is counted; a majority of the players is needed.",
                   "Je stem om te stoppen is geteld; een meerderheid van de spelers is nodig."),
    "restored": ("The bot restarted: the game continues where it was.",
                 "De bot is herstart: het spel gaat verder waar het was."),
    # private hand
    "hand.header": ("Table #{table} in {place} — {status}", "Tafel #{table} in {place} — {status}"),
    "hand.your_turn_lead": ("your turn: lead", "jouw beurt: kom uit"),
    "hand.your_turn_follow": ("your turn: follow {suit}", "jouw beurt: beken {suit}"),
    "hand.your_turn_bid": ("your turn to bid: use the buttons in the thread",
                           "jij moet bieden: gebruik de knoppen in de draad"),
    "hand.waiting": ("{name}'s turn", "{name} is aan de beurt"),
    "hand.between": ("waiting for the next deal", "wachten op het volgende delen"),
    "hand.over": ("the match is over", "de partij is voorbij"),
    "dm.closed": ("{mention}, I cannot send you a direct message: press Show my hand to see your cards here, "
                  "privately.",
                  "{mention}, ik kan je geen privébericht sturen: druk op Toon mijn hand om je kaarten hier "
                  "privé te zien."),
    "dm.your_turn": ("{mention}, your turn.", "{mention}, jij bent aan de beurt."),
    "dm.welcome": ("You joined Klaverjas table #{table}{where}. Your cards will arrive here.",
                   "Je doet mee aan klaverjastafel #{table}{where}. Je kaarten komen hier."),
    "dm.closed_private": ("I cannot send you direct messages, so your cards will be shown in the table's thread: "
                          "press Show my hand there (only you see them). To get them by DM, allow direct messages "
                          "from this server and use /klaverjas hand delivery:dm.",
                          "Ik kan je geen privéberichten sturen, dus je kaarten komen in de draad van de tafel: druk "
                          "daar op Toon mijn hand (alleen jij ziet ze). Wil je ze als privébericht, sta dan "
                          "privéberichten van deze server toe en gebruik /klaverjas hand delivery:dm."),
    "dm.new_hand": ("{mention}, new cards: press Show my hand.", "{mention}, nieuwe kaarten: druk op Toon mijn hand."),
    # answers
    "hint": ("{action}: {reason}", "{action}: {reason}"),
    "settings.saved": ("Server defaults saved.", "Standaardinstellingen van de server opgeslagen."),
    "played": ("Played {card}.", "{card} gespeeld."),
    "ok": ("Done.", "Klaar."),
    "play.no_match": ("No legal card matches {text!r}.", "Geen toegestane kaart past bij {text!r}."),
    # errors from the service
    "error.no_table": ("That table no longer exists.", "Die tafel bestaat niet meer."),
    "error.not_lobby": ("This table has already started.", "Deze tafel is al begonnen."),
    "error.not_started": ("The game has not started yet.", "Het spel is nog niet begonnen."),
    "error.not_playing": ("This table is no longer playing.", "Aan deze tafel wordt niet meer gespeeld."),
    "error.already_seated": ("You already sit at this table ({seat}).", "Je zit al aan deze tafel ({seat})."),
    "error.table_full": ("All seats are taken.", "Alle plaatsen zijn bezet."),
    "error.seat_taken": ("Seat {seat} is taken by {name}.", "Plaats {seat} is bezet door {name}."),
    "error.not_seated": ("You do not sit at this table.", "Je zit niet aan deze tafel."),
    "error.not_seated_anywhere": ("You are not at any table. Start one with /klaverjas start.",
                                  "Je zit aan geen enkele tafel. Begin er een met /klaverjas start."),
    "error.which_table": ("You sit at more than one table: use this command in the table's thread.",
                          "Je zit aan meer dan één tafel: gebruik dit commando in de draad van de tafel."),
    "error.host_cannot_leave": ("The host cannot leave the lobby; stop the table with /klaverjas stop.",
                                "De gastheer kan de lobby niet verlaten; stop de tafel met /klaverjas stop."),
    "error.not_host": ("Only the host ({host}) can start the table.", "Alleen de gastheer ({host}) kan starten."),
    "error.stale": ("That button is from an earlier moment of the game; use the latest message.",
                    "Die knop is van een eerder moment in het spel; gebruik het nieuwste bericht."),
    "error.away": ("The AI is keeping your seat: press I'm back first.",
                   "De AI houdt je plaats bezet: druk eerst op Ik ben terug."),
    "error.not_away": ("You are already playing your own seat.", "Je speelt je eigen plaats al."),
    "error.not_between_hands": ("You can take over a seat only between hands.",
                                "Je kunt een plaats alleen tussen twee handen overnemen."),
    "error.no_ai_seat": ("There is no AI seat to take over.", "Er is geen AI-plaats om over te nemen."),
    "error.nobody_to_act": ("Nobody can act right now; the next hand is being dealt.",
                            "Niemand kan nu iets doen; de volgende hand wordt gedeeld."),
    "error.not_allowed_stop": ("Only the host, the players or a moderator can stop this table.",
                               "Alleen de gastheer, de spelers of een moderator kunnen deze tafel stoppen."),
    "error.bad_setting": ("{key} must be one of: {choices}.", "{key} moet een van deze zijn: {choices}."),
    "error.bad_rules": ("Those settings do not work together: {reason}", "Die instellingen passen niet: {reason}"),
    "error.no_hint": ("A hint is only for your own turn.", "Een tip is er alleen voor je eigen beurt."),
    "error.unknown": ("Something went wrong; nothing was changed. Please try again.",
                      "Er ging iets mis; er is niets veranderd. Probeer het opnieuw."),
    "error.not_here": ("Use this in a server channel.", "Gebruik dit in een serverkanaal."),
    "error.claim_other_team": ("Only the team that won the trick ({name}'s) can claim its roem.",
                               "Alleen het team dat de slag won (van {name}) kan de roem melden."),
    "error.already_claimed": ("Your team already claimed this roem.", "Jullie team heeft deze roem al gemeld."),
    "error.already_reserved": ("You already take over seat {seat} at the next hand.",
                               "Je neemt bij de volgende hand al plaats {seat} over."),
    "error.seat_reserved": ("Seat {seat} is already promised to {name}.", "Plaats {seat} is al beloofd aan {name}."),
    "error.rematch_exists": ("The rematch is already open: table #{table}.",
                             "De revanche staat al klaar: tafel #{table}."),
    "error.not_finished": ("The match is not over yet.", "De partij is nog niet voorbij."),
    "error.missing_permissions": ("You need the {perms} permission for this.",
                                  "Hiervoor heb je het recht {perms} nodig."),
    "error.no_table_here": ("There is no table here to join: use the Join button on a table's lobby message, or "
                            "this command in a table's thread.",
                            "Hier is geen tafel om aan mee te doen: gebruik de knop Meedoen bij een tafel, of dit "
                            "commando in de draad van een tafel."),
    "error.bad_seat": ("Not a seat: {text}. Use N, E, S or W.", "Geen plaats: {text}. Gebruik N, O, Z of W."),
    # errors from the engine (codes of IllegalActionError)
    "error.not_your_turn": ("It is {name}'s turn.", "{name} is aan de beurt."),
    "error.follow_suit": ("You must follow suit ({led}).", "Je moet bekennen ({led})."),
    "error.overtrump": ("You must overtrump: {legal}.", "Je moet overtroeven: {legal}."),
    "error.must_trump": ("You must trump: {legal}.", "Je moet troeven: {legal}."),
    "error.no_undertrump": ("You may not undertrump: play {legal}.", "Je mag niet ondertroeven: speel {legal}."),
    "error.not_in_hand": ("You do not hold {card}.", "Je hebt {card} niet."),
    "error.bad_call": ("That call is not allowed now.", "Dat bod mag nu niet."),
    "error.wrong_phase": ("That cannot be done now.", "Dat kan nu niet."),
    "error.claim_auto": ("Roem is counted automatically at this table.", "Roem wordt aan deze tafel vanzelf geteld."),
    "error.claim_late": ("Roem can only be claimed right after the trick, before the next card.",
                         "Roem meld je direct na de slag, voor de volgende kaart."),
    "error.illegal": ("That is not allowed: {reason}", "Dat mag niet: {reason}"),
    # issue 10: delivery
    "dm.undelivered": ("{mention}, your cards could not be delivered by direct message: press Show my hand to see "
                       "them here, privately. /klaverjas hand delivery:dm tries direct messages again.",
                       "{mention}, je kaarten konden niet als privébericht worden bezorgd: druk op Toon mijn hand "
                       "om ze hier privé te zien. Met /klaverjas hand delivery:dm probeer je privéberichten "
                       "opnieuw."),
}

SUIT_NAMES = {EN: {Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts", Suit.S: "spades"},
              NL: {Suit.C: "klaveren", Suit.D: "ruiten", Suit.H: "harten", Suit.S: "schoppen"}}
SEAT_NAMES = {EN: {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"},
              NL: {Seat.N: "Noord", Seat.E: "Oost", Seat.S: "Zuid", Seat.W: "West"}}


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(key: str, lang: str = EN, **params: Any) -> str:
    pair = TEXTS.get(key)
    if pair is None:
        return key
    template = pair[1] if lang == NL else pair[0]
    try:
        return template.format_map(_Params(params))
    except (ValueError, IndexError):
        return template


def lang_of(locale: Locale | str | None) -> str:
    value = locale.value if isinstance(locale, Locale) else (locale or "")
    return NL if value.lower().startswith("nl") else EN


def seat_name(seat: Seat, lang: str) -> str:
    return SEAT_NAMES[NL if lang == NL else EN][seat]


def suit_name(suit: Suit, lang: str) -> str:
    return SUIT_NAMES[NL if lang == NL else EN][suit]


def team_word(team: Team, viewer: Team | None) -> str:
    """Wij/Zij from the viewer's side; in public (no viewer) the team's seats, NS or EW, as on the images."""
    if viewer is None:
        return team.name
    return "Wij" if team is viewer else "Zij"


RANKS = {EN: ("7", "8", "9", "10", "J", "Q", "K", "A"), NL: ("7", "8", "9", "10", "B", "V", "H", "A")}
RANK_NAMES = {EN: ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"),
              NL: ("zeven", "acht", "negen", "tien", "boer", "vrouw", "heer", "aas")}
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
_NL_RANKS = {"B": "J", "V": "Q", "H": "K"}
_NL_SUITS = {"K": "C", "R": "D", "H": "H", "S": "S"}
_SEAT_LETTERS = {"N": Seat.N, "E": Seat.E, "O": Seat.E, "S": Seat.S, "Z": Seat.S, "W": Seat.W}


def card_label(card: Card, lang: str) -> str:
    """``J♥ — jack of hearts`` / ``B♥ — harten boer``: what a player reads in a choice list."""
    lang = NL if lang == NL else EN
    rank = card.notation[0]
    index = "789TJQKA".index(rank)
    short = RANKS[lang][index] + card.suit.symbol
    if lang == NL:
        return f"{short} — {SUIT_NAMES[NL][card.suit]} {RANK_NAMES[NL][index]}"
    return f"{short} — {RANK_NAMES[EN][index]} of {SUIT_NAMES[EN][card.suit]}"


def parse_card_text(text: str) -> Card | None:
    """A card as a player types it, in English (``JH``, ``10s``, ``J♥``) or Dutch (``BH``, ``HR``, ``10♠``).

    No string means one card in English and another in Dutch (the Dutch rank letters B, V, H and suit
    letters K, R never meet an English card), so both are tried.
    """
    raw = text.strip().upper().replace(" ", "")
    for symbol, letter in _SYMBOLS.items():
        raw = raw.replace(symbol, letter)
    if raw.startswith("10"):
        raw = "T" + raw[2:]
    if len(raw) != 2:
        return None
    candidates = [raw]
    if raw[0] in "789TA" + "".join(_NL_RANKS) and raw[1] in _NL_SUITS:
        candidates.append(_NL_RANKS.get(raw[0], raw[0]) + _NL_SUITS[raw[1]])
    for candidate in candidates:
        try:
            return Card.parse(candidate)
        except ValueError:
            continue
    return None


def parse_seat(text: str) -> Seat | None:
    """N, E, S, W; Dutch O (oost) and Z (zuid); or the full name in either language."""
    raw = text.strip().upper()
    if not raw:
        return None
    for lang in (EN, NL):
        for seat, name in SEAT_NAMES[lang].items():
            if raw == name.upper():
                return seat
    return _SEAT_LETTERS.get(raw[:1]) if len(raw) == 1 else None


PERMISSION_NAMES = {"manage_guild": ("Manage Server", "Server beheren"),
                    "manage_messages": ("Manage Messages", "Berichten beheren")}


def permission_name(permission: str, lang: str) -> str:
    """Discord's name for a permission as its settings screen shows it."""
    pair = PERMISSION_NAMES.get(permission)
    if pair is None:
        return permission.replace("_", " ").title()
    return pair[1] if lang == NL else pair[0]


def action_text(action: Card | Call, lang: str) -> str:
    if isinstance(action, Card):
        return action.symbol
    if action is Call.PASS:
        return t("button.pass", lang)
    if action is Call.PLAY:
        return t("button.play", lang)
    suit = action.suit
    assert suit is not None
    return suit.symbol


def illegal_text(error: IllegalActionError, lang: str, **extra: str) -> str:
    """An engine refusal for a player: cards and suits as symbols (``You must follow suit (♦).``)."""
    params: dict[str, Any] = {**error.params, **extra}
    for key in ("led", "trump"):
        if key in params:
            params[key] = Suit.parse(params[key]).symbol
    if "legal" in params:
        params["legal"] = " ".join(Card.parse(card).symbol for card in params["legal"].split())
    if "card" in params:
        params["card"] = Card.parse(params["card"]).symbol
    return error_text(error.code, params, lang, error.reason)


def error_text(code: str, params: dict[str, Any], lang: str, reason: str = "") -> str:
    key = f"error.{code}"
    if key not in TEXTS:
        return t("error.illegal", lang, reason=reason or code)
    return t(key, lang, reason=reason, **params)


# ------------------------------------------------------------------ command names and descriptions

COMMAND_TEXTS: dict[str, str] = {
    # English string -> Dutch, for app_commands locale_str values
    "klaverjas": "klaverjas",
    "Play Klaverjas": "Klaverjassen",
    "start": "start",
    "Open a Klaverjas table in this channel": "Open een klaverjastafel in dit kanaal",
    "hand": "hand",
    "Show your hand again": "Toon je hand opnieuw",
    "play": "speel",
    "Play a card": "Speel een kaart",
    "card": "kaart",
    "The card to play, e.g. JH or 10S": "De kaart om te spelen, bijv. JH of 10S",
    "hint": "tip",
    "What would the strong player do? (your turn only)": "Wat zou de sterke speler doen? (alleen in je beurt)",
    "score": "score",
    "Show the score sheet": "Toon het scorebriefje",
    "rules": "regels",
    "Show this table's rules": "Toon de regels van deze tafel",
    "leave": "weg",
    "Leave the table; an AI player takes your seat": "Verlaat de tafel; een AI-speler neemt je plaats in",
    "stop": "stop",
    "Stop the table (host, majority of players, or moderators)":
        "Stop de tafel (gastheer, meerderheid van de spelers of moderators)",
    "settings": "instellingen",
    "Set this server's default table settings": "Stel de standaardinstellingen van deze server in",
    "delivery": "bezorging",
    "join": "meedoen",
    "rotterdam": "rotterdams",
    "amsterdam": "amsterdams",
    "forced": "verplicht",
    "forbidden": "verboden",
    "vrij": "vrij",
    "verplicht": "verplicht",
    "draaien": "draaien",
    "auto": "automatisch",
    "declared": "melden",
    "trick": "in de slag",
    "held": "in de hand",
    "easy": "makkelijk",
    "normal": "normaal",
    "hard": "moeilijk",
    "green": "groen",
    "navy": "marineblauw",
    "burgundy": "bordeaux",
    "English": "Engels",
    "Nederlands": "Nederlands",
    "dm": "dm",
    "thread": "draad",
    "Join a table, or take over an AI seat in a running game": "Doe mee aan een tafel, of neem een AI-plaats over",
    "seat": "plaats",
    "The seat: N, E, S or W": "De plaats: N, O, Z of W",
    "Where your private hand goes: dm or thread": "Waar je hand komt: dm of draad",
    "Play rules: rotterdam or amsterdam": "Speelregels: rotterdam of amsterdam",
    "Undertrumping: forced or forbidden": "Ondertroeven: verplicht of verboden",
    "Bidding: vrij, verplicht or draaien": "Bieden: vrij, verplicht of draaien",
    "Match length: hands (16, 8) or a target (to1001)": "Lengte: handen (16, 8) of een doel (to1001)",
    "Roem: auto or declared": "Roem: automatisch of melden",
    "Stuk: trick or held": "Stuk: in de slag of in de hand",
    "AI level: easy, normal or hard": "AI-niveau: easy, normal of hard",
    "Felt colour": "Kleur van het laken",
    "Language of the table: en or nl": "Taal van de tafel: en of nl",
    "undertrump": "ondertroeven",
    "bidding": "bieden",
    "length": "lengte",
    "roem": "roem",
    "stuk": "stuk",
    "ai": "ai",
    "theme": "laken",
    "language": "taal",
}


class Translator(app_commands.Translator):
    """Dutch command names and descriptions for Discord's ``nl`` locale."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is not Locale.dutch:
            return None
        return COMMAND_TEXTS.get(string.message)


# ------------------------------------------------------------------ /klaverjas rules

RULE_TEXTS: dict[str, tuple[str, str]] = {
    "rules.title": ("**Table #{table}: the rules at this table**", "**Tafel #{table}: de regels aan deze tafel**"),
    "rules.settings": ("Settings: {play} · undertrump {undertrump} · bidding {bidding} · roem {roem} · stuk {stuk} "
                       "· {length} · AI {ai} · felt {felt} · language {language}",
                       "Instellingen: {play} · ondertroeven {undertrump} · bieden {bidding} · roem {roem} · "
                       "stuk {stuk} · {length} · AI {ai} · laken {felt} · taal {language}"),
    "rules.common": ("Always: follow suit if you can; when trump is led you must overtrump if you can, even over "
                     "your partner. Partners sit opposite: NS against EW. The playing team must score more than the "
                     "other team (points + roem), or it is nat and the others get everything; all eight tricks is "
                     "pit (+100).",
                     "Altijd: bekennen als het kan; wordt er troef gevraagd, dan moet je overtroeven als het kan, "
                     "ook over je maat heen. Maten zitten tegenover elkaar: NS tegen EW. Het spelende team moet "
                     "meer halen dan het andere (punten + roem), anders is het nat en krijgt de tegenpartij alles; "
                     "alle acht slagen is pit (+100)."),
    "rules.rotterdam": ("**Rotterdam**: when you cannot follow suit you must trump (and overtrump if you can), "
                        "even when your partner is winning the trick.",
                        "**Rotterdams**: kun je niet bekennen, dan moet je troeven (en overtroeven als het kan), "
                        "ook als je maat de slag al heeft."),
    "rules.amsterdam": ("**Amsterdam**: when you cannot follow suit and your partner is winning the trick, you need "
                        "not trump (but you may not undertrump); when an opponent is winning it you must trump "
                        "(and overtrump if you can).",
                        "**Amsterdams**: kun je niet bekennen en heeft je maat de slag, dan hoef je niet te troeven "
                        "(maar ondertroeven mag niet); heeft een tegenstander de slag, dan moet je troeven (en "
                        "overtroeven als het kan)."),
    "rules.undertrump_forced": ("**Undertrump forced**: when you must trump but cannot overtrump, you still play a "
                                "trump (a lower one).",
                                "**Ondertroeven verplicht**: moet je troeven maar kun je niet overtroeven, dan speel "
                                "je toch een (lagere) troef."),
    "rules.undertrump_forbidden": ("**Undertrump forbidden**: when you cannot overtrump you play a card of another "
                                   "suit instead; only with nothing but trumps do you undertrump.",
                                   "**Ondertroeven verboden**: kun je niet overtroeven, dan speel je een kaart van "
                                   "een andere kleur; alleen met niets dan troef ondertroef je."),
    "rules.vrij": ("**Bidding vrij**: starting left of the dealer, each player plays (naming any suit as trump) "
                   "or passes. If all four pass, {forced} must choose trump.",
                   "**Vrij bieden**: vanaf links van de gever speelt ieder (en noemt een troefkleur) of past. Past "
                   "iedereen, dan moet {forced} troef kiezen."),
    "rules.verplicht": ("**Bidding verplicht**: the player left of the dealer must choose trump at once.",
                        "**Verplicht bieden**: de speler links van de gever moet meteen troef kiezen."),
    "rules.draaien": ("**Bidding draaien**: a suit is turned; each player in turn plays on it or passes. If all "
                      "pass, a second suit is turned; if all pass again, a third is turned and the player left of "
                      "the dealer must play it. The first turn of a match is always clubs.",
                      "**Draaien**: er wordt een kleur gedraaid; ieder speelt erop of past. Past iedereen, dan "
                      "wordt een tweede kleur gedraaid; past iedereen weer, dan een derde, en de speler links van "
                      "de gever moet die spelen. De eerste keer in een partij is het altijd klaveren."),
    "rules.forced_elder": ("the player left of the dealer", "de speler links van de gever"),
    "rules.forced_dealer": ("the dealer", "de gever"),
    "rules.roem_auto": ("**Roem automatic**: roem in a trick (three or four in a row, four of a kind, stuk) "
                        "is counted for the team that wins the trick.",
                        "**Roem automatisch**: roem in een slag (driekaart, vierkaart, vier gelijke, stuk) telt "
                        "vanzelf voor het team dat de slag wint."),
    "rules.roem_declared": ("**Roem declared**: roem counts only when a player of the team that won the trick "
                            "presses Roem! before the next card is played.",
                            "**Roem melden**: roem telt alleen als iemand van het team dat de slag won op Roem! "
                            "drukt voor de volgende kaart."),
    "rules.stuk_trick": ("**Stuk in the trick**: king and queen of trump in one trick are 20 roem for its winner.",
                         "**Stuk in de slag**: heer en vrouw van troef in één slag zijn 20 roem voor de winnaar."),
    "rules.stuk_held": ("**Stuk held**: a player who holds king and queen of trump scores 20 roem for their team "
                        "when playing the second of them, whoever wins that trick.",
                        "**Stuk in de hand**: wie heer en vrouw van troef heeft, krijgt 20 roem voor zijn team bij "
                        "het spelen van de tweede, wie de slag ook wint."),
    "rules.length_hands": ("**Length**: {hands} hands; the higher total wins.",
                           "**Lengte**: {hands} handen; het hoogste totaal wint."),
    "rules.length_target": ("**Length**: the first team to {target} points wins.",
                            "**Lengte**: het eerste team met {target} punten wint."),
}
TEXTS.update(RULE_TEXTS)

_VALUE_NL = {"rotterdam": "rotterdams", "amsterdam": "amsterdams", "forced": "verplicht", "forbidden": "verboden",
             "auto": "automatisch", "declared": "melden", "trick": "in de slag", "held": "in de hand"}


def length_text(rules: Rules, lang: str) -> str:
    length = rules.length
    if length.hands is not None:
        return f"{length.hands} {'handen' if lang == NL else 'hands'}"
    return f"{'tot' if lang == NL else 'to'} {length.target}"


def settings_line(rules: Rules, lang: str) -> str:
    """The table's settings on one line, in ``lang``: ``rotterdam · undertrump forced · vrij · 16 hands · …``."""
    def value(v: str) -> str:
        return _VALUE_NL.get(v, v) if lang == NL else v

    undertrump = "ondertroeven" if lang == NL else "undertrump"
    return (f"{value(rules.play.value)} · {undertrump} {value(rules.undertrump_rule.value)} · {rules.bidding.value} · "
            f"{length_text(rules, lang)} · roem {value(rules.roem.value)} · stuk {value(rules.stuk.value)}")


def explain_rules(rules: Rules, lang: str, *, table: int | None = None, ai: str = "", felt: str = "",
                  language: str = "") -> str:
    """The table's settings, then what each rule that differs between variants means, in ``lang``."""
    def value(v: str) -> str:
        return _VALUE_NL.get(v, v) if lang == NL else v

    lines = []
    if table is not None:
        lines.append(t("rules.title", lang, table=table))
    lines.append(t("rules.settings", lang, play=value(rules.play.value), undertrump=value(rules.undertrump_rule.value),
                   bidding=rules.bidding.value, roem=value(rules.roem.value), stuk=value(rules.stuk.value),
                   length=length_text(rules, lang), ai=ai, felt=felt, language=language))
    lines.append("• " + t("rules.rotterdam" if rules.play is PlayRules.ROTTERDAM else "rules.amsterdam", lang))
    forced_undertrump = rules.undertrump_rule is Undertrump.FORCED
    lines.append("• " + t("rules.undertrump_forced" if forced_undertrump else "rules.undertrump_forbidden", lang))
    if rules.bidding is Bidding.VRIJ:
        forced = t("rules.forced_elder" if rules.forced is ForcedSeat.ELDER else "rules.forced_dealer", lang)
        lines.append("• " + t("rules.vrij", lang, forced=forced))
    else:
        lines.append("• " + t("rules." + rules.bidding.value, lang))
    lines.append("• " + t("rules.roem_auto" if rules.roem is RoemMode.AUTO else "rules.roem_declared", lang))
    lines.append("• " + t("rules.stuk_trick" if rules.stuk is StukMode.TRICK else "rules.stuk_held", lang))
    length = rules.length
    if length.hands is not None:
        lines.append("• " + t("rules.length_hands", lang, hands=length.hands))
    else:
        lines.append("• " + t("rules.length_target", lang, target=length.target))
    lines.append(t("rules.common", lang))
    return "\n".join(lines)
