"""Card and table images: pure functions from plain data to PNG bytes.

The words on the images come from the caller (``Theme.labels``), in the table's language.

No Discord or database imports; safe to call from worker threads (card faces and shapes are cached
after their first drawing, the caches are lock-guarded or hold images that are never modified).
"""

from rendering.images import hand_order, render_deal, render_hand, render_sheet, render_table, render_trick
from rendering.review import ReviewChart, render_review
from rendering.theme import Labels, Theme, theme_from

__all__ = [
    "Labels",
    "ReviewChart",
    "Theme",
    "hand_order",
    "render_deal",
    "render_hand",
    "render_review",
    "render_sheet",
    "render_table",
    "render_trick",
    "theme_from",
]
