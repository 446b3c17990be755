"""What the bot says about tournaments: pure builders of texts, buttons and the standings image.

Times are Discord timestamps (``<t:…:f>``), which every reader's client shows in their own time zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from bot.access import tournament_figures
from bot.discord_app.limits import tame, visible
from bot.discord_app.messages import Payload
from bot.discord_app.views import ConfirmPairButton, view_of
from bot.texts.catalog import score_number, settings_line, t
from bot.texts.labels import table_theme
from bot.texts.language import Language
from bot.tournaments.model import Entry, Tournament, TournamentStatus
from bot.tournaments.standings import Field, Row, Standings
from rendering.standings import StandingRow, StandingsLabels, render_standings

NAME_SHOWN = 60  # characters of a participant's name in a list line


def when(timestamp: float) -> str:
    return f"<t:{int(timestamp)}:f>"


def tournament_title(tournament: Tournament) -> str:
    return t("tournament.title", tournament.settings.language, name=tame(tournament.name, 80),
             tournament=tournament.id)


def status_text(tournament: Tournament, lang: Language) -> str:
    if tournament.status is TournamentStatus.OPEN:
        return t("tournament.status_open", lang, closes=when(tournament.closes_at))
    return t(f"tournament.status_{tournament.status.value}", lang)


def created_text(tournament: Tournament) -> str:
    lang = tournament.settings.language
    settings = settings_line(tournament.settings.rules, lang, tournament.settings.ai_level)
    limit = t("tournament.limit", lang, max=tournament.max_participants) if tournament.max_participants else ""
    pairs = t("tournament.pairs", lang) if tournament.pairs else ""
    if tournament.daily is not None:
        return t("tournament.daily_opened", lang, day=tournament.daily, tournament=tournament.id,
                 closes=when(tournament.closes_at), hands=tournament.hands)
    return t("tournament.created", lang, name=tame(tournament.name, 80), tournament=tournament.id,
             closes=when(tournament.closes_at), hands=tournament.hands, settings=settings, limit=limit, pairs=pairs)


def welcome_text(tournament: Tournament, entry: Entry) -> str:
    lang = tournament.settings.language
    closes = when(tournament.closes_at)
    name = tame(tournament.name, 80)
    if entry.partner_id is not None:
        return t("tournament.welcome_pair", lang, name=name, mention=f"<@{entry.user_id}>",
                 partner=f"<@{entry.partner_id}>", closes=closes)
    return t("tournament.welcome", lang, name=name, mention=f"<@{entry.user_id}>", closes=closes)


def invite_message(tournament: Tournament, entry: Entry) -> Payload:
    """The invitation in the tournament's channel, pinging the partner, with the button only they may press."""
    lang = tournament.settings.language
    assert entry.partner_id is not None
    text = t("tournament.invite", lang, partner=f"<@{entry.partner_id}>", name=tame(entry.name, NAME_SHOWN),
             tournament=tame(tournament.name, 80))
    return Payload(text, view_of([ConfirmPairButton(entry.id, lang)]), mention=entry.partner_id)


def _row_line(row: Row, lang: Language, hands: int, counted: int | None) -> str:
    name = tame(row.entry.label, NAME_SHOWN)
    if counted == 0:
        return t("tournament.row_progress", lang, rank=row.rank, name=name, played=row.hands_played, hands=hands)
    if counted is not None:
        return t("tournament.row_open", lang, rank=row.rank, name=name, total=row.total, played=row.hands_played,
                 hands=hands)
    if row.rank is None:
        return t("tournament.row_playing", lang, name=name, total=row.total, hands=row.hands_played)
    mark = t("tournament.ai_mark", lang) if row.finished_by_ai else ""
    return t("tournament.row", lang, rank=row.rank, name=name, total=row.total, mark=mark)


def standings_text(tournament: Tournament, final: Standings, lang: Language, viewer: int | None,
                   points_lost: Sequence[float] | None = None, limit: int = 20) -> str:
    """The standings as text (for screen readers and a glance): the rankings, then the viewer's hands against
    the field ("hand 5: you 112, best 140, average 98"), with the points lost per hand once the review gives
    them. Only what ``viewer`` may see (``bot.access``): while the tournament is open, figures over the hands they
    played themselves."""
    final = tournament_figures(final, viewer, tournament.status)
    entries = len(final.solo.rows) + len(final.pairs.rows)
    lines = [t("tournament.header", lang, title=tournament_title(tournament), status=status_text(tournament, lang),
               entries=entries)]
    if not entries:
        lines.append(t("tournament.no_entries", lang))
    elif final.counted is not None:
        lines.append(t("tournament.counted", lang, counted=final.counted) if final.counted
                     else t("tournament.hidden", lang))
    for key, field in (("tournament.solo_title", final.solo), ("tournament.pairs_title", final.pairs)):
        if not field.rows:
            continue
        if final.solo.rows and final.pairs.rows:
            lines.append(t(key, lang))
        lines.extend(_row_line(row, lang, final.hands, final.counted) for row in field.rows[:limit])
        if len(field.rows) > limit:
            lines.append(t("tournament.more", lang, n=len(field.rows) - limit))
    row = final.row_of(viewer) if viewer is not None else None
    if row is not None and row.hands_played:
        lines.append(t("tournament.your_hands", lang))
        for line in final.hand_lines(row.entry):
            if line.score is None:
                continue
            params = {"hand": line.hand, "score": line.score, "best": _num(line.best, lang),
                      "average": _num(line.average, lang)}
            if points_lost is not None and line.hand <= len(points_lost):
                lines.append(t("tournament.hand_line_lost", lang, lost=_num(points_lost[line.hand - 1], lang),
                               **params))
            else:
                lines.append(t("tournament.hand_line", lang, **params))
    return "\n".join(lines)


def _num(value: float | None, lang: Language) -> str:
    return "–" if value is None else score_number(value, lang)


def standings_labels(lang: Language) -> StandingsLabels:
    def word(name: str) -> str:
        return t(f"label.{name}", lang)

    return StandingsLabels(players=word("players"), pairs=word("pairs"), total=word("total"), hand=word("hand"),
                           you=word("you"), best=word("best"), average=word("average"), playing=word("playing"),
                           by_ai=word("by_ai"), more=word("more"))


def _rows(field: Field, viewer: int | None, totals: bool) -> list[StandingRow]:
    return [StandingRow(row.rank, row.entry.label, row.total if totals else None, row.hands_played,
                        row.finished_by_ai,
                        viewer is not None and viewer in row.entry.members) for row in field.rows]


def standings_drawing(tournament: Tournament, final: Standings, lang: Language, viewer: int | None) -> partial[bytes]:
    """Draws the standings image for ``viewer`` (their entry highlighted and their hands in the grid; None: the
    field only). The grid compares the viewer with their own field (players alone, or pairs). Only what the
    viewer may see (``bot.access``): no totals and no grid for someone who may see no hand's figures."""
    final = tournament_figures(final, viewer, tournament.status)
    totals = final.counted != 0
    row = final.row_of(viewer) if viewer is not None else None
    field = final.field_of(row.entry) if row is not None else (final.solo if final.solo.rows else final.pairs)
    you = [line.score for line in final.hand_lines(row.entry)] if row is not None else None
    fields = [(t("label.players", lang), _rows(final.solo, viewer, totals)),
              (t("label.pairs", lang), _rows(final.pairs, viewer, totals))]
    settings = tournament.settings
    name = visible(tournament.name)[:80]  # no markdown
    if tournament.status is TournamentStatus.CLOSED:  # the final image says so, with its winner
        winners = ", ".join(visible(row.entry.label)[:NAME_SHOWN] for row in field.winners)
        title = t("tournament.title_final" if winners else "tournament.title_final_none", lang, name=name,
                  tournament=tournament.id, winner=winners)
    else:
        title = t("tournament.title", lang, name=name, tournament=tournament.id)
    return partial(render_standings, title=title, fields=fields, hands=final.hands,
                   best=field.best, average=field.average, you=you, grid=totals,
                   theme=table_theme(settings.felt, settings.four_colour, lang, neutral_teams=True),
                   labels=standings_labels(lang))


def standings_message(tournament: Tournament, final: Standings, lang: Language, viewer: int | None,
                      points_lost: Sequence[float] | None = None) -> Payload:
    """Text and image of the standings for one reader (drawn later: ``Payload.drawn``)."""
    return Payload(standings_text(tournament, final, lang, viewer, points_lost), filename="standings.png",
                   draw=standings_drawing(tournament, final, lang, viewer))


def final_message(tournament: Tournament, final: Standings) -> Payload:
    """The closing announcement in the tournament's channel: the winners and the final standings image (seen by
    anyone: what ``bot.access`` lets anyone see, everything once the tournament is closed)."""
    lang = tournament.settings.language
    final = tournament_figures(final, None, tournament.status)
    name = tame(tournament.name, 80)
    lines: list[str] = []
    for key, field in (("tournament.final", final.solo), ("tournament.final_pairs", final.pairs)):
        winners = field.winners
        if winners:
            names = ", ".join(tame(row.entry.label, NAME_SHOWN) for row in winners)
            lines.append(t(key, lang, name=name, winner=names, total=winners[0].total))
    if not lines:
        lines.append(t("tournament.final_none", lang, name=name))
    text = "\n".join(lines) + "\n\n" + standings_text(tournament, final, lang, None)
    return Payload(text, filename="standings.png", draw=standings_drawing(tournament, final, lang, None))


def winners_text(wins: Sequence[tuple[str, int]], lang: Language, limit: int = 25) -> str:
    if not wins:
        return t("tournament.no_winners", lang)
    lines = [t("tournament.winners_title", lang)]
    rank = 0
    for index, (name, count) in enumerate(wins[:limit]):
        if index == 0 or count != wins[index - 1][1]:
            rank = index + 1
        lines.append(t("tournament.winners_row", lang, rank=rank, name=tame(name, NAME_SHOWN), wins=count))
    return "\n".join(lines)


def tournament_label(tournament: Tournament, lang: Language) -> str:
    """An autocomplete line (plain text: Discord shows no markdown or timestamps there)."""
    key = "tournament.status_open_short" if tournament.is_open else f"tournament.status_{tournament.status.value}"
    status = t(key, lang)
    return t("tournament.label", lang, tournament=tournament.id, name=tournament.name, status=status)[:100]
