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

EN = "en"
NL = "nl"

TEXTS: dict[str, tuple[str, str]] = {
    # lobby
    "lobby.title": ("🃏 Klaverjas table #{table} — host: {host}", "🃏 Klaverjastafel #{table} — gastheer: {host}"),
    "lobby.empty": ("— empty —", "— leeg —"),
    "lobby.host": ("★ host", "★ gastheer"),
    "lobby.started": ("The game is on: {link}", "Het spel is begonnen: {link}"),
    "lobby.stopped": ("This table was stopped.", "Deze tafel is gestopt."),
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
    "table.line": ("Hand {hand}/{hands} · {trump} · Wij {ns} – Zij {ew} · {turn}",
                   "Hand {hand}/{hands} · {trump} · Wij {ns} – Zij {ew} · {turn}"),
    "table.line_target": ("Hand {hand} · to {target} · {trump} · Wij {ns} – Zij {ew} · {turn}",
                          "Hand {hand} · tot {target} · {trump} · Wij {ns} – Zij {ew} · {turn}"),
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
    "hand.result": ("Hand {n}: Wij {ns} — Zij {ew}.", "Hand {n}: Wij {ns} — Zij {ew}."),
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
    # answers
    "hint": ("{action}: {reason}", "{action}: {reason}"),
    "rules.title": ("Table #{table} settings", "Instellingen van tafel #{table}"),
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
    """Wij/Zij from the viewer's side; in public (no viewer) NS is Wij, as on the score sheet."""
    if viewer is None:
        return "Wij" if team is Team.NS else "Zij"
    return "Wij" if team is viewer else "Zij"


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
