"""Layout facts of the rendered images: order of the hand, card regions, dimming, seats, sheet rows."""

from __future__ import annotations

import io
import itertools
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.texts.labels import image_labels
from engine.actions import Call, Claim, Deal
from engine.cards import DECK, Card, Seat, Suit, Team, cards_of
from engine.game import Game, Phase
from engine.settings import Rules
from engine.view import public_view, seat_view, seat_view_of
from rendering import images
from rendering.draw import CARD_H, CARD_W, card_face
from rendering.examples import NAMES, fixed_public_view, fixed_results, fixed_view, sample_game
from rendering.images import (
    HAND_RAISE,
    SHEET_ROW,
    hand_card_boxes,
    hand_order,
    hand_size,
    render_hand,
    render_sheet,
    render_table,
    render_trick,
    sort_cards,
    suit_order,
)
from rendering.theme import FELTS, Theme, theme_from


def decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def luminance(img: Image.Image, box: tuple[int, int, int, int]) -> float:
    return float(ImageStat.Stat(img.crop(box).convert("L")).mean[0])


# --- hand order -------------------------------------------------------------------------------------

EN = image_labels("en")
NL = image_labels("nl")
DEFAULT_THEME = Theme(EN)
TRUMP_ORDER = "J9ATKQ87"
PLAIN_ORDER = "ATKQJ987"


@pytest.mark.parametrize("trump", list(Suit))
def test_trump_suit_first_in_trump_order_then_plain_order(trump: Suit) -> None:
    cards = list(DECK)  # every card: each suit's order is fully visible
    order = sort_cards(cards, trump)
    suits = [c.suit for c in order]
    assert suits[:8] == [trump] * 8
    assert "".join(c.rank.letter for c in order[:8]) == TRUMP_ORDER
    for k in range(1, 4):
        block = order[8 * k: 8 * k + 8]
        assert len({c.suit for c in block}) == 1
        assert "".join(c.rank.letter for c in block) == PLAIN_ORDER
    # colours alternate all the way: red, black, red, black or the reverse
    reds = [s in (Suit.D, Suit.H) for s in suits[::8]]
    assert all(a != b for a, b in itertools.pairwise(reds))


def test_no_trump_yet_uses_plain_order_and_alternates() -> None:
    order = sort_cards([Card.HJ, Card.H9, Card.HA, Card.DT, Card.C7, Card.CJ], None)
    hearts = [c for c in order if c.suit is Suit.H]
    assert hearts == [Card.HA, Card.HJ, Card.H9]
    colours = [c.suit in (Suit.D, Suit.H) for c in order]
    changes = sum(a != b for a, b in itertools.pairwise(colours))
    assert changes == 2  # red block, black block, red block: hearts and diamonds are split by clubs


def test_alternation_when_a_colour_is_missing_from_the_hand() -> None:
    # trump clubs, holding spades and hearts: clubs, hearts, spades (not clubs, spades: black twice)
    assert suit_order([Suit.S, Suit.H, Suit.C], Suit.C) == [Suit.C, Suit.H, Suit.S]
    assert suit_order([Suit.D], Suit.S) == [Suit.D]
    assert suit_order([], Suit.S) == []


def test_hand_order_is_the_view_hand_sorted() -> None:
    view = fixed_view()
    order = hand_order(view)
    assert sorted(order) == sorted(view.hand)
    assert order[:2] == [Card.H9, Card.HA]  # trump hearts first, nel above ace


# --- hand image ---------------------------------------------------------------------------------------

def card_runs(img: Image.Image, top: int, bottom: int) -> list[tuple[int, int]]:
    """Runs of columns holding card-coloured pixels (much brighter than felt and shadow) in a band."""
    band = img.crop((0, top, img.width, bottom)).convert("L")
    px = band.load()
    assert px is not None
    bright = [any(int(px[x, y]) > 110 for y in range(0, band.height, 2)) for x in range(band.width)]  # type: ignore[arg-type]
    runs: list[tuple[int, int]] = []
    start = None
    for x, b in enumerate([*bright, False]):
        if b and start is None:
            start = x
        elif not b and start is not None:
            runs.append((start, x))
            start = None
    return runs


def changed(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int], threshold: int = 24) -> bool:
    """Whether ``box`` differs by more than palette rounding (which shifts colours by a step or two)."""
    diff = ImageChops.difference(a.crop(box), b.crop(box)).convert("L")
    return diff.point(lambda v: 255 if v > threshold else 0).getbbox() is not None


@pytest.mark.parametrize("count", range(9))
def test_hand_has_one_card_region_per_card_and_a_fixed_size(count: int) -> None:
    view = fixed_view()
    cards = (Card.C9, Card.CJ, Card.H9, Card.HA, Card.S8, Card.ST, Card.D7, Card.DK)[:count]
    legal = tuple(c for c in cards if c.suit is Suit.S)
    img = decode(render_hand(replace(view, hand=cards, legal=legal), theme=DEFAULT_THEME))
    assert img.size == hand_size()
    # A band through the lower half of the cards crosses raised and lowered cards alike.
    y = hand_card_boxes(8)[0][1] + CARD_H // 2
    runs = card_runs(img, y, y + 60)
    assert len(runs) == count
    # legal cards carry a 4 px gold ring, which counts as bright too
    assert all(CARD_W - 4 <= b - a <= CARD_W + 12 for a, b in runs), runs


def test_illegal_cards_are_dimmed_and_legal_cards_raised() -> None:
    view = fixed_view()  # legal: S8 and ST
    img = decode(render_hand(view, theme=DEFAULT_THEME))
    order = hand_order(view)
    boxes = hand_card_boxes(len(order))
    bright = {}
    for card, (x, y) in zip(order, boxes, strict=True):
        bright[card] = luminance(img, (x + 10, y + 10, x + CARD_W - 10, y + CARD_H - 30))
        # a raised card covers the strip above the lowered card's top edge
        above = luminance(img, (x + 20, y - HAND_RAISE + 4, x + CARD_W - 20, y - 4))
        assert (above > 200) == (card in (Card.S8, Card.ST)), card
    assert min(bright[Card.S8], bright[Card.ST]) > max(v for c, v in bright.items() if c.suit is not Suit.S) + 40


def test_nothing_dimmed_when_the_seat_has_nothing_to_play() -> None:
    view = replace(fixed_view(), legal=())
    img = decode(render_hand(view, theme=DEFAULT_THEME))
    values = [luminance(img, (x + 10, y + 10, x + CARD_W - 10, y + CARD_H - 30))
              for x, y in hand_card_boxes(len(view.hand))]
    assert max(values) - min(values) < 25  # only the ink differs, no card is faded


def test_numbers_under_the_cards_can_be_switched_off() -> None:
    view = fixed_view()
    with_numbers = decode(render_hand(view, theme=DEFAULT_THEME))
    without = decode(render_hand(view, numbered=False, theme=DEFAULT_THEME))
    x, y = hand_card_boxes(len(view.hand))[4]
    strip = (x, y + CARD_H + 18, x + CARD_W, hand_size()[1])
    assert changed(with_numbers, without, strip)
    assert not changed(with_numbers, without, (0, 0, without.width, y + CARD_H))


def test_hand_png_is_small() -> None:
    assert len(render_hand(fixed_view(), theme=DEFAULT_THEME)) < 60_000


# --- a whole deal ------------------------------------------------------------------------------------

def test_deal_shows_every_seat_a_row_each_in_the_given_order() -> None:
    game = sample_game(seed=4, hands=1, extra_plays=0)
    hand = game.hands[0]
    public = fixed_public_view()
    order = [Seat.W, Seat.N, Seat.E, Seat.S]
    views = [seat_view_of(public, seat, tuple(cards_of(hand.deal[seat])), ()) for seat in order]
    img = decode(images.render_deal(views, NAMES, theme=DEFAULT_THEME))
    w, h = hand_size()
    assert img.size == (w, 4 * (images.DEAL_PLATE_H + h))
    for row, view in enumerate(views):
        boxes = hand_card_boxes(8)
        for card, (x, y) in zip(hand_order(view), boxes, strict=True):
            # Nothing raised or dimmed: every card sits in its row's lowered slot, as dealt.
            top = row * (images.DEAL_PLATE_H + h) + images.DEAL_PLATE_H
            assert matches_card_at(img, card, (x, top + y)), (view.seat, card)


# --- trick --------------------------------------------------------------------------------------------

def card_on_felt(card: Card, theme: Theme = DEFAULT_THEME) -> Image.Image:
    face = card_face(card, theme)
    img = Image.new("RGB", face.size, theme.felt_rgb)
    img.paste(face, (0, 0), face)
    return img


def matches_card_at(img: Image.Image, card: Card, origin: tuple[int, int]) -> bool:
    x, y = origin
    # the upper part of the card: below it lie the order badge and overlapping neighbours
    # inset by the corner radius: the corners show what lies around the card (shadow, gold ring)
    got = img.crop((x + 12, y + 12, x + CARD_W - 12, y + CARD_H // 2))
    want = card_on_felt(card).crop((12, 12, CARD_W - 12, CARD_H // 2))
    return float(sum(ImageStat.Stat(ImageChops.difference(got, want)).mean)) < 4.0


@pytest.mark.parametrize("viewer", list(Seat))
def test_trick_cards_lie_in_front_of_their_players_from_the_viewers_side(viewer: Seat) -> None:
    view = fixed_view(viewer)
    trick = view.tricks[0]
    img = decode(render_trick(view, NAMES, seat=viewer, trick=trick, theme=DEFAULT_THEME))
    assert img.size == (images.TRICK_W, images.TRICK_H)
    cx, cy = images.TRICK_W // 2, images.TRICK_H // 2
    for seat, card in trick.plays:
        pos = images.seat_position(seat, viewer)
        if seat is not trick.winner:
            continue  # the others are dimmed in a complete trick; the winner is drawn plainly
        assert matches_card_at(img, card, images._card_origin(pos, cx, cy))
    # the viewer is at the bottom, the partner at the top
    assert images.seat_position(viewer, viewer) == 0
    assert images.seat_position(viewer.partner, viewer) == 2


def test_trick_in_progress_shows_played_cards_plainly_and_the_rest_empty() -> None:
    view = fixed_view(Seat.S)  # North led SA, East played S9, South to play
    img = decode(render_trick(view, NAMES, theme=DEFAULT_THEME))
    cx, cy = images.TRICK_W // 2, images.TRICK_H // 2
    assert matches_card_at(img, Card.SA, images._card_origin(2, cx, cy))
    assert matches_card_at(img, Card.S9, images._card_origin(3, cx, cy))
    for pos in (0, 1):
        x, y = images._card_origin(pos, cx, cy)
        assert luminance(img, (x + 10, y + 10, x + CARD_W - 10, y + CARD_H - 10)) < 100


def gold_pixels(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    r, g, b = (band.point(lambda v, lo=lo, hi=hi: 255 if lo <= v <= hi else 0)  # type: ignore[misc]
               for band, (lo, hi) in zip(img.crop(box).split(), ((225, 255), (170, 215), (20, 95)), strict=True))
    both = ImageChops.multiply(ImageChops.multiply(r, g), b)
    return int(ImageStat.Stat(both).sum[0] / 255)


def test_complete_trick_highlights_the_winning_card_only() -> None:
    view = fixed_view(Seat.S)
    trick = view.tricks[1]  # North wins with DA
    img = decode(render_trick(view, NAMES, trick=trick, theme=DEFAULT_THEME))
    cx, cy = images.TRICK_W // 2, images.TRICK_H // 2
    rings = {}
    for pos in range(4):
        x, y = images._card_origin(pos, cx, cy)
        # the ring sits just outside the card's right edge
        rings[pos] = gold_pixels(img, (x + CARD_W, y + 20, x + CARD_W + 8, y + CARD_H - 20))
    winner_pos = images.seat_position(trick.winner, Seat.S)
    assert rings[winner_pos] > 500
    assert all(v < 50 for p, v in rings.items() if p != winner_pos)


# --- table and sheet ----------------------------------------------------------------------------------

def test_table_renders_in_every_phase_of_a_real_game() -> None:
    game = sample_game(seed=11, hands=1)
    seen = set()
    rng = random.Random(1)
    while game.phase is not Phase.OVER and len(seen) < 4:
        view = seat_view(game, Seat.E)
        if view.phase not in seen:
            seen.add(view.phase)
            img = decode(render_table(view, NAMES, theme=DEFAULT_THEME))
            assert img.size == (images.TABLE_W, images.TABLE_H)
        if game.phase is Phase.DEAL:
            game.deal_random(rng)
        elif game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
        else:
            acts = game.legal_actions()
            game.apply(acts[rng.randrange(len(acts))])
    assert {Phase.BIDDING, Phase.PLAY, Phase.DEAL} <= seen


def test_table_team_labels_follow_the_viewer_or_are_neutral() -> None:
    view = fixed_view(Seat.S)
    ours = decode(render_table(view, NAMES, seat=Seat.S, theme=DEFAULT_THEME))
    theirs = decode(render_table(fixed_view(Seat.E), NAMES, seat=Seat.E, theme=DEFAULT_THEME))
    neutral = decode(render_table(view, NAMES, seat=Seat.S, theme=Theme(EN, neutral_teams=True)))
    footer = (0, images.TABLE_H - images.TABLE_FOOTER, images.TABLE_W, images.TABLE_H)
    # South sees NS's 41 points as "Wij" on the left; East sees them on the right as "Zij".
    assert ImageChops.difference(ours.crop(footer), theirs.crop(footer)).getbbox() is not None
    assert ImageChops.difference(ours.crop(footer), neutral.crop(footer)).getbbox() is not None


def test_observer_images_come_from_the_public_view_drawn_from_south_with_neutral_teams() -> None:
    """seat=None: South at the bottom, teams NS and EW, as South's view with a neutral theme."""
    public = fixed_public_view()
    neutral_south = render_table(fixed_view(Seat.S), NAMES, seat=Seat.S, theme=Theme(EN, neutral_teams=True))
    observer = render_table(public, NAMES, seat=None, theme=DEFAULT_THEME)
    assert observer == neutral_south
    assert observer != render_table(public, NAMES, seat=Seat.S, theme=DEFAULT_THEME)
    observed_trick = render_trick(public, NAMES, seat=None, theme=DEFAULT_THEME)
    assert observed_trick == render_trick(fixed_view(Seat.S), NAMES, seat=Seat.S, theme=DEFAULT_THEME)
    assert observed_trick != render_trick(public, NAMES, seat=Seat.E, theme=DEFAULT_THEME)


@pytest.mark.parametrize(("hands", "total", "rows"), [(3, 16, 16), (16, 16, 16), (20, 16, 20), (5, None, 5)])
def test_sheet_has_a_row_per_hand_of_the_match(hands: int, total: int | None, rows: int) -> None:
    results = fixed_results(hands)
    img = decode(render_sheet(results, viewer_team=Team.NS, names=NAMES, hands_total=total, finished=False,
                              winner=None, theme=DEFAULT_THEME))
    assert img.width == images.SHEET_W
    assert img.height == images.SHEET_HEAD + rows * SHEET_ROW + images.SHEET_FOOT + 16


def test_sheet_marks_the_winner_only_when_finished() -> None:
    results = fixed_results(16)
    kwargs = {"viewer_team": Team.NS, "names": NAMES, "hands_total": 16, "theme": DEFAULT_THEME}
    done = decode(render_sheet(results, finished=True, winner=Team.NS, **kwargs))  # type: ignore[arg-type]
    going = decode(render_sheet(results, finished=False, winner=None, **kwargs))  # type: ignore[arg-type]
    footer = (0, done.height - images.SHEET_FOOT, done.width, done.height)
    assert gold_pixels(done, footer) > 1000
    assert gold_pixels(going, footer) == 0


# --- themes -------------------------------------------------------------------------------------------

def test_theme_from_falls_back_and_rejects_nonsense_directly() -> None:
    assert theme_from("Navy", True, NL) == Theme(NL, felt="navy", four_colour=True)
    assert theme_from("purple", False, EN) == DEFAULT_THEME
    with pytest.raises(ValueError):
        Theme(EN, felt="purple")


def test_language_and_four_colour_change_the_faces() -> None:
    en, nl = Theme(EN), Theme(NL)
    four = Theme(EN, four_colour=True)
    assert ImageChops.difference(card_on_felt(Card.HJ, en), card_on_felt(Card.HJ, nl)).getbbox() is not None
    assert ImageChops.difference(card_on_felt(Card.H7, en), card_on_felt(Card.H7, nl)).getbbox() is None
    assert ImageChops.difference(card_on_felt(Card.CA, en), card_on_felt(Card.CA, four)).getbbox() is not None
    assert ImageChops.difference(card_on_felt(Card.HA, en), card_on_felt(Card.HA, four)).getbbox() is None


@pytest.mark.parametrize("felt", ["green", "navy", "burgundy"])
def test_felt_colour_is_the_background(felt: str) -> None:
    theme = Theme(EN, felt=felt)
    img = decode(render_hand(fixed_view(), theme=theme))
    got = img.getpixel((2, 2))
    assert isinstance(got, tuple)
    assert all(abs(a - b) <= 3 for a, b in zip(got, theme.felt_rgb, strict=True))


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG's contrast ratio of two sRGB colours."""
    def luminance_of(colour: tuple[int, ...]) -> float:
        linear = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in (c / 255 for c in colour[:3])]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance_of(a), luminance_of(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("felt", sorted(FELTS))
def test_the_numbers_under_unplayable_cards_stay_readable(felt: str) -> None:
    """WCAG asks 4.5:1 for text; the number under a dimmed card is the one way to type it in the terminal."""
    view = fixed_view()  # legal: S8 and ST
    theme = theme_from(felt, False, EN)
    img = decode(render_hand(view, theme=theme)).convert("RGB")
    background = theme.felt_rgb
    for card, (x, y) in zip(hand_order(view), hand_card_boxes(len(view.hand)), strict=True):
        strip = img.crop((x, y + CARD_H + 18, x + CARD_W, hand_size()[1]))
        # Each colour in the strip once: ``getdata`` is deprecated in Pillow 13, ``getcolors`` works in every Pillow
        # the project allows.
        colours = strip.getcolors(strip.width * strip.height) or []
        ink = max((colour for _, colour in colours), key=lambda colour: contrast(colour, background))
        assert contrast(ink, background) >= 4.5, (card, felt, ink)


def test_a_declared_tricks_roem_is_drawn_only_once_its_winners_claimed_it() -> None:
    # Every seat holds one suit, South hearts (trump): trick k is the four cards of rank k, the fourth four tens.
    game = Game(Rules.from_dict({"roem": "declared"}))
    game.apply(Deal.from_cards(Seat.W, {seat: [Card.parse(rank + suit) for rank in "789TJQKA"]
                                        for seat, suit in zip(Seat, "CDHS", strict=True)}))
    game.apply_all([Call.PASS, Call.PASS, Call.H])
    game.apply_all(Card.parse(rank + suit) for k, rank in enumerate("789T")
                   for suit in (("C", "D", "H", "S") if k == 0 else ("H", "S", "C", "D")))
    view = public_view(game)
    trick = view.tricks[3]
    assert trick.roem == 100
    unclaimed = render_trick(view, NAMES, trick=trick, theme=DEFAULT_THEME)
    assert unclaimed == render_trick(view, NAMES, trick=replace(trick, roem=0), theme=DEFAULT_THEME)
    game.apply(Claim(Seat.N))
    view = public_view(game)
    assert render_trick(view, NAMES, trick=view.tricks[3], theme=DEFAULT_THEME) != unclaimed
