"""Drawing primitives: the bundled font, anti-aliased suit symbols and rounded shapes, card faces.

Everything expensive is drawn once and cached. Cached images are never modified after they are
stored (callers only paste from them), so sharing them between worker threads is safe; the card
face cache is additionally guarded by a lock so two threads never build the same face twice.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from engine.cards import Card, Suit
from rendering.theme import RGB, Theme

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
FONT_CONDENSED = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"

# Card geometry in output pixels (the images are drawn at 2x the size Discord shows on a desktop).
CARD_W = 128
CARD_H = 180
CARD_RADIUS = 12
SUPERSAMPLE = 4  # shapes are drawn this much larger and shrunk, for smooth edges

Font = ImageFont.FreeTypeFont

_fonts = threading.local()  # FreeType faces are not safe to share between threads: one set per thread


def font(size: int, condensed: bool = False) -> Font:
    cache: dict[tuple[int, bool], Font] | None = getattr(_fonts, "cache", None)
    if cache is None:
        cache = {}
        _fonts.cache = cache
    key = (size, condensed)
    found = cache.get(key)
    if found is None:
        # BASIC layout: identical output whether or not libraqm is installed on the machine.
        found = ImageFont.truetype(str(FONT_CONDENSED if condensed else FONT_BOLD), size,
                                   layout_engine=ImageFont.Layout.BASIC)
        cache[key] = found
    return found


def canvas(w: int, h: int, theme: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An image of ``w`` by ``h`` pixels in the theme's felt, and its drawing context."""
    img = Image.new("RGB", (w, h), theme.felt_rgb)
    return img, ImageDraw.Draw(img)


def fit_text(text: str, f: Font, width: int) -> str:
    """``text`` shortened with an ellipsis until it fits ``width`` pixels: the one way images shorten a name."""
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


# --- suit symbols -------------------------------------------------------------------------------

Point = tuple[float, float]


def _heart_outline(steps: int = 72) -> list[Point]:
    # The classic parametric heart, normalised to the unit box (x 0..1, y 0..1, point down).
    raw = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        raw.append((x, y))
    return [((x + 16.5) / 33, (y + 12.5) / 30) for x, y in raw]


HEART = _heart_outline()


def _suit_shapes(suit: Suit) -> tuple[list[list[Point]], list[tuple[Point, float]]]:
    """Polygons and circles (centre, radius) of a suit symbol in the unit box."""
    if suit is Suit.H:
        return [HEART], []
    if suit is Suit.D:
        # Slightly concave sides, like a printed pip.
        pts: list[Point] = []
        corners = [(0.5, 0.0), (0.9, 0.5), (0.5, 1.0), (0.1, 0.5)]
        for i in range(4):
            (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
            for k in range(12):
                f = k / 12
                bow = 0.035 * math.sin(math.pi * f)
                mx, my = x0 + (x1 - x0) * f, y0 + (y1 - y0) * f
                pts.append((mx + (0.5 - mx) * bow * 2, my + (0.5 - my) * bow * 2))
        return [pts], []
    stem: list[Point] = [(0.5, 0.55), (0.62, 0.98), (0.38, 0.98)]
    if suit is Suit.S:
        body = [(x, 0.8 - y * 0.8) for x, y in HEART]  # the heart upside down, lifted for the stem
        return [body, stem], []
    return [stem], [((0.5, 0.27), 0.22), ((0.27, 0.6), 0.22), ((0.73, 0.6), 0.22), ((0.5, 0.5), 0.1)]


@lru_cache(maxsize=256)
def suit_mask(suit: Suit, size: int) -> Image.Image:
    """An anti-aliased 'L' mask of a suit symbol, ``size`` pixels square."""
    big = size * SUPERSAMPLE
    img = Image.new("L", (big, big), 0)
    d = ImageDraw.Draw(img)
    polys, circles = _suit_shapes(suit)
    for poly in polys:
        d.polygon([(x * big, y * big) for x, y in poly], fill=255)
    for (cx, cy), r in circles:
        d.ellipse([(cx - r) * big, (cy - r) * big, (cx + r) * big, (cy + r) * big], fill=255)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def paste_suit(img: Image.Image, suit: Suit, x: int, y: int, size: int, colour: RGB) -> None:
    img.paste(colour, (x, y, x + size, y + size), suit_mask(suit, size))


@lru_cache(maxsize=512)
def rounded_mask(w: int, h: int, r: int, outline: int = 0) -> Image.Image:
    """Anti-aliased rounded rectangle mask; with ``outline`` > 0, only a ring that wide."""
    s = SUPERSAMPLE
    img = Image.new("L", (w * s, h * s), 0)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([0, 0, w * s - 1, h * s - 1], r * s, fill=255)
    if outline:
        o = outline * s
        d.rounded_rectangle([o, o, w * s - 1 - o, h * s - 1 - o], max(0, r - outline) * s, fill=0)
    return img.resize((w, h), Image.Resampling.LANCZOS)


def paste_round(img: Image.Image, box: tuple[int, int, int, int], r: int, colour: RGB,
                outline: int = 0) -> None:
    x0, y0, x1, y1 = box
    img.paste(colour, (x0, y0, x1, y1), rounded_mask(x1 - x0, y1 - y0, r, outline))


@lru_cache(maxsize=64)
def shadow_mask(w: int, h: int, r: int, blur: int, strength: int) -> Image.Image:
    """A soft shadow for a rounded box, ``blur`` pixels wider on each side."""
    img = Image.new("L", (w + 4 * blur, h + 4 * blur), 0)
    ImageDraw.Draw(img).rounded_rectangle([2 * blur, 2 * blur, 2 * blur + w, 2 * blur + h], r, fill=strength)
    return img.filter(ImageFilter.GaussianBlur(blur))


def paste_shadow(img: Image.Image, x: int, y: int, w: int, h: int, r: int = CARD_RADIUS, blur: int = 5,
                 offset: int = 4, strength: int = 120) -> None:
    mask = shadow_mask(w, h, r, blur, strength)
    ox, oy = x - 2 * blur + offset // 2, y - 2 * blur + offset
    img.paste((0, 0, 0), (ox, oy, ox + mask.width, oy + mask.height), mask)


# --- card faces ---------------------------------------------------------------------------------

_face_lock = threading.Lock()
_faces: dict[tuple[Card, bool, str, RGB | None], Image.Image] = {}


def _draw_face(card: Card, theme: Theme) -> Image.Image:
    s = SUPERSAMPLE
    w, h, r = CARD_W * s, CARD_H * s, CARD_RADIUS * s
    colour = theme.suit_rgb(card.suit)
    face = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(face)
    d.rounded_rectangle([0, 0, w - 1, h - 1], r, fill=(255, 255, 255), outline=(150, 150, 158), width=2 * s)
    rank = theme.rank_text(card.rank)
    # Big corner index: on a phone the hand is small, so the rank is the thing that must read.
    d.text((13 * s, 4 * s), rank, font=font(60 * s, condensed=len(rank) > 1), fill=colour, anchor="la")
    pip = suit_mask(card.suit, 34 * s)
    face.paste(colour, (16 * s, 72 * s, 16 * s + pip.width, 72 * s + pip.height), pip)
    big = suit_mask(card.suit, 70 * s)
    bx, by = (CARD_W - 76) * s, (CARD_H - 80) * s
    face.paste(colour, (bx, by, bx + big.width, by + big.height), big)
    small = face.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)
    out = small.convert("RGBA")
    out.putalpha(rounded_mask(CARD_W, CARD_H, CARD_RADIUS))
    return out


def card_face(card: Card, theme: Theme, dim: bool = False) -> Image.Image:
    """The face of a card as RGBA (rounded corners transparent); ``dim`` fades it into the felt."""
    key = (card, theme.four_colour, theme.rank_text(card.rank), theme.felt_rgb if dim else None)
    face = _faces.get(key)
    if face is not None:
        return face
    with _face_lock:
        face = _faces.get(key)
        if face is None:
            if dim:
                plain_key = (card, theme.four_colour, theme.rank_text(card.rank), None)
                base = _faces.get(plain_key)
                if base is None:
                    base = _faces[plain_key] = _draw_face(card, theme)
                faded = Image.blend(base.convert("RGB"), Image.new("RGB", base.size, theme.felt_rgb), 0.55)
                face = faded.convert("RGBA")
                face.putalpha(base.getchannel("A"))
            else:
                face = _draw_face(card, theme)
            _faces[key] = face
    return face


def clear_caches() -> None:
    """Forget every cached drawing (for tests that measure a cold start)."""
    with _face_lock:
        _faces.clear()
    suit_mask.cache_clear()
    rounded_mask.cache_clear()
    shadow_mask.cache_clear()
