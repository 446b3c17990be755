"""The one catalog: every text in both languages, every refusal and hint worded, nothing left unfilled."""

from __future__ import annotations

import string
from dataclasses import fields
from typing import Any

import pytest

from bot.tables.errors import ServiceErrorCode
from bot.texts.catalog import (
    RANKS,
    SETTING_TEXTS,
    TEXTS,
    UNWORDED_HINTS,
    card_text,
    claim_key,
    error_text,
    explain_rules,
    illegal_text,
    parse_call_text,
    parse_card_text,
    parse_level,
    parse_setting_value,
    parse_suit_text,
    roem_text,
    seat_name,
    setting_value,
    settings_line,
    suit_letter,
    t,
    team_word,
)
from bot.texts.labels import image_labels
from engine import rulebook
from engine.actions import Call
from engine.ai.hints import HintCode
from engine.ai.players import LEVELS, Level
from engine.cards import Card, Rank, Seat, Suit, Team
from engine.errors import ErrorCode, IllegalActionError
from engine.events import RoemClaimed
from engine.roem import RoemKind, RoemPart
from engine.settings import Bidding, ForcedSeat, PlayRules, RoemMode, Rules, StukMode, Undertrump
from rendering.theme import FELTS, Labels
from tests.ai.positions import position

LANGS = ("en", "nl")
# Every parameter a refusal is raised with (bot.tables.service, bot.discord_app, engine.game), as a
# player would see it filled in.
ERROR_PARAMS: dict[str, Any] = {
    "seat": "South", "name": "Bert", "table": 12, "key": "ai", "choices": "easy, normal, hard",
    "reason": "play must be one of rotterdam, amsterdam, not 'utrecht'", "host": "<@1>", "text": "X",
    "perms": "Manage Server", "led": "♦", "legal": "J♥ 9♥", "card": "10♦", "trump": "♥", "phase": "play",
    "seconds": 8, "tournament": "Vrijdagavond", "low": 1, "high": 32, "max": 10, "role": " or the role Jury",
    "hands": 64, "target": 5000, "minimum": 300, "count": 3, "tables": "4, 9, 12",
}


def fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(TEXTS))
def test_both_languages_have_the_same_parameters(key: str) -> None:
    english, dutch = TEXTS[key]
    assert english.strip() and dutch.strip()
    assert fields_of(english) == fields_of(dutch), key


@pytest.mark.parametrize("code", [*ErrorCode, *ServiceErrorCode], ids=str)
def test_every_error_code_has_a_text_that_renders_in_both_languages(code: str) -> None:
    assert f"error.{code}" in TEXTS
    for lang in LANGS:
        text = error_text(code, ERROR_PARAMS, lang)
        assert "{" not in text and text != t("error.unknown", lang), (code, lang, text)


def test_params_named_reason_or_key_are_filled_in_not_fatal() -> None:
    assert error_text("bad_rules", {"reason": "no such rule"}, "en") == (
        "Those settings do not work together: no such rule")
    assert error_text("bad_setting", {"key": "ai", "choices": "easy, normal, hard"}, "en") == (
        "ai must be one of: easy, normal, hard.")
    assert t("error.bad_setting", "nl", key="taal", choices="en, nl") == "taal moet een van deze zijn: en, nl."


def test_an_unknown_code_says_what_the_engine_said() -> None:
    assert error_text("no_such_code", {}, "en", "the moon is in the way") == (
        "That is not allowed: the moon is in the way")


def test_engine_refusal_names_cards_and_suits_as_a_player_reads_them() -> None:
    game = position({Seat.N: "AS KS QS", Seat.E: "7S 8S 9S", Seat.S: "7H 8H TD 7D 8C 9C 7C KC",
                     Seat.W: "AD JS"}, Suit.H, elder=Seat.S, plays="", play="amsterdam")
    game.apply(Card.C7, Seat.S)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Card.SA, Seat.E)
    assert illegal_text(refused.value, "en") == "It is West's turn."
    assert illegal_text(refused.value, "nl") == "West is aan de beurt."


@pytest.mark.parametrize("code", list(HintCode), ids=str)
def test_every_hint_code_has_a_text(code: HintCode) -> None:
    assert (f"hint.{code.value}" in TEXTS) is (code not in UNWORDED_HINTS)


def test_image_labels_fill_every_field_in_both_languages() -> None:
    for lang in LANGS:
        labels = image_labels(lang)
        assert isinstance(labels, Labels)
        assert all(getattr(labels, f.name) for f in fields(Labels))
    assert image_labels("nl").ranks[Rank.JACK] == "B" and image_labels("en").ranks[Rank.JACK] == "J"
    assert image_labels("nl-NL") == image_labels("nl")


def test_roem_is_named_part_by_part() -> None:
    stuk = RoemPart(RoemKind.STUK, 20, suit=Suit.H)
    run = RoemPart(RoemKind.DRIEKAART, 20, suit=Suit.H)
    jacks = RoemPart(RoemKind.FOUR_OF_A_KIND, 200, rank=Rank.JACK)
    assert roem_text((stuk, run), "en") == "stuk + driekaart: 40"
    assert roem_text((jacks,), "en") == "four jacks: 200"
    assert roem_text((jacks,), "nl") == "vier boeren: 200"
    assert roem_text((), "nl") == ""


@pytest.mark.parametrize(("text", "call"), [("pass", Call.PASS), ("Passen", Call.PASS), ("spelen", Call.PLAY),
                                            ("H", Call.H), ("harten", Call.H), ("♠", Call.S), ("klaver", Call.C),
                                            ("ruiten", Call.D), ("r", Call.D), ("diamonds", Call.D)])
def test_calls_are_read_in_either_language(text: str, call: Call) -> None:
    assert parse_call_text(text) is call


def test_nonsense_is_no_call_or_suit() -> None:
    assert parse_call_text("banana") is None and parse_suit_text("x") is None


def test_dutch_tables_name_teams_by_seat_as_nz_and_ow() -> None:
    assert [team_word(team, None, "nl") for team in Team] == ["NZ", "OW"]
    assert [team_word(team, None, "en") for team in Team] == ["NS", "EW"]
    assert team_word(Team.EW, Team.NS, "nl") == "Zij"
    assert (image_labels("nl").ns, image_labels("nl").ew) == ("NZ", "OW")


@pytest.mark.parametrize(("key", "text", "value"), [
    ("ai", "moeilijk", "hard"), ("ai", "Makkelijk", "easy"), ("ai", "normal", "normal"),
    ("rules", "rotterdams", "rotterdam"), ("undertrump", "verboden", "forbidden"), ("roem", "melden", "declared"),
    ("stuk", "in de hand", "held"), ("theme", "marineblauw", "navy"), ("language", "Nederlands", "nl"),
    ("stuk", "slag", "trick"), ("language", "dutch", "nl"),
    ("length", "tot 1001", "to1001"), ("length", "16 rondes", "16"), ("bidding", "draaien", "draaien"),
])
def test_settings_are_read_from_dutch_words(key: str, text: str, value: str) -> None:
    assert parse_setting_value(key, text) == value


def test_levels_and_settings_are_shown_and_read_in_dutch() -> None:
    assert parse_level("moeilijk") is Level.HARD and parse_level("superb") is None
    assert [setting_value("ai", level, "nl") for level in LEVELS] == ["makkelijk", "normaal", "moeilijk"]
    line = settings_line(Rules().with_changes(length="to1001"), "nl", "hard")
    assert "tot 1001" in line and line.endswith("AI: moeilijk") and "rotterdams" in line


def test_every_setting_value_has_its_dutch_word() -> None:
    assert set(SETTING_TEXTS["theme"].words_nl) == set(FELTS)
    assert tuple(SETTING_TEXTS["ai"].words_nl) == LEVELS
    for key, enum in (("rules", PlayRules), ("undertrump", Undertrump), ("bidding", Bidding), ("forced", ForcedSeat),
                      ("roem", RoemMode), ("stuk", StukMode)):
        assert set(SETTING_TEXTS[key].words_nl) == {member.value for member in enum}


def test_rule_values_in_texts_come_from_the_engine() -> None:
    assert t("hand.pit", "en", team="Wij", points=162) == f"PIT for Wij! 162 + {rulebook.PIT_BONUS}."
    assert "stuk 20" in explain_rules(Rules(), "en") and "four jacks 200" in explain_rules(Rules(), "en")


def test_dutch_cards_are_written_and_read_with_dutch_rank_letters() -> None:
    assert card_text(Card.HJ, "nl") == "B♥" and card_text(Card.DQ, "nl") == "V♦" and card_text(Card.HJ, "en") == "J♥"
    assert parse_card_text("BH") is Card.HJ and parse_card_text("VR") is Card.DQ and parse_card_text("10s") is Card.ST


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_every_card_reads_back_in_every_spelling_the_game_shows(lang: str) -> None:
    """As the images and texts write it (``B♣``, ``10♦``), with the language's letters (``BK``, ``JC``), in
    lower case, with 10 as T, and as the card's notation: each spelling names that card and no other."""
    for card in Card:
        rank = RANKS[lang][int(card.rank)]
        spellings = {card_text(card, lang), card.notation, card.symbol, rank + suit_letter(card.suit, lang)}
        spellings |= {spelling.lower() for spelling in spellings} | {s.replace("10", "T") for s in spellings}
        spellings |= {f"{rank} {card.suit.symbol}"}
        for spelling in spellings:
            assert parse_card_text(spelling) is card, (spelling, card)


def test_dutch_words_are_the_ones_dutch_tables_use() -> None:
    dutch = {key: pair[1] for key, pair in TEXTS.items()}
    assert not [key for key, text in dutch.items() if "bieden" in text.lower() or " bod " in f" {text.lower()} "]
    assert not [key for key, text in dutch.items() if "gever" in text]
    assert (t("button.pass", "nl"), t("button.play", "nl")) == ("Passen", "Spelen")
    assert t("label.hand", "nl") == "Ronde" and t("terminal.sheet", "nl") == "Boompje:"


@pytest.mark.parametrize(("lang", "one", "many"), [("en", "after 1 hand.", "after 16 hands."),
                                                    ("nl", "na 1 ronde.", "na 16 rondes.")])
def test_a_count_of_one_takes_the_singular(lang: str, one: str, many: str) -> None:
    assert t("match.won", lang, team="NS", won=2, lost=1, hands=1).endswith(one)
    assert t("match.won", lang, team="NS", won=2, lost=1, hands=16).endswith(many)
    # Numbers without a noun choice keep their own format.
    assert t("table.line", lang, hand=1, hands=16, trump="♥", ns=0, ew=0, turn="").count("1/16") == 1



@pytest.mark.parametrize(("stuk", "points", "en", "nl"), [
    (20, 20, "South claims roem: 20 for NS, the stuk included.", "Zuid meldt roem: 20 voor NZ, met stuk erbij."),
    (0, 20, "South claims roem: 20 for NS.", "Zuid meldt roem: 20 voor NZ."),
    (0, 0, "South claims roem: there is none, so it scores nothing.",
     "Zuid meldt roem: die is er niet, dus het levert niets op.")])
def test_a_claim_that_made_a_held_stuk_count_does_not_read_as_another_20(stuk: int, points: int, en: str,
                                                                         nl: str) -> None:
    claimed = RoemClaimed(0, 7, Seat.S, points, stuk)
    for lang, words in (("en", en), ("nl", nl)):
        assert t(claim_key(claimed), lang, name=seat_name(Seat.S, lang), points=points,
                 team=team_word(Team.NS, None, lang)) == words
