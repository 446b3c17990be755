"""Table-driven cases written from rules.md sections 2, 4, 5, 6 and 7 (trump is hearts throughout)."""

from __future__ import annotations

import pytest
from klaverjas_test_helpers import cards, notation

from engine import rulebook
from engine.cards import Card, Seat, Suit, mask_of
from engine.errors import ErrorCode
from engine.game import explain_illegal
from engine.roem import trick_roem_parts

TRUMP = Suit.H
R, A = "rotterdam", "amsterdam"
ALL4 = [(R, "forced"), (R, "forbidden"), (A, "forced"), (A, "forbidden")]


def legal(hand: str, trick: str, play: str, undertrump: str) -> list[str]:
    held = mask_of(cards(hand))
    t = [*cards(trick), 0, 0, 0]
    mask = rulebook.legal_mask(held, t[0], t[1], t[2], len(cards(trick)), TRUMP, play == A, undertrump == "forced")
    assert mask & ~held == 0
    return sorted(notation(c for c in cards(hand) if mask & (1 << c)))


# (case, trick so far (leader first), hand of the seat to play, {(play, undertrump): legal cards})
LEGAL_CASES = [
    ("lead: any card", "", "7C JH AS KD", {k: "7C JH AS KD" for k in ALL4}),
    ("plain led: follow suit", "KC", "7C AC JH 7D", {k: "7C AC" for k in ALL4}),
    ("trump led: must overtrump when possible", "9H", "JH 7H AC", {k: "JH" for k in ALL4}),
    ("trump led: overtrump the highest trump, not the led one", "AH 9H", "TH JH 7C", {k: "JH" for k in ALL4}),
    ("trump led: overtrump even over the partner", "AH 7C", "9H 8H KS", {k: "9H" for k in ALL4}),
    ("trump led: cannot overtrump, any trump (even under)", "JH", "9H 7H AC", {k: "9H 7H" for k in ALL4}),
    ("trump led, void in trump: any card", "7H", "AC KS", {k: "AC KS" for k in ALL4}),
    ("plain led, void, no trumps: any card", "KC", "AD 7S", {k: "AD 7S" for k in ALL4}),
    ("plain led, void, opponent heads with a plain card: must trump", "KC", "7H AD",
     {k: "7H" for k in ALL4}),
    ("partner heads with a plain card (2nd hand back)", "AC 7C", "7H 9H AD",
     {(R, "forced"): "7H 9H", (R, "forbidden"): "7H 9H", (A, "forced"): "7H 9H AD", (A, "forbidden"): "7H 9H AD"}),
    ("partner heads with a plain card, last seat", "7C AC 8C", "7H AD",
     {(R, "forced"): "7H", (R, "forbidden"): "7H", (A, "forced"): "7H AD", (A, "forbidden"): "7H AD"}),
    ("partner heads with a trump, can overtrump", "7C 9H 8C", "JH 7H AD",
     {(R, "forced"): "JH", (R, "forbidden"): "JH", (A, "forced"): "JH AD", (A, "forbidden"): "JH AD"}),
    ("partner heads with a trump, cannot overtrump", "7C 9H 8C", "7H 8H AD",
     {(R, "forced"): "7H 8H", (R, "forbidden"): "AD", (A, "forced"): "AD", (A, "forbidden"): "AD"}),
    ("partner heads with a trump, only trumps left", "7C 9H 8C", "7H 8H",
     {k: "7H 8H" for k in ALL4}),
    ("partner heads with a trump, only higher trumps", "7C 9H 8C", "JH",
     {k: "JH" for k in ALL4}),
    ("partner heads with a trump, only trumps, higher and lower: amsterdam any", "7C 9H 8C", "JH 7H",
     {(R, "forced"): "JH", (R, "forbidden"): "JH", (A, "forced"): "JH 7H", (A, "forbidden"): "JH 7H"}),
    ("partner heads with a trump, only trumps, two above and two below", "7C AH 8C", "9H JH 7H 8H",
     {(R, "forced"): "9H JH", (R, "forbidden"): "9H JH", (A, "forced"): "7H 8H 9H JH",
      (A, "forbidden"): "7H 8H 9H JH"}),
    ("partner heads with a trump, trumps above and below and a side card", "7C AH 8C", "9H 7H AD",
     {(R, "forced"): "9H", (R, "forbidden"): "9H", (A, "forced"): "9H AD", (A, "forbidden"): "9H AD"}),
    ("partner heads with a plain card, only trumps", "AC 7C", "JH 7H", {k: "JH 7H" for k in ALL4}),
    ("opponent heads with a trump, only trumps, higher and lower", "7C 9H", "JH 7H", {k: "JH" for k in ALL4}),
    ("opponent heads with a trump, can overtrump", "7C 9H", "JH 7H AD", {k: "JH" for k in ALL4}),
    ("opponent heads with a trump, cannot overtrump", "7C 9H", "7H 8H AD",
     {(R, "forced"): "7H 8H", (R, "forbidden"): "AD", (A, "forced"): "7H 8H", (A, "forbidden"): "AD"}),
    ("opponent heads with a trump, only trumps left", "7C 9H", "7H 8H", {k: "7H 8H" for k in ALL4}),
    ("trump in trick, void, no trumps: any card", "7C 9H", "AD 7S", {k: "AD 7S" for k in ALL4}),
    ("partner trumped but is overtrumped: not heading, must overtrump", "AC 7H", "8H AD",
     {k: "8H" for k in ALL4}),
    ("partner trumped, overtrumped, cannot overtrump", "KC 7H 9H", "8H QD",
     {(R, "forced"): "8H", (R, "forbidden"): "QD", (A, "forced"): "8H", (A, "forbidden"): "QD"}),
    ("partner's ace heads, opponent discarded a higher-looking card", "9C AD", "JH QS",
     {(R, "forced"): "JH", (R, "forbidden"): "JH", (A, "forced"): "JH QS", (A, "forbidden"): "JH QS"}),
    ("opponent's card heads over the partner's lead", "9C AC", "JH QS", {k: "JH" for k in ALL4}),
]


@pytest.mark.parametrize(("trick", "hand", "expected", "play", "undertrump"), [
    pytest.param(trick, hand, want[(play, under)], play, under, id=f"{name} [{play}/{under}]")
    for name, trick, hand, want in LEGAL_CASES for play, under in ALL4
])
def test_legal_cards(trick: str, hand: str, expected: str, play: str, undertrump: str) -> None:
    assert legal(hand, trick, play, undertrump) == sorted(expected.split())


# Why a card is refused: (trick so far, hand, card, play, undertrump) -> error code and words of the reason
ILLEGAL_CASES = [
    ("KC", "7C 7H", "7H", R, "forced", ErrorCode.FOLLOW_SUIT, "must follow suit (C)"),
    ("9H", "JH 7H AC", "AC", R, "forced", ErrorCode.OVERTRUMP, "must follow trump and overtrump"),
    ("9H", "JH 7H AC", "7H", A, "forbidden", ErrorCode.OVERTRUMP, "must overtrump when you can"),
    ("KC", "7H AD", "AD", A, "forbidden", ErrorCode.MUST_TRUMP, "must trump (H)"),
    ("7C 9H", "JH 7H AD", "AD", R, "forced", ErrorCode.OVERTRUMP, "must overtrump (JH)"),
    ("7C 9H", "JH 7H AD", "7H", A, "forced", ErrorCode.OVERTRUMP, "must overtrump when you can (JH)"),
    ("7C 9H", "7H AD", "AD", R, "forced", ErrorCode.MUST_TRUMP, "must trump, even below"),
    ("7C 9H", "7H AD", "7H", R, "forbidden", ErrorCode.NO_UNDERTRUMP, "may not undertrump"),
    ("7C 9H 8C", "JH 7H", "7H", R, "forced", ErrorCode.OVERTRUMP, "must overtrump when you can (JH)"),
    ("7C 9H 8C", "7H AD", "7H", A, "forced", ErrorCode.NO_UNDERTRUMP, "may not undertrump: play a card of another"),
    ("7C 9H 8C", "JH 7H AD", "7H", A, "forbidden", ErrorCode.NO_UNDERTRUMP,
     "may not play a trump lower than the trump in the trick (AD JH)"),
]


@pytest.mark.parametrize(("trick", "hand", "card", "play", "undertrump", "code", "words"), ILLEGAL_CASES)
def test_why_a_card_is_illegal(trick: str, hand: str, card: str, play: str, undertrump: str, code: ErrorCode,
                               words: str) -> None:
    held = mask_of(cards(hand))
    played = cards(trick)
    t = [*played, 0, 0, 0]
    mask = rulebook.legal_mask(held, t[0], t[1], t[2], len(played), TRUMP, play == A, undertrump == "forced")
    refused = Card.parse(card)
    assert not mask & refused.bit
    error = explain_illegal(held, [int(c) for c in played], TRUMP, mask, refused, Seat.S)
    assert error.code is code and words in error.reason, error.reason


# Trick winners: (cards in play order, position of the winner)
WINNER_CASES = [
    ("7C AC TC KC", 1, "plain: ace over ten"),
    ("9C JC 8C 7C", 1, "plain: jack over nine (plain order)"),
    ("TC KC QC 9C", 0, "plain: ten over king"),
    ("7C AD 8C AS", 2, "cards of other suits cannot win"),
    ("AH 9H JH TH", 2, "trump: jack highest"),
    ("AH 9H TH KH", 1, "trump: nine over ace (trump order, not plain)"),
    ("9H AH TH KH", 0, "trump: nine led beats ace"),
    ("QH KH 8H 7H", 1, "trump: king over queen"),
    ("AC 7H TC KC", 1, "the lowest trump beats the led ace"),
    ("AC 8H 7H 9H", 3, "highest of several trumps"),
    ("AC JH 9H AH", 1, "jack of trump over nine and ace of trump"),
    ("7H AC AD AS", 0, "trump led: plain aces cannot win"),
    ("JC 9C AH 7C", 2, "plain jack and nine are low in a plain suit"),
]


@pytest.mark.parametrize(("trick", "winner", "why"), WINNER_CASES, ids=[c[2] for c in WINNER_CASES])
def test_trick_winner(trick: str, winner: int, why: str) -> None:
    c = cards(trick)
    assert rulebook.trick_winner(c[0], c[1], c[2], c[3], TRUMP) == winner, why


# Card points (rules.md section 2): trump J 20, 9 14, A 11, T 10, K 4, Q 3; plain A 11, T 10, K 4, Q 3, J 2.
POINT_CASES = [("JH 9H AH TH", 55), ("KH QH 8H 7H", 7), ("JC 9C AC TC", 23), ("KC QC 8C 7C", 7),
               ("JH JC JD JS", 26), ("9H 9C 9D 9S", 14)]


@pytest.mark.parametrize(("trick", "points"), POINT_CASES)
def test_trick_points(trick: str, points: int) -> None:
    c = cards(trick)
    assert rulebook.trick_points(c[0], c[1], c[2], c[3], TRUMP) == points


def test_all_cards_hold_152_whatever_the_trump() -> None:
    deck = [c for s in "CDHS" for c in cards(" ".join(r + s for r in "789TJQKA"))]
    for trump in Suit:
        total = sum(rulebook.trick_points(*deck[i:i + 4], trump) for i in range(0, 32, 4))
        assert total == 152


# Roem of one trick: (cards, stuk counted in the trick?, roem, part names)
ROEM_CASES = [
    ("7C 8C 9C AD", True, 20, ["driekaart"], "driekaart"),
    ("9S TS JS 7D", True, 20, ["driekaart"], "natural order 9-10-J"),
    ("JS QS KS 7D", True, 20, ["driekaart"], "J-Q-K plain"),
    ("QC KC AC 7D", True, 20, ["driekaart"], "Q-K-A"),
    ("KC AC 7C 8C", True, 0, [], "no wrap from ace to seven"),
    ("7C 8C TC JC", True, 0, [], "a gap breaks the sequence"),
    ("7C 8D 9C TS", True, 0, [], "sequence must be in one suit"),
    ("8C 9C TC JC", True, 50, ["vierkaart"], "vierkaart counts 50, not 50 + 20"),
    ("9D TD JD QD", True, 50, ["vierkaart"], "vierkaart 9-10-J-Q"),
    ("KH QH 7C 8D", True, 20, ["stuk"], "stuk alone"),
    ("KC QC 7D 8S", True, 0, [], "K+Q of a plain suit is no stuk"),
    ("JH QH KH 7C", True, 40, ["driekaart", "stuk"], "J-Q-K of trump = 40"),
    ("QH KH AH 7C", True, 40, ["driekaart", "stuk"], "Q-K-A of trump = 40"),
    ("JH QH KH AH", True, 70, ["stuk", "vierkaart"], "J-Q-K-A of trump = 70"),
    ("TH JH QH KH", True, 70, ["stuk", "vierkaart"], "10-J-Q-K of trump = 70"),
    ("KH QH JC TC", True, 20, ["stuk"], "stuk and two unconnected cards"),
    ("KH QH 9C TC", True, 20, ["stuk"], "no driekaart from two cards"),
    ("JC JD JH JS", True, 200, ["four"], "four jacks"),
    ("AC AD AH AS", True, 100, ["four"], "four aces"),
    ("KC KD KH KS", True, 100, ["four"], "four kings"),
    ("QC QD QH QS", True, 100, ["four"], "four queens"),
    ("TC TD TH TS", True, 100, ["four"], "four tens"),
    ("9C 9D 9H 9S", True, 0, [], "four nines score nothing"),
    ("8C 8D 8H 8S", True, 0, [], "four eights score nothing"),
    ("7C 7D 7H 7S", True, 0, [], "four sevens score nothing"),
    ("KH QH 7C 8D", False, 0, [], "stuk: held - no stuk in a trick"),
    ("JH QH KH 7C", False, 20, ["driekaart"], "stuk: held - J-Q-K of trump is a plain driekaart"),
    ("JH QH KH AH", False, 50, ["vierkaart"], "stuk: held - J-Q-K-A of trump is a vierkaart"),
]


@pytest.mark.parametrize(("trick", "stuk_in_trick", "roem", "parts", "why"), ROEM_CASES,
                         ids=[c[4] for c in ROEM_CASES])
def test_trick_roem(trick: str, stuk_in_trick: bool, roem: int, parts: list[str], why: str) -> None:
    c = cards(trick)
    for order in (c, c[::-1], [c[2], c[0], c[3], c[1]]):  # the order of play does not matter
        assert rulebook.trick_roem(order[0], order[1], order[2], order[3], TRUMP, stuk_in_trick) == roem, why
        named = trick_roem_parts(tuple(order), TRUMP, stuk_in_trick)
        assert sorted(p.kind.value for p in named) == parts
        assert sum(p.points for p in named) == roem


# Settlement (rules.md section 7): (playing team, points NS, points EW, roem NS, roem EW) -> (NS, EW, nat)
SETTLE_CASES = [
    ((0, 110, 52, 0, 70), (0, 232, True), "worked example: 110 is not more than 52 + 70"),
    ((1, 52, 110, 70, 0), (232, 0, True), "worked example, teams swapped"),
    ((0, 81, 81, 0, 0), (0, 162, True), "equal points: a tie is nat"),
    ((0, 71, 91, 20, 0), (0, 182, True), "tie counting roem: 91 vs 91 is nat"),
    ((1, 91, 71, 0, 20), (0 + 162 + 20, 0, True), "tie with EW playing"),
    ((0, 100, 62, 20, 0), (120, 62, False), "made: each team scores its own"),
    ((0, 82, 80, 0, 0), (82, 80, False), "made by two points"),
    ((1, 110, 52, 0, 70), (110, 122, False), "EW playing makes it with roem"),
    ((0, 162, 0, 100, 0), (262, 0, False), "pit (100 roem) for the playing team"),
    ((0, 0, 162, 0, 100), (0, 262, True), "pit for the defence: playing team nat"),
    ((0, 90, 72, 0, 40), (0, 162 + 40, True), "defence roem makes the playing team nat"),
]


@pytest.mark.parametrize(("args", "expected", "why"), SETTLE_CASES, ids=[c[2] for c in SETTLE_CASES])
def test_settle(args: tuple[int, ...], expected: tuple[int, int, bool], why: str) -> None:
    assert rulebook.settle(*args) == expected, why
