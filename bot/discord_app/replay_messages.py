"""What a replay, an export and a list of matches say: pure builders from a match that is over.

A replay is private and in the viewer's language; teams are Wij and Zij from the viewer's side when they
sat at the table (their seat at the end of the match), NS and EW otherwise. Pages: the score sheet, then
per hand its deal and bidding (every seat's cards: the match is over) and each of its tricks. Building a
page replays the match up to it and draws its image, so call these in a worker thread.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import partial

import discord

from bot.discord_app.limits import shorten, visible
from bot.discord_app.messages import Payload, settlement_lines
from bot.discord_app.views import Position, ReplayNav, ReplayStepButton, browser_button, view_of
from bot.tables.archive import Match, MatchSummary, Outcome
from bot.tables.model import Table
from bot.texts.catalog import card_text, roem_text, suit_name, t, team_word
from bot.texts.labels import names_of, table_theme
from bot.texts.language import Language
from engine.actions import Call
from engine.cards import Seat, Team, cards_of, seat_after
from engine.game import scored_trick_roem
from engine.record import FORMAT, export_record
from engine.replay import Replay, Step
from engine.settings import Bidding, RoemMode
from engine.view import seat_view_of
from rendering import Theme, render_deal, render_sheet, render_trick

LABEL_LIMIT = 100  # characters of an autocomplete choice's name
NAME_LIMIT = 16  # characters of a player's name inside a label


# ------------------------------------------------------------------ who is looking


def viewer_seat(table: Table, user_id: int) -> Seat | None:
    """The viewer's seat at the end of the match (None: they did not sit there then)."""
    return table.seat_of(user_id)


def team_order(viewer: Team | None) -> tuple[Team, Team]:
    """The viewer's team first; NS first for someone who did not play."""
    return (viewer, viewer.other) if viewer is not None else (Team.NS, Team.EW)


def teams_text(table: Table, viewer: Team | None, lang: Language, limit: int | None = None) -> str:
    """``Wij: Anna, Bert – Zij: Chris, AI West`` (NS and EW for an onlooker)."""
    names = names_of(table, lang)
    first, second = team_order(viewer)

    def who(team: Team) -> str:
        return ", ".join(shorten(visible(names[seat]), limit) if limit else names[seat] for seat in team.seats)

    return t("replay.teams", lang, first=team_word(first, viewer, lang), first_names=who(first),
             second=team_word(second, viewer, lang), second_names=who(second))


def when(stamp: str) -> str:
    """The date of a stored time (``2025-01-03T20:15:00.000Z``)."""
    return stamp[:10]


def theme_for(table: Table, viewer: Team | None, lang: Language) -> Theme:
    s = table.settings
    return table_theme(s.felt, s.four_colour, lang, neutral_teams=viewer is None)


# ------------------------------------------------------------------ the pages


def replay_page(match: Match, viewer: int, position: Position, lang: Language, link: str | None = None) -> Payload:
    """One page of the replay with its buttons; the image is drawn later (``Payload.drawn``). ``link``: the match
    on the web table, an "Open in browser" button."""
    table, replay = match.table, match.replay
    seat = viewer_seat(table, viewer)
    team = seat.team if seat is not None else None
    header = t("replay.header", lang, table=table.id, teams=teams_text(table, team, lang))
    if position is None:
        body, draw = sheet_page(match, team, lang)
    elif position[1] == 0:
        body, draw = deal_page(match, replay.step(*position), seat, lang)
    else:
        body, draw = trick_page(match, replay.step(*position), seat, lang)
    view = replay_view(table.id, viewer, replay, position, lang)
    if link is not None:
        view.add_item(browser_button(link, lang))
    return Payload("\n".join([header, *body]), view, filename="replay.png", draw=draw)


def sheet_page(match: Match, viewer: Team | None, lang: Language) -> tuple[list[str], partial[bytes]]:
    table = match.table
    game = match.replay.final()
    first, second = team_order(viewer)
    totals = game.totals
    if game.finished and game.winner is not None:
        result = t("match.won", lang, team=team_word(game.winner, viewer, lang), won=max(totals), lost=min(totals),
                   hands=len(game.hands))
    elif game.finished:
        result = t("match.draw", lang, ns=totals[0], ew=totals[1], hands=len(game.hands))
    else:
        key = "replay.stopped_after" if game.hands[-1].result is not None else "replay.stopped_during"
        result = t(key, lang, n=len(game.hands), first=team_word(first, viewer, lang), a=totals[first],
                   second=team_word(second, viewer, lang), b=totals[second])
    draw = partial(render_sheet, tuple(game.results), viewer_team=viewer, names=names_of(table, lang),
                   hands_total=table.rules.length.hands, finished=game.finished,
                   winner=game.winner if game.finished else None, theme=theme_for(table, viewer, lang))
    return [result, t("replay.sheet", lang)], draw


def hand_line(replay: Replay, step: Step) -> dict[str, int]:
    return {"n": step.hand_index + 1, "hands": replay.hands}


def deal_page(match: Match, step: Step, seat: Seat | None, lang: Language) -> tuple[list[str], partial[bytes]]:
    """The hand's dealer, its bidding, and every seat's cards as dealt."""
    table = match.table
    names = names_of(table, lang)
    hand = step.hand
    lines = [t("replay.hand", lang, name=names[hand.dealer], **hand_line(match.replay, step))]
    lines.extend(bidding_lines(table, step, names, lang))
    lines.append(t("replay.deal", lang))
    bottom = seat if seat is not None else Seat.S
    order = [seat_after(bottom, i) for i in range(4)]
    views = [seat_view_of(step.view, s, tuple(cards_of(hand.deal[s])), ()) for s in order]
    team = seat.team if seat is not None else None
    return lines, partial(render_deal, views, names, theme=theme_for(table, team, lang))


def bidding_lines(table: Table, step: Step, names: dict[Seat, str], lang: Language) -> list[str]:
    """The calls as the thread told them: suits turned, passes, and who plays which trump."""
    hand = step.hand
    draaien = table.rules.bidding is Bidding.DRAAIEN
    lines: list[str] = []
    turned = list(hand.turned)
    for index, (seat, call) in enumerate(hand.bids):
        if draaien and index % 4 == 0 and turned:
            lines.append(t("bid.turned", lang, suit=turned.pop(0).symbol))  # each round of four calls has its suit
        if call is Call.PASS:
            lines.append(t("bid.passes", lang, name=names[seat]))
    lines.extend(t("bid.turned", lang, suit=suit.symbol) for suit in turned)
    if hand.trump is not None and hand.player is not None:
        lines.append(t("bid.trump", lang, name=names[hand.player], suit=hand.trump.symbol,
                       suit_name=suit_name(hand.trump, lang), elder=names[hand.elder]))
    else:
        lines.append(t("replay.bidding_stopped", lang))
    return lines


def trick_page(match: Match, step: Step, seat: Seat | None, lang: Language) -> tuple[list[str], partial[bytes]]:
    """Who played what, who won, the roem, the hand so far; after the last trick the hand's result."""
    table = match.table
    names = names_of(table, lang)
    team = seat.team if seat is not None else None
    first, second = team_order(team)
    trick = step.trick
    plays = trick.plays if trick is not None else step.view.trick_plays
    played = " · ".join(t("replay.play", lang, name=names[s], card=card_text(c, lang)) for s, c in plays)
    lines = [t("replay.trick", lang, trick=step.step, plays=played, **hand_line(match.replay, step))]
    if trick is None:
        lines.append(t("replay.trick_stopped", lang))
    else:
        lines.append(t("trick", lang, n=step.step, name=names[trick.winner], card=card_text(trick.winning_card, lang),
                       points=trick.points))
        if trick.roem:
            parts = roem_text(trick.roem_parts, lang)
            if scored_trick_roem(step.hand, trick, table.rules.roem is RoemMode.DECLARED):
                lines.append(t("trick.roem", lang, parts=parts, team=team_word(trick.winner.team, team, lang)))
            else:
                lines.append(t("replay.roem_unclaimed", lang, parts=parts))
        points, roem = step.game.hand_points_so_far(step.hand)

        def so_far(side: Team) -> str:
            word = team_word(side, team, lang)
            if roem[side]:
                return t("replay.team_points_roem", lang, team=word, points=points[side], roem=roem[side])
            return t("replay.team_points", lang, team=word, points=points[side])

        result = step.hand.result
        if result is None:
            lines.append(t("replay.so_far", lang, first=so_far(first), second=so_far(second)))
        else:
            lines.append(t("replay.hand_result", lang, n=result.hand + 1, first=team_word(first, team, lang),
                           a=result.score[first], second=team_word(second, team, lang), b=result.score[second]))
            lines.extend(settlement_lines(result, names, lang, team))
    draw = partial(render_trick, step.view, names, seat=seat, trick=trick, theme=theme_for(table, team, lang))
    return lines, draw


# ------------------------------------------------------------------ the buttons


def nav_targets(replay: Replay, position: Position) -> dict[ReplayNav, Position]:
    """Where each button goes from ``position``; a button missing here has nowhere to go (disabled)."""
    targets: dict[ReplayNav, Position] = {}
    if position is None:
        targets[ReplayNav.NEXT] = targets[ReplayNav.NEXT_HAND] = (0, 0)
        return targets
    hand, step = position
    targets[ReplayNav.SHEET] = None
    targets[ReplayNav.PREV_HAND] = (hand - 1, 0) if hand > 0 else None
    if step > 0:
        targets[ReplayNav.PREV] = (hand, step - 1)
    else:
        targets[ReplayNav.PREV] = (hand - 1, replay.steps(hand - 1)) if hand > 0 else None
    if step < replay.steps(hand):
        targets[ReplayNav.NEXT] = (hand, step + 1)
    elif hand + 1 < replay.hands:
        targets[ReplayNav.NEXT] = (hand + 1, 0)
    if hand + 1 < replay.hands:
        targets[ReplayNav.NEXT_HAND] = (hand + 1, 0)
    return targets


def replay_view(table: int, viewer: int, replay: Replay, position: Position, lang: Language) -> discord.ui.View:
    targets = nav_targets(replay, position)
    return view_of([ReplayStepButton(table, viewer, targets.get(nav, position), nav, lang, enabled=nav in targets)
                    for nav in ReplayNav])


# ------------------------------------------------------------------ export


def export_name(table: Table, server: str = "") -> str:
    """``klaverjas-<server>-table-<id>.jsonl``; the server's name only as far as it is plain letters and digits."""
    slug = re.sub(r"[^a-z0-9]+", "-", server.lower()).strip("-")[:30].strip("-")
    return f"klaverjas-{slug}-table-{table.id}.jsonl" if slug else f"klaverjas-table-{table.id}.jsonl"


def export_payload(match: Match, lang: Language, server: str = "") -> Payload:
    """The match's ``klaverjas-record/1`` as a JSON Lines file (one record, one line), as ``klaverjas score``
    reads it."""
    record = export_record(match.replay.final())
    data = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    name = export_name(match.table, server)
    # Payload's one file: here the record, not an image.
    return Payload(t("export.done", lang, table=match.id, format=FORMAT, file=name), image=data, filename=name)


# ------------------------------------------------------------------ lists of matches


def outcome_text(outcome: Outcome, viewer: Team | None, lang: Language) -> str:
    first, second = team_order(viewer)
    totals = outcome.totals
    if not outcome.finished:
        return t("match.result_stopped", lang, a=totals[first], b=totals[second])
    if outcome.winner is None:
        return t("match.result_draw", lang, a=totals[first], b=totals[second])
    return t("match.result_won", lang, team=team_word(outcome.winner, viewer, lang), won=max(totals),
             lost=min(totals))


def match_label(summary: MatchSummary, viewer: int, lang: Language) -> str:
    """``#12 · 2025-01-03 · Wij: Anna, Bert – Zij: Chris, AI West · Wij won 1844–1502``, within Discord's 100
    characters for a choice."""
    table = summary.table
    seat = viewer_seat(table, viewer)
    team = seat.team if seat is not None else None
    label = t("match.label", lang, table=table.id, when=when(summary.ended),
              teams=teams_text(table, team, lang, NAME_LIMIT), result=outcome_text(summary.outcome, team, lang))
    return shorten(visible(label), LABEL_LIMIT)


def matching(labels: Sequence[tuple[int, str]], typed: str) -> list[tuple[int, str]]:
    """The (id, label) pairs for what was typed: a number (``12``, ``#12``) picks the ids it begins, other text the
    labels that hold it (a name, a date), case ignored."""
    needle = visible(typed).casefold().strip().lstrip("#").strip()
    if needle.isascii() and needle.isdigit():
        return [(i, label) for i, label in labels if str(i).startswith(needle)]
    return [(i, label) for i, label in labels if needle in label.casefold()]
