"""Every text a player sees, in English and Dutch: on Discord, in the terminal, in hints and on the images.

``t(key, lang, **params)`` formats one text. The functions below word the things a game is made of
(seats, suits, cards, calls, roem, errors, hints, the table's settings) so every front end says them
alike. No front end is imported here: the Discord adapter has its own ``bot.discord_app.translator``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.texts.language import Language
from engine import rulebook
from engine.actions import Call, Choice, Claim, Decline
from engine.ai.hints import Hint, HintCode
from engine.cards import Card, Rank, Seat, Suit, Team
from engine.errors import IllegalActionError
from engine.events import RoemClaimed
from engine.roem import RoemKind, RoemPart
from engine.settings import (
    SETTINGS,
    SETTINGS_BY_NAME,
    Bidding,
    Level,
    Rules,
)

EN = Language.EN
NL = Language.NL
log = logging.getLogger(__name__)

TEXTS: dict[str, tuple[str, str]] = {
    # lobby
    "lobby.title": ("🃏 Klaverjas table #{table} — host: {host}", "🃏 Klaverjastafel #{table} — gastheer: {host}"),
    "lobby.empty": ("— empty —", "— leeg —"),
    "lobby.host": ("★ host", "★ gastheer"),
    "lobby.started": ("The game is on: {link}", "Het spel is begonnen: {link}"),
    "lobby.stopped": ("This table was stopped.", "Deze tafel is gestopt."),
    "lobby.teams": ("Teams: NS = North + South, EW = East + West (partners sit opposite).",
                    "Teams: NZ = Noord + Zuid, OW = Oost + West (maten zitten tegenover elkaar)."),
    "seat.menu": ("Choose a seat…", "Kies een plaats…"),
    "seat.option": ("Sit {seat}", "Zit {seat}"),
    "seat.option_free": ("free", "vrij"),
    "seat.option_ai": ("AI player: you replace it", "AI-speler: je neemt de plaats over"),
    "seat.option_human": ("taken by {name}", "bezet door {name}"),
    "button.take_seat": ("Take an AI seat", "Neem een AI-plaats over"),
    "button.rematch": ("Rematch", "Revanche"),
    "took_seat": ("You sit {seat} now.", "Je zit nu {seat}."),
    "reserved_seat": ("Seat {seat} is yours from the next hand.", "Plaats {seat} is van jou vanaf de volgende ronde."),
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
    # The two calls of the bidding: the Discord buttons, the terminal's list and the bids announced.
    "button.pass": ("Pass", "Passen"),
    "button.play": ("Play", "Spelen"),
    "button.roem": ("Roem!", "Roem!"),
    "button.no_roem": ("No roem", "Geen roem"),
    "claim.prompt": ("{mention}, last trick: claim your team's roem with Roem!, or let it go with No roem.",
                     "{mention}, laatste slag: meld jullie roem met Roem!, of laat hem gaan met Geen roem."),
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
    "image.players": ("The table. Players: {seats}.", "De tafel. Spelers: {seats}."),
    "table.line": ("Hand {hand}/{hands} · {trump} · NS {ns} – EW {ew} · {turn}",
                   "Ronde {hand}/{hands} · {trump} · NZ {ns} – OW {ew} · {turn}"),
    "table.line_target": ("Hand {hand} · to {target} · {trump} · NS {ns} – EW {ew} · {turn}",
                          "Ronde {hand} · tot {target} · {trump} · NZ {ns} – OW {ew} · {turn}"),
    "table.no_trump": ("bidding", "troef kiezen"),
    "table.trump": ("trump {suit} ({player} plays)", "troef {suit} ({player} speelt)"),
    "table.to_play": ("{name} to play", "{name} is aan de beurt"),
    "table.to_bid": ("{name} to bid", "{name} kiest: spelen of passen"),
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
    # one trick in one line: the table message's last trick, and the hand's tricks under its result
    "trick.line": ("{n}. {leader} leads: {cards} → {name}, {points} points",
                   "{n}. {leader} komt uit: {cards} → {name}, {points} punten"),
    "trick.last": ("Last trick: {line}", "Laatste slag: {line}"),
    "roem.claimed": ("{name} claims roem: {points} for {team}.", "{name} meldt roem: {points} voor {team}."),
    # a claim that made a held stuk count, said just before: the total, so that it does not read as another 20
    "roem.claimed_stuk": ("{name} claims roem: {points} for {team}, the stuk included.",
                          "{name} meldt roem: {points} voor {team}, met stuk erbij."),
    "roem.claimed_stuk_you": ("{name} claim roem: {points} for {team}, the stuk included.",
                              "{name} meldt roem: {points} voor {team}, met stuk erbij."),
    # a claim that finds no roem for the claimers: said in public, and it scores nothing (no penalty either)
    "roem.claimed_nothing": ("{name} claims roem: there is none, so it scores nothing.",
                             "{name} meldt roem: die is er niet, dus het levert niets op."),
    "stuk": ("{name} shows stuk: {stuk_roem} for {team}.", "{name} heeft stuk: {stuk_roem} voor {team}."),
    # The same deeds said to the player at the terminal ("You ..."): the key with ``_you``.
    "trick_you": ("Trick {n}: {name} win with {card} — {points} points.",
                  "Slag {n}: {name} wint met {card} — {points} punten."),
    "roem.claimed_you": ("{name} claim roem: {points} for {team}.", "{name} meldt roem: {points} voor {team}."),
    "roem.claimed_nothing_you": ("{name} claim roem: there is none, so it scores nothing.",
                                 "{name} meldt roem: die is er niet, dus het levert niets op."),
    "stuk_you": ("{name} show stuk: {stuk_roem} for {team}.", "{name} hebt stuk: {stuk_roem} voor {team}."),
    # roem, part by part (roem_text): "stuk + driekaart: 40"
    "roem.driekaart": ("driekaart", "driekaart"),
    "roem.vierkaart": ("vierkaart", "vierkaart"),
    "roem.stuk": ("stuk", "stuk"),
    "roem.four": ("four {ranks}", "vier {ranks}"),
    "roem.parts": ("{parts}: {points}", "{parts}: {points}"),
    "hand.result": ("Hand {n}: NS {ns} — EW {ew}.", "Ronde {n}: NZ {ns} — OW {ew}."),
    "hand.nat": ("{name} is nat ({team} {own} against {other}).", "{name} is nat ({team} {own} tegen {other})."),
    "hand.pit": ("PIT for {team}! {points} + {pit_bonus}.", "PIT voor {team}! {points} + {pit_bonus}."),
    "match.won": ("{team} win {won} – {lost} after {hands:hand|hands}.",
                  "{team} winnen met {won} – {lost} na {hands:ronde|rondes}."),
    "match.draw": ("A draw: {ns} – {ew} after {hands:hand|hands}.",
                   "Gelijkspel: {ns} – {ew} na {hands:ronde|rondes}."),
    "reminder": ("{mention}, your turn.", "{mention}, jij bent aan de beurt."),
    "timer.played": ("The AI played {action} for {name}.", "De AI speelde {action} voor {name}."),
    "away": ("{mention} missed two turns: the AI keeps the seat until you press I'm back.",
             "{mention} miste twee beurten: de AI houdt de plaats tot je op Ik ben terug drukt."),
    "seat.left": ("{name} left; an AI player takes the seat {seat}.",
                  "{name} is weg; een AI-speler neemt plaats {seat} in."),
    "seat.back": ("{name} is back.", "{name} is terug."),
    "seat.took_over": ("{name} takes over seat {seat}.", "{name} neemt plaats {seat} over."),
    "seat.will_take_over": ("{name} takes over seat {seat} from the next hand.",
                            "{name} neemt plaats {seat} over vanaf de volgende ronde."),
    "score.line": ("Wij ({team}) {we} – Zij ({other}) {they}", "Wij ({team}) {we} – Zij ({other}) {they}"),
    "score.neutral": ("NS {ns} – EW {ew}", "NZ {ns} – OW {ew}"),
    "stopped": ("The table was stopped.", "De tafel is gestopt."),
    "deserted.waiting": ("Nobody plays at this table in person any more: it waits {minutes:minute|minutes} for someone "
                         "to take a seat (Take an AI seat, or /klaverjas join) or press I'm back, then it stops.",
                         "Er speelt niemand meer zelf aan deze tafel: ze wacht {minutes:minuut|minuten} tot iemand "
                         "een plaats overneemt (Neem een AI-plaats over, of /klaverjas join) of op Ik ben terug "
                         "drukt, daarna stopt ze."),
    "deserted": ("Nobody plays at this table any more (everyone left, or was away for a whole hand) and nobody "
                 "came back in time: the table was stopped.",
                 "Er speelt niemand meer aan deze tafel (iedereen is weg, of was een hele ronde afwezig) en niemand "
                 "kwam op tijd terug: de tafel is gestopt."),
    "stop.voted": ("Your vote to stop is counted; a majority of the players is needed.",
                   "Je stem om te stoppen is geteld; een meerderheid van de spelers is nodig."),
    "restored": ("The bot restarted: the game continues where it was.",
                 "De bot is herstart: het spel gaat verder waar het was."),
    # private hand
    "hand.header": ("Table #{table} in {place} — {status}", "Tafel #{table} in {place} — {status}"),
    "hand.your_turn_lead": ("your turn: lead", "jouw beurt: kom uit"),
    "hand.your_turn_follow": ("your turn: follow {suit}", "jouw beurt: beken {suit}"),
    "hand.your_turn_bid": ("your turn to bid: use the buttons in the thread",
                           "jij kiest: spelen of passen, met de knoppen in de draad"),
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
    # errors from the service (bot.tables.errors.ServiceErrorCode)
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
    "error.still_seated": ("You still sit at table {table}: leave it first (/klaverjas leave), then ask again.",
                           "Je zit nog aan tafel {table}: verlaat die eerst (/klaverjas leave) en vraag het dan "
                           "opnieuw."),
    "forget.confirm": ("**Forget me?** Your Discord id becomes an anonymous player in every game you played, and "
                       "your name, statistics, ratings, reviews and settings are deleted, in every server. The games "
                       "themselves stay. This cannot be undone. Press the button to go ahead; to keep everything, "
                       "do nothing.",
                       "**Mij vergeten?** Je Discord-id wordt een anonieme speler in elk spel dat je speelde, en je "
                       "naam, statistieken, ratings, beoordelingen en instellingen worden gewist, op elke server. De "
                       "spellen zelf blijven. Dit kan niet ongedaan worden. Druk op de knop om door te gaan; om "
                       "alles te houden doe je niets."),
    "forget.done": ("Done: you are forgotten. Your games remain, played by an anonymous player.",
                    "Klaar: je bent vergeten. Je spellen blijven, gespeeld door een anonieme speler."),
    "forget.not_yours": ("This button is for the person who asked to be forgotten; use /klaverjas forget-me "
                         "yourself.",
                         "Deze knop is van wie vroeg om vergeten te worden; gebruik zelf /klaverjas forget-me."),
    "button.forget": ("Forget me", "Vergeet mij"),
    "error.stale": ("That button is from an earlier moment of the game; use the latest message.",
                    "Die knop is van een eerder moment in het spel; gebruik het nieuwste bericht."),
    "error.away": ("The AI is keeping your seat: press I'm back first.",
                   "De AI houdt je plaats bezet: druk eerst op Ik ben terug."),
    "error.not_away": ("You are already playing your own seat.", "Je speelt je eigen plaats al."),
    "error.no_ai_seat": ("There is no AI seat to take over.", "Er is geen AI-plaats om over te nemen."),
    "error.nobody_to_act": ("Nobody can act right now; the next hand is being dealt.",
                            "Niemand kan nu iets doen; de volgende ronde wordt gedeeld."),
    "error.not_allowed_stop": ("Only the host, the players or a moderator can stop this table.",
                               "Alleen de gastheer, de spelers of een moderator kunnen deze tafel stoppen."),
    "error.bad_setting": ("{key} must be one of: {choices}.", "{key} moet een van deze zijn: {choices}."),
    "error.bad_rules": ("Those settings do not work together: {reason}", "Die instellingen passen niet: {reason}"),
    "error.no_hint": ("A hint is only for your own turn.", "Een tip is er alleen voor je eigen beurt."),
    "error.no_hint_roem": ("Spotting roem is up to you: there is no hint for a claim.",
                           "Roem zien is aan jou: voor melden is er geen tip."),
    "error.unknown": ("Something went wrong; nothing was changed. Please try again.",
                      "Er ging iets mis; er is niets veranderd. Probeer het opnieuw."),
    "error.not_here": ("Use this in a server channel.", "Gebruik dit in een serverkanaal."),
    "error.claim_other_team": ("Only the team that won the trick ({name}'s) can claim its roem.",
                               "Alleen het team dat de slag won (van {name}) kan de roem melden."),
    "error.already_claimed": ("Your team already claimed this roem.", "Jullie team heeft deze roem al gemeld."),
    "error.already_reserved": ("You already take over seat {seat} at the next hand.",
                               "Je neemt bij de volgende ronde al plaats {seat} over."),
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
    # errors from the engine (engine.errors.ErrorCode)
    "error.not_your_turn": ("It is {name}'s turn.", "{name} is aan de beurt."),
    "error.follow_suit": ("You must follow suit ({led}).", "Je moet bekennen ({led})."),
    "error.overtrump": ("You must overtrump: {legal}.", "Je moet overtroeven: {legal}."),
    "error.must_trump": ("You must trump: {legal}.", "Je moet troeven: {legal}."),
    "error.no_undertrump": ("You may not undertrump: play {legal}.", "Je mag niet ondertroeven: speel {legal}."),
    "error.not_in_hand": ("You do not hold {card}.", "Je hebt {card} niet."),
    "error.bad_call": ("That call is not allowed now.", "Die keuze mag nu niet."),
    "error.wrong_phase": ("That cannot be done now.", "Dat kan nu niet."),
    "error.claim_auto": ("Roem is counted automatically at this table.", "Roem wordt aan deze tafel vanzelf geteld."),
    "error.claim_declined": ("The roem of the last trick was let go; it can no longer be claimed.",
                             "De roem van de laatste slag is niet gemeld; melden kan nu niet meer."),
    "error.claim_late": ("Roem can only be claimed right after the trick, before the next card.",
                         "Roem meld je direct na de slag, voor de volgende kaart."),
    "error.not_an_action": ("That is not something you can do in this game.", "Dat kan niet in dit spel."),
    "error.dealer": ("It is another player's deal.", "Een andere speler moet delen."),
    "error.deal": ("That is not a proper deal: every player gets eight different cards.",
                   "Zo wordt er niet gedeeld: iedere speler krijgt acht verschillende kaarten."),
    "error.turn": ("That suit cannot be turned now.", "Die kleur kan nu niet gedraaid worden."),
    "error.illegal": ("That is not allowed: {reason}", "Dat mag niet: {reason}"),
    # lifecycle
    "error.thread_has_table": ("This thread belongs to table #{table}: one table per thread. Open a new table with "
                               "/klaverjas start in the channel, or press Rematch when the match is over.",
                               "Deze draad hoort bij tafel #{table}: één tafel per draad. Open een nieuwe tafel met "
                               "/klaverjas start in het kanaal, of druk op Revanche als de partij voorbij is."),
    "error.lobby_open_here": ("Table #{table} (host: {host}) is already waiting for players here: one open table per "
                              "channel. Join it with its Join button or /klaverjas join.",
                              "Tafel #{table} (gastheer: {host}) wacht hier al op spelers: één open tafel per kanaal. "
                              "Doe mee met de knop Meedoen of /klaverjas join."),
    "error.table_plays_here": ("Table #{table} is being played in this channel; open your table in another channel "
                               "or when it is over.",
                               "In dit kanaal wordt aan tafel #{table} gespeeld; open je tafel in een ander kanaal of "
                               "als die partij voorbij is."),
    "error.lobby_not_posted": ("The new table's message could not be posted, so no table was opened. Check that the "
                               "bot may send messages in this channel, then try again.",
                               "Het bericht van de nieuwe tafel kon niet geplaatst worden, dus er is geen tafel "
                               "geopend. Controleer of de bot in dit kanaal berichten mag sturen en probeer het "
                               "opnieuw."),
    "error.hint_cooldown": ("Wait {seconds} s before asking for another hint.",
                            "Wacht {seconds} s voordat je om een nieuwe tip vraagt."),
    "error.hints_busy": ("Many hints are being worked out right now; ask again in a moment.",
                         "Er worden nu veel tips uitgerekend; vraag het zo nog eens."),
    "lobby.expired": ("Nobody started this table in time, so it closed. Open a new one with /klaverjas start.",
                      "Niemand heeft deze tafel op tijd gestart, dus hij is gesloten. Open een nieuwe met "
                      "/klaverjas start."),
    # hostile input
    "play.not_a_card": ("“{text}” is not a card: type one like JH or 10S, or pick one from the list.",
                        "“{text}” is geen kaart: typ er een als BH of 10S, of kies er een uit de lijst."),
    "error.invalid_button": ("This button is no longer valid: use the buttons on the table's latest messages.",
                             "Deze knop is niet meer geldig: gebruik de knoppen bij de nieuwste berichten van de "
                             "tafel."),
    # delivery
    "dm.undelivered": ("{mention}, your cards could not be delivered by direct message: press Show my hand to see "
                       "them here, privately. /klaverjas hand delivery:dm tries direct messages again.",
                       "{mention}, je kaarten konden niet als privébericht worden bezorgd: druk op Toon mijn hand "
                       "om ze hier privé te zien. Met /klaverjas hand delivery:dm probeer je privéberichten "
                       "opnieuw."),
    # replays and exports of matches that are over
    "error.no_match": ("There is no match #{table} in this server.", "In deze server is er geen partij #{table}."),
    "error.match_stopped": ("Match #{table} was stopped before its end: only matches played to the end are reviewed.",
                            "Partij #{table} is voor het einde gestopt: alleen uitgespeelde partijen worden "
                            "geanalyseerd."),
    "error.match_not_over": ("Match #{table} is still being played: its replay and record show every hand, so they "
                             "come once it is over.",
                             "Partij #{table} wordt nog gespeeld: terugkijken en het verslag tonen alle kaarten, dus "
                             "die komen als de partij voorbij is."),
    "error.match_empty": ("Table #{table} stopped before the first deal: there is nothing to show.",
                          "Tafel #{table} is gestopt voordat er gedeeld werd: er is niets te zien."),
    "error.not_a_match": ("“{text}” is not a match: pick one from the list, or type its number (like 12).",
                          "“{text}” is geen partij: kies er een uit de lijst, of typ het nummer (zoals 12)."),
    "error.replay_not_yours": ("This replay was opened by someone else: open your own with /klaverjas replay.",
                               "Deze herhaling is van iemand anders: open je eigen met /klaverjas terugkijken."),
    "button.replay": ("Replay", "Terugkijken"),
    "button.stats": ("Stats", "Statistieken"),
    "button.review": ("Review", "Analyse"),
    "button.export": ("Export", "Exporteren"),
    "button.replay_prev_hand": ("⏮ Previous hand", "⏮ Vorige ronde"),
    "button.replay_prev": ("◀ Previous trick", "◀ Vorige slag"),
    "button.replay_next": ("Next trick ▶", "Volgende slag ▶"),
    "button.replay_next_hand": ("Next hand ⏭", "Volgende ronde ⏭"),
    "button.replay_sheet": ("Score sheet", "Boompje"),
    "replay.header": ("Replay of table #{table} · {teams}", "Terugkijken: tafel #{table} · {teams}"),
    "replay.teams": ("{first}: {first_names} – {second}: {second_names}",
                     "{first}: {first_names} – {second}: {second_names}"),
    "replay.sheet": ("The score sheet; go through the match with the buttons, hand by hand and trick by trick.",
                     "Het boompje; loop met de knoppen door de partij, ronde voor ronde en slag voor slag."),
    "replay.stopped_during": ("Stopped during hand {n}: {first} {a} – {second} {b}.",
                              "Gestopt tijdens ronde {n}: {first} {a} – {second} {b}."),
    "replay.stopped_after": ("Stopped after hand {n}: {first} {a} – {second} {b}.",
                             "Gestopt na ronde {n}: {first} {a} – {second} {b}."),
    "replay.hand": ("**Hand {n}/{hands}** — {name} deals.", "**Ronde {n}/{hands}** — {name} deelt."),
    "replay.trick": ("**Hand {n}/{hands}, trick {trick}/8** — {plays}",
                     "**Ronde {n}/{hands}, slag {trick}/8** — {plays}"),
    "replay.play": ("{name} {card}", "{name} {card}"),
    "replay.deal": ("Every hand as dealt, sorted for trump.", "Alle handen zoals gedeeld, gesorteerd op troef."),
    "replay.bidding_stopped": ("The match was stopped during the bidding.",
                               "De partij is tijdens het troef kiezen gestopt."),
    "replay.trick_stopped": ("The match was stopped during this trick.", "De partij is tijdens deze slag gestopt."),
    "replay.roem_unclaimed": ("Roem not claimed: {parts}.", "Roem niet gemeld: {parts}."),
    "replay.so_far": ("This hand so far: {first} – {second}.", "Deze ronde tot nu: {first} – {second}."),
    "replay.team_points": ("{team} {points}", "{team} {points}"),
    "replay.team_points_roem": ("{team} {points} + {roem} roem", "{team} {points} + {roem} roem"),
    "replay.hand_result": ("Hand {n}: {first} {a} — {second} {b}.", "Ronde {n}: {first} {a} — {second} {b}."),
    "export.done": ("The record of table #{table} ({format}): `klaverjas score {file}` checks and scores it.",
                    "Het verslag van tafel #{table} ({format}): `klaverjas score {file}` controleert en telt het."),
    "match.label": ("#{table} · {when} · {teams} · {result}", "#{table} · {when} · {teams} · {result}"),
    "match.result_won": ("{team} won {won}–{lost}", "{team} wonnen {won}–{lost}"),
    "match.result_draw": ("draw {a}–{b}", "gelijkspel {a}–{b}"),
    "match.result_stopped": ("stopped at {a}–{b}", "gestopt bij {a}–{b}"),
}

# ------------------------------------------------------------------ tournaments

TEXTS.update({
    "error.already_entered": ("You already play in {tournament}.", "Je speelt al mee in {tournament}."),
    "error.bad_tournament_option": ("{key} must be from {low} to {high}.", "{key} moet van {low} tot {high} zijn."),
    "error.no_invite": ("There is no invitation for you to confirm here.",
                        "Er is hier geen uitnodiging die jij kunt bevestigen."),
    "error.no_pairs": ("In {tournament} everyone plays alone (with an AI partner): join without a partner.",
                       "In {tournament} speelt iedereen alleen (met een AI-maat): doe mee zonder maat."),
    "error.no_place": ("I cannot open a private thread for your table here, and I cannot send you direct messages "
                       "either. Allow direct messages from this server (or ask a moderator to let the bot create "
                       "private threads), then join again.",
                       "Ik kan hier geen privédraad voor je tafel openen en je ook geen privéberichten sturen. Sta "
                       "privéberichten van deze server toe (of vraag een moderator de bot privédraden te laten "
                       "maken) en doe dan opnieuw mee."),
    "error.no_tournament": ("There is no tournament {tournament} in this server.",
                            "In deze server is er geen toernooi {tournament}."),
    "error.not_allowed_close": ("Only the creator of {tournament} or someone with Manage Server can close it.",
                                "Alleen wie {tournament} heeft gemaakt of iemand met Server beheren kan het sluiten."),
    "error.not_allowed_create": ("Creating a tournament needs the Manage Server permission{role}.",
                                 "Voor een toernooi maken heb je het recht Server beheren nodig{role}."),
    "error.partner_entered": ("{name} already plays in this tournament.", "{name} speelt al mee in dit toernooi."),
    "error.partner_self": ("Choose someone else as your partner.", "Kies iemand anders als maat."),
    "error.tournament_autoplay": ("The tournament has closed: the AI finishes this table.",
                                  "Het toernooi is gesloten: de AI speelt deze tafel uit."),
    "error.tournament_closed": ("{tournament} is closed.", "{tournament} is gesloten."),
    "error.tournament_full": ("{tournament} is full ({max} entries).", "{tournament} zit vol ({max} deelnames)."),
    "error.tournament_sealed": ("Table #{table} belongs to {tournament}, which is still open: its replay and record "
                                "come when the tournament closes (to whoever played it to the end, as soon as they "
                                "have), so nobody sees the deals before playing them.",
                                "Tafel #{table} hoort bij {tournament}, dat nog open is: terugkijken en het verslag "
                                "komen als het toernooi sluit (voor wie de tafel uitspeelde: zodra die klaar is), "
                                "zodat niemand de kaarten ziet voor hij ze speelt."),
    "error.tournament_table": ("This is a tournament table: its player plays it to the end (the AI finishes it when "
                               "the tournament closes); nobody takes over, leaves or stops it.",
                               "Dit is een toernooitafel: de speler speelt hem uit (de AI maakt hem af als het "
                               "toernooi sluit); niemand neemt over, gaat weg of stopt hem."),
    "error.which_tournament": ("This server has more than one open tournament: choose one from the list.",
                               "Deze server heeft meer dan één open toernooi: kies er een uit de lijst."),
    "tournament.thread": ("Tournament table #{table} — {players}", "Toernooitafel #{table} — {players}"),
    "tournament.autoplay": ("The tournament has closed: the AI plays this table to its end.",
                            "Het toernooi is gesloten: de AI speelt deze tafel uit."),
    "tournament.table_done": ("Your tournament total: {total}. The standings: /klaverjas tournament standings.",
                              "Je toernooitotaal: {total}. De stand: /klaverjas toernooi stand."),
    "tournament.table_done_ai": ("Finished by the AI when the tournament closed; total {total}.",
                                 "Door de AI uitgespeeld toen het toernooi sloot; totaal {total}."),
    "tournament.created": ("🏆 **{name}** (tournament #{tournament}) is open until {closes}: every entry plays the "
                           "same deals against AI players ({settings}). Join with /klaverjas tournament join."
                           "{limit}{pairs}",
                           "🏆 **{name}** (toernooi #{tournament}) is open tot {closes}: iedereen speelt dezelfde "
                           "kaarten tegen AI-spelers ({settings}). Doe mee met /klaverjas toernooi meedoen."
                           "{limit}{pairs}"),
    "tournament.limit": (" At most {max} entries.", " Hoogstens {max} deelnames."),
    "tournament.pairs": (" Two may enter as a pair (join with partner:).", " Met z'n tweeën meedoen als paar kan ook "
                                                                           "(meedoen met maat:)."),
    "tournament.daily_opened": ("🏆 The daily tournament of {day} (#{tournament}) is open until {closes}: "
                                "{hands:hand|hands} with the same deals for everyone. Join with "
                                "/klaverjas tournament join.",
                                "🏆 Het dagtoernooi van {day} (#{tournament}) is open tot {closes}: "
                                "{hands:ronde|rondes} met voor iedereen dezelfde kaarten. Doe mee met "
                                "/klaverjas toernooi meedoen."),
    "tournament.joined": ("You're in {name}! Your table: {place}. Play at your own pace before {closes}.",
                          "Je doet mee aan {name}! Je tafel: {place}. Speel in je eigen tempo, vóór {closes}."),
    "tournament.joined_dm": ("You're in {name}! I could not open a private thread here, so your table plays in our "
                             "direct messages. Play at your own pace before {closes}.",
                             "Je doet mee aan {name}! Ik kon hier geen privédraad openen, dus je tafel speelt in "
                             "onze privéberichten. Speel in je eigen tempo, vóór {closes}."),
    "tournament.welcome": ("🏆 **{name}** — {mention}, you sit South; North, your partner, and East and West are AI "
                           "players. Every entry gets these same deals. Play at your own pace: at {closes} the AI "
                           "finishes tables that are not done.",
                           "🏆 **{name}** — {mention}, je zit Zuid; Noord, je maat, en Oost en West zijn AI-spelers. "
                           "Iedereen krijgt dezelfde kaarten. Speel in je eigen tempo: om {closes} speelt de AI de "
                           "tafels uit die nog niet klaar zijn."),
    "tournament.welcome_pair": ("🏆 **{name}** — {mention} South and {partner} North, a pair against AI players East "
                                "and West. Every entry gets these same deals. Play at your own pace: at {closes} the "
                                "AI finishes tables that are not done.",
                                "🏆 **{name}** — {mention} Zuid en {partner} Noord, samen tegen AI-spelers Oost en "
                                "West. Iedereen krijgt dezelfde kaarten. Speel in je eigen tempo: om {closes} speelt "
                                "de AI de tafels uit die nog niet klaar zijn."),
    "tournament.invite": ("{partner}, {name} asks you to play **{tournament}** as a pair (you North, {name} South). "
                          "Press Confirm to enter.",
                          "{partner}, {name} vraagt je om samen **{tournament}** te spelen (jij Noord, {name} Zuid). "
                          "Druk op Bevestigen om mee te doen."),
    "tournament.invited": ("Invitation sent: your pair's table opens when {name} confirms.",
                           "Uitnodiging verstuurd: jullie tafel opent zodra {name} bevestigt."),
    "button.confirm_pair": ("Confirm", "Bevestigen"),
    "tournament.closing": ("{name} is closed: the AI finishes the tables still playing, then the final standings "
                           "follow in {channel}.",
                           "{name} is gesloten: de AI speelt de tafels uit die nog bezig zijn, daarna volgt de "
                           "eindstand in {channel}."),
    "tournament.final": ("🏆 **{name}** is over. Winner: {winner} with {total}.",
                         "🏆 **{name}** is afgelopen. Winnaar: {winner} met {total}."),
    "tournament.final_pairs": ("Best pair: {winner} with {total}.", "Beste paar: {winner} met {total}."),
    "tournament.final_none": ("🏆 **{name}** is over; no table was played.",
                              "🏆 **{name}** is afgelopen; er is geen tafel gespeeld."),
    "tournament.title": ("{name} (#{tournament})", "{name} (#{tournament})"),
    "tournament.title_final": ("{name} (#{tournament}): final standings · winner {winner}",
                               "{name} (#{tournament}): eindstand · winnaar {winner}"),
    "tournament.title_final_none": ("{name} (#{tournament}): final standings", "{name} (#{tournament}): eindstand"),
    "tournament.status_open": ("open until {closes}", "open tot {closes}"),
    "tournament.status_open_short": ("open", "open"),
    "tournament.status_closing": ("closing", "wordt gesloten"),
    "tournament.status_closed": ("final standings", "eindstand"),
    "tournament.header": ("**{title}** — {status} · {entries:entry|entries}",
                          "**{title}** — {status} · {entries:deelname|deelnames}"),
    "tournament.row": ("{rank}. {name} — {total}{mark}", "{rank}. {name} — {total}{mark}"),
    "tournament.row_playing": ("· {name} — {total} after {hands:hand|hands} (playing)",
                               "· {name} — {total} na {hands:ronde|rondes} (speelt nog)"),
    "tournament.row_open": ("{rank}. {name} — {total} · {played}/{hands} hands played",
                            "{rank}. {name} — {total} · {played}/{hands} rondes gespeeld"),
    "tournament.row_progress": ("{rank}. {name} — {played}/{hands} hands played",
                                "{rank}. {name} — {played}/{hands} rondes gespeeld"),
    "tournament.counted": ("Scores over hands 1–{counted}, the hands you have played; the rest stays hidden until "
                           "the tournament closes (every table gets the same cards).",
                           "Scores over ronde 1–{counted}, de rondes die je zelf hebt gespeeld; de rest blijft "
                           "verborgen tot het toernooi sluit (elke tafel krijgt dezelfde kaarten)."),
    "tournament.hidden": ("Scores stay hidden until you have played a hand yourself, or the tournament closes "
                          "(every table gets the same cards): the order is by hands played.",
                          "Scores blijven verborgen tot je zelf een ronde hebt gespeeld, of het toernooi sluit "
                          "(elke tafel krijgt dezelfde kaarten): de volgorde is op gespeelde rondes."),
    "tournament.ai_mark": (" (finished by the AI)", " (uitgespeeld door de AI)"),
    "tournament.solo_title": ("Players:", "Spelers:"),
    "tournament.pairs_title": ("Pairs:", "Paren:"),
    "tournament.your_hands": ("Your hands against the field:", "Jouw rondes tegen het veld:"),
    "tournament.hand_line": ("hand {hand}: you {score}, best {best}, average {average}",
                             "ronde {hand}: jij {score}, beste {best}, gemiddeld {average}"),
    "tournament.hand_line_lost": ("hand {hand}: you {score}, best {best}, average {average}, points lost per "
                                  "decision {lost}",
                                  "ronde {hand}: jij {score}, beste {best}, gemiddeld {average}, punten verloren per "
                                  "beslissing {lost}"),
    "tournament.no_entries": ("Nobody has entered yet.", "Nog niemand doet mee."),
    "tournament.more": ("+{n} more", "+{n} meer"),
    "tournament.config_saved": ("Tournament settings saved. Daily tournament: {daily}. Who may create tournaments: "
                                "Manage Server{role}.",
                                "Toernooi-instellingen opgeslagen. Dagtoernooi: {daily}. Wie toernooien mag maken: "
                                "Server beheren{role}."),
    "tournament.daily_on": ("on, opening every day at {hour}:00 UTC in {channel} and closing 24 hours later",
                            "aan, opent elke dag om {hour}:00 UTC in {channel} en sluit 24 uur later"),
    "tournament.daily_off": ("off", "uit"),
    "tournament.role": (" or the role {role}", " of de rol {role}"),
    "tournament.winners_title": ("**Daily tournament winners, all time**", "**Winnaars van het dagtoernooi, "
                                                                            "aller tijden**"),
    "tournament.winners_row": ("{rank}. {name} — {wins:win|wins}", "{rank}. {name} — {wins:keer|keer} gewonnen"),
    "tournament.no_winners": ("No daily tournament has been won here yet.",
                              "Hier is nog geen dagtoernooi gewonnen."),
    "tournament.label": ("#{tournament} {name} · {status}", "#{tournament} {name} · {status}"),
    "label.players": ("Players", "Spelers"),
    "label.pairs": ("Pairs", "Paren"),
    "label.you": ("You", "Jij"),
    "label.best": ("Best", "Beste"),
    "label.average": ("Average", "Gemiddeld"),
    "label.playing": ("playing", "speelt nog"),
    "label.by_ai": ("finished by the AI", "uitgespeeld door de AI"),
    "label.more": ("more", "meer"),
})

# ------------------------------------------------------------------ bounds, and options as a modified client sends them

TEXTS.update({
    "error.bad_length": ("Match length “{text}”: give a number of hands from 1 to {hands} (like 16 or 8) or a target "
                         "from {minimum} to {target} points (like to1001).",
                         "Lengte “{text}”: geef een aantal rondes van 1 tot {hands} (zoals 16 of 8) of een doel van "
                         "{minimum} tot {target} punten (zoals tot1001)."),
    "error.too_many_tables": ("You already host {count} tables that are open or being played (tables {tables}): play "
                              "one to its end or stop it before you open another.",
                              "Je bent al gastheer van {count} tafels die open staan of gespeeld worden (tafels "
                              "{tables}): speel er een uit of stop hem voordat je een nieuwe opent."),
    "error.too_many_tournaments": ("This server already has {count} open tournaments, the most at once: close one "
                                   "(/klaverjas tournament close) or wait until one closes.",
                                   "Deze server heeft al {count} open toernooien, het hoogste aantal tegelijk: sluit "
                                   "er een (/klaverjas toernooi sluiten) of wacht tot er een sluit."),
    # bot.discord_app.options: an option's value that is not what the command declares
    "error.option_kind": ("The option {option} takes {kind}; nothing was changed.",
                          "Bij de optie {option} hoort {kind}; er is niets veranderd."),
    "error.option_range": ("The option {option} takes {kind} from {low} to {high}; nothing was changed.",
                           "Bij de optie {option} hoort {kind} van {low} tot {high}; er is niets veranderd."),
    "error.option_choice": ("The option {option} takes one of: {choices}; nothing was changed.",
                            "Bij de optie {option} hoort een van deze: {choices}; er is niets veranderd."),
    "error.option_length": ("The option {option} takes text of {low} to {high} characters; nothing was changed.",
                            "Bij de optie {option} hoort tekst van {low} tot {high} tekens; er is niets veranderd."),
    "error.option_missing": ("The option {option} is missing; nothing was changed.",
                             "De optie {option} ontbreekt; er is niets veranderd."),
    "option.kind.string": ("text", "tekst"),
    "option.kind.integer": ("a whole number", "een heel getal"),
    "option.kind.number": ("a number", "een getal"),
    "option.kind.boolean": ("yes or no (true or false)", "ja of nee (true of false)"),
    "option.kind.user": ("a member of this server", "een lid van deze server"),
    "option.kind.channel": ("a channel of this server", "een kanaal van deze server"),
    "option.kind.role": ("a role of this server", "een rol van deze server"),
    "option.kind.mentionable": ("a member or a role of this server", "een lid of een rol van deze server"),
    "option.kind.attachment": ("a file", "een bestand"),
})

# ------------------------------------------------------------------ the terminal (``klaverjas play``)

TEXTS.update({
    "terminal.welcome": ("Klaverjas: you sit South; North is your partner. On the score sheet Wij (we) are you and "
                         "North, Zij (they) East and West. {rules}",
                         "Klaverjassen: jij zit Zuid; Noord is je maat. Wij zijn jij en Noord, Zij Oost en West. "
                         "{rules}"),
    "terminal.auto": ("Klaverjas: four AI players ({level}). {rules}",
                      "Klaverjassen: vier AI-spelers ({level}). {rules}"),
    "terminal.help": ("Type a number or a card (JH, 10h, QS) to play; pass, play or a suit (C D H S, hearts) to bid; "
                      "? for a hint; q to quit.",
                      "Typ een nummer of een kaart (BH, 10s, VR) om te spelen; passen, spelen of een kleur "
                      "(K R H S, ruiten) om troef te kiezen; ? voor een tip; q om te stoppen."),
    "terminal.hand": ("Hand {n}{of}, dealer: {dealer}.", "Ronde {n}{of}, deler: {dealer}."),
    "terminal.your_hand": ("Your hand (* = you may play it):", "Je kaarten (* = speelbaar):"),
    "terminal.your_hand_bidding": ("Your hand:", "Je kaarten:"),
    "terminal.trump_suit": ("trump", "troef"),
    "terminal.seat_line": ("{seat}: {text}", "{seat}: {text}"),
    "terminal.first_call": ("{name} bids first.", "{name} begint met troef kiezen."),
    "terminal.first_call_you": ("{name} bid first.", "{name} begint met troef kiezen."),
    "terminal.first_call_turned": ("{name} speaks first: play or pass on the turned suit.",
                                   "{name} mag eerst: spelen of passen op de gedraaide kleur."),
    "terminal.first_call_turned_you": ("{name} speak first: play or pass on the turned suit.",
                                       "{name} mag eerst: spelen of passen op de gedraaide kleur."),
    "terminal.you_in_sentence": ("you", "jij"),
    "terminal.trump": ("{name} plays {suit} as trump{forced}.", "{name} speelt {suit} als troef{forced}."),
    "terminal.trump_you": ("{name} play {suit} as trump{forced}.", "{name} speelt {suit} als troef{forced}."),
    "terminal.forced": (" (forced)", " (verplicht)"),
    "terminal.leads": ("{name} leads.", "{name} komt uit."),
    "terminal.leads_you": ("{name} lead.", "{name} komt uit."),
    "terminal.table": ("On the table: {cards}", "Op tafel: {cards}"),
    "terminal.claim_prompt": ("Your side won the trick: r to claim roem, Enter to play on: ",
                              "Jullie slag: r om roem te melden, Enter om door te spelen: "),
    "terminal.claim_prompt_stuk": ("Your side played a king or queen of trump: r to claim roem, Enter to play on: ",
                                   "Jullie speelden een troefheer of -vrouw: r om roem te melden, Enter om door "
                                   "te spelen: "),
    "terminal.claim_prompt_last": ("Last trick: r to claim roem, Enter to settle the hand: ",
                                   "Laatste slag: r om roem te melden, Enter om de ronde af te rekenen: "),
    "terminal.status": ("Trump {trump} ({name} plays) · trick {n}/8", "Troef {trump} ({name} speelt) · slag {n}/8"),
    "terminal.status_you": ("Trump {trump} ({name} play) · trick {n}/8", "Troef {trump} ({name} speelt) · slag {n}/8"),
    "terminal.status_score": ("This hand: {score} · match: {total}", "Deze ronde: {score} · totaal: {total}"),
    "terminal.score": ("{ns_team} {ns} – {ew_team} {ew}", "{ns_team} {ns} – {ew_team} {ew}"),
    "terminal.call_prompt": ("Your call {choices}: ", "Jouw keuze {choices}: "),
    "terminal.card_prompt": ("Your card (number or card) [{numbers}]: ", "Jouw kaart (nummer of kaart) [{numbers}]: "),
    "terminal.hint": ("Hint: {text}", "Tip: {text}"),
    "terminal.made": ("Hand {n}: {score}. {name} made it ({pp} points + {pr} roem against {dp} + {dr}).",
                      "Ronde {n}: {score}. {name} haalt het ({pp} punten + {pr} roem tegen {dp} + {dr})."),
    "terminal.made_you": ("Hand {n}: {score}. {name} made it ({pp} points + {pr} roem against {dp} + {dr}).",
                          "Ronde {n}: {score}. {name} haalt het ({pp} punten + {pr} roem tegen {dp} + {dr})."),
    "terminal.nat": ("Hand {n}: {score}. {name} is nat ({pp} points + {pr} roem against {dp} + {dr}).",
                     "Ronde {n}: {score}. {name} is nat ({pp} punten + {pr} roem tegen {dp} + {dr})."),
    "terminal.nat_you": ("Hand {n}: {score}. {name} are nat ({pp} points + {pr} roem against {dp} + {dr}).",
                         "Ronde {n}: {score}. {name} bent nat ({pp} punten + {pr} roem tegen {dp} + {dr})."),
    "terminal.pit": ("PIT for {team}! {pit_bonus} roem extra.", "PIT voor {team}! {pit_bonus} roem extra."),
    "terminal.sheet": ("Score sheet:", "Boompje:"),
    "terminal.sheet_legend": ("  * = {ns_team} played the hand · (n) = roem, counted in the score · "
                              "nat/pit (team): who went nat or made pit",
                              "  * = {ns_team} speelde de ronde · (n) = roem, meegeteld in de score · "
                              "nat/pit (team): wie nat ging of pit haalde"),
    "terminal.bye": ("Goodbye!", "Tot ziens!"),
    "terminal.recorded": ("The match's record is in {path} (klaverjas score {path}).",
                          "Het verslag van de partij staat in {path} (klaverjas score {path})."),
    "terminal.bad_input": ("Not understood: {text!r}. Type a card number from the list, or a card like JH or 10h.",
                           "Niet begrepen: {text!r}. Typ het nummer van een kaart of een kaart zoals BH of 10s."),
    "terminal.bad_claim": ("Not understood: {text!r}. Type r to claim roem, or press Enter to go on.",
                           "Niet begrepen: {text!r}. Typ r om roem te melden, of Enter om door te gaan."),
    "terminal.bad_call": ("Not a call here: {text!r}. Choose one of: {choices}.",
                          "Dat kan hier niet: {text!r}. Kies uit: {choices}."),
    "terminal.bad_number": ("No card number {text} here: use one of {numbers}.",
                            "Geen kaart met nummer {text}: kies uit {numbers}."),
    "terminal.you": ("You", "Jij"),
})

# ------------------------------------------------------------------ words on the images (bot.texts.labels)

TEXTS.update({
    "label.trump": ("Trump", "Troef"),
    "label.plays": ("plays", "speelt"),
    "label.dealer": ("D", "D"),  # the dealer's chip: one letter
    "label.tricks": ("tricks", "slagen"),
    "label.points": ("points", "punten"),
    "label.roem": ("roem", "roem"),
    "label.hand": ("Hand", "Ronde"),
    "label.total": ("Total", "Totaal"),
    "label.nat": ("NAT", "NAT"),
    "label.pit": ("PIT", "PIT"),
    "label.winner": ("Winner", "Winnaar"),
    "label.draw": ("Draw", "Gelijkspel"),
    "label.trick": ("Trick", "Slag"),
    "label.turned": ("Turned", "Gedraaid"),
    "label.bidding": ("Bidding", "Troef kiezen"),
    "label.last": ("last trick", "vorige slag"),
    "label.player": ("Player", "Speler"),
    "label.we": ("Wij", "Wij"),
    "label.they": ("Zij", "Zij"),
    "label.ns": ("NS", "NZ"),
    "label.ew": ("EW", "OW"),
})

# ------------------------------------------------------------------ hints (engine.ai.hints.HintCode)
# Fields: card, head (cards), suit, led (suit names), hand (the facts a bid rests on).

TEXTS.update({
    "hint.only": ("{card} is your only legal card", "{card} is je enige speelbare kaart"),
    "hint.random": ("any card will do here", "elke kaart is hier goed"),
    "hint.bid_play": ("you hold {hand}: strong enough to play the {suit} suit",
                      "je hebt {hand}: sterk genoeg om op {suit} te spelen"),
    "hint.bid_pass": ("the {suit} suit is your best, with {hand}; too weak to play",
                      "{suit} is je beste kleur, met {hand}; te zwak om te spelen"),
    "hint.bid_play_turned": ("the turned {suit} suit: you hold {hand}, strong enough to play it",
                             "de gedraaide kleur {suit}: je hebt {hand}, sterk genoeg om te spelen"),
    "hint.bid_pass_turned": ("the turned {suit} suit: you hold {hand}, too weak to play it",
                             "de gedraaide kleur {suit}: je hebt {hand}, te zwak om te spelen"),
    "hint.bid_forced": ("you must choose trump: the {suit} suit is your best ({hand})",
                        "je moet troef kiezen: {suit} is je beste kleur ({hand})"),
    "hint.pull_trumps": ("your team plays: lead trump to pull the opponents' trumps",
                         "jullie spelen: kom uit met troef om de troeven van de tegenpartij te trekken"),
    "hint.cash": ("{card} is the highest {suit} left: take the trick with it",
                  "{card} is de hoogste {suit} die nog in het spel is: haal er de slag mee"),
    "hint.lead_signal": ("partner asked for a {suit} (a signal): lead one", "je maat seinde {suit}: kom daarmee uit"),
    "hint.lead_low": ("lead a low card and keep your high cards and guarded tens",
                      "kom uit met een lage kaart en bewaar je hoge kaarten en gedekte tienen"),
    "hint.spek": ("partner's {head} wins; give your {card} (spekken)", "{head} van je maat wint; spek je {card}"),
    "hint.spek_ace": ("partner's {head} wins; give your {card}: partner then knows your 10 is boss (seinen)",
                      "{head} van je maat wint; gooi je {card} bij: dan weet je maat dat je tien de baas is "
                      "(seinen)"),
    "hint.signal_up": ("partner's {head} wins; a low {suit} asks partner to lead a {suit} (opseinen)",
                       "{head} van je maat wint; een lage {suit} vraagt je maat om {suit} (opseinen)"),
    "hint.signal_down": ("partner's {head} wins; a picture card says you have no high {suit} (afseinen)",
                         "{head} van je maat wint; een plaatje zegt dat je geen hoge {suit} hebt (afseinen)"),
    "hint.keep_trumps": ("partner's {head} wins: no need to trump it; keep your trumps",
                         "{head} van je maat wint: niet introeven, bewaar je troeven"),
    "hint.discard": ("partner's {head} wins; discard a card you can spare",
                     "{head} van je maat wint; gooi een kaart bij die je kunt missen"),
    "hint.follow_trump": ("partner's {head} wins; follow with your cheapest trump",
                          "{head} van je maat wint; beken met je goedkoopste troef"),
    "hint.follow_cheap": ("partner's {head} wins; follow suit cheaply", "{head} van je maat wint; beken goedkoop"),
    "hint.overtake": ("you take over partner's trick with {card}", "je neemt de slag van je maat over met {card}"),
    "hint.win": ("{card} beats {head} and takes the trick", "{card} slaat {head} en haalt de slag"),
    "hint.trump_in": ("you have no {led}: trump in with {card}", "je hebt geen {led}: troef in met {card}"),
    "hint.duck": ("you cannot take this trick safely: play your cheapest card",
                  "deze slag haal je niet veilig: gooi je goedkoopste kaart"),
    "hint.duck_partner": ("partner's {head} is ahead but can still be beaten; play cheap",
                          "{head} van je maat ligt voor maar kan nog geslagen worden; gooi goedkoop"),
    "hint.partner_ahead": ("partner's {head} is ahead but can still be beaten",
                           "{head} van je maat ligt voor maar kan nog geslagen worden"),
    "hint.beat": ("{card} beats {head} for now (an opponent still to play may go higher)",
                  "{card} slaat {head} voorlopig (een tegenstander na je kan nog hoger gaan)"),
    "hint.claim": ("your team is owed {points} roem for the last trick: claim it",
                   "jullie hebben {points} roem in de laatste slag: meld die"),
    "hint.claim_nothing": ("a claim scores nothing now", "melden levert nu niets op"),
    "hint.decline": ("your team is owed no roem for the last trick", "jullie hebben geen roem in de laatste slag"),
    "hint.decline_owed": ("not claiming gives up {points} roem", "niet melden kost jullie {points} roem"),
    "hint.claim_action": ("Roem!", "Roem!"),
    "hint.decline_action": ("No roem", "Geen roem"),
    "hint.play_card": ("Play {card}", "Speel {card}"),
    "hint.choose_trump": ("Trump {suit} ({name})", "Troef {suit} ({name})"),
    "hint.trumps": ("{count} trump", "{count} troef"),
    "hint.trumps_many": ("{count} trumps", "{count} troeven"),
    "hint.with_honours": (" with {honours}", " met {honours}"),
    "hint.aces": (" and {count} ace beside them", " en {count} aas ernaast"),
    "hint.aces_many": (" and {count} aces beside them", " en {count} azen ernaast"),
})

# ------------------------------------------------------------------ statistics: /stats, /leaderboard, history

TEXTS.update({
    "stats.title": ("Statistics of {name}", "Statistieken van {name}"),
    "stats.matches": ("Matches: {played} (won {won}, drawn {drawn}, lost {lost}, abandoned {abandoned}) · "
                      "win rate {rate}",
                      "Partijen: {played} (gewonnen {won}, gelijk {drawn}, verloren {lost}, afgebroken {abandoned}) · "
                      "winstpercentage {rate}"),
    "stats.hands": ("Hands: {hands} · chose trump {chose}: made {made} ({made_rate}), nat {nat} ({nat_rate}) · "
                    "pits {pits}",
                    "Rondes: {hands} · zelf troef gekozen {chose}: gehaald {made} ({made_rate}), nat {nat} "
                    "({nat_rate}) · pit {pits}"),
    "stats.per_hand": ("Per hand: {points} points, {roem} roem", "Per ronde: {points} punten, {roem} roem"),
    "stats.rating": ("Rating in this server: {rating} · all servers: {global_rating}",
                     "Rating op deze server: {rating} · alle servers: {global_rating}"),
    "stats.rating_value": ("{conservative} ({mu} ± {sigma})", "{conservative} ({mu} ± {sigma})"),
    "stats.no_rating": ("none yet", "nog geen"),
    "stats.accuracy": ("Accuracy: {accuracy}", "Nauwkeurigheid: {accuracy}"),
    "stats.not_reviewed": ("not reviewed yet", "nog niet beoordeeld"),
    "stats.accuracy_trend": ("{accuracy} (last matches: {recent})", "{accuracy} (laatste partijen: {recent})"),
    "stats.tournaments": ("Tournaments: {played}", "Toernooien: {played}"),
    "stats.tournaments_best": ("Tournaments: {played} · best placing {place} of {field}",
                               "Toernooien: {played} · beste plaats {place} van {field}"),
    "stats.partner": ("Partner most often: {partner}, {matches:match|matches} ({won} won, {drawn} drawn, {lost} lost)",
                      "Vaakst je maat: {partner}, {matches:partij|partijen} ({won} gewonnen, {drawn} gelijk, "
                      "{lost} verloren)"),
    "stats.trump": ("Favourite trump: {suit}", "Favoriete troef: {suit}"),
    "stats.none": ("{name} has not played a match yet.", "{name} heeft nog geen partij gespeeld."),
    "stats.no_bots": ("Bots have no statistics; the AI players have theirs: use the ai option (easy, normal, hard).",
                      "Bots hebben geen statistieken; de AI-spelers wel: gebruik de optie ai (makkelijk, normaal, "
                      "moeilijk)."),
    "stats.shared": ("Shared by {mention}.", "Gedeeld door {mention}."),
    "stats.share_failed": ("I may not post in this channel, so the statistics stay private.",
                           "Ik mag in dit kanaal niets plaatsen, dus de statistieken blijven privé."),
    "stats.ai_name": ("AI {level}", "AI {level}"),
    "stats.someone": ("a player", "een speler"),
    "stats.dash": ("—", "—"),
    "button.share": ("Share in the channel", "Delen in het kanaal"),
    # the figures on the /stats image: label, then the charts' captions
    "stats.label.matches": ("Matches", "Partijen"),
    "stats.label.record": ("Won · drawn · lost", "Gewonnen · gelijk · verloren"),
    "stats.label.abandoned": ("Abandoned", "Afgebroken"),
    "stats.label.win_rate": ("Win rate", "Winstpercentage"),
    "stats.label.hands": ("Hands", "Rondes"),
    "stats.label.chose": ("Chose trump", "Zelf troef gekozen"),
    "stats.label.made": ("Made · nat", "Gehaald · nat"),
    "stats.label.pits": ("Pits", "Pit"),
    "stats.label.roem": ("Roem per hand", "Roem per ronde"),
    "stats.label.points": ("Points per hand", "Punten per ronde"),
    "stats.label.rating": ("Rating (this server)", "Rating (deze server)"),
    "stats.label.global": ("Rating (all servers)", "Rating (alle servers)"),
    "stats.label.accuracy": ("Accuracy", "Nauwkeurigheid"),
    "stats.label.trump": ("Favourite trump", "Favoriete troef"),
    "stats.label.partner": ("Partner most often", "Vaakst je maat"),
    "stats.chart.rating": ("Rating over time", "Verloop van de rating"),
    "stats.chart.monthly": ("Points per hand by month", "Punten per ronde per maand"),
    "stats.chart.empty": ("Not enough matches yet", "Nog te weinig partijen"),
    # /leaderboard
    "board.title": ("**Leaderboard: {scope}, {period}** (page {page} of {pages})",
                    "**Ranglijst: {scope}, {period}** (pagina {page} van {pages})"),
    "board.scope_server": ("this server", "deze server"),
    "board.scope_global": ("all servers", "alle servers"),
    "board.period_all": ("all time", "aller tijden"),
    "board.period_month": ("the last 30 days", "de afgelopen 30 dagen"),
    "board.period_week": ("the last 7 days", "de afgelopen 7 dagen"),
    "board.line": ("{rank}. {name} — {rating} ({matches:match|matches})",
                   "{rank}. {name} — {rating} ({matches:partij|partijen})"),
    "board.empty": ("Nobody has {min} rated matches here yet.", "Nog niemand heeft hier {min} partijen met rating."),
    "board.note": ("Ranked by rating minus three times its uncertainty; at least {min} matches to appear.",
                   "Gerangschikt op rating min drie keer de onzekerheid; vanaf {min} partijen."),
    "button.previous": ("◀ Previous", "◀ Vorige"),
    "button.next": ("Next ▶", "Volgende ▶"),
    # /klaverjas history
    "history.title": ("**Recent matches of {name} in this server**", "**Recente partijen van {name} op deze server**"),
    "history.line": ("{date} · table #{table} · {us} {own} – {them} {other} · {result} · {settings} · {link}",
                     "{date} · tafel #{table} · {us} {own} – {them} {other} · {result} · {settings} · {link}"),
    "history.none": ("{name} has no matches in this server yet.", "{name} heeft nog geen partijen op deze server."),
    "history.won": ("won", "gewonnen"),
    "history.drawn": ("drawn", "gelijk"),
    "history.lost": ("lost", "verloren"),
    "history.abandoned": ("abandoned", "afgebroken"),
    "history.unfinished": ("stopped", "gestopt"),
    "history.no_thread": ("no thread", "geen draad"),
})

SUIT_NAMES = {EN: {Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts", Suit.S: "spades"},
              NL: {Suit.C: "klaver", Suit.D: "ruiten", Suit.H: "harten", Suit.S: "schoppen"}}
SEAT_NAMES = {EN: {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"},
              NL: {Seat.N: "Noord", Seat.E: "Oost", Seat.S: "Zuid", Seat.W: "West"}}
# Rank letters as people read them on cards and in texts, in engine.cards.Rank order (7 8 9 10 J Q K A).
RANKS = {EN: ("7", "8", "9", "10", "J", "Q", "K", "A"), NL: ("7", "8", "9", "10", "B", "V", "H", "A")}
RANK_PLURALS = {EN: ("sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces"),
                NL: ("zevens", "achten", "negens", "tienen", "boeren", "vrouwen", "heren", "azen")}
RANK_NAMES = {EN: ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"),
              NL: ("zeven", "acht", "negen", "tien", "boer", "vrouw", "heer", "aas")}
# The trump honours a bid rests on, as the hint names them (heuristic.describe_hand's letters).
HONOUR_NAMES = {EN: {"J": "J", "9": "9", "A": "A", "T": "10"}, NL: {"J": "boer", "9": "nel", "A": "aas", "T": "tien"}}


def language(lang: str) -> Language:
    """``en``/``nl``, a Language or a locale (``nl-NL``): the language to speak (anything not Dutch is English)."""
    return Language.of(lang)


# The rule values texts state, from the engine, filled into every text that names them.
RULE_VALUES: dict[str, int] = {
    "stuk_roem": rulebook.STUK_ROEM,
    "pit_bonus": rulebook.PIT_BONUS,
    "run3_roem": rulebook.DRIEKAART_ROEM,
    "run4_roem": rulebook.VIERKAART_ROEM,
    "four_roem": rulebook.FOUR_OF_A_KIND_ROEM[Rank.ACE],
    "jacks_roem": rulebook.FOUR_OF_A_KIND_ROEM[Rank.JACK],
}


class _Count(int):
    """A whole-number parameter that can pick its noun: ``{hands:hand|hands}`` gives "1 hand", "16 hands"."""

    def __format__(self, spec: str) -> str:
        if "|" not in spec:
            return format(int(self), spec)
        one, many = spec.split("|", 1)
        return f"{int(self)} {one if self == 1 else many}"


class TextError(LookupError):
    """A text that cannot be said as written: an unknown key, a parameter not given, a template that is not one."""


# Tests (and a debugging run) set KLAVERJAS_STRICT_TEXTS=1 so a broken text fails where it is asked for; a
# player is never shown a traceback, so production logs it once and shows the text as far as it goes.
STRICT_TEXTS = os.environ.get("KLAVERJAS_STRICT_TEXTS", "") not in ("", "0")
_reported_faults: set[tuple[str, str]] = set()


def _text_fault(key: str, problem: str) -> None:
    if STRICT_TEXTS:
        raise TextError(f"text {key!r}: {problem}")
    if (key, problem) not in _reported_faults:
        _reported_faults.add((key, problem))
        log.error("text %r: %s (shown as far as it goes)", key, problem)


class _Params(dict[str, Any]):
    """The parameters of one text; a name the text asks for and was not given is noted and left as ``{name}``."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        super().__init__(params)
        self.missing: list[str] = []

    def __missing__(self, key: str) -> str:
        self.missing.append(key)
        return "{" + key + "}"

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        return _Count(value) if type(value) is int else value


def t(key: str, lang: str = EN, /, **params: Any) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in; positional-only, so a param may be named ``key``.

    A text that cannot be said (see ``TextError``) raises under ``STRICT_TEXTS`` and is logged otherwise.
    """
    pair = TEXTS.get(key)
    if pair is None:
        _text_fault(key, "no such text")
        return key
    template = pair[1] if language(lang) is NL else pair[0]
    values = _Params({**RULE_VALUES, **params})
    try:
        text = template.format_map(values)
    except (ValueError, IndexError) as error:
        _text_fault(key, f"not a template: {error}")
        return template
    if values.missing:
        _text_fault(key, f"no value for {', '.join(values.missing)}")
    return text


def number(value: float, lang: str, digits: int = 1) -> str:
    """A number with ``digits`` decimals as the language writes it: ``84.2``, in Dutch ``84,2``; every text and
    image that shows a fraction goes through here."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if language(lang) is NL else text


MONTH_NAMES = {EN: ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
               NL: ("jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec")}


def score_number(value: float, lang: str) -> str:
    """A score or an average of scores: whole as it is (``73``), else with one decimal (``6.5``, ``6,5``), so a
    half is never rounded away."""
    return str(int(value)) if float(value).is_integer() else number(value, lang)


def month_label(month: str, lang: str) -> str:
    """``2026-12`` as a reader takes it: ``Dec 2026`` / ``dec 2026`` (not 26/12, which reads as a day)."""
    year, index = month.split("-")[:2]
    return f"{MONTH_NAMES[language(lang)][int(index) - 1]} {year}"


def seat_name(seat: Seat, lang: str) -> str:
    return SEAT_NAMES[language(lang)][seat]


def suit_name(suit: Suit, lang: str) -> str:
    return SUIT_NAMES[language(lang)][suit]


SUIT_LETTERS = {EN: "CDHS", NL: "KRHS"}  # klaver, ruiten, harten, schoppen


def suit_letter(suit: Suit, lang: str) -> str:
    """The letter a player of ``lang`` types for a suit: C D H S, in Dutch K R H S."""
    return SUIT_LETTERS[language(lang)][suit]


def team_word(team: Team, viewer: Team | None, lang: str = EN) -> str:
    """Wij/Zij from the viewer's side; in public (no viewer) the team's seats as on the images: NS or EW,
    in Dutch NZ or OW."""
    if viewer is None:
        return t("label.ns" if team is Team.NS else "label.ew", lang)
    return t("label.we" if team is viewer else "label.they", lang)


def rank_letters(lang: str) -> tuple[str, ...]:
    """The rank letters of ``lang`` in Rank order: what cards show (images) and texts write."""
    return RANKS[language(lang)]


def card_text(card: Card, lang: str) -> str:
    """A card as a player of ``lang`` reads it, with the images' rank letters: ``10♥``, ``J♥`` / ``B♥``."""
    return RANKS[language(lang)][card.rank] + card.suit.symbol


def card_label(card: Card, lang: str) -> str:
    """``J♥ — jack of hearts`` / ``B♥ — harten boer``: what a player reads in a choice list."""
    lang = language(lang)
    index = int(card.rank)
    short = card_text(card, lang)
    if lang == NL:
        return f"{short} — {SUIT_NAMES[NL][card.suit]} {RANK_NAMES[NL][index]}"
    return f"{short} — {RANK_NAMES[EN][index]} of {SUIT_NAMES[EN][card.suit]}"


_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
_NL_RANKS = {"B": "J", "V": "Q", "H": "K"}
_NL_SUITS = {"K": "C", "R": "D", "H": "H", "S": "S"}
_SEAT_LETTERS = {"N": Seat.N, "E": Seat.E, "O": Seat.E, "S": Seat.S, "Z": Seat.S, "W": Seat.W}


def parse_card_text(text: str) -> Card | None:
    """A card as a player types it, in English (``JH``, ``10s``, ``J♥``) or Dutch (``BH``, ``HR``, ``B♣``).

    No string means one card in English and another in Dutch (the Dutch rank letters B, V, H and suit
    letters K, R never meet an English card), so both are tried. A suit symbol belongs to neither language, so
    its rank may be written in either.
    """
    raw = text.strip().upper().replace(" ", "")
    if raw.startswith("10"):
        raw = "T" + raw[2:]
    if len(raw) != 2:
        return None
    rank, suit = raw[0], raw[1]
    if suit in _SYMBOLS:
        candidates = [rank + _SYMBOLS[suit], _NL_RANKS.get(rank, rank) + _SYMBOLS[suit]]
    else:
        candidates = [raw]
        if rank in "789TA" + "".join(_NL_RANKS) and suit in _NL_SUITS:
            candidates.append(_NL_RANKS.get(rank, rank) + _NL_SUITS[suit])
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
        return card_text(action, lang)
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
        params["legal"] = " ".join(card_text(Card.parse(card), lang) for card in params["legal"].split())
    if "card" in params:
        params["card"] = card_text(Card.parse(params["card"]), lang)
    if "name" not in params and "seat" in params:
        params["name"] = seat_name(Seat.parse(params["seat"]), lang)
    return error_text(error.code, params, lang, error.reason)


def error_text(code: str, params: Mapping[str, Any], lang: str, reason: str = "") -> str:
    """The refusal ``code`` (an engine ErrorCode or a ServiceErrorCode) worded for a player.

    ``params`` may hold any names, ``reason`` and ``key`` included (a bad setting names its key).
    """
    key = f"error.{code}"
    if key not in TEXTS:
        return t("error.illegal", lang, reason=reason or code)
    return t(key, lang, **{"reason": reason, **params})


# ------------------------------------------------------------------ roem, calls, hints

def claim_key(event: RoemClaimed) -> str:
    """The text that says what a claim scored: nothing, roem, or roem with the held stuk it made count."""
    if not event.points:
        return "roem.claimed_nothing"
    return "roem.claimed_stuk" if event.stuk else "roem.claimed"


def roem_text(parts: tuple[RoemPart, ...], lang: str) -> str:
    """``stuk + driekaart: 40``, ``four aces: 100`` / ``vier azen: 100``; empty when there is no roem."""
    if not parts:
        return ""
    words = []
    for part in parts:
        if part.kind is RoemKind.FOUR_OF_A_KIND:
            rank = part.rank if part.rank is not None else Rank.ACE
            words.append(t("roem.four", lang, ranks=RANK_PLURALS[language(lang)][rank]))
        else:
            words.append(t(f"roem.{part.kind.value}", lang))
    return t("roem.parts", lang, parts=" + ".join(words), points=sum(part.points for part in parts))


_CALL_WORDS: dict[str, Call] = {"pass": Call.PASS, "pas": Call.PASS, "passen": Call.PASS, "p": Call.PASS,
                                "play": Call.PLAY, "speel": Call.PLAY, "spelen": Call.PLAY}


def parse_call_text(text: str) -> Call | None:
    """A call as a player types it: pass/pas/passen, play/speel/spelen, or a suit (``H``, ``♥``, ``hearts``,
    ``harten``, ``heart``) in either language."""
    raw = text.strip().lower()
    if raw in _CALL_WORDS:
        return _CALL_WORDS[raw]
    suit = parse_suit_text(raw)
    return Call.for_suit(suit) if suit is not None else None


def parse_suit_text(text: str) -> Suit | None:
    """A suit as a player types it: its letter (C D H S, Dutch K R H S), symbol, or name in either language."""
    raw = text.strip().lower()
    for symbol, letter in _SYMBOLS.items():
        if raw == symbol:
            return Suit.parse(letter)
    if len(raw) == 1:
        letter = {"K": "C", "R": "D"}.get(raw.upper(), raw.upper())  # Dutch klaver, ruiten
        return Suit.parse(letter) if letter in "CDHS" else None
    for names in SUIT_NAMES.values():
        for suit, name in names.items():
            if raw in (name, name.rstrip("s"), name.removesuffix("en")):
                return suit
    return None


def call_text(call: Call, lang: str) -> str:
    """A call in a sentence: ``Pass``, ``Play``, or a suit as ``♥ (hearts)``."""
    if call is Call.PASS:
        return t("button.pass", lang)
    if call is Call.PLAY:
        return t("button.play", lang)
    suit = call.suit
    assert suit is not None
    return f"{suit.symbol} ({suit_name(suit, lang)})"


# A suit in a hint, in the singular ("the highest diamond left", "een lage ruiten").
SUIT_NOUNS = {EN: {Suit.C: "club", Suit.D: "diamond", Suit.H: "heart", Suit.S: "spade"}, NL: SUIT_NAMES[NL]}


def _hint_suit(letter: str, lang: str) -> str:
    return SUIT_NOUNS[language(lang)][Suit.parse(letter)]


def _hand_words(params: Mapping[str, str], lang: str) -> str:
    """``3 trumps with J, 9 and 1 ace beside them``: the facts a bid rests on."""
    trumps = int(params["trumps"])
    text = t("hint.trumps" if trumps == 1 else "hint.trumps_many", lang, count=trumps)
    honours = [HONOUR_NAMES[language(lang)][letter] for letter in params.get("honours", "")]
    if honours:
        text += t("hint.with_honours", lang, honours=", ".join(honours))
    aces = int(params.get("aces", "0"))
    if aces:
        text += t("hint.aces" if aces == 1 else "hint.aces_many", lang, count=aces)
    return text


# The strong player's choices for which no reason can be worded: the hint names the card and says no more (a
# reason that only repeated the card, "Play 10♠: play 10♠", said nothing).
UNWORDED_HINTS = frozenset({HintCode.LEAD, HintCode.FOLLOW})


def hint_reason(hint: Hint, lang: str) -> str:
    """Why the strong player chooses the hint's action: ``partner's A♠ wins; give your 10♦ (spekken)``."""
    if hint.code in UNWORDED_HINTS:
        return ""
    params = hint.params
    values: dict[str, str] = {}
    for name in ("card", "head"):
        if name in params:
            values[name] = card_text(Card.parse(params[name]), lang)
    for name in ("suit", "led"):
        if name in params:
            values[name] = _hint_suit(params[name], lang)
    if "trumps" in params:
        values["hand"] = _hand_words(params, lang)
    if "points" in params:
        values["points"] = params["points"]
    return t(f"hint.{hint.code.value}", lang, **values)


def hint_action(action: Choice, lang: str) -> str:
    """The hinted action as an order: ``Play 10♠``, ``Pass``, ``Trump ♥ (hearts)``, ``Roem!``."""
    if isinstance(action, Claim):
        return t("hint.claim_action", lang)
    if isinstance(action, Decline):
        return t("hint.decline_action", lang)
    if isinstance(action, Card):
        return t("hint.play_card", lang, card=card_text(action, lang))
    if action in (Call.PASS, Call.PLAY):
        return call_text(action, lang)
    suit = action.suit
    assert suit is not None
    return t("hint.choose_trump", lang, suit=suit.symbol, name=suit_name(suit, lang))


def hint_text(hint: Hint, lang: str) -> str:
    """``Play 10♠: partner's A♠ wins; give your 10♠ (spekken)``; ``Play 10♠`` where no reason can be given."""
    action, reason = hint_action(hint.action, lang), hint_reason(hint, lang)
    return t("hint", lang, action=action, reason=reason) if reason else action


@dataclass(frozen=True, slots=True)
class SettingTexts:
    """The words of one table setting (``engine.settings.SETTINGS`` declares its values): its option's Dutch
    name, what the option is for (English, Dutch: Discord shows it beside the option), each value's Dutch word
    (English uses the values themselves, the record's), and what each value means (English, Dutch: the command
    line's help shows it)."""

    option_nl: str
    about: tuple[str, str]
    words_nl: Mapping[str, str] = field(default_factory=dict)
    meanings: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # The English names Discord's choices show where a value's own spelling would not do: a language by its name.
    choice_names: Mapping[str, str] = field(default_factory=dict)

    def choice_name(self, value: str) -> str:
        return self.choice_names.get(value, value)


SETTING_TEXTS: dict[str, SettingTexts] = {
    "rules": SettingTexts(
        "regels", ("Play rules: rotterdam or amsterdam", "Speelregels: rotterdam of amsterdam"),
        {"rotterdam": "rotterdams", "amsterdam": "amsterdams"},
        {"rotterdam": ("void in the led suit: always trump", "kun je niet bekennen: altijd troeven"),
         "amsterdam": ("no need to trump while your partner heads the trick",
                       "niet hoeven troeven als je maat de slag heeft")}),
    "undertrump": SettingTexts(
        "ondertroeven", ("Undertrumping: forced or forbidden", "Ondertroeven: verplicht of verboden"),
        {"forced": "verplicht", "forbidden": "verboden"},
        {"forced": ("unable to overtrump: still play a trump", "niet kunnen overtroeven: toch een troef spelen"),
         "forbidden": ("unable to overtrump: play another suit if you can",
                       "niet kunnen overtroeven: een andere kleur spelen als het kan")}),
    "bidding": SettingTexts(
        "troefkeuze", ("Bidding: vrij, verplicht or draaien", "Troef kiezen: vrij, verplicht of draaien"),
        {"vrij": "vrij", "verplicht": "verplicht", "draaien": "draaien"},
        {"vrij": ("each seat plays (naming trump) or passes", "ieder speelt (en noemt troef) of past"),
         "verplicht": ("the elder hand must name trump", "de voorhand moet troef noemen"),
         "draaien": ("a turned suit is played or passed", "een gedraaide kleur wordt gespeeld of gepast")}),
    "forced": SettingTexts(
        "gedwongen", ("Who must play after four passes in vrij: elder or dealer",
                      "Wie moet spelen na vier keer passen bij vrij: voorhand of deler"),
        {"elder": "voorhand", "dealer": "deler"},
        {"elder": ("the player left of the dealer", "de speler links van de deler"),
         "dealer": ("the dealer", "de deler")}),
    "length": SettingTexts(
        "lengte", ("Match length: hands (16, 8) or a target (to1001)", "Lengte: rondes (16, 8) of een doel (tot1001)")),
    "roem": SettingTexts(
        "roem", ("Roem: auto or declared", "Roem: automatisch of melden"),
        {"auto": "automatisch", "declared": "melden"},
        {"auto": ("counted by itself", "telt vanzelf"),
         "declared": ("counts only when claimed", "telt alleen als je meldt")}),
    "stuk": SettingTexts(
        "stuk", ("Stuk: trick or held", "Stuk: in de slag of in de hand"),
        {"trick": "in de slag", "held": "in de hand"},
        {"trick": ("K+Q of trump in one trick", "H+V van troef in één slag"),
         "held": ("K+Q of trump in one player's hand", "H+V van troef in de hand van één speler")}),
    "ai": SettingTexts(
        "ai", ("AI level: easy, normal or hard", "AI-niveau: makkelijk, normaal of moeilijk"),
        {"easy": "makkelijk", "normal": "normaal", "hard": "moeilijk"},
        {"easy": ("makes people's mistakes: a ten thrown onto the opponents' trick, trumps not pulled, a signal "
                  "missed, a hand over- or underbid",
                  "maakt de fouten van mensen: een tien bijgooien bij de tegenpartij, geen troef trekken, een sein "
                  "missen, te hoog of te laag bieden"),
         "normal": ("club-player rules", "speelt volgens de regels van clubspelers"),
         "hard": ("the strong player: samples the unseen cards and solves each deal exactly",
                  "de sterke speler: trekt steekproeven van de onzichtbare kaarten en rekent elke verdeling "
                  "precies door")}),
    "theme": SettingTexts(
        "laken", ("Felt colour", "Kleur van het laken"),
        {"green": "groen", "navy": "marineblauw", "burgundy": "bordeaux"}),
    "language": SettingTexts(
        "taal", ("Language of the table: en or nl", "Taal van de tafel: en of nl"),
        {"en": "Engels", "nl": "Nederlands"}, choice_names={"en": "English", "nl": "Nederlands"}),
}


# ------------------------------------------------------------------ /klaverjas review

REVIEW_TEXTS: dict[str, tuple[str, str]] = {
    "review.title": ("**Review of match #{table}**: what each decision cost against the strong player's choice, "
                     "on deals the player could not tell apart",
                     "**Analyse van partij #{table}**: wat elke beslissing kostte tegenover de keuze van de sterke "
                     "speler, op spelverdelingen die de speler niet van elkaar kon onderscheiden"),
    "review.player": ("{name} ({seat}): accuracy {accuracy}% · calls: {call_lost} points lost per call "
                      "({calls:call|calls}) · cards: {card_lost} points lost per card ({cards:card|cards})",
                      "{name} ({seat}): nauwkeurigheid {accuracy}% · troef kiezen: {call_lost} punten verloren per "
                      "keuze ({calls:keuze|keuzes}) · kaarten: {card_lost} punten verloren per kaart "
                      "({cards:kaart|kaarten})"),
    "review.yours": ("Your costliest decisions:", "Je duurste beslissingen:"),
    "review.costliest": ("The costliest decisions:", "De duurste beslissingen:"),
    "review.clean": ("No decision cost anything worth mentioning: well played.",
                     "Geen beslissing kostte iets van betekenis: goed gespeeld."),
    "review.where_card": ("hand {hand}, trick {trick}", "ronde {hand}, slag {trick}"),
    "review.where_bid": ("hand {hand}, bidding", "ronde {hand}, troef kiezen"),
    "review.mistake": ("{n}. {where}: {name} chose {choice}; {best} was better by {cost} points",
                       "{n}. {where}: {name} koos {choice}; {best} was {cost} punten beter"),
    "review.note": ("Accuracy: the share of the points at stake that the decisions kept, calls and cards together. "
                    "At stake: how far apart the best and the worst card allowed lie, or the call made and the other "
                    "way (counted three times: a call decides the hand); under {real} points it was no real choice "
                    "and does not count. Points lost: against the best play from that moment on, in the team's hand "
                    "score, nat included; averaged, since the costs of one hand overlap. A call is judged by playing "
                    "its hand out as a club player would, without seeing the other hands. Listed: decisions that "
                    "lost more than {within} points.",
                    "Nauwkeurigheid: het deel van de punten op het spel dat de beslissingen wisten te houden, troef "
                    "kiezen en kaarten samen. Op het spel: hoe ver de beste en de slechtste kaart die mocht uit "
                    "elkaar liggen, of de gemaakte keuze en de andere (drie keer geteld: troef kiezen beslist de "
                    "ronde); onder {real} punten was het geen echte keuze en telt het niet mee. Punten verloren: "
                    "tegenover het beste spel vanaf dat moment, in de score van het team in de ronde, nat "
                    "meegerekend; gemiddeld, want de kosten binnen een ronde overlappen. Troef kiezen wordt "
                    "beoordeeld door de ronde uit te spelen zoals een clubspeler dat doet, zonder de andere handen "
                    "te zien. Genoemd: beslissingen die meer dan {within} punten kostten."),
    "review.note_short": ("Accuracy: the share of the points at stake that the decisions kept; a decision with "
                          "under {real} points at stake does not count.",
                          "Nauwkeurigheid: het deel van de punten op het spel dat de beslissingen wisten te houden; "
                          "een beslissing met minder dan {real} punten op het spel telt niet mee."),
    "review.nobody": ("Nobody made a decision of their own in match #{table}: there is nothing to review.",
                      "In partij #{table} nam niemand zelf een beslissing: er valt niets te analyseren."),
    "review.pending": ("The review of match #{table} is being computed ({done} of {hands} hands); try again in a "
                       "minute.",
                       "De analyse van partij #{table} wordt berekend ({done} van {hands} rondes); probeer het over "
                       "een minuut opnieuw."),
    "review.queued": ("The review of match #{table} is being computed, after the matches that ended before it; "
                      "try again in a few minutes.",
                      "De analyse van partij #{table} wordt berekend, na de partijen die eerder afliepen; probeer "
                      "het over een paar minuten opnieuw."),
    "review.failed": ("The review of match #{table} could not be made.",
                      "De analyse van partij #{table} kon niet gemaakt worden."),
    "review.choice": ("#{table} · {date} · {names}", "#{table} · {date} · {names}"),
    "review.chart_title": ("Match #{table}: points lost per decision, hand by hand",
                           "Partij #{table}: punten verloren per beslissing, per ronde"),
    "review.chart_caption": ("hands 1 to {hands} · ▼ a decision that cost {big} points or more",
                             "rondes 1 tot {hands} · ▼ een beslissing die {big} punten of meer kostte"),
    "review.legend": ("{name}: {accuracy}% accurate · {lost} lost per decision",
                      "{name}: {accuracy}% nauwkeurig · {lost} verloren per beslissing"),
}
TEXTS.update(REVIEW_TEXTS)


# ------------------------------------------------------------------ the web table (bot.web)

TEXTS.update({
    "web.your_turn": ("Your turn", "Jij bent aan de beurt"),
    "web.waiting": ("Waiting for {name}…", "Wachten op {name}…"),
    "web.watching": ("You are watching this table.", "Je kijkt mee aan deze tafel."),
    "web.hint": ("Hint", "Tip"),
    "web.we": ("We", "Wij"),
    "web.they": ("They", "Zij"),
    "web.trick_won": ("{name} takes the trick ({points} points).", "{name} haalt de slag ({points} punten)."),
    "web.nat": ("Nat!", "Nat!"),
    "web.pit": ("Pit!", "Pit!"),
    "web.match_over": ("The match is over.", "De partij is afgelopen."),
    "web.draw": ("A draw.", "Gelijkspel."),
    "web.away": ("Away: the AI plays for you until you are back.",
                 "Afwezig: de AI speelt voor je tot je terug bent."),
    "web.reconnecting": ("Connection lost; reconnecting…", "Verbinding verbroken; opnieuw verbinden…"),
    "web.points": ("Points", "Punten"),
    "web.roem": ("Roem", "Roem"),
    "web.trump": ("Trump", "Troef"),
    "web.dealer": ("Dealer", "Deler"),
    "web.score_sheet": ("Score sheet", "Boompje"),
    "web.turned": ("Turned: {suit}", "Gedraaid: {suit}"),
    "web.lobby": ("The table is not started yet.", "De tafel is nog niet begonnen."),
    "web.stopped": ("This table was stopped.", "Deze tafel is gestopt."),
    "web.claim_question": ("Roem in the last trick?", "Roem in de laatste slag?"),
    "web.error.bad_frame": ("The page sent something the table does not understand; nothing changed.",
                            "De pagina stuurde iets wat de tafel niet begrijpt; er is niets veranderd."),
    "web.error.too_big": ("The page sent too much at once (over {limit} bytes); nothing changed.",
                          "De pagina stuurde te veel tegelijk (meer dan {limit} bytes); er is niets veranderd."),
    "web.error.rate_limited": ("Too many clicks at once; wait a moment.", "Te veel klikken tegelijk; wacht even."),
    "web.error.hello_first": ("The page has not said who you are yet.", "De pagina heeft nog niet gezegd wie je bent."),
    "web.error.watching": ("You are watching: only the players at the table can play.",
                           "Je kijkt mee: alleen de spelers aan tafel kunnen spelen."),
    "web.error.bad_token": ("This link is not valid. Ask for a new one with /klaverjas web.",
                            "Deze link is niet geldig. Vraag een nieuwe aan met /klaverjas web."),
    "web.error.expired_token": ("This link has expired. Ask for a new one with /klaverjas web.",
                                "Deze link is verlopen. Vraag een nieuwe aan met /klaverjas web."),
    "web.error.bad_instance": ("This page was not opened as Discord's Activity. Start the Activity again from "
                               "the table's thread.",
                               "Deze pagina is niet als Activity van Discord geopend. Start de Activity opnieuw "
                               "vanuit de thread van de tafel."),
    "web.error.no_instance": ("Discord does not know this Activity (any more). Start it again from the table's "
                              "thread.",
                              "Discord kent deze Activity niet (meer). Start hem opnieuw vanuit de thread van de "
                              "tafel."),
    "web.error.not_in_instance": ("You are not in this Activity. Start it yourself from the table's thread.",
                                  "Je zit niet in deze Activity. Start hem zelf vanuit de thread van de tafel."),
    "web.error.wrong_instance": ("This Activity runs in another channel than the page says; only the table of "
                                 "its own channel opens.",
                                 "Deze Activity draait in een ander kanaal dan de pagina zegt; alleen de tafel van "
                                 "dat eigen kanaal gaat open."),
    "web.error.discord_busy": ("Discord could not confirm where this Activity runs just now; trying again in a "
                               "moment.",
                               "Discord kon nu niet bevestigen waar deze Activity draait; zo meteen opnieuw."),
    "web.error.activity_off": ("The Activity is not set up on this bot.",
                               "De Activity is niet ingesteld op deze bot."),
    "web.link": ("Your seat at table #{table} in the browser: this link is yours alone, do not share it.",
                 "Je plaats aan tafel #{table} in de browser: deze link is alleen van jou, deel hem niet."),
    "web.not_configured": ("The web table is not set up on this bot.", "De webtafel is niet ingesteld op deze bot."),
    "button.open_browser": ("Open in browser", "Open in browser"),
    "button.watch_browser": ("Watch in browser", "Meekijken in browser"),
    "button.play_here": ("Play here", "Hier spelen"),
    "web.no_activity_here": ("The table opens as an Activity in its own thread only (or in the lobby's channel "
                             "before it starts).",
                             "De tafel opent alleen als Activity in zijn eigen thread (of voor de start in het "
                             "kanaal van de lobby)."),
    "web.watch_link": ("Table #{table} in the browser as onlookers see it (you do not sit at it).",
                       "Tafel #{table} in de browser zoals meekijkers hem zien (je zit er niet aan)."),
})


# ------------------------------------------------------------------ command names and descriptions

COMMAND_TEXTS: dict[str, str] = {
    # English string -> Dutch, for app_commands locale_str values (bot.discord_app.translator)
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
    "Show the score sheet": "Toon het boompje",
    "web": "web",
    "Open your seat at the table in a browser": "Open je plaats aan tafel in een browser",
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
    "dm": "dm",
    "thread": "draad",
    "Join a table, or take over an AI seat in a running game": "Doe mee aan een tafel, of neem een AI-plaats over",
    "seat": "plaats",
    "The seat: N, E, S or W": "De plaats: N, O, Z of W",
    "Where your private hand goes: dm or thread": "Waar je hand komt: dm of draad",
    "replay": "terugkijken",
    "Replay a match that is over, hand by hand (only you see it)":
        "Kijk een afgelopen partij terug, ronde voor ronde (alleen jij ziet het)",
    "export": "exporteren",
    "The record of a match that is over, as a file (klaverjas-record/1)":
        "Het verslag van een afgelopen partij als bestand (klaverjas-record/1)",
    "match": "partij",
    "The match: pick one of yours from the list, or type its number":
        "De partij: kies er een van jou uit de lijst, of typ het nummer",
    # statistics (bot.discord_app.cogs.stats, leaderboard, history)
    "stats": "statistieken",
    "Show a player's statistics (privately; you can share them)":
        "Toon de statistieken van een speler (privé; je kunt ze delen)",
    "player": "speler",
    "The player (default: you)": "De speler (standaard: jij)",
    "An AI level instead of a player": "Een AI-niveau in plaats van een speler",
    "leaderboard": "ranglijst",
    "Show the leaderboard of ratings": "Toon de ranglijst van ratings",
    "scope": "bereik",
    "This server or all servers": "Deze server of alle servers",
    "period": "periode",
    "All time, the last 30 days or the last 7 days": "Aller tijden, de afgelopen 30 dagen of 7 dagen",
    "server": "server",
    "global": "alle servers",
    "all": "altijd",
    "month": "maand",
    "week": "week",
    "history": "geschiedenis",
    "forget-me": "vergeet-mij",
    "Delete your statistics and make you anonymous in every stored game":
        "Wis je statistieken en maak je anoniem in elk bewaard spel",
    "Recent matches in this server": "Recente partijen op deze server",
    # tournaments
    "tournament": "toernooi",
    "Tournaments: everyone plays the same deals against AI players":
        "Toernooien: iedereen speelt dezelfde kaarten tegen AI-spelers",
    "create": "maken",
    "Create a tournament in this channel (Manage Server or the server's tournament role)":
        "Maak een toernooi in dit kanaal (Server beheren of de toernooirol van de server)",
    "name": "naam",
    "The tournament's name": "De naam van het toernooi",
    "hands": "rondes",
    "Hands every entry plays (default 16, a boompje)": "Rondes die iedereen speelt (standaard 16, een boompje)",
    "max_participants": "max_deelnemers",
    "Most entries (a pair is one; default 10, 0 for no limit)":
        "Hoogstens zoveel deelnames (een paar telt als één; standaard 10, 0 voor geen grens)",
    "hours": "uren",
    "Hours until it closes (default 24)": "Uren tot het sluit (standaard 24)",
    "pairs": "paren",
    "Whether two may enter as a pair (default yes)": "Of twee samen als paar mogen meedoen (standaard ja)",
    "Join a tournament: your own table, at your own pace":
        "Doe mee aan een toernooi: je eigen tafel, in je eigen tempo",
    "The tournament: pick one from the list": "Het toernooi: kies er een uit de lijst",
    "partner": "maat",
    "Enter as a pair with this partner (they confirm)": "Doe mee als paar met deze maat (die bevestigt)",
    "standings": "stand",
    "The standings of a tournament, and your hands against the field": "De stand van een toernooi, en jouw rondes "
                                                                       "tegen het veld",
    "close": "sluiten",
    "Close a tournament now (its creator or Manage Server)": "Sluit een toernooi nu (wie het maakte of Server "
                                                             "beheren)",
    "config": "instellen",
    "The server's tournament settings: the daily tournament and the role that may create tournaments":
        "De toernooi-instellingen van de server: het dagtoernooi en de rol die toernooien mag maken",
    "daily": "dagelijks",
    "A tournament that opens every day in this channel and closes 24 hours later":
        "Een toernooi dat elke dag in dit kanaal opent en 24 uur later sluit",
    "hour": "uur",
    "The hour (UTC, 0-23) the daily tournament opens": "Het uur (UTC, 0-23) waarop het dagtoernooi opent",
    "role": "rol",
    "Besides Manage Server, this role may create tournaments": "Naast Server beheren mag deze rol toernooien maken",
    "winners": "winnaars",
    "The daily tournament's winners of all time": "De winnaars van het dagtoernooi van alle tijden",
    "review": "analyse",
    "Review a finished match: what each decision cost": "Analyseer een afgelopen partij: wat elke beslissing kostte",
    "The match: its number, e.g. 12": "De partij: het nummer, bijv. 12",
}


def _setting_command_texts() -> dict[str, str]:
    """The settings' options on Discord in Dutch: their names, what they are for, and their choices."""
    texts: dict[str, str] = {}
    for setting in SETTINGS:
        if setting.on_discord:
            words = SETTING_TEXTS[setting.name]
            texts[setting.name] = words.option_nl
            texts[words.about[0]] = words.about[1]
            texts.update({words.choice_name(value): words.words_nl[value] for value in setting.values})
    return texts


COMMAND_TEXTS.update(_setting_command_texts())


# ------------------------------------------------------------------ /klaverjas rules

RULE_TEXTS: dict[str, tuple[str, str]] = {
    "settings.line": ("{rules} · undertrump {undertrump} · {bidding} · {length} · roem {roem} · stuk {stuk}",
                      "{rules} · ondertroeven {undertrump} · {bidding} · {length} · roem {roem} · stuk {stuk}"),
    "settings.ai": ("AI: {level}", "AI: {level}"),
    "settings.forced": ("(four passes: the {seat} must play)", "(vier keer gepast: {seat} moet spelen)"),
    "length.hands": ("{hands:hand|hands}", "{hands:ronde|rondes}"),
    "length.target": ("to {target}", "tot {target}"),
    "rules.title": ("**Table #{table}: the rules at this table**", "**Tafel #{table}: de regels aan deze tafel**"),
    "rules.settings": ("Settings: {rules} · undertrump {undertrump} · bidding {bidding} · roem {roem} · stuk {stuk} "
                       "· {length} · AI {ai} · felt {theme} · language {language}",
                       "Instellingen: {rules} · ondertroeven {undertrump} · troef {bidding} · roem {roem} · "
                       "stuk {stuk} · {length} · AI {ai} · laken {theme} · taal {language}"),
    "rules.common": ("Always: follow suit if you can; when trump is led you must overtrump if you can, even over "
                     "your partner. Partners sit opposite: NS against EW. The playing team must score more than the "
                     "other team (points + roem), or it is nat and the others get everything; all eight tricks is "
                     "pit (+{pit_bonus}).",
                     "Altijd: bekennen als het kan; wordt er troef gevraagd, dan moet je overtroeven als het kan, "
                     "ook over je maat heen. Maten zitten tegenover elkaar: NZ tegen OW. Het spelende team moet "
                     "meer halen dan het andere (punten + roem), anders is het nat en krijgt de tegenpartij alles; "
                     "alle acht slagen is pit (+{pit_bonus})."),
    "explain.rules.rotterdam": (
        "**Rotterdam**: when you cannot follow suit you must trump (and overtrump if you can), "
        "even when your partner is winning the trick.",
        "**Rotterdams**: kun je niet bekennen, dan moet je troeven (en overtroeven als het kan), "
        "ook als je maat de slag al heeft."),
    "explain.rules.amsterdam": (
        "**Amsterdam**: when you cannot follow suit and your partner is winning the trick, you need "
        "not trump (but you may not undertrump); when an opponent is winning it you must trump "
        "(and overtrump if you can).",
        "**Amsterdams**: kun je niet bekennen en heeft je maat de slag, dan hoef je niet te troeven "
        "(maar ondertroeven mag niet); heeft een tegenstander de slag, dan moet je troeven (en "
        "overtroeven als het kan)."),
    "explain.undertrump.forced": (
        "**Undertrump forced**: when you must trump but cannot overtrump, you still play a "
        "trump (a lower one).",
        "**Ondertroeven verplicht**: moet je troeven maar kun je niet overtroeven, dan speel "
        "je toch een (lagere) troef."),
    "explain.undertrump.forbidden": (
        "**Undertrump forbidden**: when you cannot overtrump you play a card of another "
        "suit instead; only with nothing but trumps do you undertrump.",
        "**Ondertroeven verboden**: kun je niet overtroeven, dan speel je een kaart van "
        "een andere kleur; alleen met niets dan troef ondertroef je."),
    "explain.bidding.vrij": (
        "**Bidding vrij**: starting left of the dealer, each player plays (naming any suit as trump) "
        "or passes. If all four pass, {forced} must choose trump.",
        "**Troef vrij**: vanaf links van de deler zegt ieder spelen (en noemt een troefkleur) of "
        "passen. Past iedereen, dan moet {forced} troef kiezen."),
    "explain.bidding.verplicht": (
        "**Bidding verplicht**: the player left of the dealer must choose trump at once.",
        "**Troef verplicht**: de speler links van de deler moet meteen troef kiezen."),
    "explain.bidding.draaien": (
        "**Bidding draaien**: a suit is turned; each player in turn plays on it or passes. If all "
        "pass, a second suit is turned; if all pass again, a third is turned and the player left of "
        "the dealer must play it. The first turn of a match is always clubs.",
        "**Troef draaien**: er wordt een kleur gedraaid; ieder zegt spelen of passen. Past iedereen, dan "
        "wordt een tweede kleur gedraaid; past iedereen weer, dan een derde, en de speler links van "
        "de deler moet die spelen. De eerste keer in een partij is het altijd klaver."),
    "rules.forced_elder": ("the player left of the dealer", "de speler links van de deler"),
    "rules.forced_dealer": ("the dealer", "de deler"),
    "explain.roem.auto": (
        "**Roem automatic**: roem in a trick (three in a row {run3_roem}, four in a row "
        "{run4_roem}, four of a kind {four_roem}, four jacks {jacks_roem}, stuk {stuk_roem}) is "
        "counted for the team that wins the trick.",
        "**Roem automatisch**: roem in een slag (driekaart {run3_roem}, vierkaart {run4_roem}, vier "
        "gelijken {four_roem}, vier boeren {jacks_roem}, stuk {stuk_roem}) telt vanzelf voor het team "
        "dat de slag wint."),
    "explain.roem.declared": (
        "**Roem declared**: roem counts only when a player of the team that won the trick "
        "presses Roem! before the next card is played (after the last trick you are asked). "
        "Nobody tells you whether a trick holds roem: spot it yourself. A claim that finds "
        "none scores nothing.",
        "**Roem melden**: roem telt alleen als iemand van het team dat de slag won op Roem! "
        "drukt voor de volgende kaart (na de laatste slag wordt het gevraagd). Niemand zegt of "
        "er roem in een slag zit: zie het zelf. Meld je roem die er niet is, dan levert dat "
        "niets op."),
    "explain.stuk.trick": (
        "**Stuk in the trick**: king and queen of trump in one trick are {stuk_roem} roem for its "
        "winner.",
        "**Stuk in de slag**: heer en vrouw van troef in één slag zijn {stuk_roem} roem voor de "
        "winnaar."),
    "explain.stuk.held": (
        "**Stuk held**: a player who holds king and queen of trump scores {stuk_roem} roem for their "
        "team when playing the second of them, whoever wins that trick.",
        "**Stuk in de hand**: wie heer en vrouw van troef heeft, krijgt {stuk_roem} roem voor zijn "
        "team bij het spelen van de tweede, wie de slag ook wint."),
    "explain.length.hands": (
        "**Length**: {hands:hand|hands}; the higher total wins.",
        "**Lengte**: {hands:ronde|rondes}; het hoogste totaal wint."),
    "explain.length.target": (
        "**Length**: the first team to {target} points wins.",
        "**Lengte**: het eerste team met {target} punten wint."),
}
TEXTS.update(RULE_TEXTS)



def setting_value(name: str, value: str, lang: str) -> str:
    """A setting's value as a player of ``lang`` reads it: ``moeilijk`` for the ai level ``hard`` in Dutch."""
    if language(lang) is NL and name in SETTING_TEXTS:
        return SETTING_TEXTS[name].words_nl.get(value, value)
    return value


def parse_setting_value(name: str, text: str) -> str | None:
    """The value of setting ``name`` (``engine.settings.SETTINGS``: rules, undertrump, bidding, forced, length,
    roem, stuk, ai, theme, language) from a player's words in English or Dutch, or another word the setting
    takes (``moeilijk`` -> ``hard``, ``tot 1001`` -> ``to1001``, ``slag`` -> ``trick``); None when the words name
    no value. Values are returned as the settings and the record spell them."""
    raw = " ".join(text.strip().lower().split())
    setting = SETTINGS_BY_NAME.get(name)
    if setting is None:
        return None
    if not setting.values:  # the length, typed freely
        words = raw.replace("rondes", "").replace("ronde", "").replace("hands", "").replace("hand", "").strip()
        for prefix in ("tot", "to", "target:", "target="):
            if words.startswith(prefix):
                number = words[len(prefix):].strip().replace(".", "").replace(",", "")
                return f"to{number}" if number.isdigit() else None
        return words if words.isdigit() else None
    dutch_words = SETTING_TEXTS[name].words_nl
    for value in setting.values:
        if raw in (value, dutch_words[value].lower()):
            return value
    return dict(setting.aliases).get(raw)


def parse_level(text: str) -> Level | None:
    """An AI level from ``easy``/``normal``/``hard`` or ``makkelijk``/``normaal``/``moeilijk``."""
    value = parse_setting_value("ai", text)
    return Level(value) if value is not None else None


def length_text(rules: Rules, lang: str) -> str:
    """``16 hands`` / ``16 rondes``, or ``to 1001`` / ``tot 1001``."""
    length = rules.length
    if length.hands is not None:
        return t("length.hands", lang, hands=length.hands)
    return t("length.target", lang, target=length.target)


def settings_line(rules: Rules, lang: str, ai: str | None = None, *, forced: bool = False) -> str:
    """The table's settings on one line, in ``lang``: ``rotterdam · undertrump forced · vrij · 16 hands · …``;
    with ``ai``, the AI level at the end; with ``forced``, who must play after four passes in vrij."""
    def value(key: str, v: str) -> str:
        return setting_value(key, v, lang)

    bidding = value("bidding", rules.bidding.value)
    if forced and rules.bidding is Bidding.VRIJ:  # who must play after four passes matters only here
        bidding += " " + t("settings.forced", lang, seat=value("forced", rules.forced.value))
    line = t("settings.line", lang, rules=value("rules", rules.play.value),
             undertrump=value("undertrump", rules.undertrump_rule.value),
             bidding=bidding, length=length_text(rules, lang),
             roem=value("roem", rules.roem.value), stuk=value("stuk", rules.stuk.value))
    if ai is not None:
        line += " · " + t("settings.ai", lang, level=value("ai", ai))
    return line


def explain_rules(rules: Rules, lang: str, *, table: int | None = None, ai: str = "", felt: str = "",
                  language: str = "") -> str:
    """The table's settings, then what each rule that differs between variants means, in ``lang``."""
    def value(key: str, v: str) -> str:
        return setting_value(key, v, lang)

    lines = []
    if table is not None:
        lines.append(t("rules.title", lang, table=table))
    values = rules.to_dict()
    shown = {setting.name: value(setting.name, str(values[setting.key])) for setting in SETTINGS
             if setting.is_rule and setting.values}
    lines.append(t("rules.settings", lang, **shown, length=length_text(rules, lang), ai=value("ai", ai),
                   theme=value("theme", felt), language=value("language", language)))
    # A bullet for each rule as this table plays it, in the settings' order; who must play after four passes is
    # said within bidding vrij (the forced seat has no bullet of its own).
    params = {"forced": t(f"rules.forced_{rules.forced.value}", lang), **rules.length.to_dict()}
    for setting in SETTINGS:
        chosen = values.get(setting.key)
        kind = next(iter(chosen)) if isinstance(chosen, dict) else chosen  # the length: hands or a target
        if setting.is_rule and f"explain.{setting.name}.{kind}" in TEXTS:
            lines.append("• " + t(f"explain.{setting.name}.{kind}", lang, **params))
    lines.append(t("rules.common", lang))
    return "\n".join(lines)
