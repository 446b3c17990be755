"""What ``/stats``, ``/leaderboard`` and ``/klaverjas history`` say: pure builders from the store's figures
(``bot.stats.figures``) to payloads, as ``bot.discord_app.messages`` does for tables.

People are written as mentions in texts (Discord shows their current name, and the bot pings nobody) and by
their last known table name on images; AI levels as "AI hard" in the reader's language.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import discord

from bot.discord_app.messages import Payload
from bot.discord_app.views import BoardPageButton, ShareStatsButton, view_of
from bot.stats.facts import level_of, user_of
from bot.stats.figures import BoardPage, HistoryEntry, PlayerStats
from bot.stats.ratings import Rating
from bot.tables.model import TableSettings
from bot.texts.catalog import month_label, number, setting_value, settings_line, suit_name, t
from bot.texts.labels import table_theme
from bot.texts.language import Language
from engine.ai.review_summary import accuracy_percent
from engine.cards import Suit
from rendering.stats import StatsCard, render_stats

HISTORY_LIMIT = 10
BOARD_PER_PAGE = 10


def percent(value: float | None, lang: Language) -> str:
    return t("stats.dash", lang) if value is None else f"{round(value * 100)}%"


def rating_text(rating: Rating | None, lang: Language) -> str:
    if rating is None:
        return t("stats.no_rating", lang)
    return t("stats.rating_value", lang, conservative=number(rating.conservative, lang),
             mu=number(rating.mu, lang), sigma=number(rating.sigma, lang))


def ai_name(player: str, lang: Language) -> str | None:
    level = level_of(player)
    return t("stats.ai_name", lang, level=setting_value("ai", level.value, lang)) if level is not None else None


def mention(player: str, lang: Language) -> str:
    """A player in a text: a person's mention, an AI level's name."""
    user = user_of(player)
    return f"<@{user}>" if user is not None else (ai_name(player, lang) or t("stats.someone", lang))


def plain_name(player: str, names: dict[int, str], lang: Language) -> str:
    """A player on an image: the name they last sat at a table with, an AI level's name."""
    user = user_of(player)
    if user is not None:
        return names.get(user) or t("stats.someone", lang)
    return ai_name(player, lang) or t("stats.someone", lang)


def _trump(stats: PlayerStats, lang: Language) -> str:
    return suit_name(Suit.parse(stats.favourite_trump), lang) if stats.favourite_trump else t("stats.dash", lang)


def _accuracy(stats: PlayerStats, lang: Language) -> str:
    """The review's accuracy, printed as the review prints it (``accuracy_percent``)."""
    if stats.accuracy is None:
        return t("stats.not_reviewed", lang)
    if len(stats.accuracy_recent) < 2:
        return f"{accuracy_percent(stats.accuracy)}%"
    recent = ", ".join(f"{accuracy_percent(a)}%" for a in stats.accuracy_recent)
    return t("stats.accuracy_trend", lang, accuracy=f"{accuracy_percent(stats.accuracy)}%", recent=recent)


def _tournaments(stats: PlayerStats, lang: Language) -> str:
    if stats.best_placing is None:
        return t("stats.tournaments", lang, played=stats.tournaments)
    place, field = stats.best_placing
    return t("stats.tournaments_best", lang, played=stats.tournaments, place=place, field=field)


def stats_text(stats: PlayerStats, name: str, lang: Language) -> str:
    """The short text version (for screen readers and as the message's words)."""
    per_hand = (number(stats.points_per_hand, lang) if stats.points_per_hand is not None else t("stats.dash", lang),
                number(stats.roem_per_hand, lang) if stats.roem_per_hand is not None else t("stats.dash", lang))
    lines = [f"**{t('stats.title', lang, name=name)}**",
             t("stats.matches", lang, played=stats.played, won=stats.won, drawn=stats.drawn, lost=stats.lost,
               abandoned=stats.abandoned, rate=percent(stats.win_rate, lang)),
             t("stats.hands", lang, hands=stats.hands, chose=stats.chose, made=stats.chose_made,
               made_rate=percent(stats.made_rate, lang), nat=stats.chose_nat, nat_rate=percent(stats.nat_rate, lang),
               pits=stats.pits),
             t("stats.per_hand", lang, points=per_hand[0], roem=per_hand[1]),
             t("stats.rating", lang, rating=rating_text(stats.rating, lang),
               global_rating=rating_text(stats.global_rating, lang)),
             t("stats.accuracy", lang, accuracy=_accuracy(stats, lang))]
    if stats.partner is not None:
        p = stats.partner
        lines.append(t("stats.partner", lang, partner=mention(p.partner, lang), matches=p.matches, won=p.won,
                       drawn=p.drawn, lost=p.lost))
    lines.append(t("stats.trump", lang, suit=_trump(stats, lang)))
    if stats.tournaments:
        lines.append(_tournaments(stats, lang))
    return "\n".join(lines)


def stats_card(stats: PlayerStats, name: str, names: dict[int, str], lang: Language) -> StatsCard:
    def label(key: str) -> str:
        return t(f"stats.label.{key}", lang)

    dash = t("stats.dash", lang)
    partner = dash
    if stats.partner is not None:
        p = stats.partner
        partner = f"{plain_name(p.partner, names, lang)} ({p.won}-{p.drawn}-{p.lost})"
    figures = [
        (label("matches"), str(stats.played)),
        (label("record"), f"{stats.won} · {stats.drawn} · {stats.lost}"),
        (label("abandoned"), str(stats.abandoned)),
        (label("win_rate"), percent(stats.win_rate, lang)),
        (label("hands"), str(stats.hands)),
        (label("chose"), str(stats.chose)),
        (label("made"), f"{percent(stats.made_rate, lang)} · {percent(stats.nat_rate, lang)}"),
        (label("pits"), str(stats.pits)),
        (label("points"), number(stats.points_per_hand, lang) if stats.points_per_hand is not None else dash),
        (label("roem"), number(stats.roem_per_hand, lang) if stats.roem_per_hand is not None else dash),
        (label("rating"), rating_text(stats.rating, lang)),
        (label("global"), rating_text(stats.global_rating, lang)),
        (label("accuracy"), _accuracy(stats, lang)),
        (label("trump"), _trump(stats, lang)),
        (label("partner"), partner),
    ]
    return StatsCard(
        title=t("stats.title", lang, name=name), figures=figures, rating_caption=t("stats.chart.rating", lang),
        ratings=[mu - 3 * sigma for _, mu, sigma in stats.rating_history] if stats.rating_history else [],
        monthly_caption=t("stats.chart.monthly", lang),
        months=[(month_label(month, lang), value) for month, value, _ in stats.monthly],
        empty=t("stats.chart.empty", lang))


def share_target(player: str) -> tuple[int | None, str | None]:
    level = level_of(player)
    return user_of(player), level.value if level is not None else None


def stats_message(stats: PlayerStats, name: str, names: dict[int, str], lang: Language, *, felt: str = "green",
                  share: bool = True) -> Payload:
    """The /stats answer: the text, the image (drawn later, in a thread) and, privately, the Share button."""
    view = None
    if share:
        user, level = share_target(stats.player)
        view = view_of([ShareStatsButton(user, level, lang)])
    card = stats_card(stats, name, names, lang)
    return Payload(stats_text(stats, name, lang), view=view, filename="stats.png",
                   draw=partial(render_stats, card, table_theme(felt, False, lang)))


def no_stats_message(name: str, lang: Language) -> str:
    return t("stats.none", lang, name=name)


# ------------------------------------------------------------------ /leaderboard


def board_message(board: BoardPage, scope: str, period: str, min_matches: int, lang: Language) -> Payload:
    scope_word = t("board.scope_server" if scope == "s" else "board.scope_global", lang)
    lines = [t("board.title", lang, scope=scope_word, period=t(f"board.period_{period}", lang),
               page=board.page + 1, pages=board.pages)]
    if not board.entries:
        lines.append(t("board.empty", lang, min=min_matches))
    for entry in board.entries:
        lines.append(t("board.line", lang, rank=entry.rank, name=mention(entry.player, lang),
                       rating=number(entry.rating.conservative, lang), matches=entry.matches))
    lines.append(f"-# {t('board.note', lang, min=min_matches)}")
    buttons: list[discord.ui.Item[Any]] = [
        BoardPageButton(scope, period, max(board.page - 1, 0), t("button.previous", lang), board.page > 0),
        BoardPageButton(scope, period, min(board.page + 1, board.pages - 1), t("button.next", lang),
                        board.page + 1 < board.pages)]
    return Payload("\n".join(lines), view=view_of(buttons) if board.pages > 1 else None)


# ------------------------------------------------------------------ /klaverjas history


def history_message(entries: list[HistoryEntry], name: str, lang: Language) -> str:
    if not entries:
        return t("history.none", lang, name=name)
    lines = [t("history.title", lang, name=name)]
    for entry in entries:
        other = "EW" if entry.team == "NS" else "NS"
        us = ", ".join(mention(p, lang) for p in entry.players.get(entry.team, []))
        them = ", ".join(mention(p, lang) for p in entry.players.get(other, []))
        settings = TableSettings.from_dict(entry.settings)
        link = f"<#{entry.thread_id}>" if entry.thread_id is not None else t("history.no_thread", lang)
        lines.append(t("history.line", lang, date=entry.ended_at[:10], table=entry.table_id, us=us,
                       own=entry.team_total, them=them, other=entry.other_total,
                       result=t(f"history.{entry.result}", lang),
                       settings=settings_line(settings.rules, lang, settings.ai_level.value), link=link))
    return "\n".join(lines)
