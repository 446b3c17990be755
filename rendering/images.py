"""The four images of a table: a hand, a trick, the table overview and the score sheet.

Pure functions to PNG bytes: a hand from the seat's own view (``SeatView``); a trick and the table from
the public view (``PublicView``) and the seat drawn at the bottom (None: a neutral observer's image);
the score sheet from the hand results.
Sizes are in output pixels, drawn at 2x the size a desktop shows, so the images stay sharp on
high-density phone screens.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import DECK, SEATS, Card, Seat, Suit, Team
from engine.events import HandResult
from engine.game import Phase, Trick
from engine.order import sort_cards, suit_order
from engine.rulebook import HAND_POINTS
from engine.view import PublicView, SeatView
from rendering.draw import (
    CARD_H,
    CARD_RADIUS,
    CARD_W,
    canvas,
    card_face,
    fit_text,
    font,
    paste_round,
    paste_shadow,
    paste_suit,
)
from rendering.encode import to_png
from rendering.theme import GOLD, MUTED, RGB, TEXT, Theme

# --- hand order ---------------------------------------------------------------------------------

def hand_order(view: SeatView) -> list[Card]:
    """The seat's cards in the order the hand image shows them; the play buttons use the same order."""
    return sort_cards(view.hand, view.trump)


def legal_cards(view: SeatView) -> frozenset[Card]:
    return frozenset(a for a in view.legal if isinstance(a, Card))


# --- shared drawing helpers ---------------------------------------------------------------------

def _place_card(img: Image.Image, card: Card, x: int, y: int, theme: Theme, dim: bool = False,
                ring: int = 0) -> None:
    paste_shadow(img, x, y, CARD_W, CARD_H, strength=70 if dim else 120)
    if ring:  # over the shadow, so the gold stays bright
        _ring(img, x, y, CARD_W, CARD_H, CARD_RADIUS, ring, GOLD)
    face = card_face(card, theme, dim)
    img.paste(face, (x, y), face)


def _ring(img: Image.Image, x: int, y: int, w: int, h: int, r: int, width: int, colour: RGB) -> None:
    paste_round(img, (x - width, y - width, x + w + width, y + h + width), r + width, colour, outline=width)


def _name(seat: Seat, names: dict[Seat, str]) -> str:
    name = names.get(seat, "").strip()
    return name or seat.letter


def _team_label(team: Team, viewer: Team | None, theme: Theme) -> str:
    if viewer is None:
        return theme.labels.ns if team is Team.NS else theme.labels.ew
    return theme.labels.we if team is viewer else theme.labels.they


# --- the palette of a theme ----------------------------------------------------------------------

THEME_COLOURS = 256


@lru_cache(maxsize=32)
def theme_palette(theme: Theme) -> Image.Image:
    """The colours of the hand, trick and table images of ``theme`` (the sheet, on paper, chooses its own).

    Chosen once per theme from a sample of everything those images draw (every card plain, dimmed and
    ringed, name plates, trump badges, team panels, text in each ink), so each image only has its pixels
    mapped onto it: several times faster than choosing colours per image, and just as close to the drawing.
    """
    return _palette_sample(theme).quantize(colors=THEME_COLOURS, method=Image.Quantize.FASTOCTREE,
                                           dither=Image.Dither.NONE)


def _palette_sample(theme: Theme) -> Image.Image:
    columns = 16
    step_x, step_y = CARD_W + 30, CARD_H + 40
    top = 4 * step_y + 20  # below four rows of cards
    img, d = canvas(40 + columns * step_x, top + 400, theme)
    for i, card in enumerate(DECK):
        for dim in (False, True):
            x, y = 20 + (i % columns) * step_x, 20 + ((i // columns) * 2 + dim) * step_y
            _place_card(img, card, x, y, theme, dim=dim, ring=(7, 4, 0)[i % 3])
    for j, suit in enumerate(Suit):
        x = 20 + j * 300
        _plate(img, d, x + 130, top + 30, "Wilhelmina", theme, highlight=j % 2 == 0, chip=theme.labels.dealer,
               trump=suit)
        _trump_badge(img, d, x, top + 70, suit, theme, theme.labels.trump)
        paste_round(img, (x + 130, top + 70, x + 182, top + 130), 8, (255, 255, 255))
        paste_suit(img, suit, x + 136, top + 76, 40, theme.suit_rgb(suit))
    _team_panel(img, d, (20, top + 210, 600, top + 380), theme.labels.ns, 3, 87, 40, 1234, theme, True, Suit(2))
    _trump_badge(img, d, 640, top + 210, None, theme, theme.labels.trump)
    for k, colour in enumerate((GOLD, theme.line_rgb)):
        x = 800 + k * (CARD_W + 20)
        paste_round(img, (x, top + 210, x + CARD_W, top + 210 + CARD_H), CARD_RADIUS, colour, outline=3)
    for k, (size, colour) in enumerate(((18, MUTED), (22, MUTED), (24, TEXT), (28, TEXT), (36, GOLD), (22, GOLD))):
        d.text((1100, top + 210 + k * 30), f"{theme.labels.trick} 8 {theme.labels.points} 162", font=font(size),
               fill=colour, anchor="la")
    return img


# --- hand ---------------------------------------------------------------------------------------

HAND_MARGIN = 18
HAND_GAP = 10
HAND_RAISE = 22  # legal cards stand this much higher than the others
HAND_NUMBER_H = 44
HAND_SLOTS = 8  # the canvas always fits 8 cards, so an updated hand message keeps its size


def hand_size() -> tuple[int, int]:
    w = 2 * HAND_MARGIN + HAND_SLOTS * CARD_W + (HAND_SLOTS - 1) * HAND_GAP
    h = HAND_MARGIN + HAND_RAISE + CARD_H + 8 + HAND_NUMBER_H + 6
    return w, h


def hand_card_boxes(count: int) -> list[tuple[int, int]]:
    """Left x and the lowered top y of each card slot, centred on the canvas."""
    w, _ = hand_size()
    row = count * CARD_W + max(0, count - 1) * HAND_GAP
    x0 = (w - row) // 2
    return [(x0 + i * (CARD_W + HAND_GAP), HAND_MARGIN + HAND_RAISE) for i in range(count)]


def render_hand_image(view: SeatView, *, theme: Theme, numbered: bool = True) -> Image.Image:
    cards = hand_order(view)
    legal = legal_cards(view)
    # When the seat has nothing to play (not its turn, bidding) no card is dimmed: all are just "held".
    choosing = bool(legal)
    w, h = hand_size()
    img, d = canvas(w, h, theme)
    num_font = font(30)
    for i, (card, (x, y)) in enumerate(zip(cards, hand_card_boxes(len(cards)), strict=True)):
        playable = card in legal
        top = y - HAND_RAISE if playable else y
        _place_card(img, card, x, top, theme, dim=choosing and not playable, ring=4 if playable else 0)
        if card.suit is view.trump:
            # A gold bar under trump cards: the trump suit is visible without reading the text.
            paste_round(img, (x + 8, y + CARD_H + 8, x + CARD_W - 8, y + CARD_H + 14), 3,
                        GOLD if not choosing or playable else theme.line_rgb)
        if numbered:
            colour = TEXT if not choosing or playable else MUTED
            d.text((x + CARD_W // 2, y + CARD_H + 16 + HAND_NUMBER_H // 2), str(i + 1), font=num_font,
                   fill=colour, anchor="mm")
    return img


def render_hand(view: SeatView, *, theme: Theme, numbered: bool = True) -> bytes:
    """The seat's hand, sorted by ``hand_order``; legal cards raised and outlined, others dimmed."""
    return to_png(render_hand_image(view, theme=theme, numbered=numbered), theme_palette(theme))


# --- the table (trick) ----------------------------------------------------------------------------

TRICK_W = 680
TRICK_H = 568
_SPREAD_X = 178  # card centre distance from the table centre, sideways
_SPREAD_Y = 104  # and up/down
# Side players' name plates sit under their cards and must stay clear of the bottom card.
_SIDE_PLATE_W = 2 * (_SPREAD_X - CARD_W // 2 - 8)


def seat_position(seat: Seat, viewer: Seat) -> int:
    """0 bottom (the viewer), 1 left, 2 top (partner), 3 right: play goes round clockwise."""
    return (seat - viewer) & 3


def _card_origin(position: int, cx: int, cy: int) -> tuple[int, int]:
    dx, dy = ((0, _SPREAD_Y), (-_SPREAD_X, 0), (0, -_SPREAD_Y), (_SPREAD_X, 0))[position]
    return cx + dx - CARD_W // 2, cy + dy - CARD_H // 2


def _name_anchor(position: int, cx: int, cy: int) -> tuple[int, int]:
    """Centre of a player's name plate: beyond the card, away from the table centre."""
    x, y = _card_origin(position, cx, cy)
    if position == 0:
        return cx, y + CARD_H + 30
    if position == 2:
        return cx, y - 30
    return x + CARD_W // 2, y + CARD_H + 30


def _plate(img: Image.Image, d: ImageDraw.ImageDraw, cx: int, cy: int, text: str, theme: Theme, *,
           highlight: bool = False, chip: str = "", trump: Suit | None = None, max_w: int = 240) -> None:
    """A player's name plate: dark pill, gold outline when it is their turn, dealer chip, trump pip.

    ``max_w`` is the widest the whole plate may be; a long name is shortened to fit.
    """
    f = font(24)
    extra = (34 if chip else 0) + (32 if trump is not None else 0)
    text = fit_text(text, f, max_w - 32 - extra)
    tw = int(f.getlength(text))
    pw, ph = tw + 32 + extra, 44
    x0, y0 = cx - pw // 2, cy - ph // 2
    paste_round(img, (x0, y0, x0 + pw, y0 + ph), ph // 2, theme.panel_rgb)
    if highlight:
        paste_round(img, (x0, y0, x0 + pw, y0 + ph), ph // 2, GOLD, outline=4)
    x = x0 + 16
    if trump is not None:
        paste_suit(img, trump, x - 2, cy - 13, 26, theme.suit_on_felt(trump))
        x += 32
    d.text((x, cy), text, font=f, fill=GOLD if highlight else TEXT, anchor="lm")
    x += tw + 6
    if chip:
        paste_round(img, (x, cy - 14, x + 28, cy + 14), 14, TEXT)
        d.text((x + 14, cy + 1), chip, font=font(18), fill=theme.panel_rgb, anchor="mm")


def _trump_badge(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, trump: Suit | None,
                 theme: Theme, caption: str) -> None:
    """The trump indicator: a caption over a white tile with the suit, like a turned-up card."""
    paste_round(img, (x, y, x + 112, y + 128), 14, theme.panel_rgb)
    d.text((x + 56, y + 20), caption, font=font(20), fill=MUTED, anchor="mm")
    paste_round(img, (x + 22, y + 38, x + 90, y + 116), 10, (255, 255, 255))
    if trump is not None:
        paste_suit(img, trump, x + 30, y + 51, 52, theme.suit_rgb(trump))
    else:
        d.text((x + 56, y + 77), "?", font=font(40), fill=(150, 150, 158), anchor="mm")


def _bottom(seat: Seat | None) -> Seat:
    """The seat drawn at the bottom: the viewer's, or South for a neutral image (the host's seat)."""
    return seat if seat is not None else Seat.S


def _draw_table(img: Image.Image, d: ImageDraw.ImageDraw, view: PublicView, bottom: Seat, names: dict[Seat, str],
                plays: Sequence[tuple[Seat, Card]], winner: Seat | None, cx: int, cy: int, theme: Theme, *,
                turn: Seat | None, faded: bool = False, table_facts: bool = False) -> None:
    """Four seats round ``(cx, cy)`` with ``bottom`` at the bottom, the cards played in front of them."""
    played = {seat: (i, card) for i, (seat, card) in enumerate(plays)}
    for seat in SEATS:
        pos = seat_position(seat, bottom)
        x, y = _card_origin(pos, cx, cy)
        if seat not in played:
            # An empty place; the seat to play gets a gold outline so the eye finds it.
            colour = GOLD if seat is turn else theme.line_rgb
            paste_round(img, (x, y, x + CARD_W, y + CARD_H), CARD_RADIUS, colour, outline=3)
    for seat, card in plays:  # play order, so later cards lie on top as on a real table
        order, _ = played[seat]
        x, y = _card_origin(seat_position(seat, bottom), cx, cy)
        win = seat is winner
        _place_card(img, card, x, y, theme, dim=faded or (winner is not None and not win), ring=7 if win else 0)
        # Play-order badge on the card's lower-left; the leader's "1" is gold.
        bx, by = x - 12, y + CARD_H - 34
        paste_round(img, (bx, by, bx + 38, by + 38), 19, GOLD if order == 0 else theme.panel_rgb)
        d.text((bx + 19, by + 20), str(order + 1), font=font(22),
               fill=theme.panel_rgb if order == 0 else TEXT, anchor="mm")
    for seat in SEATS:
        pos = seat_position(seat, bottom)
        nx, ny = _name_anchor(pos, cx, cy)
        chip = theme.labels.dealer if table_facts and seat is view.dealer else ""
        trump = view.trump if table_facts and seat is view.player else None
        highlight = seat is winner or (winner is None and seat is turn)
        _plate(img, d, nx, ny, _name(seat, names), theme, highlight=highlight, chip=chip, trump=trump,
               max_w=_SIDE_PLATE_W if pos in (1, 3) else 340)


def render_trick_image(view: PublicView, names: dict[Seat, str], *, seat: Seat | None = None,
                       trick: Trick | None = None, theme: Theme) -> Image.Image:
    img, d = canvas(TRICK_W, TRICK_H, theme)
    cx, cy = TRICK_W // 2, TRICK_H // 2
    if trick is None:
        plays: Sequence[tuple[Seat, Card]] = view.trick_plays
        winner = None
        number = view.trick_number + 1
        turn = view.to_act if view.phase is Phase.PLAY else None
    else:
        plays, winner, number, turn = trick.plays, trick.winner, trick.index + 1, None
    _draw_table(img, d, view, _bottom(seat), names, plays, winner, cx, cy, theme, turn=turn)
    _trump_badge(img, d, 16, 16, view.trump, theme, theme.labels.trump)
    d.text((TRICK_W - 20, 22), f"{theme.labels.trick} {number}", font=font(26), fill=TEXT, anchor="ra")
    if trick is not None:
        d.text((TRICK_W - 20, 58), f"{trick.points} {theme.labels.points}", font=font(22), fill=MUTED,
               anchor="ra")
        roem = view.shown_roem(trick)  # declared roem: not before its winners claimed it
        if roem:
            d.text((TRICK_W - 20, 88), f"{theme.labels.roem} {roem}", font=font(22), fill=GOLD, anchor="ra")
    return img


def render_trick(view: PublicView, names: dict[Seat, str], *, seat: Seat | None = None,
                 trick: Trick | None = None, theme: Theme) -> bytes:
    """A trick from ``seat``'s side (bottom, partner top; None: South's, for observers); ``trick=None``:
    the one in progress."""
    return to_png(render_trick_image(view, names, seat=seat, trick=trick, theme=theme), theme_palette(theme))


# --- a whole deal -----------------------------------------------------------------------------------

DEAL_PLATE_H = 64  # the name plate's row above each hand


def render_deal_image(hands: Sequence[SeatView], names: dict[Seat, str], *, theme: Theme) -> Image.Image:
    """The hands in the given order, one row each under its player's name plate (dealer chip, trump pip for
    the player); only for a hand whose play is over, since it shows every seat's cards."""
    w, hand_h = hand_size()
    row_h = DEAL_PLATE_H + hand_h
    img, d = canvas(w, row_h * len(hands), theme)
    for row, view in enumerate(hands):
        y = row * row_h
        # Cards as dealt, sorted for trump; nothing raised or dimmed: no one is choosing here.
        img.paste(render_hand_image(view, theme=theme, numbered=False), (0, y + DEAL_PLATE_H))
        chip = theme.labels.dealer if view.seat is view.dealer else ""
        trump = view.trump if view.seat is view.player else None
        _plate(img, d, w // 2, y + DEAL_PLATE_H // 2 + 8, _name(view.seat, names), theme, chip=chip, trump=trump,
               max_w=w - 2 * HAND_MARGIN)
    return img


def render_deal(hands: Sequence[SeatView], names: dict[Seat, str], *, theme: Theme) -> bytes:
    """Every seat's hand of one deal, a row per seat in the given order (a replay's deal, after the match)."""
    return to_png(render_deal_image(hands, names, theme=theme))


# --- table overview -------------------------------------------------------------------------------

TABLE_W = 760
TABLE_HEADER = 100
TABLE_FOOTER = 176
TABLE_H = TABLE_HEADER + TRICK_H - 40 + TABLE_FOOTER


def _team_panel(img: Image.Image, d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], label: str,
                tricks: int, points: int, roem: int, total: int, theme: Theme, playing: bool,
                trump: Suit | None) -> None:
    x0, y0, x1, _y1 = box
    paste_round(img, box, 18, theme.panel_rgb)
    d.text((x0 + 20, y0 + 16), label, font=font(34), fill=TEXT, anchor="la")
    if playing and trump is not None:
        # The playing team carries the trump pip next to its name.
        lw = int(font(34).getlength(label))
        paste_suit(img, trump, x0 + 30 + lw, y0 + 20, 32, theme.suit_on_felt(trump))
    d.text((x1 - 20, y0 + 24), f"{theme.labels.total} {total}", font=font(24), fill=MUTED, anchor="ra")
    lines = ((str(tricks), theme.labels.tricks), (str(points), theme.labels.points),
             (str(roem), theme.labels.roem))
    col = (x1 - x0 - 40) // 3
    for i, (value, caption) in enumerate(lines):
        cx = x0 + 20 + col * i + col // 2
        d.text((cx, y0 + 92), value, font=font(36), fill=GOLD if i == 2 and roem else TEXT, anchor="mm")
        d.text((cx, y0 + 128), caption, font=font(18), fill=MUTED, anchor="mm")


def render_table_image(view: PublicView, names: dict[Seat, str], *, seat: Seat | None = None,
                       theme: Theme) -> Image.Image:
    img, d = canvas(TABLE_W, TABLE_H, theme)
    # Header: trump and who plays it on the left, hand number on the right.
    paste_round(img, (12, 12, TABLE_W - 12, TABLE_HEADER - 8), 18, theme.panel_rgb)
    x = 32
    if view.trump is not None:
        d.text((x, 54), theme.labels.trump, font=font(28), fill=MUTED, anchor="lm")
        x += int(font(28).getlength(theme.labels.trump)) + 14
        paste_round(img, (x, 24, x + 52, 84), 8, (255, 255, 255))
        paste_suit(img, view.trump, x + 6, 30, 40, theme.suit_rgb(view.trump))
        x += 66
        if view.player is not None:
            who = fit_text(f"{_name(view.player, names)} {theme.labels.plays}", font(28), 330)
            d.text((x, 54), who, font=font(28), fill=TEXT, anchor="lm")
    elif view.turned:
        d.text((x, 54), theme.labels.turned, font=font(28), fill=MUTED, anchor="lm")
        x += int(font(28).getlength(theme.labels.turned)) + 14
        for suit in view.turned:
            paste_round(img, (x, 24, x + 52, 84), 8, (255, 255, 255))
            paste_suit(img, suit, x + 6, 30, 40, theme.suit_rgb(suit))
            x += 62
    elif view.phase is Phase.BIDDING:
        d.text((x, 54), theme.labels.bidding, font=font(28), fill=TEXT, anchor="lm")
    total = view.rules.length.hands
    hand_text = f"{theme.labels.hand} {view.hand_number + 1}" + (f"/{total}" if total else "")
    d.text((TABLE_W - 32, 54), hand_text, font=font(28), fill=TEXT, anchor="rm")

    # Middle: the trick on the table, or the last trick faded while nobody has led yet.
    cx, cy = TABLE_W // 2, TABLE_HEADER + (TRICK_H - 40) // 2 - 4
    plays: Sequence[tuple[Seat, Card]] = view.trick_plays
    faded = False
    winner = None
    if not plays and view.tricks:
        plays, winner, faded = view.tricks[-1].plays, view.tricks[-1].winner, True
    turn = view.to_act if view.phase in (Phase.PLAY, Phase.BIDDING, Phase.TURN_UP) else None
    _draw_table(img, d, view, _bottom(seat), names, plays, winner, cx, cy, theme, turn=turn, faded=faded,
                table_facts=True)
    if faded:
        d.text((28, TABLE_HEADER + 16), theme.labels.last, font=font(22), fill=MUTED, anchor="la")

    # Footer: one panel per team.
    tricks_won = [0, 0]
    for t in view.tricks:
        tricks_won[t.winner.team] += 1
    viewer = None if theme.neutral_teams or seat is None else seat.team
    order = (Team.NS, Team.EW) if viewer is None else (viewer, viewer.other)
    y0 = TABLE_H - TABLE_FOOTER + 8
    half = (TABLE_W - 36) // 2
    for i, team in enumerate(order):
        x0 = 12 + i * (half + 12)
        playing = view.player is not None and view.player.team is team
        _team_panel(img, d, (x0, y0, x0 + half, TABLE_H - 12), _team_label(team, viewer, theme),
                    tricks_won[team], view.points[team], view.roem[team], view.totals[team], theme, playing,
                    view.trump)
    return img


def render_table(view: PublicView, names: dict[Seat, str], *, seat: Seat | None = None,
                 theme: Theme) -> bytes:
    """Overview of the table for the channel: trump and player, dealer, turn, trick, points and roem.

    Seats are drawn from ``seat``'s side and the teams are Wij/Zij from that seat's team; with
    ``seat=None`` or ``theme.neutral_teams`` (an observer's message) they are labelled NS and EW
    instead (``seat=None`` draws South at the bottom).
    """
    return to_png(render_table_image(view, names, seat=seat, theme=theme), theme_palette(theme))


# --- score sheet ----------------------------------------------------------------------------------

SHEET_W = 840
SHEET_ROW = 42
SHEET_HEAD = 128
SHEET_FOOT = 118
PAPER: RGB = (250, 246, 234)
INK: RGB = (34, 34, 40)
FAINT: RGB = (150, 146, 136)
RULE: RGB = (214, 206, 186)
NAT_RED: RGB = (196, 30, 40)
ROEM_GREEN: RGB = (40, 110, 60)
# Column centres: hand number, trump, player | points, roem, total for each team.
COL_NO, COL_TRUMP, COL_PLAYER = 62, 112, 150
COL_PTS, COL_ROEM, COL_SUM = (388, 636), (462, 710), (540, 772)  # per team column (left, right)
_RULES_X = (336, 596)  # the vertical lines of the "tree" before each team's columns


def _hand_cells(result: HandResult, team: Team) -> tuple[str, str]:
    """Points and roem of one team in one hand as the sheet writes them (nat: NAT against 162 + all roem)."""
    if result.nat:
        if result.playing is team:
            return "nat", ""
        return str(HAND_POINTS), str(result.score[team] - HAND_POINTS) if result.score[team] > HAND_POINTS else ""
    roem = result.roem[team]
    return str(result.points[team]), str(roem) if roem else ""


def render_sheet_image(results: Sequence[HandResult], *, viewer_team: Team | None, names: dict[Seat, str],
                       hands_total: int | None, finished: bool, winner: Team | None,
                       theme: Theme) -> Image.Image:
    rows = max(len(results), hands_total or 0, 1)
    h = SHEET_HEAD + rows * SHEET_ROW + SHEET_FOOT + 16
    img, d = canvas(SHEET_W, h, theme)
    paste_round(img, (14, 14, SHEET_W - 14, h - 14), 18, PAPER)
    order = (Team.NS, Team.EW) if viewer_team is None else (viewer_team, viewer_team.other)
    head, small, cell = font(34), font(18), font(24)

    # Header: team names over their three columns, column captions under them.
    for i, team in enumerate(order):
        mid = (COL_PTS[i] + COL_SUM[i]) // 2
        d.text((mid, 52), _team_label(team, viewer_team, theme), font=head, fill=INK, anchor="mm")
        d.text((COL_PTS[i], 98), theme.labels.points, font=small, fill=FAINT, anchor="mm")
        d.text((COL_ROEM[i], 98), theme.labels.roem, font=small, fill=FAINT, anchor="mm")
        d.text((COL_SUM[i], 98), "Σ", font=small, fill=FAINT, anchor="mm")
    d.text((COL_NO, 98), "#", font=small, fill=FAINT, anchor="mm")
    d.text((COL_TRUMP, 98), theme.labels.trump, font=small, fill=FAINT, anchor="mm")
    d.text((COL_PLAYER + 14, 98), theme.labels.player, font=small, fill=FAINT, anchor="lm")
    d.line([(28, SHEET_HEAD - 8), (SHEET_W - 28, SHEET_HEAD - 8)], fill=INK, width=3)
    # The "tree": vertical rules between the two teams and before them.
    bottom = SHEET_HEAD + rows * SHEET_ROW

    running = [0, 0]
    for r in range(rows):
        y = SHEET_HEAD + r * SHEET_ROW
        if r % 2:
            d.rectangle([28, y, SHEET_W - 28, y + SHEET_ROW - 1], fill=(242, 236, 220))
        cy = y + SHEET_ROW // 2
        d.text((COL_NO, cy), str(r + 1), font=small, fill=FAINT, anchor="mm")
        if r >= len(results):
            continue
        res = results[r]
        paste_suit(img, res.trump, COL_TRUMP - 13, cy - 13, 26, theme.suit_rgb(res.trump))
        d.text((COL_PLAYER, cy), fit_text(_name(res.player, names), small, 170), font=small, fill=INK,
               anchor="lm")
        for i, team in enumerate(order):
            running[team] += res.score[team]
            pts, roem = _hand_cells(res, team)
            if pts == "nat":
                d.text((COL_PTS[i], cy), theme.labels.nat, font=cell, fill=NAT_RED, anchor="mm")
            elif res.pit is team:
                # A pit always holds all 162 points, so the badge takes the points' place.
                paste_round(img, (COL_PTS[i] - 34, cy - 15, COL_PTS[i] + 34, cy + 15), 15, GOLD)
                d.text((COL_PTS[i], cy + 1), theme.labels.pit, font=small, fill=INK, anchor="mm")
            else:
                d.text((COL_PTS[i], cy), pts, font=cell, fill=INK, anchor="mm")
            d.text((COL_ROEM[i], cy), roem, font=cell, fill=ROEM_GREEN, anchor="mm")
            d.text((COL_SUM[i], cy), str(running[team]), font=small, fill=FAINT, anchor="mm")

    for x in _RULES_X:  # drawn after the row stripes so the stripes do not cut them
        d.line([(x, 30), (x, bottom + 70)], fill=INK, width=3)
    # Footer: totals, and the winner when the match is over.
    d.line([(28, bottom + 4), (SHEET_W - 28, bottom + 4)], fill=INK, width=3)
    fy = bottom + 42
    d.text((COL_NO - 20, fy), theme.labels.total, font=cell, fill=INK, anchor="lm")
    for i, team in enumerate(order):
        mid = (COL_PTS[i] + COL_SUM[i]) // 2
        won = finished and winner is team
        if won:
            paste_round(img, (mid - 90, fy - 26, mid + 90, fy + 26), 26, GOLD)
        d.text((mid, fy), str(running[team]), font=head, fill=INK, anchor="mm")
    if finished:
        if winner is None:
            verdict = theme.labels.draw
        else:
            verdict = f"{theme.labels.winner}: {_team_label(winner, viewer_team, theme)}"
        d.text((SHEET_W // 2, fy + 50), verdict, font=cell, fill=INK, anchor="mm")
    return img


def render_sheet(results: Sequence[HandResult], *, viewer_team: Team | None, names: dict[Seat, str],
                 hands_total: int | None, finished: bool, winner: Team | None,
                 theme: Theme) -> bytes:
    """The Wij/Zij score sheet: a row per hand, nat and pit marked, running totals, the winner at the end.

    ``viewer_team`` None labels the columns NS and EW. With ``hands_total`` the sheet has a row for
    every hand of the match, empty ones still to play, so it keeps its size as the match goes on.
    """
    return to_png(render_sheet_image(results, viewer_team=viewer_team, names=names, hands_total=hands_total,
                                     finished=finished, winner=winner, theme=theme))


__all__ = [
    "hand_order",
    "render_deal",
    "render_hand",
    "render_sheet",
    "render_table",
    "render_trick",
    "sort_cards",
    "suit_order",
]
